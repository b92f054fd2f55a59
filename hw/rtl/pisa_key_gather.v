// SPDX-License-Identifier: Apache-2.0
// pisa_key_gather: a stage's match key, read from its copy of the PHV and sent a byte a clock
// to the lookup (pisa_exact_match's s_key_*), the second block of the streaming pipeline
// (docs/rtl-core.md, "Towards the pipeline"); pisa_core does not use it yet.
//
// The key is the table's key fields concatenated in order, most significant first, as one
// K-bit number right-aligned in KB = ceil(K / 8) bytes (lib/pisa_switch.h), K the sum of the
// fields' widths: the key bytes are those pisa-model builds. A field is (bit offset, width) in
// the PHV, bit 0 the most significant bit of byte 0 (docs/architecture.md).
//
// The fields (cfg_*) must hold from the start until the last key byte has left, and be
// sensible: 1 .. FIELDS fields of 1 .. 64 bits, K at most 8 KEY_BYTES, every field inside the
// PHV_BYTES the read port reaches (what writes the configuration checks that; else the key is
// wrong, but the gatherer still ends). The
// PHV is read through phv_raddr, a register, with phv_rdata the byte there in the next clock
// (a pisa_ram read port).
//
// How: each clock reads the PHV byte holding the next piece of a field (up to 8 bits, never
// across a byte); three clocks later that piece goes into an accumulator that started with the
// key's leading zero bits, and every full byte leaves on m_key_*. A field of w bits at bit b
// takes ceil(((b mod 8) + w) / 8) clocks, the key four more; m_key_ready low holds everything.
// Stream contract as everywhere in hw/: a word moves when valid && ready at a rising edge.
`default_nettype none

module pisa_key_gather #(
	parameter PHV_BYTES = 256,	// bytes the read port reaches, a power of 2
	parameter FIELDS = 8,		// most key fields
	parameter KEY_BYTES = 8,	// longest key
	parameter PA = $clog2(PHV_BYTES),			// (derived)
	parameter FI_W = $clog2(FIELDS + 1)			// (derived)
) (
	input  wire                clk,
	input  wire                rst,

	input  wire [FI_W-1:0]     cfg_nfields,
	input  wire [16*FIELDS-1:0] cfg_off,	// field i: bit offset at [16 i +: 16] ...
	input  wire [7*FIELDS-1:0] cfg_width,	// ... and width at [7 i +: 7]
	input  wire                s_start_valid,	// a PHV is there: build its key
	output wire                s_start_ready,

	output reg  [PA-1:0]       phv_raddr,
	input  wire [7:0]          phv_rdata,

	output reg  [7:0]          m_key_data,
	output reg                 m_key_last,
	output reg                 m_key_valid,
	input  wire                m_key_ready
);

localparam KB_W = $clog2(KEY_BYTES + 1);

// ---- the key's length: its bits, its bytes and its leading zero bits ----
reg [12:0] key_bits;
integer i;
always @(*) begin
	key_bits = 13'd0;
	for (i = 0; i < FIELDS; i = i + 1)
		if (i < cfg_nfields)
			key_bits = key_bits + {6'd0, cfg_width[7 * i +: 7]};
end
wire [2:0] pad_bits = 3'd0 - key_bits[2:0];
wire [12:0] key_bytes = (key_bits + 13'd7) >> 3;

wire stall = m_key_valid && !m_key_ready;
reg busy;
assign s_start_ready = !busy;
wire start = s_start_valid && s_start_ready;

// ---- issue: the next piece of the current field, its byte's address. A piece that is not
// its field's last runs to the end of its byte, so the next one starts a byte on. ----
reg issuing;			// pieces left to read
reg [FI_W-1:0] fi_next;		// the field after the current one (fi + 1: no adder before
				// the mux that picks its offset) ...
reg [12:0] pos;			// ... the PHV byte of the current field's next piece ...
reg [2:0] pos_bit;		// ... that piece's first bit ...
reg [6:0] span;			// ... and its bits left, counted from that byte's first bit
// each field's span from the configuration alone, so that none is added after that mux
reg [7*FIELDS-1:0] spans;	// field f's bits counted from its first byte's first bit
integer f;
always @(*)
	for (f = 0; f < FIELDS; f = f + 1)
		spans[7 * f +: 7] = {4'd0, cfg_off[16 * f +: 3]} + cfg_width[7 * f +: 7];
wire [15:0] off_next = cfg_off[16 * fi_next +: 16];
wire [6:0] span_next = spans[7 * fi_next +: 7];
wire last_piece = span <= 7'd8;
wire last_field = fi_next >= cfg_nfields;
wire _unused_pos = &{1'b0, pos, 1'b0};	// (above PA + 3 bits: outside the PHV)

// ---- consume, in three clocks so that each does one shift: the byte read last clock is
// registered as it leaves the memory, then its piece is cut out, left-aligned, then put in the
// accumulator behind the bits already there ----
reg c_valid;			// the read issued last clock is a piece ...
reg [2:0] c_shift;		// ... from this bit of its byte ...
reg [3:0] c_end;		// ... to the bit before this one
reg r_valid;
reg [7:0] r_byte;
reg [2:0] r_shift;
reg [3:0] r_n;
reg p_valid;
reg [7:0] p_bits;		// the piece, left-aligned, zeros after it
reg [3:0] p_n;
reg [15:0] acc;			// the key's bits not sent yet, the oldest at bit 15, zeros after
reg [3:0] acc_n;		// how many (at most 7 between clocks)
reg [KB_W-1:0] left;		// key bytes still to send

wire [3:0] nn = p_valid ? acc_n + p_n : acc_n;
wire [15:0] nacc = p_valid ? acc | ({p_bits, 8'd0} >> acc_n) : acc;
wire emit = nn >= 4'd8;

always @(posedge clk) begin
	if (m_key_valid && m_key_ready)
		m_key_valid <= 1'b0;
	if (start) begin
		busy <= key_bytes != 13'd0;	// (no fields: no key)
		issuing <= 1'b1;
		fi_next <= {{(FI_W-1){1'b0}}, 1'b1};
		pos <= cfg_off[15:3];
		pos_bit <= cfg_off[2:0];
		span <= spans[6:0];
		c_valid <= 1'b0;
		r_valid <= 1'b0;
		p_valid <= 1'b0;
		acc <= 16'd0;
		acc_n <= {1'b0, pad_bits};	// leading zeros: the key is right-aligned
		left <= key_bytes[KB_W-1:0];
	end else if (busy && !stall) begin
		// issue
		c_valid <= issuing;
		if (issuing) begin
			phv_raddr <= pos[PA-1:0];
			c_shift <= pos_bit;
			c_end <= last_piece ? span[3:0] : 4'd8;
			if (!last_piece) begin
				pos <= pos + 1'b1;
				pos_bit <= 3'd0;
				span <= span - 7'd8;
			end else if (!last_field) begin
				fi_next <= fi_next + 1'b1;
				pos <= off_next[15:3];
				pos_bit <= off_next[2:0];
				span <= span_next;
			end else begin
				issuing <= 1'b0;
			end
		end
		// consume and send
		r_valid <= c_valid;
		r_byte <= phv_rdata;
		r_shift <= c_shift;
		r_n <= c_end - {1'b0, c_shift};
		p_valid <= r_valid;
		p_bits <= (r_byte << r_shift) & ~(8'hFF >> r_n);
		p_n <= r_n;
		if (emit) begin
			m_key_data <= nacc[15:8];
			m_key_last <= left == 1;
			m_key_valid <= 1'b1;
			left <= left - 1'b1;
			acc <= nacc << 8;
			acc_n <= nn - 4'd8;
			if (left == 1)
				busy <= 1'b0;
		end else begin
			acc <= nacc;
			acc_n <= nn;
			// every piece in and no byte to send: the end of a configuration whose widths
			// do not add up (a sensible one ends with its last byte, above)
			if (!issuing && !c_valid && !r_valid && !p_valid)
				busy <= 1'b0;
		end
	end
	if (rst) begin
		busy <= 1'b0;
		issuing <= 1'b0;
		c_valid <= 1'b0;
		r_valid <= 1'b0;
		p_valid <= 1'b0;
		m_key_valid <= 1'b0;
	end
end

`ifdef FORMAL
// Checked by hw/formal (yosys-smtbmc, BMC and k-induction) for the sensible configurations of
// the header: the key stream keeps the stream contract; the key's bits are all sent, none twice
// (the bytes left always account for the bits not yet sent); at most 7 bits wait in the
// accumulator between clocks (so a byte always leaves from its top 8 bits); and once the last
// byte is out nothing is left in flight.
reg f_past_valid = 1'b0;
always @(posedge clk)
	f_past_valid <= 1'b1;

