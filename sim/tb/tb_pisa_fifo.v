// SPDX-License-Identifier: Apache-2.0
// tb_pisa_fifo: self-checking test of pisa_fifo across depths, widths and RAM styles, with a
// randomly idle source and a randomly back-pressuring sink (fixed seeds).
`default_nettype none

module tb_pisa_fifo_case #(
	parameter WIDTH = 8,
	parameter DEPTH = 4,
	parameter RAM_STYLE = "block",
	parameter SEED = 1,
	parameter WORDS = 3000
) (
	input  wire clk,
	output reg  done,
	output reg  [31:0] errors
);
localparam AW = $clog2(DEPTH);
reg rst = 1'b1;
reg [WIDTH-1:0] s_data;
reg s_valid = 1'b0;
wire s_ready;
wire [WIDTH-1:0] m_data;
wire m_valid;
reg m_ready = 1'b0;
wire [AW:0] count;

pisa_fifo #(.WIDTH(WIDTH), .DEPTH(DEPTH), .RAM_STYLE(RAM_STYLE)) dut (
	.clk(clk), .rst(rst),
	.s_data(s_data), .s_valid(s_valid), .s_ready(s_ready),
	.m_data(m_data), .m_valid(m_valid), .m_ready(m_ready),
	.count(count)
);

reg [WIDTH-1:0] expect_mem [0:WORDS-1];
integer seed = SEED;
integer sent = 0, got = 0, i, cycles = 0;
integer p_valid = 50, p_ready = 50;
reg full_seen = 1'b0;
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
		// Phases: balanced, source fast / sink slow, source slow / sink fast.
		if (cycles % 500 == 0) begin
			p_valid = 10 + ($random(seed) & 32'h7f) % 90;
			p_ready = 10 + ($random(seed) & 32'h7f) % 90;
		end
		// Contract checks on the output.
		if (was_stalled && (!m_valid || m_data !== stalled_data)) begin
			errors = errors + 1;
			$display("%m: m_valid/m_data changed while stalled");
		end
		if (count === DEPTH[AW:0])
			full_seen = 1'b1;
		// s_ready is low in the first cycle after reset.
		if (cycles > 1 && s_ready !== (count != DEPTH)) begin
			errors = errors + 1;
			$display("%m: s_ready %b with count %0d", s_ready, count);
		end
		if (count != sent - got) begin
			errors = errors + 1;
			$display("%m: count %0d, expected %0d", count, sent - got);
		end
		if (m_valid && m_ready) begin
			if (m_data !== expect_mem[got]) begin
				errors = errors + 1;
				$display("%m: word %0d is %h, expected %h", got, m_data, expect_mem[got]);
			end
			got = got + 1;
		end
		was_stalled = m_valid && !m_ready;
		stalled_data = m_data;
		if (s_valid && s_ready)
			sent = sent + 1;
		// Next cycle's stimulus: the source holds valid and data until accepted.
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
			if (!full_seen && DEPTH <= 64) begin
				errors = errors + 1;
				$display("%m: never full");
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

module tb_pisa_fifo;
reg clk = 1'b0;
always #5 clk = ~clk;

wire [5:0] done;
wire [31:0] e0, e1, e2, e3, e4, e5;
tb_pisa_fifo_case #(.WIDTH(8), .DEPTH(2), .RAM_STYLE("block"), .SEED(11)) c0 (.clk(clk), .done(done[0]), .errors(e0));
tb_pisa_fifo_case #(.WIDTH(8), .DEPTH(4), .RAM_STYLE("block"), .SEED(12)) c1 (.clk(clk), .done(done[1]), .errors(e1));
tb_pisa_fifo_case #(.WIDTH(8), .DEPTH(16), .RAM_STYLE("block"), .SEED(13)) c2 (.clk(clk), .done(done[2]), .errors(e2));
tb_pisa_fifo_case #(.WIDTH(33), .DEPTH(16), .RAM_STYLE("distributed"), .SEED(14)) c3 (.clk(clk), .done(done[3]), .errors(e3));
tb_pisa_fifo_case #(.WIDTH(1), .DEPTH(8), .RAM_STYLE("logic"), .SEED(15)) c4 (.clk(clk), .done(done[4]), .errors(e4));
tb_pisa_fifo_case #(.WIDTH(16), .DEPTH(512), .RAM_STYLE("block"), .SEED(16)) c5 (.clk(clk), .done(done[5]), .errors(e5));

initial begin
	wait (&done);
	if (e0 + e1 + e2 + e3 + e4 + e5 == 0)
		$display("PASSED pisa_fifo");
	else
		$display("FAILED pisa_fifo: %0d errors (see messages above)", e0 + e1 + e2 + e3 + e4 + e5);
	$finish;
end
endmodule

`resetall
