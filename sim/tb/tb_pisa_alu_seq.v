// SPDX-License-Identifier: Apache-2.0
// tb_pisa_alu_seq: pisa_alu_seq against pisa-model and pisa_alu. Four phases, with random
// idle cycles between operations and garbage on the inputs while busy:
//   1. the vectors tests/alu/gen_alu_vectors wrote (ALU_DIR/alu_vectors.hex, the format of
//      tb_pisa_alu: one 256-bit vector per line, op 8'hFF ends the list);
//   2. OP_MODU and OP_MULSAT, random and edge cases (b = 0, 1, a < b, all ones, products just
//      below and above 2^64) against Verilog's own % and * on 64/128-bit values;
//   3. random operations with widths 0..64 (width 0 too, which the vectors never use)
//      against pisa_alu;
//   4. rst in the middle of an operation returns to idle; the next operation is right.
// It checks the handshake (busy from the cycle after start until done, done one cycle,
// outputs held until the next start) and records the worst cycle count per opcode
// (start cycle to done cycle), failing above MAX_CYCLES. Prints PASSED tb_pisa_alu_seq
// (N vectors, worst M cycles) or FAILED with the first mismatch.
`default_nettype none

`ifndef ALU_DIR
`define ALU_DIR "build/sim/alu"
`endif

module tb_pisa_alu_seq;

localparam MAX_CYCLES = 67;		// pisa_alu_seq's header: the worst case
localparam [7:0] OP_MODU = 8'd64, OP_MULSAT = 8'd65;
localparam RANDOM_OPS = 20000;		// phase 3
localparam EXTRA_OPS = 3000;		// phase 2

reg clk = 1'b0;
always #5 clk = !clk;

reg rst = 1'b1;
reg start = 1'b0;
reg [7:0] op = 8'd0;
reg sgn = 1'b0, cin = 1'b0;
reg [63:0] a = 64'd0, b = 64'd0;
reg [6:0] aw = 7'd0, bw = 7'd0, dw = 7'd0;
wire busy, done, write, carry_out;
wire [63:0] result;

pisa_alu_seq dut (
	.clk(clk), .rst(rst), .start(start), .op(op), .sgn(sgn), .a(a), .a_width(aw),
	.b(b), .b_width(bw), .dst_width(dw), .carry_in(cin), .busy(busy), .done(done),
	.result(result), .write(write), .carry_out(carry_out)
);

// the combinational reference for phase 3, fed from its own copy of the operation
reg [7:0] r_op;
reg r_sgn, r_cin;
reg [63:0] r_a, r_b;
reg [6:0] r_aw, r_bw, r_dw;
wire [63:0] ref_result;
wire ref_write, ref_carry;

pisa_alu ref_alu (
	.op(r_op), .sgn(r_sgn), .a(r_a), .a_width(r_aw), .b(r_b), .b_width(r_bw),
	.dst_width(r_dw), .carry_in(r_cin), .result(ref_result), .write(ref_write),
	.carry_out(ref_carry)
);

integer seed = 32'h5eed1234;
integer n = 0;			// operations checked
integer worst = 0;
integer worst_op [0:255];
integer fd, i, k, cycles;
reg failed = 1'b0;
reg [255:0] v;
reg eof;
reg [63:0] want_result;
reg want_write, want_carry;
reg [127:0] prod;
reg [8*24-1:0] phase;

function [63:0] rnd64;
	input dummy;
	begin
		rnd64 = {$random(seed), $random(seed)};
	end
endfunction

