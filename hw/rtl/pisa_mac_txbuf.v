// SPDX-License-Identifier: Apache-2.0
// pisa_mac_txbuf: the transmit half of an Ethernet MAC that does not depend on the line (shared
// by pisa_mac_rmii and pisa_mac_rgmii): the crossing from the core clock and the store-and-
// forward TX frame buffer, which hands the line-side engine only whole frames.
//
// Clock domains: clk (the core clock, any frequency) runs s_*; line_clk (the MAC's transmit
// clock: RMII REF_CLK, RGMII GTX_CLK) runs the frame buffer, m_* and drops. One
// pisa_async_fifo of CDC_DEPTH words crosses between them.
//
// Path: s_* (clk) -> async FIFO -> frame buffer (DEPTH x {last, byte}, line_clk) -> m_*
//   Frames go into the buffer past a commit pointer, which moves past a frame at its last byte;
//   m_frame is high while a committed frame is waiting at the read pointer, so the engine starts
//   a frame only once all of it is buffered and never underruns, whatever the core clock.
//   A frame from the core longer than MAX_FRAME - 4 bytes is dropped whole (drops): the write
//   pointer goes back to the commit pointer and the rest of the frame is taken and thrown away.
//
// Core side (s_*, clk): a beat moves when s_valid && s_ready at a rising edge of clk; once the
// source raises s_valid it keeps it and s_data/s_last stable until s_ready; it never waits for
// s_ready before raising s_valid. s_last marks the last byte of a frame.
// Engine side (line_clk):
//   m_frame           a whole frame is in the buffer from the read pointer on
//   m_data, m_last    the word at the read pointer: the memory is read at the next read
//                     pointer every cycle, so after m_pop the next word is there in the next
//                     cycle and the engine can take one per cycle. A frame's first word is there
//                     two cycles after m_frame rises; both engines send 8 bytes of preamble and
//                     SFD before it.
//   m_pop             take the word at the read pointer (only within a frame m_frame announced:
//                     from its first word through the one with m_last)
//
// Sizing: DEPTH >= MAX_FRAME - 4 lets the longest frame the engine may send (MAX_FRAME - 4 bytes
// from the core, the FCS added on the line) fit in the buffer, so once the engine has sent the
// frames before it there is room for all of it. A byte past that length is taken whatever the
// space (and the frame dropped), so a long frame cannot wait forever for space that its own
// bytes hold. The pointers have one bit more than the address, so a full buffer is told from an
// empty one; LEN_W bits count a frame's bytes up to MAX_FRAME - 4.
//
// Reset: rst (sync to clk) and line_rst (sync to line_clk) must overlap, each held for at least
// SYNC_STAGES + 1 edges of its own clock (the async FIFO's rule).
`default_nettype none

module pisa_mac_txbuf #(
	// Longest frame sent, FCS included; >= 64.
	parameter MAX_FRAME = 1518,
	// Frame buffer words: a power of 2, >= MAX_FRAME - 4 (a whole frame must fit).
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

	// Frames dropped as too long (line_clk domain).
	output wire [CNT_W-1:0] drops
);

generate
	if (MAX_FRAME < 64) begin : g_bad_max
		pisa_mac_txbuf_error_max_frame_must_be_at_least_64 u_stop ();
	end
	if ((1 << AW) != DEPTH || DEPTH < MAX_FRAME - 4) begin : g_bad_depth
		pisa_mac_txbuf_error_depth_must_be_power_of_2_at_least_max_frame_minus_4 u_stop ();
	end
endgenerate

localparam integer DATA_MAX = MAX_FRAME - 4;
localparam [LEN_W-1:0] LEN_DATA_MAX = DATA_MAX[LEN_W-1:0];
localparam [AW:0] FULL = DEPTH[AW:0];

wire [8:0] cdc_data;
wire cdc_valid;
wire cdc_ready;

pisa_async_fifo #(.WIDTH(9), .DEPTH(CDC_DEPTH), .RAM_STYLE(CDC_RAM_STYLE),
	.SYNC_STAGES(SYNC_STAGES)) u_cdc (
	.s_clk(clk), .s_rst(rst),
	.s_data({s_last, s_data}), .s_valid(s_valid), .s_ready(s_ready),
	.m_clk(line_clk), .m_rst(line_rst),
	.m_data(cdc_data), .m_valid(cdc_valid), .m_ready(cdc_ready)
);

reg [AW:0] wr_reg = {(AW+1){1'b0}}, wr_next;
reg [AW:0] commit_reg = {(AW+1){1'b0}}, commit_next;
reg [AW:0] rd_reg = {(AW+1){1'b0}}, rd_next;
reg [LEN_W-1:0] n_reg = {LEN_W{1'b0}}, n_next;  // bytes of the frame being written
reg skip_reg = 1'b0, skip_next;                  // dropping the rest of a long frame
reg we;
reg [CNT_W-1:0] drops_reg = {CNT_W{1'b0}}, drops_next;
reg [8:0] q_reg;                                 // the word at rd_reg

wire full = (wr_reg - rd_reg) == FULL;
wire over = n_reg == LEN_DATA_MAX;
assign cdc_ready = skip_reg || over || !full;
wire pop = cdc_valid && cdc_ready;

always @* begin
	wr_next = wr_reg;
	commit_next = commit_reg;
	rd_next = rd_reg;
	n_next = n_reg;
	skip_next = skip_reg;
	we = 1'b0;
	drops_next = drops_reg;

	if (pop) begin
		if (skip_reg) begin
			skip_next = !cdc_data[8];
		end else if (over) begin
			wr_next = commit_reg;
			n_next = {LEN_W{1'b0}};
			skip_next = !cdc_data[8];
			drops_next = drops_reg + 1'b1;
		end else begin
			we = 1'b1;
			wr_next = wr_reg + 1'b1;
			if (cdc_data[8]) begin
				commit_next = wr_reg + 1'b1;
				n_next = {LEN_W{1'b0}};
			end else begin
				n_next = n_reg + 1'b1;
			end
		end
	end

	if (m_pop)
		rd_next = rd_reg + 1'b1;
end

always @(posedge line_clk) begin
	wr_reg <= wr_next;
	commit_reg <= commit_next;
	rd_reg <= rd_next;
	n_reg <= n_next;
	skip_reg <= skip_next;
	drops_reg <= drops_next;
	if (line_rst) begin
		wr_reg <= {(AW+1){1'b0}};
		commit_reg <= {(AW+1){1'b0}};
		rd_reg <= {(AW+1){1'b0}};
		n_reg <= {LEN_W{1'b0}};
		skip_reg <= 1'b0;
		drops_reg <= {CNT_W{1'b0}};
	end
end

// Buffer memory: one write port (the writer), one read port at rd_next, both in line_clk, no
// reset, so yosys infers block RAM. A word is used at least 8 cycles (the preamble) after its
// frame was committed, so reading while it is written does not matter.
(* ram_style = RAM_STYLE *)
reg [8:0] mem [0:DEPTH-1];
always @(posedge line_clk) begin
	if (we)
		mem[wr_reg[AW-1:0]] <= cdc_data;
	q_reg <= mem[rd_next[AW-1:0]];
end

assign m_frame = commit_reg != rd_reg;
assign m_data = q_reg[7:0];
assign m_last = q_reg[8];
assign drops = drops_reg;

endmodule

`resetall
