// SPDX-License-Identifier: Apache-2.0
// pisa_core: the switch pipeline, first version: one sequential engine that runs a whole
// image (docs/architecture.md) pass by pass, bit-exact with pisa-model, so that every STF
// test and the differential tests can run on RTL while the streaming multi-stage pipeline of
// the board profiles is built. It is the golden RTL for that pipeline, not its final shape:
// memories are read combinationally (register files, not block RAM), one packet is in
// flight at a time, and each table, instruction and byte takes its own cycles
// (docs/performance.md has the cycle counts).
//
// Configuration: the words of lib/pisa_hwconf.c (docs/hwconf.md) are written on s_cfg_*
// into the bank that is not running, at any time; cfg_commit swaps the banks, empties every
// table, counter and register, writes the image's default rows, and the image runs.
// state_reset does the same without a swap. Both are taken between packets. Table rows, counters and registers change through the command beats of
// pisa_link_ctrl (s_cmd_*, one answer per op on m_rsp_*), taken only between packets, so a
// packet sees a row entirely old or entirely new.
//
// Implemented: the parser (extract, header stacks, advance, lookahead, select with masks),
// every ALU instruction (pisa_alu), validity, copy header, exit, drop, counters (indexed and
// direct), registers, hash units (CRC-16/32 with any parameters, csum16, xor16, identity,
// random), random, truncate, checksum verify and update (with payload), exact (hash ways) and
// ternary/lpm/range (row scan) tables, hit/miss, action_run and gateway control flow, ingress
// and egress passes, unicast, multicast (MC_GROUPS groups of MC_SLOT copies), drop, meters
// (indexed and direct, two-rate three-colour), digests (m_dig_*), I2E clones (the packet as
// it arrived, parsed again, to a session's port or group; the original waits in phv_orig).
// Not yet: E2E clones, resubmit, recirculate, varbit headers: lib/pisa_hwconf.c refuses
// images that use those.
//
// Packets: s_pkt_* carries one packet (port with every byte, s_pkt_last on the final one);
// now_us is the time stamp sampled with its first byte. m_pkt_* gives each packet that
// leaves, m_pkt_port its egress port. Stream contract as everywhere in hw/: a word moves
// when valid && ready at a rising clock edge; a source keeps valid and data until ready.
`default_nettype none

module pisa_core #(
	parameter CFG_WORDS = 65536,	// configuration words (lib/pisa_hwconf.h limits)
	parameter ROW_BYTES = 1048576,	// row memory of all tables
	parameter CNT_CELLS = 16384,	// counter cells (packets and bytes each)
	parameter REG_CELLS = 16384,	// register cells
	parameter KEY_BITS = 512,	// widest table key
	parameter PHV_MAX = 1024,	// PHV bytes
	parameter PKT_MAX = 4096,	// longest packet; longer ones are dropped and counted
	parameter ROW_STAGE = 1024,	// longest row (or multicast group) a command may write
	parameter STACKS = 64,		// header stacks
	parameter MC_GROUPS = 256,	// multicast groups 0 .. MC_GROUPS-1 ...
	parameter MC_SLOT = 16,		// ... of at most MC_SLOT copies each
	parameter DIG_MAX = 1024,	// longest digest, bytes (longer ones are cut)
	parameter MTR_CELLS = 4096,	// meter cells
	parameter CL_SESS = 1024	// clone (mirror) sessions
) (
	input  wire         clk,
	input  wire         rst,
	input  wire [47:0]  now_us,

	input  wire [15:0]  s_cfg_addr,
	input  wire [63:0]  s_cfg_data,
	input  wire         s_cfg_valid,
	output wire         s_cfg_ready,
	input  wire         cfg_commit,	// pulse: the staged words are an image, run it
	input  wire         state_reset,	// pulse: empty tables, counters, registers (RESET)
	output reg          loaded,
	output wire         idle,		// no packet, command or load in progress

	input  wire [3:0]   s_cmd_kind,
	input  wire [15:0]  s_cmd_id,
	input  wire [31:0]  s_cmd_index,
	input  wire [7:0]   s_cmd_flag,
	input  wire [15:0]  s_cmd_len,
	input  wire [31:0]  s_cmd_data,
	input  wire         s_cmd_last,
	input  wire         s_cmd_valid,
	output wire         s_cmd_ready,
	output reg  [7:0]   m_rsp_err,
	output reg  [63:0]  m_rsp_a,
	output reg  [63:0]  m_rsp_b,
	output reg          m_rsp_valid,
	input  wire         m_rsp_ready,

	input  wire [8:0]   s_pkt_port,
	input  wire [7:0]   s_pkt_data,
	input  wire         s_pkt_last,
	input  wire         s_pkt_valid,
	output wire         s_pkt_ready,
	output reg  [15:0]  m_pkt_port,
	output reg  [7:0]   m_pkt_data,
	output reg          m_pkt_last,
	output reg          m_pkt_valid,
	input  wire         m_pkt_ready,

	// digests (DIGEST): the field list's bytes, MSB first, zero padded
	output reg  [15:0]  m_dig_id,
	output reg  [7:0]   m_dig_data,
	output reg          m_dig_last,
	output reg          m_dig_valid,
	input  wire         m_dig_ready,

	output reg  [31:0]  cnt_rx,		// packets taken
	output reg  [31:0]  cnt_tx,		// packets sent
	output reg  [31:0]  cnt_drop,		// dropped by the program (or no image)
	output reg  [31:0]  cnt_oversize,	// longer than PKT_MAX
	output reg  [63:0]  cnt_cycles		// cycles spent on packets (benchmarks)
);

// ---- constants of the programming model (lib/pisa_image.h) ----
localparam [15:0] NEXT_END = 16'hFFFF, P_ACCEPT = 16'hFFFE, P_REJECT = 16'hFFFF;
localparam MAX_STEPS = 256;
localparam [3:0] K_PHV = 1, K_CONST = 2, K_ADATA = 3, K_PKT = 4;
localparam [7:0] OP_DIGEST = 40, OP_JZ = 23, OP_JNZ = 24, OP_SETVALID = 25, OP_SETINVALID = 26,
	OP_COPYHDR = 27, OP_EXIT = 28, OP_COUNT = 29, OP_REG_READ = 30, OP_REG_WRITE = 31,
	OP_METER = 32, OP_DMETER = 33, OP_HASH = 34, OP_RANDOM = 35, OP_CLONE = 36,
	OP_TRUNCATE = 39, OP_DROP = 41, OP_EXTRACT = 42, OP_EXTRACT_STACK = 43, OP_ADVANCE = 45;
localparam [31:0] E_TOO_SHORT = 1, E_NO_MATCH = 2, E_STACK = 3, E_TIMEOUT = 5, E_ARG = 6;
localparam [7:0] ERR_RANGE = 6, ERR_FULL = 8, ERR_INVAL = 10;
localparam [1:0] MEM_NONE = 0, MEM_HASH = 1;	// else TCAM
localparam [1:0] NX_ACTION = 1, NX_COND = 2;	// else hit/miss
localparam [7:0] M_RANGE = 3;
localparam OBUF = PKT_MAX + 2 * PHV_MAX;

// ---- memories ----
// Two banks: an image is staged in one while the other runs (cfg_commit swaps them).
reg [63:0] cfg  [0:2*CFG_WORDS-1];
reg bank;
reg [7:0]  rowm [0:ROW_BYTES-1];
reg [7:0]  phv  [0:PHV_MAX-1];
reg [7:0]  pkt  [0:PKT_MAX-1];
reg [7:0]  obuf [0:OBUF-1];
reg [63:0] cntp [0:CNT_CELLS-1];
reg [63:0] cntb [0:CNT_CELLS-1];
reg [63:0] regs [0:REG_CELLS-1];
reg [15:0] stk_next [0:STACKS-1];
reg [7:0]  rstage [0:ROW_STAGE-1];
reg [7:0]  phv_save [0:PHV_MAX-1];	// the PHV after ingress, for each multicast copy
reg [7:0]  phv_orig [0:PHV_MAX-1];	// the original's PHV while its I2E clone runs
// clone sessions: enabled, port (or a multicast group), truncation
reg        cs_en [0:CL_SESS-1];
reg [8:0]  cs_port [0:CL_SESS-1];
reg [15:0] cs_grp [0:CL_SESS-1];
reg [15:0] cs_trunc [0:CL_SESS-1];
reg [15:0] mc_n [0:MC_GROUPS-1];	// copies of each group
reg [15:0] mc_rid [0:MC_GROUPS*MC_SLOT-1];
reg [8:0]  mc_port [0:MC_GROUPS*MC_SLOT-1];
reg [7:0]  dbuf [0:DIG_MAX-1];		// the digest being assembled
// meter cells (two-rate three-colour, docs/architecture.md): configuration and buckets
reg        m_on  [0:MTR_CELLS-1];
reg [31:0] m_cir [0:MTR_CELLS-1];
reg [31:0] m_pir [0:MTR_CELLS-1];
reg [31:0] m_cbs [0:MTR_CELLS-1];
reg [31:0] m_pbs [0:MTR_CELLS-1];
reg [63:0] m_tc  [0:MTR_CELLS-1];
reg [63:0] m_tp  [0:MTR_CELLS-1];
reg [47:0] m_last [0:MTR_CELLS-1];

// ---- the image's header words (docs/hwconf.md), latched when it starts ----
reg [63:0] hw1, hw2, hw3, hw4, hw5, hw6, hw7, hw9;
wire [15:0] g_nheaders = hw1[63:48], g_nstates = hw1[47:32], g_ntables = hw1[31:16];
wire [15:0] g_phv_bytes = hw1[15:0];
wire [15:0] g_parser_start = hw2[63:48], g_ing_start = hw2[47:32];
wire [15:0] g_eg_start = hw2[31:16], g_ndeparse = hw2[15:0];
wire [15:0] g_ncsum = hw3[63:48], g_nstacks = hw3[47:32], g_nactions = hw3[31:16];
wire [15:0] g_ncounters = hw3[15:0];
wire [15:0] b_hdr = hw4[63:48], b_state = hw4[47:32], b_table = hw4[31:16];
wire [15:0] b_action = hw4[15:0];
wire [15:0] b_deparse = hw5[63:48], b_csum = hw5[47:32], b_flist = hw5[31:16];
wire [15:0] b_hash = hw5[15:0];
wire [15:0] b_counter = hw6[63:48], b_register = hw6[47:32], b_stack = hw6[31:16];
wire [15:0] g_nregisters = hw6[15:0];
wire [15:0] g_nhash = hw7[63:48], g_nflists = hw7[47:32];
wire [15:0] b_digest = hw9[63:48], g_ndigests = hw9[47:32];
wire [15:0] b_meter = hw9[31:16], g_nmeters = hw9[15:0];

// ---- helpers ----
// A word of the running image.
function [63:0] cw(input [31:0] a);
	cw = cfg[(bank ? CFG_WORDS : 0) + a];
endfunction

function [63:0] mask64(input [6:0] w);
	mask64 = w >= 64 ? {64{1'b1}} : (64'd1 << w) - 64'd1;
endfunction

// Bits [off, off + w) of a big-endian byte window (72 bits, byte 0 first).
function [63:0] win_bits(input [71:0] win, input [2:0] skip, input [6:0] w);
	reg [71:0] t;
	begin
		t = win << skip;
		win_bits = w == 0 ? 64'd0 : t[71:8] >> (64 - w);
	end
endfunction

// PHV field; zero outside the image's PHV (model_get).
// orig: read the saved original PHV (phv_orig) instead, for an I2E clone's kept fields.
function [63:0] phv_read(input orig, input [15:0] off, input [6:0] w);
	reg [71:0] win;
	integer i, b;
	begin
		b = {16'd0, off} >> 3;
		win = 72'd0;
		for (i = 0; i < 9; i = i + 1)
			win = {win[63:0], (b + i < PHV_MAX) ? (orig ? phv_orig[b + i] : phv[b + i]) : 8'h00};
		if (w == 0 || w > 64 || {16'd0, off} + {25'd0, w} > {16'd0, g_phv_bytes} * 8)
			phv_read = 64'd0;
		else
			phv_read = win_bits(win, off[2:0], w);
	end
endfunction

function [63:0] phv_get(input [15:0] off, input [6:0] w);
	phv_get = phv_read(1'b0, off, w);
endfunction

// Packet bits at bit offset off; bits past len read zero.
function [63:0] pkt_get(input [31:0] off, input [6:0] w, input [15:0] len);
	reg [71:0] win;
	integer i, b;
	begin
		b = off >> 3;
		win = 72'd0;
		for (i = 0; i < 9; i = i + 1)
			win = {win[63:0], (b + i < len && b + i < PKT_MAX) ? pkt[b + i] : 8'h00};
		pkt_get = win_bits(win, off[2:0], w);
	end
endfunction

// Action-data bits of the row that ran: base byte, db bytes; bits past db read zero.
function [63:0] ad_get(input [31:0] base, input [15:0] db, input [15:0] off, input [6:0] w);
	reg [71:0] win;
	integer i, b;
	begin
		b = {16'd0, off} >> 3;
		win = 72'd0;
		for (i = 0; i < 9; i = i + 1)
			win = {win[63:0], (b + i < db) ? rowm[base + b + i] : 8'h00};
		ad_get = win_bits(win, off[2:0], w);
	end
endfunction

function [7:0] rev8(input [7:0] v);
	integer i;
	for (i = 0; i < 8; i = i + 1)
		rev8[i] = v[7 - i];
endfunction

function [31:0] rev_w(input [31:0] v, input [5:0] width);
	integer i;
	begin
		rev_w = 32'd0;
		for (i = 0; i < 32; i = i + 1)
			if (i < width)
				rev_w[i] = v[{26'd0, width} - 1 - i];
	end
endfunction

// One byte of a CRC in its normal (MSB-first) form; a reflected CRC reflects input bytes
// and the result (lib/pisa_hash.c crc_generic).
function [31:0] crc_byte(input [31:0] crc, input [7:0] d, input [31:0] poly, input [5:0] width,
			 input refin);
	reg [31:0] c;
	integer k;
	begin
		c = crc ^ ({24'd0, refin ? rev8(d) : d} << (width - 8));
		for (k = 0; k < 8; k = k + 1)
			c = c[width - 1] ? (c << 1) ^ poly : c << 1;
		crc_byte = width == 32 ? c : c & 32'h0000FFFF;
	end
endfunction

function [31:0] way_poly(input [2:0] w);
	case (w)
	3'd0: way_poly = 32'h04C11DB7;
	3'd1: way_poly = 32'h1EDC6F41;
	3'd2: way_poly = 32'h741B8CD7;
	default: way_poly = 32'h814141AB;
	endcase
endfunction

// A field zero-extended to a key (its low KEY_BITS bits if the key is narrower, as
// assigning it would give).
function [KEY_BITS-1:0] key_ext(input [63:0] x);
	integer i;
	for (i = 0; i < KEY_BITS; i = i + 1)
		key_ext[i] = i < 64 && x[i[5:0]];
endfunction

function [63:0] be_get(input [31:0] base, input [3:0] n);
	integer i;
	begin
		be_get = 64'd0;
		for (i = 0; i < 8; i = i + 1)
			if (i < n)
				be_get = {be_get[55:0], rowm[base + i]};
	end
endfunction

// Writes v into PHV bits [off, off + w): only the bytes the field covers change, so
// writes to disjoint bytes may share a cycle.
task phv_put(input [15:0] off, input [6:0] w, input [63:0] v);
	reg [71:0] win, mk, nv;
	integer i, b, nb;
	begin
		b = {16'd0, off} >> 3;
		nb = ({29'd0, off[2:0]} + {25'd0, w} + 7) >> 3;
		win = 72'd0;
		for (i = 0; i < 9; i = i + 1)
			win = {win[63:0], (b + i < PHV_MAX) ? phv[b + i] : 8'h00};
		mk = {8'd0, mask64(w)} << (72 - {29'd0, off[2:0]} - {25'd0, w});
		nv = (win & ~mk) | (({8'd0, v & mask64(w)} << (72 - {29'd0, off[2:0]} - {25'd0, w})) & mk);
		if (w != 0 && w <= 64 && {16'd0, off} + {25'd0, w} <= {16'd0, g_phv_bytes} * 8)
			for (i = 0; i < 9; i = i + 1)
				if (i < nb)
					phv[b + i] <= nv[71 - 8 * i -: 8];
	end
endtask

// ---- top-level state ----
localparam [5:0]
	S_IDLE = 0, S_RX = 1, S_CLEAR = 2, S_ING_INIT = 3,
	S_P_STATE = 5, S_P_OPS = 6, S_P_KEY = 7, S_P_ROWS = 8, S_P_ERR = 9,
	S_CSUM = 10, S_CSUM_DONE = 12,
	S_T_NEXT = 13, S_T_KEY = 14, S_T_HWAY = 15, S_T_HBYTE = 16, S_T_HCMP = 17,
	S_T_TROW = 18, S_T_ACT = 19, S_T_AFIND = 20, S_T_EXEC = 21, S_T_AFTER = 22,
	S_TM = 23, S_EG_INIT = 24, S_DEP = 25, S_DEP_HDR = 26, S_DEP_PAY = 27, S_OUT = 28,
	S_X_FETCH = 29, S_X_RUN = 30, S_X_COPY = 31, S_X_EXTRACT = 32, S_X_HASHED = 33,
	S_H_START = 34, S_H_FIELD = 35, S_H_BYTES = 36, S_H_PAY = 37, S_H_FIN = 38,
	S_C_BEAT = 39, S_C_CHECK = 40, S_C_AFIND = 41, S_C_ROWCOPY = 42, S_C_RSP = 43,
	S_LOAD_CLR = 44, S_PASS_END = 45, S_LOAD_HDR = 46, S_LOAD_DEF = 47, S_ZERO = 48,
	S_PHV_COPY = 49, S_MC_NEXT = 50, S_COPY_DONE = 52, S_C_MCCOPY = 53, S_CL_KEEP = 56,
	S_CL_SPAWN = 57,
	S_DIG_OUT = 54;

reg [5:0] st;
reg [15:0] plen;		// packet bytes
reg [8:0] in_port;
reg [47:0] now;
reg oversize;
reg [31:0] rng;

// the parser
reg [15:0] cursor, pstate;
reg [8:0] steps;
reg [31:0] perr;
reg [2:0] pk_i;
reg [63:0] pkey;
reg [15:0] prow;

// passes and tables
reg gress;
reg [15:0] tnext;
reg [63:0] tw0, tw1, tw2, tw3, tw4;
reg [KEY_BITS-1:0] keyv;
reg [7:0] ki;
reg [2:0] way;
reg [7:0] kbi;
reg [31:0] hcrc;
reg [31:0] trow;
reg hit;
reg [31:0] rbase;		// byte address of the row that ran
reg [15:0] aid;
reg [7:0] ai;
reg afound, rvalid;

// the instruction engine
reg [15:0] x_pc, x_left;
reg x_parser, x_carry, x_exit;
reg [5:0] x_ret;
reg [7:0] x_op, x_flags;
reg [15:0] x_imm;
reg [31:0] x_dst, x_ad, x_bd;
reg [63:0] x_a, x_b, x_aval, x_bval;
reg x_adata;			// action data present (a table row ran)
reg [31:0] x_adbase;
reg [15:0] x_db;
reg [15:0] cp_i, cp_n, cp_src, cp_dst;
reg [15:0] ex_hdr;

// the hash engine (hash units and checksum units)
reg [15:0] h_rec;		// address of the 3-word hash record
reg h_pay;			// append the payload
reg [5:0] h_ret;
reg [2:0] h_cls;
reg [5:0] h_width;
reg h_refin, h_refout;
reg [31:0] h_poly, h_xo, h_crc, h_sum;
reg [15:0] h_xor;
reg [63:0] h_id, h_res;
reg h_odd;
reg [7:0] h_hi;
reg [71:0] h_acc;
reg [6:0] h_nacc;
reg [15:0] h_fi, h_nf, h_faddr, h_pi;
reg [15:0] h_dn;			// digest bytes collected (class 5)

// checksum units and deparser
reg [15:0] cs_i, dp_i, dp_b;
reg [15:0] zi;			// PHV bytes cleared
reg [31:0] olen, oi;
reg [15:0] eg_port;
// the copy that egress runs: port, rid, and whether it is a multicast replica
reg [8:0] cp_port;
reg [15:0] cp_rid;
reg cp_mc;
reg [15:0] mc_g, mc_i;		// the group being replicated and its next copy
reg [15:0] sv_i;
// S_PHV_COPY: which way, and where to go after
localparam [1:0] PC_TO_SAVE = 0, PC_FROM_SAVE = 1, PC_TO_ORIG = 2, PC_FROM_ORIG = 3;
reg [1:0] pc_mode;
reg [5:0] pc_ret;
reg cp_rep;			// the copy is a multicast replica (instance_type 5)
reg [15:0] cp_trunc;		// a clone session's truncation, 0 none
reg cl_active, cl_done;		// the packet's I2E clone is running / was served
reg [15:0] cl_sess, cl_k, orig_cursor;

// commands
reg [3:0] c_kind;
reg [7:0] c_flag;
reg [15:0] c_id, c_len, c_k;
reg [31:0] c_index;
reg [127:0] c_dat;
reg [7:0] c_err;
reg [31:0] clr_i, clr_n;
reg commit_pend, reset_pend;
reg [15:0] dt;			// default rows: table, byte
reg [31:0] dk;

wire [7:0] alu_op = x_op;
wire [63:0] alu_res;
wire alu_write, alu_cout;

pisa_alu alu (
	.op(alu_op), .sgn(x_flags[0]), .a(x_a), .a_width(x_ad[22:16]), .b(x_b),
	.b_width(x_bd[22:16]), .dst_width(x_dst[22:16]), .carry_in(x_carry),
	.result(alu_res), .write(alu_write), .carry_out(alu_cout)
);

// S_IDLE serves a commit or reset, then packets, then commands; a command's first beat is
// only looked at there and taken in S_C_BEAT.
assign s_cfg_ready = !commit_pend && !cfg_commit && st != S_LOAD_HDR;
assign s_pkt_ready = (st == S_IDLE && !commit_pend && !reset_pend) || st == S_RX;
assign s_cmd_ready = st == S_C_BEAT;
assign idle = st == S_IDLE;

// Operand value (model_exec.c rd; the parser's key operands read alike).
function [63:0] rd(input [31:0] d, input [63:0] value);
	begin
		case (d[31:28])
		K_PHV: rd = phv_get(d[15:0], d[22:16]);
		K_CONST: rd = value & mask64(d[22:16]);
		K_ADATA: rd = x_adata ? ad_get(x_adbase, x_db, d[15:0], d[22:16]) : 64'd0;
		K_PKT: rd = x_parser ? pkt_get({13'd0, cursor, 3'b000} + {16'd0, d[15:0]}, d[22:16], plen) : 64'd0;
		default: rd = 64'd0;
		endcase
	end
endfunction

function [63:0] sext(input [63:0] v, input [6:0] w);
	sext = (w == 0 || w >= 64 || !v[w - 1]) ? v : v | ~mask64(w);
endfunction

function [31:0] xorshift(input [31:0] x0);
	reg [31:0] x;
	begin
		x = x0 ^ (x0 << 13);
		x = x ^ (x >> 17);
		xorshift = x ^ (x << 5);
	end
endfunction

// TCAM row at byte base: valid, (key & mask) == (value & mask), every range key in range.
function tcam_match(input [31:0] base);
	integer i, rg, n;
	reg ok;
	reg [63:0] v, lo, hi, kd;
	reg [31:0] kdesc;
	begin
		ok = rowm[base][0];
		for (i = 0; i < 64; i = i + 1)
			if (i < tw0[15:0] && ((keyv[({16'd0, tw0[15:0]} - 1 - i) * 8 +: 8] ^ rowm[base + 3 + i]) &
			    rowm[base + 3 + {16'd0, tw0[15:0]} + i]) != 8'h00)
				ok = 1'b0;
		rg = 3 + 2 * tw0[15:0];
		for (i = 0; i < 256; i = i + 1)
			if (ok && i < tw0[31:24]) begin
				kd = cw({16'd0, tw4[63:48]} + i);
				kdesc = kd[31:0];
				if (kd[63:56] == M_RANGE) begin
					n = ({25'd0, kdesc[22:16]} + 7) / 8;
					v = phv_get(kdesc[15:0], kdesc[22:16]);
					lo = be_get(base + rg, n > 8 ? 4'd8 : n[3:0]);
					hi = be_get(base + rg + n, n > 8 ? 4'd8 : n[3:0]);
					if (v < lo || v > hi)
						ok = 1'b0;
					rg = rg + 2 * n;
				end
			end
		tcam_match = ok;
	end
endfunction

// Entry i of the running table's action list: [63:48] action id, [47:32] next table.
function [63:0] ta_word(input [7:0] i);
	ta_word = cw({16'd0, tw4[47:32]} + {24'd0, i});
endfunction

// A bucket b refilled towards cap at q16 units per microsecond over dt (model_ops.c refill).
function [63:0] refill(input [63:0] b, input [63:0] cap, input [31:0] q16, input [47:0] us);
	if (b >= cap)
		refill = cap;
	else if (us != 0 && {32'd0, q16} > (cap - b) / {16'd0, us})
		refill = cap;
	else
		refill = b + {32'd0, q16} * {16'd0, us};
endfunction

// The colour of meter id's cell idx for this packet, updating its buckets (model_meter_exec):
// 0 GREEN (also for a cell out of range or not configured), 1 YELLOW, 2 RED.
task meter(input [15:0] id, input [63:0] idx);
	reg [63:0] mw, sz, tc, tp;
	reg [31:0] c;
	reg [47:0] since;
	begin
		mw = cw({16'd0, b_meter} + {16'd0, id});
		c = {2'd0, mw[61:32]} + idx[31:0];
		if (id >= g_nmeters || idx >= {32'd0, mw[31:0]} || !m_on[c]) begin
			dst_put(64'd0);
		end else begin
			sz = (mw[63:62] == 2'd1 ? {32'd0, phv[16], phv[17], phv[18], phv[19]} : 64'd1) << 16;
			since = now > m_last[c] ? now - m_last[c] : 48'd0;
			tc = refill(m_tc[c], {16'd0, m_cbs[c], 16'd0}, m_cir[c], since);
			tp = refill(m_tp[c], {16'd0, m_pbs[c], 16'd0}, m_pir[c], since);
			m_last[c] <= now;
			if (tp < sz) begin
				m_tc[c] <= tc;
				m_tp[c] <= tp;
				dst_put(64'd2);
			end else if (tc < sz) begin
				m_tc[c] <= tc;
				m_tp[c] <= tp - sz;
				dst_put(64'd1);
			end else begin
				m_tc[c] <= tc - sz;
				m_tp[c] <= tp - sz;
				dst_put(64'd0);
			end
		end
	end
endtask

// Counter id, cell idx counts a packet (model_count).
task count(input [15:0] id, input [63:0] idx0);
	reg [63:0] c, idx, ci;
	begin
		c = cw({16'd0, b_counter} + {16'd0, id});
		idx = c[31:0] == 1 ? 64'd0 : idx0;
		ci = {34'd0, c[61:32]} + idx;	// the cell; one past the memory changes nothing
		if (id < g_ncounters && idx < {32'd0, c[31:0]} && ci < CNT_CELLS) begin
			if (c[63:62] != 2'd1)
				cntp[ci[31:0]] <= cntp[ci[31:0]] + 64'd1;
			if (c[63:62] != 2'd0)	// bytes: packet_length as the PHV has it
				cntb[ci[31:0]] <= cntb[ci[31:0]] +
					{32'd0, phv[16], phv[17], phv[18], phv[19]};
		end
	end
endtask

// Starts the hash engine on the 3-word record at rec; returns to ret with h_res.
task hash_start(input [15:0] rec, input pay, input [5:0] ret);
	begin
		h_rec <= rec;
		h_pay <= pay;
		h_ret <= ret;
		st <= S_H_START;
	end
endtask

// Starts the instruction engine on n instructions at word pc; returns to ret.
task exec_start(input [15:0] pc, input [15:0] n, input parser, input [5:0] ret);
	begin
		x_pc <= pc;
		x_left <= n;
		x_parser <= parser;
		x_carry <= 1'b0;
		x_exit <= 1'b0;
		x_ret <= ret;
		st <= S_X_FETCH;
	end
endtask

task hash_feed(input [7:0] d);
	begin
		case (h_cls)
		3'd0: h_crc <= crc_byte(h_crc, d, h_poly, h_width, h_refin);
		3'd1, 3'd2: begin
			if (!h_odd)
				h_hi <= d;
			else if (h_cls == 3'd1)
				h_sum <= h_sum + {16'd0, h_hi, d};
			else
				h_xor <= h_xor ^ {h_hi, d};
			h_odd <= !h_odd;
		end
		3'd5: begin
			if (h_dn < DIG_MAX)
				dbuf[{16'd0, h_dn}] <= d;
			h_dn <= h_dn + 16'd1;
		end
		default: ;
		endcase
	end
endtask

// An instruction's result goes to dst when dst is a PHV operand (model_exec.c wr).
task dst_put(input [63:0] val);
	if (x_dst[31:28] == K_PHV)
		phv_put(x_dst[15:0], x_dst[22:16], val);
endtask

// Copies the PHV (mode PC_*) one byte per cycle, then goes to ret.
task phv_copy(input [1:0] mode, input [5:0] ret);
	begin
		sv_i <= 16'd0;
		pc_mode <= mode;
		pc_ret <= ret;
		st <= S_PHV_COPY;
	end
endtask

// A copy is dropped; the next multicast copy (if any) goes on.
task pass_drop;
	begin
		cnt_drop <= cnt_drop + 1;
		st <= S_COPY_DONE;
	end
endtask

reg [63:0] w, v, r;
reg [31:0] base;
reg [15:0] hl;
integer i;

always @(posedge clk) begin
	if (st != S_IDLE && st != S_RX && st < S_C_BEAT)
		cnt_cycles <= cnt_cycles + 1;
	if (m_rsp_valid && m_rsp_ready)
		m_rsp_valid <= 1'b0;
	if (s_cfg_valid && s_cfg_ready)
		cfg[(bank ? 0 : CFG_WORDS) + {16'd0, s_cfg_addr}] <= s_cfg_data;
	if (cfg_commit)
		commit_pend <= 1'b1;
	if (state_reset)
		reset_pend <= 1'b1;
	case (st)
	// ---- idle: configuration, commands, packets ----
	S_IDLE: begin
		if (commit_pend) begin
			bank <= !bank;
			commit_pend <= 1'b0;
			loaded <= 1'b0;
			st <= S_LOAD_HDR;
		end else if (reset_pend && loaded) begin
			reset_pend <= 1'b0;
			loaded <= 1'b0;
			st <= S_LOAD_HDR;
		end else if (s_pkt_valid) begin
			in_port <= s_pkt_port;
			now <= now_us;
			pkt[0] <= s_pkt_data;
			plen <= 16'd1;
			zi <= 16'd0;
			oversize <= 1'b0;
			st <= s_pkt_last ? S_CLEAR : S_RX;
		end else if (s_cmd_valid && !m_rsp_valid) begin
			c_kind <= s_cmd_kind;
			c_flag <= s_cmd_flag;
			c_id <= s_cmd_id;
			c_index <= s_cmd_index;
			c_len <= s_cmd_len;
			c_dat <= 128'd0;
			c_k <= 16'd0;
			st <= S_C_BEAT;
		end
	end
	S_RX: if (s_pkt_valid) begin
		if ({16'd0, zi} < PHV_MAX)
			phv[{16'd0, zi}] <= 8'h00;
		if (zi < STACKS)
			stk_next[{16'd0, zi}] <= 16'd0;
		zi <= zi + 16'd1;
		if (plen < PKT_MAX)
			pkt[{16'd0, plen}] <= s_pkt_data;
		else
			oversize <= 1'b1;
		if (plen != 16'hFFFF)
			plen <= plen + 16'd1;
		if (s_pkt_last)
			st <= S_CLEAR;
	end
	S_LOAD_HDR: begin
		hw1 <= cw(1);
		hw2 <= cw(2);
		hw3 <= cw(3);
		hw4 <= cw(4);
		hw5 <= cw(5);
		hw6 <= cw(6);
		hw7 <= cw(7);
		hw9 <= cw(9);
		reset_pend <= 1'b0;
		// empty every row, counter and register the image uses
		clr_i <= 0;
		v = cw(7);
		r = cw(8);
		clr_n <= v[31:0] > r[63:32] ? (v[31:0] > r[31:0] ? v[31:0] : r[31:0]) :
			 (r[63:32] > r[31:0] ? r[63:32] : r[31:0]);
		if (clr_n < MC_GROUPS || clr_n < MTR_CELLS || clr_n < CL_SESS)
			clr_n <= MC_GROUPS > MTR_CELLS ? (MC_GROUPS > CL_SESS ? MC_GROUPS : CL_SESS) :
				 (MTR_CELLS > CL_SESS ? MTR_CELLS : CL_SESS);
		rng <= 32'd1;
		st <= cw(0) == 64'h5048574300000001 ? S_LOAD_CLR : S_IDLE;	// no image: stay empty
	end
	S_LOAD_CLR: begin
		// the part of each memory that the image uses, one word of each per cycle
		if (clr_i < ROW_BYTES) rowm[clr_i] <= 8'h00;
		if (clr_i < CNT_CELLS) begin cntp[clr_i] <= 64'd0; cntb[clr_i] <= 64'd0; end
		if (clr_i < REG_CELLS) regs[clr_i] <= 64'd0;
		if (clr_i < MC_GROUPS) mc_n[clr_i] <= 16'd0;
		if (clr_i < MTR_CELLS) m_on[clr_i] <= 1'b0;
		if (clr_i < CL_SESS) cs_en[clr_i] <= 1'b0;
		clr_i <= clr_i + 1;
		if (clr_i + 1 >= clr_n || clr_i + 1 >= ROW_BYTES + CNT_CELLS + REG_CELLS) begin
			dt <= 16'd0;
			dk <= 32'd0;
			st <= S_LOAD_DEF;
		end
	end
	S_LOAD_DEF: begin
		// each table's initial default row (index rows), one byte per cycle
		if (dt >= g_ntables) begin
			loaded <= 1'b1;
			st <= S_IDLE;
		end else begin
			v = cw({16'd0, b_table} + 5 * dt + 1);
			r = cw({16'd0, b_table} + 5 * dt + 2);
			w = cw({16'd0, b_table} + 5 * dt + 4);
			if (dk < r[63:48]) begin
				base = v[31:0] + v[63:32] * r[63:48] + dk;
				if (base < ROW_BYTES) begin
					w = cw({16'd0, w[31:16]} + (dk >> 3));
					rowm[base] <= w[63 - 8 * dk[2:0] -: 8];
				end
				dk <= dk + 32'd1;
			end else begin
				dk <= 32'd0;
				dt <= dt + 16'd1;
			end
		end
	end

	// ---- ingress pass ----
	S_CLEAR: begin
		cnt_rx <= cnt_rx + 1;
		if (!loaded) begin
			pass_drop;
		end else if (oversize) begin
			cnt_oversize <= cnt_oversize + 1;
			st <= S_IDLE;
		end else begin
			cl_active <= 1'b0;
			cl_done <= 1'b0;
			cp_trunc <= 16'd0;
			st <= S_ZERO;
		end
	end
	S_ZERO: begin
		// the PHV and the stack counters start at zero: one byte per cycle, most of it
		// already done while the packet arrived (S_RX)
		if (zi < g_phv_bytes || zi < STACKS) begin
			if ({16'd0, zi} < PHV_MAX)
				phv[{16'd0, zi}] <= 8'h00;
			if (zi < STACKS)
				stk_next[{16'd0, zi}] <= 16'd0;
			zi <= zi + 16'd1;
		end else begin
			cl_k <= 16'd0;
			st <= cl_active ? S_CL_KEEP : S_ING_INIT;
		end
	end
	S_ING_INIT: begin
		// ingress_port, packet_length, ingress_global_timestamp (whole byte containers)
		phv[0] <= {7'd0, in_port[8]};
		phv[1] <= in_port[7:0];
		phv[18] <= plen[15:8];
		phv[19] <= plen[7:0];
		for (i = 0; i < 6; i = i + 1)
			phv[40 + i] <= now[47 - 8 * i -: 8];
		cursor <= 16'd0;
		pstate <= g_parser_start;
		steps <= 9'd0;
		perr <= 32'd0;
		gress <= 1'b0;
		st <= S_P_STATE;
	end
	S_P_STATE: begin
		if (pstate == P_ACCEPT) begin
			st <= S_P_ERR;
		end else if (pstate >= g_nstates) begin
			perr <= E_NO_MATCH;
			st <= S_P_ERR;
		end else if (steps == MAX_STEPS) begin
			perr <= E_TIMEOUT;
			st <= S_P_ERR;
		end else begin
			steps <= steps + 9'd1;
			w = cw({16'd0, b_state} + 2 * pstate);
			x_adata <= 1'b0;
			exec_start(w[63:48], w[47:32], 1'b1, S_P_OPS);
		end
	end
	S_P_OPS: begin
		if (perr != 0) begin
			st <= S_P_ERR;
		end else begin
			pk_i <= 3'd0;
			pkey <= 64'd0;
			st <= S_P_KEY;
		end
	end
	S_P_KEY: begin
		w = cw({16'd0, b_state} + 2 * pstate + 1);
		if ({5'd0, pk_i} < w[63:56] && pk_i < 4) begin
			v = cw({16'd0, w[55:40]} + 2 * pk_i);
			r = cw({16'd0, w[55:40]} + 2 * pk_i + 1);
			pkey <= (v[22:16] >= 64 ? 64'd0 : pkey << v[22:16]) |
				(v[22:16] == 0 ? 64'd0 : (v[31:28] == K_ADATA ? 64'd0 : rd(v[31:0], r)));
			pk_i <= pk_i + 3'd1;
		end else begin
			prow <= 16'd0;
			st <= S_P_ROWS;
		end
	end
	S_P_ROWS: begin
		w = cw({16'd0, b_state} + 2 * pstate);
		if (prow >= w[15:0]) begin
			perr <= E_NO_MATCH;
			st <= S_P_ERR;
		end else begin
			base = {16'd0, w[31:16]} + 3 * prow;
			v = cw(base);
			r = cw(base + 1);
			if ((pkey & r) == (v & r)) begin
				w = cw(base + 2);
				pstate <= w[31:16];
				if (w[31:16] == P_REJECT) begin
					perr <= {16'd0, w[15:0]};
					st <= S_P_ERR;
				end else begin
					st <= S_P_STATE;
				end
			end else begin
				prow <= prow + 16'd1;
			end
		end
	end
	S_P_ERR: begin
		if (perr != 0)
			for (i = 0; i < 4; i = i + 1)
				phv[36 + i] <= perr[31 - 8 * i -: 8];
		cs_i <= 16'd0;
		st <= S_CSUM;
	end

	// ---- checksum units: verify after the parser (gress 0), update before the deparser ----
	S_CSUM: begin
		if (cs_i >= g_ncsum) begin
			st <= gress ? S_DEP : (cl_active ? S_CL_SPAWN : S_T_NEXT);
			tnext <= gress ? g_eg_start : g_ing_start;
		end else begin
			base = {16'd0, b_csum} + 6 * cs_i;
			w = cw(base);
			v = cw(base + 1);
			r = cw(base + 2);
			// runs iff its kind is this point's and its condition is non-zero
			if (w[63] == gress && (v[63:60] == K_CONST ? (r & mask64(v[54:48])) != 0 :
			    v[63:60] == K_PHV ? phv_get(v[47:32], v[54:48]) != 0 : 1'b0))
				hash_start(base[15:0] + 16'd3, w[62], S_CSUM_DONE);
			else
				cs_i <= cs_i + 16'd1;
		end
	end
	S_CSUM_DONE: begin
		w = cw({16'd0, b_csum} + 6 * cs_i);
		if (!gress) begin
			if ((h_res & mask64(w[22:16])) != phv_get(w[15:0], w[22:16]))
				phv[10] <= 8'h01;	// checksum_error
		end else begin
			phv_put(w[15:0], w[22:16], h_res);
		end
		cs_i <= cs_i + 16'd1;
		st <= S_CSUM;
	end

	// ---- tables ----
	S_T_NEXT: begin
		w = cw({16'd0, b_table} + 5 * tnext);
		if (tnext == NEXT_END || tnext >= g_ntables || w[63] != gress) begin
			st <= S_PASS_END;
		end else begin
			tw0 <= cw({16'd0, b_table} + 5 * tnext);
			tw1 <= cw({16'd0, b_table} + 5 * tnext + 1);
			tw2 <= cw({16'd0, b_table} + 5 * tnext + 2);
			tw3 <= cw({16'd0, b_table} + 5 * tnext + 3);
			tw4 <= cw({16'd0, b_table} + 5 * tnext + 4);
			keyv <= {KEY_BITS{1'b0}};
			ki <= 8'd0;
			hit <= 1'b0;
			st <= w[62:61] == MEM_NONE ? S_T_ACT : S_T_KEY;
		end
	end
	S_T_KEY: begin
		if (ki < tw0[31:24]) begin
			w = cw({16'd0, tw4[63:48]} + {24'd0, ki});
			if (w[22:16] != 0)
				keyv <= (keyv << w[22:16]) | key_ext(phv_get(w[15:0], w[22:16]));
			ki <= ki + 8'd1;
		end else begin
			way <= 3'd0;
			trow <= 32'd0;
			st <= tw0[62:61] == MEM_HASH ? S_T_HWAY : S_T_TROW;
		end
	end
	S_T_HWAY: begin
		if (way >= tw0[58:56]) begin
			st <= S_T_ACT;
		end else begin
			hcrc <= 32'hFFFFFFFF;
			kbi <= 8'd0;
			st <= S_T_HBYTE;
		end
	end
	S_T_HBYTE: begin
		if ({8'd0, kbi} < tw0[15:0]) begin
			hcrc <= crc_byte(hcrc, keyv[({16'd0, tw0[15:0]} - 1 - {24'd0, kbi}) * 8 +: 8],
					 way_poly(way), 6'd32,
					 1'b1);
			kbi <= kbi + 8'd1;
		end else begin
			// mask64 takes the low 7 bits of the row bits, the shift all 8
			v = {32'd0, rev_w(hcrc, 6'd32) ^ 32'hFFFFFFFF} & mask64(tw0[54:48]);
			trow <= ({29'd0, way} << tw0[55:48]) | v[31:0];
			st <= S_T_HCMP;
		end
	end
	S_T_HCMP: begin
		if (trow >= tw1[63:32]) begin
			st <= S_T_ACT;		// beyond the table: a miss (model: stops looking)
		end else begin
			base = tw1[31:0] + trow * tw2[63:48];
			r = {63'd0, rowm[base][0]};
			for (i = 0; i < 64; i = i + 1)
				if (i < tw0[15:0] &&
				    rowm[base + 3 + i] != keyv[({16'd0, tw0[15:0]} - 1 - i) * 8 +: 8])
					r = 64'd0;
			if (r[0]) begin
				hit <= 1'b1;
				st <= S_T_ACT;
			end else begin
				way <= way + 3'd1;
				st <= S_T_HWAY;
			end
		end
	end
	S_T_TROW: begin
		if (trow >= tw1[63:32]) begin
			st <= S_T_ACT;
		end else if (tcam_match(tw1[31:0] + trow * tw2[63:48])) begin
			hit <= 1'b1;
			st <= S_T_ACT;
		end else begin
			trow <= trow + 32'd1;
		end
	end
	S_T_ACT: begin
		// the row that ran: the hit row or the default row (index rows)
		base = tw1[31:0] + (hit ? trow : tw1[63:32]) * tw2[63:48];
		if (!hit)
			trow <= tw1[63:32];
		rbase <= base;
		x_exit <= 1'b0;
		rvalid <= rowm[base][0];
		aid <= {rowm[base + 1], rowm[base + 2]};
		if (hit && tw2[15:0] != 16'hFFFF)
			count(tw2[15:0], {32'd0, trow});
		ai <= 8'd0;
		afound <= 1'b0;
		st <= S_T_AFIND;
	end
	S_T_AFIND: begin
		if (!rvalid || ai >= tw0[23:16]) begin
			st <= S_T_AFTER;
			x_exit <= 1'b0;
		end else if (ta_word(ai) >> 48 == {48'd0, aid}) begin
			afound <= 1'b1;
			st <= S_T_EXEC;
		end else begin
			ai <= ai + 8'd1;
		end
	end
	S_T_EXEC: begin
		w = cw({16'd0, b_action} + {16'd0, aid});
		x_adata <= 1'b1;
		x_adbase <= rbase + 3 + {16'd0, tw2[47:32]};
		x_db <= tw2[31:16];
		if (aid < g_nactions)
			exec_start(w[63:48], w[47:32], 1'b0, S_T_AFTER);
		else
			st <= S_T_AFTER;
	end
	S_T_AFTER: begin
		case (tw0[60:59])
		NX_ACTION: begin
			r = ta_word(ai);
			v = {48'd0, afound ? r[47:32] : tw3[47:32]};
		end
		NX_COND: v = {48'd0, phv_get(tw3[15:0], tw3[22:16]) != 0 ? tw3[63:48] : tw3[47:32]};
		default: v = {48'd0, hit ? tw3[63:48] : tw3[47:32]};
		endcase
		// EXIT ends the pass; next pointers go forward only
		if (x_exit || v[15:0] <= tnext)
			st <= S_PASS_END;
		else begin
			tnext <= v[15:0];
			st <= S_T_NEXT;
		end
	end
	S_PASS_END: st <= S_TM;

	// ---- traffic manager (after ingress) / end of egress ----
	S_TM: begin
		if (!gress && !cl_done && phv[54] == 8'd1 && {phv[52], phv[53]} < CL_SESS &&
		    cs_en[{16'd0, phv[52], phv[53]}]) begin
			// an I2E clone first: the packet as it arrived, parsed again, metadata zero
			// but the clone field list; the original waits in phv_orig
			cl_active <= 1'b1;
			cl_sess <= {phv[52], phv[53]};
			orig_cursor <= cursor;
			zi <= 16'd0;
			phv_copy(PC_TO_ORIG, S_ZERO);
		end else if (!gress) begin
			// (no image resubmits: lib/pisa_hwconf.c refuses those)
			cp_mc <= 1'b0;
			cp_rep <= 1'b0;
			mc_i <= 16'd0;
			if ({phv[6], phv[7]} != 16'd0) begin
				// multicast: one copy per (rid, port) of the group; none: dropped
				mc_g <= {phv[6], phv[7]};
				cp_rep <= 1'b1;
				if ({phv[6], phv[7]} < MC_GROUPS && mc_n[{16'd0, phv[6], phv[7]}] != 0)
					phv_copy(PC_TO_SAVE, S_MC_NEXT);
				else
					pass_drop;
			end else if ({phv[2][0], phv[3]} == 9'd511) begin
				pass_drop;
			end else begin
				cp_port <= {phv[2][0], phv[3]};
				cp_rid <= 16'd0;
				st <= S_EG_INIT;
			end
		end else begin
			if ({phv[2][0], phv[3]} == 9'd511) begin
				pass_drop;
			end else begin
				cs_i <= 16'd0;
				st <= S_CSUM;
			end
		end
	end
	S_PHV_COPY: begin
		// one byte per cycle (pc_mode): the PHV as ingress left it is saved for the copies
		// of a group, each further copy starts from it; an I2E clone's original waits
		if (sv_i < g_phv_bytes && {16'd0, sv_i} < PHV_MAX) begin
			case (pc_mode)
			PC_TO_SAVE: phv_save[{16'd0, sv_i}] <= phv[{16'd0, sv_i}];
			PC_FROM_SAVE: phv[{16'd0, sv_i}] <= phv_save[{16'd0, sv_i}];
			PC_TO_ORIG: phv_orig[{16'd0, sv_i}] <= phv[{16'd0, sv_i}];
			default: phv[{16'd0, sv_i}] <= phv_orig[{16'd0, sv_i}];
			endcase
			sv_i <= sv_i + 16'd1;
		end else begin
			st <= pc_ret;
		end
	end
	S_MC_NEXT: begin
		base = {16'd0, mc_g} * MC_SLOT + {16'd0, mc_i};
		cp_port <= mc_port[base];
		cp_rid <= mc_rid[base];
		cp_mc <= 1'b1;
		if (mc_i == 0)
			st <= S_EG_INIT;
		else
			phv_copy(PC_FROM_SAVE, S_EG_INIT);
	end
	S_COPY_DONE: begin
		if (cp_mc && mc_i + 1 < mc_n[{16'd0, mc_g}]) begin
			mc_i <= mc_i + 16'd1;
			st <= S_MC_NEXT;
		end else if (cl_active && !cl_done) begin
			// the clone's copies are out: the original goes on
			cp_mc <= 1'b0;
			cl_done <= 1'b1;
			cp_trunc <= 16'd0;
			cursor <= orig_cursor;
			gress <= 1'b0;
			phv_copy(PC_FROM_ORIG, S_TM);
		end else begin
			cp_mc <= 1'b0;
			st <= S_IDLE;
		end
	end
	S_CL_KEEP: begin
		// the clone field list's fields (byte 55: its id + 1), then instance_type 1
		w = cw({16'd0, b_flist} + {24'd0, phv_orig[55]} - 32'd1);
		if (phv_orig[55] != 0 && {8'd0, phv_orig[55]} <= g_nflists && cl_k < w[47:32]) begin
			r = cw({16'd0, w[63:48]} + {16'd0, cl_k});
			phv_put(r[15:0], r[22:16], phv_read(1'b1, r[15:0], r[22:16]));
			cl_k <= cl_k + 16'd1;
		end else begin
			phv[12] <= 8'h00;
			phv[13] <= 8'h00;
			phv[14] <= 8'h00;
			phv[15] <= 8'd1;
			st <= S_ING_INIT;
		end
	end
	S_CL_SPAWN: begin
		// to the session's port, or each copy of its multicast group (no such group: none)
		cp_trunc <= cs_trunc[{16'd0, cl_sess}];
		cp_rep <= 1'b0;
		cp_mc <= 1'b0;
		if (cs_grp[{16'd0, cl_sess}] != 0) begin
			mc_g <= cs_grp[{16'd0, cl_sess}];
			mc_i <= 16'd0;
			if (cs_grp[{16'd0, cl_sess}] < MC_GROUPS &&
			    mc_n[{16'd0, cs_grp[{16'd0, cl_sess}]}] != 0)
				phv_copy(PC_TO_SAVE, S_MC_NEXT);
			else
				st <= S_COPY_DONE;
		end else begin
			cp_port <= cs_port[{16'd0, cl_sess}];
			cp_rid <= 16'd0;
			st <= S_EG_INIT;
		end
	end
	S_EG_INIT: begin
		phv[4] <= {7'd0, cp_port[8]};		// egress_port: this copy's port
		phv[5] <= cp_port[7:0];
		eg_port <= {7'd0, cp_port};
		phv[8] <= cp_rid[15:8];			// egress_rid
		phv[9] <= cp_rid[7:0];
		if (cp_rep) begin
			phv[12] <= 8'h00;		// instance_type: replica
			phv[13] <= 8'h00;
			phv[14] <= 8'h00;
			phv[15] <= 8'd5;
		end
		for (i = 0; i < 4; i = i + 1)
			phv[20 + i] <= now[31 - 8 * i -: 8];	// enq_timestamp
		for (i = 24; i < 36; i = i + 1)
			phv[i] <= 8'h00;			// queue depths and wait: 0
		for (i = 0; i < 6; i = i + 1)
			phv[46 + i] <= now[47 - 8 * i -: 8];	// egress_global_timestamp
		for (i = 52; i < 57; i = i + 1)
			phv[i] <= 8'h00;			// ingress's clone and resubmit requests
		gress <= 1'b1;
		tnext <= g_eg_start;
		st <= S_T_NEXT;
	end

	// ---- deparser: valid headers in emit order, then the payload, then truncation ----
	S_DEP: begin
		dp_i <= 16'd0;
		dp_b <= 16'd0;
		olen <= 32'd0;
		st <= S_DEP_HDR;
	end
	S_DEP_HDR: begin
		if (dp_i >= g_ndeparse) begin
			oi <= {16'd0, cursor};
			st <= S_DEP_PAY;
		end else begin
			w = cw({16'd0, b_deparse} + {16'd0, dp_i});
			v = cw({16'd0, b_hdr} + {16'd0, w[63:48]});
			hl = v[47:32];
			if (w[63:48] < g_nheaders && phv_get(16'd512 + w[63:48], 7'd1) != 0 &&
			    v[63:48] + hl <= g_phv_bytes && olen - {16'd0, dp_b} + {16'd0, hl} <= 2 * g_phv_bytes &&
			    dp_b < hl) begin
				// one byte of this header per cycle
				obuf[olen] <= phv[{16'd0, v[63:48] + dp_b}];
				olen <= olen + 1;
				dp_b <= dp_b + 16'd1;
			end else begin
				dp_b <= 16'd0;
				dp_i <= dp_i + 16'd1;
			end
		end
	end
	S_DEP_PAY: begin
		if (oi < plen) begin
			obuf[olen] <= pkt[oi];
			olen <= olen + 1;
			oi <= oi + 1;
		end else begin
			// truncate_length, if set and shorter
			// a clone session's truncation, if shorter
			v = {48'd0, phv[58], phv[59]};
			if (cp_trunc != 0 && (v == 0 || {48'd0, cp_trunc} < v))
				v = {48'd0, cp_trunc};
			if (v != 0 && v < {32'd0, olen})
				olen <= v[31:0];
			oi <= 32'd0;
			st <= S_OUT;
		end
	end
	S_OUT: begin
		if (olen == 0) begin
			pass_drop;		// nothing to send: an empty packet cannot leave
		end else if (!m_pkt_valid || m_pkt_ready) begin
			if (oi < olen) begin
				m_pkt_valid <= 1'b1;
				m_pkt_data <= obuf[oi];
				m_pkt_last <= oi + 1 == olen;
				m_pkt_port <= eg_port;	// as egress began (pisa-model)
				oi <= oi + 1;
			end else begin
				m_pkt_valid <= 1'b0;
				cnt_tx <= cnt_tx + 1;
				st <= S_COPY_DONE;
			end
		end
	end

	// ---- instruction engine ----
	S_X_FETCH: begin
		if (x_left == 0 || x_exit || (x_parser && perr != 0)) begin
			st <= x_ret;
		end else begin
			w = cw({16'd0, x_pc});
			v = cw({16'd0, x_pc} + 1);
			x_op <= w[63:56];
			x_flags <= w[55:48];
			x_imm <= w[47:32];
			x_dst <= w[31:0];
			x_ad <= v[63:32];
			x_bd <= v[31:0];
			x_aval <= cw({16'd0, x_pc} + 2);
			x_bval <= cw({16'd0, x_pc} + 3);
			// sign-extended from their own width for PISA_INSN_SIGNED (pisa_alu
			// extends again, which changes nothing)
			r = rd(v[63:32], cw({16'd0, x_pc} + 2));
			x_a <= w[48] ? sext(r, v[54:48]) : r;
			r = rd(v[31:0], cw({16'd0, x_pc} + 3));
			x_b <= w[48] ? sext(r, v[22:16]) : r;
			x_pc <= x_pc + 16'd4;
			x_left <= x_left - 16'd1;
			st <= S_X_RUN;
		end
	end
	S_X_RUN: begin
		st <= S_X_FETCH;
		if (x_op <= 8'd22) begin
			if (alu_write)
				dst_put(alu_res);
			x_carry <= alu_cout;
		end else case (x_op)
		OP_JZ, OP_JNZ:
			if ((x_a == 0) == (x_op == OP_JZ)) begin
				if (x_imm >= x_left) begin
					x_left <= 16'd0;
				end else begin
					x_left <= x_left - x_imm;
					x_pc <= x_pc + 16'd4 * x_imm;
				end
			end
		OP_SETVALID, OP_SETINVALID:
			if (x_imm < g_nheaders)
				phv_put(16'd512 + x_imm, 7'd1, {63'd0, x_op == OP_SETVALID});
		OP_COPYHDR: begin
			v = cw({16'd0, b_hdr} + {16'd0, x_imm});		// dst header
			r = cw({16'd0, b_hdr} + {16'd0, x_aval[15:0]});	// src header
			if (x_imm < g_nheaders && x_aval < {48'd0, g_nheaders} && x_aval[15:0] != x_imm) begin
				cp_n <= v[47:32] < r[47:32] ? v[47:32] : r[47:32];
				cp_dst <= v[63:48];
				cp_src <= r[63:48];
				cp_i <= 16'd0;
				st <= S_X_COPY;
			end
		end
		OP_EXIT: x_exit <= 1'b1;
		OP_COUNT: count(x_imm, x_a);
		OP_REG_READ, OP_REG_WRITE: begin
			w = cw({16'd0, b_register} + {16'd0, x_imm});
			v = x_imm < g_nregisters && x_a < {32'd0, w[31:0]} ? 64'd1 : 64'd0;
			r = {40'd0, w[55:32]} + x_a;	// the cell; one past the memory changes nothing
			if (x_op == OP_REG_READ)
				dst_put(v[0] ? regs[r[31:0]] : 64'd0);
			else if (v[0] && r < REG_CELLS)
				regs[r[31:0]] <= x_b & mask64(w[62:56]);
		end
		OP_METER: meter(x_imm, x_a);
		OP_DMETER:
			if (hit)
				meter(x_imm, {32'd0, trow});	// the row that hit
			else
				dst_put(64'd0);			// a miss: GREEN
		OP_HASH:
			if (x_imm < g_nhash)
				hash_start(b_hash + 3 * x_imm, 1'b0, S_X_HASHED);
			else begin
				h_res <= 64'd0;
				st <= S_X_HASHED;
			end
		OP_RANDOM: begin
			v = {32'd0, xorshift(rng)};
			rng <= v[31:0];
			r = x_b - x_a + 64'd1;
			if (x_flags[0] ? $signed(x_b) < $signed(x_a) : x_b < x_a)
				dst_put(x_a);
			else
				dst_put(r != 0 ? x_a + v % r : x_a + v);
		end
		OP_CLONE: begin
			phv[52] <= x_a[15:8];
			phv[53] <= x_a[7:0];
			phv[54] <= x_imm[7:0];
			phv[55] <= x_bval[7:0];
		end
		OP_DIGEST:
			if (x_imm < g_ndigests) begin
				// the hash engine collects the field list's bytes (class 5), then
				// S_DIG_OUT sends them
				w = cw({16'd0, b_digest} + {16'd0, x_imm});
				r = cw({16'd0, b_flist} + {16'd0, w[63:48]});
				h_cls <= 3'd5;
				h_pay <= 1'b0;
				h_ret <= S_DIG_OUT;
				h_acc <= 72'd0;
				h_nacc <= 7'd0;
				h_fi <= 16'd0;
				h_dn <= 16'd0;
				h_faddr <= r[63:48];
				h_nf <= w[63:48] < g_nflists ? r[47:32] : 16'd0;
				oi <= 32'd0;
				st <= S_H_FIELD;
			end
		OP_TRUNCATE: begin
			v = x_a > 64'hFFFF ? 64'hFFFF : x_a;
			phv[58] <= v[15:8];
			phv[59] <= v[7:0];
		end
		OP_DROP: begin
			phv_put(16'd23, 7'd9, 64'd511);		// egress_spec
			phv_put(16'd48, 7'd16, 64'd0);		// mcast_grp
		end
		OP_EXTRACT, OP_EXTRACT_STACK:
			if (x_parser) begin
				if (x_op == OP_EXTRACT) begin
					if (x_imm >= g_nheaders)
						perr <= E_ARG;
					else begin
						ex_hdr <= x_imm;
						st <= S_X_EXTRACT;
						cp_i <= 16'hFFFF;
					end
				end else begin
					w = cw({16'd0, b_stack} + {16'd0, x_imm});
					if (x_imm >= g_nstacks || x_imm >= STACKS)
						perr <= E_ARG;
					else if (stk_next[{16'd0, x_imm}] >= w[47:32])
						perr <= E_STACK;
					else if (w[63:48] + stk_next[{16'd0, x_imm}] >= g_nheaders)
						perr <= E_ARG;
					else begin
						ex_hdr <= w[63:48] + stk_next[{16'd0, x_imm}];
						st <= S_X_EXTRACT;
						cp_i <= 16'hFFFF;
					end
				end
			end
		OP_ADVANCE:
			if (x_parser) begin
				if (x_a[2:0] != 0)
					perr <= E_ARG;
				else if ((x_a >> 3) > {48'd0, plen} - {48'd0, cursor})
					perr <= E_TOO_SHORT;
				else
					cursor <= cursor + x_a[18:3];
			end
		default: ;
		endcase
	end
	S_X_COPY: begin
		// header bytes, then the validity bit (both headers inside the PHV or no bytes)
		if (cp_i < cp_n && cp_dst + cp_n <= g_phv_bytes && cp_src + cp_n <= g_phv_bytes) begin
			phv[{16'd0, cp_dst + cp_i}] <= phv[{16'd0, cp_src + cp_i}];
			cp_i <= cp_i + 16'd1;
		end else begin
			phv_put(16'd512 + x_imm, 7'd1, phv_get(16'd512 + x_aval[15:0], 7'd1));
			st <= S_X_FETCH;
		end
	end
	S_X_EXTRACT: begin
		v = cw({16'd0, b_hdr} + {16'd0, ex_hdr});
		if (cp_i == 16'hFFFF) begin
			if (v[47:32] > plen || cursor > plen - v[47:32]) begin
				perr <= E_TOO_SHORT;
				st <= S_X_FETCH;
			end else begin
				cp_i <= 16'd0;
			end
		end else if (cp_i < v[47:32]) begin
			if (v[63:48] + v[47:32] <= g_phv_bytes)
				phv[{16'd0, v[63:48] + cp_i}] <= pkt[{16'd0, cursor + cp_i}];
			cp_i <= cp_i + 16'd1;
		end else begin
			phv_put(16'd512 + ex_hdr, 7'd1, 64'd1);
			cursor <= cursor + v[47:32];
			if (x_op == OP_EXTRACT_STACK)
				stk_next[{16'd0, x_imm}] <= stk_next[{16'd0, x_imm}] + 16'd1;
			st <= S_X_FETCH;
		end
	end
	S_X_HASHED: begin
		dst_put(x_a + (x_b != 0 ? h_res % x_b : h_res));
		st <= S_X_FETCH;
	end

	S_DIG_OUT: begin
		// the digest's bytes (DIG_MAX at most); a digest of no bytes sends nothing
		if (!m_dig_valid || m_dig_ready) begin
			if (oi < h_dn && oi < DIG_MAX) begin
				m_dig_valid <= 1'b1;
				m_dig_id <= x_imm;
				m_dig_data <= dbuf[oi];
				m_dig_last <= oi + 1 == {16'd0, h_dn} || oi + 1 == DIG_MAX;
				oi <= oi + 1;
			end else begin
				m_dig_valid <= 1'b0;
				st <= S_X_FETCH;
			end
		end
	end

	// ---- hash engine: field list bytes (MSB first, zero padded), then the payload ----
	S_H_START: begin
		w = cw({16'd0, h_rec});
		v = cw({16'd0, h_rec} + 1);
		h_cls <= w[58:56];
		h_width <= w[53:48];
		h_refin <= w[47];
		h_refout <= w[46];
		h_poly <= v[63:32];
		h_crc <= v[31:0];
		r = cw({16'd0, h_rec} + 2);
		h_xo <= r[31:0];
		h_sum <= 32'd0;
		h_xor <= 16'd0;
		h_id <= 64'd0;
		h_odd <= 1'b0;
		h_acc <= 72'd0;
		h_nacc <= 7'd0;
		h_fi <= 16'd0;
		r = cw({16'd0, b_flist} + {16'd0, w[31:16]});
		h_faddr <= r[63:48];
		h_nf <= w[31:16] < g_nflists ? r[47:32] : 16'd0;
		if (w[58:56] == 3'd4) begin
			v = {32'd0, xorshift(rng)};
			rng <= v[31:0];
			h_res <= v;
			st <= h_ret;
		end else begin
			st <= S_H_FIELD;
		end
	end
	S_H_FIELD: begin
		if (h_fi >= h_nf) begin
			// the last partial byte, zero padded
			if (h_nacc != 0) begin
				hash_feed(h_acc[7:0] << (8 - h_nacc));
				if (h_pay && cursor < plen)
					h_id <= h_id << (8 - h_nacc);
			end
			h_nacc <= 7'd0;
			h_pi <= cursor;
			st <= h_pay ? S_H_PAY : S_H_FIN;
		end else begin
			w = cw({16'd0, h_faddr} + {16'd0, h_fi});
			v = phv_get(w[15:0], w[22:16]);
			h_acc <= ((h_acc & {8'd0, mask64(h_nacc)}) << w[22:16]) | {8'd0, v};
			h_nacc <= h_nacc + w[22:16];
			h_id <= w[22:16] >= 64 ? v : (h_id << w[22:16]) | v;
			h_fi <= h_fi + 16'd1;
			st <= S_H_BYTES;
		end
	end
	S_H_BYTES: begin
		if (h_nacc >= 8) begin
			// the byte at bits [h_nacc - 8, h_nacc): r takes the shift's low 64 bits
			{v[7:0], r} = h_acc >> (h_nacc - 8);
			hash_feed(r[7:0]);
			h_nacc <= h_nacc - 7'd8;
		end else begin
			st <= S_H_FIELD;
		end
	end
	S_H_PAY: begin
		if (h_pi < plen) begin
			hash_feed(pkt[{16'd0, h_pi}]);
			h_id <= (h_id << 8) | {56'd0, pkt[{16'd0, h_pi}]};
			h_pi <= h_pi + 16'd1;
		end else begin
			st <= S_H_FIN;
		end
	end
	S_H_FIN: begin
		case (h_cls)
		3'd0: begin
			r = {32'd0, h_refout ? rev_w(h_crc, h_width) : h_crc};
			h_res <= (r ^ {32'd0, h_xo}) & mask64({1'b0, h_width});
		end
		3'd1: begin
			r = {32'd0, h_sum + (h_odd ? {16'd0, h_hi, 8'd0} : 32'd0)};
			r = (r & 64'hFFFF) + (r >> 16);
			r = (r & 64'hFFFF) + (r >> 16);
			h_res <= ~r & 64'hFFFF;
		end
		3'd2: h_res <= {48'd0, h_xor ^ (h_odd ? {h_hi, 8'd0} : 16'd0)};
		default: h_res <= h_id;
		endcase
		st <= h_ret;
	end

	// ---- commands ----
	S_C_BEAT: if (s_cmd_valid) begin
		for (i = 0; i < 4; i = i + 1) begin
			if ({16'd0, c_k} + i < ROW_STAGE)
				rstage[{16'd0, c_k} + i] <= s_cmd_data[8 * i +: 8];
			if ({16'd0, c_k} + i < 16)
				c_dat[8 * ({16'd0, c_k} + i) +: 8] <= s_cmd_data[8 * i +: 8];
		end
		c_k <= c_k + 16'd4;
		if (s_cmd_last)
			st <= S_C_CHECK;
	end
	S_C_CHECK: begin
		m_rsp_a <= 64'd0;
		m_rsp_b <= 64'd0;
		c_err <= 8'd0;
		st <= S_C_RSP;
		case (c_kind)
		4'd1: begin
			w = cw({16'd0, b_table} + 5 * c_id);
			v = cw({16'd0, b_table} + 5 * c_id + 1);
			r = cw({16'd0, b_table} + 5 * c_id + 2);
			if (!loaded || c_id >= g_ntables || c_index > v[63:32])
				c_err <= ERR_RANGE;
			else if (c_len != r[63:48] || c_len > ROW_STAGE)
				c_err <= ERR_INVAL;
			else if (rstage[0][0] && rstage[0][7:1] != 0)
				c_err <= ERR_INVAL;
			else begin
				ai <= 8'd0;
				st <= rstage[0][0] ? S_C_AFIND : S_C_ROWCOPY;
				c_k <= 16'd0;
			end
		end
		4'd2, 4'd10: begin
			w = cw({16'd0, b_counter} + {16'd0, c_id});
			if (!loaded || c_id >= g_ncounters || c_index >= w[31:0])
				c_err <= ERR_RANGE;
			else if (c_kind == 4'd2) begin
				cntp[{2'd0, w[61:32]} + c_index] <= c_dat[63:0];
				cntb[{2'd0, w[61:32]} + c_index] <= c_dat[127:64];
			end else begin
				m_rsp_a <= cntp[{2'd0, w[61:32]} + c_index];
				m_rsp_b <= cntb[{2'd0, w[61:32]} + c_index];
			end
		end
		4'd3, 4'd11: begin
			w = cw({16'd0, b_register} + {16'd0, c_id});
			if (!loaded || c_id >= g_nregisters || c_index >= w[31:0])
				c_err <= ERR_RANGE;
			else if (c_kind == 4'd3) begin
				if ((c_dat[63:0] & ~mask64(w[62:56])) != 0)
					c_err <= ERR_RANGE;
				else
					regs[{8'd0, w[55:32]} + c_index] <= c_dat[63:0];
			end else begin
				m_rsp_a <= regs[{8'd0, w[55:32]} + c_index];
			end
		end
		4'd5: begin
			// a group's copies: n x (rid u16, port u16), little-endian
			if (!loaded || c_id >= MC_GROUPS)
				c_err <= ERR_RANGE;
			else if (c_index > MC_SLOT)
				c_err <= ERR_FULL;
			else if ({16'd0, c_len} != 4 * c_index)
				c_err <= ERR_INVAL;
			else begin
				c_k <= 16'd0;
				st <= S_C_MCCOPY;
			end
		end
		4'd4: begin
			// configured flag, then cir_q16, pir_q16, cbs, pbs (u32 each); buckets full
			w = cw({16'd0, b_meter} + {16'd0, c_id});
			base = {2'd0, w[61:32]} + c_index;
			if (!loaded || c_id >= g_nmeters || c_index >= w[31:0] || base >= MTR_CELLS) begin
				c_err <= ERR_RANGE;
			end else begin
				m_on[base] <= c_flag != 0;
				m_cir[base] <= c_dat[31:0];
				m_pir[base] <= c_dat[63:32];
				m_cbs[base] <= c_dat[95:64];
				m_pbs[base] <= c_dat[127:96];
				m_tc[base] <= {16'd0, c_dat[95:64], 16'd0};
				m_tp[base] <= {16'd0, c_dat[127:96], 16'd0};
				m_last[base] <= now;
			end
		end
		4'd6: begin
			// enabled flag; port, mcast_grp, truncate (u16 each)
			if (!loaded || c_id >= CL_SESS ||
			    (c_flag != 0 && c_dat[15:0] >= 16'd511 && c_dat[31:16] == 16'd0) ||
			    (c_dat[31:16] != 16'd0 && c_dat[31:16] >= MC_GROUPS)) begin
				c_err <= ERR_RANGE;
			end else begin
				cs_en[{16'd0, c_id}] <= c_flag != 0;
				cs_port[{16'd0, c_id}] <= c_dat[8:0];
				cs_grp[{16'd0, c_id}] <= c_dat[31:16];
				cs_trunc[{16'd0, c_id}] <= c_dat[47:32];
			end
		end
		default: c_err <= ERR_INVAL;
		endcase
	end
	S_C_AFIND: begin
		// the row's action must be one of the table's, in its place (default or entry)
		w = cw({16'd0, b_table} + 5 * c_id);
		v = cw({16'd0, b_table} + 5 * c_id + 4);
		r = cw({16'd0, v[47:32]} + {24'd0, ai});
		if (ai >= w[23:16]) begin
			c_err <= ERR_INVAL;
			st <= S_C_RSP;
		end else if (r[63:48] == {rstage[1], rstage[2]}) begin
			v = cw({16'd0, b_table} + 5 * c_id + 1);
			if ((c_index != v[63:32] && r[24]) || (c_index == v[63:32] && r[25])) begin
				c_err <= ERR_INVAL;
				st <= S_C_RSP;
			end else begin
				st <= S_C_ROWCOPY;
			end
		end else begin
			ai <= ai + 8'd1;
		end
	end
	S_C_MCCOPY: begin
		// ports are checked first: a refused group is left as it was
		if (c_k < c_index[15:0]) begin
			if ({rstage[4 * c_k + 3], rstage[4 * c_k + 2]} >= 16'd511) begin
				c_err <= ERR_RANGE;
				st <= S_C_RSP;
			end else begin
				c_k <= c_k + 16'd1;
			end
		end else begin
			for (i = 0; i < MC_SLOT; i = i + 1) begin
				mc_rid[c_id * MC_SLOT + i] <= {rstage[4 * i + 1], rstage[4 * i]};
				mc_port[c_id * MC_SLOT + i] <= {rstage[4 * i + 3][0], rstage[4 * i + 2]};
			end
			mc_n[{16'd0, c_id}] <= c_index[15:0];
			st <= S_C_RSP;
		end
	end
	S_C_ROWCOPY: begin
		v = cw({16'd0, b_table} + 5 * c_id + 1);
		if (c_k < c_len) begin
			rowm[v[31:0] + c_index * c_len + {16'd0, c_k}] <= rstage[{16'd0, c_k}];
			c_k <= c_k + 16'd1;
		end else begin
			st <= S_C_RSP;
		end
	end
	S_C_RSP: begin
		if (!m_rsp_valid) begin
			m_rsp_err <= c_err;
			m_rsp_valid <= 1'b1;
			st <= S_IDLE;
		end
	end
	default: st <= S_IDLE;
	endcase

	if (rst) begin
		st <= S_IDLE;
		loaded <= 1'b0;
		m_rsp_valid <= 1'b0;
		m_pkt_valid <= 1'b0;
		m_dig_valid <= 1'b0;
		cnt_rx <= 32'd0;
		cnt_tx <= 32'd0;
		cnt_drop <= 32'd0;
		cnt_oversize <= 32'd0;
		cnt_cycles <= 64'd0;
		now <= 48'd0;
		rng <= 32'd1;
		bank <= 1'b0;
		commit_pend <= 1'b0;
		reset_pend <= 1'b0;
	end
end

endmodule
`default_nettype wire
