// SPDX-License-Identifier: Apache-2.0
// tb_pisa_stage: tables applied to PHVs by pisa_stage (lookup, action, next table) against
// tests/stage/gen_stage_vectors (STAGE_VECTORS, its header gives the format): pisa-model's
// model_run_tables on images of one table, in sections that each configure the stage anew (an
// exact, a ternary or a keyless table with each next mode), or with STAGES > 1 on images of
// STAGES tables, table i on the i-th of STAGES stages in a row (the generator's --chain
// format). Per section the action memories, instructions and every row are written, then the
// PHVs go in, a word at a time with random idle clocks, and every word out and its next table
// (one stage: also its hit and extern flags) must be the model's. One stage: the section also
// lays out the registers and counters (pisa_stage_externs; in some sections one of them the
// table's direct counter), whose cells are written through the stage's control port before the
// PHVs and read back after them, every one as the model left it.
// The sink is randomly not ready a quarter of the time; a held output must not change. With
// +fast the source and the sink never wait, for the clocks a PHV takes (the PASSED line's
// clocks a PHV: from a section's first word in to its last word out, over its PHVs). Prints
// PASSED TB_NAME (N PHVs, ... clocks) or FAILED.
`default_nettype none

`ifndef TB_NAME
`define TB_NAME "tb_pisa_stage"
`endif
`ifndef STAGE_VECTORS
`define STAGE_VECTORS "build/sim/stage/pisa_stage.hex"
`endif
`ifndef PHV_BYTES
`define PHV_BYTES 256
`endif
`ifndef FIELDS
`define FIELDS 8
`endif
`ifndef KEY_BYTES
`define KEY_BYTES 8
`endif
`ifndef WAYS
`define WAYS 2
`endif
`ifndef WAY_BITS
`define WAY_BITS 6
`endif
`ifndef ENTRIES
`define ENTRIES 32
`endif
`ifndef DATA_BYTES
`define DATA_BYTES 8
`endif
`ifndef ACTIONS
`define ACTIONS 16
`endif
`ifndef IA
`define IA 8
`endif
`ifndef CHUNK_BITS
`define CHUNK_BITS 8
`endif
`ifndef BANKS
`define BANKS 3
`endif
`ifndef STAGES
`define STAGES 1
`endif
`ifndef XA
`define XA 9
`endif
`ifndef NREGS
`define NREGS 4
`endif
`ifndef NCOUNTERS
`define NCOUNTERS 4
`endif

module tb_pisa_stage;

localparam PHV_BYTES = `PHV_BYTES, FIELDS = `FIELDS, KEY_BYTES = `KEY_BYTES, WAYS = `WAYS,
	WAY_BITS = `WAY_BITS, ENTRIES = `ENTRIES, DATA_BYTES = `DATA_BYTES, ACTIONS = `ACTIONS,
	IA = `IA, CHUNK_BITS = `CHUNK_BITS, BANKS = `BANKS, STAGES = `STAGES, XA = `XA,
	NREGS = `NREGS, NCOUNTERS = `NCOUNTERS;
localparam PA = $clog2(PHV_BYTES), FI_W = $clog2(FIELDS + 1), AB = $clog2(ACTIONS);
localparam WAY_W = WAYS > 1 ? $clog2(WAYS) : 1, IDX_W = $clog2(ENTRIES);
localparam NB_W = $clog2(KEY_BYTES + 1);
localparam WORDS = PHV_BYTES / 8, MAX_CASES = 1024;

reg clk = 1'b0;
always #5 clk = !clk;
reg rst = 1'b1;

// the memories' and rows' write ports (shared: the stage cur takes the writes)
integer cur = 0;
reg [AB-1:0] w_act_id = 0;
reg w_act_listed = 1'b0, w_act_valid = 1'b0, w_insn_valid = 1'b0;
reg [IA-1:0] w_act_insn = 0, w_insn_addr = 0;
reg [15:0] w_act_ninsns = 0, w_act_next = 0;
reg [255:0] w_insn_data = 0;
`include "tb_stage_rows.vh"
wire [STAGES-1:0] we_ready_s, wt_ready_s;
wire we_ready = we_ready_s[cur], wt_ready = wt_ready_s[cur];

// each stage's configuration, as read from the file
reg [15:0] table_s [0:STAGES-1], next_hit_s [0:STAGES-1], next_miss_s [0:STAGES-1],
	default_action_s [0:STAGES-1], direct_s [0:STAGES-1];
