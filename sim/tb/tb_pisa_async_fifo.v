// SPDX-License-Identifier: Apache-2.0
// tb_pisa_async_fifo: self-checking test of pisa_async_fifo with unrelated clocks (faster
// writer, faster reader, near-equal with drift), two depths and widths, a randomly idle source
// and a randomly back-pressuring sink (fixed seeds).
`default_nettype none

module tb_pisa_async_fifo_case #(
	parameter WIDTH = 8,
	parameter DEPTH = 4,
	parameter S_HALF = 5,  // half period of s_clk, time units
	parameter M_HALF = 7,  // half period of m_clk
	parameter SEED = 1,
	parameter WORDS = 2000
) (
	output reg  done,
	output reg  [31:0] errors
);
reg s_clk = 1'b0, m_clk = 1'b0;
reg s_rst = 1'b1, m_rst = 1'b1;
reg [WIDTH-1:0] s_data;
reg s_valid = 1'b0;
wire s_ready;
wire [WIDTH-1:0] m_data;
wire m_valid;
reg m_ready = 1'b0;

always #(S_HALF) s_clk = ~s_clk;
// The read clock starts at an odd offset so the edges of the two clocks keep sliding.
initial begin
	#3;
	forever #(M_HALF) m_clk = ~m_clk;
end

pisa_async_fifo #(.WIDTH(WIDTH), .DEPTH(DEPTH)) dut (
	.s_clk(s_clk), .s_rst(s_rst),
	.s_data(s_data), .s_valid(s_valid), .s_ready(s_ready),
	.m_clk(m_clk), .m_rst(m_rst),
	.m_data(m_data), .m_valid(m_valid), .m_ready(m_ready)
);

reg [WIDTH-1:0] expect_mem [0:WORDS-1];
integer seed = SEED;
integer sent = 0, got = 0, i, s_cycles = 0, m_cycles = 0;
integer p_valid = 50, p_ready = 50;
reg was_stalled = 1'b0;
reg full_seen = 1'b0;
reg [WIDTH-1:0] stalled_data;

initial begin
	done = 1'b0;
	errors = 0;
	for (i = 0; i < WORDS; i = i + 1)
		expect_mem[i] = $random(seed);
	// Both resets together, long enough for both clocks.
	#(20 * (S_HALF + M_HALF));
	@(posedge s_clk) s_rst <= 1'b0;
	@(posedge m_clk) m_rst <= 1'b0;
end

// Source, in the s_clk domain.
always @(posedge s_clk) begin
	if (!s_rst && !done) begin
		s_cycles = s_cycles + 1;
		if (s_cycles % 300 == 0)
			p_valid = 10 + ($random(seed) & 32'h7f) % 91;
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
		if (!s_ready && s_cycles > 2)
			full_seen = 1'b1;
	end
end

// Sink and checks, in the m_clk domain.
always @(posedge m_clk) begin
	if (!m_rst && !done) begin
		m_cycles = m_cycles + 1;
		if (m_cycles % 300 == 0)
			p_ready = 10 + ($random(seed) & 32'h7f) % 91;
		if (was_stalled && (!m_valid || m_data !== stalled_data)) begin
			errors = errors + 1;
			$display("%m: m_valid/m_data changed while stalled");
		end
		if (m_valid && m_ready) begin
			if (got >= sent || m_data !== expect_mem[got]) begin
				errors = errors + 1;
				$display("%m: word %0d is %h, expected %h (%0d sent)", got, m_data,
					expect_mem[got], sent);
			end
			got = got + 1;
		end
		was_stalled = m_valid && !m_ready;
		stalled_data = m_data;
		m_ready <= ($random(seed) & 32'h7f) % 100 < p_ready;
		if (got == WORDS) begin
			if (!full_seen) begin
				errors = errors + 1;
				$display("%m: never full");
			end
			done = 1'b1;
		end
		if (m_cycles > 100 * WORDS) begin
			errors = errors + 1;
			$display("%m: timeout, %0d of %0d words", got, WORDS);
			done = 1'b1;
		end
	end
end
endmodule

module tb_pisa_async_fifo;
wire [3:0] done;
wire [31:0] e0, e1, e2, e3;
tb_pisa_async_fifo_case #(.WIDTH(8), .DEPTH(4), .S_HALF(5), .M_HALF(13), .SEED(31)) c0 (.done(done[0]), .errors(e0));
tb_pisa_async_fifo_case #(.WIDTH(8), .DEPTH(4), .S_HALF(17), .M_HALF(4), .SEED(32)) c1 (.done(done[1]), .errors(e1));
tb_pisa_async_fifo_case #(.WIDTH(19), .DEPTH(16), .S_HALF(10), .M_HALF(11), .SEED(33)) c2 (.done(done[2]), .errors(e2));
tb_pisa_async_fifo_case #(.WIDTH(19), .DEPTH(2), .S_HALF(9), .M_HALF(7), .SEED(34)) c3 (.done(done[3]), .errors(e3));

initial begin
	wait (&done);
	if (e0 + e1 + e2 + e3 == 0)
		$display("PASSED pisa_async_fifo");
	else
		$display("FAILED pisa_async_fifo: %0d errors (see messages above)", e0 + e1 + e2 + e3);
	$finish;
end
endmodule

`resetall
