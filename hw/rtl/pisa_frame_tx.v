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
// The CRC is computed byte-serially as the bytes leave, so nothing is buffered. s_last is
// not needed to find the end (len gives it) and is not checked.
// Stream contract (all ports): a word moves when valid && ready at a rising clock edge; once
// a source raises valid it keeps valid high and data stable until ready; a source never waits
// for ready before raising valid. m_data/m_valid come from registers; one byte per cycle.
`default_nettype none

module pisa_frame_tx (
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

localparam [31:0] RPOLY = 32'hEDB88320;

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

localparam [1:0]
	ST_IDLE = 2'd0, // waiting for a header
	ST_HDR = 2'd1,  // bytes 0 .. 7
	ST_PAY = 2'd2,  // payload
	ST_CRC = 2'd3;  // 4 CRC bytes

reg [1:0] state_reg = ST_IDLE, state_next;
reg [15:0] seq_reg, seq_next;
reg [7:0] type_reg, type_next;
reg [15:0] len_reg, len_next;
reg [15:0] idx_reg, idx_next;   // byte within the current part
reg [31:0] crc_reg, crc_next;
reg [7:0] m_data_reg, m_data_next;
reg m_valid_reg = 1'b0, m_valid_next;
reg m_last_reg, m_last_next;

// The output register can take a byte in this cycle.
wire load = !m_valid_reg || m_ready;
wire [31:0] crc_final = ~crc_reg;

// A new header only once the previous frame's last byte is leaving.
assign s_hdr_ready = state_reg == ST_IDLE && load;
assign s_ready = state_reg == ST_PAY && load;
assign m_data = m_data_reg;
assign m_valid = m_valid_reg;
assign m_last = m_last_reg;

reg [7:0] hdr_byte;
always @* begin
	case (idx_reg[2:0])
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

always @* begin
	state_next = state_reg;
	seq_next = seq_reg;
	type_next = type_reg;
	len_next = len_reg;
	idx_next = idx_reg;
	crc_next = crc_reg;
	m_data_next = m_data_reg;
	m_valid_next = m_valid_reg;
	m_last_next = m_last_reg;

	if (m_valid_reg && m_ready)
		m_valid_next = 1'b0;

	case (state_reg)
	ST_IDLE: begin
		if (s_hdr_valid && load) begin
			seq_next = s_hdr_seq;
			type_next = s_hdr_type;
			len_next = s_hdr_len;
			idx_next = 16'd0;
			crc_next = 32'hFFFFFFFF;
			state_next = ST_HDR;
		end
	end
	ST_HDR: begin
		if (load) begin
			m_data_next = hdr_byte;
			m_valid_next = 1'b1;
			m_last_next = 1'b0;
			if (idx_reg[2:0] >= 3'd2)
				crc_next = crc_byte(crc_reg, hdr_byte);
			idx_next = idx_reg + 16'd1;
			if (idx_reg[2:0] == 3'd7) begin
				idx_next = 16'd0;
				state_next = len_reg == 16'd0 ? ST_CRC : ST_PAY;
			end
		end
	end
	ST_PAY: begin
		if (load && s_valid) begin
			m_data_next = s_data;
			m_valid_next = 1'b1;
			m_last_next = 1'b0;
			crc_next = crc_byte(crc_reg, s_data);
			idx_next = idx_reg + 16'd1;
			if (idx_reg == len_reg - 16'd1) begin
				idx_next = 16'd0;
				state_next = ST_CRC;
			end
		end
	end
	ST_CRC: begin
		if (load) begin
			m_data_next = crc_final[8 * idx_reg[1:0] +: 8];
			m_valid_next = 1'b1;
			m_last_next = idx_reg[1:0] == 2'd3;
			idx_next = idx_reg + 16'd1;
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
		idx_reg <= 16'd0;
	end
end

always @(posedge clk) begin
	seq_reg <= seq_next;
	type_reg <= type_next;
	len_reg <= len_next;
	crc_reg <= crc_next;
	m_data_reg <= m_data_next;
	m_last_reg <= m_last_next;
end

`ifdef FORMAL
// Checked by hw/formal: the stream contracts and the frame length (12 + len bytes out per
// header taken, m_last on the final one).
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

// Bytes of the current frame sent so far (formal-only).
reg [15:0] f_sent = 16'd0;
always @(posedge clk) begin
	if (rst)
		f_sent <= 16'd0;
	else if (m_valid && m_ready)
		f_sent <= m_last ? 16'd0 : f_sent + 16'd1;
end

always @(posedge clk) begin
	if (f_past_valid && !$past(rst) && $past(m_valid && !m_ready)) begin
		assert (m_valid);
		assert ($stable(m_data) && $stable(m_last));
	end
	if (state_reg == ST_HDR)
		assert (idx_reg <= 16'd7);
	if (state_reg == ST_PAY)
		assert (idx_reg < len_reg);
	if (state_reg == ST_CRC)
		assert (idx_reg <= 16'd3);
	// Bytes loaded into the output register so far, per part of the frame.
	if (state_reg == ST_HDR)
		assert (f_sent + {15'd0, m_valid} == idx_reg && !(m_valid && m_last));
	if (state_reg == ST_PAY)
		assert (f_sent + {15'd0, m_valid} == idx_reg + 16'd8 && !(m_valid && m_last));
	if (state_reg == ST_CRC)
		assert (f_sent + {15'd0, m_valid} == idx_reg + len_reg + 16'd8 &&
			!(m_valid && m_last));
	if (state_reg == ST_IDLE && m_valid)
		assert (m_last && f_sent == len_reg + 16'd11);
	if (state_reg == ST_IDLE && !m_valid)
		assert (f_sent == 16'd0);
	// Every frame starts with the sync byte.
	if (state_reg == ST_HDR && idx_reg == 16'd1 && m_valid)
		assert (m_data == 8'hA5);
	if (state_reg != ST_IDLE || m_valid)
		assert (len_reg <= 16'd3);
end

always @(posedge clk)
	cover (m_valid && m_ready && m_last && len_reg == 16'd0);
`endif

endmodule

`resetall
