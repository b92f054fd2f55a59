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
// The CRC runs over every byte from len to the last CRC byte; a good frame leaves the
// register at CRC-32's residue 0xDEBB20E3, so the four CRC bytes need no comparison of
// their own. Pointers: wr (next byte in), start (the candidate's first byte), rd (next byte
// to scan). A good frame is read again from its second byte: rd steps over the rest of the
// header, the payload leaves, rd steps over the CRC (ST_SKIP), so that start and rd only
// ever move by one or to each other.
//
// Stream contract (all ports): a word moves when valid && ready at a rising clock edge; once
// a source raises valid it keeps valid high and data/last stable until ready; a source never
// waits for ready before raising valid. s_ready is low only while the buffer is full.
// Throughput: two cycles per byte scanned (nine with CRC_SERIAL), two per payload byte out.
`default_nettype none

module pisa_frame_rx #(
	// Largest payload accepted, bytes: 64 .. 10240 (PISA_PROTO_MAX_PAYLOAD). Sets the buffer.
	parameter MAX_PAYLOAD = 1024,
	// Width of the frame counters cnt_frames / cnt_bad / cnt_dropped (they wrap), >= 1.
	parameter CNT_W = 16,
	// CRC: 0 = a byte per cycle (about 100 LUT4), 1 = a bit per cycle (about 20 LUT4: for
	// byte links slower than clk/10, UART and SPI).
	parameter CRC_SERIAL = 0,
	// Buffer address width, derived: one whole frame of MAX_PAYLOAD fits. The buffer frees
	// as the payload is emitted, so the next frame can arrive while one is being consumed.
	parameter BUF_AW = $clog2(MAX_PAYLOAD + 12),
	// Width of lengths (0 .. MAX_PAYLOAD), derived.
	parameter LW = $clog2(MAX_PAYLOAD + 1)
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
`ifndef FORMAL
	// (the proofs use tiny payloads)
	if (MAX_PAYLOAD < 64 || MAX_PAYLOAD > 10240) begin : g_bad_max
		pisa_frame_rx_error_max_payload_must_be_64_to_10240 u_stop ();
	end
