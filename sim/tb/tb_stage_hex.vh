// SPDX-License-Identifier: Apache-2.0
// Shared by the testbenches that read a generator's vectors as hex numbers separated by white
// space (tb_pisa_stage, tb_pisa_stage_externs; included inside the module, with TB_NAME and
// TB_VECTORS, the file's name, defined): the file (fd, opened by the testbench), the number
// just read (x) and read1 and read_v, which end the run with FAILED when the file ends early.

integer fd, r, i;
reg [63:0] x;
reg [63:0] v [0:15];

task read1;	// the next number of the file into x
	begin
		r = $fscanf(fd, "%h", x);
		if (r != 1) begin
			$display("FAILED %s: %s ends early or is not hex", `TB_NAME, `TB_VECTORS);
			$finish;
		end
	end
endtask

task read_v(input integer count);	// the next count numbers (16 at most) into v[0 ..]
	begin
		for (i = 0; i < count; i = i + 1) begin
			read1;
			v[i] = x;
		end
	end
endtask
