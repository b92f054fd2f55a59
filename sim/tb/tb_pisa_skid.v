// SPDX-License-Identifier: Apache-2.0
// tb_pisa_skid: self-checking test of pisa_skid at two widths, with a randomly idle source and
// a randomly back-pressuring sink (fixed seeds), plus a full-throughput phase.
`default_nettype none

module tb_pisa_skid_case #(
	parameter WIDTH = 8,
	parameter SEED = 1,
	parameter WORDS = 3000
) (
	input  wire clk,
	output reg  done,
	output reg  [31:0] errors
);
reg rst = 1'b1;
reg [WIDTH-1:0] s_data;
reg s_valid = 1'b0;
wire s_ready;
wire [WIDTH-1:0] m_data;
wire m_valid;
reg m_ready = 1'b0;

pisa_skid #(.WIDTH(WIDTH)) dut (
	.clk(clk), .rst(rst),
	.s_data(s_data), .s_valid(s_valid), .s_ready(s_ready),
	.m_data(m_data), .m_valid(m_valid), .m_ready(m_ready)
);

reg [WIDTH-1:0] expect_mem [0:WORDS-1];
integer seed = SEED;
integer sent = 0, got = 0, i, cycles = 0, streak = 0, best_streak = 0;
integer p_valid = 50, p_ready = 50;
reg was_stalled = 1'b0;
reg [WIDTH-1:0] stalled_data;

initial begin
	done = 1'b0;
	errors = 0;
	for (i = 0; i < WORDS; i = i + 1)
		expect_mem[i] = $random(seed);
	repeat (3) @(posedge clk);
	rst <= 1'b0;
end

always @(posedge clk) begin
	if (!rst && !done) begin
		cycles = cycles + 1;
		// Phases of random rates; every fourth phase runs both sides at 100 %.
		if (cycles % 400 == 0) begin
			p_valid = 10 + ($random(seed) & 32'h7f) % 90;
			p_ready = 10 + ($random(seed) & 32'h7f) % 90;
			if ((cycles / 400) % 4 == 1) begin
				p_valid = 100;
				p_ready = 100;
			end
		end
		if (was_stalled && (!m_valid || m_data !== stalled_data)) begin
			errors = errors + 1;
			$display("%m: m_valid/m_data changed while stalled");
		end
		if (sent - got > 2 || sent - got < 0) begin
			errors = errors + 1;
			$display("%m: %0d words inside", sent - got);
		end
		if (m_valid && m_ready) begin
			if (m_data !== expect_mem[got]) begin
				errors = errors + 1;
				$display("%m: word %0d is %h, expected %h", got, m_data, expect_mem[got]);
			end
			got = got + 1;
			streak = streak + 1;
			if (streak > best_streak)
				best_streak = streak;
		end else begin
			streak = 0;
		end
		was_stalled = m_valid && !m_ready;
		stalled_data = m_data;
		if (s_valid && s_ready)
			sent = sent + 1;
		if (!s_valid || s_ready) begin
			if (sent < WORDS && ($random(seed) & 32'h7f) % 100 < p_valid) begin
				s_valid <= 1'b1;
				s_data <= expect_mem[sent];
			end else begin
				s_valid <= 1'b0;
				s_data <= {WIDTH{1'bx}};
			end
		end
		m_ready <= ($random(seed) & 32'h7f) % 100 < p_ready;
		if (got == WORDS) begin
			// One word per cycle must get through when nobody stalls.
			if (best_streak < 100) begin
				errors = errors + 1;
				$display("%m: no full-throughput run (best %0d)", best_streak);
			end
			done = 1'b1;
		end
		if (cycles > 100 * WORDS) begin
			errors = errors + 1;
			$display("%m: timeout, %0d of %0d words", got, WORDS);
			done = 1'b1;
		end
	end
end
endmodule

module tb_pisa_skid;
reg clk = 1'b0;
always #5 clk = ~clk;

wire [1:0] done;
wire [31:0] e0, e1;
tb_pisa_skid_case #(.WIDTH(1), .SEED(21)) c0 (.clk(clk), .done(done[0]), .errors(e0));
tb_pisa_skid_case #(.WIDTH(37), .SEED(22)) c1 (.clk(clk), .done(done[1]), .errors(e1));

initial begin
	wait (&done);
	if (e0 + e1 == 0)
		$display("PASSED pisa_skid");
	else
		$display("FAILED pisa_skid: %0d errors (see messages above)", e0 + e1);
	$finish;
end
endmodule

`resetall
