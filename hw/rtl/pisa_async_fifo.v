// SPDX-License-Identifier: Apache-2.0
// pisa_async_fifo: dual-clock stream FIFO (Gray-code pointers, 2-flop synchronizers).
//
// Stream contract (both ports): a word moves when valid && ready at a rising edge of the
// port's clock; once a source raises valid it keeps valid high and data stable until ready;
// a source never waits for ready before raising valid.
// s_* is in the s_clk domain, m_* in the m_clk domain; the clocks may be unrelated.
// Only Gray-coded pointers, taken straight from registers, cross between the domains, each
// through SYNC_STAGES flip-flops; the memory word a pointer announces was written at least
// SYNC_STAGES m_clk edges before it is read. s_ready and m_valid are conservative: a word
// written is visible to m after ~SYNC_STAGES + 2 m_clk edges, space freed by a read is seen by
// s after ~SYNC_STAGES + 1 s_clk edges.
//
// Reset: s_rst (sync to s_clk) and m_rst (sync to m_clk) must be asserted at overlapping times,
// each for at least SYNC_STAGES + 1 edges of its own clock, so that both pointers and all
// synchronizers hold zero together. Resetting one side alone loses the FIFO's state.
// Timing constraints for a board: the synchronizer inputs (*_gray_sync_reg[0]) are false paths
// (or max-delay of one period of the faster clock).
`default_nettype none

module pisa_async_fifo #(
	// Bits per word (>= 1), e.g. {last, data}.
	parameter WIDTH = 8,
	// Words in the memory: a power of 2, >= 2 (the output register holds one more).
	parameter DEPTH = 16,
	// Memory: "block", "distributed" or "logic"; passed to yosys as ram_style.
	parameter RAM_STYLE = "block",
	// Synchronizer flip-flops per crossing pointer: 2 (usual) or more.
	parameter SYNC_STAGES = 2,
	// Address width, derived.
	parameter AW = $clog2(DEPTH)
) (
	input  wire             s_clk,
	input  wire             s_rst,
	input  wire [WIDTH-1:0] s_data,
	input  wire             s_valid,
	output wire             s_ready,

	input  wire             m_clk,
	input  wire             m_rst,
	output wire [WIDTH-1:0] m_data,
	output wire             m_valid,
	input  wire             m_ready
);

generate
	if (DEPTH < 2 || (1 << AW) != DEPTH) begin : g_bad_depth
		pisa_async_fifo_error_depth_must_be_power_of_2_at_least_2 u_stop ();
	end
	if (SYNC_STAGES < 2) begin : g_bad_sync
		pisa_async_fifo_error_sync_stages_must_be_at_least_2 u_stop ();
	end
	if (WIDTH < 1) begin : g_bad_width
		pisa_async_fifo_error_width_must_be_at_least_1 u_stop ();
	end
endgenerate

localparam [AW:0] FULL = DEPTH[AW:0];

function [AW:0] bin2gray(input [AW:0] b);
	bin2gray = b ^ (b >> 1);
endfunction

function [AW:0] gray2bin(input [AW:0] g);
	integer i;
	begin
		gray2bin[AW] = g[AW];
		for (i = AW - 1; i >= 0; i = i - 1)
			gray2bin[i] = gray2bin[i + 1] ^ g[i];
	end
endfunction

(* ram_style = RAM_STYLE *)
reg [WIDTH-1:0] mem [0:DEPTH-1];

// ---- write side (s_clk) ----
reg [AW:0] wr_bin_reg = {(AW+1){1'b0}}, wr_bin_next;
reg [AW:0] wr_gray_reg = {(AW+1){1'b0}};
reg s_ready_reg = 1'b0, s_ready_next;
// rd_gray_sync_reg[0] is the first flop after the crossing.
(* async_reg = "true" *)
reg [AW:0] rd_gray_sync_reg [0:SYNC_STAGES-1];

wire push = s_valid && s_ready_reg;
wire [AW:0] rd_bin_at_s = gray2bin(rd_gray_sync_reg[SYNC_STAGES-1]);

always @* begin
	wr_bin_next = wr_bin_reg;
	if (push)
		wr_bin_next = wr_bin_reg + 1'b1;
	s_ready_next = (wr_bin_next - rd_bin_at_s) != FULL;
end

integer si;
always @(posedge s_clk) begin
	wr_bin_reg <= wr_bin_next;
	wr_gray_reg <= bin2gray(wr_bin_next);
	s_ready_reg <= s_ready_next;
	rd_gray_sync_reg[0] <= rd_gray_reg;
	for (si = 1; si < SYNC_STAGES; si = si + 1)
		rd_gray_sync_reg[si] <= rd_gray_sync_reg[si - 1];
	if (s_rst) begin
		wr_bin_reg <= {(AW+1){1'b0}};
		wr_gray_reg <= {(AW+1){1'b0}};
		s_ready_reg <= 1'b0;
		for (si = 0; si < SYNC_STAGES; si = si + 1)
			rd_gray_sync_reg[si] <= {(AW+1){1'b0}};
	end
end

always @(posedge s_clk)
	if (push)
		mem[wr_bin_reg[AW-1:0]] <= s_data;

// ---- read side (m_clk) ----
reg [AW:0] rd_bin_reg = {(AW+1){1'b0}}, rd_bin_next;
reg [AW:0] rd_gray_reg = {(AW+1){1'b0}};
reg m_valid_reg = 1'b0, m_valid_next;
reg [WIDTH-1:0] m_data_reg;
(* async_reg = "true" *)
reg [AW:0] wr_gray_sync_reg [0:SYNC_STAGES-1];

wire pop = m_valid_reg && m_ready;
wire mem_empty = rd_gray_reg == wr_gray_sync_reg[SYNC_STAGES-1];
wire load = !mem_empty && (!m_valid_reg || m_ready);

assign s_ready = s_ready_reg;
assign m_valid = m_valid_reg;
assign m_data = m_data_reg;

always @* begin
	rd_bin_next = rd_bin_reg;
	m_valid_next = m_valid_reg;
	if (load) begin
		rd_bin_next = rd_bin_reg + 1'b1;
		m_valid_next = 1'b1;
	end else if (pop) begin
		m_valid_next = 1'b0;
	end
end

integer mi;
always @(posedge m_clk) begin
	rd_bin_reg <= rd_bin_next;
	rd_gray_reg <= bin2gray(rd_bin_next);
	m_valid_reg <= m_valid_next;
	wr_gray_sync_reg[0] <= wr_gray_reg;
	for (mi = 1; mi < SYNC_STAGES; mi = mi + 1)
		wr_gray_sync_reg[mi] <= wr_gray_sync_reg[mi - 1];
	if (m_rst) begin
		rd_bin_reg <= {(AW+1){1'b0}};
		rd_gray_reg <= {(AW+1){1'b0}};
		m_valid_reg <= 1'b0;
		for (mi = 0; mi < SYNC_STAGES; mi = mi + 1)
			wr_gray_sync_reg[mi] <= {(AW+1){1'b0}};
	end
end

always @(posedge m_clk)
	if (load)
		m_data_reg <= mem[rd_bin_reg[AW-1:0]];

`ifdef FORMAL
// Checked by hw/formal on the single-clock abstraction: yosys-smtbmc steps every flip-flop
// on one global step, so s_clk and m_clk act as one clock and the synchronizers as plain
// delay lines (the order of pointer updates is what is proved, not metastability).
// The sim/tb testbench runs the unrelated-clock case.
reg f_past_valid = 1'b0;
always @(posedge s_clk)
	f_past_valid <= 1'b1;

