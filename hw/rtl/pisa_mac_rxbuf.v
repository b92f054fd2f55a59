// SPDX-License-Identifier: Apache-2.0
// pisa_mac_rxbuf: the receive half of an Ethernet MAC that does not depend on the line (shared by
// pisa_mac_rmii and pisa_mac_rgmii): FCS check, length checks, the store-and-forward RX frame
// buffer, the rx counters and the crossing into the core clock.
//
// Clock domains: line_clk (the MAC's receive clock: RMII REF_CLK, RGMII RXC) runs s_*, the
// CRC, the frame buffer and the counters; clk (the core clock, any frequency) runs m_*. One
// pisa_async_fifo of CDC_DEPTH words crosses between them.
//
// Path (line_clk):
//   s_* bytes -> CRC-32 (pisa_crc32) -> 5-byte delay line (holds back the FCS) -> frame buffer
//   (DEPTH x {last, byte}) -> committed words only -> output register -> async FIFO -> m_* (clk)
//   A frame is written into the buffer past a commit pointer. In the cycle after s_end its CRC
//   is known; only if it is good, s_bad was low and the length is in [64, MAX_FRAME] (FCS
//   included) is its last word written (with last = 1) and the commit pointer moved past it;
//   otherwise the write pointer goes back to the commit pointer. A frame that does not fit in
//   the free space is dropped whole the same way. So m_* only ever carries whole good frames,
//   without their FCS, m_last on the last byte.
//
// Line side (s_*, line_clk; there is no ready: the line cannot wait):
//   s_valid  s_data is the next byte of the frame, the destination address first (preamble and
//            SFD are the line side's business); at most one byte per cycle, with any gaps
//   s_end    the frame has ended: a cycle after its last byte at the earliest, never together
//            with s_valid; a frame may have no byte at all (a runt)
//   s_bad    read with s_end: the line side saw an error in the frame (RGMII RX_ER); the frame
//            is counted and dropped as an FCS error
//   The first byte of the next frame may come two cycles after s_end at the earliest: the cycle
//   after s_end commits or drops the frame and clears the length for the next one.
// Core side (m_*, clk): a beat moves when m_valid && m_ready at a rising edge of clk; m_valid
// and m_data/m_last stay stable until m_ready.
//
// Counters (line_clk domain, wrap at 2^CNT_W): frames and bytes (good frames committed; bytes
// from the destination address through the FCS), fcs_errors (legal length, bad FCS or s_bad),
// runts (shorter than 64 bytes, FCS included, whatever the FCS), giants (longer than MAX_FRAME,
// whatever the FCS), drops (good frames that did not fit in the buffer).
//
// Sizing: a frame leaves at most MAX_FRAME - 4 words in the buffer (the FCS is not stored), so
// DEPTH >= MAX_FRAME - 4 lets the longest frame fit in an empty buffer; the pointers have one
// bit more than the address, so a full buffer is told from an empty one. A length counts to
// MAX_FRAME and then stays (the frame is a giant), so LEN_W bits hold it, and CNT_W >= LEN_W lets
// bytes add it. The drain moves at most one word per line_clk cycle, as fast as the line; when
// the core takes bytes slower, the buffer fills and whole frames are dropped (drops), never part
// of one. CDC_DEPTH only sets how well the crossing keeps up (see the MACs' defaults).
//
// Reset: line_rst (sync to line_clk) and rst (sync to clk) must overlap, each held for at least
// SYNC_STAGES + 1 edges of its own clock (the async FIFO's rule).
`default_nettype none

module pisa_mac_rxbuf #(
	// Longest frame accepted, FCS included; >= 64.
	parameter MAX_FRAME = 1518,
	// Frame buffer words (one byte each): a power of 2, >= MAX_FRAME - 4.
	parameter DEPTH = 2048,
	// Frame buffer memory: "block", "distributed" or "logic" (yosys ram_style).
	parameter RAM_STYLE = "block",
	// Words in the clock-crossing FIFO: a power of 2, >= 2.
	parameter CDC_DEPTH = 8,
	// Clock-crossing FIFO memory.
	parameter CDC_RAM_STYLE = "logic",
	// Synchronizer flip-flops per crossing pointer: >= 2.
	parameter SYNC_STAGES = 2,
	// Counter width.
	parameter CNT_W = 32,
	// Derived widths.
	parameter AW = $clog2(DEPTH),
	parameter LEN_W = $clog2(MAX_FRAME + 1)
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
	if (MAX_FRAME < 64) begin : g_bad_max
		pisa_mac_rxbuf_error_max_frame_must_be_at_least_64 u_stop ();
	end
	if ((1 << AW) != DEPTH || DEPTH < MAX_FRAME - 4) begin : g_bad_depth
		pisa_mac_rxbuf_error_depth_must_be_power_of_2_at_least_max_frame_minus_4 u_stop ();
	end
	if (CNT_W < LEN_W) begin : g_bad_cnt_w
		pisa_mac_rxbuf_error_cnt_w_must_hold_max_frame u_stop ();
	end
endgenerate

localparam [LEN_W-1:0] LEN_MAX = MAX_FRAME[LEN_W-1:0];
localparam [LEN_W-1:0] LEN_MIN = 64;
localparam [AW:0] FULL = DEPTH[AW:0];
// CRC-32 of a frame with its own FCS appended, after xorout (the residue 0xDEBB20E3 inverted).
localparam [31:0] CRC_GOOD = 32'h2144DF1C;

reg [LEN_W-1:0] len_reg = {LEN_W{1'b0}}, len_next;  // bytes so far, saturates at MAX
reg giant_reg = 1'b0, giant_next;
reg ovf_reg = 1'b0, ovf_next;
reg bad_reg = 1'b0, bad_next;          // s_bad of the frame that ended
reg [39:0] dl_reg, dl_next;            // delay line: [7:0] newest byte, [39:32] oldest
reg [AW:0] wr_reg = {(AW+1){1'b0}}, wr_next;
reg [AW:0] commit_reg = {(AW+1){1'b0}}, commit_next;
reg [AW:0] rd_reg = {(AW+1){1'b0}}, rd_next;
reg we;
reg [8:0] wdata;
reg [CNT_W-1:0] frames_reg = {CNT_W{1'b0}}, frames_next;
reg [CNT_W-1:0] bytes_reg = {CNT_W{1'b0}}, bytes_next;
reg [CNT_W-1:0] fcs_reg = {CNT_W{1'b0}}, fcs_next;
reg [CNT_W-1:0] runts_reg = {CNT_W{1'b0}}, runts_next;
reg [CNT_W-1:0] giants_reg = {CNT_W{1'b0}}, giants_next;
reg [CNT_W-1:0] drops_reg = {CNT_W{1'b0}}, drops_next;

// Drain side of the buffer: an output register in front of the clock-crossing FIFO.
reg [8:0] o_data_reg;
reg o_valid_reg = 1'b0, o_valid_next;
wire cdc_s_ready;

wire full = (wr_reg - rd_reg) == FULL;
wire o_load = rd_reg != commit_reg && (!o_valid_reg || cdc_s_ready);

wire [31:0] crc;
wire crc_valid;
wire crc_s_ready_unused;

pisa_crc32 #(.WIDTH(8)) u_crc (
	.clk(line_clk), .rst(line_rst),
	.s_data(s_data), .s_keep(s_valid), .s_last(s_end),
	.s_valid(s_valid || s_end), .s_ready(crc_s_ready_unused),
	.m_crc(crc), .m_valid(crc_valid), .m_ready(1'b1)
);

always @* begin
	len_next = len_reg;
	giant_next = giant_reg;
	ovf_next = ovf_reg;
	bad_next = bad_reg;
	dl_next = dl_reg;
	wr_next = wr_reg;
	commit_next = commit_reg;
	rd_next = rd_reg;
	we = 1'b0;
	wdata = {1'b0, dl_reg[39:32]};
	frames_next = frames_reg;
	bytes_next = bytes_reg;
	fcs_next = fcs_reg;
	runts_next = runts_reg;
	giants_next = giants_reg;
	drops_next = drops_reg;
	o_valid_next = o_valid_reg;

	if (s_valid) begin
		dl_next = {dl_reg[31:0], s_data};
		if (len_reg == LEN_MAX) begin
			giant_next = 1'b1;
		end else begin
			len_next = len_reg + 1'b1;
			// Byte len_reg arrives: byte len_reg - 5 leaves the delay line.
			if (len_reg >= 5 && !ovf_reg) begin
				if (full) begin
					ovf_next = 1'b1;
				end else begin
					we = 1'b1;
					wr_next = wr_reg + 1'b1;
				end
			end
		end
	end
	if (s_end)
		bad_next = s_bad;

	// One cycle after the end of a frame (never a byte of one then): its CRC is here; commit
	// it or take it back, and start the next frame from zero.
	if (crc_valid) begin
		wr_next = commit_reg;
		len_next = {LEN_W{1'b0}};
		giant_next = 1'b0;
		ovf_next = 1'b0;
		if (len_reg < LEN_MIN) begin
			runts_next = runts_reg + 1'b1;
		end else if (giant_reg) begin
			giants_next = giants_reg + 1'b1;
		end else if (crc != CRC_GOOD || bad_reg) begin
			fcs_next = fcs_reg + 1'b1;
		end else if (ovf_reg || full) begin
			drops_next = drops_reg + 1'b1;
		end else begin
			we = 1'b1;
			wdata = {1'b1, dl_reg[39:32]};
			wr_next = wr_reg + 1'b1;
			commit_next = wr_reg + 1'b1;
			frames_next = frames_reg + 1'b1;
			bytes_next = bytes_reg + {{(CNT_W-LEN_W){1'b0}}, len_reg};
		end
	end

	if (o_load) begin
		rd_next = rd_reg + 1'b1;
		o_valid_next = 1'b1;
	end else if (o_valid_reg && cdc_s_ready) begin
		o_valid_next = 1'b0;
	end
end

always @(posedge line_clk) begin
	len_reg <= len_next;
	giant_reg <= giant_next;
	ovf_reg <= ovf_next;
	bad_reg <= bad_next;
	dl_reg <= dl_next;
	wr_reg <= wr_next;
	commit_reg <= commit_next;
	rd_reg <= rd_next;
	frames_reg <= frames_next;
	bytes_reg <= bytes_next;
	fcs_reg <= fcs_next;
	runts_reg <= runts_next;
	giants_reg <= giants_next;
	drops_reg <= drops_next;
	o_valid_reg <= o_valid_next;
	if (line_rst) begin
		len_reg <= {LEN_W{1'b0}};
		giant_reg <= 1'b0;
		ovf_reg <= 1'b0;
		bad_reg <= 1'b0;
		wr_reg <= {(AW+1){1'b0}};
		commit_reg <= {(AW+1){1'b0}};
		rd_reg <= {(AW+1){1'b0}};
		frames_reg <= {CNT_W{1'b0}};
		bytes_reg <= {CNT_W{1'b0}};
		fcs_reg <= {CNT_W{1'b0}};
		runts_reg <= {CNT_W{1'b0}};
		giants_reg <= {CNT_W{1'b0}};
		drops_reg <= {CNT_W{1'b0}};
		o_valid_reg <= 1'b0;
	end
end

// Buffer memory: one write port (the frame writer), one read port (the drain), both in
// line_clk, no reset, so yosys infers block RAM. The drain reads only committed words, the
// writer writes only uncommitted ones.
(* ram_style = RAM_STYLE *)
reg [8:0] mem [0:DEPTH-1];
always @(posedge line_clk) begin
	if (we)
		mem[wr_reg[AW-1:0]] <= wdata;
	if (o_load)
		o_data_reg <= mem[rd_reg[AW-1:0]];
end

wire [8:0] cdc_m_data;

pisa_async_fifo #(.WIDTH(9), .DEPTH(CDC_DEPTH), .RAM_STYLE(CDC_RAM_STYLE),
	.SYNC_STAGES(SYNC_STAGES)) u_cdc (
	.s_clk(line_clk), .s_rst(line_rst),
	.s_data(o_data_reg), .s_valid(o_valid_reg), .s_ready(cdc_s_ready),
	.m_clk(clk), .m_rst(rst),
	.m_data(cdc_m_data), .m_valid(m_valid), .m_ready(m_ready)
);

assign m_data = cdc_m_data[7:0];
assign m_last = cdc_m_data[8];

assign frames = frames_reg;
assign bytes = bytes_reg;
assign fcs_errors = fcs_reg;
assign runts = runts_reg;
assign giants = giants_reg;
assign drops = drops_reg;

endmodule

`resetall
