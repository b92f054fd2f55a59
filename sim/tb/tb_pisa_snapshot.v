// SPDX-License-Identifier: Apache-2.0
// tb_pisa_snapshot: self-checking test of pisa_snapshot with unrelated clocks (a faster source,
// a faster reader, near-equal with drift). The source counts up every src_clk cycle and presents
// {count, ~count}, so a copy taken across two edges shows as a mismatch. Requests come at random
// (also while busy, which must be ignored). Each copy must be whole, must lie between the count
// when it was requested and the count when busy fell, and the copies must never go backwards.
`default_nettype none

module tb_pisa_snapshot_case #(
	parameter SRC_HALF = 5,  // half period of src_clk, time units
	parameter DST_HALF = 7,  // half period of clk
	parameter SEED = 1,
	parameter COPIES = 300
) (
	output reg         done,
	output reg  [31:0] errors
);
localparam W = 32;
reg clk = 1'b0, src_clk = 1'b0;
reg rst = 1'b1, src_rst = 1'b1;
reg req = 1'b0;
wire busy;
wire [2*W-1:0] snap;
reg [W-1:0] count = {W{1'b0}};

always #(DST_HALF) clk = ~clk;
initial begin
	#3;
	forever #(SRC_HALF) src_clk = ~src_clk;
end

pisa_snapshot #(.W(2 * W)) dut (
	.clk(clk), .rst(rst), .req(req), .busy(busy), .snap(snap),
	.src_clk(src_clk), .src_rst(src_rst), .src_data({count, ~count})
);

always @(posedge src_clk)
	if (!src_rst)
		count <= count + 1'b1;

integer seed = SEED, copies = 0, ignored = 0;
reg [W-1:0] at_req, last = {W{1'b0}};
reg pending = 1'b0;

initial begin
	done = 1'b0;
	errors = 0;
	#(20 * (SRC_HALF + DST_HALF));
	@(posedge src_clk) src_rst <= 1'b0;
	@(posedge clk) rst <= 1'b0;
end

// The reader, in clk: a request now and then (sometimes while busy); a copy checked when busy
// falls. A request taken while busy would restart the handshake and let busy fall before the
// copy: the lower bound catches that.
always @(posedge clk) begin
	req <= 1'b0;
	if (!rst && !done) begin
		if (pending && !busy && !req) begin
			pending <= 1'b0;
			copies <= copies + 1;
			if (snap[2*W-1:W] != ~snap[W-1:0]) begin
				$display("tb_pisa_snapshot: copy %0d is torn: %h", copies, snap);
				errors <= errors + 1;
			end else if (snap[2*W-1:W] < at_req || snap[2*W-1:W] > count ||
					snap[2*W-1:W] < last) begin
				$display("tb_pisa_snapshot: copy %0d is %0d, requested at %0d, now %0d, last %0d",
					copies, snap[2*W-1:W], at_req, count, last);
				errors <= errors + 1;
			end
			last <= snap[2*W-1:W];
			if (copies + 1 == COPIES)
				done <= 1'b1;
		end else if ($random(seed) % 4 == 0) begin
			req <= 1'b1;
			if (pending || busy) begin
				ignored <= ignored + 1;
			end else begin
				pending <= 1'b1;
				// (count is read in another clock; it only grows, so this is a lower bound)
				at_req <= count;
			end
		end
	end
end

endmodule

module tb_pisa_snapshot;
wire [3:0] done;
wire [31:0] e0, e1, e2, e3;
tb_pisa_snapshot_case #(.SRC_HALF(3), .DST_HALF(11), .SEED(1)) c0 (.done(done[0]), .errors(e0));
tb_pisa_snapshot_case #(.SRC_HALF(11), .DST_HALF(3), .SEED(2)) c1 (.done(done[1]), .errors(e1));
tb_pisa_snapshot_case #(.SRC_HALF(7), .DST_HALF(7), .SEED(3)) c2 (.done(done[2]), .errors(e2));
tb_pisa_snapshot_case #(.SRC_HALF(4), .DST_HALF(5), .SEED(4)) c3 (.done(done[3]), .errors(e3));

initial begin
	#20000000;
	$display("FAILED tb_pisa_snapshot: timed out (copies %0d %0d %0d %0d)", c0.copies,
		c1.copies, c2.copies, c3.copies);
	$finish;
end
always @* begin
	if (&done) begin
		if (e0 + e1 + e2 + e3 == 0)
			$display("PASSED tb_pisa_snapshot (4 clock ratios, %0d copies, %0d requests while busy ignored)",
				c0.copies + c1.copies + c2.copies + c3.copies,
				c0.ignored + c1.ignored + c2.ignored + c3.ignored);
		else
			$display("FAILED tb_pisa_snapshot: %0d bad copies", e0 + e1 + e2 + e3);
		$finish;
	end
end

endmodule

`resetall
