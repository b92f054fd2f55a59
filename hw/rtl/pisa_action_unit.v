// SPDX-License-Identifier: Apache-2.0
// pisa_action_unit: a stage's action, run on the stage's copy of the PHV (docs/rtl-core.md,
// "Towards the pipeline"): the instructions of the action a lookup chose, one after the other,
// with the row's action data, bit-exact with pisa-model's model_exec. pisa_core does not use
// it yet.
//
// An action (s_*): its first instruction's address, its instruction count and the row's action
// data (byte 0 in the top bits, as a row holds it: ADATA bit 0 is s_data's top bit). The
// instructions are read through insn_raddr (a register) with insn_rdata the instruction there
// in the next clock (a pisa_ram read port): the four words of docs/hwconf.md's instruction
// record side by side, w0 in the top bits. The PHV is a memory of 64-bit words, byte 0 in the
// top bits of word 0 (a field's bit 0 is the most significant bit of byte 0, as everywhere):
// read like a pisa_ram port (phv_raddr, a register, and phv_rdata in the next clock), written
// through phv_we/phv_waddr/phv_wdata in the same clock as the unit decides the word (a read
// whose address is set at that edge or later sees it, pisa_ram's rule).
//
// What it runs, as model_exec does (docs/architecture.md, "Instructions"): NOP .. MAX on
// pisa_alu_seq (with the carry flag, 0 at the start of each action), JZ/JNZ, SETVALID and
// SETINVALID, EXIT (m_exit: the pass ends), DROP, and the requests that only write intrinsic
// metadata: CLONE, RESUBMIT, RECIRCULATE, TRUNCATE. Operands: PHV and ADATA fields of 1 .. 64
// bits at any bit offset (an ADATA field past the data reads zero bits), CONST, and NONE/PKT
// (zero outside the parser). With EXTERNS, COUNT, REG_READ and REG_WRITE go out on the x_*
// port (pisa_stage_externs answers them): a, and b or (COUNT) the PHV's packet_length, are read
// as operands, x_start is high for a clock, and the unit waits for x_done; REG_READ writes
// x_result to its dst. The rest are the stage's, not this unit's: COPYHDR (it needs the header
// table), METER, DMETER, HASH, RANDOM and DIGEST, and without EXTERNS COUNT, REG_READ and
// REG_WRITE, are skipped and reported (m_extern); parser-only and unknown opcodes are NOPs, as
// in the model.
// Fields must lie inside the PHV and header ids be the image's (what loads the image checks).
//
// How: a field is read a word at a time, each word turned on one 64-bit rotator so that the
// field's bits land right-aligned (a field across two words takes the second word's top bits
// under the first's); a write reads the field's word(s) and writes each back with the value,
// rotated into place, under the field's mask. SET, NOT, AND, OR, XOR, EQ and NE whose operands
// need no sign extension take their value without the ALU. A word read is registered before
// the rotator takes it, so an operand's first word is asked for ahead (when the instruction is
// decoded, or with the operand before) and a field's second word is waited for. Clocks: 2 an
// operand (4 when it crosses a word), 1 to execute, the ALU's 2 .. 67 when used, 2 the first
// written field (4 across words: it is loaded in the clock its value is known) and 3 each after
// it (5); the next instruction is read meanwhile. A SET of one field to another: 5.
// Stream contract as everywhere in hw/: a word moves when valid && ready at a rising edge.
`default_nettype none

module pisa_action_unit #(
	parameter PHV_BYTES = 256,	// a power of 2, >= 128 (the intrinsic metadata and the
					// validity bits from byte 64)
	parameter DATA_BYTES = 8,	// action data a row carries, 1 ..
	parameter IA = 8,		// instruction memory address bits
	parameter EXTERNS = 0,		// 1: COUNT, REG_READ and REG_WRITE go out on x_*
	parameter PW = $clog2(PHV_BYTES / 8)	// (derived) PHV word address bits
) (
	input  wire                    clk,
	input  wire                    rst,

	input  wire [IA-1:0]           s_insn,		// the action's first instruction ...
	input  wire [15:0]             s_ninsns,	// ... its instruction count ...
	input  wire [8*DATA_BYTES-1:0] s_data,		// ... and the row's action data
	input  wire                    s_valid,
	output wire                    s_ready,

	output reg  [IA-1:0]           insn_raddr,
	input  wire [255:0]            insn_rdata,

	output reg  [PW-1:0]           phv_raddr,
	input  wire [63:0]             phv_rdata,
	output wire                    phv_we,
	output wire [PW-1:0]           phv_waddr,
	output wire [63:0]             phv_wdata,

	output reg                     x_start,	// COUNT, REG_READ or REG_WRITE (EXTERNS):
	output wire [7:0]              x_op,		// the instruction and its operands,
	output wire [15:0]             x_imm,		// held until x_done
	output wire                    x_sgn,
	output wire [63:0]             x_a,
	output wire [6:0]              x_a_width,
	output wire [63:0]             x_b,
	output wire [6:0]              x_b_width,
	input  wire                    x_done,
	input  wire [63:0]             x_result,	// REG_READ's value, with x_done

	output reg                     m_exit,		// the action ran EXIT
	output reg                     m_extern,	// it ran an instruction that is the stage's
	output wire                    m_valid,
	input  wire                    m_ready
);

localparam DW = (DATA_BYTES + 7) / 8;	// action data words

localparam [7:0] OP_SET = 8'd1, OP_MAX = 8'd22, OP_JZ = 8'd23, OP_JNZ = 8'd24,
	OP_AND = 8'd9, OP_OR = 8'd10, OP_XOR = 8'd11, OP_NOT = 8'd12,
	OP_EQ = 8'd15, OP_NE = 8'd16,
	OP_SETVALID = 8'd25, OP_SETINVALID = 8'd26, OP_COPYHDR = 8'd27, OP_EXIT = 8'd28,
	OP_COUNT = 8'd29, OP_REG_READ = 8'd30, OP_REG_WRITE = 8'd31, OP_RANDOM = 8'd35,
	OP_CLONE = 8'd36, OP_RESUBMIT = 8'd37, OP_RECIRCULATE = 8'd38, OP_TRUNCATE = 8'd39,
	OP_DIGEST = 8'd40, OP_DROP = 8'd41;
localparam [3:0] K_PHV = 4'd1, K_CONST = 4'd2, K_ADATA = 4'd3;

// Intrinsic metadata fields (lib/pisa_image.h's PISA_SM_* and PISA_IM_*): {bit offset, width}
localparam [22:0] F_EGRESS_SPEC = {16'd23, 7'd9}, F_MCAST_GRP = {16'd48, 7'd16},
	F_CLONE_SESSION = {16'd416, 7'd16}, F_CLONE_TYPE = {16'd432, 7'd8},
	F_CLONE_FLIST = {16'd440, 7'd8}, F_RESUBMIT_FLIST = {16'd448, 7'd8},
	F_RECIRC_FLIST = {16'd456, 7'd8}, F_TRUNCATE_LEN = {16'd464, 7'd16},
	F_PACKET_LENGTH = {16'd128, 7'd32};
localparam [15:0] VALID_BITS = 16'd512;	// header h's validity bit is PHV bit 512 + h

localparam [3:0] S_IDLE = 4'd0, S_FETCH = 4'd1, S_OPND = 4'd2, S_OPND_HI = 4'd3,
	S_OPND_LO = 4'd4, S_EXEC = 4'd5, S_ALU = 4'd6, S_WR_SEL = 4'd7, S_WR_PREP = 4'd8,
	S_WR_HI = 4'd9, S_WR_LO = 4'd10, S_DONE = 4'd11, S_SKIP = 4'd12, S_EXTERN = 4'd13;

localparam [63:0] ONES = {64{1'b1}};

reg [3:0] state;
reg [15:0] left;		// instructions after the one decoded
reg taken;			// a JZ/JNZ's condition held: skip imm instructions
reg carry;
reg [64*DW-1:0] adata;

// ---- the instruction (docs/hwconf.md: w0 op flags imm dst, w1 a b, w2 a's value, w3 b's) ----
reg [7:0] op;
reg sgn;
reg [15:0] imm;
reg [31:0] d_desc, a_desc, b_desc;
reg [63:0] a_value, b_value;
wire [3:0] d_kind = d_desc[31:28];
wire [6:0] d_width = d_desc[22:16];
wire [6:0] a_width = a_desc[22:16], b_width = b_desc[22:16];

wire is_alu = op >= OP_SET && op <= OP_MAX;
// the externs the stage runs (EXTERNS), and those it reports
wire is_stage_x = EXTERNS != 0 && op >= OP_COUNT && op <= OP_REG_WRITE;
wire is_extern = !is_stage_x &&
	(op == OP_COPYHDR || (op >= OP_COUNT && op <= OP_RANDOM) || op == OP_DIGEST);
function needs_a;		// (of the instruction being decoded)
	input [7:0] o;
	needs_a = o >= OP_SET && o <= OP_MAX || o == OP_JZ || o == OP_JNZ || o == OP_CLONE ||
		o == OP_TRUNCATE || EXTERNS != 0 && o >= OP_COUNT && o <= OP_REG_WRITE;
endfunction
// SET and NOT read a only; COUNT's b is the packet length, REG_READ has none
wire needs_b = is_alu && op != OP_SET && op != OP_NOT || is_stage_x && op != OP_REG_READ;
// the fields an instruction writes (after its ALU step, if any); nwrites holds it from S_OPND on
wire [1:0] writes = op == OP_CLONE ? 2'd3 : op == OP_DROP ? 2'd2 :
	(op == OP_SETVALID || op == OP_SETINVALID || op == OP_RESUBMIT ||
	 op == OP_RECIRCULATE || op == OP_TRUNCATE ||
	 ((is_alu || is_stage_x && op == OP_REG_READ) && d_kind == K_PHV)) ? 2'd1 : 2'd0;

// ---- the field being read or written, and where it lies in the words. Loaded with its
// read's address; an operand's CONST value (or zero) is read as a field ending word 0 of
// the value itself, so that every operand takes the same path. ----
reg f_phv;			// its words come from the PHV, else from src_hi and src_lo ...
reg [63:0] src_hi, src_lo;	// ... (an ADATA field's two words, a CONST value, a write's value)
reg f_second;			// reading its second word
reg [PW-1:0] f_phv_word;	// its first word in the PHV
reg [5:0] f_bit;		// its first bit in that word, from the top
reg [6:0] f_end;		// f_bit + its width: past 64, it runs into the next word
reg [63:0] f_mask;		// its width's low bits
reg [5:0] rot_by;		// the rotation: a read turns its words left by f_end mod 64 (so
				// that the field's bits land right-aligned), a write its value
				// right as much
wire f_cross = f_end[6] && f_end[5:0] != 6'd0;

function [63:0] low_ones;	// the low n bits set, n = 0 .. 64
	input [6:0] n;
	low_ones = n[6] ? ONES : ~(ONES << n[5:0]);
endfunction

function [63:0] reversed;
	input [63:0] x;
	integer j;
	for (j = 0; j < 64; j = j + 1)
		reversed[j] = x[63 - j];
endfunction

wire [63:0] from_bit = low_ones(7'd64 - {1'b0, f_bit});	// the first word's bits from f_bit
// the word's bits after the field's end (in the second word if it crosses); from the registered
// end, not worked out with it: the end's adder and this decoder in one clock were the unit's
// longest path
wire [63:0] above_end = low_ones({1'b0, 6'd0 - f_end[5:0]});
wire [63:0] tail = reversed(~above_end);	// a crossing field's low bits: the second word's

// ---- operands ----
reg opnd;			// reading a (0) or b (1)
// whether the instruction reads that operand, and whether it is COUNT's b (packet_length): set
// as it is decoded or a is done (decoded from op in S_OPND, they were the stage's longest path)
reg o_needed, o_packet_length;
reg [63:0] a_val, b_val;	// right-aligned, zero above the width
reg [63:0] part;		// a crossing field's bits from its first word
wire [31:0] o_desc = opnd ? b_desc : a_desc;
wire [3:0] o_kind = o_desc[31:28];
wire [6:0] o_width = o_desc[22:16];

function [63:0] adata_word;	// action data word i, zero past the data
	input [10:0] i;
	integer j;
	begin
		adata_word = 64'd0;
		for (j = 0; j < DW; j = j + 1)
			if ({21'd0, i} == j)
				adata_word = adata[64 * (DW - 1 - j) +: 64];
	end
endfunction

// The word read, registered before the rotator takes it: a stage's PHV memory read and its
// banks' mux, then the rotator, in one clock was the stage's longest path. A PHV word is
// therefore used two clocks after its address is set (rd_wait: the clock between).
reg [63:0] phv_word;
reg rd_wait;
always @(posedge clk)
	phv_word <= phv_rdata;

// one rotator: a read's words, or the value a write puts in place
wire [63:0] rot_in = f_phv ? phv_word : f_second ? src_lo : src_hi;
wire [127:0] rot_two = {rot_in, rot_in} >> rot_by;
wire [63:0] rot_out = rot_two[63:0];
wire [63:0] opnd_val = state == S_OPND_LO ? ((part & ~tail) | (rot_out & tail)) & f_mask :
	rot_out & f_mask;

// ---- the ALU: instructions NOP .. MAX, and CLONE's session and TRUNCATE's length as a SET
// (the value sign-extended as the instruction says) ----
reg alu_start;
wire alu_busy, alu_done, alu_write, alu_carry;
wire [63:0] alu_result;
// its opcode and destination width, set with the instruction (decode): worked out from op at
// the start, they lengthened the ALU's start path, the stage's longest
reg [7:0] alu_op;
reg [6:0] alu_dw;
pisa_alu_seq u_alu (
	.clk(clk), .rst(rst), .start(alu_start), .op(alu_op), .sgn(sgn),
	.a(a_val), .a_width(a_width), .b(b_val), .b_width(b_width),
	.dst_width(alu_dw), .carry_in(carry),
	.busy(alu_busy), .done(alu_done), .result(alu_result), .write(alu_write), .carry_out(alu_carry)
);

// ---- writes: the n-th field an instruction writes, and its value ----
reg [1:0] wr_n;
reg [22:0] wr_field;		// {bit offset, width}
reg [63:0] wr_value;
reg [63:0] result;		// the ALU's or the extern's value, for the fields after the first
// ... and as the ALU or the extern is done, so that its first field is loaded then (a direct
// value goes to its field from S_EXEC: exec_direct)
wire [63:0] value_now = state == S_ALU ? alu_result : state == S_EXTERN ? x_result : result;
// SET, NOT, AND, OR, XOR, EQ and NE whose operands need no sign extension (unsigned, or as
// wide as what they give) skip the ALU: their value is a bitwise step away
wire ab_wide = a_width >= d_width && b_width >= d_width;
reg direct;
reg [63:0] direct_value;
// From S_OPND on (the instruction's fields are registers by then): the fields it writes,
// whether S_EXEC goes straight on to the next instruction, and whether S_EXEC loads the first
// field to write (a value without the ALU, exec_direct, or fields that need none). Worked out
// in S_EXEC, they were in front of the next instruction's address and of the field's
// registers, the stage's longest paths.
reg [1:0] nwrites;
reg exec_next, exec_write, exec_direct;
// needs neither the ALU, an extern nor a branch
wire runs_alone = !is_alu && !is_stage_x && op != OP_CLONE && op != OP_TRUNCATE &&
	op != OP_EXIT && op != OP_JZ && op != OP_JNZ;
always @(*) begin
	case (op)
	OP_SET, OP_NOT: direct = !sgn || a_width >= d_width;
	OP_AND, OP_OR, OP_XOR: direct = !sgn || ab_wide;
	OP_EQ, OP_NE: direct = !sgn || a_width == b_width;
	default: direct = 1'b0;
	endcase
end
// The direct value, chosen by registers set from the opcode in S_OPND (decoded in S_EXEC, the
// opcode's compares ran in front of the written field's value): else a itself (SET)
reg dv_not, dv_and, dv_or, dv_xor, dv_cmp, dv_eq;
always @(*)
	if (dv_not)
		direct_value = ~a_val;
	else if (dv_and)
		direct_value = a_val & b_val;
	else if (dv_or)
		direct_value = a_val | b_val;
	else if (dv_xor)
		direct_value = a_val ^ b_val;
	else if (dv_cmp)
		direct_value = {63'd0, (a_val == b_val) == dv_eq};
	else
		direct_value = a_val;

always @(*) begin
	wr_field = {d_desc[15:0], d_width};
	wr_value = value_now;
	case (op)
	OP_SETVALID, OP_SETINVALID: begin
		wr_field = {VALID_BITS + imm, 7'd1};
		wr_value = {63'd0, op == OP_SETVALID};
	end
	OP_DROP: begin
		wr_field = wr_n == 2'd0 ? F_EGRESS_SPEC : F_MCAST_GRP;
		wr_value = wr_n == 2'd0 ? 64'd511 : 64'd0;
	end
	OP_CLONE: begin
		wr_field = wr_n == 2'd0 ? F_CLONE_TYPE : wr_n == 2'd1 ? F_CLONE_SESSION :
			F_CLONE_FLIST;
		wr_value = wr_n == 2'd0 ? {48'd0, imm} : wr_n == 2'd1 ? value_now : b_value;
	end
	OP_RESUBMIT: begin
		wr_field = F_RESUBMIT_FLIST;
		wr_value = a_value;
	end
	OP_RECIRCULATE: begin
		wr_field = F_RECIRC_FLIST;
		wr_value = a_value;
	end
	OP_TRUNCATE: begin
		wr_field = F_TRUNCATE_LEN;
		wr_value = |value_now[63:16] ? 64'hFFFF : value_now;
	end
	default: ;
	endcase
end

// unused: the doubled word's top half, the descriptors' bits between kind and width, and
// the flags but SIGNED; the ALU's busy and write (the unit waits for done, and every ALU
// opcode writes); a written field's offset bits past the PHV
wire _unused = &{1'b0, rot_two[127:64], d_desc[27:23], o_desc[27:23], insn_rdata[247:241],
	alu_busy, alu_write, wr_field[22:7] >> (PW + 6), 1'b0};

reg [63:0] w_rot;		// the value to write, rotated into place
reg [63:0] w_mask_hi, w_mask_lo;	// its bits in the first word and in the second
assign phv_we = (state == S_WR_HI || state == S_WR_LO) && !rd_wait;
assign phv_waddr = state == S_WR_LO ? f_phv_word + 1'b1 : f_phv_word;
assign phv_wdata = state == S_WR_LO ? (phv_word & ~w_mask_lo) | (w_rot & w_mask_lo) :
	(phv_word & ~w_mask_hi) | (w_rot & w_mask_hi);

assign s_ready = state == S_IDLE;
assign m_valid = state == S_DONE;

// ---- sequencing ----
// after an instruction: the next one, or the end (insn_raddr is already the next one's
// address: its instruction is there to decode)
task next_insn;
	if (left == 16'd0)
		state <= S_DONE;
	else
		decode;
endtask

// the instruction at insn_raddr in, the next one's read started
task decode;
	begin
		op <= insn_rdata[255:248];
		alu_op <= insn_rdata[255:248] >= OP_SET && insn_rdata[255:248] <= OP_MAX ?
			insn_rdata[255:248] : OP_SET;
		alu_dw <= insn_rdata[255:248] == OP_CLONE ? 7'd16 :
			insn_rdata[255:248] == OP_TRUNCATE ? 7'd64 : insn_rdata[214:208];
		sgn <= insn_rdata[240];
		imm <= insn_rdata[239:224];
		d_desc <= insn_rdata[223:192];
		a_desc <= insn_rdata[191:160];
		b_desc <= insn_rdata[159:128];
		a_value <= insn_rdata[127:64];
		b_value <= insn_rdata[63:0];
		opnd <= 1'b0;
		o_needed <= needs_a(insn_rdata[255:248]);
		o_packet_length <= 1'b0;
		wr_n <= 2'd0;
		// operand a's word (a_desc's offset / 64), should it be the PHV's
		phv_raddr <= insn_rdata[160 + 6 +: PW];
		insn_raddr <= insn_raddr + 1'b1;
		left <= left - 1'b1;
		state <= S_OPND;
	end
endtask

// the instruction's next field to write (wr_n), with its value (wr_value, or a direct value
// for the instruction's own dst: taken past wr_value's choice by opcode, which the direct
// value's own choice would lengthen)
task write_field;
	input direct_to_dst;
	begin
		// (the value's bits above the width need no clearing: the rotation puts them
		// outside the field, where the masks keep the word's own bits)
		load_field(wr_field[PW+12:7], wr_field[6:0], 1'b0,
			direct_to_dst ? direct_value : wr_value, 64'd0, 1'b1);
		state <= S_WR_PREP;
	end
endtask

// the ALU's or the extern's value: the fields it goes to, or the next instruction
task take_result;
	input [63:0] value;
	begin
		result <= value;
		if (nwrites != 2'd0)
			write_field(1'b0);
		else
			next_insn;
	end
endtask

// after operand a (or b): the next operand, or the instruction itself
task operand_done;
	begin
		if (!opnd && needs_b) begin
			opnd <= 1'b1;
			o_needed <= 1'b1;
			o_packet_length <= EXTERNS != 0 && op == OP_COUNT;
			// its word, should it be the PHV's (COUNT's b is packet_length)
			phv_raddr <= EXTERNS != 0 && op == OP_COUNT ? F_PACKET_LENGTH[PW+12:13] :
				b_desc[PW+5:6];
			state <= S_OPND;
		end else begin
			state <= S_EXEC;
		end
	end
endtask

// the field to read or write next: {bit offset, width}, where its words come from
task load_field;
	input [PW+5:0] off;		// the PHV's bits are all a field's offset can reach
	input [6:0] width;
	input from_phv;
	input [63:0] word_hi, word_lo;	// its words when not from the PHV
	input write;
	reg [6:0] fend;
	begin
		fend = {1'b0, off[5:0]} + width;
		f_phv <= from_phv;
		src_hi <= word_hi;
		src_lo <= word_lo;
		f_second <= 1'b0;
		f_phv_word <= off[PW+5:6];
		f_bit <= off[5:0];
		f_end <= fend;
		f_mask <= low_ones(width);
		rot_by <= write ? fend[5:0] : 6'd0 - fend[5:0];
		phv_raddr <= off[PW+5:6];
		// no wait: a read's first word was asked for ahead (decode and operand_done ask
		// for the operand's; formal/action_unit proves it), a write's is used two clocks
		// on (S_WR_HI)
		rd_wait <= 1'b0;
	end
endtask

assign x_op = op;
assign x_imm = imm;
assign x_sgn = sgn;
assign x_a = a_val;
assign x_a_width = a_width;
assign x_b = b_val;
assign x_b_width = b_width;

always @(posedge clk) begin
	alu_start <= 1'b0;
	x_start <= 1'b0;
	case (state)
	S_IDLE:
		if (s_valid) begin
			adata <= {s_data, {64 * DW - 8 * DATA_BYTES{1'b0}}};
			insn_raddr <= s_insn;
			left <= s_ninsns;
			carry <= 1'b0;
			m_exit <= 1'b0;
			m_extern <= 1'b0;
			state <= s_ninsns == 16'd0 ? S_DONE : S_FETCH;
		end
	S_FETCH:
		decode;
	S_OPND: begin
		nwrites <= writes;
		exec_next <= direct ? d_kind != K_PHV : writes == 2'd0 && runs_alone;
		exec_write <= direct ? d_kind == K_PHV : writes != 2'd0 && runs_alone;
		exec_direct <= direct;
		dv_not <= op == OP_NOT;
		dv_and <= op == OP_AND;
		dv_or <= op == OP_OR;
		dv_xor <= op == OP_XOR;
		dv_cmp <= op == OP_EQ || op == OP_NE;
		dv_eq <= op == OP_EQ;
		if (!o_needed) begin
			state <= S_EXEC;
		end else begin
			if (o_packet_length)
				load_field(F_PACKET_LENGTH[PW+12:7], F_PACKET_LENGTH[6:0], 1'b1,
					64'd0, 64'd0, 1'b0);
			else case (o_kind)
			K_PHV: load_field(o_desc[PW+5:0], o_width, 1'b1, 64'd0, 64'd0, 1'b0);
			K_ADATA: load_field(o_desc[PW+5:0], o_width, 1'b0,
				adata_word({1'b0, o_desc[15:6]}),
				adata_word({1'b0, o_desc[15:6]} + 11'd1), 1'b0);
			K_CONST: load_field({{PW - 1{1'b0}}, 7'd64 - o_width}, o_width, 1'b0,
				opnd ? b_value : a_value, 64'd0, 1'b0);
			// NONE, and PKT outside the parser
			default: load_field(0, 7'd64, 1'b0, 64'd0, 64'd0, 1'b0);
			endcase
			state <= S_OPND_HI;
		end
	end
	S_OPND_HI, S_OPND_LO:
		if (rd_wait) begin
			rd_wait <= 1'b0;
		end else if (state == S_OPND_HI && f_cross) begin
			part <= rot_out;
			f_second <= 1'b1;
			phv_raddr <= f_phv_word + 1'b1;
			rd_wait <= f_phv;
			state <= S_OPND_LO;
		end else begin
			if (opnd)
				b_val <= opnd_val;
			else
				a_val <= opnd_val;
			operand_done;
		end
	S_EXEC: begin
		if (is_extern)
			m_extern <= 1'b1;
		if (exec_next) begin
			next_insn;
		end else if (exec_write) begin
			write_field(exec_direct);
		end else if (is_alu || op == OP_CLONE || op == OP_TRUNCATE) begin
			alu_start <= 1'b1;
			state <= S_ALU;
		end else if (is_stage_x) begin
			x_start <= 1'b1;
			state <= S_EXTERN;
		end else if (op == OP_EXIT) begin
			m_exit <= 1'b1;
			state <= S_DONE;
		end else begin		// JZ, JNZ
			taken <= (a_val == 64'd0) == (op == OP_JZ);
			state <= S_SKIP;
		end
	end
	S_ALU:
		if (alu_done) begin
			if (is_alu)
				carry <= alu_carry;
			take_result(alu_result);
		end
	S_EXTERN:
		if (x_done)
			take_result(x_result);
	S_SKIP:
		if (!taken) begin
			next_insn;
		end else if (left <= imm) begin
			state <= S_DONE;
		end else begin
			left <= left - imm;
			insn_raddr <= insn_raddr + imm[IA-1:0];
			state <= S_FETCH;
		end
	S_WR_SEL:	// a field after the first (CLONE, DROP)
		write_field(1'b0);
	S_WR_PREP: begin
		w_rot <= rot_out;
		w_mask_hi <= from_bit & (f_cross ? ONES : ~above_end);
		w_mask_lo <= ~above_end;
		state <= S_WR_HI;
	end
	S_WR_HI, S_WR_LO:
		if (rd_wait) begin
			rd_wait <= 1'b0;
		end else if (state == S_WR_HI && f_cross) begin
			phv_raddr <= f_phv_word + 1'b1;
			rd_wait <= 1'b1;
			state <= S_WR_LO;
		end else begin	// written: the instruction's next field, or the next instruction
			wr_n <= wr_n + 2'd1;
			if (wr_n + 2'd1 < nwrites)
				state <= S_WR_SEL;
			else
				next_insn;
		end
	S_DONE:
		if (m_ready)
			state <= S_IDLE;
	default:
		state <= S_IDLE;
	endcase
	if (rst) begin
		state <= S_IDLE;
		alu_start <= 1'b0;
		x_start <= 1'b0;
		rd_wait <= 1'b0;
	end
end

`ifdef FORMAL
// Checked by hw/formal (yosys-smtbmc, BMC and k-induction) for any instructions and PHV words
// whose descriptors have widths of 1 .. 64 bits: the result keeps the stream contract; every
// word read for a field is the field's (its first word, then the next); an operand's value is
// its field's bits, right-aligned, shifted out of the words it was read from (not rotated);
// and a write changes exactly the field's bits of each word, to the value's, with the masks
// and places worked out here by shifts, independently of the unit's rotator and masks.
reg f_past_valid = 1'b0;
always @(posedge clk)
	f_past_valid <= 1'b1;