reg [1:0] kind_s [0:STAGES-1], next_mode_s [0:STAGES-1];
reg [FI_W-1:0] nfields_s [0:STAGES-1];
reg [16*FIELDS-1:0] off_s [0:STAGES-1];
reg [7*FIELDS-1:0] width_s [0:STAGES-1];
reg [PA+2:0] cond_off_s [0:STAGES-1];
reg [6:0] cond_width_s [0:STAGES-1];
reg default_valid_s [0:STAGES-1];
reg [8*DATA_BYTES-1:0] default_data_s [0:STAGES-1];
integer st;
// the registers' and counters' layout (one stage: a chain's stages have none) and the
// control port (stage 0's)
`define TB_VECTORS `STAGE_VECTORS
`include "tb_stage_hex.vh"
`define TB_CELLS_READY x_ready_s[0]
`define TB_CELLS_RVALID x_rvalid_s[0]
`define TB_CELLS_RDATA x_rdata_s[63:0]
`include "tb_stage_cells.vh"
wire [STAGES-1:0] x_ready_s, x_rvalid_s;
wire [64*STAGES-1:0] x_rdata_s;

// the stages in a row: the PHV in at stage 0 (s_*), out of the last (m_*)
reg [15:0] s_next = 0;
reg [63:0] s_data = 0;
reg s_valid = 1'b0;
wire s_ready;
wire [15:0] m_next;
wire m_hit, m_extern, m_valid;
wire [63:0] m_data;
reg m_ready = 1'b1;
wire [15:0] next_c [0:STAGES];
wire [63:0] data_c [0:STAGES];
wire valid_c [0:STAGES], ready_c [0:STAGES], hit_c [0:STAGES], extern_c [0:STAGES];
assign next_c[0] = s_next;
assign data_c[0] = s_data;
assign valid_c[0] = s_valid;
assign s_ready = ready_c[0];
assign m_next = next_c[STAGES];
assign m_data = data_c[STAGES];
assign m_valid = valid_c[STAGES];
assign ready_c[STAGES] = m_ready;
assign m_hit = hit_c[STAGES];
assign m_extern = extern_c[STAGES];
genvar g;
generate for (g = 0; g < STAGES; g = g + 1) begin : g_stage
	pisa_stage #(.PHV_BYTES(PHV_BYTES), .FIELDS(FIELDS), .KEY_BYTES(KEY_BYTES), .WAYS(WAYS),
		.WAY_BITS(WAY_BITS), .ENTRIES(ENTRIES), .CHUNK_BITS(CHUNK_BITS),
		.DATA_BYTES(DATA_BYTES), .ACTIONS(ACTIONS), .IA(IA), .BANKS(BANKS), .XA(XA),
		.NREGS(NREGS), .NCOUNTERS(NCOUNTERS)) dut (
		.clk(clk), .rst(rst),
		.cfg_table(table_s[g]), .cfg_kind(kind_s[g]), .cfg_nfields(nfields_s[g]),
		.cfg_off(off_s[g]), .cfg_width(width_s[g]), .cfg_next_mode(next_mode_s[g]),
		.cfg_next_hit(next_hit_s[g]), .cfg_next_miss(next_miss_s[g]),
		.cfg_cond_off(cond_off_s[g]), .cfg_cond_width(cond_width_s[g]),
		.cfg_default_valid(default_valid_s[g]), .cfg_default_action(default_action_s[g]),
		.cfg_default_data(default_data_s[g]),
		.cfg_reg_base(reg_base), .cfg_reg_size(reg_size), .cfg_reg_width(reg_width),
		.cfg_cnt_base(cnt_base), .cfg_cnt_size(cnt_size), .cfg_cnt_kind(cnt_kind),
		.cfg_direct_counter(direct_s[g]),
		.x_ctl_valid(c_valid && cur == g), .x_ctl_ready(x_ready_s[g]),
		.x_ctl_write(c_write), .x_ctl_addr(c_addr), .x_ctl_wdata(c_wdata),
		.x_ctl_rvalid(x_rvalid_s[g]), .x_ctl_rdata(x_rdata_s[64 * g +: 64]),
		.w_act_id(w_act_id), .w_act_listed(w_act_listed), .w_act_insn(w_act_insn),
		.w_act_ninsns(w_act_ninsns), .w_act_next(w_act_next),
		.w_act_valid(w_act_valid && cur == g),
		.w_insn_addr(w_insn_addr), .w_insn_data(w_insn_data),
		.w_insn_valid(w_insn_valid && cur == g),
		.we_way(we_way), .we_bucket(we_bucket), .we_row_valid(w_row_valid),
		.we_action(w_action), .we_key(w_key), .we_data(w_data),
		.we_valid(we_valid && cur == g), .we_ready(we_ready_s[g]),
		.wt_index(wt_index), .wt_nbytes(wt_nbytes), .wt_row_valid(w_row_valid),
		.wt_action(w_action), .wt_value(w_key), .wt_mask(w_mask), .wt_data(w_data),
		.wt_valid(wt_valid && cur == g), .wt_ready(wt_ready_s[g]),
		.s_next(next_c[g]), .s_data(data_c[g]), .s_valid(valid_c[g]), .s_ready(ready_c[g]),
		.m_next(next_c[g + 1]), .m_hit(hit_c[g + 1]), .m_extern(extern_c[g + 1]),
		.m_data(data_c[g + 1]), .m_valid(valid_c[g + 1]), .m_ready(ready_c[g + 1])
	);
end endgenerate

// ---- what each PHV must leave as: its words, and {next, hit, extern} ----
reg [63:0] exp_word [0:MAX_CASES*WORDS-1];
reg [17:0] exp_flags [0:MAX_CASES-1];
integer q_in = 0, q_out = 0, w_out = 0, seed = 32'h73746167;
integer hits = 0, ended = 0, passed = 0, externs = 0, cells = 0, direct_hits = 0;
reg fast;
initial fast = $test$plusargs("fast");

// fail, the held-output check, drain (a section's last PHVs may take long behind the sink)
`define TB_RESULT {m_next, m_hit, m_extern, m_data}
`define TB_DRAIN_CLOCKS 100000
`include "tb_stage_check.vh"