initial assume (s_rst);
always @* assume (s_rst == m_rst);

always @(posedge s_clk)
	if (f_past_valid && !$past(s_rst) && $past(s_valid && !s_ready)) begin
		assume (s_valid);
		assume ($stable(s_data));
	end

wire [AW:0] f_rd_s = gray2bin(rd_gray_sync_reg[SYNC_STAGES-1]);
wire [AW:0] f_wr_m = gray2bin(wr_gray_sync_reg[SYNC_STAGES-1]);
wire [AW:0] f_mem_fill = wr_bin_reg - rd_bin_reg;
wire [AW:0] f_count = f_mem_fill + {{AW{1'b0}}, m_valid_reg};

// Every synchronizer stage holds a Gray code; each copy is older than the one before it,
// and the write side's view of the read pointer lags it, so the writer never overruns.
integer fi;
always @(posedge s_clk) if (f_past_valid) begin
	assert (wr_gray_reg == bin2gray(wr_bin_reg));
	assert (rd_gray_reg == bin2gray(rd_bin_reg));
	assert (f_mem_fill <= FULL);
	assert ((rd_bin_reg - f_rd_s) <= (wr_bin_reg - f_rd_s));
	assert ((wr_bin_reg - f_rd_s) <= FULL);
	assert ((f_wr_m - rd_bin_reg) <= f_mem_fill);
	for (fi = 1; fi < SYNC_STAGES; fi = fi + 1) begin
		assert ((gray2bin(rd_gray_sync_reg[fi - 1]) - f_rd_s) <= (rd_bin_reg - f_rd_s));
		assert ((gray2bin(rd_gray_sync_reg[fi]) - f_rd_s)
			<= (gray2bin(rd_gray_sync_reg[fi - 1]) - f_rd_s));
		assert ((wr_bin_reg - gray2bin(wr_gray_sync_reg[fi - 1]))
			<= (wr_bin_reg - gray2bin(wr_gray_sync_reg[fi])));
	end
	// s_ready may lag freed space by a cycle, never the other way.
	if (s_ready_reg)
		assert ((wr_bin_reg - f_rd_s) != FULL);
	if (f_past_valid && $past(s_rst))
		assert (!m_valid && !s_ready && f_count == 0);
	if (f_past_valid && !$past(m_rst) && $past(m_valid && !m_ready)) begin
		assert (m_valid);
		assert ($stable(m_data));
	end
end

// Order, no loss, no duplication: follow one arbitrary word (see pisa_fifo).
(* anyseq *) wire f_pick;
reg f_busy = 1'b0;
reg [WIDTH-1:0] f_data;
reg [AW:0] f_ahead;
reg [AW:0] f_ptr;
wire [AW:0] f_rel = f_ptr - rd_bin_reg;
wire [WIDTH-1:0] f_mem_word = mem[f_ptr[AW-1:0]];
always @(posedge s_clk) begin
	if (s_rst) begin
		f_busy <= 1'b0;
	end else if (f_busy) begin
		if (pop) begin
			if (f_ahead == 0) begin
				assert (m_data == f_data);
				f_busy <= 1'b0;
			end
			f_ahead <= f_ahead - 1'b1;
		end
	end else if (push && f_pick) begin
		f_busy <= 1'b1;
		f_data <= s_data;
		f_ptr <= wr_bin_reg;
		f_ahead <= f_count - {{AW{1'b0}}, pop};
	end
end

always @(posedge s_clk)
	if (f_busy) begin
		assert (f_ahead < f_count);
		if (f_ahead == 0 && m_valid_reg) begin
			assert (m_data_reg == f_data);
			assert (f_ptr == rd_bin_reg - 1'b1);
		end else begin
			assert (f_rel < f_mem_fill);
			assert (f_ahead == f_rel + {{AW{1'b0}}, m_valid_reg});
			assert (f_mem_word == f_data);
		end
	end

always @(posedge s_clk) begin
	cover (!s_ready && f_past_valid && !$past(s_rst));
	cover (f_busy && pop && f_ahead == 0 && f_count > 1);
end
`endif

endmodule

`resetall