initial assume (rst);

// the configuration is sensible, and holds while a key is built
integer f_i;
always @(*) begin
	assume (cfg_nfields >= 1 && cfg_nfields <= FIELDS);
	assume (key_bits <= 8 * KEY_BYTES);
	for (f_i = 0; f_i < FIELDS; f_i = f_i + 1) begin
		assume (cfg_width[7 * f_i +: 7] >= 1 && cfg_width[7 * f_i +: 7] <= 64);
		assume ({3'd0, cfg_off[16 * f_i +: 16]} + {12'd0, cfg_width[7 * f_i +: 7]} <=
			8 * PHV_BYTES);
	end
end
always @(posedge clk)
	if (f_past_valid && !$past(rst) && $past(start || busy))
		assume ($stable({cfg_nfields, cfg_off, cfg_width}));

// The bits still to send, counted two ways: the bytes left, and the accumulator's bits, the
// pieces in flight and the bits not read yet (the rest of the current field and the fields
// after it). This equality is what makes the bound on the accumulator inductive.
wire [FI_W-1:0] fi = fi_next - 1'b1;	// the current field
reg [12:0] f_to_read;
always @(*) begin
	f_to_read = issuing ? {6'd0, span} - {10'd0, pos_bit} : 13'd0;
	for (f_i = 0; f_i < FIELDS; f_i = f_i + 1)
		if (issuing && f_i > fi && f_i < cfg_nfields)
			f_to_read = f_to_read + {6'd0, cfg_width[7 * f_i +: 7]};
end
wire [12:0] f_in_flight = (c_valid ? {9'd0, c_end} - {10'd0, c_shift} : 13'd0) +
	(r_valid ? {9'd0, r_n} : 13'd0) + (p_valid ? {9'd0, p_n} : 13'd0);

always @(posedge clk) begin
	if (f_past_valid && !$past(rst) && busy) begin
		assert ({left, 3'd0} == {9'd0, acc_n} + f_in_flight + f_to_read);
		// every piece has 1 to 8 bits
		assert (!c_valid || (c_end > {1'b0, c_shift} && c_end <= 4'd8));
		assert (!r_valid || (r_n >= 4'd1 && r_n <= 4'd8));
		assert (!p_valid || (p_n >= 4'd1 && p_n <= 4'd8));
		assert (!issuing || (fi < cfg_nfields && span > {4'd0, pos_bit}));
	end
	if (f_past_valid && !$past(rst)) begin
		if ($past(m_key_valid && !m_key_ready)) begin
			assert (m_key_valid);
			assert ($stable({m_key_data, m_key_last}));
		end
		if (busy)
			assert (acc_n <= 4'd7);
		// nothing in flight once the key is done
		if (!busy)
			assert (!issuing && !c_valid && !r_valid && !p_valid);
	end
	cover (m_key_valid && m_key_ready && m_key_last);
end
`endif

endmodule

`resetall
