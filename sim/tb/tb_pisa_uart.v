// SPDX-License-Identifier: Apache-2.0
// tb_pisa_uart: self-checking loopback test of pisa_uart_tx -> pisa_uart_rx at several
// clocks-per-bit settings, with a randomly idle source and a randomly slow sink (fixed seeds),
// then false starts, a framing error with a break, an overrun and a sender whose bit time is
// off by about 3 %, driven onto the line by the testbench.
`default_nettype none

module tb_pisa_uart_case #(
	parameter CLKS_PER_BIT = 16,
	parameter SEED = 1,
	parameter BYTES = 150
) (
	input  wire clk,
	output reg  done,
	output reg  [31:0] errors
);
reg rst = 1'b1;
reg [7:0] s_data;
reg s_valid = 1'b0;
wire s_ready;
wire txd, busy;
reg inject = 1'b0, inj_line = 1'b1;
wire line = inject ? inj_line : txd;
wire [7:0] m_data;
wire m_valid;
reg m_ready = 1'b0;
wire err_false_start, err_frame, err_overrun;

pisa_uart_tx #(.CLKS_PER_BIT(CLKS_PER_BIT)) u_tx (
	.clk(clk), .rst(rst),
	.s_data(s_data), .s_valid(s_valid), .s_ready(s_ready),
	.txd(txd), .busy(busy)
);

pisa_uart_rx #(.CLKS_PER_BIT(CLKS_PER_BIT)) u_rx (
	.clk(clk), .rst(rst),
	.rxd(line),
	.m_data(m_data), .m_valid(m_valid), .m_ready(m_ready),
	.err_false_start(err_false_start), .err_frame(err_frame), .err_overrun(err_overrun)
);

integer seed = SEED;
integer i, n_false = 0, n_frame = 0, n_overrun = 0, n_got = 0, n_sent = 0;
integer p_valid = 50, p_ready = 80;
reg [7:0] sent_mem [0:1023];
reg [7:0] got_mem [0:1023];
reg random_sink = 1'b1;
reg random_source = 1'b0;
reg was_stalled = 1'b0;
reg [7:0] stalled_data;

// Counters and the m-side contract, every cycle.
always @(posedge clk) begin
	if (!rst) begin
		if (was_stalled && (!m_valid || m_data !== stalled_data)) begin
			errors = errors + 1;
			$display("%m: m_valid/m_data changed while stalled");
		end
		if (m_valid && m_ready) begin
			got_mem[n_got] = m_data;
			n_got = n_got + 1;
		end
		was_stalled = m_valid && !m_ready;
		stalled_data = m_data;
		n_false = n_false + err_false_start;
		n_frame = n_frame + err_frame;
		n_overrun = n_overrun + err_overrun;
		if (random_sink)
			m_ready <= ($random(seed) & 32'h7f) % 100 < p_ready;
		// Source: random idle time between bytes, holds valid until taken.
		if (s_valid && s_ready) begin
			sent_mem[n_sent] = s_data;
			n_sent = n_sent + 1;
		end
		if (!s_valid || s_ready) begin
			if (random_source && ($random(seed) & 32'h7f) % 100 < p_valid) begin
				s_valid <= 1'b1;
				s_data <= $random(seed);
			end else begin
				s_valid <= 1'b0;
				s_data <= 8'hxx;
			end
		end
	end
end

task check(input ok, input [8 * 48 - 1:0] what);
	if (!ok) begin
		errors = errors + 1;
		$display("%m: CLKS_PER_BIT=%0d: %0s", CLKS_PER_BIT, what);
	end
endtask

// Drives one frame onto the line: bit time in cycles, stop bit value.
task line_byte(input [7:0] b, input integer bit_cycles, input stop);
	integer k;
	begin
		inj_line <= 1'b0;
		repeat (bit_cycles) @(posedge clk);
		for (k = 0; k < 8; k = k + 1) begin
			inj_line <= b[k];
			repeat (bit_cycles) @(posedge clk);
		end
		inj_line <= stop;
		repeat (bit_cycles) @(posedge clk);
		inj_line <= 1'b1;
	end
endtask

integer g0, f0, o0, k0, slow;
initial begin
	done = 1'b0;
	errors = 0;
	repeat (3) @(posedge clk);
	rst <= 1'b0;

	// 1. Loopback of random bytes, random gaps, random sink stalls.
	random_source = 1'b1;
	wait (n_sent >= BYTES);
	@(posedge clk) random_source = 1'b0;
	wait (!s_valid && !busy);
	repeat (4 * CLKS_PER_BIT) @(posedge clk);
	check(n_got == n_sent, "loopback lost or added bytes");
	for (i = 0; i < n_sent && i < n_got; i = i + 1)
		if (got_mem[i] !== sent_mem[i]) begin
			check(0, "loopback byte differs");
			$display("%m: byte %0d: got %h, sent %h", i, got_mem[i], sent_mem[i]);
		end
	check(n_false == 0 && n_frame == 0 && n_overrun == 0, "errors flagged on a clean line");

	// 2. Glitches shorter than half a bit: false starts, nothing received.
	random_sink = 1'b0;
	m_ready <= 1'b1;
	inject = 1'b1;
	g0 = n_got;
	f0 = n_false;
	for (k0 = 1; k0 < CLKS_PER_BIT / 2 - 1; k0 = k0 + 1) begin
		inj_line <= 1'b0;
		repeat (k0) @(posedge clk);
		inj_line <= 1'b1;
		repeat (2 * CLKS_PER_BIT) @(posedge clk);
	end
	check(n_false - f0 == (CLKS_PER_BIT / 2 - 2 > 0 ? CLKS_PER_BIT / 2 - 2 : 0), "glitch not flagged as false start");
	check(n_got == g0, "glitch produced a byte");

	// 3. Framing error followed by a break: one err_frame, no byte; then a good byte.
	f0 = n_frame;
	line_byte(8'h55, CLKS_PER_BIT, 1'b0);
	inj_line <= 1'b0;
	repeat (30 * CLKS_PER_BIT) @(posedge clk);
	inj_line <= 1'b1;
	repeat (2 * CLKS_PER_BIT) @(posedge clk);
	check(n_frame - f0 == 1, "framing error not flagged once");
	check(n_got == g0, "framing error produced a byte");
	line_byte(8'hA7, CLKS_PER_BIT, 1'b1);
	repeat (2 * CLKS_PER_BIT) @(posedge clk);
	check(n_got == g0 + 1 && got_mem[g0] == 8'hA7, "byte after a break lost");

	// 4. A sender 3 % slow and 3 % fast (bit time rounded; only where it is representable).
	slow = (CLKS_PER_BIT * 103 + 50) / 100;
	line_byte(8'h3C, slow, 1'b1);
	line_byte(8'hC3, (CLKS_PER_BIT * 97 + 50) / 100, 1'b1);
	repeat (2 * CLKS_PER_BIT) @(posedge clk);
	check(n_got == g0 + 3 && got_mem[g0 + 1] == 8'h3C && got_mem[g0 + 2] == 8'hC3,
		"bit-time mismatch not tolerated");

	// 5. Overrun: nobody reads, three bytes arrive; the first is kept, two flagged.
	m_ready <= 1'b0;
	o0 = n_overrun;
	line_byte(8'h11, CLKS_PER_BIT, 1'b1);
	line_byte(8'h22, CLKS_PER_BIT, 1'b1);
	line_byte(8'h33, CLKS_PER_BIT, 1'b1);
	repeat (2 * CLKS_PER_BIT) @(posedge clk);
	check(n_overrun - o0 == 2, "overrun not flagged");
	m_ready <= 1'b1;
	repeat (4) @(posedge clk);
	check(n_got == g0 + 4 && got_mem[g0 + 3] == 8'h11, "byte before the overrun lost");

	done = 1'b1;
end
endmodule

module tb_pisa_uart;
reg clk = 1'b0;
always #5 clk = ~clk;

wire [3:0] done;
wire [31:0] e0, e1, e2, e3;
tb_pisa_uart_case #(.CLKS_PER_BIT(4), .SEED(51)) c0 (.clk(clk), .done(done[0]), .errors(e0));
tb_pisa_uart_case #(.CLKS_PER_BIT(5), .SEED(52)) c1 (.clk(clk), .done(done[1]), .errors(e1));
tb_pisa_uart_case #(.CLKS_PER_BIT(16), .SEED(53)) c2 (.clk(clk), .done(done[2]), .errors(e2));
tb_pisa_uart_case #(.CLKS_PER_BIT(33), .SEED(54)) c3 (.clk(clk), .done(done[3]), .errors(e3));

initial begin
	wait (&done);
	if (e0 + e1 + e2 + e3 == 0)
		$display("PASSED pisa_uart");
	else
		$display("FAILED pisa_uart: %0d errors (see messages above)", e0 + e1 + e2 + e3);
	$finish;
end

initial begin
	#50000000;
	$display("FAILED pisa_uart: timeout");
	$finish;
end
endmodule

`resetall