always @(posedge clk) begin
	if (m_valid && m_ready) begin
		if (q_out >= q_in) begin
			fail("a word out without a PHV in");
		end else begin
			if (m_data !== exp_word[q_out * WORDS + w_out] ||
			    m_next !== exp_flags[q_out][17:2] ||
			    STAGES == 1 && {m_hit, m_extern} !== exp_flags[q_out][1:0]) begin
				errors = errors + 1;
				if (errors <= 10)
					$display("%0t: PHV %0d word %0d: got %h next %h hit %0d extern %0d, want %h next %h hit %0d extern %0d",
						$time, q_out, w_out, m_data, m_next, m_hit, m_extern,
						exp_word[q_out * WORDS + w_out], exp_flags[q_out][17:2],
						exp_flags[q_out][1], exp_flags[q_out][0]);
			end
			w_out = w_out + 1;
			if (w_out == WORDS) begin
				hits = hits + m_hit;
				direct_hits = direct_hits + (m_hit && direct_s[0] != 16'hFFFF);
				ended = ended + (m_next == 16'hFFFF);
				externs = externs + m_extern;
				w_out = 0;
				q_out = q_out + 1;
			end
		end
	end
	m_ready <= fast || ($random(seed) & 3) != 0;
end

initial begin
	#100000000;
	$display("FAILED %s: still running after 10,000,000 clocks (%0d of %0d PHVs out)",
		`TB_NAME, q_out, q_in);
	$finish;
end

integer k, n, s, nsections, ncases, c, t0, t1, busy = 0, total = 0;

task read_phv(input integer at);	// PHV_BYTES bytes into exp_word[at ..]
	begin
		for (i = 0; i < WORDS; i = i + 1)
			for (k = 0; k < 8; k = k + 1) begin
				read1;
				exp_word[at + i][8 * (7 - k) +: 8] = x[7:0];
			end
	end
endtask

// one stage's table (the stages are idle: every PHV of the last section is out): its
// configuration, action memory, instructions and every row, so none of the last section's is
// left
task read_stage(input integer which);
	begin
		cur = which;
		read_v(8);
		table_s[which] = v[0][15:0];
		kind_s[which] = v[1][1:0];
		next_mode_s[which] = v[2][1:0];
		next_hit_s[which] = v[3][15:0];
		next_miss_s[which] = v[4][15:0];
		cond_off_s[which] = v[5][PA+2:0];
		cond_width_s[which] = v[6][6:0];
		direct_s[which] = v[7][15:0];
		read1;
		n = x;
		nfields_s[which] = x[FI_W-1:0];
		off_s[which] = 0;
		width_s[which] = 0;
		for (i = 0; i < n; i = i + 1) begin
			read1;
			off_s[which][16 * i +: 16] = x[15:0];
			read1;
			width_s[which][7 * i +: 7] = x[6:0];
		end
		read_v(3);
		default_valid_s[which] = v[0][0];
		default_action_s[which] = v[1][15:0];
		default_data_s[which] = v[2][8*DATA_BYTES-1:0];
		// the action memory, then the instructions
		@(negedge clk);
		for (n = 0; n < ACTIONS; n = n + 1) begin
			read_v(4);
			w_act_id = n[AB-1:0];
			w_act_listed = v[0][0];
			w_act_insn = v[1][IA-1:0];
			w_act_ninsns = v[2][15:0];
			w_act_next = v[3][15:0];
			w_act_valid = 1'b1;
			@(negedge clk);
		end
		w_act_valid = 1'b0;
		read1;
		n = x;
		for (c = 0; c < n; c = c + 1) begin
			read_v(5);
			w_insn_addr = v[0][IA-1:0];
			w_insn_data = {v[1], v[2], v[3], v[4]};
			w_insn_valid = 1'b1;
			@(negedge clk);
		end
		w_insn_valid = 1'b0;
		// the rows
		read1;
		n = x;
		for (c = 0; c < n; c = c + 1) begin
			read_v(6);
			write_exact_row(v[0], v[1], v[2], v[3], v[4], v[5]);
		end
		read1;
		n = x;
		for (c = 0; c < n; c = c + 1) begin
			read_v(7);
			write_ternary_row(v[0], v[1], v[2], v[3], v[4], v[5], v[6]);
		end
	end
endtask

initial begin
	fd = $fopen(`STAGE_VECTORS, "r");
	if (fd == 0) begin
		$display("FAILED %s: cannot open %s", `TB_NAME, `STAGE_VECTORS);
		$finish;
	end
	repeat (3) @(posedge clk);
	rst <= 1'b0;
	t0 = $time;
	read1;
	nsections = x;
	for (s = 0; s < nsections; s = s + 1) begin
		if (STAGES > 1) begin
			read1;
			if (x != STAGES) begin
				$display("FAILED %s: a section of %0d stages, not %0d", `TB_NAME, x,
					STAGES);
				$finish;
			end
		end
		for (st = 0; st < STAGES; st = st + 1)
			read_stage(st);
		if (STAGES == 1)
			read_cells;
		// the PHVs: each read in full (before and after), then sent a word at a time
		read1;
		ncases = x;
		if (ncases >= MAX_CASES) begin
			$display("FAILED %s: %0d or more cases in a section", `TB_NAME, MAX_CASES);
			$finish;
		end
		q_in = 0;
		q_out = 0;
		t1 = $time;
		for (c = 0; c < ncases; c = c + 1) begin
			read1;
			s_next = x[15:0];
			read_phv(MAX_CASES * WORDS - WORDS);	// the PHV in, in the last slot
			if (STAGES > 1) begin	// the next only
				read1;
				exp_flags[c] = {x[15:0], 2'b00};
			end else begin		// hit, next, extern
				read_v(3);
				exp_flags[c] = {v[1][15:0], v[0][0], v[2][0]};
			end
			read_phv(c * WORDS);			// what must leave
			q_in = q_in + 1;
			passed = passed + (s_next != table_s[0]);
			for (n = 0; n < WORDS; n = n + 1) begin
				@(negedge clk);
				s_data = exp_word[MAX_CASES * WORDS - WORDS + n];
				s_valid = 1'b1;
				while (!s_ready)
					@(negedge clk);
				@(posedge clk);
				#1 s_valid = 1'b0;
				s_data = 64'bx;
				if (!fast && ($random(seed) & 7) == 0)
					repeat ($random(seed) & 3) @(negedge clk);
			end
		end
		drain;
		busy = busy + ($time - t1) / 10;
		if (STAGES == 1) begin
			check_cells("after the section,");
			cells = cells + (1 << XA);
		end
		total = total + ncases;
	end
	$fclose(fd);
	if (errors == 0 && STAGES > 1)
		$display("PASSED %s (%0d sections of %0d stages, %0d PHVs: %0d entered past the first stage's table, %0d ended the pass; %0d clocks, %0d.%0d a PHV)",
			`TB_NAME, nsections, STAGES, total, passed, ended, ($time - t0) / 10,
			busy / total, busy * 10 / total % 10);
	else if (errors == 0)
		$display("PASSED %s (%0d sections, %0d PHVs: %0d hits (%0d counted by a direct counter), %0d passed through, %0d ended the pass, %0d externs reported, %0d register and counter cells checked; %0d clocks, %0d.%0d a PHV)",
			`TB_NAME, nsections, total, hits, direct_hits, passed, ended, externs, cells,
			($time - t0) / 10,
			busy / total, busy * 10 / total % 10);
	else
		$display("FAILED %s: %0d errors (see above)", `TB_NAME, errors);
	$finish;
end

endmodule

`resetall
