// SPDX-License-Identifier: Apache-2.0
// pisa_stage: one table of an image applied to a PHV, as pisa-model's model_run_tables applies
// it (docs/rtl-core.md, "Towards the pipeline"): the key looked up in the stage's exact or
// ternary unit (pisa_stage_match) or no lookup for a keyless table, the hit row's action or the
// table's default row's run on the PHV (pisa_action_unit), and the next table chosen by the
// table's next mode. pisa_core does not use it yet.
//
// The PHV (s_*, m_*) moves as PHV_BYTES / 8 words of 64 bits, byte 0 in the top bits of the
// first word, with the table it goes to next (s_next, taken with the first word; m_next held
// with every word out). A PHV whose next is not this stage's table (cfg_table) leaves unchanged
// with its next; otherwise, as the model does:
//   - the row: the lookup's hit row, else the default row (cfg_default_*; a keyless table
//     always takes it); an invalid default row runs no action;
//   - the action: the row's action id through the action memory (w_act_*: per id, whether the
//     table lists it, its first instruction, its instruction count and, for next mode ACTION,
//     the next table) to its instructions in the instruction memory (w_insn_*), with the row's
//     action data; an id the table does not list, or one past ACTIONS, runs nothing;
//   - the next table (cfg_next_mode, lib/pisa_image.h's enum pisa_next_mode): HITMISS hit ?
//     next_hit : next_miss; ACTION the action's next, next_miss when none ran; COND the field
//     cfg_cond_* read after the action != 0 ? next_hit : next_miss. EXIT, or a next at or before
//     this table (the model lets next pointers go forward only), ends the pass: 16'hFFFF.
// The action's COUNT, REG_READ and REG_WRITE work on the stage's counters and registers
// (pisa_stage_externs: cfg_reg_*, cfg_cnt_*, their cells read and written through x_ctl_*
// between instructions). A table with a direct counter (cfg_direct_counter, one of those
// counters with a cell per row) counts the row that hit before its action runs, as the model
// does: a COUNT of the row's index with the PHV's packet_length. m_hit: the lookup hit a row.
// m_extern: the action ran an instruction the stage does not run yet (COPYHDR, METER, DMETER,
// HASH, RANDOM, DIGEST: pisa_action_unit's m_extern).
// Configuration (cfg_*) holds while a PHV is in the stage; memories and rows are written
// between PHVs (the exact and ternary units' row ports are pisa_stage_match's).
// BANKS PHV memories in a ring: one PHV's words come in, another's lookup and action run and a
// third's words go out at the same time (BANKS = 3); PHVs leave in the order they came.
// Stream contract as everywhere in hw/: a word moves when valid && ready at a rising edge.
`default_nettype none

module pisa_stage #(
	parameter [8*5-1:0] FAMILY = "sim",	// pisa_ram_2clk's: "sim", "ice40" or "ecp5"
	parameter PHV_BYTES = 256,		// a power of 2, >= 128 (pisa_action_unit's)
	parameter FIELDS = 8,			// most key fields
	parameter KEY_BYTES = 8,		// longest key, both units
	parameter WAYS = 2,			// the exact unit's ways and rows per way (2^WAY_BITS)
	parameter WAY_BITS = 8,
	parameter ENTRIES = 32,			// the ternary unit's rows and key pieces
	parameter CHUNK_BITS = 8,
	parameter DATA_BYTES = 8,		// action data per row
	parameter ACTIONS = 16,			// action memory: ids 0 .. ACTIONS - 1, a power of 2
	parameter IA = 8,			// instruction memory address bits
	parameter BANKS = 3,			// PHV memories, 1 .. 4
	parameter XA = 6,			// register and counter cells: 2^XA words
	parameter NREGS = 4,			// register ids 0 .. NREGS - 1
	parameter NCOUNTERS = 4,		// counter ids 0 .. NCOUNTERS - 1
	parameter PA = $clog2(PHV_BYTES),				// (derived)
	parameter PW = PA - 3,						// (derived)
	parameter FI_W = $clog2(FIELDS + 1),				// (derived)
	parameter WAY_W = WAYS > 1 ? $clog2(WAYS) : 1,			// (derived)
	parameter IDX_W = $clog2(ENTRIES),				// (derived)
	parameter NB_W = $clog2(KEY_BYTES + 1),				// (derived)
	parameter AB = $clog2(ACTIONS),					// (derived)
	parameter BI = BANKS > 1 ? $clog2(BANKS) : 1			// (derived)
) (
	input  wire                    clk,
	input  wire                    rst,

	input  wire [15:0]             cfg_table,	// this table's id
	input  wire [1:0]              cfg_kind,	// 0 exact, 1 ternary, 2 keyless
	input  wire [FI_W-1:0]         cfg_nfields,	// the key (pisa_key_gather's)
	input  wire [16*FIELDS-1:0]    cfg_off,
	input  wire [7*FIELDS-1:0]     cfg_width,
	input  wire [1:0]              cfg_next_mode,
	input  wire [15:0]             cfg_next_hit,
	input  wire [15:0]             cfg_next_miss,
	input  wire [PA+2:0]           cfg_cond_off,	// COND: the field's bit offset, 1 .. 64 bits
	input  wire [6:0]              cfg_cond_width,
	input  wire                    cfg_default_valid,
	input  wire [15:0]             cfg_default_action,
	input  wire [8*DATA_BYTES-1:0] cfg_default_data,
	input  wire [XA*NREGS-1:0]     cfg_reg_base,	// pisa_stage_externs' layout
	input  wire [(XA+1)*NREGS-1:0] cfg_reg_size,
	input  wire [7*NREGS-1:0]      cfg_reg_width,
	input  wire [XA*NCOUNTERS-1:0] cfg_cnt_base,
	input  wire [(XA+1)*NCOUNTERS-1:0] cfg_cnt_size,
	input  wire [2*NCOUNTERS-1:0]  cfg_cnt_kind,
	input  wire [15:0]             cfg_direct_counter,	// its counter id, 16'hFFFF none

	input  wire [AB-1:0]           w_act_id,	// the action memory, written in one clock
	input  wire                    w_act_listed,
	input  wire [IA-1:0]           w_act_insn,
	input  wire [15:0]             w_act_ninsns,
	input  wire [15:0]             w_act_next,
	input  wire                    w_act_valid,
	input  wire [IA-1:0]           w_insn_addr,	// the instruction memory: docs/hwconf.md's
	input  wire [255:0]            w_insn_data,	// record, w0 in the top bits
	input  wire                    w_insn_valid,

	input  wire [WAY_W-1:0]        we_way,
	input  wire [WAY_BITS-1:0]     we_bucket,
	input  wire                    we_row_valid,
	input  wire [15:0]             we_action,
	input  wire [8*KEY_BYTES-1:0]  we_key,
	input  wire [8*DATA_BYTES-1:0] we_data,
	input  wire                    we_valid,
	output wire                    we_ready,
	input  wire [IDX_W-1:0]        wt_index,
	input  wire [NB_W-1:0]         wt_nbytes,
	input  wire                    wt_row_valid,
	input  wire [15:0]             wt_action,
	input  wire [8*KEY_BYTES-1:0]  wt_value,
	input  wire [8*KEY_BYTES-1:0]  wt_mask,
	input  wire [8*DATA_BYTES-1:0] wt_data,
	input  wire                    wt_valid,
	output wire                    wt_ready,

	input  wire                    x_ctl_valid,	// a register or counter word
	output wire                    x_ctl_ready,
	input  wire                    x_ctl_write,
	input  wire [XA-1:0]           x_ctl_addr,
	input  wire [63:0]             x_ctl_wdata,
	output wire                    x_ctl_rvalid,	// (a read's word, later)
	output wire [63:0]             x_ctl_rdata,

	input  wire [15:0]             s_next,
	input  wire [63:0]             s_data,
	input  wire                    s_valid,
	output wire                    s_ready,

	output wire [15:0]             m_next,
	output wire                    m_hit,
	output wire                    m_extern,
	output wire [63:0]             m_data,
	output wire                    m_valid,
	input  wire                    m_ready
);

localparam DATA_W = 8 * DATA_BYTES;
localparam [15:0] END = 16'hFFFF;
localparam [1:0] KIND_KEYLESS = 2'd2, NEXT_ACTION = 2'd1, NEXT_COND = 2'd2;
localparam [3:0] S_IDLE = 4'd0, S_LOOK = 4'd1, S_MATCH = 4'd2, S_ROW = 4'd3, S_ACT = 4'd4,
	S_RUN = 4'd5, S_DECIDE = 4'd6, S_COND = 4'd7, S_COND_HI = 4'd8, S_FINISH = 4'd9,
	S_COND_WAIT = 4'd10, S_COUNT = 4'd11, S_COUNT_WAIT = 4'd12;
localparam [7:0] OP_COUNT = 8'd29;
localparam [PW-1:0] PACKET_LENGTH_WORD = 2;	// lib/pisa_image.h: its 32 bits at bit 128

// ---- the PHV memories: a ring of banks that the input fills, the work (lookup, action,
// condition) then changes and the output empties, each in turn; per bank the PHV's next table,
// then its hit and extern flags ----
reg [BI-1:0] in_bank, out_bank;
localparam [31:0] LAST_BANK = BANKS - 1;
function [BI-1:0] next_bank(input [BI-1:0] b);
	next_bank = {{32-BI{1'b0}}, b} == LAST_BANK ? {BI{1'b0}} : b + 1'b1;
endfunction
reg [PW-1:0] in_addr, out_addr, cond_addr;
reg [BANKS-1:0] full, done;		// a PHV in the bank; its work done
reg [16*BANKS-1:0] bank_next;
reg [BANKS-1:0] bank_hit, bank_extern;

reg [3:0] state;			// the work's
reg [AB-1:0] act_id;		// the action memory's read address
reg act_some;			// a valid row chose an action id below ACTIONS
reg [DATA_W-1:0] act_data;
reg hit, exited, ext, cond;

// The work's readers (the key gatherer, the action unit, the condition) take turns on the
// work bank's read port, their address registers through a mux: a LUT RAM, read in the cycle
// after each sets its address, as from a pisa_ram. The output reads the other banks.
wire [PA-1:0] match_raddr;
wire [PW-1:0] au_raddr, au_waddr;
wire [63:0] au_wdata;
wire au_we;
wire in_word = s_valid && s_ready;
wire out_word = m_valid && m_ready;
// Per bank, which reader's address its read port takes, one-hot registers set with the state
// (go), and the work bank one-hot (work_at): decoded from the state and a bank number they were
// the front and middle of the stage's longest path (an operand's read).
reg [BANKS-1:0] work_at, look_at, act_at, cond_at;
wire [64*BANKS-1:0] bank_rdata;
genvar gb;
generate for (gb = 0; gb < BANKS; gb = gb + 1) begin : g_bank
	wire filling = in_bank == gb;
	pisa_ram #(.WIDTH(64), .DEPTH(PHV_BYTES / 8)) u_phv (
		.clk(clk), .we(filling && in_word || act_at[gb] && au_we),
		.waddr(filling && in_word ? in_addr : au_waddr),
		.wdata(filling && in_word ? s_data : au_wdata),
		.raddr(act_at[gb] ? au_raddr : look_at[gb] ? match_raddr[PA-1:3] :
			cond_at[gb] ? cond_addr : out_addr),
		.rdata(bank_rdata[64 * gb +: 64])
	);
end endgenerate
reg [63:0] phv_word;			// the work bank's word read
integer bk;
always @(*) begin
	phv_word = 64'd0;
	for (bk = 0; bk < BANKS; bk = bk + 1)
		if (work_at[bk])
			phv_word = phv_word | bank_rdata[64 * bk +: 64];
end
wire [7:0] match_rdata = phv_word[8 * (7 - match_raddr[2:0]) +: 8];
// the condition's word, registered before its bits are tested (the read, the banks' mux and the
// test in one clock were the stage's longest path): read two clocks after its address is set
reg [63:0] cond_word;
always @(posedge clk)
	cond_word <= phv_word;
reg [15:0] work_next;			// the work bank's next table
integer bn;
always @(*) begin
	work_next = 16'd0;
	for (bn = 0; bn < BANKS; bn = bn + 1)
		if (work_at[bn])
			work_next = work_next | bank_next[16 * bn +: 16];
end

assign s_ready = !full[in_bank];
assign m_valid = done[out_bank];
assign m_data = bank_rdata[64 * out_bank +: 64];
assign m_next = bank_next[16 * out_bank +: 16];
assign m_hit = bank_hit[out_bank];
assign m_extern = bank_extern[out_bank];

// ---- the match ----
wire start_ready, mt_hit, mt_valid, mt_ternary, mt_too_long;
wire [15:0] mt_action;
wire [DATA_W-1:0] mt_data;
localparam ROW_W = WAY_W + WAY_BITS > IDX_W ? WAY_W + WAY_BITS : IDX_W;
wire [ROW_W-1:0] mt_index;	// the row: the model's row number, the direct counter's cell
// a key longer than KEY_BYTES (the image's loader refuses it) misses
wire _unused_match = &{1'b0, mt_ternary, mt_too_long, 1'b0};
pisa_stage_match #(.FAMILY(FAMILY), .PHV_BYTES(PHV_BYTES), .FIELDS(FIELDS),
	.KEY_BYTES(KEY_BYTES), .WAYS(WAYS), .WAY_BITS(WAY_BITS), .ENTRIES(ENTRIES),
	.CHUNK_BITS(CHUNK_BITS), .DATA_BYTES(DATA_BYTES)) u_match (
	.clk(clk), .rst(rst),
	.cfg_ternary(cfg_kind[0]), .cfg_nfields(cfg_nfields), .cfg_off(cfg_off),
	.cfg_width(cfg_width), .s_start_valid(state == S_LOOK), .s_start_ready(start_ready),
	.phv_raddr(match_raddr), .phv_rdata(match_rdata),
	.we_way(we_way), .we_bucket(we_bucket), .we_row_valid(we_row_valid),
	.we_action(we_action), .we_key(we_key), .we_data(we_data), .we_valid(we_valid),
	.we_ready(we_ready),
	.wt_index(wt_index), .wt_nbytes(wt_nbytes), .wt_row_valid(wt_row_valid),
	.wt_action(wt_action), .wt_value(wt_value), .wt_mask(wt_mask), .wt_data(wt_data),
	.wt_valid(wt_valid), .wt_ready(wt_ready),
	.m_ternary(mt_ternary), .m_hit(mt_hit), .m_too_long(mt_too_long), .m_index(mt_index),
	.m_action(mt_action),
	.m_data(mt_data), .m_valid(mt_valid), .m_ready(state == S_MATCH)
);

// ---- the action memory and the instructions ----
wire [IA-1:0] act_insn, insn_raddr;
wire [15:0] act_ninsns, act_next;
wire act_listed;
wire [255:0] insn_rdata;
pisa_ram #(.WIDTH(1 + IA + 32), .DEPTH(ACTIONS)) u_actions (
	.clk(clk), .we(w_act_valid), .waddr(w_act_id),
	.wdata({w_act_listed, w_act_insn, w_act_ninsns, w_act_next}),
	.raddr(act_id), .rdata({act_listed, act_insn, act_ninsns, act_next})
);
// the row's action runs: its record holds until the next PHV's row is chosen
wire ran = act_some && act_listed;
pisa_ram #(.WIDTH(256), .DEPTH(1 << IA)) u_insns (
	.clk(clk), .we(w_insn_valid), .waddr(w_insn_addr), .wdata(w_insn_data),
	.raddr(insn_raddr), .rdata(insn_rdata)
);

wire au_ready, au_exit, au_extern, au_valid;
wire au_x_start, au_x_sgn, x_done;
wire [7:0] au_x_op;
wire [15:0] au_x_imm;
wire [63:0] au_x_a, au_x_b, x_result;
wire [6:0] x_a_width, x_b_width;
pisa_action_unit #(.PHV_BYTES(PHV_BYTES), .DATA_BYTES(DATA_BYTES), .IA(IA), .EXTERNS(1))
u_action (
	.clk(clk), .rst(rst),
	.s_insn(act_insn), .s_ninsns(act_ninsns), .s_data(act_data),
	.s_valid(state == S_ACT), .s_ready(au_ready),
	.insn_raddr(insn_raddr), .insn_rdata(insn_rdata),
	.phv_raddr(au_raddr), .phv_rdata(phv_word),
	.phv_we(au_we), .phv_waddr(au_waddr), .phv_wdata(au_wdata),
	.x_start(au_x_start), .x_op(au_x_op), .x_imm(au_x_imm), .x_sgn(au_x_sgn), .x_a(au_x_a),
	.x_a_width(x_a_width), .x_b(au_x_b), .x_b_width(x_b_width), .x_done(x_done),
	.x_result(x_result),
	.m_exit(au_exit), .m_extern(au_extern), .m_valid(au_valid), .m_ready(state == S_RUN)
);

// The externs run the action unit's instructions and the direct counter's COUNT (the unit is
// idle then): unsigned, so the widths go unused.
reg direct_start, direct_run;		// x_start; the COUNT runs (its operands held)
reg [ROW_W-1:0] direct_row;
reg [31:0] direct_length;		// the PHV's packet_length
pisa_stage_externs #(.XA(XA), .NREGS(NREGS), .NCOUNTERS(NCOUNTERS)) u_externs (
	.clk(clk), .rst(rst),
	.cfg_reg_base(cfg_reg_base), .cfg_reg_size(cfg_reg_size), .cfg_reg_width(cfg_reg_width),
	.cfg_cnt_base(cfg_cnt_base), .cfg_cnt_size(cfg_cnt_size), .cfg_cnt_kind(cfg_cnt_kind),
	.x_start(au_x_start || direct_start), .x_op(direct_run ? OP_COUNT : au_x_op),
	.x_imm(direct_run ? cfg_direct_counter : au_x_imm), .x_sgn(au_x_sgn && !direct_run),
	.x_a(direct_run ? {{64-ROW_W{1'b0}}, direct_row} : au_x_a), .x_a_width(x_a_width),
	.x_b(direct_run ? {32'd0, direct_length} : au_x_b), .x_b_width(x_b_width),
	.x_done(x_done), .x_result(x_result),
	.c_valid(x_ctl_valid), .c_ready(x_ctl_ready), .c_write(x_ctl_write), .c_addr(x_ctl_addr),
	.c_wdata(x_ctl_wdata), .c_rvalid(x_ctl_rvalid), .c_rdata(x_ctl_rdata)
);

// ---- the condition field's bits in its first word and the next (big-endian bit numbers:
// PHV bit k of a word is its bit 63 - k) ----
wire [5:0] cond_bit = cfg_cond_off[5:0];
wire [6:0] cond_end = {1'b0, cond_bit} + cfg_cond_width;	// 1 .. 127
wire [63:0] cond_lo_mask = {64{1'b1}} >> cond_bit & ~({64{1'b1}} >> cond_end);
wire [63:0] cond_hi_mask = ~({64{1'b1}} >> (cond_end - 7'd64));
wire cond_crosses = cond_end > 7'd64;

// the work's next state, the readers' turns in it, and the condition's first word for S_DECIDE
task go(input [3:0] next);
begin
	state <= next;
	look_at <= next == S_LOOK || next == S_MATCH ? work_at : {BANKS{1'b0}};
	act_at <= next == S_ACT || next == S_RUN ? work_at : {BANKS{1'b0}};
	// the condition's: every other state of the work (S_ROW, S_DECIDE .. S_COUNT_WAIT)
	cond_at <= next == S_ROW || next >= S_DECIDE ? work_at : {BANKS{1'b0}};
	if (next == S_DECIDE)	// the condition's first word, read in S_DECIDE
		cond_addr <= cfg_cond_off[PA+2:6];
	if (next == S_ROW)	// the direct counter's packet_length, read in S_ROW
		cond_addr <= PACKET_LENGTH_WORD;
end
endtask

// the row's action id within the action memory, or none
task choose(input some, input [15:0] id, input [DATA_W-1:0] data);
begin
	act_some <= some && {16'd0, id} < ACTIONS;
	act_id <= id[AB-1:0];
	act_data <= data;
	go(S_ROW);
end
endtask

reg [15:0] nx;
always @(*) begin
	case (cfg_next_mode)
	NEXT_ACTION: nx = ran ? act_next : cfg_next_miss;
	NEXT_COND:   nx = cond ? cfg_next_hit : cfg_next_miss;
	default:     nx = hit ? cfg_next_hit : cfg_next_miss;
	endcase
end

// the work bank's PHV is done: its next table and flags, and the next bank's turn
integer bf;
task finish(input [15:0] next, input hit_flag, input extern_flag);
begin
	for (bf = 0; bf < BANKS; bf = bf + 1)
		if (work_at[bf]) begin
			bank_next[16 * bf +: 16] <= next;
			bank_hit[bf] <= hit_flag;
			bank_extern[bf] <= extern_flag;
			done[bf] <= 1'b1;
		end
	work_at <= work_at << 1 | work_at >> (BANKS - 1);
	go(S_IDLE);
end
endtask

always @(posedge clk) begin
	direct_start <= 1'b0;
	// the input
	if (in_word) begin
		if (in_addr == 0)
			bank_next[16 * in_bank +: 16] <= s_next;
		in_addr <= in_addr + 1'b1;
		if (&in_addr) begin
			full[in_bank] <= 1'b1;
			in_bank <= next_bank(in_bank);
		end
	end
	// the output
	if (out_word) begin
		out_addr <= out_addr + 1'b1;
		if (&out_addr) begin
			full[out_bank] <= 1'b0;
			done[out_bank] <= 1'b0;
			out_bank <= next_bank(out_bank);
		end
	end
	// the work
	case (state)
	S_IDLE:
		if (|(full & ~done & work_at)) begin
			hit <= 1'b0;
			exited <= 1'b0;
			ext <= 1'b0;
			if (work_next != cfg_table)	// not this table's: out as it came
				finish(work_next, 1'b0, 1'b0);
			else if (cfg_kind == KIND_KEYLESS)
				choose(cfg_default_valid, cfg_default_action, cfg_default_data);
			else
				go(S_LOOK);
		end
	S_LOOK:
		if (start_ready)
			go(S_MATCH);
	S_MATCH:
		if (mt_valid) begin
			hit <= mt_hit;
			direct_row <= mt_index;
			if (mt_hit)
				choose(1'b1, mt_action, mt_data);
			else
				choose(cfg_default_valid, cfg_default_action, cfg_default_data);
		end
	S_ROW:	// the action memory's record is read
		go(hit && cfg_direct_counter != 16'hFFFF ? S_COUNT : ran ? S_ACT : S_DECIDE);
	S_COUNT: begin		// the direct counter's COUNT
		direct_length <= cond_word[63:32];
		direct_start <= 1'b1;
		direct_run <= 1'b1;
		go(S_COUNT_WAIT);
	end
	S_COUNT_WAIT:
		if (x_done) begin
			direct_run <= 1'b0;
			go(ran ? S_ACT : S_DECIDE);
		end
	S_ACT:
		if (au_ready)
			go(S_RUN);
	S_RUN:
		if (au_valid) begin
			exited <= au_exit;
			ext <= au_extern;
			go(S_DECIDE);
		end
	S_DECIDE:	// the condition's first word read (after the action), or none to read
		go(cfg_next_mode == NEXT_COND && !exited ? S_COND : S_FINISH);
	S_COND: begin
		cond <= |(cond_word & cond_lo_mask);
		cond_addr <= cond_addr + 1'b1;
		go(cond_crosses ? S_COND_WAIT : S_FINISH);
	end
	S_COND_WAIT:	// the second word read
		go(S_COND_HI);
	S_COND_HI: begin
		cond <= cond || |(cond_word & cond_hi_mask);
		go(S_FINISH);
	end
	default:	// S_FINISH
		finish((exited || nx <= cfg_table) ? END : nx, hit, ext);
	endcase
	if (rst) begin
		go(S_IDLE);
		in_bank <= 0;
		work_at <= 1;
		out_bank <= 0;
		in_addr <= 0;
		out_addr <= 0;
		full <= 0;
		done <= 0;
		direct_run <= 1'b0;
		direct_start <= 1'b0;
	end
end

endmodule

`resetall
