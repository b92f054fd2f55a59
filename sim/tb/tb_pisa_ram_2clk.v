// SPDX-License-Identifier: Apache-2.0
// tb_pisa_ram_2clk: pisa_ram_2clk's ECP5 build (its DP16KDs, here ecp5_dp16kd.v's model) reads
// what its behavioural memory reads, word for word, for widths and depths that take one block
// or several side by side, in width (slices of 18 or 9 bits) and in depth (a block chosen by
// the address's upper bits): every word written once, then random writes and reads with the
// read latch and output register enabled at random. Fixed seeds.
`default_nettype none

module tb_pisa_ram_2clk_case #(
	parameter WIDTH = 8,
	parameter DEPTH = 2048,
	parameter SEED = 1,
	parameter OPS = 4000
) (
	input  wire clk,
	output reg  done,
	output reg  [31:0] errors,
	output reg  [31:0] checked
);
localparam AW = $clog2(DEPTH);
reg we = 1'b0, rd_en = 1'b0, rd_oce = 1'b0;
reg [AW-1:0] waddr = {AW{1'b0}}, raddr = {AW{1'b0}};
reg [WIDTH-1:0] wdata;
wire [WIDTH-1:0] rd_ecp5, rd_sim;

pisa_ram_2clk #(.FAMILY("ecp5"), .WIDTH(WIDTH), .DEPTH(DEPTH)) u_ecp5 (
	.wclk(clk), .we(we), .waddr(waddr), .wdata(wdata),
	.rclk(clk), .rd_en(rd_en), .raddr(raddr), .rd_oce(rd_oce), .rd_data(rd_ecp5)
);
pisa_ram_2clk #(.FAMILY("sim"), .WIDTH(WIDTH), .DEPTH(DEPTH)) u_sim (
	.wclk(clk), .we(we), .waddr(waddr), .wdata(wdata),
	.rclk(clk), .rd_en(rd_en), .raddr(raddr), .rd_oce(rd_oce), .rd_data(rd_sim)
);

integer seed = SEED, i, n, op;
reg filled = 1'b0;

// a random word of WIDTH bits
function [WIDTH-1:0] random_word(input integer unused);
	integer k;
	begin
		for (k = 0; k < WIDTH; k = k + 32)
			random_word = (random_word << 32) | $random(seed);
	end
endfunction

initial begin
	done = 1'b0;
	errors = 0;
	checked = 0;
	wdata = {WIDTH{1'b0}};
	// every word once, so that a read from the wrong block or slice cannot match an X (and
	// word 0 read through both registers once it is written)
	for (i = 0; i < DEPTH; i = i + 1) begin
		@(negedge clk);
		we = 1'b1;
		waddr = i;
		wdata = random_word(0);
		rd_en = i > 0;
		rd_oce = i > 0;
	end
	@(negedge clk);
	we = 1'b0;
	filled = 1'b1;
	for (n = 0; n < OPS; n = n + 1) begin
		@(negedge clk);
		op = $random(seed);
		we = op[0];
		waddr = $random(seed);
		wdata = random_word(0);
		rd_en = op[1] | op[2];
		rd_oce = op[3] | op[4];
		raddr = $random(seed);
		// a read of the word being written is undefined: read another
		if (we && raddr == waddr)
			raddr = raddr + 1'b1;
	end
	repeat (3) @(negedge clk);
	done = 1'b1;
end

// once every word holds a value, both builds' outputs are equal after every edge
always @(negedge clk)
	if (filled && !done) begin
		if (rd_ecp5 !== rd_sim || ^rd_sim === 1'bx) begin
			if (errors < 5)
				$display("WIDTH %0d DEPTH %0d: ecp5 read %h, the behavioural memory %h",
					WIDTH, DEPTH, rd_ecp5, rd_sim);
			errors = errors + 1;
		end
		checked = checked + 1;
	end
endmodule

module tb_pisa_ram_2clk;
reg clk = 1'b0;
always #5 clk = ~clk;

localparam N = 8;
wire [N-1:0] done;
wire [32*N-1:0] errors, checked;

// one block of 2,048 x 9 (the MACs' frame buffers), two in depth, one of 1,024 x 18, slices of
// 18 bits at 512 words (the exact unit's rows), slices of 9 at 2,048, slices in width and blocks
// in depth at once, slices of 9 with a narrower last one, the narrowest (case 0 last)
localparam [32*N-1:0] WIDTHS = {32'd1, 32'd37, 32'd20, 32'd64, 32'd97, 32'd18, 32'd9, 32'd8};
localparam [32*N-1:0] DEPTHS = {32'd2, 32'd2048, 32'd8192, 32'd2048, 32'd512, 32'd1024, 32'd4096,
	32'd2048};
genvar g;
generate
	for (g = 0; g < N; g = g + 1) begin : g_case
		tb_pisa_ram_2clk_case #(.WIDTH(WIDTHS[32 * g +: 32]), .DEPTH(DEPTHS[32 * g +: 32]),
			.SEED(g + 1)) u_case (
			.clk(clk), .done(done[g]), .errors(errors[32 * g +: 32]),
			.checked(checked[32 * g +: 32])
		);
	end
endgenerate

integer k, total_errors, total_checked;
initial begin
	wait (&done);
	total_errors = 0;
	total_checked = 0;
	for (k = 0; k < N; k = k + 1) begin
		total_errors = total_errors + errors[32 * k +: 32];
		total_checked = total_checked + checked[32 * k +: 32];
	end
	if (total_errors != 0)
		$display("FAILED pisa_ram_2clk: %0d of %0d reads differ", total_errors, total_checked);
	else
		$display("PASSED pisa_ram_2clk (%0d shapes, %0d reads equal)", N, total_checked);
	$finish;
end

initial begin
	#10000000;
	$display("FAILED pisa_ram_2clk: timeout");
	$finish;
end
endmodule

`resetall
