// SPDX-License-Identifier: Apache-2.0
// pisa_alu: the 64-bit ALU of parser states, actions and gateways, bit-exact with pisa-model
// (model/model_exec.c, docs/architecture.md "Instructions") for the opcodes NOP .. MAX.
//
// Purely combinational: result and carry_out follow the inputs in the same cycle (no clock,
// no valid). MUL is a combinational 64x64 -> low 64 bits multiplier; it is most of the area
// on an iCE40 without DSPs (a multi-cycle MUL is not done yet).
//
// Inputs
//   op          enum pisa_opcode (NOP=0 .. MAX=22); any other value acts as NOP
//   sgn         PISA_INSN_SIGNED
//   a, a_width  operand a and its width (1..64); bits of a above a_width are ignored
//   b, b_width  operand b, likewise
//   dst_width   destination width (1..64)
//   carry_in    the instruction list's carry flag (0 at the start of every list)
// Semantics, as the model: a and b are zero-extended to 64 bits (sign-extended from their own
// width when sgn), the operation is done in 64 bits, the result is truncated to dst_width.
//   ADD/ADDC: carry_out = carry out of bit dst_width of (a mod 2^w) + (b mod 2^w) + cin
//             (cin = carry_in for ADDC, 0 for ADD)
//   SUB/SUBC: carry_out = borrow of (a mod 2^w) - (b mod 2^w) - bin
//   ADDSAT/SUBSAT: exact sum/difference clamped to [0, 2^w-1] or [-2^(w-1), 2^(w-1)-1]
//   SHL/SHR: b >= dst_width gives 0 (all sign bits of a for a signed SHR); SHR is arithmetic
//            on the 64-bit extended a when sgn
//   EQ..GE: 0 or 1; LT..GE, MIN, MAX compare the extended values as int64 when sgn
// Outputs
//   result      the value written to dst, zero above dst_width (0 for NOP)
//   write       1 when the instruction writes dst (SET .. MAX), 0 for NOP
//   carry_out   the new carry flag: carry_in except after ADD, SUB, ADDC, SUBC
`default_nettype none

module pisa_alu (
	input  wire [7:0]  op,
	input  wire        sgn,
	input  wire [63:0] a,
	input  wire [6:0]  a_width,
	input  wire [63:0] b,
	input  wire [6:0]  b_width,
	input  wire [6:0]  dst_width,
	input  wire        carry_in,
	output reg  [63:0] result,
	output wire        write,
	output reg         carry_out
);

localparam [7:0] OP_NOP = 8'd0, OP_SET = 8'd1, OP_ADD = 8'd2, OP_SUB = 8'd3, OP_ADDC = 8'd4,
	OP_SUBC = 8'd5, OP_ADDSAT = 8'd6, OP_SUBSAT = 8'd7, OP_MUL = 8'd8, OP_AND = 8'd9,
	OP_OR = 8'd10, OP_XOR = 8'd11, OP_NOT = 8'd12, OP_SHL = 8'd13, OP_SHR = 8'd14,
	OP_EQ = 8'd15, OP_NE = 8'd16, OP_LT = 8'd17, OP_LE = 8'd18, OP_GT = 8'd19, OP_GE = 8'd20,
	OP_MIN = 8'd21, OP_MAX = 8'd22;

localparam [63:0] ONES64 = {64{1'b1}};
localparam [65:0] ONES66 = {66{1'b1}};

assign write = op != OP_NOP && op <= OP_MAX;

// ---- operands: masked to their width, extended to 64 bits ----
wire [63:0] a_mask = ~(ONES64 << a_width);
wire [63:0] b_mask = ~(ONES64 << b_width);
wire [63:0] mk = ~(ONES64 << dst_width);	// destination mask
wire [5:0] a_msb = a_width[5:0] - 6'd1;	// width 64 -> 63
wire [5:0] b_msb = b_width[5:0] - 6'd1;
wire [63:0] ax = (a & a_mask) | ((sgn & a[a_msb]) ? ~a_mask : 64'd0);
wire [63:0] bx = (b & b_mask) | ((sgn & b[b_msb]) ? ~b_mask : 64'd0);

// ---- add / subtract with carry or borrow out of bit dst_width ----
wire cin = (op == OP_ADDC || op == OP_SUBC) ? carry_in : 1'b0;
wire [64:0] sum65 = {1'b0, ax & mk} + {1'b0, bx & mk} + {64'd0, cin};
wire [64:0] dif65 = {1'b0, ax & mk} - {1'b0, bx & mk} - {64'd0, cin};

// ---- saturating add / subtract: exact in 66 bits, then clamped ----
wire [65:0] ea = {{2{sgn & ax[63]}}, ax};
wire [65:0] eb = {{2{sgn & bx[63]}}, bx};
wire [65:0] s66 = op == OP_SUBSAT ? ea - eb : ea + eb;
wire [65:0] hi_w = ONES66 << dst_width;			// bits at and above w
wire [65:0] hi_w1 = ONES66 << (dst_width - 7'd1);	// bits at and above w - 1
wire u_over = |(s66 & hi_w);
wire s_fits = ~|(s66 & hi_w1) || &(s66 | ~hi_w1);
reg [63:0] sat;
always @(*) begin
	if (!sgn)
		sat = s66[65] ? 64'd0 : u_over ? mk : s66[63:0];
	else if (s_fits)
		sat = s66[63:0];
	else
		sat = s66[65] ? ~(mk >> 1) : (mk >> 1);	// lo = -2^(w-1), hi = 2^(w-1) - 1
end

// ---- shifts: a shift count of dst_width or more gives 0 (or the sign) ----
wire sh_big = bx >= {57'd0, dst_width};
wire [5:0] sh = bx[5:0];
wire [63:0] fill = {64{sgn & ax[63]}};
wire [63:0] shl = ax << sh;
wire [63:0] shr = (ax >> sh) | (fill << (7'd64 - {1'b0, sh}));

// ---- comparisons: signed by flipping the sign bits ----
wire [63:0] ca = {ax[63] ^ sgn, ax[62:0]};
wire [63:0] cb = {bx[63] ^ sgn, bx[62:0]};
wire eq = ax == bx;
wire lt = ca < cb;

// ---- result ----
reg [63:0] r;
always @(*) begin
	case (op)
	OP_SET: r = ax;
	OP_ADD, OP_ADDC: r = sum65[63:0];
	OP_SUB, OP_SUBC: r = dif65[63:0];
	OP_ADDSAT, OP_SUBSAT: r = sat;
	OP_MUL: r = ax * bx;
	OP_AND: r = ax & bx;
	OP_OR: r = ax | bx;
	OP_XOR: r = ax ^ bx;
	OP_NOT: r = ~ax;
	OP_SHL: r = sh_big ? 64'd0 : shl;
	OP_SHR: r = sh_big ? fill : shr;
	OP_EQ: r = {63'd0, eq};
	OP_NE: r = {63'd0, ~eq};
	OP_LT: r = {63'd0, lt};
	OP_LE: r = {63'd0, lt | eq};
	OP_GT: r = {63'd0, ~lt & ~eq};
	OP_GE: r = {63'd0, ~lt};
	OP_MIN: r = (lt | eq) ? ax : bx;
	OP_MAX: r = lt ? bx : ax;
	default: r = 64'd0;
	endcase
	result = r & mk;
	case (op)
	OP_ADD, OP_ADDC: carry_out = sum65[dst_width];
	OP_SUB, OP_SUBC: carry_out = dif65[dst_width];
	default: carry_out = carry_in;
	endcase
end

endmodule

`default_nettype wire
