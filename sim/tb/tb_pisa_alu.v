// SPDX-License-Identifier: Apache-2.0
// tb_pisa_alu: pisa_alu against pisa-model. Reads the vectors tests/alu/gen_alu_vectors wrote
// (ALU_DIR/alu_vectors.hex, one 256-bit vector per line in hex, an op of 8'hFF ends the list),
// applies each to the combinational ALU and compares result, write and carry_out with the
// model's. Prints PASSED tb_pisa_alu (N vectors) or FAILED at the first mismatch.
`default_nettype none

`ifndef ALU_DIR
`define ALU_DIR "build/sim/alu"
`endif

module tb_pisa_alu;
reg [7:0] op;
reg sgn, cin;
reg [63:0] a, b;
reg [6:0] aw, bw, dw;
wire [63:0] result;
wire write, carry_out;

pisa_alu dut (
	.op(op), .sgn(sgn), .a(a), .a_width(aw), .b(b), .b_width(bw), .dst_width(dw),
	.carry_in(cin), .result(result), .write(write), .carry_out(carry_out)
);

integer fd, i, n;
reg [255:0] v;
reg done;

initial begin
	n = 0;
	done = 1'b0;
	fd = $fopen({`ALU_DIR, "/alu_vectors.hex"}, "r");
	if (fd == 0) begin
		$display("FAILED tb_pisa_alu: cannot open %s", {`ALU_DIR, "/alu_vectors.hex"});
		$finish;
	end
	for (i = 0; !done; i = i + 1) begin
		if ($fscanf(fd, "%h\n", v) != 1 || v[255:248] == 8'hFF) begin
			done = 1'b1;
		end else begin
			op = v[255:248];
			sgn = v[240];
			cin = v[241];
			aw = v[238:232];
			bw = v[230:224];
			dw = v[222:216];
			a = v[191:128];
			b = v[127:64];
			#1;
			if (result !== v[63:0] || carry_out !== v[208] || write !== v[200]) begin
				$display("FAILED tb_pisa_alu: vector %0d op %0d sgn %0d cin %0d a %h/%0d b %h/%0d dst %0d: got %h carry %b write %b, want %h carry %b write %b",
					i, op, sgn, cin, a, aw, b, bw, dw, result, carry_out, write,
					v[63:0], v[208], v[200]);
				$finish;
			end
			n = n + 1;
		end
	end
	$fclose(fd);
	if (n == 0)
		$display("FAILED tb_pisa_alu: no vectors read from %s", {`ALU_DIR, "/alu_vectors.hex"});
	else
		$display("PASSED tb_pisa_alu (%0d vectors)", n);
	$finish;
end

endmodule

`default_nettype wire