initial assume (rst);

wire [3:0] fa_kind = insn_rdata[191:188], fb_kind = insn_rdata[159:156];
always @(*) begin
	assume (insn_rdata[214:208] >= 7'd1 && insn_rdata[214:208] <= 7'd64);
	if (fa_kind == K_PHV || fa_kind == K_ADATA || fa_kind == K_CONST)
		assume (insn_rdata[182:176] >= 7'd1 && insn_rdata[182:176] <= 7'd64);
	if (fb_kind == K_PHV || fb_kind == K_ADATA || fb_kind == K_CONST)
		assume (insn_rdata[150:144] >= 7'd1 && insn_rdata[150:144] <= 7'd64);
end

// ... and so do the instruction's, once decoded
wire [3:0] fda_kind = a_desc[31:28], fdb_kind = b_desc[31:28];
always @(*)
	if (!rst && state != S_IDLE && state != S_FETCH && state != S_DONE) begin
		assert (d_width >= 7'd1 && d_width <= 7'd64);
		if (fda_kind == K_PHV || fda_kind == K_ADATA || fda_kind == K_CONST)
			assert (a_width >= 7'd1 && a_width <= 7'd64);
		if (fdb_kind == K_PHV || fdb_kind == K_ADATA || fdb_kind == K_CONST)
			assert (b_width >= 7'd1 && b_width <= 7'd64);
	end

