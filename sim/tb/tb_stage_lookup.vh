// SPDX-License-Identifier: Apache-2.0
// Shared by the lookup units' testbenches, tb_pisa_exact_match and tb_pisa_ternary_match
// (included inside the module after it declares clk, seed, idle_ok, the s_key_* and m_valid,
// m_ready signals, q_in and q_out (results queued and checked), MAX_OPS and NF (hex fields an
// op), and defines TB_VECTORS as the vector file and TB_RESULT as the concatenation of the
// DUT's m_* result fields): the vectors read into f (NF fields an op, nops ops, up to the op
// whose first field is 0), tb_stage_check.vh (fail, the held-result check, drain) and the key
// source.

reg [63:0] f [0:MAX_OPS*NF-1];
integer nops, fd, r, i;
reg [63:0] field;
initial begin
	fd = $fopen(`TB_VECTORS, "r");
	if (fd == 0) begin
		$display("FAILED %s: cannot open %s", `TB_NAME, `TB_VECTORS);
		$finish;
	end
	nops = 0;
	r = NF;
	while (r == NF && nops < MAX_OPS) begin
		for (i = 0; i < NF; i = i + 1) begin
			r = $fscanf(fd, "%h", field);
			f[nops * NF + i] = r == 1 ? field : 64'd0;
		end
		r = NF;
		if (f[nops * NF] == 64'd0)
			r = 0;		// the end
		else
			nops = nops + 1;
	end
	$fclose(fd);
end

`include "tb_stage_check.vh"

// one beat of the source: maybe idle first (while idle_ok), then valid until taken
task idle;
	begin
		while (idle_ok && ($random(seed) & 3) == 0)
			@(posedge clk);
	end
endtask

task send_byte(input [7:0] b, input last);
	begin
		idle;
		s_key_data <= b;
		s_key_last <= last;
		s_key_valid <= 1'b1;
		@(posedge clk);
		while (!s_key_ready)
			@(posedge clk);
		s_key_valid <= 1'b0;
	end
endtask
