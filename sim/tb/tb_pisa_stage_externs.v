// SPDX-License-Identifier: Apache-2.0
// tb_pisa_stage_externs: pisa_stage_externs against tests/stage/gen_extern_vectors
// (EXTERN_VECTORS, its header gives the format): COUNT, REG_READ and REG_WRITE one at a time,
// as pisa_action_unit hands them over, on the registers and counters of images laid out in the
// cells, with pisa-model's results. Per section the cells are written through the control port,
// then each instruction runs (its operands held until x_done, as the action unit holds them):
// REG_READ's value must be the model's, and a cell read through the control port right after it
// must hold the model's value. A quarter of the time that read is asked for in the
// instruction's first clock: the port must not take it (c_ready low) until the instruction is
// done; another quarter, a read of the last case's cell is taken the clock before the
// instruction starts, which must still start. After the section every cell must be the model's. Random idle clocks between. Prints PASSED TB_NAME
// (N instructions, ... clocks) or FAILED.
`default_nettype none

`ifndef TB_NAME
`define TB_NAME "tb_pisa_stage_externs"
`endif
`ifndef EXTERN_VECTORS
`define EXTERN_VECTORS "build/sim/stage/pisa_stage_externs.hex"
`endif

module tb_pisa_stage_externs;

localparam XA = 6, NREGS = 4, NCOUNTERS = 4, CELLS = 1 << XA;

reg clk = 1'b0;
always #5 clk = !clk;
reg rst = 1'b1;

integer errors = 0, s;
`define TB_VECTORS `EXTERN_VECTORS
`include "tb_stage_hex.vh"
`define TB_CELLS_READY c_ready
`define TB_CELLS_RVALID c_rvalid
`define TB_CELLS_RDATA c_rdata
`include "tb_stage_cells.vh"
reg x_start = 1'b0, x_sgn = 1'b0;
reg [7:0] x_op = 0;
reg [15:0] x_imm = 0;
reg [63:0] x_a = 0, x_b = 0;
reg [6:0] x_a_width = 0, x_b_width = 0;
wire x_done;
wire [63:0] x_result;
wire c_ready, c_rvalid;
wire [63:0] c_rdata;

pisa_stage_externs #(.XA(XA), .NREGS(NREGS), .NCOUNTERS(NCOUNTERS)) dut (
	.clk(clk), .rst(rst),
	.cfg_reg_base(reg_base), .cfg_reg_size(reg_size), .cfg_reg_width(reg_width),
	.cfg_cnt_base(cnt_base), .cfg_cnt_size(cnt_size), .cfg_cnt_kind(cnt_kind),
	.x_start(x_start), .x_op(x_op), .x_imm(x_imm), .x_sgn(x_sgn), .x_a(x_a),
	.x_a_width(x_a_width), .x_b(x_b), .x_b_width(x_b_width), .x_done(x_done),
	.x_result(x_result),
	.c_valid(c_valid), .c_ready(c_ready), .c_write(c_write), .c_addr(c_addr),
	.c_wdata(c_wdata), .c_rvalid(c_rvalid), .c_rdata(c_rdata)
);

// what the clock edges saw: the instruction's end, the control port's transfer and read word
integer seed = 32'h78746e73;
reg running = 1'b0, done_seen = 1'b0, taken = 1'b0, rvalid_seen = 1'b0;
reg [63:0] result_seen, rdata_seen;
always @(posedge clk) begin
	if (x_done) begin
		if (!running)
			fail("x_done with no instruction running");
		done_seen <= 1'b1;
		result_seen <= x_result;
	end
	if (c_valid && c_ready) begin
		if (running && !x_done)
			fail("the control port taken while an instruction runs");
		taken <= 1'b1;
	end
	if (c_rvalid) begin
		rvalid_seen <= 1'b1;
		rdata_seen <= c_rdata;
	end
end

task fail(input [8*64-1:0] why);
	begin
		errors = errors + 1;
		if (errors <= 10)
			$display("%0t: %0s", $time, why);
	end