`endif
	if ((1 << BUF_AW) < MAX_PAYLOAD + 12) begin : g_bad_buf
		pisa_frame_rx_error_buffer_smaller_than_a_frame u_stop ();
	end
	if (CNT_W < 1) begin : g_bad_cnt
		pisa_frame_rx_error_cnt_w_must_be_at_least_1 u_stop ();
	end
	if (CRC_SERIAL != 0 && CRC_SERIAL != 1) begin : g_bad_crc
		pisa_frame_rx_error_crc_serial_must_be_0_or_1 u_stop ();
	end
endgenerate

localparam [BUF_AW:0] P1 = 1;
localparam [15:0] MAXP = MAX_PAYLOAD[15:0];
localparam [LW-1:0] L1 = 1;
localparam [31:0] RPOLY = 32'hEDB88320, RESIDUE = 32'hDEBB20E3;

localparam [2:0]
	ST_HUNT = 3'd0,  // byte 0 of a candidate
	ST_SYNC1 = 3'd1, // byte 1
	ST_HDR = 3'd2,   // bytes 2 .. 7
	ST_BODY = 3'd3,  // payload and CRC bytes
	ST_CHECK = 3'd4, // the CRC of the whole frame
	ST_EMIT = 3'd5,  // header out
	ST_PAY = 3'd6,   // payload out
	ST_SKIP = 3'd7;  // rd steps over header bytes (then payload) or CRC bytes (then hunt)

(* ram_style = "block" *)
reg [7:0] mem [0:(1 << BUF_AW) - 1];
reg [7:0] rd_data;

reg [BUF_AW:0] wr_reg = {(BUF_AW+1){1'b0}}, wr_next;
reg [BUF_AW:0] start_reg = {(BUF_AW+1){1'b0}}, start_next;
reg [BUF_AW:0] rd_reg = {(BUF_AW+1){1'b0}}, rd_next;
// rd_data holds the byte before rd.
reg have_reg = 1'b0, have_next;
reg [2:0] state_reg = ST_HUNT, state_next;
reg [2:0] hpos_reg, hpos_next;       // header byte
reg [LW-1:0] rem_reg, rem_next;      // payload bytes left, this one included
reg [2:0] crcb_reg, crcb_next;       // CRC bytes read; in ST_SKIP bytes left to step over
reg in_crc_reg, in_crc_next;         // past the payload
reg [15:0] len_reg, len_next;
reg [15:0] seq_reg, seq_next;
reg [7:0] type_reg, type_next;
reg m_hdr_valid_reg = 1'b0, m_hdr_valid_next;
reg m_valid_reg = 1'b0, m_valid_next;
reg [CNT_W-1:0] frames_reg = {CNT_W{1'b0}}, frames_next;
reg [CNT_W-1:0] bad_reg = {CNT_W{1'b0}}, bad_next;
reg [CNT_W-1:0] dropped_reg = {CNT_W{1'b0}}, dropped_next;

// The CRC unit (below): init, feed rd_data, busy while a serial update runs.
reg crc_init, crc_feed;
wire crc_busy;
wire [31:0] crc;
wire [7:0] hcheck = ~crc[7:0];   // the low byte of the finished CRC

wire push = s_valid && s_ready;
wire full = wr_reg == {~start_reg[BUF_AW], start_reg[BUF_AW-1:0]};
// The next byte of the scan is in the buffer but not yet read.
wire can_read = !have_reg && rd_reg != wr_reg;
wire [BUF_AW:0] start_inc = start_reg + P1;
reg rd_en;

assign s_ready = !full;
assign m_hdr_seq = seq_reg;
assign m_hdr_type = type_reg;
assign m_hdr_len = len_reg;
assign m_hdr_valid = m_hdr_valid_reg;
assign m_data = rd_data;
assign m_last = rem_reg == L1;
assign m_valid = m_valid_reg;
assign cnt_frames = frames_reg;
assign cnt_bad = bad_reg;
assign cnt_dropped = dropped_reg;

// Gives up on the candidate at start: the scan goes on from the byte after it.
task skip(input count_bad);
	begin
		start_next = start_inc;
		rd_next = start_inc;
		have_next = 1'b0;
		dropped_next = dropped_reg + 1'b1;
		if (count_bad)
			bad_next = bad_reg + 1'b1;
		state_next = ST_HUNT;
	end
endtask

always @* begin
	wr_next = wr_reg;
	start_next = start_reg;
	rd_next = rd_reg;
	have_next = have_reg;
	state_next = state_reg;
	hpos_next = hpos_reg;
	rem_next = rem_reg;
	crcb_next = crcb_reg;
	in_crc_next = in_crc_reg;
	len_next = len_reg;
	seq_next = seq_reg;
	type_next = type_reg;
	m_hdr_valid_next = m_hdr_valid_reg;
	m_valid_next = m_valid_reg;
	frames_next = frames_reg;
	bad_next = bad_reg;
	dropped_next = dropped_reg;
	rd_en = 1'b0;
	crc_init = 1'b0;
	crc_feed = 1'b0;

	if (push)
		wr_next = wr_reg + P1;

	// Fetch: one cycle to read the byte at rd.
	if (can_read && state_reg != ST_EMIT && state_reg != ST_CHECK && state_reg != ST_SKIP) begin
		rd_en = 1'b1;
		rd_next = rd_reg + P1;
		have_next = 1'b1;
	end

	case (state_reg)
	ST_HUNT: begin
		if (have_reg) begin
			have_next = 1'b0;
			if (rd_data == 8'hA5) begin
				state_next = ST_SYNC1;
			end else begin
				start_next = rd_reg;	// the byte after this one
				dropped_next = dropped_reg + 1'b1;
			end
		end
	end
	ST_SYNC1: begin
		if (have_reg) begin
			have_next = 1'b0;
			if (rd_data == 8'hC3) begin
				crc_init = 1'b1;
				hpos_next = 3'd2;
				state_next = ST_HDR;
			end else begin
				// skip the 0xA5 only: this byte may start the next candidate
				skip(1'b0);
			end
		end
	end
	ST_HDR: begin
		if (have_reg && !crc_busy) begin
			have_next = 1'b0;
			hpos_next = hpos_reg + 3'd1;
			crc_feed = 1'b1;
			case (hpos_reg)
			3'd2: len_next[7:0] = rd_data;
			3'd3: len_next[15:8] = rd_data;
			3'd4: seq_next[7:0] = rd_data;
			3'd5: seq_next[15:8] = rd_data;
			3'd6: type_next = rd_data;
			default: begin
				// byte 7: the header check, then the length bound
				if (rd_data != hcheck) begin
					skip(1'b1);
				end else if (len_reg > MAXP) begin
					skip(1'b0);
				end else begin
					rem_next = len_reg[LW-1:0];
					in_crc_next = len_reg == 16'd0;
					crcb_next = 3'd0;
					state_next = ST_BODY;
				end
			end
			endcase
		end
	end
	ST_BODY: begin
		if (have_reg && !crc_busy) begin
			have_next = 1'b0;
			crc_feed = 1'b1;
			if (in_crc_reg) begin
				crcb_next = crcb_reg + 3'd1;
				if (crcb_reg == 3'd3)
					state_next = ST_CHECK;
			end else begin
				rem_next = rem_reg - L1;
				if (rem_reg == L1)
					in_crc_next = 1'b1;
			end
		end
	end
	ST_CHECK: begin
		if (!crc_busy) begin
			if (crc == RESIDUE) begin
				m_hdr_valid_next = 1'b1;
				state_next = ST_EMIT;
			end else begin
				skip(1'b1);
			end
		end
	end
	ST_EMIT: begin
		// The frame is good: from here on its bytes are consumed as they leave.
		if (m_hdr_ready) begin
			m_hdr_valid_next = 1'b0;
			frames_next = frames_reg + 1'b1;
			rem_next = len_reg[LW-1:0];
			if (len_reg == 16'd0) begin
				start_next = rd_reg;	// the byte after the frame
				state_next = ST_HUNT;
			end else begin
				// the payload is read again: step over header bytes 1 .. 7
				rd_next = start_inc;
				crcb_next = 3'd6;
				in_crc_next = 1'b0;
				state_next = ST_SKIP;
			end
		end
	end
	ST_SKIP: begin
		rd_next = rd_reg + P1;
		crcb_next = crcb_reg - 3'd1;
		if (crcb_reg == 3'd0) begin
			start_next = rd_reg + P1;
			state_next = in_crc_reg ? ST_HUNT : ST_PAY;
		end
	end
	ST_PAY: begin
		if (m_valid_reg && m_ready) begin
			m_valid_next = 1'b0;
			have_next = 1'b0;
			start_next = rd_reg;
			rem_next = rem_reg - L1;
			if (m_last) begin
				// step over the 4 CRC bytes
				crcb_next = 3'd3;
				in_crc_next = 1'b1;
				state_next = ST_SKIP;
			end
		end else if (have_reg) begin
			m_valid_next = 1'b1;
		end
	end
	default: begin
		state_next = ST_HUNT;
		rd_next = start_reg;
		have_next = 1'b0;
	end
	endcase
end

always @(posedge clk) begin
	wr_reg <= wr_next;
	start_reg <= start_next;
	rd_reg <= rd_next;
	have_reg <= have_next;
	state_reg <= state_next;
	m_hdr_valid_reg <= m_hdr_valid_next;
	m_valid_reg <= m_valid_next;
	frames_reg <= frames_next;
	bad_reg <= bad_next;
	dropped_reg <= dropped_next;
	if (rst) begin
		wr_reg <= {(BUF_AW+1){1'b0}};
		start_reg <= {(BUF_AW+1){1'b0}};
		rd_reg <= {(BUF_AW+1){1'b0}};
		have_reg <= 1'b0;
		state_reg <= ST_HUNT;
		m_hdr_valid_reg <= 1'b0;
		m_valid_reg <= 1'b0;
		frames_reg <= {CNT_W{1'b0}};
		bad_reg <= {CNT_W{1'b0}};
		dropped_reg <= {CNT_W{1'b0}};
	end
end

// Datapath: header fields, positions, no reset.
always @(posedge clk) begin
	hpos_reg <= hpos_next;
	rem_reg <= rem_next;
	crcb_reg <= crcb_next;
	in_crc_reg <= in_crc_next;
	len_reg <= len_next;
	seq_reg <= seq_next;
	type_reg <= type_next;
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

function [31:0] crc_byte(input [31:0] c, input [7:0] d);
	integer i;
	reg [31:0] t;
	begin
		t = c;
		for (i = 0; i < 8; i = i + 1)
			t = crc_bit(t, d[i]);
		crc_byte = t;
	end
endfunction

reg [31:0] crc_reg;
assign crc = crc_reg;
generate
	if (CRC_SERIAL != 0) begin : g_crc_serial
		// a byte in 8 cycles: bit 0 at the feed, then 7 more from sh
		reg [6:0] sh;
		reg [2:0] n = 3'd0;
		assign crc_busy = n != 3'd0;
		always @(posedge clk) begin
			if (crc_init) begin
				crc_reg <= 32'hFFFFFFFF;
			end else if (crc_feed) begin
				crc_reg <= crc_bit(crc_reg, rd_data[0]);
				sh <= rd_data[7:1];
				n <= 3'd7;
			end else if (crc_busy) begin
				crc_reg <= crc_bit(crc_reg, sh[0]);
				sh <= sh >> 1;
				n <= n - 3'd1;
			end
			if (rst)
				n <= 3'd0;
		end
	end else begin : g_crc_parallel
		assign crc_busy = 1'b0;
		always @(posedge clk) begin
			if (crc_init)
				crc_reg <= 32'hFFFFFFFF;
			else if (crc_feed)
				crc_reg <= crc_byte(crc_reg, rd_data);
		end
	end
endgenerate

// Memory ports in their own block so that yosys infers block RAM. A byte is read only after
// the edge that wrote it, and never overwritten before it is consumed (the buffer is full when
// wr is a whole buffer ahead of start; start <= rd <= wr).
always @(posedge clk) begin
	if (push)
		mem[wr_reg[BUF_AW-1:0]] <= s_data;
	if (rd_en)
		rd_data <= mem[rd_reg[BUF_AW-1:0]];
end

`ifdef FORMAL
// Checked by hw/formal (MAX_PAYLOAD 2, a 16-byte buffer): the stream contracts; the pointers
// (start <= rd <= wr, never more than a buffer apart, so no byte is overwritten before it is
// consumed); and that a header is emitted only for a frame whose bytes, in the buffer from
// start on, have the sync bytes, the header fields emitted and a CRC (stand-in, see crc_bit)
// over bytes 2 .. 11 + len that gives the residue; then exactly its payload bytes follow.
reg f_past_valid = 1'b0;
always @(posedge clk)
	f_past_valid <= 1'b1;

