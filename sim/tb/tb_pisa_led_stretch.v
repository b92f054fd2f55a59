// SPDX-License-Identifier: Apache-2.0
// tb_pisa_led_stretch: self-checking test of pisa_led_stretch. Random sparse strobes on every
// act bit and random short resets; after every clock edge show is compared with what the header
// promises, worked out from the recorded history (not from a copy of the design): in a window,
// show[i] is whether act[i] was high at an edge of the window before (from its first edge
// through its last), counting only edges after the last reset; a reset clears show until the
// next window starts. Runs for N = 1, 3, 4 and windows of 2, 8 and 32 cycles.
`default_nettype none

module tb_pisa_led_stretch_case #(
	parameter N = 4,
	parameter TICK_W = 3,
	parameter NCYC = 4000,
	parameter SEED = 1
) (
	output reg done,
	output reg [31:0] errors
);
localparam P = 1 << TICK_W;  // cycles a window

reg clk = 1'b0, rst = 1'b0;
always #5 clk = ~clk;
reg [N-1:0] act = {N{1'b0}};
wire [N-1:0] show;

pisa_led_stretch #(.N(N), .TICK_W(TICK_W)) dut (.clk(clk), .rst(rst), .act(act), .show(show));

integer seed = SEED;
reg [N-1:0] a_hist [0:NCYC-1];  // act at edge n
reg r_hist [0:NCYC-1];          // rst at edge n

// show just after edge m (edge 0 is the first; the window counter starts at 0 with it)
function [N-1:0] expect_after(input integer m);
	integer e, k, r;
	begin
		expect_after = {N{1'b0}};
		e = m - (m + 1) % P;  // the last window's last edge, at or before m
		if (e >= 0) begin
			r = -1;
			for (k = e; k <= m; k = k + 1)
				if (r_hist[k])
					r = k;
			if (r < 0) begin
				for (k = e; k > e - P && k >= 0 && !r_hist[k]; k = k - 1)
					expect_after = expect_after | a_hist[k];
			end
		end
	end
endfunction

integer n = 0, b, run = 0;
always @(posedge clk) begin
	if (n < NCYC) begin
		a_hist[n] = act;
		r_hist[n] = rst;
		if (n > 0 && show !== expect_after(n - 1)) begin
			errors = errors + 1;
			if (errors < 10)
				$display("%m: after edge %0d: show %b, expected %b", n - 1, show,
					expect_after(n - 1));
		end
		n = n + 1;
		// strobes: about one a window a bit, sometimes none for a while
		for (b = 0; b < N; b = b + 1)
			act[b] <= (($random(seed) & 32'hffff) % (P + P / 2 + 1)) == 0;
		// resets: 1 to 3 edges, now and then
		if (run > 0) begin
			run = run - 1;
			rst <= run > 0;
		end else if ((($random(seed) & 32'hffff) % 97) == 0) begin
			run = 1 + ($random(seed) & 32'hffff) % 3;
			rst <= 1'b1;
		end
	end else begin
		done = 1'b1;
	end
end

initial begin
	done = 1'b0;
	errors = 0;
end
endmodule

module tb_pisa_led_stretch;
wire [2:0] done;
wire [31:0] e0, e1, e2;
tb_pisa_led_stretch_case #(.N(1), .TICK_W(1), .SEED(21)) c0 (.done(done[0]), .errors(e0));
tb_pisa_led_stretch_case #(.N(4), .TICK_W(3), .SEED(22)) c1 (.done(done[1]), .errors(e1));
tb_pisa_led_stretch_case #(.N(3), .TICK_W(5), .SEED(23)) c2 (.done(done[2]), .errors(e2));
initial begin
	wait (&done);
	if (e0 + e1 + e2 == 0)
		$display("PASSED tb_pisa_led_stretch");
	else
		$display("FAILED tb_pisa_led_stretch: %0d errors (see messages above)", e0 + e1 + e2);
	$finish;
end
endmodule

`resetall
