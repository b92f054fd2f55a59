// SPDX-License-Identifier: Apache-2.0
// pisa_alu_seq: a small multi-cycle version of pisa_alu (the same results for NOP .. MAX), plus
// the unsigned remainder and saturating product the core needs for HASH/RANDOM and the meters.
//
// Semantics are pisa_alu's (read its header and docs/architecture.md "Instructions"): a and b
// are extended from their own width (sign-extended when sgn), the operation is done in 64 bits,
// the result is truncated to dst_width; carry_out is carry_in except after ADD/SUB/ADDC/SUBC.
// Widths 0 .. 64 give pisa_alu's results, width 0 included; wider widths are not supported.
// Two more opcodes, outside enum pisa_opcode (any other opcode acts as NOP):
//   OP_MODU   (64)  result = a % b as unsigned 64-bit numbers, widths ignored, b == 0 gives a
//   OP_MULSAT (65)  result = a * b as unsigned 64-bit numbers, widths ignored, 2^64 - 1 when
//                   the product does not fit in 64 bits
//   both: write = 1, carry_out = carry_in.
//
// Handshake: start (one cycle, only while !busy) latches every input. busy is high from the
// next cycle until done; done pulses for one cycle, and result, write and carry_out hold from
// then until the next start, which may come in the done cycle. rst returns to idle at any time
// (the outputs are then undefined until the next done).
//
// Cycles from start to done (start in cycle 0, done in cycle N):
//   NOP, unknown opcodes, and NOP .. MAX with dst_width 0         1
//   SET                                                           2; 3 when a is narrower than dst
//   NOT                                                           3
//   ADD, SUB, ADDC, SUBC, AND, OR, XOR                            4; +1 when b is narrower than
//                                                                 dst; +1 when a is, and its sign
//                                                                 is not the fill the op needs
//   EQ, NE, LT, LE, GT, GE, MIN, MAX                              6
//   ADDSAT, SUBSAT                                                8 in range; 9 .. 11 clamped
//   MUL                                                           2 + min(dst_width, 64)
//   SHL by k                                                      4 + k (k >= 1); 5 for k = 0 or
//                                                                 k >= dst_width
//   SHR by k                                                      68 - k (k >= 1); 6 for k = 0;
//                                                                 5 for k >= dst_width
//   OP_MODU, OP_MULSAT                                            66
// The worst case is 67 (SHL by 63, SHR by 1); 66 for MUL of 64 bits, OP_MODU and OP_MULSAT.
//
// Datapath: one 64-bit adder, the only carry chain (nothing chains into it in the same cycle),
// and three registers: a_reg (a as latched), b_reg (b, then an extended operand), result.
//   X = 0 | result | result << 1 (a fetched bit shifted in) | ~result
//   G = 0 | a_reg | b_reg | ~b_reg
//   S = X + G + carry in (X ^ G for XOR), and result <= m ? S : fill per bit, where m is the
//   thermometer mask of a width (ones below it) or b_reg itself (AND, OR)
// Extending an operand is one pass (G = the operand, fill = its sign bit from a 64:1 mux);
// masked to dst_width with the bits above set to 1 where the add's carry must run through
// them, ADD .. SUBC take their carry from the adder's carry out. MUL, SHR, OP_MODU and
// OP_MULSAT walk a's bits from the top with the bit fetched a cycle ahead (Horner: result =
// 2 * result + bit * b); OP_MODU is a non-restoring divider with the remainder's 65th bit in
// the adder's bit 64. SHL shifts result left once per cycle. Compares subtract both ways; the
// saturating ops compare the sum with itself extended from the destination's width.
// Every control that selects per-bit logic (X, G, the mask, the fill mode) comes straight
// from a register, set with the state: computed combinationally, yosys duplicates it into
// every bit. (The mask's width goes through a small mux from ws_reg into its per-byte terms.)
`default_nettype none

module pisa_alu_seq (
	input  wire        clk,
	input  wire        rst,
	input  wire        start,
	input  wire [7:0]  op,
	input  wire        sgn,
	input  wire [63:0] a,
	input  wire [6:0]  a_width,
	input  wire [63:0] b,
	input  wire [6:0]  b_width,
	input  wire [6:0]  dst_width,
	input  wire        carry_in,
	output wire        busy,
	output reg         done,
	output reg  [63:0] result,
	output reg         write,
	output reg         carry_out
);

localparam [7:0] OP_NOP = 8'd0, OP_SET = 8'd1, OP_ADD = 8'd2, OP_SUB = 8'd3, OP_ADDC = 8'd4,
	OP_SUBC = 8'd5, OP_ADDSAT = 8'd6, OP_SUBSAT = 8'd7, OP_MUL = 8'd8, OP_AND = 8'd9,
	OP_OR = 8'd10, OP_XOR = 8'd11, OP_NOT = 8'd12, OP_SHL = 8'd13, OP_SHR = 8'd14,
	OP_EQ = 8'd15, OP_NE = 8'd16, OP_LT = 8'd17, OP_LE = 8'd18, OP_GT = 8'd19, OP_GE = 8'd20,
	OP_MIN = 8'd21, OP_MAX = 8'd22;
localparam [7:0] OP_MODU = 8'd64, OP_MULSAT = 8'd65;

// States: each names the pass the datapath does in that cycle.
localparam [4:0] S_IDLE = 5'd0, S_EXTB = 5'd1, S_BANDB = 5'd2, S_EXTA = 5'd3, S_BANDA = 5'd4,
	S_FIN = 5'd5, S_CMP1 = 5'd6, S_CMP2 = 5'd7, S_SAT1 = 5'd8, S_FITS = 5'd9, S_FITS2 = 5'd10,
	S_FITS3 = 5'd11, S_CLR = 5'd12, S_CLAMP = 5'd13, S_SATMIN = 5'd14, S_MUL1 = 5'd15,
	S_SCAN = 5'd16, S_SHPREP = 5'd17, S_FIX = 5'd18, S_CMP1B = 5'd19,
	S_MM2 = 5'd20, S_FITS4 = 5'd21, S_SHWAIT = 5'd22;

// X and G, the adder's operands
localparam [1:0] X_ZERO = 2'd0, X_R = 2'd1, X_SHL = 2'd2, X_NR = 2'd3;
localparam [1:0] G_ZERO = 2'd0, G_A = 2'd1, G_B = 2'd2, G_NB = 2'd3;
// the fill bit's source (result = S | ~m when set)
localparam [1:0] F_NONE = 2'd0, F_SA = 2'd1, F_SB = 2'd2, F_SHR = 2'd3;
// the mask's width
localparam [2:0] W_DW = 3'd0, W_WA = 3'd1, W_WB = 3'd2, W_DWM1 = 3'd3, W_64 = 3'd4,
	W_0 = 3'd5;

// ---- sequencing (reset: state and done only) ----
reg [4:0] state_reg = S_IDLE, state_next;
reg done_next;

// ---- the operation, latched at start ----
reg [63:0] a_reg, b_reg;
reg [6:0] aw_reg, dw_reg, dwm1_reg;
reg [5:0] bw_reg;			// b_width mod 64: the sign bit index
reg [6:0] wa_reg, wb_reg;		// a's and b's mask widths in S_EXTA and S_EXTB
reg sgn_reg;
// a and b extended for ADD .. SUBC, AND, OR, XOR (and a for SET) are masked to dst_width
// with the bits above set to *_above: 1 for a of ADD .. SUBC and b of SUB/SUBC (the carry
// then is the adder's), and for OR's b, which is complemented (OR = a | ~(~b), a mask).
// *_fix: the operand is not narrower than the destination: one pass, width dst_width,
// fill *_above; else (*_band) the operand's width and sign, then a pass that sets the bits
// from dst_width up (S_BANDB always, S_BANDA when a's sign is not a_above, SET: always).
// A band pass that is not needed leaves result as it is.
reg a_fix, a_band, a_above, b_band, b_above, b_inv;
reg c_set, c_addsub, c_sub, c_sat, c_mul, c_shl, c_shr, c_cmp, c_minmax, c_max, c_modu,
	c_mulsat;
reg [2:0] c_cmpop;			// EQ .. GE as 0 .. 5
// the controls of S_FIN, by op
reg [1:0] fin_x, fin_g;
reg fin_xm, fin_or, fin_bm, fin_ci;

// ---- per-operation state ----
reg [6:0] pos_reg, pos_next;		// 1 + the position of a's bit to fetch next
reg [6:0] stop_reg, stop_next;		// pos_reg in the last step of S_MUL1 / S_SCAN
// pos_reg == stop_reg, registered with them: compared in the step that branches on it, it
// began the ALU's longest path (the compare, done_next, the next state, every next control)
reg last_reg;
reg sign_a_reg;				// a's sign bit, from S_EXTB (for S_EXTA's branch)
reg pos_in_a;				// pos_reg <= a_width or MODU/MULSAT: a's own bit
reg bit_reg, bit_next;			// the fetched bit, for the next step
reg r64_reg, r64_next;			// MODU: sign of the partial remainder
reg ovf_reg, ovf_next;			// MULSAT: the product does not fit
reg lt_reg, lt_next;			// compares: a < b
reg gt_reg, gt_next;			// compares: a > b
reg clamp_reg, clamp_next;		// SAT: the sum overflowed 64 bits: clamp
reg neg_reg, neg_next;			// SAT: negative (clamp to the minimum, or 0 unsigned)

// ---- datapath controls of the current cycle, registered with the state (not re-encoded
// one-hot: that would double the per-bit logic they select) ----
(* fsm_encoding = "none" *) reg [1:0] x_reg, g_reg;
reg [1:0] x_next, g_next;
reg xm_reg, xm_next;			// S = X ^ G (XOR, S_FITS2; it shares the adder's LUTs)
reg or_reg, or_next;			// fill 1: result = S | ~m (else S & m)
reg bm_reg, bm_next;			// m = b_reg (else ones below w)
// The mask's width is chosen in the cycle that uses it, by a register that says where it comes
// from: chosen with the next state, it ended the ALU's longest path.
reg [2:0] ws_reg, ws_next;
reg [6:0] w;
// The fill bit's source, and whether the Horner walk fetches a's next bit (S_MUL1, S_SCAN, and
// S_EXTB of MUL and SHR; a's bit mux then takes the walk's position): decoded from the state,
// they began the ALU's longest path (the state, a's 64:1 mux, the fill bit, every bit of
// result).
reg [1:0] fs_reg, fs_next;
reg fetch_reg, fetch_next;
// controls that select no per-bit logic; rce, bld, clr from the current state
reg rce, bld, clr;			// write result, load b_reg from result, clear result
reg feed_reg, feed_next;		// the bit result << 1 shifts in
reg ci_reg, ci_next;			// the adder's carry in
reg cmp_reg;				// the compare's result bit
// Flags of result, registered a clock before the state that branches on them: from result
// through the next state into every next control was the ALU's longest path.
reg zr_reg;				// result is 0 (S_FITS4: the sum fits)
reg sh_big_reg, sh_kz_reg;		// S_SHPREP: b >= dst_width; b mod 64 is 0

// ---- opcode classes at start ----
wire d_modu = op == OP_MODU;
wire d_mulsat = op == OP_MULSAT;
wire d_alu = op != OP_NOP && op <= OP_MAX;
wire d_set = op == OP_SET;
wire d_addsub = op >= OP_ADD && op <= OP_SUBC;
wire d_sub = op == OP_SUB || op == OP_SUBC || op == OP_SUBSAT;
wire d_withc = op == OP_ADDC || op == OP_SUBC;
wire d_and = op == OP_AND, d_or = op == OP_OR, d_xor = op == OP_XOR;
wire d_forced = d_addsub || d_and || d_or || d_xor;
wire d_a_fix = (d_set || d_forced) && a_width >= dst_width;
wire d_b_fix = d_forced && b_width >= dst_width;
wire d_b_above = (d_addsub && d_sub) || d_or;

// the pass a start goes to, unless it is done at once
wire [4:0] start_state = d_modu || d_mulsat ? S_SCAN : d_set || op == OP_NOT ? S_EXTA : S_EXTB;

assign busy = state_reg != S_IDLE;

wire start_ok = start && state_reg == S_IDLE;

// ---- datapath ----
wire fill;
wire r_or = or_reg || fill;

reg [63:0] g_v, x_v, m;
reg [7:0] m_gt, m_eq, m_lt;
reg [3:0] hh;
integer i;
always @* begin
	case (g_reg)
	G_ZERO: g_v = 64'd0;
	G_A: g_v = a_reg;
	G_B: g_v = b_reg;
	default: g_v = ~b_reg;
	endcase
	case (x_reg)
	X_ZERO: x_v = 64'd0;
	X_R: x_v = result;
	X_SHL: x_v = {result[62:0], feed_reg};
	default: x_v = ~result;
	endcase
	case (ws_reg)
	W_WA: w = wa_reg;
	W_WB: w = wb_reg;
	W_DWM1: w = dwm1_reg;
	W_64: w = 7'd64;
	W_0: w = 7'd0;
	default: w = dw_reg;
	endcase
	// m, ones below w, in two levels: per byte H, m_gt (all ones) and m_eq (holds
	// the boundary); per bit L of a byte, m_lt (one in the boundary byte); both m_gt
	// and m_eq: b_reg
	for (hh = 4'd0; hh < 4'd8; hh = hh + 4'd1) begin
		m_gt[hh[2:0]] = bm_reg || w[6:3] > hh;
		m_eq[hh[2:0]] = bm_reg || w[6:3] == hh;
		m_lt[hh[2:0]] = w[2:0] > hh[2:0];
	end
	for (i = 0; i < 64; i = i + 1) begin
		if (m_gt[i / 8] && m_eq[i / 8])
			m[i] = b_reg[i];
		else
			m[i] = m_gt[i / 8] || (m_eq[i / 8] && m_lt[i % 8]);
	end
end

// Bit 64: MODU's 65-bit partial remainder (result << 1 -/+ b: bit 64 is result[63] ^ 1 - b's
// sign, the new r64_reg); else 0 + 0: cout, the carry out of bit 63. Computed in the carry
// chain's last LUT, so that the next step's controls are one LUT behind the chain.
wire x64 = c_modu && result[63];
wire g64 = c_modu && g_reg == G_NB;
wire [64:0] sum = {x64, x_v} + {g64, g_v} + {64'd0, ci_reg};
wire cout = sum[64];
wire [63:0] s = xm_reg ? x_v ^ g_v : sum[63:0];
wire [63:0] r_d = r_or ? s | ~m : s & m;

wire r_hi = |result[63:7];
wire zr = !r_hi && result[6:0] == 7'd0;

// a's bits for the Horner walk and a's sign bit share one mux; b's sign bit has its own.
// The muxes index a and b rotated left by one: bit w of {x[62:0], x[63]} is x's sign bit
// for width w (width 0 -> bit 63, as pisa_alu), bit pos_reg is a's bit pos_reg - 1.
wire [5:0] idx_a = (fetch_reg && pos_in_a) ? pos_reg[5:0] : aw_reg[5:0];
wire [63:0] a_rot = {a_reg[62:0], a_reg[63]};
wire [63:0] b_rot = {b_reg[62:0], b_reg[63]};
wire mux_a = a_rot[idx_a];
wire sign_a = sgn_reg && mux_a;
wire sign_b = sgn_reg && b_rot[bw_reg];
wire fill_b = sign_b ^ b_inv;		// of b, complemented for OR
wire bit_a = pos_in_a ? mux_a : sign_a;	// bit pos_reg of a as extended

assign fill = fs_reg == F_SA ? sign_a : fs_reg == F_SB ? fill_b :
	fs_reg == F_SHR && sgn_reg && bit_reg;	// F_SHR: bit 63 of a extended

// ---- shifts: b as extended is in result during S_SHPREP ----
wire sh_big = r_hi || result[6:0] >= dw_reg;	// b >= dst_width
wire sh_kz = result[5:0] == 6'd0;

// ---- compares: the result bit, from S_CMP1B; S_CMP2 writes it as 0 + 0 + 1 or clears ----
reg cmp_bit;
always @* begin
	case (c_cmpop)
	3'd0: cmp_bit = !lt_reg && !gt_next;
	3'd1: cmp_bit = lt_reg || gt_next;
	3'd2: cmp_bit = lt_reg;
	3'd3: cmp_bit = !gt_next;
	3'd4: cmp_bit = gt_next;
	default: cmp_bit = !lt_reg;
	endcase
end

// ---- saturation: signed overflow of the 64-bit sum in S_SAT1 ----
wire sat_v = (result[63] ^ b_reg[63] ^ !c_sub) && (sum[63] != result[63]);

// ---- controls that select no per-bit logic, from the current state ----
always @* begin
	rce = 1'b1;
	bld = 1'b0;
	clr = 1'b0;
	case (state_reg)
	S_EXTA: bld = 1'b1;
	S_CMP1, S_CMP1B, S_FITS4, S_SHWAIT: rce = 1'b0;
	S_FITS: bld = 1'b1;
	S_CLR: clr = 1'b1;
	S_CMP2: clr = !c_minmax && !cmp_reg;
	S_MUL1: bld = 1'b1;
	S_IDLE: rce = 1'b0;
	S_FIX: rce = c_modu ? r64_reg : ovf_reg;
	// MIN: a < b ? a : b (equal values are the same); MAX: a < b ? b : a
	S_MM2: rce = !(lt_reg ^ c_max);
	default: ;
	endcase
end

// ---- next state, and the controls of the next cycle's pass ----
always @* begin
	state_next = state_reg;
	done_next = 1'b0;
	bit_next = fetch_reg ? bit_a : bit_reg;
	r64_next = r64_reg;
	ovf_next = ovf_reg;
	lt_next = lt_reg;
	gt_next = gt_reg;
	neg_next = neg_reg;
	clamp_next = clamp_reg;
	if (state_reg == S_MUL1 || state_reg == S_SCAN) begin
		ovf_next = ovf_reg || result[63] || cout;
		r64_next = cout;		// MODU: bit 64 (see sum)
	end
	case (state_reg)
	S_IDLE: begin
		bit_next = a[63];
		r64_next = 1'b0;
		ovf_next = 1'b0;
		if (start_ok) begin
			if (!d_modu && !d_mulsat && (!d_alu || dst_width == 7'd0))
				done_next = 1'b1;
			else
				state_next = start_state;
		end
	end
	S_EXTB: begin
		if (b_band)
			state_next = S_BANDB;
		else if (c_shl || c_shr)
			state_next = S_SHWAIT;
		else if (c_mul)
			state_next = S_MUL1;
		else
			state_next = S_EXTA;
	end
	S_BANDB: state_next = S_EXTA;
	S_EXTA: begin
		if (a_band && (c_set || sign_a_reg != a_above))
			state_next = S_BANDA;
		else if (c_set)
			done_next = 1'b1;
		else if (c_sat)
			state_next = S_SAT1;
		else if (c_cmp || c_minmax)
			state_next = S_CMP1;
		else
			state_next = S_FIN;
	end
	S_BANDA: begin
		if (c_set)
			done_next = 1'b1;
		else
			state_next = S_FIN;
	end
	S_CMP1: begin
		lt_next = (sgn_reg && result[63] != b_reg[63]) ? result[63] : !cout;
		state_next = c_minmax ? S_CMP2 : S_CMP1B;
	end
	S_CMP1B: begin
		gt_next = (sgn_reg && result[63] != b_reg[63]) ? b_reg[63] : !cout;
		state_next = S_CMP2;
	end
	S_CMP2: begin
		if (c_minmax)
			state_next = S_MM2;
		else
			done_next = 1'b1;
	end
	S_SAT1: begin
		// clamp at once when the sum overflows 64 bits; else when it does not fit
		neg_next = sgn_reg ? (sat_v ? result[63] : sum[63]) : c_sub && !cout;
		clamp_next = sgn_reg ? sat_v : cout ^ c_sub;
		state_next = S_FITS;
	end
	S_FITS: state_next = S_FITS2;
	S_FITS2: state_next = S_FITS3;
	S_FITS3: state_next = S_FITS4;
	S_SHWAIT: state_next = S_SHPREP;
	S_FITS4: begin
		if (zr_reg && !clamp_reg)
			done_next = 1'b1;	// result is the sum masked (S_FITS3)
		else
			state_next = S_CLR;
	end
	S_CLR: begin
		if (sgn_reg || !neg_reg)
			state_next = S_CLAMP;
		else
			done_next = 1'b1;	// unsigned below 0: 0
	end
	S_CLAMP: begin
		if (sgn_reg && neg_reg)
			state_next = S_SATMIN;
		else
			done_next = 1'b1;
	end
	S_MUL1, S_SCAN: begin
		if (!last_reg)
			state_next = S_SCAN;
		else if (c_mulsat || c_modu)
			state_next = S_FIX;
		else
			done_next = 1'b1;
	end
	S_SHPREP: begin
		// SHL steps k times, SHR walks a from bit 63 down to k; a shift by 0 (SHR: a
		// extended again) or by dst_width or more takes one more pass
		if (c_shr && sh_kz_reg && !sh_big_reg)
			state_next = S_EXTA;
		else if (sh_big_reg || sh_kz_reg)
			state_next = S_FIN;
		else
			state_next = S_SCAN;
	end
	default: done_next = 1'b1;	// S_FIN, S_MM2, S_SATMIN, S_FIX
	endcase
	if (done_next)
		state_next = S_IDLE;

	x_next = X_ZERO;
	g_next = G_ZERO;
	fs_next = F_NONE;
	fetch_next = 1'b0;
	ws_next = W_DW;
	xm_next = 1'b0;
	or_next = 1'b0;
	bm_next = 1'b0;
	ci_next = 1'b0;
	feed_next = 1'b0;
	// A start's controls are its pass's even when it is done at once (S_IDLE uses none of
	// them, and a start sets what the walk uses): through the next state they waited for
	// dst_width's compare, the ALU's longest path.
	case (start_ok ? start_state : state_next)
	S_EXTB: begin
		// result = b extended (entered only at start)
		g_next = (op == OP_OR) ? G_NB : G_B;
		ws_next = W_WB;
		fetch_next = op == OP_MUL || op == OP_SHR;
		if (d_b_fix)
			or_next = d_b_above;
		else
			fs_next = F_SB;
	end
	S_BANDB: begin
		x_next = X_R;
		or_next = b_above;
	end
	S_EXTA: begin
		// b_reg = result; result = a extended
		g_next = G_A;
		ws_next = W_WA;
		if (!start_ok && a_fix)
			or_next = a_above;
		if (start_ok ? !d_a_fix : !a_fix)
			fs_next = F_SA;
	end
	S_BANDA: begin
		x_next = X_R;
		or_next = a_above;
	end
	S_FIN: begin
		// the last pass of ADD .. SUBC, AND, OR, XOR, NOT, and of short shifts
		x_next = fin_x;
		g_next = fin_g;
		xm_next = fin_xm;
		or_next = fin_or;
		bm_next = fin_bm;
		ci_next = fin_ci;
		if (c_shl && sh_big_reg)
			ws_next = W_0;
	end
	S_CMP1: begin
		// a - b for a < b (result keeps a)
		x_next = X_R;
		g_next = G_NB;
		ci_next = 1'b1;
		ws_next = W_64;
	end
	S_CMP1B: begin
		// b - a for a > b
		x_next = X_NR;
		g_next = G_B;
		ci_next = 1'b1;
		ws_next = W_64;
	end
	S_CMP2: begin
		// compares: 0 + 0 + 1, or 0 (clr) when the compare does not hold
		if (!c_minmax)
			ci_next = 1'b1;
		else
			x_next = X_R;		// MIN/MAX: a masked, then b if it is taken
	end
	S_MM2: g_next = G_B;		// b masked, if it is taken (rce)
	S_SAT1: begin
		x_next = X_R;
		g_next = c_sub ? G_NB : G_B;
		ci_next = c_sub;
		ws_next = W_64;
	end
	S_FITS: begin
		// b_reg = the sum; result = the sum with its bits from dst_width up
		// (dst_width - 1 when signed) copies of its sign
		x_next = X_R;
		or_next = neg_next;
		ws_next = sgn_reg ? W_DWM1 : W_DW;
	end
	S_FITS2: begin
		// result ^ b_reg (the sum): zero when the sum fits
		x_next = X_R;
		g_next = G_B;
		xm_next = 1'b1;
		ws_next = W_64;
	end
	S_FITS3: g_next = G_B;
	S_CLAMP: begin
		// result = ~0 masked: 2^w - 1, 2^(w-1) - 1 signed, then + 1 (S_SATMIN)
		x_next = X_NR;
		if (sgn_reg)
			ws_next = W_DWM1;
	end
	S_SATMIN: begin
		x_next = X_R;
		ci_next = 1'b1;
	end
	S_MUL1: begin
		// b_reg = b extended (from result); result = b if a's top bit else 0
		fetch_next = 1'b1;
		if (bit_next)
			x_next = X_R;
	end
	S_SCAN: begin
		// Horner: result = 2 * result + (bit ? b : 0) (MUL, MULSAT), 2 * result + bit
		// (SHR; SHL feeds 0), 2 * result + bit -/+ b by the remainder's sign (MODU)
		x_next = X_SHL;
		fetch_next = 1'b1;
		feed_next = (start_ok ? d_modu : c_modu || c_shr) && bit_next;
		if (start_ok ? d_modu : c_modu) begin
			g_next = r64_next ? G_B : G_NB;
			ci_next = !r64_next;
			ws_next = W_64;
		end else if (start_ok || c_mulsat) begin
			g_next = bit_next ? G_B : G_ZERO;
			ws_next = W_64;
		end else if (c_mul)
			g_next = bit_next ? G_B : G_ZERO;
	end
	S_SHPREP: begin
		// result = b extended. SHL: result = a extended; SHR: result = all sign bits
		fs_next = c_shl ? F_SA : F_SHR;
		if (c_shl) begin
			g_next = G_A;
			ws_next = W_WA;
		end else
			ws_next = W_0;
	end
	S_FIX: begin
		// MODU: a negative remainder gets the divisor back; MULSAT: all ones when
		// the product does not fit (result is written only then: rce)
		if (c_modu) begin
			x_next = X_R;
			g_next = G_B;
			ws_next = W_64;
		end else begin
			ws_next = W_0;
			or_next = 1'b1;
		end
	end
	default: ;
	endcase
end

// The Horner walk's position: MODU/MULSAT from bit 63 (fetched at start), MUL from bit
// min(dst_width, 64) - 1, SHR from 63 (both fetched in S_EXTB), SHL k steps; the last step is
// the one with pos_reg == stop_reg (SHR's takes bit k).
always @* begin
	pos_next = fetch_reg ? pos_reg - 7'd1 : pos_reg;
	stop_next = stop_reg;
	if (state_reg == S_SHPREP) begin
		stop_next = c_shl ? 7'd1 : {1'b0, result[5:0]};
		if (c_shl)
			pos_next = {1'b0, result[5:0]};
	end
	if (start_ok) begin
		stop_next = 7'd0;
		pos_next = op == OP_MUL ? dst_width : d_modu || d_mulsat ? 7'd63 : 7'd64;
	end
end

always @(posedge clk) begin
	state_reg <= state_next;
	done <= done_next;
	fs_reg <= fs_next;
	fetch_reg <= fetch_next;
	if (rst) begin
		state_reg <= S_IDLE;
		done <= 1'b0;
		fs_reg <= F_NONE;
		fetch_reg <= 1'b0;
	end

	x_reg <= x_next;
	g_reg <= g_next;
	xm_reg <= xm_next;
	or_reg <= or_next;
	bm_reg <= bm_next;
	ws_reg <= ws_next;

	bit_reg <= bit_next;
	r64_reg <= r64_next;
	ovf_reg <= ovf_next;
	lt_reg <= lt_next;
	gt_reg <= gt_next;
	ci_reg <= ci_next;
	feed_reg <= feed_next;
	clamp_reg <= clamp_next;
	neg_reg <= neg_next;

	if (start_ok || clr)
		result <= 64'd0;
	else if (rce)
		result <= r_d;
	if (start_ok)
		b_reg <= b;
	else if (bld)
		b_reg <= result;

	pos_reg <= pos_next;
	stop_reg <= stop_next;
	last_reg <= pos_next == stop_next;
	if (fetch_reg)
		pos_in_a <= c_modu || c_mulsat || pos_reg <= aw_reg + 7'd1;
	if (state_reg == S_EXTB)
		sign_a_reg <= sign_a;
	if (state_reg == S_CMP1B)
		cmp_reg <= cmp_bit;
	zr_reg <= zr;
	sh_big_reg <= sh_big;
	sh_kz_reg <= sh_kz;
	if (state_reg == S_FIN && c_addsub)
		carry_out <= cout ^ c_sub;

	if (start_ok) begin
		a_reg <= a;
		aw_reg <= a_width;
		dw_reg <= dst_width;
		dwm1_reg <= dst_width - 7'd1;
		wa_reg <= d_a_fix ? dst_width : a_width;
		wb_reg <= d_b_fix ? dst_width : b_width;
		bw_reg <= b_width[5:0];
		sgn_reg <= sgn;
		a_fix <= d_a_fix;
		a_band <= (d_set || d_forced) && !d_a_fix;
		a_above <= d_addsub;
		b_band <= d_forced && !d_b_fix;
		b_above <= d_b_above;
		b_inv <= d_or;

		c_set <= d_set;
		c_addsub <= d_addsub;
		c_sub <= d_sub;
		c_sat <= op == OP_ADDSAT || op == OP_SUBSAT;
		c_mul <= op == OP_MUL;
		c_shl <= op == OP_SHL;
		c_shr <= op == OP_SHR;
		c_cmp <= op >= OP_EQ && op <= OP_GE;
		c_minmax <= op == OP_MIN || op == OP_MAX;
		c_max <= op == OP_MAX;
		c_modu <= d_modu;
		c_mulsat <= d_mulsat;
		case (op)
		OP_NE: c_cmpop <= 3'd1;
		OP_LT: c_cmpop <= 3'd2;
		OP_LE: c_cmpop <= 3'd3;
		OP_GT: c_cmpop <= 3'd4;
		OP_GE: c_cmpop <= 3'd5;
		default: c_cmpop <= 3'd0;
		endcase

		// S_FIN: ADD/SUB result + b (+carry) / + ~b (+1-borrow); AND result & b_reg
		// (the mask); OR result | ~b_reg; XOR result ^ b; NOT ~result; shifts result
		fin_x <= op == OP_NOT ? X_NR : X_R;
		fin_g <= d_addsub ? (d_sub ? G_NB : G_B) : d_xor ? G_B : G_ZERO;
		fin_xm <= d_xor;
		fin_or <= d_or;
		fin_bm <= d_and || d_or;
		fin_ci <= d_addsub && (d_sub ^ (d_withc && carry_in));

		write <= d_alu || d_modu || d_mulsat;
		// ADD .. SUBC with dst_width 0 leave the carry of a 0-bit add: the carry in for
		// ADDC/SUBC, 0 for ADD/SUB; the other ops keep it (ADD .. SUBC with a
		// destination set it in S_FIN)
		carry_out <= d_addsub ? d_withc && carry_in : carry_in;

		if (op == OP_MUL)
			pos_in_a <= dst_width <= a_width;
		else
			pos_in_a <= d_modu || d_mulsat || a_width[6];
	end
end

endmodule

`resetall
