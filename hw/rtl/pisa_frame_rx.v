// SPDX-License-Identifier: Apache-2.0
// pisa_frame_rx: control-link frame decoder (docs/control-protocol.md, "Receiving").
//
// Byte stream in, good frames out. The raw bytes go into a circular buffer (block RAM);
// the decoder hunts for a frame at the oldest unconsumed byte exactly as pisa_proto_rx does:
//
//    offset size field                       check
//    0      1    sync0  0xA5                  else skip this byte
//    1      1    sync1  0xC3                  else skip the 0xA5
//    2      2    len    little-endian         <= MAX_PAYLOAD, else skip one byte
//    4      2    seq    little-endian
//    6      1    type
//    7      1    hcheck low byte of CRC(2..6) else skip one byte (counted in cnt_bad)
//    8      len  payload
//    8+len  4    crc    CRC-32(2..8+len-1)    else skip one byte (counted in cnt_bad)
//
// Skipping one byte (not the candidate) means the bytes after it are scanned again from the
// buffer, so a real frame that starts inside a false candidate is still found. Only a frame
// whose CRC is good is emitted: first its header on m_hdr_* (seq, type, len), then, once the
// header is taken, its len payload bytes on m_* with m_last on the final one (no payload
// beats when len = 0). A frame longer than MAX_PAYLOAD is treated like a bad header check
// (the spec allows it for a receiver with smaller buffers; announce MAX_PAYLOAD in HELLO).
// There is no idle timeout: a corrupted length that passes hcheck (1 in 256 corrupted
// headers) holds the frames behind it until enough bytes arrived to fail its CRC.
//
// Stream contract (all ports): a word moves when valid && ready at a rising clock edge; once
// a source raises valid it keeps valid high and data/last stable until ready; a source never
// waits for ready before raising valid. s_ready is low only while the buffer is full.
// Throughput: two cycles per byte scanned, two cycles per payload byte emitted.
`default_nettype none

module pisa_frame_rx #(
	// Largest payload accepted, bytes: 64 .. 10240 (PISA_PROTO_MAX_PAYLOAD). Sets the buffer.
	parameter MAX_PAYLOAD = 1024,
	// Width of the frame counters cnt_frames / cnt_bad / cnt_dropped (they wrap), >= 1.
	parameter CNT_W = 16,
	// Buffer address width, derived: one whole frame of MAX_PAYLOAD fits. The buffer frees
	// as the payload is emitted, so the next frame can arrive while one is being consumed.
	parameter BUF_AW = $clog2(MAX_PAYLOAD + 12)
) (
	input  wire             clk,
	input  wire             rst,

	input  wire [7:0]       s_data,
	input  wire             s_valid,
	output wire             s_ready,

	output wire [15:0]      m_hdr_seq,
	output wire [7:0]       m_hdr_type,
	output wire [15:0]      m_hdr_len,
	output wire             m_hdr_valid,
	input  wire             m_hdr_ready,

	output wire [7:0]       m_data,
	output wire             m_last,
	output wire             m_valid,
	input  wire             m_ready,

	// Good frames emitted, candidates dropped for a bad hcheck or CRC, bytes skipped.
	output wire [CNT_W-1:0] cnt_frames,
	output wire [CNT_W-1:0] cnt_bad,
	output wire [CNT_W-1:0] cnt_dropped
);

generate
	if (MAX_PAYLOAD < 64 || MAX_PAYLOAD > 10240) begin : g_bad_max
		pisa_frame_rx_error_max_payload_must_be_64_to_10240 u_stop ();
	end
	if ((1 << BUF_AW) < MAX_PAYLOAD + 12) begin : g_bad_buf
		pisa_frame_rx_error_buffer_smaller_than_a_frame u_stop ();
	end
	if (CNT_W < 1) begin : g_bad_cnt
		pisa_frame_rx_error_cnt_w_must_be_at_least_1 u_stop ();
	end
endgenerate

localparam [BUF_AW:0] BUF_FULL = 1 << BUF_AW;
localparam [BUF_AW:0] OFF_0 = 0, OFF_1 = 1, OFF_2 = 2, OFF_5 = 5, OFF_8 = 8, OFF_12 = 12;
localparam [15:0] MAXP = MAX_PAYLOAD[15:0];
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

localparam [2:0]
	ST_HUNT = 3'd0,  // byte 0 of a candidate
	ST_SYNC1 = 3'd1, // byte 1
	ST_HDR = 3'd2,   // bytes 2 .. 7
	ST_BODY = 3'd3,  // payload and CRC bytes
	ST_EMIT = 3'd4,  // header out
	ST_PAY = 3'd5;   // payload out

(* ram_style = "block" *)
reg [7:0] mem [0:(1 << BUF_AW) - 1];
reg [7:0] rd_data;

reg [BUF_AW:0] wr_reg = {(BUF_AW+1){1'b0}}, wr_next;
reg [BUF_AW:0] start_reg = {(BUF_AW+1){1'b0}}, start_next;
// Offset from start of the byte being looked at.
reg [BUF_AW:0] off_reg = {(BUF_AW+1){1'b0}}, off_next;
// rd_data holds the byte at start + off.
reg have_reg = 1'b0, have_next;
reg [2:0] state_reg = ST_HUNT, state_next;
reg [31:0] crc_reg, crc_next;
reg [15:0] len_reg, len_next;
reg [15:0] seq_reg, seq_next;
reg [7:0] type_reg, type_next;
reg crc_ok_reg, crc_ok_next;
reg [15:0] cnt_reg, cnt_next;  // payload bytes emitted
reg m_hdr_valid_reg = 1'b0, m_hdr_valid_next;
reg m_valid_reg = 1'b0, m_valid_next;
reg [CNT_W-1:0] frames_reg = {CNT_W{1'b0}}, frames_next;
reg [CNT_W-1:0] bad_reg = {CNT_W{1'b0}}, bad_next;
reg [CNT_W-1:0] dropped_reg = {CNT_W{1'b0}}, dropped_next;

wire [BUF_AW:0] fill = wr_reg - start_reg;
wire push = s_valid && s_ready;
// The next byte of the scan is in the buffer but not yet read.
wire can_read = !have_reg && off_reg < fill;
reg rd_en;

assign s_ready = fill != BUF_FULL;
assign m_hdr_seq = seq_reg;
assign m_hdr_type = type_reg;
assign m_hdr_len = len_reg;
assign m_hdr_valid = m_hdr_valid_reg;
assign m_data = rd_data;
assign m_last = cnt_reg == len_reg - 16'd1;
assign m_valid = m_valid_reg;
assign cnt_frames = frames_reg;
assign cnt_bad = bad_reg;
assign cnt_dropped = dropped_reg;

// Index of the CRC byte being checked (offset 8 + len .. 11 + len).
// In 17 bits: len is only trusted (<= MAX_PAYLOAD) after the header check.
wire [16:0] body_end = {1'b0, len_reg} + 17'd8;
wire [16:0] off17 = {{(16 - BUF_AW){1'b0}}, off_reg};
wire [1:0] crc_idx = off_reg[1:0] - len_reg[1:0];  // (off - 8 - len) mod 4
wire [31:0] crc_final = ~crc_reg;

always @* begin
	wr_next = wr_reg;
	start_next = start_reg;
	off_next = off_reg;
	have_next = have_reg;
	state_next = state_reg;
	crc_next = crc_reg;
	len_next = len_reg;
	seq_next = seq_reg;
	type_next = type_reg;
	crc_ok_next = crc_ok_reg;
	cnt_next = cnt_reg;
	m_hdr_valid_next = m_hdr_valid_reg;
	m_valid_next = m_valid_reg;
	frames_next = frames_reg;
	bad_next = bad_reg;
	dropped_next = dropped_reg;
	rd_en = 1'b0;

	if (push)
		wr_next = wr_reg + 1'b1;

	// Fetch: one cycle to read the byte at start + off.
	if (can_read && state_reg != ST_EMIT) begin
		rd_en = 1'b1;
		have_next = 1'b1;
	end

	case (state_reg)
	ST_HUNT: begin
		if (have_reg) begin
			have_next = 1'b0;
			if (rd_data == 8'hA5) begin
				off_next = OFF_1;
				state_next = ST_SYNC1;
			end else begin
				start_next = start_reg + 1'b1;
				dropped_next = dropped_reg + 1'b1;
			end
		end
	end
	ST_SYNC1: begin
		if (have_reg) begin
			have_next = 1'b0;
			if (rd_data == 8'hC3) begin
				off_next = OFF_2;
				crc_next = 32'hFFFFFFFF;
				state_next = ST_HDR;
			end else begin
				// skip the 0xA5 only: this byte may start the next candidate
				start_next = start_reg + 1'b1;
				dropped_next = dropped_reg + 1'b1;
				off_next = OFF_0;
				state_next = ST_HUNT;
			end
		end
	end
	ST_HDR: begin
		if (have_reg) begin
			have_next = 1'b0;
			off_next = off_reg + 1'b1;
			crc_next = crc_byte(crc_reg, rd_data);
			case (off_reg[2:0])
			3'd2: len_next[7:0] = rd_data;
			3'd3: len_next[15:8] = rd_data;
			3'd4: seq_next[7:0] = rd_data;
			3'd5: seq_next[15:8] = rd_data;
			3'd6: type_next = rd_data;
			default: begin
				// byte 7: the header check, then the length bound
				if (rd_data != crc_final[7:0] || len_reg > MAXP) begin
					if (rd_data != crc_final[7:0])
						bad_next = bad_reg + 1'b1;
					start_next = start_reg + 1'b1;
					dropped_next = dropped_reg + 1'b1;
					off_next = OFF_0;
					state_next = ST_HUNT;
				end else begin
					crc_ok_next = 1'b1;
					state_next = ST_BODY;
				end
			end
			endcase
		end
	end
	ST_BODY: begin
		if (have_reg) begin
			have_next = 1'b0;
			off_next = off_reg + 1'b1;
			if (off17 < body_end) begin
				crc_next = crc_byte(crc_reg, rd_data);
			end else begin
				if (rd_data != crc_final[8 * crc_idx +: 8])
					crc_ok_next = 1'b0;
				if (crc_idx == 2'd3) begin
					if (crc_ok_next) begin
						m_hdr_valid_next = 1'b1;
						state_next = ST_EMIT;
					end else begin
						bad_next = bad_reg + 1'b1;
						start_next = start_reg + 1'b1;
						dropped_next = dropped_reg + 1'b1;
						off_next = OFF_0;
						state_next = ST_HUNT;
					end
				end
			end
		end
	end
	ST_EMIT: begin
		// The frame is good: from here on its bytes are consumed as they leave.
		if (m_hdr_ready) begin
			m_hdr_valid_next = 1'b0;
			frames_next = frames_reg + 1'b1;
			cnt_next = 16'd0;
			if (len_reg == 16'd0) begin
				start_next = start_reg + OFF_12;
				off_next = OFF_0;
				state_next = ST_HUNT;
			end else begin
				start_next = start_reg + OFF_8;
				off_next = OFF_0;
				state_next = ST_PAY;
			end
		end
	end
	ST_PAY: begin
		if (m_valid_reg && m_ready) begin
			m_valid_next = 1'b0;
			have_next = 1'b0;
			start_next = start_reg + 1'b1;
			cnt_next = cnt_reg + 1'b1;
			if (m_last) begin
				start_next = start_reg + OFF_5;
				state_next = ST_HUNT;
			end
		end else if (have_reg) begin
			m_valid_next = 1'b1;
		end
	end
	default: begin
		state_next = ST_HUNT;
		off_next = OFF_0;
		have_next = 1'b0;
	end
	endcase
end

always @(posedge clk) begin
	wr_reg <= wr_next;
	start_reg <= start_next;
	off_reg <= off_next;
	have_reg <= have_next;
	state_reg <= state_next;
	m_hdr_valid_reg <= m_hdr_valid_next;
	m_valid_reg <= m_valid_next;
	frames_reg <= frames_next;
	bad_reg <= bad_next;
	dropped_reg <= dropped_next;
	cnt_reg <= cnt_next;
	crc_ok_reg <= crc_ok_next;
	if (rst) begin
		wr_reg <= {(BUF_AW+1){1'b0}};
		start_reg <= {(BUF_AW+1){1'b0}};
		off_reg <= {(BUF_AW+1){1'b0}};
		have_reg <= 1'b0;
		state_reg <= ST_HUNT;
		m_hdr_valid_reg <= 1'b0;
		m_valid_reg <= 1'b0;
		frames_reg <= {CNT_W{1'b0}};
		bad_reg <= {CNT_W{1'b0}};
		dropped_reg <= {CNT_W{1'b0}};
		cnt_reg <= 16'd0;
		crc_ok_reg <= 1'b0;
	end
end

// Datapath: header fields and CRC, no reset.
always @(posedge clk) begin
	crc_reg <= crc_next;
	len_reg <= len_next;
	seq_reg <= seq_next;
	type_reg <= type_next;
end

// Memory ports in their own block so that yosys infers block RAM. A byte is read only after
// the edge that wrote it, and never overwritten before it is consumed (fill <= buffer).
wire [BUF_AW-1:0] rd_ptr = start_reg[BUF_AW-1:0] + off_reg[BUF_AW-1:0];
always @(posedge clk) begin
	if (push)
		mem[wr_reg[BUF_AW-1:0]] <= s_data;
	if (rd_en)
		rd_data <= mem[rd_ptr];
end

`ifdef FORMAL
// Checked by hw/formal: the stream contracts, buffer bookkeeping, and that a header is only
// emitted after every CRC byte of its frame compared equal.
reg f_past_valid = 1'b0;
always @(posedge clk)
	f_past_valid <= 1'b1;

