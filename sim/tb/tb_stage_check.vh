// SPDX-License-Identifier: Apache-2.0
// Shared by the stage blocks' testbenches that check results in order (tb_pisa_exact_match,
// tb_pisa_ternary_match through tb_stage_lookup.vh, tb_pisa_stage_match and tb_pisa_stage;
// included inside the module after it declares clk, m_valid, m_ready, q_in and q_out (results
// queued and checked) and defines TB_RESULT as the concatenation of the DUT's m_* result
// fields, and TB_DRAIN_CLOCKS if its results may take longer than 1,000 clocks): the error
// count and fail, the check that a result held while m_ready is low does not change, and
// drain.

`ifndef TB_DRAIN_CLOCKS
`define TB_DRAIN_CLOCKS 1000
`endif

integer errors = 0;

task fail(input [8*80-1:0] why);
	begin
		errors = errors + 1;
		if (errors <= 10)
			$display("%0t: %0s", $time, why);
	end
endtask

reg held = 1'b0;
reg [127:0] held_v;
always @(posedge clk) begin
	if (held && !(m_valid && held_v == `TB_RESULT))
		fail("a result changed (or left) while m_ready was low");
	held <= m_valid && !m_ready;
	held_v <= `TB_RESULT;
end

// waits until every queued result is in
task drain;
	integer t;
	begin
		t = 0;
		while (q_out < q_in && t < `TB_DRAIN_CLOCKS) begin
			@(posedge clk);
			t = t + 1;
		end
		if (q_out != q_in)
			fail("results missing");
	end
endtask
