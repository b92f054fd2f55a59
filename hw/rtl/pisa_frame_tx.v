// SPDX-License-Identifier: Apache-2.0
// pisa_frame_tx: control-link frame encoder (docs/control-protocol.md, "Frame").
//
// Takes a header (seq, type, len) on s_hdr_*, then len payload bytes on s_* (s_last on the
// final one; no payload beats when len = 0), and sends the frame as a byte stream:
//
//    offset size field
//    0      1    sync0  0xA5
//    1      1    sync1  0xC3
//    2      2    len    little-endian
//    4      2    seq    little-endian
//    6      1    type
//    7      1    hcheck low byte of the finished CRC-32 of bytes 2 .. 6
//    8      len  payload
//    8+len  4    crc    CRC-32 of bytes 2 .. 8+len-1, little-endian
//
// The CRC is computed as the bytes leave, so nothing is buffered: a byte per cycle, or with
// CRC_SERIAL a bit per cycle (a byte every 8 cycles, for byte links slower than that: UART,
// SPI; the CRC bytes then leave by shifting the register, with no multiplexer). s_last is
// not needed to find the end (len gives it) and is not checked.
// Stream contract (all ports): a word moves when valid && ready at a rising clock edge; once
// a source raises valid it keeps valid high and data stable until ready; a source never waits
// for ready before raising valid. m_data/m_valid come from registers.
`default_nettype none

module pisa_frame_tx #(
	// CRC: 0 = a byte per cycle (about 130 LUT4), 1 = a bit per cycle (about 20 LUT4).
	parameter CRC_SERIAL = 0
) (
	input  wire        clk,
	input  wire        rst,

	input  wire [15:0] s_hdr_seq,
	input  wire [7:0]  s_hdr_type,
	input  wire [15:0] s_hdr_len,
	input  wire        s_hdr_valid,
	output wire        s_hdr_ready,

	input  wire [7:0]  s_data,
	input  wire        s_last,
	input  wire        s_valid,
	output wire        s_ready,

	output wire [7:0]  m_data,
	output wire        m_last,
	output wire        m_valid,
	input  wire        m_ready
);

generate
	if (CRC_SERIAL != 0 && CRC_SERIAL != 1) begin : g_bad_crc
		pisa_frame_tx_error_crc_serial_must_be_0_or_1 u_stop ();
	end
endgenerate

localparam [31:0] RPOLY = 32'hEDB88320;

localparam [1:0]
	ST_IDLE = 2'd0, // waiting for a header
	ST_HDR = 2'd1,  // bytes 0 .. 7
	ST_PAY = 2'd2,  // payload
	ST_CRC = 2'd3;  // 4 CRC bytes

reg [1:0] state_reg = ST_IDLE, state_next;
reg [15:0] seq_reg, seq_next;
reg [7:0] type_reg, type_next;
reg [15:0] len_reg, len_next;
reg [2:0] idx_reg, idx_next;    // byte within the header or the CRC
reg [15:0] rem_reg, rem_next;   // payload bytes left
reg [7:0] m_data_reg, m_data_next;
reg m_valid_reg = 1'b0, m_valid_next;
reg m_last_reg, m_last_next;

// The CRC unit (below): init, feed a byte (crc_byte_in), or shift one out (CRC_SERIAL).
reg crc_init, crc_feed;
reg [7:0] crc_byte_in;               // the byte for the byte-wide unit
reg crc_shift;                       // serial unit: shift the CRC out (CRC bytes)
wire crc_busy;
wire [31:0] crc;
wire [31:0] crc_final = ~crc;

// The output register can take a byte in this cycle.
wire load = (!m_valid_reg || m_ready) && !crc_busy;

// A new header only once the previous frame's last byte is leaving.
assign s_hdr_ready = state_reg == ST_IDLE && load;
assign s_ready = state_reg == ST_PAY && load;
assign m_data = m_data_reg;
assign m_valid = m_valid_reg;
assign m_last = m_last_reg;

reg [7:0] hdr_byte;
always @* begin
	case (idx_reg)
	3'd0: hdr_byte = 8'hA5;
	3'd1: hdr_byte = 8'hC3;
	3'd2: hdr_byte = len_reg[7:0];
	3'd3: hdr_byte = len_reg[15:8];
	3'd4: hdr_byte = seq_reg[7:0];
	3'd5: hdr_byte = seq_reg[15:8];
	3'd6: hdr_byte = type_reg;
	default: hdr_byte = crc_final[7:0];
	endcase
end

// CRC byte idx: the serial unit shifts the register, so it is always the low byte.
wire [7:0] crc_out = CRC_SERIAL != 0 ? crc_final[7:0] : crc_final[8 * idx_reg[1:0] +: 8];

always @* begin
	state_next = state_reg;
	seq_next = seq_reg;
	type_next = type_reg;
	len_next = len_reg;
	idx_next = idx_reg;
	rem_next = rem_reg;
	m_data_next = m_data_reg;
	m_valid_next = m_valid_reg;
	m_last_next = m_last_reg;
	crc_init = 1'b0;
	crc_feed = 1'b0;
	crc_byte_in = hdr_byte;
	crc_shift = 1'b0;

	if (m_valid_reg && m_ready)
		m_valid_next = 1'b0;

	case (state_reg)
	ST_IDLE: begin
		if (s_hdr_valid && load) begin
			seq_next = s_hdr_seq;
			type_next = s_hdr_type;
			len_next = s_hdr_len;
			rem_next = s_hdr_len;
			idx_next = 3'd0;
			crc_init = 1'b1;
			state_next = ST_HDR;
		end
	end
	ST_HDR: begin
		if (load) begin
			m_data_next = hdr_byte;
			m_valid_next = 1'b1;
			m_last_next = 1'b0;
			if (idx_reg >= 3'd2)
				crc_feed = 1'b1;
			idx_next = idx_reg + 3'd1;
			if (idx_reg == 3'd7)
				state_next = len_reg == 16'd0 ? ST_CRC : ST_PAY;
		end
	end
	ST_PAY: begin
		crc_byte_in = s_data;
		if (load && s_valid) begin
			m_data_next = s_data;
			m_valid_next = 1'b1;
			m_last_next = 1'b0;
			crc_feed = 1'b1;
			rem_next = rem_reg - 16'd1;
			if (rem_reg == 16'd1)
				state_next = ST_CRC;
		end
	end
	ST_CRC: begin
		// idx counts on from 0 (8 after the header wrapped to 0)
		crc_shift = 1'b1;
		if (load) begin
			m_data_next = crc_out;
			m_valid_next = 1'b1;
			m_last_next = idx_reg[1:0] == 2'd3;
			crc_feed = CRC_SERIAL != 0;
			idx_next = idx_reg + 3'd1;
			if (idx_reg[1:0] == 2'd3)
				state_next = ST_IDLE;
		end
	end
	default: begin
		state_next = ST_IDLE;
	end
	endcase
end

always @(posedge clk) begin
	state_reg <= state_next;
	m_valid_reg <= m_valid_next;
	idx_reg <= idx_next;
	if (rst) begin
		state_reg <= ST_IDLE;
		m_valid_reg <= 1'b0;
		idx_reg <= 3'd0;
	end
end

always @(posedge clk) begin
	seq_reg <= seq_next;
	type_reg <= type_next;
	len_reg <= len_next;
	rem_reg <= rem_next;
	m_data_reg <= m_data_next;
	m_last_reg <= m_last_next;
end

// The CRC register: CRC-32/ISO-HDLC, reflected, init 0xFFFFFFFF (crc_final = ~crc).
// The proofs (FORMAL) put a stand-in in its place that z3 solves quickly, a rotation with the
// data bit fed in: they check that the CRC sees exactly the frame's bytes, in order, and what
// follows from its result; that the real polynomial is computed is the testbenches' job
// (every frame checked byte for byte against lib/pisa_proto.c).
function [31:0] crc_bit(input [31:0] c, input d);
`ifdef FORMAL
	crc_bit = {c[0] ^ d, c[31:1]};