initial assume (rst);

always @(posedge clk)
	if (f_past_valid && !$past(rst) && $past(s_valid && !s_ready)) begin
		assume (s_valid);
		assume ($stable(s_data));
	end

localparam FN = MAX_PAYLOAD + 12;	// bytes of the longest frame
wire [BUF_AW:0] f_fill = wr_reg - start_reg;
wire [BUF_AW:0] f_off = rd_reg - start_reg;
// The candidate's bytes in the buffer, and the CRC chain over them from byte 2.
wire [7:0] f_byte [0:FN-1];
wire [31:0] f_chain [0:FN-2];
assign f_chain[0] = 32'hFFFFFFFF;
genvar gi;
generate
	for (gi = 0; gi < FN; gi = gi + 1) begin : g_f_bytes
		wire [BUF_AW:0] a = start_reg + gi;
		assign f_byte[gi] = mem[a[BUF_AW-1:0]];
	end
	for (gi = 0; gi < FN - 2; gi = gi + 1) begin : g_f_chain
		assign f_chain[gi + 1] = crc_byte(f_chain[gi], f_byte[gi + 2]);
	end
endgenerate
wire [15:0] f_len = {f_byte[3], f_byte[2]};
// bytes fed to the CRC so far (HDR, BODY): those before rd, from byte 2 on
wire [BUF_AW:0] f_fed = f_off - {{BUF_AW{1'b0}}, have_reg} - 2'd2;

always @(posedge clk) begin
	// pointers: nothing overwritten before it is consumed, rd within the written bytes
	assert (f_fill <= (1 << BUF_AW));
	assert (f_off <= f_fill);
	if (have_reg)
		assert (f_off != 0 && rd_data == mem[rd_reg[BUF_AW-1:0] - 1'b1]);
	assert (state_reg <= ST_SKIP);
	if (state_reg != ST_PAY)
		assert (!m_valid_reg);
	assert (m_hdr_valid_reg == (state_reg == ST_EMIT));
	if (state_reg == ST_HUNT)
		assert (f_off == {{BUF_AW{1'b0}}, have_reg});
	if (state_reg == ST_SYNC1)
		assert (f_off == 1 + have_reg && f_byte[0] == 8'hA5);
	if (state_reg == ST_HDR) begin
		assert (hpos_reg >= 3'd2 && f_off == hpos_reg + have_reg);
		assert (f_byte[0] == 8'hA5 && f_byte[1] == 8'hC3);
		if (hpos_reg > 3'd2)
			assert (len_reg[7:0] == f_byte[2]);
		if (hpos_reg > 3'd3)
			assert (len_reg == f_len);
		if (hpos_reg > 3'd4)
			assert (seq_reg[7:0] == f_byte[4]);
		if (hpos_reg > 3'd5)
			assert (seq_reg == {f_byte[5], f_byte[4]});
		if (hpos_reg > 3'd6)
			assert (type_reg == f_byte[6]);
	end
	if (state_reg >= ST_BODY && state_reg <= ST_EMIT) begin
		assert (f_byte[0] == 8'hA5 && f_byte[1] == 8'hC3 && len_reg == f_len &&
			seq_reg == {f_byte[5], f_byte[4]} && type_reg == f_byte[6]);
		assert (len_reg <= MAXP && rem_reg <= len_reg[LW-1:0]);
		assert (f_off == 16'd8 + (in_crc_reg ? len_reg + crcb_reg : len_reg - rem_reg) +
			have_reg);
		assert (in_crc_reg == (rem_reg == 0) && (in_crc_reg || crcb_reg == 3'd0));
		assert (state_reg == ST_BODY ? crcb_reg <= 3'd3 : crcb_reg == 3'd4);
	end
	// the CRC register is the chain over the bytes fed
	if (state_reg == ST_HDR || state_reg == ST_BODY ||
	    state_reg == ST_CHECK || state_reg == ST_EMIT)
		if (!crc_busy)
			assert (crc == f_chain[f_fed]);
	if (crc_busy)
		assert (state_reg == ST_HDR || state_reg == ST_BODY || state_reg == ST_CHECK);
	if (state_reg == ST_CHECK || state_reg == ST_EMIT)
		assert (!have_reg && f_off == 16'd12 + len_reg);
	// the property: a frame is emitted only with the CRC of its bytes good
	if (state_reg == ST_EMIT)
		assert (f_chain[10 + len_reg] == RESIDUE);
	// its payload bytes leave in order: rd runs from start + 8 (SKIP) over the payload
	if (state_reg == ST_PAY) begin
		assert (rem_reg != 0 && rem_reg <= len_reg[LW-1:0] && len_reg <= MAXP);
		assert (f_off == {{BUF_AW{1'b0}}, have_reg} && f_fill >= rem_reg + 3'd4);
		if (m_valid_reg)
			assert (have_reg);
	end
	if (state_reg == ST_SKIP && !in_crc_reg)
		assert (crcb_reg <= 3'd6 && f_off == 3'd7 - crcb_reg && rem_reg == len_reg[LW-1:0] &&
			rem_reg != 0 && len_reg <= MAXP && f_fill >= 16'd12 + len_reg);
	if (state_reg == ST_SKIP && in_crc_reg)
		assert (crcb_reg <= 3'd3 && f_off == 3'd3 - crcb_reg && f_fill >= 3'd4);
	if (state_reg == ST_SKIP)
		assert (!have_reg);
	if (f_past_valid && !$past(rst)) begin
		if ($past(m_valid && !m_ready)) begin
			assert (m_valid);
			assert ($stable(m_data) && $stable(m_last));
		end
		if ($past(m_hdr_valid && !m_hdr_ready)) begin
			assert (m_hdr_valid);
			assert ($stable(m_hdr_seq) && $stable(m_hdr_type) && $stable(m_hdr_len));
		end
	end
end

// The serial unit part way through the last byte fed: nb bits done, the rest in sh.
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
generate
	if (CRC_SERIAL != 0) begin : g_f_serial
		wire [7:0] f_cur = f_byte[f_fed + 1];
		wire [2:0] f_n = g_crc_serial.n;
		always @(posedge clk)
			if (crc_busy) begin
				assert (f_fed != 0);
				assert (crc == crc_bits(f_chain[f_fed - 1], f_cur, 4'd8 - f_n));
				assert (((g_crc_serial.sh ^ (f_cur >> (4'd8 - f_n))) &
					((7'd1 << f_n) - 7'd1)) == 7'd0);
			end
	end
endgenerate

// A header that passed its check (a whole frame, 12 bytes at two cycles a byte, is 29 steps
// deep and takes z3 minutes: that every good frame is emitted is the testbench's to show).
always @(posedge clk)
	cover (state_reg == ST_BODY && f_off == 16'd8);
`endif

endmodule

`resetall