initial assume (rst);

always @(posedge clk)
	if (f_past_valid && !$past(rst) && $past(s_valid && !s_ready)) begin
		assume (s_valid);
		assume ($stable(s_data));
	end

always @(posedge clk) begin
	assert (fill <= BUF_FULL);
	assert (state_reg <= ST_PAY);
	if (state_reg != ST_PAY && state_reg != ST_EMIT)
		assert (!m_valid_reg);
	if (state_reg != ST_EMIT)
		assert (!m_hdr_valid_reg);
	if (state_reg == ST_EMIT || state_reg == ST_PAY)
		assert (crc_ok_reg && len_reg <= MAXP);
	if (state_reg == ST_EMIT)
		assert (off17 == body_end + 17'd4 && m_hdr_valid_reg);
	if (state_reg == ST_PAY)
		assert (off_reg == OFF_0 && cnt_reg < len_reg &&
			{1'b0, fill} >= {1'b0, len_reg} - {1'b0, cnt_reg} + 17'd4);
	if (state_reg == ST_HDR || state_reg == ST_BODY)
		assert (off_reg <= fill && off_reg >= OFF_2);
	if (state_reg == ST_BODY)
		assert (off_reg >= OFF_8 && off17 <= body_end + 17'd4 && len_reg <= MAXP);
	if (have_reg)
		assert (off_reg < fill);
	if (f_past_valid && !$past(rst)) begin
		if ($past(m_valid && !m_ready)) begin
			assert (m_valid);
			assert ($stable(m_data) && $stable(m_last));
		end
		if ($past(m_hdr_valid && !m_hdr_ready)) begin
			assert (m_hdr_valid);
			assert ($stable(m_hdr_seq) && $stable(m_hdr_type) && $stable(m_hdr_len));
		end
		// A header leaves only for a candidate whose last CRC byte just compared equal.
		if (m_hdr_valid && !$past(m_hdr_valid))
			assert ($past(state_reg == ST_BODY && have_reg && crc_idx == 2'd3 &&
				crc_ok_next));
	end
end

always @(posedge clk) begin
	cover (m_hdr_valid && m_hdr_ready && len_reg == 16'd0);
	cover (m_valid && m_ready && m_last);
end
`endif

endmodule

`resetall