endtask

integer c, nsections, ncases, total = 0, clocks = 0, t1, mode;
reg early, before;
reg [63:0] last_cell, last_value;

initial begin
	fd = $fopen(`EXTERN_VECTORS, "r");
	if (fd == 0) begin
		$display("FAILED %s: cannot open %s", `TB_NAME, `EXTERN_VECTORS);
		$finish;
	end
	repeat (3) @(posedge clk);
	rst <= 1'b0;
	read1;
	nsections = x;
	for (s = 0; s < nsections; s = s + 1) begin
		read_cells;
		// the instructions
		read1;
		ncases = x;
		for (c = 0; c < ncases; c = c + 1) begin
			read_v(10);
			mode = $random(seed) & 3;
			early = mode == 0;
			before = mode == 1 && c > 0;
			@(negedge clk);
			x_op = v[0][7:0];
			x_imm = v[1][15:0];
			x_sgn = v[2][0];
			x_a = v[3];
			x_a_width = v[4][6:0];
			x_b = v[5];
			x_b_width = v[6][6:0];
			taken = 1'b0;
			rvalid_seen = 1'b0;
			if (before) begin	// the last case's cell read, taken the clock before
				c_valid = 1'b1;
				c_write = 1'b0;
				c_addr = last_cell[XA-1:0];
				@(negedge clk);
				if (!taken)
					fail("a control read not taken by an idle port");
				c_valid = 1'b0;
			end
			x_start = 1'b1;
			done_seen = 1'b0;
			running = 1'b1;
			if (early) begin	// the cell's read asked for at once: it waits
				c_valid = 1'b1;
				c_write = 1'b0;
				c_addr = v[8][XA-1:0];
			end
			t1 = $time;
			@(negedge clk);
			x_start = 1'b0;
			while (!done_seen)
				@(negedge clk);
			clocks = clocks + ($time - t1) / 10;
			running = 1'b0;
			x_a = 64'bx;	// held until done, not after
			x_b = 64'bx;
			if (x_op == 8'd30 && result_seen !== v[7]) begin
				errors = errors + 1;
				if (errors <= 10)
					$display("%0t: section %0d case %0d: REG_READ %0d [%h] gave %h, want %h",
						$time, s, c, x_imm, v[3], result_seen, v[7]);
			end
			// (answered by now: two clocks after it was taken, and the instruction took more;
			// rdata_seen alone may still hold the last case's read of the same cell)
			if (before && (!rvalid_seen || rdata_seen !== last_value)) begin
				errors = errors + 1;
				if (errors <= 10)
					$display("%0t: section %0d case %0d: cell %0d read before it: answered %0d, %h, want %h",
						$time, s, c, last_cell, rvalid_seen, rdata_seen, last_value);
			end
			if (early) begin
				while (!taken)
					@(negedge clk);
				c_valid = 1'b0;
				while (!rvalid_seen)
					@(negedge clk);
				if (rdata_seen !== v[9]) begin
					errors = errors + 1;
					if (errors <= 10)
						$display("%0t: section %0d case %0d: cell %0d is %h, want %h",
							$time, s, c, v[8], rdata_seen, v[9]);
				end
			end else begin
				cell_check(v[8][XA-1:0], v[9], "after an instruction,");
			end
			last_cell = v[8];
			last_value = v[9];
			total = total + 1;
			if (($random(seed) & 3) == 0)
				repeat ($random(seed) & 7) @(negedge clk);
		end
		check_cells("after the section,");
	end
	$fclose(fd);
	if (errors == 0)
		$display("PASSED %s (%0d sections, %0d instructions, %0d.%0d clocks each from x_start to x_done)",
			`TB_NAME, nsections, total, clocks / total, clocks * 10 / total % 10);
	else
		$display("FAILED %s: %0d errors (see above)", `TB_NAME, errors);
	$finish;
end

initial begin
	#10000000;
	$display("FAILED %s: still running after 1,000,000 clocks", `TB_NAME);
	$finish;
end

endmodule

`resetall
