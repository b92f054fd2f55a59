// SPDX-License-Identifier: Apache-2.0
// pisa_crc32: reflected CRC-32 over a byte stream, WIDTH/8 bytes per cycle (Ethernet FCS,
// exact-match way hashes).
//
// Defaults give CRC-32/ISO-HDLC, the Ethernet FCS and zlib's crc32 (lib/pisa_hash.c
// pisa_crc32): poly 0x04C11DB7, reflected in and out, init and xorout 0xFFFFFFFF;
// "123456789" -> 0xCBF43926. Other POLY values give the other reflected CRC-32s
// (0x1EDC6F41 CRC-32C, 0x741B8CD7 CRC-32K, 0x814141AB CRC-32Q: the way hashes).
//
// Input: one frame = the words from the first after a last up to and including the one with
// s_last. s_keep marks the bytes present; only the last word of a frame may have bytes missing,
// and those must be the later lanes (keep = 0..01..1 in lane order). A word with no byte kept
// is allowed (an empty frame, or a last word carrying nothing).
// Lanes: BIG_ENDIAN = 0: byte lane i is s_data[8i+7:8i] with keep bit i, lane 0 comes first
// (AXI-Stream, the MAC side). BIG_ENDIAN = 1: lane 0 is the most significant byte, keep bit
// KW-1 marks it (network order, the way PHV words travel).
// Output: one word per frame on m_crc, the final value after xorout; it stays until taken.
// Stream contract (both ports): a word moves when valid && ready at a rising clock edge; once
// a source raises valid it keeps valid high and data stable until ready; a source never waits
// for ready before raising valid. s_ready is low only while a result waits for m_ready.
`default_nettype none

module pisa_crc32 #(
	// Input bits per cycle: 8, 16, 32 or 64 (one to eight bytes).
	parameter WIDTH = 8,
	// The generator polynomial in normal (not reversed) notation, x^32 implied.
	parameter [31:0] POLY = 32'h04C11DB7,
	// Register value at the start of each frame.
	parameter [31:0] INIT = 32'hFFFFFFFF,
	// XORed into the register to give the result.
	parameter [31:0] XOROUT = 32'hFFFFFFFF,
	// Byte lane order, see above: 0 lane 0 = low byte, 1 lane 0 = high byte.
	parameter BIG_ENDIAN = 0,
	// Bytes per cycle, derived.
	parameter KW = WIDTH / 8
) (
	input  wire             clk,
	input  wire             rst,

	input  wire [WIDTH-1:0] s_data,
	input  wire [KW-1:0]    s_keep,
	input  wire             s_last,
	input  wire             s_valid,
	output wire             s_ready,

	output wire [31:0]      m_crc,
	output wire             m_valid,
	input  wire             m_ready
);

generate
	if (WIDTH != 8 && WIDTH != 16 && WIDTH != 32 && WIDTH != 64) begin : g_bad_width
		pisa_crc32_error_width_must_be_8_16_32_or_64 u_stop ();
	end
	if (BIG_ENDIAN != 0 && BIG_ENDIAN != 1) begin : g_bad_order
		pisa_crc32_error_big_endian_must_be_0_or_1 u_stop ();
	end
endgenerate

// The reflected algorithm shifts right with the bit-reversed polynomial.
function [31:0] reverse32(input [31:0] v);
	integer i;
	begin
		for (i = 0; i < 32; i = i + 1)
			reverse32[i] = v[31 - i];
	end
endfunction

localparam [31:0] RPOLY = reverse32(POLY);

// One byte into the register, data bits LSB first.
function [31:0] crc_byte(input [31:0] crc, input [7:0] b);
	integer i;
	reg [31:0] c;
	begin
		c = crc;
		for (i = 0; i < 8; i = i + 1)
			c = (c >> 1) ^ ((c[0] ^ b[i]) ? RPOLY : 32'h0);
		crc_byte = c;
	end
endfunction

reg [31:0] crc_reg = INIT, crc_next;
reg [31:0] m_crc_reg, m_crc_next;
reg m_valid_reg = 1'b0, m_valid_next;

wire push = s_valid && s_ready;
wire pop = m_valid_reg && m_ready;

assign s_ready = !m_valid_reg || m_ready;
assign m_crc = m_crc_reg;
assign m_valid = m_valid_reg;

// The word's bytes in stream order with their keep bits.
reg [31:0] word_crc;
integer k;
always @* begin
	word_crc = crc_reg;
	for (k = 0; k < KW; k = k + 1) begin
		if (BIG_ENDIAN != 0) begin
			if (s_keep[KW - 1 - k])
				word_crc = crc_byte(word_crc, s_data[WIDTH - 1 - 8 * k -: 8]);
		end else begin
			if (s_keep[k])
				word_crc = crc_byte(word_crc, s_data[8 * k +: 8]);
		end
	end
end

always @* begin
	crc_next = crc_reg;
	m_crc_next = m_crc_reg;
	m_valid_next = m_valid_reg;

	if (pop)
		m_valid_next = 1'b0;
	if (push) begin
		if (s_last) begin
			crc_next = INIT;
			m_crc_next = word_crc ^ XOROUT;
			m_valid_next = 1'b1;
		end else begin
			crc_next = word_crc;
		end
	end
end

always @(posedge clk) begin
	crc_reg <= crc_next;
	m_valid_reg <= m_valid_next;
	if (rst) begin
		crc_reg <= INIT;
		m_valid_reg <= 1'b0;
	end
end

always @(posedge clk)
	m_crc_reg <= m_crc_next;

`ifdef FORMAL
// Checked by hw/formal: the stream contract and frame boundaries. The values themselves are
// checked by the testbench against known vectors and a table-driven reference.
reg f_past_valid = 1'b0;
always @(posedge clk)
	f_past_valid <= 1'b1;

initial assume (rst);

always @(posedge clk)
	if (f_past_valid && !$past(rst) && $past(s_valid && !s_ready)) begin
		assume (s_valid);
		assume ($stable(s_data) && $stable(s_keep) && $stable(s_last));
	end

// Formal-only shadow: the register over the frame so far, one byte lane at a time.
reg f_in_frame = 1'b0;
always @(posedge clk) begin
	if (rst)
		f_in_frame <= 1'b0;
	else if (push)
		f_in_frame <= !s_last;
end

always @(posedge clk) begin
	if (f_past_valid && !$past(rst) && $past(m_valid && !m_ready)) begin
		assert (m_valid);
		assert ($stable(m_crc));
	end
	if (f_past_valid && $past(rst))
		assert (!m_valid && crc_reg == INIT);
	// Between frames the register is back at INIT.
	if (f_past_valid && !f_in_frame)
		assert (crc_reg == INIT);
	// A result appears exactly one cycle after the last word of a frame.
	if (f_past_valid && !$past(rst))
		assert (m_valid == ($past(push && s_last) || $past(m_valid && !m_ready)));
	if (f_past_valid && !$past(rst) && $past(push && s_last))
		assert (m_crc == ($past(word_crc) ^ XOROUT));
	assert (s_ready == (!m_valid || m_ready));
end

always @(posedge clk)
	cover (f_past_valid && !$past(rst) && $past(m_valid && !m_ready) && m_valid && m_ready);
`endif

endmodule

`resetall