// an operand value for width w (0..64): edge values often, random bits above w
function [63:0] rvalue;
	input [6:0] w;
	reg [63:0] mk, val;
	begin
		mk = w >= 7'd64 ? {64{1'b1}} : ~({64{1'b1}} << w);
		case ($unsigned($random(seed)) % 8)
		0: val = 64'd0;
		1: val = 64'd1;
		2: val = mk;
		3: val = w == 7'd0 ? 64'd0 : 64'd1 << (w - 7'd1);
		4: val = mk >> 1;
		5: val = $unsigned($random(seed)) % 72;
		default: val = rnd64(0);
		endcase
		rvalue = (val & mk) | (rnd64(0) & ~mk);
	end
endfunction

function [6:0] rwidth;
	input dummy;
	begin
		case ($unsigned($random(seed)) % 4)
		0: rwidth = $unsigned($random(seed)) % 65;
		1: begin
			case ($unsigned($random(seed)) % 8)
			0: rwidth = 7'd0;
			1: rwidth = 7'd1;
			2: rwidth = 7'd7;
			3: rwidth = 7'd8;
			4: rwidth = 7'd31;
			5: rwidth = 7'd32;
			6: rwidth = 7'd63;
			default: rwidth = 7'd64;
			endcase
		end
		default: rwidth = 1 + $unsigned($random(seed)) % 64;
		endcase
	end
endfunction

task fail;
	input [8*200-1:0] why;
	begin
		if (!failed)
			$display("FAILED tb_pisa_alu_seq: %0s: %0s op %0d sgn %0d cin %0d a %h/%0d b %h/%0d dst %0d: got %h carry %b write %b, want %h carry %b write %b",
				phase, why, op, sgn, cin, a, aw, b, bw, dw, result, carry_out,
				write, want_result, want_carry, want_write);
		failed = 1'b1;
		$finish;
	end
endtask

// Run the operation on the inputs now set: random idle cycles, start, garbage on the inputs
// while busy, wait for done; check the handshake; leave the outputs for the caller.
reg [7:0] s_op;
reg s_sgn, s_cin;
reg [63:0] s_a, s_b;
reg [6:0] s_aw, s_bw, s_dw;
task run;
	begin
		k = $unsigned($random(seed)) % 4;
		repeat (k) @(posedge clk);
		if (busy)
			fail("busy while idle");
		s_op = op; s_sgn = sgn; s_cin = cin; s_a = a; s_b = b;
		s_aw = aw; s_bw = bw; s_dw = dw;
		start <= 1'b1;
		@(posedge clk);
		start <= 1'b0;
		// garbage while busy: the inputs are latched at start
		op <= $random(seed);
		sgn <= $random(seed);
		cin <= $random(seed);
		a <= rnd64(0);
		b <= rnd64(0);
		aw <= $random(seed);
		bw <= $random(seed);
		dw <= $random(seed);
		cycles = 1;
		#1;
		while (!done) begin
			if (!busy)
				fail("not busy and not done after start");
			if (cycles > 200)
				fail("no done");
			@(posedge clk);
			#1;
			cycles = cycles + 1;
		end
		if (busy)
			fail("busy with done");
		op = s_op; sgn = s_sgn; cin = s_cin; a = s_a; b = s_b;
		aw = s_aw; bw = s_bw; dw = s_dw;
		if (cycles > worst_op[op])
			worst_op[op] = cycles;
		if (cycles > worst)
			worst = cycles;
		if (cycles > MAX_CYCLES)
			fail("too many cycles");
	end
endtask

// Compare the outputs, then (sometimes) wait and compare again: they hold until the next
// start; done is a single pulse.
task check;
	begin
		if (result !== want_result || carry_out !== want_carry || write !== want_write)
			fail("mismatch");
		if ($unsigned($random(seed)) % 4 == 0) begin
			@(posedge clk);
			#1;
			if (done)
				fail("done longer than one cycle");
			repeat ($unsigned($random(seed)) % 3) @(posedge clk);
			#1;
			if (result !== want_result || carry_out !== want_carry ||
					write !== want_write)
				fail("outputs changed before the next start");
		end
		n = n + 1;
		@(negedge clk);
	end
endtask

initial begin
	for (i = 0; i < 256; i = i + 1)
		worst_op[i] = 0;
	repeat (3) @(posedge clk);
	rst <= 1'b0;
	@(negedge clk);

	// ---- 1. the model's vectors ----
	phase = "vectors";
	fd = $fopen({`ALU_DIR, "/alu_vectors.hex"}, "r");
	if (fd == 0) begin
		$display("FAILED tb_pisa_alu_seq: cannot open %s", {`ALU_DIR, "/alu_vectors.hex"});
		$finish;
	end
	eof = 1'b0;
	i = 0;
	while (!eof) begin
		if ($fscanf(fd, "%h\n", v) != 1 || v[255:248] == 8'hFF) begin
			eof = 1'b1;
		end else begin
			op = v[255:248];
			sgn = v[240];
			cin = v[241];
			aw = v[238:232];
			bw = v[230:224];
			dw = v[222:216];
			a = v[191:128];
			b = v[127:64];
			want_result = v[63:0];
			want_carry = v[208];
			want_write = v[200];
			run;
			check;
			i = i + 1;
		end
	end
	$fclose(fd);
	if (i == 0) begin
		$display("FAILED tb_pisa_alu_seq: no vectors read from %s", {`ALU_DIR, "/alu_vectors.hex"});
		$finish;
	end

	// ---- 2. OP_MODU and OP_MULSAT against % and * ----
	phase = "MODU/MULSAT";
	for (i = 0; i < EXTRA_OPS; i = i + 1) begin
		op = (i % 2) ? OP_MULSAT : OP_MODU;
		sgn = $random(seed);
		cin = $random(seed);
		aw = $random(seed);
		bw = $random(seed);
		dw = $random(seed);
		a = rnd64(0);
		b = rnd64(0);
		case (i / 2 % 16)
		0: b = 64'd0;
		1: b = 64'd1;
		2: a = {64{1'b1}};
		3: b = {64{1'b1}};
		4: begin a = {64{1'b1}}; b = {64{1'b1}}; end
		5: a = a >> ($unsigned($random(seed)) % 64);		// often a < b
		6: b = b >> ($unsigned($random(seed)) % 64);
		7: begin
			// products near 2^64: a * b = 2^64 - 1 - small or 2^64 + small
			a = 64'd1 << ($unsigned($random(seed)) % 64);
			b = (a == 64'd1) ? {64{1'b1}} : ({64{1'b1}} / a) + ($random(seed) % 2);
		end
		8: begin
			a = 64'h0000_0001_0000_0000;
			b = 64'h0000_0000_ffff_ffff + ($unsigned($random(seed)) % 3);
		end
		9: begin
			a = 64'h0000_0000_ffff_ffff;
			b = 64'h0000_0001_0000_0001 + ($unsigned($random(seed)) % 3) - 1;
		end
		10: begin
			a = $unsigned($random(seed)) % 1000;
			b = $unsigned($random(seed)) % 1000;
		end
		default: ;
		endcase
		if (op == OP_MODU)
			want_result = (b == 64'd0) ? a : a % b;
		else begin
			prod = {64'd0, a} * {64'd0, b};
			want_result = (prod[127:64] != 64'd0) ? {64{1'b1}} : prod[63:0];
		end
		want_write = 1'b1;
		want_carry = cin;
		run;
		check;
	end

	// ---- 3. random operations, widths 0 .. 64, against pisa_alu ----
	phase = "random vs pisa_alu";
	for (i = 0; i < RANDOM_OPS; i = i + 1) begin
		case ($unsigned($random(seed)) % 16)
		0: begin
			op = $random(seed);		// mostly unknown opcodes: NOP
			if (op == OP_MODU || op == OP_MULSAT)
				op = 8'd66;
		end
		default: op = $unsigned($random(seed)) % 23;
		endcase
		sgn = $random(seed);
		cin = $random(seed);
		aw = rwidth(0);
		bw = rwidth(0);
		dw = rwidth(0);
		a = rvalue(aw);
		b = rvalue(bw);
		if ((op == 8'd13 || op == 8'd14) && $random(seed) % 2)
			b = ($unsigned($random(seed)) % 72) | (rnd64(0) & ({64{1'b1}} << bw));
		r_op = op; r_sgn = sgn; r_cin = cin; r_a = a; r_b = b;
		r_aw = aw; r_bw = bw; r_dw = dw;
		#1;
		want_result = ref_result;
		want_write = ref_write;
		want_carry = ref_carry;
		run;
		check;
	end

	// ---- 4. rst while busy ----
	phase = "rst";
	for (i = 0; i < 20; i = i + 1) begin
		op = (i % 3 == 0) ? OP_MODU : (i % 3 == 1) ? 8'd8 : 8'd17;
		sgn = 1'b0; cin = 1'b0; aw = 7'd64; bw = 7'd64; dw = 7'd64;
		a = rnd64(0); b = rnd64(0);
		start <= 1'b1;
		@(posedge clk);
		start <= 1'b0;
		repeat (1 + i % 5) @(posedge clk);
		rst <= 1'b1;
		@(posedge clk);
		rst <= 1'b0;
		#1;
		if (busy || done)
			fail("busy or done after rst");
		@(negedge clk);
		op = 8'd2; sgn = $random(seed); cin = $random(seed);
		aw = rwidth(0); bw = rwidth(0); dw = rwidth(0);
		a = rvalue(aw); b = rvalue(bw);
		r_op = op; r_sgn = sgn; r_cin = cin; r_a = a; r_b = b;
		r_aw = aw; r_bw = bw; r_dw = dw;
		#1;
		want_result = ref_result;
		want_write = ref_write;
		want_carry = ref_carry;
		run;
		check;
	end

	// worst cycles per opcode: NOP .. MAX, OP_MODU, OP_MULSAT, then the other opcodes
	k = 0;
	for (i = 0; i < 256; i = i + 1)
		if ((i > 22 && i != OP_MODU && i != OP_MULSAT) && worst_op[i] > k)
			k = worst_op[i];
	$display("tb_pisa_alu_seq: worst cycles by op: %0d %0d %0d %0d %0d %0d %0d %0d %0d %0d %0d %0d %0d %0d %0d %0d %0d %0d %0d %0d %0d %0d %0d, MODU %0d, MULSAT %0d, others %0d",
		worst_op[0], worst_op[1], worst_op[2], worst_op[3], worst_op[4], worst_op[5],
		worst_op[6], worst_op[7], worst_op[8], worst_op[9], worst_op[10], worst_op[11],
		worst_op[12], worst_op[13], worst_op[14], worst_op[15], worst_op[16], worst_op[17],
		worst_op[18], worst_op[19], worst_op[20], worst_op[21], worst_op[22],
		worst_op[OP_MODU], worst_op[OP_MULSAT], k);
	$display("PASSED tb_pisa_alu_seq (%0d vectors, worst %0d cycles)", n, worst);
	$finish;
end

endmodule

`default_nettype wire