// the result holds until taken
always @(posedge clk)
	if (f_past_valid && !$past(rst) && !rst && $past(m_valid && !m_ready))
		assert (m_valid && $stable({m_exit, m_extern}));

// the word a field's bits are read from or written to
wire f_reading = state == S_OPND_HI || state == S_OPND_LO;
wire f_writing = state == S_WR_PREP || state == S_WR_HI || state == S_WR_LO;
always @(*)
	if (!rst && (f_reading && f_phv || f_writing))
		assert (phv_raddr == (state == S_OPND_LO || state == S_WR_LO ? f_phv_word + 1'b1 :
			f_phv_word));
always @(*)
	if (!rst && phv_we)
		assert (phv_waddr == phv_raddr);
// ... and the word used (phv_word, a clock behind the memory) was read from that address
reg [PW-1:0] f_word_addr;
always @(posedge clk)
	f_word_addr <= phv_raddr;
always @(*)
	if (f_past_valid && !rst && !rd_wait &&
	    (f_reading && f_phv || state == S_WR_HI || state == S_WR_LO))
		assert (f_word_addr == phv_raddr);

// The field's bits in its first word and in the second: bit 63 - p of a word is the field's
// when p (from the top) is at or past f_bit and before f_end (f_end - 64 in the second word).
reg [63:0] f_in_hi, f_in_lo;
integer f_p;
always @(*)
	for (f_p = 0; f_p < 64; f_p = f_p + 1) begin
		f_in_hi[63 - f_p] = f_p >= f_bit && f_p < f_end;
		f_in_lo[63 - f_p] = f_p + 64 < f_end;
	end