`else
	crc_bit = (c >> 1) ^ ((c[0] ^ d) ? RPOLY : 32'h0);
`endif
endfunction

function [31:0] crc_upd(input [31:0] c, input [7:0] d);
	integer i;
	reg [31:0] t;
	begin
		t = c;
		for (i = 0; i < 8; i = i + 1)
			t = crc_bit(t, d[i]);
		crc_upd = t;
	end
endfunction

reg [31:0] crc_reg;
assign crc = crc_reg;
generate
	if (CRC_SERIAL != 0) begin : g_crc_serial
		// a byte in the 8 cycles after it was loaded into m_data_reg (which no load
		// changes meanwhile), a bit a cycle; for a CRC byte the feedback is off, so the
		// register shifts right by 8 and its next byte comes down to bits 7:0
		reg [3:0] n = 4'd0;
		reg shift;
		assign crc_busy = n != 4'd0;
		wire d = m_data_reg[3'd0 - n[2:0]];	// n = 8, 7 .. 1: bits 0, 1 .. 7
		always @(posedge clk) begin
			if (crc_init) begin
				crc_reg <= 32'hFFFFFFFF;
			end else if (crc_busy) begin
				crc_reg <= crc_bit(crc_reg, shift ? crc_reg[0] : d);
				n <= n - 4'd1;
			end
			if (crc_feed) begin
				n <= 4'd8;
				shift <= crc_shift;
			end
			if (rst)
				n <= 4'd0;
		end
		wire _unused_in = &{1'b0, crc_byte_in, 1'b0};
	end else begin : g_crc_parallel
		assign crc_busy = 1'b0;
		wire _unused_shift = &{1'b0, crc_shift, 1'b0};
		always @(posedge clk) begin
			if (crc_init)
				crc_reg <= 32'hFFFFFFFF;
			else if (crc_feed)
				crc_reg <= crc_upd(crc_reg, crc_byte_in);
		end
	end
endgenerate

`ifdef FORMAL
// Checked by hw/formal (short payloads): the stream contracts on every port; the frame
// structure (12 + len bytes per header taken, sync bytes first, m_last on the final byte only);
// and the CRC: a ghost CRC over the bytes actually loaded for sending (f_crc) must equal the
// hcheck byte and the four CRC bytes that go out, whichever CRC unit is built. Invariants tie
// the unit's register to the ghost (for the serial unit, bit by bit).
reg f_past_valid = 1'b0;
always @(posedge clk)
	f_past_valid <= 1'b1;

initial assume (rst);

always @(posedge clk)
	if (f_past_valid && !$past(rst)) begin
		if ($past(s_valid && !s_ready)) begin
			assume (s_valid);
			assume ($stable(s_data) && $stable(s_last));
		end
		if ($past(s_hdr_valid && !s_hdr_ready)) begin
			assume (s_hdr_valid);
			assume ($stable(s_hdr_seq) && $stable(s_hdr_type) && $stable(s_hdr_len));
		end
	end
// Keep the proof shallow: short payloads.
always @(posedge clk)
	assume (s_hdr_len <= 16'd3);

// Bytes of the current frame sent (handshakes) and loaded into the output register so far.
reg [15:0] f_sent = 16'd0, f_loaded = 16'd0;	// at most 15 (payloads <= 3)
wire f_load = m_valid_next && (!m_valid_reg || m_ready) && state_reg != ST_IDLE;
always @(posedge clk) begin
	if (rst) begin
		f_sent <= 16'd0;
		f_loaded <= 16'd0;
	end else begin
		if (m_valid && m_ready)
			f_sent <= m_last ? 16'd0 : f_sent + 16'd1;
		if (f_load)
			f_loaded <= f_loaded + 16'd1;
		if (state_reg == ST_IDLE && s_hdr_valid && s_hdr_ready)
			f_loaded <= 16'd0;
	end
end

// Ghost CRC of loaded bytes 2 .. 7 + len, and its value before the last of them.
reg [31:0] f_crc, f_crc_prev;
always @(posedge clk) begin
	if (state_reg == ST_IDLE && s_hdr_valid && s_hdr_ready) begin
		f_crc <= 32'hFFFFFFFF;
		f_crc_prev <= 32'hFFFFFFFF;
	end else if (f_load && f_loaded >= 16'd2 && f_loaded < len_reg + 16'd8) begin
		f_crc <= crc_upd(f_crc, m_data_next);
		f_crc_prev <= f_crc;
	end
end
// The serial unit's register after the first nb bits of byte d.
function [31:0] crc_bits(input [31:0] c, input [7:0] d, input [3:0] nb);
	integer i;
	reg [31:0] t;
	begin
		t = c;
		for (i = 0; i < 8; i = i + 1)
			if (i < nb)
				t = crc_bit(t, d[i]);
		crc_bits = t;
	end
endfunction

always @(posedge clk) begin
	if (f_past_valid && !$past(rst) && $past(m_valid && !m_ready)) begin
		assert (m_valid);
		assert ($stable(m_data) && $stable(m_last));
	end
	// Counters stay in range: header / CRC positions, payload bytes left.
	if (state_reg == ST_HDR)
		assert (f_loaded == {13'd0, idx_reg} && rem_reg == len_reg);
	if (state_reg == ST_PAY)
		assert (rem_reg != 16'd0 && rem_reg <= len_reg && idx_reg == 3'd0 &&
			f_loaded == len_reg - rem_reg + 16'd8);
	if (state_reg == ST_CRC)
		assert (idx_reg <= 3'd3 && rem_reg == 16'd0 &&
			f_loaded == len_reg + 16'd8 + {13'd0, idx_reg});
	// What is loaded is what leaves: the frame so far, the last byte marked.
	if (state_reg != ST_IDLE)
		assert (f_sent + {15'd0, m_valid} == f_loaded && !(m_valid && m_last));
	if (state_reg == ST_IDLE && m_valid)
		assert (m_last && f_sent == len_reg + 16'd11);
	if (state_reg == ST_IDLE && !m_valid)
		assert (f_sent == 16'd0);
	if (state_reg != ST_IDLE || m_valid)
		assert (len_reg <= 16'd3);
	// Every frame starts with the sync bytes.
	if (f_load && f_loaded == 16'd0)
		assert (m_data_next == 8'hA5);
	if (f_load && f_loaded == 16'd1)
		assert (m_data_next == 8'hC3);
	// hcheck and the CRC bytes are those of the bytes loaded before them.
	if (f_load && f_loaded == 16'd7)
		assert (m_data_next == ~f_crc[7:0]);
	if (f_load && state_reg == ST_CRC)
		assert (m_data_next == ~f_crc[8 * idx_reg[1:0] +: 8]);
end

// The ghost's last step was the byte still in the output register.
always @(posedge clk)
	if (state_reg != ST_IDLE && f_loaded > 16'd2 && f_loaded <= len_reg + 16'd8)
		assert (f_crc == crc_upd(f_crc_prev, m_data_reg));

generate
	if (CRC_SERIAL != 0) begin : g_f_serial
		always @(posedge clk) begin
			assert (g_crc_serial.n <= 4'd8);
			// the register: the ghost CRC, partly through the byte in m_data_reg, or
			// shifted right by the CRC bytes already out (after the last one the
			// register still shifts, whether that byte was taken or not: no matter)
			if ((state_reg == ST_CRC && idx_reg != 3'd0) || (state_reg == ST_IDLE && m_valid)) begin
				assert (g_crc_serial.shift || g_crc_serial.n == 4'd0);
				assert (crc_reg == f_crc >> (8 * (f_loaded - len_reg - 16'd8) -
					{12'd0, g_crc_serial.n}));
			end else if (state_reg != ST_IDLE && f_loaded > 16'd2) begin
				assert (!g_crc_serial.shift || g_crc_serial.n == 4'd0);
				assert (crc_reg == crc_bits(f_crc_prev, m_data_reg,
					4'd8 - g_crc_serial.n));
			end else if (state_reg != ST_IDLE) begin
				assert (crc_reg == 32'hFFFFFFFF && g_crc_serial.n == 4'd0);
			end
			if (g_crc_serial.n == 4'd0 && state_reg != ST_IDLE && state_reg != ST_CRC)
				assert (crc_reg == f_crc);
		end
	end else begin : g_f_parallel
		always @(posedge clk)
			if (state_reg != ST_IDLE)
				assert (crc_reg == f_crc);
	end
endgenerate

// Whole frames with the byte-wide unit; with the serial one (9 cycles a byte) the sync bytes.
always @(posedge clk) begin
	if (CRC_SERIAL == 0) begin
		cover (m_valid && m_ready && m_last && len_reg == 16'd0);
		cover (m_valid && m_ready && f_sent == 16'd8 && len_reg == 16'd2);
	end else begin
		cover (m_valid && m_ready && f_sent == 16'd1);
	end
end
`endif

endmodule

`resetall
