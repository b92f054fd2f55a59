// SPDX-License-Identifier: Apache-2.0
// Shared by tb_pisa_stage and tb_pisa_stage_externs (included inside the module after it
// declares clk, XA, NREGS, NCOUNTERS, errors and s, the section, and after tb_stage_hex.vh; with
// TB_CELLS_READY, TB_CELLS_RVALID and TB_CELLS_RDATA defined as the control port's ready, read
// word's valid and read word): the registers that drive a stage's register and counter layout
// (cfg_reg_*, cfg_cnt_*) and its control port (c_*), and the tasks that read a layout block
// (gen_stage_vectors' header gives it) and write its cells through the port, and that read a
// cell back and compare it.

reg [XA*NREGS-1:0] reg_base = 0;
reg [(XA+1)*NREGS-1:0] reg_size = 0;
reg [7*NREGS-1:0] reg_width = 0;
reg [XA*NCOUNTERS-1:0] cnt_base = 0;
reg [(XA+1)*NCOUNTERS-1:0] cnt_size = 0;
reg [2*NCOUNTERS-1:0] cnt_kind = 0;
reg c_valid = 1'b0, c_write = 1'b0;
reg [XA-1:0] c_addr = 0;
reg [63:0] c_wdata = 0;
integer cell_n;		// ("cell" is a Verilog keyword)

// one word through the control port: held until the port takes it at a rising edge
task cell_request(input write, input [XA-1:0] addr, input [63:0] data);
	begin
		@(negedge clk);
		c_valid = 1'b1;
		c_write = write;
		c_addr = addr;
		c_wdata = data;
		while (!`TB_CELLS_READY)
			@(negedge clk);
		@(negedge clk);
		c_valid = 1'b0;
	end
endtask

// a cell read through the port: its word must be want (what says when, in the message)
task cell_check(input [XA-1:0] addr, input [63:0] want, input [8*24-1:0] what);
	begin
		cell_request(1'b0, addr, 64'd0);
		while (!`TB_CELLS_RVALID)
			@(negedge clk);
		if (`TB_CELLS_RDATA !== want) begin
			errors = errors + 1;
			if (errors <= 10)
				$display("%0t: section %0d: %0s cell %0d is %h, want %h", $time, s, what,
					addr, `TB_CELLS_RDATA, want);
		end
	end
endtask

// the layout block, then the cells before, written through the port
task read_cells;
	begin
		read_v(3);
		if (v[0] != 1 << XA || v[1] != NREGS || v[2] != NCOUNTERS) begin
			$display("FAILED %s: the vectors' cells are %0d, %0d registers and %0d counters, not %0d, %0d and %0d",
				`TB_NAME, v[0], v[1], v[2], 1 << XA, NREGS, NCOUNTERS);
			$finish;
		end
		for (cell_n = 0; cell_n < NREGS; cell_n = cell_n + 1) begin
			read_v(3);
			reg_base[XA * cell_n +: XA] = v[0][XA-1:0];
			reg_size[(XA + 1) * cell_n +: XA + 1] = v[1][XA:0];
			reg_width[7 * cell_n +: 7] = v[2][6:0];
		end
		for (cell_n = 0; cell_n < NCOUNTERS; cell_n = cell_n + 1) begin
			read_v(3);
			cnt_base[XA * cell_n +: XA] = v[0][XA-1:0];
			cnt_size[(XA + 1) * cell_n +: XA + 1] = v[1][XA:0];
			cnt_kind[2 * cell_n +: 2] = v[2][1:0];
		end
		for (cell_n = 0; cell_n < 1 << XA; cell_n = cell_n + 1) begin
			read1;
			cell_request(1'b1, cell_n[XA-1:0], x);
		end
	end
endtask

// every cell read back: the model's after the section (what says when, in the message)
task check_cells(input [8*24-1:0] what);
	for (cell_n = 0; cell_n < 1 << XA; cell_n = cell_n + 1) begin
		read1;
		cell_check(cell_n[XA-1:0], x, what);
	end
endtask