// the value's width bits (src_hi may hold more)
wire [127:0] f_value_placed = {64'd0, src_hi & f_mask} << (8'd128 - {1'b0, f_end});
always @(*)
	if (!rst && (state == S_WR_HI || state == S_WR_LO)) begin
		assert (w_mask_hi == f_in_hi);
		if (f_cross)
			assert (w_mask_lo == f_in_lo);
		assert ((w_rot & w_mask_hi) == f_value_placed[127:64]);
		if (f_cross)
			assert ((w_rot & w_mask_lo) == f_value_placed[63:0]);
	end
always @(*)
	if (!rst && phv_we) begin
		assert ((phv_wdata & ~(state == S_WR_LO ? f_in_lo : f_in_hi)) ==
			(phv_word & ~(state == S_WR_LO ? f_in_lo : f_in_hi)));
		assert ((phv_wdata & (state == S_WR_LO ? f_in_lo : f_in_hi)) ==
			(state == S_WR_LO ? f_value_placed[63:0] : f_value_placed[127:64]));
	end

// an operand: its field's bits shifted out of the word(s) it was read from
reg [63:0] f_first_word;
always @(posedge clk)
	if (state == S_OPND_HI)
		f_first_word <= rot_in;
wire [127:0] f_words = {state == S_OPND_LO ? f_first_word : rot_in, rot_in};
wire [127:0] f_shifted = state == S_OPND_LO ? f_words >> (8'd128 - {1'b0, f_end}) :
	{64'd0, rot_in >> (7'd64 - f_end)};
