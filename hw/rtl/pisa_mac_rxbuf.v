// SPDX-License-Identifier: Apache-2.0
// pisa_mac_rxbuf: the receive half of an Ethernet MAC that does not depend on the line (shared by
// pisa_mac_rmii and pisa_mac_rgmii): FCS check, length checks, the store-and-forward RX frame
// buffer, the rx counters and the crossing into the core clock.
//
// Clock domains: line_clk (the MAC's receive clock: RMII REF_CLK, RGMII RXC) runs s_*, the
// CRC, the buffer's write port and the counters; clk (the core clock, any frequency) runs the
// buffer's read port and m_*. The buffer memory is the clock crossing: it is written in line_clk
// and read in clk (SB_RAM40_4K and DP16KD have a clock per port). Two handshakes cross between
// the sides, each a toggle that goes through SYNC_STAGES flip-flops and comes back as an
// acknowledging toggle: "a frame committed" (to clk; the writer counts the frames committed and
// not yet announced, and announces one per round trip) and "the read pointer is now P" (to
// line_clk; P waits in a register that does not change until the acknowledgement came back, so
// the writer samples it stable). Nothing else crosses; no bus is ever sampled while it changes.
//
// Buffer layout: one record per frame, DEPTH words of 8 bits, pointers one bit wider than the
// address (a full buffer is told from an empty one):
//
//   +--------+--------+---------------------------------+---------+
//   | len_hi | len_lo | frame bytes (destination first) | FCS (4) |
//   +--------+--------+---------------------------------+---------+
//     len = bytes received, FCS included (64 .. MAX_FRAME), big-endian in two words
//
// Writer (line_clk): the two header words are reserved when the previous record ends; each byte
// is written as it arrives (no delay line: the FCS goes in too, the reader skips it). When the
// frame has ended and its CRC is complete, the high header word is written whatever comes next
// (once a byte of the record went in, its header words are free; a frame that is not kept
// leaves them to the next one). In the next cycle the verdict, from flags only (the CRC was
// compared with the residue a cycle before): only if the FCS is good, s_bad was low, the length
// is in [64, MAX_FRAME] (FCS included) and every byte fitted is the low header word written and
// the frame committed (the write pointer past it and the next header, the committed-frames count
// raised); otherwise the write pointer goes back to the start of the record. So m_* only ever
// carries whole good frames, without their FCS, m_last on the last byte, and a frame that does
// not fit in the free space is dropped whole (drops).
// Reader (clk): for each frame announced it reads the header (two cycles), hands out len - 4
// bytes on m_* and skips the FCS (four cycles). The memory is read at the next read pointer
// every cycle, so the word at the read pointer is always on the read port's output register and
// a held beat stays stable. A word is read only after the announcement of its frame crossed
// (SYNC_STAGES clk edges after it was written); a word is written only after a read pointer
// past it crossed back.
//
// Line side (s_*, line_clk; there is no ready: the line cannot wait):
//   s_valid  s_data is the next byte of the frame, the destination address first (preamble and
//            SFD are the line side's business); at most one byte per cycle (CRC_BITS = 8) or one
//            every 4 cycles (CRC_BITS = 2), with any gaps
//   s_end    the frame has ended: a cycle after its last byte at the earliest, never together
//            with s_valid; a frame may have no byte at all (a runt)
//   s_bad    read with s_end: the line side saw an error in the frame (RGMII RX_ER); the frame
//            is counted and dropped as an FCS error
//   The first byte of the next frame may come two cycles after s_end at the earliest
//   (CRC_BITS = 8), or six (CRC_BITS = 2: the CRC finishes the last byte first, and the free
//   space is known a cycle late): the commit takes the two cycles after the CRC is complete. (An
//   s_end within them, which only a frame without bytes can bring, waits until they are over.)
// Core side (m_*, clk): a beat moves when m_valid && m_ready at a rising edge of clk; m_valid
// and m_data/m_last stay stable until m_ready.
//
// CRC_BITS: bits of CRC-32 computed per line_clk cycle. 8: a byte in the cycle it arrives (RGMII,
// a byte every cycle). 2: the byte over 4 cycles, 2 bits a cycle, the first two in the cycle it
// arrives (RMII, a byte every 4 or 40 cycles): about a third of the logic of the byte-wide CRC.
//
// Free space: a byte is written only if the word at the write pointer is free ("full" below:
// the write pointer a whole buffer ahead of the read pointer as this side knows it). With
// CRC_BITS = 2 that flag is a register, computed from the pointers of the cycle before (no
// subtraction between the byte and the write enable: the line clock's critical path on an
// iCE40UP5K). It is exact because the write pointer moves only with a byte, 4 cycles after the
// one before at the earliest, and in the cycle after a verdict, two cycles before the next
// frame's first byte at the earliest (see s_end); a read pointer that moved counts a cycle later,
// as if it had crossed a cycle later (it only adds room). With CRC_BITS = 8 (a byte a cycle) it
// is computed in the cycle the byte comes.
//
// Counters (line_clk domain, wrap at 2^CNT_W): frames and bytes (good frames committed; bytes
// from the destination address through the FCS), fcs_errors (legal length, bad FCS or s_bad),
// runts (shorter than 64 bytes, FCS included, whatever the FCS), giants (longer than MAX_FRAME,
// whatever the FCS), drops (good frames that did not fit in the buffer).
//
// Sizing: a record takes len + 2 words until the reader has skipped its FCS, so DEPTH >=
// MAX_FRAME + 2 lets the longest frame fit in an empty buffer (checked at elaboration). A length
// counts to MAX_FRAME and then stays (the frame is a giant), so LEN_W bits hold it, and CNT_W >=
// LEN_W lets bytes add it. The reader spends len + 2 clk cycles on a record (header, bytes,
// FCS) when the core takes a byte every cycle; the line spends at least len + 20 byte times on
// it (preamble, SFD, gap), so a core clock at least as fast as the line's byte clock (12.5 MHz
// at 100 Mb/s, 125 MHz at 1000 Mb/s) keeps up with back-to-back frames of any length. When the
// core takes bytes slower, the buffer absorbs the difference, then drops whole frames (drops).
// Frames committed and not yet announced fit in an FC_W-bit count: at most DEPTH / 66 (a
// record is 66 words or more).
//
// Reset: line_rst (sync to line_clk) and rst (sync to clk) must overlap, each held for at least
// SYNC_STAGES + 1 edges of its own clock, so that both sides' counters and synchronizers hold
// zero together.
// Timing constraints for a board: the synchronizer inputs (*_sync_reg[0]), the held pointer
// (rdp_reg to rdw_reg) and the memory's write-to-read path across the clocks are false paths
// (or max-delay of one period).
`default_nettype none

module pisa_mac_rxbuf #(
	// Longest frame accepted, FCS included; 64 .. 16383.
	parameter MAX_FRAME = 1518,
	// Frame buffer words (one byte each): a power of 2, >= MAX_FRAME + 2.
	parameter DEPTH = 2048,
	// Frame buffer memory: "block", "distributed" or "logic" (yosys ram_style).
	parameter RAM_STYLE = "block",
	// Synchronizer flip-flops per crossing counter: >= 2.
	parameter SYNC_STAGES = 2,
	// CRC bits per line_clk cycle: 8 (a byte a cycle) or 2 (a byte every 4 cycles at most).
	parameter CRC_BITS = 8,
	// Counter width: >= LEN_W.
	parameter CNT_W = 32,
	// Derived widths.
	parameter AW = $clog2(DEPTH),
	parameter LEN_W = $clog2(MAX_FRAME + 1),
	parameter FC_W = $clog2(DEPTH / 66 + 1)
) (
	// Line side.
	input  wire             line_clk,
	input  wire             line_rst,
	input  wire [7:0]       s_data,
	input  wire             s_valid,
	input  wire             s_end,
	input  wire             s_bad,

	// Core side.
	input  wire             clk,
	input  wire             rst,
	output wire [7:0]       m_data,
	output wire             m_last,
	output wire             m_valid,
	input  wire             m_ready,

	// Counters (line_clk domain).
	output wire [CNT_W-1:0] frames,
	output wire [CNT_W-1:0] bytes,
	output wire [CNT_W-1:0] fcs_errors,
	output wire [CNT_W-1:0] runts,
	output wire [CNT_W-1:0] giants,
	output wire [CNT_W-1:0] drops
);

generate
	if (MAX_FRAME < 64 || MAX_FRAME > 16383) begin : g_bad_max
		pisa_mac_rxbuf_error_max_frame_must_be_64_to_16383 u_stop ();
	end
	if ((1 << AW) != DEPTH || DEPTH < MAX_FRAME + 2) begin : g_bad_depth
		pisa_mac_rxbuf_error_depth_must_be_power_of_2_at_least_max_frame_plus_2 u_stop ();
	end
	if (CNT_W < LEN_W) begin : g_bad_cnt_w
		pisa_mac_rxbuf_error_cnt_w_must_hold_max_frame u_stop ();
	end
	if (CRC_BITS != 8 && CRC_BITS != 2) begin : g_bad_crc_bits
		pisa_mac_rxbuf_error_crc_bits_must_be_8_or_2 u_stop ();
	end
	if (SYNC_STAGES < 2) begin : g_bad_sync
		pisa_mac_rxbuf_error_sync_stages_must_be_at_least_2 u_stop ();
	end
	if ((1 << FC_W) <= DEPTH / 66) begin : g_bad_fc_w
		pisa_mac_rxbuf_error_fc_w_too_small_for_depth u_stop ();
	end
endgenerate

localparam [LEN_W-1:0] LEN_MAX = MAX_FRAME[LEN_W-1:0];
localparam [LEN_W-1:0] LEN_MIN = 64;
localparam [AW:0] PTR_2 = 2;
// The CRC register (before xorout) after a frame and its own good FCS: the reflected residue.
localparam [31:0] CRC_RESIDUE = 32'hDEBB20E3;
localparam [31:0] CRC_INIT = 32'hFFFFFFFF;

// CRC-32/ISO-HDLC register step over n bits of d, LSB first (reflected, poly 0xEDB88320).
function [31:0] crc_step(input [31:0] c, input [7:0] d, input integer n);
	integer i;
	reg [31:0] r;
	begin
		r = c;
		for (i = 0; i < n; i = i + 1)
			r = (r >> 1) ^ ((r[0] ^ d[i]) ? 32'hEDB88320 : 32'h0);
		crc_step = r;
	end
endfunction

// ==== writer (line_clk) ====

// CRC_BITS = 2 leaves 4 cycles or more between bytes: the free-space flag can be a register
// (SLOW; see "Free space" above). A byte a cycle (CRC_BITS = 8) leaves no cycle for that.
localparam SLOW = CRC_BITS == 2;

reg [31:0] crc_reg = CRC_INIT, crc_next;
reg [7:0] csr_reg, csr_next;               // CRC_BITS = 2: the byte being folded in
reg [1:0] cstep_reg = 2'd0, cstep_next;    // ... its 2-bit steps done after the first
reg cbusy_reg = 1'b0, cbusy_next;          // ... steps left
reg crc_ok_reg = 1'b0;                     // crc_reg was the residue a cycle before
reg endp_reg = 1'b0, endp_next;            // the frame ended, not done yet
reg [LEN_W-1:0] len_reg = {LEN_W{1'b0}}, len_next;  // bytes so far, saturates at MAX
reg giant_reg = 1'b0, giant_next;
reg short_reg = 1'b1, short_next;          // len_reg < 64 (a flag: no comparator on the commit path)
reg atmax_reg = 1'b0, atmax_next;          // len_reg == MAX_FRAME (nor on the write enable's)
reg ovf_reg = 1'b0, ovf_next;              // a byte did not fit: drop the frame
reg wrote_reg = 1'b0, wrote_next;          // a byte of the frame went into the buffer
reg bad_reg = 1'b0, bad_next;              // s_bad of the frame that ended
reg fin_reg = 1'b0;                        // second cycle of the end of a frame: the verdict
reg [AW:0] wr_reg = PTR_2, wr_next;            // next data word
reg [AW:0] rec_reg = {(AW+1){1'b0}}, rec_next;  // the record being written (its header)
reg [AW:0] recd_reg = PTR_2, recd_next;    // ... and its first data word (rec_reg + 2)
reg [FC_W-1:0] pend_reg = {FC_W{1'b0}}, pend_next;  // frames committed, not yet announced
reg cmt_reg = 1'b0;                        // a frame was committed in the cycle before
reg freq_reg = 1'b0, freq_next;            // "a frame": toggles once per announcement
reg we;
reg good;                                  // the verdict: the frame is kept
reg [CNT_W-1:0] frames_reg = {CNT_W{1'b0}}, frames_next;
reg [CNT_W-1:0] bytes_reg = {CNT_W{1'b0}}, bytes_next;
reg [CNT_W-1:0] fcs_reg = {CNT_W{1'b0}}, fcs_next;
reg [CNT_W-1:0] runts_reg = {CNT_W{1'b0}}, runts_next;
reg [CNT_W-1:0] giants_reg = {CNT_W{1'b0}}, giants_next;
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
// The pointers' sums, computed beside the decisions, which only pick one. Those used at a frame's
// end come from registers (wr and rec stand still for the cycles before it); so does wr + 1
// when SLOW (wr stands still for the cycle before a byte).
reg [AW:0] wr_plus1_reg;
reg [AW:0] wr_plus2_reg;                   // the next record's data after a kept frame
reg [AW-1:0] rec_plus1_reg;                // the low header word
wire [AW:0] wr_plus1 = SLOW ? wr_plus1_reg : wr_reg + 1'b1;
wire [AW:0] used = wr_reg - rdw_reg;       // words from the oldest unread to wr (<= DEPTH + 2)
// No free word at wr; SLOW: used[AW] of the cycle before.
reg full_reg = 1'b0;
wire full = SLOW ? full_reg : used[AW];

wire [15:0] len_pad = {{(16-LEN_W){1'b0}}, len_reg};
wire crc_idle = CRC_BITS == 8 || !cbusy_reg;
// The frame ended and its CRC is complete. (An end that comes in the verdict's cycle, which only
// a frame with no byte can and only from a line side that breaks the spacing above, waits in
// endp_reg for the cycle after.)
wire done = (s_end || endp_reg) && crc_idle && !fin_reg;

always @* begin
	crc_next = crc_reg;
	csr_next = csr_reg;
	cstep_next = cstep_reg;
	cbusy_next = cbusy_reg;
	endp_next = endp_reg;
	len_next = len_reg;
	giant_next = giant_reg;
	short_next = short_reg;
	atmax_next = atmax_reg;
	ovf_next = ovf_reg;
	wrote_next = wrote_reg;
	bad_next = bad_reg;
	good = 1'b0;
	wr_next = wr_reg;
	rec_next = rec_reg;
	recd_next = recd_reg;
	pend_next = pend_reg;
	freq_next = freq_reg;
	we = 1'b0;
	frames_next = frames_reg;
	bytes_next = bytes_reg;
	fcs_next = fcs_reg;
	runts_next = runts_reg;
	giants_next = giants_reg;
	drops_next = drops_reg;

	// CRC.
	if (CRC_BITS == 8) begin
		if (s_valid)
			crc_next = crc_step(crc_reg, s_data, 8);
	end else begin
		// (a byte comes after the steps of the one before are over; one step function, its
		// two bits chosen before it)
		if (s_valid || cbusy_reg)
			crc_next = crc_step(crc_reg, {6'd0, s_valid ? s_data[1:0] : csr_reg[1:0]}, 2);
		if (s_valid) begin
			csr_next = {2'b00, s_data[7:2]};
			cstep_next = 2'd0;
			cbusy_next = 1'b1;
		end else if (cbusy_reg) begin
			csr_next = {2'b00, csr_reg[7:2]};
			cstep_next = cstep_reg + 2'd1;
			if (cstep_reg == 2'd2)
				cbusy_next = 1'b0;
		end
	end

	// Bytes into the buffer as they come.
	if (s_valid) begin
		if (atmax_reg) begin
			giant_next = 1'b1;
		end else begin
			len_next = len_reg + 1'b1;
			if (len_reg == LEN_MIN - 1'b1)
				short_next = 1'b0;
			if (len_reg == LEN_MAX - 1'b1)
				atmax_next = 1'b1;
			if (!ovf_reg) begin
				if (full) begin
					ovf_next = 1'b1;
				end else begin
					we = 1'b1;
					wrote_next = 1'b1;
					wr_next = wr_plus1;
				end
			end
		end
	end
	if (s_end) begin
		bad_next = s_bad;
		endp_next = 1'b1;
	end

	// End of a frame, first cycle: the high header word, whatever the verdict (a record's
	// header words are free once a byte of it went in; those of a frame that is not kept are
	// written again by the next one).
	if (done) begin
		endp_next = s_end && endp_reg;  // (an end that came in its frame's first cycle)
		if (wrote_reg)
			we = 1'b1;
	end
	// Second cycle: the verdict, from flags only. Count the frame; if it is kept, the low header
	// word and the commit, otherwise back to the record's start; then the next frame from zero.
	if (fin_reg) begin
		if (short_reg) begin
			runts_next = runts_reg + 1'b1;
		end else if (giant_reg) begin
			giants_next = giants_reg + 1'b1;
		end else if (!crc_ok_reg || bad_reg) begin
			fcs_next = fcs_reg + 1'b1;
		end else if (ovf_reg) begin
			drops_next = drops_reg + 1'b1;
		end else begin
			good = 1'b1;
			we = 1'b1;
			frames_next = frames_reg + 1'b1;
			bytes_next = bytes_reg + {{(CNT_W-LEN_W){1'b0}}, len_reg};
		end
		wr_next = good ? wr_plus2_reg : recd_reg;
		if (good) begin
			rec_next = wr_reg;
			recd_next = wr_plus2_reg;
		end
		crc_next = CRC_INIT;
		len_next = {LEN_W{1'b0}};
		giant_next = 1'b0;
		short_next = 1'b1;
		atmax_next = 1'b0;
		ovf_next = 1'b0;
		wrote_next = 1'b0;
	end

	// Announce one committed frame per handshake round trip (counted a cycle after its commit,
	// a cycle after its last write too).
	if (pend_reg != 0 && freq_reg == fack) begin
		freq_next = !freq_reg;
		if (!cmt_reg)
			pend_next = pend_reg - 1'b1;
	end else if (cmt_reg) begin
		pend_next = pend_reg + 1'b1;
	end
end

// The write port's address and data follow the cycle alone, not the verdict: no byte comes in
// a frame's last two cycles.
wire [AW-1:0] waddr = fin_reg ? rec_plus1_reg : done ? rec_reg[AW-1:0] : wr_reg[AW-1:0];
wire [7:0] wdata = fin_reg ? len_pad[7:0] : done ? len_pad[15:8] : s_data;

always @(posedge line_clk) begin
	crc_reg <= crc_next;
	csr_reg <= csr_next;
	cstep_reg <= cstep_next;
	cbusy_reg <= cbusy_next;
	crc_ok_reg <= crc_reg == CRC_RESIDUE;
	endp_reg <= endp_next;
	len_reg <= len_next;
	giant_reg <= giant_next;
	short_reg <= short_next;
	atmax_reg <= atmax_next;
	ovf_reg <= ovf_next;
	wrote_reg <= wrote_next;
	bad_reg <= bad_next;
	fin_reg <= done;
	wr_reg <= wr_next;
	rec_reg <= rec_next;
	recd_reg <= recd_next;
	pend_reg <= pend_next;
	cmt_reg <= good;
	wr_plus1_reg <= wr_reg + 1'b1;
	wr_plus2_reg <= wr_reg + PTR_2;
	rec_plus1_reg <= rec_reg[AW-1:0] + 1'b1;
	freq_reg <= freq_next;
	full_reg <= used[AW];
	frames_reg <= frames_next;
	bytes_reg <= bytes_next;
	fcs_reg <= fcs_next;
	runts_reg <= runts_next;
	giants_reg <= giants_next;
	drops_reg <= drops_next;
	fack_sync_reg <= {fack_sync_reg[SYNC_STAGES-2:0], fack_reg};
	preq_sync_reg <= {preq_sync_reg[SYNC_STAGES-2:0], preq_reg};
	if (preq != pack_reg) begin
		// rdp_reg has not changed since preq_reg toggled, SYNC_STAGES edges ago at least
		rdw_reg <= rdp_reg;
		pack_reg <= preq;
	end
	if (line_rst) begin
		crc_reg <= CRC_INIT;
		cstep_reg <= 2'd0;
		cbusy_reg <= 1'b0;
		endp_reg <= 1'b0;
		len_reg <= {LEN_W{1'b0}};
		giant_reg <= 1'b0;
		short_reg <= 1'b1;
		atmax_reg <= 1'b0;
		ovf_reg <= 1'b0;
		wrote_reg <= 1'b0;
		bad_reg <= 1'b0;
		fin_reg <= 1'b0;
		wr_reg <= PTR_2;
		rec_reg <= {(AW+1){1'b0}};
		recd_reg <= PTR_2;
		pend_reg <= {FC_W{1'b0}};
		cmt_reg <= 1'b0;
		freq_reg <= 1'b0;
		full_reg <= 1'b0;
		fack_sync_reg <= {SYNC_STAGES{1'b0}};
		preq_sync_reg <= {SYNC_STAGES{1'b0}};
		pack_reg <= 1'b0;
		rdw_reg <= {(AW+1){1'b0}};
		frames_reg <= {CNT_W{1'b0}};
		bytes_reg <= {CNT_W{1'b0}};
		fcs_reg <= {CNT_W{1'b0}};
		runts_reg <= {CNT_W{1'b0}};
		giants_reg <= {CNT_W{1'b0}};
		drops_reg <= {CNT_W{1'b0}};
	end
end

// ==== the memory: write port in line_clk, read port in clk, no reset (block RAM) ====
(* ram_style = RAM_STYLE *)
reg [7:0] mem [0:DEPTH-1];
reg [AW:0] rd_reg = {(AW+1){1'b0}}, rd_next;
reg [7:0] q_reg;                           // mem[rd_reg]
// The write goes through a register stage: the commit decision and the write address mux
// would not fit in one 20 ns cycle on an iCE40UP5K. A frame is announced after its last write.
reg we_q = 1'b0;
reg [AW-1:0] waddr_q;
reg [7:0] wdata_q;
always @(posedge line_clk) begin
	we_q <= we && !line_rst;
	waddr_q <= waddr;
	wdata_q <= wdata;
	if (we_q)
		mem[waddr_q] <= wdata_q;
end
always @(posedge clk)
	q_reg <= mem[rd_next[AW-1:0]];

// ==== reader (clk) ====

localparam [1:0] R_IDLE = 2'd0, R_LO = 2'd1, R_DATA = 2'd2;

reg [1:0] rstate_reg = R_IDLE, rstate_next;
reg [LEN_W-1:0] rem_reg = {LEN_W{1'b0}}, rem_next;  // words of the record left (data + FCS)
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
wire rem_data = rem_reg > 4;               // a frame byte at rd_reg (else FCS)
wire [15:0] rem_pad = {{(16-LEN_W){1'b0}}, rem_reg};
wire [15:0] hdr_hi = {q_reg, 8'h00};       // R_IDLE: q_reg is the high header word
wire [15:0] hdr_lo = {rem_pad[15:8], q_reg};  // R_LO: the low one
wire _unused_rd = &{1'b0, hdr_hi[15:LEN_W], hdr_lo[15:LEN_W], rem_pad[7:0], 1'b0};

assign m_valid = rstate_reg == R_DATA && rem_data;
assign m_data = q_reg;
assign m_last = rem_reg == 5;

always @* begin
	rstate_next = rstate_reg;
	rem_next = rem_reg;
	fack_next = fack_reg;
	rd_next = rd_reg;

	case (rstate_reg)
	R_IDLE: begin
		if (avail) begin
			rem_next = hdr_hi[LEN_W-1:0];
			rd_next = rd_reg + 1'b1;
			fack_next = !fack_reg;
			rstate_next = R_LO;
		end
	end
	R_LO: begin
		rem_next = hdr_lo[LEN_W-1:0];
		rd_next = rd_reg + 1'b1;
		rstate_next = R_DATA;
	end
	R_DATA: begin
		if (!rem_data || m_ready) begin
			rd_next = rd_reg + 1'b1;
			rem_next = rem_reg - 1'b1;
			if (rem_reg == 1)
				rstate_next = R_IDLE;
		end
	end
	default: rstate_next = R_IDLE;
	endcase
end

always @(posedge clk) begin
	rstate_reg <= rstate_next;
	rem_reg <= rem_next;
	fack_reg <= fack_next;
	avail_reg <= freq_sync_reg[SYNC_STAGES-2] != fack_next;
	rd_reg <= rd_next;
	freq_sync_reg <= {freq_sync_reg[SYNC_STAGES-2:0], freq_reg};
	pack_sync_reg <= {pack_sync_reg[SYNC_STAGES-2:0], pack_reg};
	// Offer the read pointer again once the last offer was taken.
	if (pack_sync_reg[SYNC_STAGES-1] == preq_reg) begin
		rdp_reg <= rd_reg;
		preq_reg <= !preq_reg;
	end
	if (rst) begin
		rstate_reg <= R_IDLE;
		rem_reg <= {LEN_W{1'b0}};
		fack_reg <= 1'b0;
		avail_reg <= 1'b0;
		rd_reg <= {(AW+1){1'b0}};
		rdp_reg <= {(AW+1){1'b0}};
		preq_reg <= 1'b0;
		freq_sync_reg <= {SYNC_STAGES{1'b0}};
		pack_sync_reg <= {SYNC_STAGES{1'b0}};
	end
end

assign frames = frames_reg;
assign bytes = bytes_reg;
assign fcs_errors = fcs_reg;
assign runts = runts_reg;
assign giants = giants_reg;
assign drops = drops_reg;

endmodule

`resetall
