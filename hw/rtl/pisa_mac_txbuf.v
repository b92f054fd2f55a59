// SPDX-License-Identifier: Apache-2.0
// pisa_mac_txbuf: the transmit half of an Ethernet MAC that does not depend on the line (shared
// by pisa_mac_rmii and pisa_mac_rgmii): the store-and-forward TX frame buffer, which is also the
// crossing from the core clock, and hands the line-side engine only whole frames.
//
// Clock domains: clk (the core clock, any frequency) runs s_*, the buffer's write port and
// drops; line_clk (the MAC's transmit clock: RMII REF_CLK, RGMII GTX_CLK) runs the buffer's read
// port and m_*. As in pisa_mac_rxbuf, the memory is the crossing (a clock per port) and two
// toggle handshakes cross, each through SYNC_STAGES flip-flops: "a frame committed" (to
// line_clk, one per round trip; the writer counts those not yet announced) and "the read pointer
// is now P" (to clk, P held stable until acknowledged).
//
// Buffer layout: one record per frame, DEPTH words of 8 bits:
//
//   +--------+--------+-----------------------------------------+
//   | len_hi | len_lo | frame bytes from the core (1 .. MAX - 4) |
//   +--------+--------+-----------------------------------------+
//
// Writer (clk): the bytes go in as they come, past the record's two reserved header words;
// after the last one the header is written (two cycles with s_ready low) and the frame counted
// for announcement (a third cycle with s_ready low if 2^PEND_W - 1 frames already wait to be
// announced). A frame from the core longer than MAX_FRAME - 4 bytes is dropped whole
// (drops): the write pointer goes back to the record's start and the rest of the frame is taken
// and thrown away. A byte past that length is taken whatever the space, so a long frame cannot
// wait forever for space that its own bytes hold.
// Reader (line_clk): when a frame is announced, it reads the header and the first two bytes
// through the memory's two read registers (four cycles), the length into its counter and
// m_last's flip-flops, and raises m_frame: the whole frame is in the buffer, so the engine can
// take a byte every cycle and never underruns, whatever the core clock.
//
// Core side (s_*, clk): a beat moves when s_valid && s_ready at a rising edge of clk; once the
// source raises s_valid it keeps it and s_data/s_last stable until s_ready; it never waits for
// s_ready before raising s_valid. s_last marks the last byte of a frame.
// Engine side (line_clk):
//   m_frame           a whole frame is in the buffer from the read pointer on, its length read
//   m_data, m_last    the word at the read pointer, from the block RAM's output register;
//                     the memory reads two words ahead, so after m_pop the next word is there
//                     in the next cycle and the engine can take one per cycle; m_last on the
//                     frame's last
//   m_pop             take the word at the read pointer (only while m_frame is high); after
//                     the one with m_last, m_frame falls for at least four cycles (the next
//                     header)
//
// Sizing: DEPTH >= MAX_FRAME - 2 lets the record of the longest frame the engine may send
// (MAX_FRAME - 4 bytes from the core, the FCS added on the line, plus the header) fit in the
// buffer, so once the engine has sent the frames before it there is room for all of it. The
// writer spends len + 2 clk cycles on a frame when the core offers a byte every cycle; the line
// spends at least max(len, 60) + 24 byte times (preamble, SFD, FCS, gap), so a core clock as
// fast as the line's byte clock keeps the line busy with back-to-back frames.
//
// Reset: rst (sync to clk) and line_rst (sync to line_clk) must overlap, each held for at least
// SYNC_STAGES + 1 edges of its own clock.
// Timing constraints for a board: the synchronizer inputs (*_sync_reg[0]), the held pointer
// (rdp_reg to rdw_reg) and the memory's write-to-read path across the clocks are false paths
// (or max-delay of one period).
`default_nettype none

module pisa_mac_txbuf #(
	// Longest frame sent, FCS included; 64 .. 16383.
	parameter MAX_FRAME = 1518,
	// Frame buffer words: a power of 2, >= MAX_FRAME - 2 (a whole frame and its header fit).
	parameter DEPTH = 2048,
	// The frame buffer's block RAM (pisa_ram_2clk): "sim", "ice40" or "ecp5".
	parameter [8*5-1:0] FAMILY = "sim",
	// Synchronizer flip-flops per crossing counter: >= 2.
	parameter SYNC_STAGES = 2,
	// Counter width: >= 1.
	parameter CNT_W = 32,
	// Frames committed and waiting to be announced to the reader, at most 2^PEND_W - 1: >= 1.
	parameter PEND_W = 4,
	// Derived widths.
	parameter AW = $clog2(DEPTH),
	parameter LEN_W = $clog2(MAX_FRAME + 1)
) (
	// Core side.
	input  wire             clk,
	input  wire             rst,
	input  wire [7:0]       s_data,
	input  wire             s_last,
	input  wire             s_valid,
	output wire             s_ready,

	// Engine side.
	input  wire             line_clk,
	input  wire             line_rst,
	output wire             m_frame,
	output wire [7:0]       m_data,
	output wire             m_last,
	input  wire             m_pop,

	// Frames dropped as too long (clk domain).
	output wire [CNT_W-1:0] drops
);

generate
	if (MAX_FRAME < 64 || MAX_FRAME > 16383) begin : g_bad_max
		pisa_mac_txbuf_error_max_frame_must_be_64_to_16383 u_stop ();
	end
	if ((1 << AW) != DEPTH || DEPTH < MAX_FRAME - 2) begin : g_bad_depth
		pisa_mac_txbuf_error_depth_must_be_power_of_2_at_least_max_frame_minus_2 u_stop ();
	end
	if (SYNC_STAGES < 2) begin : g_bad_sync
		pisa_mac_txbuf_error_sync_stages_must_be_at_least_2 u_stop ();
	end
	if (PEND_W < 1) begin : g_bad_pend_w
		pisa_mac_txbuf_error_pend_w_must_be_at_least_1 u_stop ();
	end
endgenerate

localparam integer DATA_MAX = MAX_FRAME - 4;
localparam [LEN_W-1:0] LEN_DATA_MAX = DATA_MAX[LEN_W-1:0];
localparam [AW:0] PTR_2 = 2;

// ==== writer (clk) ====

localparam [1:0] W_DATA = 2'd0, W_HI = 2'd1, W_LO = 2'd2;

reg [1:0] wstate_reg = W_DATA, wstate_next;
reg [AW:0] wr_reg = PTR_2, wr_next;        // next data word
reg [AW:0] rec_reg = {(AW+1){1'b0}}, rec_next;  // the record being written (its header)
reg [LEN_W-1:0] n_reg = {LEN_W{1'b0}}, n_next;  // bytes of the frame being written
reg skip_reg = 1'b0, skip_next;            // dropping the rest of a long frame
reg [PEND_W-1:0] pend_reg = {PEND_W{1'b0}}, pend_next;  // frames committed, not announced
reg freq_reg = 1'b0, freq_next;            // "a frame": toggles once per announcement
reg we;
reg wr_step;                               // wr_next = wr_base + wr_inc (one adder)
reg wr_from_rec;
reg [1:0] wr_inc;
reg [AW-1:0] waddr;
reg [7:0] wdata;
reg [CNT_W-1:0] drops_reg = {CNT_W{1'b0}}, drops_next;

// The handshakes' synchronizers on this side: *_sync_reg[0] is the first flop after the
// crossing.
(* async_reg = "true" *)
reg [SYNC_STAGES-1:0] fack_sync_reg = {SYNC_STAGES{1'b0}};  // the frame acknowledgement
(* async_reg = "true" *)
reg [SYNC_STAGES-1:0] preq_sync_reg = {SYNC_STAGES{1'b0}};  // "the read pointer is rdp_reg"
reg pack_reg = 1'b0;                       // its acknowledgement (the last one taken)
reg [AW:0] rdw_reg = {(AW+1){1'b0}};       // the read pointer as this side knows it
wire fack = fack_sync_reg[SYNC_STAGES-1];
wire preq = preq_sync_reg[SYNC_STAGES-1];
wire [AW:0] used = wr_reg - rdw_reg;       // <= DEPTH + 2
wire full = used[AW];
wire over = n_reg == LEN_DATA_MAX;
wire pend_full = &pend_reg;
wire [15:0] n_pad = {{(16-LEN_W){1'b0}}, n_reg};

assign s_ready = wstate_reg == W_DATA && (skip_reg || over || !full);
wire push = s_valid && s_ready;

always @* begin
	wstate_next = wstate_reg;
	wr_step = 1'b0;
	wr_from_rec = 1'b0;
	wr_inc = 2'd1;
	rec_next = rec_reg;
	n_next = n_reg;
	skip_next = skip_reg;
	pend_next = pend_reg;
	freq_next = freq_reg;
	we = 1'b0;
	waddr = wr_reg[AW-1:0];
	wdata = s_data;
	drops_next = drops_reg;

	case (wstate_reg)
	W_DATA: begin
		if (push) begin
			if (skip_reg) begin
				skip_next = !s_last;
			end else if (over) begin
				wr_step = 1'b1;
				wr_from_rec = 1'b1;
				wr_inc = 2'd2;
				n_next = {LEN_W{1'b0}};
				skip_next = !s_last;
				drops_next = drops_reg + 1'b1;
			end else begin
				we = 1'b1;
				wr_step = 1'b1;
				n_next = n_reg + 1'b1;
				if (s_last)
					wstate_next = W_HI;
			end
		end
	end
	W_HI: begin
		we = 1'b1;
		waddr = rec_reg[AW-1:0];
		wdata = n_pad[15:8];
		wstate_next = W_LO;
	end
	W_LO: begin
		// (waits while the announcement count is full)
		if (!pend_full) begin
			we = 1'b1;
			waddr = rec_reg[AW-1:0] + 1'b1;
			wdata = n_pad[7:0];
			rec_next = wr_reg;
			wr_step = 1'b1;
			wr_inc = 2'd2;
			n_next = {LEN_W{1'b0}};
			wstate_next = W_DATA;
		end
	end
	default: wstate_next = W_DATA;
	endcase

	// Announce one committed frame per handshake round trip.
	if (pend_reg != 0 && freq_reg == fack) begin
		freq_next = !freq_reg;
		pend_next = pend_reg - 1'b1;
	end
	if (wstate_reg == W_LO && !pend_full)
		pend_next = pend_next + 1'b1;
	wr_next = wr_step ? (wr_from_rec ? rec_reg : wr_reg) + {{(AW-1){1'b0}}, wr_inc} : wr_reg;
end

always @(posedge clk) begin
	wstate_reg <= wstate_next;
	wr_reg <= wr_next;
	rec_reg <= rec_next;
	n_reg <= n_next;
	skip_reg <= skip_next;
	pend_reg <= pend_next;
	freq_reg <= freq_next;
	drops_reg <= drops_next;
	fack_sync_reg <= {fack_sync_reg[SYNC_STAGES-2:0], fack_reg};
	preq_sync_reg <= {preq_sync_reg[SYNC_STAGES-2:0], preq_reg};
	if (preq != pack_reg) begin
		// rdp_reg has not changed since preq_reg toggled, SYNC_STAGES edges ago at least
		rdw_reg <= rdp_reg;
		pack_reg <= preq;
	end
	if (rst) begin
		wstate_reg <= W_DATA;
		wr_reg <= PTR_2;
		rec_reg <= {(AW+1){1'b0}};
		n_reg <= {LEN_W{1'b0}};
		skip_reg <= 1'b0;
		pend_reg <= {PEND_W{1'b0}};
		freq_reg <= 1'b0;
		fack_sync_reg <= {SYNC_STAGES{1'b0}};
		preq_sync_reg <= {SYNC_STAGES{1'b0}};
		pack_reg <= 1'b0;
		rdw_reg <= {(AW+1){1'b0}};
		drops_reg <= {CNT_W{1'b0}};
	end
end

// ==== the memory: write port in clk, read port in line_clk ====
// Two registers on the read side (pisa_ram_2clk): the read latch, loaded from ra_reg, and the
// output register, which is m_data; they move together ("shift"). In R_FRAME the output holds
// the word at rd_reg, the latch the next one and ra_reg is two ahead, so each m_pop shifts
// and the next word is on m_data in the next cycle.
reg shift;
reg [AW:0] ra_reg = {(AW+1){1'b0}}, ra_next;   // the next word to read into the latch
reg [AW:0] rd_reg = {(AW+1){1'b0}}, rd_next;   // the word on m_data; words before it are free
wire [7:0] q;                                  // the output register
pisa_ram_2clk #(.FAMILY(FAMILY), .WIDTH(8), .DEPTH(DEPTH)) u_mem (
	.wclk(clk), .we(we), .waddr(waddr), .wdata(wdata),
	.rclk(line_clk), .rd_en(shift), .raddr(ra_reg[AW-1:0]), .rd_oce(shift), .rd_data(q)
);

// ==== reader (line_clk) ====

// A record's header goes through the read pipeline like its bytes: one shift in each of
// R_IDLE (the latch takes len_hi), R_HI (len_lo), R_LO (byte 0; len_hi on q, kept in hi_reg)
// and R_LEN (byte 1; len_lo on q, the length into rem_reg), so R_FRAME starts with byte 0 on
// m_data.
// (R_FRAME is the only state with bit 2 set: in_frame is a flip-flop, and the read pointer's
// enable one LUT4 of the state and m_pop, on the line clock's critical path on the UP5K)
localparam [2:0] R_IDLE = 3'd0, R_HI = 3'd1, R_LO = 3'd2, R_LEN = 3'd3, R_FRAME = 3'd4;

reg [2:0] rstate_reg = R_IDLE, rstate_next;
wire in_frame = rstate_reg[2];
reg [LEN_W-1:0] rem_reg = {LEN_W{1'b0}}, rem_next;  // bytes of the frame left
// m_last, rem_reg == 1, from flip-flops: rem_reg == 1 and == 2 a cycle before, and whether it
// went down by one since (in R_LEN they come from the header's length, as rem_reg does)
reg rem1_reg = 1'b0, rem2_reg = 1'b0, popped_reg = 1'b0;
reg fack_reg = 1'b0, fack_next;            // the last frame announcement taken
reg [AW:0] rdp_reg = {(AW+1){1'b0}};       // the read pointer offered to the writer
reg preq_reg = 1'b0;                       // toggles when rdp_reg is offered
(* async_reg = "true" *)
reg [SYNC_STAGES-1:0] freq_sync_reg = {SYNC_STAGES{1'b0}};
(* async_reg = "true" *)
reg [SYNC_STAGES-1:0] pack_sync_reg = {SYNC_STAGES{1'b0}};

// A committed frame not read yet: freq_sync_reg[SYNC_STAGES-1] != fack_reg, computed from the
// values both are about to take (a flip-flop at the start of the reader's decisions).
reg avail_reg = 1'b0;
wire avail = avail_reg;
reg [7:0] hi_reg = 8'd0;                   // len_hi, while len_lo is on q
wire [15:0] hdr_len = {hi_reg, q};
wire _unused_rd = &{1'b0, hdr_len[15:LEN_W], 1'b0};

always @* begin
	rstate_next = rstate_reg;
	rem_next = rem_reg;
	fack_next = fack_reg;
	shift = 1'b0;
	ra_next = ra_reg;

	case (rstate_reg)
	R_IDLE: begin
		if (avail) begin
			shift = 1'b1;
			fack_next = !fack_reg;
			rstate_next = R_HI;
		end
	end
	R_HI: begin
		shift = 1'b1;
		rstate_next = R_LO;
	end
	R_LO: begin
		shift = 1'b1;
		rstate_next = R_LEN;
	end
	R_LEN: begin
		shift = 1'b1;
		rem_next = hdr_len[LEN_W-1:0];
		rstate_next = R_FRAME;
	end
	R_FRAME: begin
		if (m_pop) begin
			rem_next = rem_reg - 1'b1;
			shift = 1'b1;
			if (m_last) begin
				ra_next = rd_reg + 1'b1;     // the next record's header (rd_next)
				shift = 1'b0;
				rstate_next = R_IDLE;
			end
		end
	end
	default: rstate_next = R_IDLE;
	endcase
	if (shift)
		ra_next = ra_reg + 1'b1;
end

// The read pointer: past the header in R_LEN (to byte 0), then a word per m_pop.
always @* begin
	rd_next = rd_reg;
	if (in_frame) begin
		if (m_pop)
			rd_next = rd_reg + 1'b1;
	end else if (rstate_reg == R_LEN) begin
		rd_next = rd_reg + PTR_2;
	end
end

always @(posedge line_clk) begin
	rstate_reg <= rstate_next;
	rem_reg <= rem_next;
	if (rstate_reg == R_LO)
		hi_reg <= q;
	rem1_reg <= rstate_reg == R_LEN ? hdr_len == 16'd1 : rem_reg == 1;
	rem2_reg <= rstate_reg == R_LEN ? hdr_len == 16'd2 : rem_reg == 2;
	popped_reg <= in_frame && m_pop;
	fack_reg <= fack_next;
	avail_reg <= freq_sync_reg[SYNC_STAGES-2] != fack_next;
	ra_reg <= ra_next;
	rd_reg <= rd_next;
	freq_sync_reg <= {freq_sync_reg[SYNC_STAGES-2:0], freq_reg};
	pack_sync_reg <= {pack_sync_reg[SYNC_STAGES-2:0], pack_reg};
	// Offer the read pointer again once the last offer was taken.
	if (pack_sync_reg[SYNC_STAGES-1] == preq_reg) begin
		rdp_reg <= rd_reg;
		preq_reg <= !preq_reg;
	end
	if (line_rst) begin
		rstate_reg <= R_IDLE;
		rem_reg <= {LEN_W{1'b0}};
		popped_reg <= 1'b0;
		fack_reg <= 1'b0;
		avail_reg <= 1'b0;
		ra_reg <= {(AW+1){1'b0}};
		rd_reg <= {(AW+1){1'b0}};
		rdp_reg <= {(AW+1){1'b0}};
		preq_reg <= 1'b0;
		freq_sync_reg <= {SYNC_STAGES{1'b0}};
		pack_sync_reg <= {SYNC_STAGES{1'b0}};
	end
end

assign m_frame = in_frame;
assign m_data = q;
assign m_last = popped_reg ? rem2_reg : rem1_reg;
assign drops = drops_reg;

endmodule

`resetall