wire [127:0] f_first_turned = {f_first_word, f_first_word} >> rot_by;
always @(*)
	if (!rst && state == S_OPND_LO)	// (the first word held through S_OPND_LO's wait)
		assert (part == f_first_turned[63:0]);
always @(*)
	if (!rst && (state == S_OPND_LO || (state == S_OPND_HI && !f_cross)))
		assert (opnd_val == (f_shifted[63:0] & f_mask));

// the field's width is what its mask says: f_end - f_bit low bits
always @(*)
	if (!rst && (f_reading || f_writing)) begin
		assert (f_end > {1'b0, f_bit});
		assert (rot_by == (f_reading ? 6'd0 - f_end[5:0] : f_end[5:0]));
		assert (f_second == (state == S_OPND_LO));
		if (state == S_OPND_LO || state == S_WR_LO)
			assert (f_cross);
		assert (f_mask == low_ones(f_end - {1'b0, f_bit}));
	end

always @(posedge clk) begin
	cover (state == S_WR_LO);
	cover (state == S_OPND_LO && !f_phv);
	cover (m_valid && m_exit);
	cover (m_valid && m_extern);
end
generate if (EXTERNS != 0) begin : g_cover_externs
	always @(posedge clk)
		cover (state == S_EXTERN && x_done && op == OP_REG_READ);
end endgenerate
`endif

endmodule

`resetall
