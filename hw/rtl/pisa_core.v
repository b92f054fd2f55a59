// SPDX-License-Identifier: Apache-2.0
// pisa_core: the switch pipeline as one run-to-completion engine on block RAM: it runs a
// whole image (docs/architecture.md) pass by pass, bit-exact with pisa-model, and it
// synthesizes for the boards: every memory is a pisa_ram (block RAM, one read and one write
// per clock), the datapath is byte-serial, and the 64-bit arithmetic goes through one
// multi-cycle ALU (pisa_alu_seq).
//
// Configuration: the words of lib/pisa_hwconf.c (docs/hwconf.md) are written on s_cfg_*;
// with BANKS = 2 into the bank that is not running, at any time; with BANKS = 1 into the only
// bank, which stops the running image (loaded falls) until cfg_commit. cfg_commit (with
// BANKS = 2 it swaps the banks) empties every table, counter, register, meter, multicast
// group and clone session, writes the image's default rows, and the image runs. state_reset
// does the same without a swap. Both are taken between packets. Table rows, counters,
// registers, meters, groups and sessions change through the command beats of pisa_link_ctrl
// (s_cmd_*, one answer per op on m_rsp_*), taken only between packets, so a packet sees a row
// entirely old or entirely new.
//
// Memories (all pisa_ram):
//   cfg   64-bit words, BANKS x CFG_WORDS
//   pkt   the packet, PKT_MAX bytes
//   dm    every other byte, one address space (A_* below): the PHV and its two copies (the
//         PHV ingress left, for multicast copies; an I2E clone's original), the command's
//         staged row, the digest being built, multicast groups, clone sessions, meter cells,
//         counters, registers and the tables' rows. One byte-wide memory wastes no block
//         RAM on memories too narrow or too shallow for one, which the iCE40 boards cannot
//         afford; everything it holds is reached one byte per clock.
// Multi-byte values in dm are big-endian, as the rows are (lib/pisa_switch.h).
//
// Implemented: the parser (extract, header stacks, advance, lookahead, select with masks),
// every ALU instruction, validity, copy header, exit, drop, counters (indexed and direct),
// registers, hash units (CRC-16/32 with any parameters, csum16, xor16, identity, random),
// random, truncate, checksum verify and update (with payload), exact (hash ways) and
// ternary/lpm/range (row scan) tables, hit/miss, action_run and gateway control flow,
// ingress and egress passes, unicast, multicast (MC_GROUPS groups of MC_SLOT copies), drop,
// meters (indexed and direct, two-rate three-colour), digests (m_dig_*), I2E clones,
// resubmit (up to 16 ingress passes a packet, as pisa-model's PISA_MODEL_MAX_PASSES).
// Not yet: E2E clones, recirculate, varbit headers: lib/pisa_hwconf.c refuses images that
// use those.
//
// Packets: s_pkt_* carries one packet (port with every byte, s_pkt_last on the final one);
// now_us is the time stamp sampled with its first byte. m_pkt_* gives each packet that
// leaves, m_pkt_port its egress port. Stream contract as everywhere in hw/: a word moves
// when valid && ready at a rising clock edge; a source keeps valid and data until ready.
`default_nettype none

module pisa_core #(
	parameter CFG_WORDS = 65536,	// configuration words per bank (lib/pisa_hwconf.h limits)
	parameter BANKS = 2,		// 2: stage an image while one runs; 1: half the memory
	parameter ROW_BYTES = 1048576,	// row memory of all tables
	parameter CNT_CELLS = 16384,	// counter cells (packets and bytes each)
	parameter REG_CELLS = 16384,	// register cells
	parameter MTR_CELLS = 4096,	// meter cells
	parameter KEY_BITS = 512,	// widest table key, a multiple of 8
	parameter PHV_MAX = 1024,	// PHV bytes
	parameter PKT_MAX = 4096,	// longest packet; longer ones are dropped and counted
	parameter ROW_STAGE = 1024,	// longest row (or multicast group) a command may write
	parameter STACKS = 64,		// header stacks
	parameter MC_GROUPS = 256,	// multicast groups 0 .. MC_GROUPS-1 ...
	parameter MC_SLOT = 16,		// ... of at most MC_SLOT copies each, a power of 2
	parameter DIG_MAX = 1024,	// longest digest, bytes (longer ones are cut)
	parameter CL_SESS = 1024,	// clone (mirror) sessions
	parameter DM_RAM_BITS = 8	// bits of dm per memory: 8, or 1 on the ECP5 (below)
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
localparam [8:0] MAX_STEPS = 9'd256;
localparam [3:0] K_PHV = 4'd1, K_CONST = 4'd2, K_ADATA = 4'd3, K_PKT = 4'd4;
localparam [7:0] OP_MAX = 8'd22, OP_DIGEST = 8'd40, OP_JZ = 8'd23, OP_JNZ = 8'd24,
	OP_SETVALID = 8'd25, OP_SETINVALID = 8'd26, OP_COPYHDR = 8'd27, OP_EXIT = 8'd28,
	OP_COUNT = 8'd29, OP_REG_READ = 8'd30, OP_REG_WRITE = 8'd31, OP_METER = 8'd32,
	OP_DMETER = 8'd33, OP_HASH = 8'd34, OP_RANDOM = 8'd35, OP_CLONE = 8'd36, OP_RESUBMIT = 8'd37,
	OP_TRUNCATE = 8'd39, OP_DROP = 8'd41, OP_EXTRACT = 8'd42, OP_EXTRACT_STACK = 8'd43,
	OP_ADVANCE = 8'd45;
// pisa_alu_seq's internal operations and the ALU opcodes the engine itself uses
localparam [7:0] OP_ADD = 8'd2, OP_SUB = 8'd3, OP_LTU = 8'd17, OP_MODU = 8'd64,
	OP_MULSAT = 8'd65;
localparam [31:0] E_TOO_SHORT = 32'd1, E_NO_MATCH = 32'd2, E_STACK = 32'd3,
	E_TIMEOUT = 32'd5, E_ARG = 32'd6;
localparam [7:0] ERR_RANGE = 8'd6, ERR_FULL = 8'd8, ERR_INVAL = 8'd10;
localparam [1:0] MEM_NONE = 2'd0, MEM_HASH = 2'd1;	// else TCAM
localparam [1:0] NX_ACTION = 2'd1, NX_COND = 2'd2;	// else hit/miss
localparam [7:0] M_RANGE = 8'd3;
localparam [63:0] HW_MAGIC = 64'h5048574300000001;

// ---- the data memory's address space (bytes) ----
localparam integer A_PHV = 0;				// the PHV
localparam integer A_SAVE = PHV_MAX;			// the PHV ingress left (multicast)
localparam integer A_ORIG = 2 * PHV_MAX;		// an I2E clone's original
localparam integer A_STAGE = 3 * PHV_MAX;		// a command's row or group
localparam integer A_DIG = A_STAGE + ROW_STAGE;		// the digest being built
localparam integer A_MCN = A_DIG + DIG_MAX;		// copies per group, u16
localparam integer A_MCS = A_MCN + 2 * MC_GROUPS;	// copies: rid u16, port u16
localparam integer A_CLS = A_MCS + 4 * MC_GROUPS * MC_SLOT;	// sessions, 8 bytes
localparam integer A_MTR = A_CLS + 8 * CL_SESS;		// meter cells, 40 bytes
localparam integer A_CNT = A_MTR + 40 * MTR_CELLS;	// counters: packets u64, bytes u64
localparam integer A_REG = A_CNT + 16 * CNT_CELLS;	// registers, u64
localparam integer A_ROW = A_REG + 8 * REG_CELLS;	// rows
localparam integer DM_BYTES = A_ROW + ROW_BYTES;
localparam integer DM_AW = $clog2(DM_BYTES);
localparam integer PKT_AW = $clog2(PKT_MAX);
localparam integer CFG_AW = $clog2(CFG_WORDS * BANKS);
localparam integer MV_AW = DM_AW > PKT_AW ? DM_AW : PKT_AW;	// a move's source
localparam integer MC_SHIFT = $clog2(MC_SLOT);
function [32:0] w33(input [31:0] x);	// a parameter as 33 bits
	w33 = {1'b0, x};
endfunction
localparam [32:0] REG_CELLS33 = w33(REG_CELLS), CNT_CELLS33 = w33(CNT_CELLS),
	MTR_CELLS33 = w33(MTR_CELLS);
localparam integer STK_W = STACKS > 1 ? $clog2(STACKS) : 1;
// A meter cell: cir u32 [0], pir u32 [4], cbs u32 [8], pbs u32 [12], tc u64 [16],
// tp u64 [24], last u48 [32], configured u8 [38], 1 spare.
localparam integer MTR_ON = 38;

// Impossible parameters stop elaboration (an instance with no such module).
generate
	if (BANKS != 1 && BANKS != 2)
		pisa_core_BANKS_must_be_1_or_2 bad_banks();
	if ((1 << MC_SHIFT) != MC_SLOT)
		pisa_core_MC_SLOT_must_be_a_power_of_2 bad_mc_slot();
	if (KEY_BITS % 8 != 0 || KEY_BITS < 64)
		pisa_core_KEY_BITS_must_be_a_multiple_of_8_and_at_least_64 bad_key_bits();
	if (PHV_MAX < 64 || PHV_MAX > 8192)
		pisa_core_PHV_MAX_must_be_64_to_8192 bad_phv_max();
	if (CFG_WORDS < 16 || CFG_WORDS > 65536)
		pisa_core_CFG_WORDS_must_be_16_to_65536 bad_cfg_words();
	if (ROW_STAGE < 16)
		pisa_core_ROW_STAGE_must_be_at_least_16 bad_row_stage();
	if (DM_RAM_BITS != 1 && DM_RAM_BITS != 2 && DM_RAM_BITS != 4 && DM_RAM_BITS != 8)
		pisa_core_DM_RAM_BITS_must_be_1_2_4_or_8 bad_dm_ram_bits();
endgenerate

// ---- memories ----
reg bank;				// the running bank (BANKS = 2)
reg [CFG_AW-1:0] cfg_ra;
wire [63:0] cfg_rd;
wire cfg_we = s_cfg_valid && s_cfg_ready;
wire [CFG_AW-1:0] cfg_wa;
wire [31:0] cfg_wa32 = {16'd0, s_cfg_addr} + ((BANKS == 2 && !bank) ? CFG_WORDS : 0);
assign cfg_wa = cfg_wa32[CFG_AW-1:0];	// into the bank that is not running

pisa_ram #(.WIDTH(64), .DEPTH(CFG_WORDS * BANKS)) u_cfg (
	.clk(clk), .we(cfg_we), .waddr(cfg_wa), .wdata(s_cfg_data), .raddr(cfg_ra),
	.rdata(cfg_rd)
);

reg [DM_AW-1:0] dm_ra, dm_wa;
reg [7:0] dm_wd;
reg dm_we;
wire [7:0] dm_rd;

// dm as 8 / DM_RAM_BITS memories side by side. One bit each suits the ECP5: its DP16KDs then
// run 16K x 1, so a read picks among 4 of them, not 32 of 2K x 9 (in a 64 KB dm), which takes
// about 560 LUT4 and mux levels off the core's critical path. Not on the iCE40, whose block
// RAM is at least 2 bits wide: 1-bit memories would leave half of it empty.
genvar dm_slice;
generate
	for (dm_slice = 0; dm_slice < 8; dm_slice = dm_slice + DM_RAM_BITS) begin : g_dm
		pisa_ram #(.WIDTH(DM_RAM_BITS), .DEPTH(DM_BYTES)) u_dm (
			.clk(clk), .we(dm_we), .waddr(dm_wa),
			.wdata(dm_wd[dm_slice +: DM_RAM_BITS]), .raddr(dm_ra),
			.rdata(dm_rd[dm_slice +: DM_RAM_BITS])
		);
	end
endgenerate

reg [PKT_AW-1:0] pkt_ra;
wire [7:0] pkt_rd;
wire pkt_we;
wire [PKT_AW-1:0] pkt_wa;

pisa_ram #(.WIDTH(8), .DEPTH(PKT_MAX)) u_pkt (
	.clk(clk), .we(pkt_we), .waddr(pkt_wa), .wdata(s_pkt_data), .raddr(pkt_ra),
	.rdata(pkt_rd)
);

// ---- the image's header words (docs/hwconf.md), latched when it starts ----
reg [63:0] hw1, hw2, hw3, hw4, hw5, hw6, hw7, hw8, hw9;
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
wire [31:0] g_row_used = hw7[31:0];
wire [31:0] g_cnt_used = hw8[63:32], g_reg_used = hw8[31:0];
wire [15:0] b_digest = hw9[63:48], g_ndigests = hw9[47:32];
wire [15:0] b_meter = hw9[31:16], g_nmeters = hw9[15:0];
wire [18:0] g_phv_bits = {g_phv_bytes, 3'b000};

// ---- helpers ----
function [63:0] mask64(input [6:0] w);
	mask64 = w[6] ? {64{1'b1}} : ~({64{1'b1}} << w[5:0]);
endfunction

function [31:0] xorshift(input [31:0] x0);
	reg [31:0] x;
	begin
		x = x0 ^ (x0 << 13);
		x = x ^ (x >> 17);
		xorshift = x ^ (x << 5);
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

function [31:0] rev32(input [31:0] v);
	integer i;
	for (i = 0; i < 32; i = i + 1)
		rev32[i] = v[31 - i];
endfunction


function [DM_AW-1:0] dma(input [31:0] a);	// 32 bits as a dm address
	dma = a[DM_AW-1:0];
endfunction
function [DM_AW:0] dm_len(input [31:0] n);	// a length within dm
	dm_len = n[DM_AW:0];
endfunction
function [31:0] dm32(input [DM_AW-1:0] a);	// a dm address as 32 bits
	dm32 = {{(32 - DM_AW){1'b0}}, a};
endfunction

// ---- states (numbered in the order they appear below) ----
localparam [7:0]
	S_IDLE = 8'd0, S_CFG = 8'd1, S_FR = 8'd2, S_FW = 8'd3, S_MUL = 8'd4, S_DMR = 8'd5,
	S_DMW = 8'd6, S_ALU = 8'd7, S_CNT = 8'd8, S_META = 8'd9, S_WRITE_META = 8'd10,
	S_H_FEED = 8'd11, S_MTR = 8'd12, S_LOAD_CLR = 8'd13, S_MOVE = 8'd14, S_X_FETCH = 8'd15,
	S_H_START = 8'd16, S_COPY_DONE = 8'd17, S_PASS_END = 8'd18, S_T_NEXT = 8'd19,
	S_T_HBYTE = 8'd20, S_T_HCMP = 8'd21, S_T_TCMP = 8'd22, S_LOAD_HDR = 8'd23,
	S_LOAD_HDR_W = 8'd24, S_RX = 8'd25, S_C_BEAT = 8'd26, S_X_OPA = 8'd27, S_X_OPB = 8'd28,
	S_CSUM_COND = 8'd29, S_CSUM_CMP = 8'd30, S_X_REG = 8'd31, S_C_REG = 8'd32, S_FR_RD = 8'd33,
	S_CLEAR = 8'd34, S_ZERO = 8'd35, S_CL_KEEP = 8'd36, S_ING_INIT = 8'd37, S_P_STATE = 8'd38,
	S_P_ERR = 8'd39, S_P_STATE_W = 8'd40, S_P_OPS = 8'd41, S_P_KEY = 8'd42, S_P_KEY_W = 8'd43,
	S_P_ROWS = 8'd44, S_P_KEY_V = 8'd45, S_P_ROW_W = 8'd46, S_CSUM = 8'd47, S_DEP = 8'd48,
	S_CL_SPAWN = 8'd49, S_CSUM_W = 8'd50, S_CSUM_DONE = 8'd51, S_T_NEXT_W = 8'd52,
	S_T_ACT = 8'd53, S_T_KEY = 8'd54, S_T_KEY_W = 8'd55, S_T_HWAY = 8'd56, S_T_TROW = 8'd57,
	S_T_KEYB = 8'd58, S_T_KEY_V = 8'd59, S_T_HBIT = 8'd60, S_T_HBASE = 8'd61, S_T_HROW = 8'd62,
	S_T_TNEXT = 8'd63, S_T_TRANGE = 8'd64, S_T_TRANGE_W = 8'd65, S_T_TRANGE_V = 8'd66,
	S_T_TRANGE_LH = 8'd67, S_T_TRANGE_HI = 8'd68, S_T_TRANGE_OK = 8'd69, S_T_ACT_RD = 8'd70,
	S_T_ACT_CNT = 8'd71, S_T_AFIND = 8'd72, S_T_AFTER = 8'd73, S_T_AFIND_W = 8'd74,
	S_T_EXEC = 8'd75, S_T_AFTER_F = 8'd76, S_TM = 8'd77, S_TM_CLONE = 8'd78, S_TM_GO = 8'd79,
	S_MC_N = 8'd80, S_EG_INIT = 8'd81, S_MC_NEXT = 8'd82, S_MC_NEXT_RD = 8'd83,
	S_CL_KEEP_N = 8'd84, S_CL_KEEP_W = 8'd85, S_CL_KEEP_V = 8'd86, S_DEP_ENT = 8'd87,
	S_OUT_PAY = 8'd88, S_DEP_LEN = 8'd89, S_DEP_W = 8'd90, S_DEP_H = 8'd91, S_DEP_V = 8'd92,
	S_OUT_HDR = 8'd93, S_DEP_NEXT = 8'd94, S_OUT_HS = 8'd95, S_OUT_PS = 8'd96, S_OUT_END = 8'd97,
	S_X_FETCH_W = 8'd98, S_X_RUN = 8'd99, S_X_ALU = 8'd100, S_X_COPY = 8'd101,
	S_X_HASHED = 8'd102, S_X_RANDOM = 8'd103, S_X_DIG = 8'd104, S_X_DROP = 8'd105,
	S_X_EXTRACT = 8'd106, S_X_STACK = 8'd107, S_X_COPY_W = 8'd108, S_X_COPY_B = 8'd109,
	S_X_COPY_V = 8'd110, S_X_EXTRACT_V = 8'd111, S_X_REG_RD = 8'd112, S_X_HASHED2 = 8'd113,
	S_X_PUT = 8'd114, S_DIG_OUT = 8'd115, S_H_FL = 8'd116, S_DIG_OUT_RD = 8'd117,
	S_H_START_W = 8'd118, S_H_FIELD = 8'd119, S_H_PAD = 8'd120, S_H_PAY = 8'd121,
	S_H_FIN = 8'd122, S_H_FIELD_W = 8'd123, S_H_BYTE = 8'd124, S_H_BITS = 8'd125,
	S_FW_RD = 8'd128, S_CNT_W = 8'd129,
	S_CNT_LEN = 8'd130, S_CNT_ADD = 8'd131, S_MTR_W = 8'd132, S_MTR_RUN = 8'd133,
	S_C_STAGE = 8'd134, S_C_CHECK = 8'd135, S_C_RSP = 8'd136, S_C_ROW = 8'd137, S_C_CNT = 8'd138,
	S_C_MTR = 8'd139, S_C_MCCHK = 8'd140, S_C_AFIND = 8'd141, S_C_ROWMUL = 8'd142,
	S_C_AFIND_W = 8'd143, S_C_ROWCOPY = 8'd144, S_C_CNT_RW = 8'd145, S_C_REG_RD = 8'd146,
	S_C_MTR_W = 8'd147, S_C_MCCHK_W = 8'd148, S_C_MCCOPY = 8'd149, S_C_MCCOPY_W = 8'd150,
	S_LOAD_HDR_W2 = 8'd151, S_LOAD_RANGE = 8'd152, S_LOAD_DEF = 8'd153, S_LOAD_DEF_W = 8'd154,
	S_LOAD_DEF_M = 8'd155, S_LOAD_DEF_B = 8'd156, S_LOAD_DEF_C = 8'd157;

reg [7:0] st;
reg [15:0] plen;		// packet bytes
reg [8:0] in_port;
reg [47:0] now;
reg oversize;
reg [31:0] rng;
reg commit_pend, reset_pend;

function [CFG_AW-1:0] cfg_addr(input [15:0] a);	// word a of the running bank
	reg [31:0] w;
	begin
		w = {16'd0, a} + ((BANKS == 2 && bank) ? CFG_WORDS : 0);
		cfg_addr = w[CFG_AW-1:0];
	end
endfunction

// ---- subroutines: each has its own return state ----
// S_CFG: cf_n (1..5) configuration words from cf_addr into cf0..cf4
reg [15:0] cf_addr;
reg [2:0] cf_n, cf_i, cf_k;
reg cf_pend;
reg [7:0] cf_ret;
reg [63:0] cf0, cf1, cf2, cf3, cf4;

task cfg_fetch(input [15:0] addr, input [2:0] n, input [7:0] ret);
	begin
		cfg_ra <= cfg_addr(addr);	// the first word now: it arrives in S_CFG
		cf_addr <= addr;
		cf_n <= n;
		cf_i <= 3'd1;
		cf_k <= 3'd0;
		cf_pend <= 1'b1;
		cf_ret <= ret;
		st <= S_CFG;
	end
endtask

// S_FR: field read: fr_w bits at bit fr_off of a source into fv (zero outside it)
localparam [1:0] SRC_PHV = 2'd0, SRC_ORIG = 2'd1, SRC_ADATA = 2'd2, SRC_PKT = 2'd3;
reg [1:0] fr_src;
reg [31:0] fr_off, fr_b;
reg [6:0] fr_w;
reg [3:0] fr_nb, fr_k;
reg [2:0] fr_s;
reg fr_inr;
reg [71:0] fr_acc;
reg [63:0] fv;
reg [7:0] fr_ret;

// Reads field byte fr_byte (zero past the end of its source) and moves to the next.
task fr_read;
	begin
		case (fr_src)
		SRC_PHV: dm_ra <= dma(A_PHV + fr_byte);
		SRC_ORIG: dm_ra <= dma(A_ORIG + fr_byte);
		SRC_ADATA: dm_ra <= dma(A_ROW + dm32(x_adbase) + fr_byte);
		default: pkt_ra <= fr_byte[PKT_AW-1:0];
		endcase
		case (fr_src)
		SRC_ADATA: fr_inr <= fr_byte < {16'd0, x_db};
		SRC_PKT: fr_inr <= fr_byte < {16'd0, plen} && fr_byte < PKT_MAX;
		default: fr_inr <= fr_byte < PHV_MAX;
		endcase
		fr_b <= fr_byte + 32'd1;
	end
endtask

task field_read(input [1:0] src, input [31:0] off, input [6:0] w, input [7:0] ret);
	begin
		fr_src <= src;
		fr_off <= off;
		fr_w <= w;
		fr_ret <= ret;
		st <= S_FR;
	end
endtask

// S_FW: field write: fw_w bits of fw_v at PHV bit fw_off (outside the PHV: nothing)
reg [15:0] fw_off;
reg [6:0] fw_w;
reg [63:0] fw_v;
reg [3:0] fw_nb, fw_k;
reg [DM_AW-1:0] fw_pa;
reg [71:0] fw_vs, fw_ms;
reg [7:0] fw_ret;

task field_write(input [15:0] off, input [6:0] w, input [63:0] v, input [7:0] ret);
	begin
		fw_off <= off;
		fw_w <= w;
		fw_v <= v;
		fw_ret <= ret;
		st <= S_FW;
	end
endtask

// S_MUL: mul_p = mul_a * mul_b (32 x 16 bits, low 32 bits), one bit of mul_b per clock
reg [31:0] mul_a, mul_p;
reg [15:0] mul_b;
reg [7:0] mul_ret;

task mul_start(input [31:0] a, input [15:0] b, input [7:0] ret);
	begin
		mul_a <= a;
		mul_b <= b;
		mul_p <= 32'd0;
		mul_ret <= ret;
		st <= S_MUL;
	end
endtask

// S_DMR / S_DMW: dm_n (1..8) bytes at dm_addr, big-endian, into / from dacc
reg [DM_AW-1:0] dm_addr;
reg [3:0] dm_n, dm_i, dm_k;
reg dm_pend;
reg [63:0] dacc;
reg [7:0] dm_ret;

task dm_read(input [31:0] addr, input [3:0] n, input [7:0] ret);
	begin
		dm_addr <= dma(addr);
		dm_n <= n;
		dm_i <= 4'd0;
		dm_k <= 4'd0;
		dm_pend <= 1'b0;
		dacc <= 64'd0;
		dm_ret <= ret;
		st <= S_DMR;
	end
endtask

// value v's low n bytes, the first of them in dacc[63:56]
task dm_write(input [31:0] addr, input [3:0] n, input [63:0] v, input [7:0] ret);
	begin
		dm_addr <= dma(addr);
		dm_n <= n;
		dm_i <= 4'd0;
		dacc <= v << {4'd8 - n, 3'b000};
		dm_ret <= ret;
		st <= S_DMW;
	end
endtask

// S_ALU: one operation of pisa_alu_seq on alu_* into alu_res
reg [7:0] alu_op;
reg alu_sgn, alu_cin, alu_start;
reg [63:0] alu_a, alu_b;
reg [6:0] alu_aw, alu_bw, alu_dw;
reg [7:0] alu_ret;
wire alu_busy, alu_done, alu_write, alu_cout;
wire _unused_alu = &{1'b0, alu_busy, 1'b0};	// the engine waits for done
wire [63:0] alu_res;

pisa_alu_seq u_alu (
	.clk(clk), .rst(rst), .start(alu_start), .op(alu_op), .sgn(alu_sgn), .a(alu_a),
	.a_width(alu_aw), .b(alu_b), .b_width(alu_bw), .dst_width(alu_dw), .carry_in(alu_cin),
	.busy(alu_busy), .done(alu_done), .result(alu_res), .write(alu_write),
	.carry_out(alu_cout)
);

// a 64-bit unsigned operation (OP_ADD, OP_SUB, OP_LT, OP_MODU, OP_MULSAT) for the engine
task alu_call(input [7:0] op, input [63:0] a, input [63:0] b, input [7:0] ret);
	begin
		alu_op <= op;
		alu_sgn <= 1'b0;
		alu_a <= a;
		alu_b <= b;
		alu_aw <= 7'd64;
		alu_bw <= 7'd64;
		alu_dw <= 7'd64;
		alu_cin <= 1'b0;
		alu_start <= 1'b1;
		alu_ret <= ret;
		st <= S_ALU;
	end
endtask

// S_CNT: counter cnt_id, cell index cnt_idx counts the packet (model_count)
reg [15:0] cnt_id;
reg [63:0] cnt_idx;
reg [31:0] cnt_cell;
reg [1:0] cnt_kind;
reg [63:0] cnt_add;
reg [31:0] cnt_len;
reg [3:0] cnt_i, cnt_k;
reg cnt_pend, cnt_carry, cnt_second;
reg [DM_AW-1:0] cnt_pa;
reg [7:0] cnt_ret;

task count(input [15:0] id, input [63:0] idx, input [7:0] ret);
	begin
		cnt_id <= id;
		cnt_idx <= idx;
		cnt_ret <= ret;
		st <= S_CNT;
	end
endtask

// S_META: the metadata bytes the traffic manager and the deparser read (PHV bytes 2, 3, 6,
// 7, 52 .. 55, 58, 59) into md_*
reg [3:0] md_i;
reg md_pend;
reg [3:0] md_k;
reg [8:0] md_espec;
reg [15:0] md_mgrp, md_csess, md_trunc;
reg [7:0] md_ctype, md_cflist, md_rflist;
reg [7:0] md_ret;

function [15:0] meta_byte(input [3:0] i);	// the i-th byte S_META reads
	case (i)
	4'd0: meta_byte = 16'd2;
	4'd1: meta_byte = 16'd3;
	4'd2: meta_byte = 16'd6;
	4'd3: meta_byte = 16'd7;
	4'd4: meta_byte = 16'd52;
	4'd5: meta_byte = 16'd53;
	4'd6: meta_byte = 16'd54;
	4'd7: meta_byte = 16'd55;
	4'd8: meta_byte = 16'd58;
	4'd9: meta_byte = 16'd59;
	default: meta_byte = 16'd56;
	endcase
endfunction

task meta_read(input [7:0] ret);
	begin
		md_i <= 4'd0;
		md_k <= 4'd0;
		md_pend <= 1'b0;
		md_ret <= ret;
		st <= S_META;
	end
endtask

// S_WRITE_META: PHV metadata bytes wm_i .. wm_end that meta_val(wm_mode) writes, one per clock
localparam [2:0] WM_ING = 3'd0, WM_EG = 3'd1, WM_PERR = 3'd2, WM_INST = 3'd3,
	WM_CLONE_REQ = 3'd4, WM_TRUNC = 3'd5, WM_RESUB_REQ = 3'd6;
reg [2:0] wm_mode;
reg [5:0] wm_i, wm_end;
reg [7:0] wm_ret;

task write_meta(input [2:0] mode, input [5:0] first, input [5:0] last, input [7:0] ret);
	begin
		wm_mode <= mode;
		wm_i <= first;
		wm_end <= last;
		wm_ret <= ret;
		st <= S_WRITE_META;
	end
endtask

// the parser
reg [15:0] cursor, pstate;
reg [8:0] steps;
reg [31:0] perr;
reg [2:0] pk_i;
reg [15:0] prow;

// the bit streamer: fv's low sb_n bits, MSB first, one per clock (keys, field lists)
reg [6:0] sb_n;
wire sb_bit = fv[sb_n[5:0] - 6'd1];

// passes and tables
reg gress;
reg [15:0] tnext;
reg [63:0] tw0, tw1, tw2, tw3, tw4;
reg [KEY_BITS-1:0] keyv;
reg [7:0] ki;
reg [2:0] way;
reg [15:0] kbi;
reg [3:0] hbit;
reg [31:0] hcrc;
reg [31:0] trow;
reg [31:0] way_base;		// the first row of way way
// Row offsets only ever address dm (dma() keeps DM_AW bits), so they are DM_AW bits wide.
reg [DM_AW-1:0] rb;		// byte offset of the row being looked at (row memory)
reg hit;
reg [DM_AW-1:0] rbase;		// byte offset of the row that ran
reg [15:0] aid;
reg [7:0] ai;
reg [63:0] ta_w;		// the table action that matched
reg afound, rvalid;
reg [DM_AW-1:0] rg;		// TCAM: the next range field's offset in the row
reg [3:0] rn;			// its bytes (at most 8 read)
reg [4:0] rn_full;		// its bytes in the row (at most 16)

wire [15:0] t_kb = tw0[15:0];	// key bytes
wire [31:0] t_rows = tw1[63:32];
wire [31:0] t_base = tw1[31:0];
wire [15:0] t_rowb = tw2[63:48];

// the instruction engine
reg [15:0] x_pc, x_left;
reg x_parser, x_carry, x_exit;
reg [7:0] x_ret;
reg [7:0] x_op, x_flags;
reg [15:0] x_imm;
reg [31:0] x_dst, x_ad, x_bd;
reg [63:0] x_a, x_b;
reg [15:0] x_aval;		// a's value (a header id, COPYHDR), if it fits 16 bits
reg x_aval_ok;
reg [7:0] x_bval;		// b's value's low byte (CLONE's field list)
reg x_adata;			// action data present (a table row ran)
reg [DM_AW-1:0] x_adbase;
reg [15:0] x_db;
reg [15:0] ex_hdr, ex_len;
reg [63:0] x_t;			// a temporary of the multi-step instructions

// the hash engine (hash units, checksum units, digests)
reg [15:0] h_rec;		// address of the 3-word hash record
reg h_pay;			// append the payload
reg [7:0] h_ret;
reg [2:0] h_cls;		// 0 CRC, 1 csum16, 2 xor16, 3 identity, 4 random, 5 digest
reg [5:0] h_width;
reg h_refin, h_refout;
reg [31:0] h_poly, h_xo, h_crc, h_sum;
reg [15:0] h_xor;
reg [63:0] h_id, h_res;
reg h_odd;
reg [7:0] h_hi, h_byte;
reg [3:0] h_nbit;
reg [15:0] h_fi, h_nf, h_faddr, h_pi, h_dn;
reg [12:0] h_ba;		// the byte path: next PHV byte, bytes left
reg [3:0] h_bn;
reg h_inb;			// the byte path: a byte read last clock arrives now
reg [7:0] h_fret;		// where S_H_FEED returns

// checksum units, deparser, traffic manager
reg [15:0] cs_i, dp_i, dp_b, dp_hl, dp_hb;
reg [15:0] zi;			// PHV bytes cleared
reg [17:0] olen, oi, hlen;
reg dp_emit;			// second walk: send the bytes
reg [15:0] eg_port;
reg [8:0] cp_port;		// the copy that egress runs: port, rid, multicast replica
reg [15:0] cp_rid;
reg cp_mc;
reg [15:0] mc_g, mc_i, mc_n;
localparam [1:0] PC_TO_SAVE = 2'd0, PC_FROM_SAVE = 2'd1, PC_TO_ORIG = 2'd2,
	PC_FROM_ORIG = 2'd3;
reg cp_rep;			// the copy is a multicast replica (instance_type 5)
reg [15:0] cp_trunc;		// a clone session's truncation, 0 none
reg cl_active, cl_done;		// the packet's I2E clone is running / was served
reg [4:0] passes;		// the packet's ingress passes (resubmit starts another)
localparam [4:0] MAX_PASSES = 5'd16;	// pisa-model's PISA_MODEL_MAX_PASSES
reg [15:0] cl_k, orig_cursor;
reg [63:0] cl_w;		// the kept field list's word
// the field list a clone's or a resubmitted pass's PHV keeps (S_ZERO, S_CL_KEEP*)
wire [7:0] keep_flist = cl_active ? md_cflist : md_rflist;

// meters (S_MTR): the cell and the arithmetic of model_meter_exec
reg [15:0] mt_id;
reg [63:0] mt_idx;
reg [31:0] mt_cell;
reg [4:0] mt_step;
reg mt_bytes;
reg [31:0] mt_cir, mt_pir, mt_cbs, mt_pbs;
reg [63:0] mt_tc, mt_tp, mt_sz;
reg mt_full, mt_second, mt_red;	// the bucket is full; refilling tp; RED
reg [47:0] mt_since;
reg [1:0] mt_color;
reg [7:0] mt_ret;

// commands
reg [3:0] c_kind;
reg [7:0] c_flag;
reg [15:0] c_id, c_len, c_k;
reg [31:0] c_index;
reg [127:0] c_dat;		// the first 16 bytes, byte 0 in [7:0]
reg [31:0] c_beat;		// the beat being staged
reg [1:0] c_bi;
reg [7:0] c_err;
reg c_pend;
reg [DM_AW:0] clr_i, clr_n;	// at most a region of dm
reg [DM_AW-1:0] clr_base;
reg [2:0] clr_r;		// which range S_LOAD_CLR empties
reg [15:0] dt;			// default rows: table, byte
reg [31:0] dk;

assign pkt_we = s_pkt_valid && s_pkt_ready && (st == S_IDLE || {16'd0, plen} < PKT_MAX);
assign pkt_wa = st == S_IDLE ? {PKT_AW{1'b0}} : plen[PKT_AW-1:0];

// The next byte S_WRITE_META writes after wm_i (it skips the runs a mode does not touch).
reg [5:0] wm_next;
always @(*) begin
	wm_next = wm_i + 6'd1;
	if (wm_mode == WM_ING && wm_i == 6'd1)
		wm_next = 6'd18;
	else if (wm_mode == WM_ING && wm_i == 6'd19)
		wm_next = 6'd40;
	else if (wm_mode == WM_EG && wm_i == 6'd5)
		wm_next = 6'd8;
	else if (wm_mode == WM_EG && wm_i == 6'd9)
		wm_next = cp_rep ? 6'd12 : 6'd20;
	else if (wm_mode == WM_EG && wm_i == 6'd15)
		wm_next = 6'd20;
	else if (wm_mode == WM_EG && wm_i == 6'd35)
		wm_next = 6'd46;
end

// The value meta_val(wm_mode, i) of PHV byte i, and whether S_WRITE_META writes it.
reg wm_write;
reg [7:0] wm_val;
always @(*) begin
	wm_write = 1'b1;
	wm_val = 8'h00;
	case (wm_mode)
	WM_ING:		// ingress_port, packet_length, ingress_global_timestamp
		case (wm_i)
		6'd0: wm_val = {7'd0, in_port[8]};
		6'd1: wm_val = in_port[7:0];
		6'd18: wm_val = plen[15:8];
		6'd19: wm_val = plen[7:0];
		6'd40: wm_val = now[47:40];
		6'd41: wm_val = now[39:32];
		6'd42: wm_val = now[31:24];
		6'd43: wm_val = now[23:16];
		6'd44: wm_val = now[15:8];
		6'd45: wm_val = now[7:0];
		default: wm_write = 1'b0;
		endcase
	WM_EG:		// egress_port, egress_rid, instance_type, queue fields, timestamps
		case (wm_i)
		6'd4: wm_val = {7'd0, cp_port[8]};
		6'd5: wm_val = cp_port[7:0];
		6'd8: wm_val = cp_rid[15:8];
		6'd9: wm_val = cp_rid[7:0];
		6'd12, 6'd13, 6'd14: wm_write = cp_rep;
		6'd15: begin wm_write = cp_rep; wm_val = 8'd5; end
		6'd20: wm_val = now[31:24];	// enq_timestamp
		6'd21: wm_val = now[23:16];
		6'd22: wm_val = now[15:8];
		6'd23: wm_val = now[7:0];
		6'd46: wm_val = now[47:40];	// egress_global_timestamp
		6'd47: wm_val = now[39:32];
		6'd48: wm_val = now[31:24];
		6'd49: wm_val = now[23:16];
		6'd50: wm_val = now[15:8];
		6'd51: wm_val = now[7:0];
		default:	// queue depths and wait (24 .. 35) and ingress's requests (52 .. 56): 0
			wm_write = (wm_i >= 6'd24 && wm_i <= 6'd35) || (wm_i >= 6'd52 && wm_i <= 6'd56);
		endcase
	WM_PERR:	// parser_error
		case (wm_i)
		6'd36: wm_val = perr[31:24];
		6'd37: wm_val = perr[23:16];
		6'd38: wm_val = perr[15:8];
		default: wm_val = perr[7:0];
		endcase
	WM_INST:	// instance_type: 1 an I2E clone, 6 a resubmitted pass
		wm_val = wm_i != 6'd15 ? 8'd0 : cl_active ? 8'd1 : 8'd6;
	WM_RESUB_REQ:	// resubmit's field list (a's value)
		wm_val = x_aval[7:0];
	WM_CLONE_REQ:	// clone session, type, field list
		case (wm_i)
		6'd52: wm_val = x_a[15:8];
		6'd53: wm_val = x_a[7:0];
		6'd54: wm_val = x_imm[7:0];
		default: wm_val = x_bval;
		endcase
	default:	// WM_TRUNC: truncate length, at most 0xFFFF
		wm_val = wm_i == 6'd58 ? (x_a > 64'hFFFF ? 8'hFF : x_a[15:8]) :
			 (x_a > 64'hFFFF ? 8'hFF : x_a[7:0]);
	endcase
end

// S_MOVE: mv_n bytes from mv_sa (dm, or the packet with mv_pkt) to dm at mv_da, one a clock
reg mv_pkt, mv_pend;
reg [MV_AW-1:0] mv_sa;
reg [DM_AW-1:0] mv_da;
reg [15:0] mv_n, mv_i, mv_k;
reg [7:0] mv_ret;

task move(input from_pkt, input [31:0] sa, input [31:0] da, input [15:0] n, input [7:0] ret);
	begin
		mv_pkt <= from_pkt;
		mv_sa <= sa[MV_AW-1:0];
		mv_da <= dma(da);
		mv_n <= n;
		mv_i <= 16'd0;
		mv_k <= 16'd0;
		mv_pend <= 1'b0;
		mv_ret <= ret;
		st <= S_MOVE;
	end
endtask

task phv_copy(input [1:0] mode, input [7:0] ret);
	reg [31:0] sa, da;
	begin
		case (mode)
		PC_TO_SAVE: begin sa = A_PHV; da = A_SAVE; end
		PC_FROM_SAVE: begin sa = A_SAVE; da = A_PHV; end
		PC_TO_ORIG: begin sa = A_PHV; da = A_ORIG; end
		default: begin sa = A_ORIG; da = A_PHV; end
		endcase
		move(1'b0, sa, da, g_phv_bytes, ret);
	end
endtask

reg in_pkt;			// a packet is being processed (cnt_cycles)
reg [2:0] x_step;		// steps of RANDOM and of the meter configuration
reg [31:0] ld_base;		// the default row being written
reg [15:0] dp_h;		// the header being deparsed
reg [15:0] pp;			// the payload byte being sent
reg [7:0] h_fb;			// the byte S_H_FEED takes
reg [15:0] h_flid;
reg [63:0] csw;			// the checksum unit's first word
reg [6:0] cs_cw;		// the width of its condition
reg [15:0] cs_base;
reg [55:0] cl_rec;		// the clone session: enabled, port, group, truncation
reg rphase;
reg [15:0] t_issue, cmp_idx;	// row compares: next byte to read, byte arriving
reg t_pend;
reg [7:0] t_val;		// TCAM: the value byte that arrived before its mask
reg [15:0] stk_next [0:STACKS-1];
integer i;

task exec_start(input [15:0] pc, input [15:0] n, input parser, input [7:0] ret);
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

task hash_start(input [15:0] rec, input pay, input [7:0] ret);
	begin
		h_rec <= rec;
		h_pay <= pay;
		h_ret <= ret;
		st <= S_H_START;
	end
endtask

// The byte the hash takes this clock: the byte paths' read data, or h_fb in S_H_FEED; and
// whether csum16, xor16 or the digest takes it now (a CRC takes its bits in S_H_FEED). One
// source and one place (hash_take, before the state machine's case) for every state, so that
// synthesis builds the sum, the xor and the digest's write once.
wire [7:0] h_in = st == S_H_BYTE ? dm_rd : st == S_H_PAY ? pkt_rd : h_fb;
wire h_take = h_cls != 3'd0 && (st == S_H_FEED || (h_inb && (st == S_H_BYTE || st == S_H_PAY)));

task hash_take;
	case (h_cls)
	3'd1, 3'd2: begin
		if (!h_odd)
			h_hi <= h_in;
		else if (h_cls == 3'd1)
			h_sum <= h_sum + {16'd0, h_hi, h_in};
		else
			h_xor <= h_xor ^ {h_hi, h_in};
		h_odd <= !h_odd;
	end
	3'd5: begin
		if ({16'd0, h_dn} < DIG_MAX) begin
			dm_we <= 1'b1;
			dm_wa <= dma(A_DIG + {16'd0, h_dn});
			dm_wd <= h_in;
		end
		h_dn <= h_dn + 16'd1;
	end
	default: ;
	endcase
endtask

// The byte paths (whole PHV bytes, the payload) read a byte a clock: the byte read last
// clock goes into the hash (h_take) as the next is read. A CRC's byte goes to S_H_FEED
// instead, which returns to `back`, and no byte is read meanwhile (h_crc_wait).
wire h_crc_wait = h_inb && h_cls == 3'd0;
task hash_in(input [7:0] back);
	if (h_inb) begin
		h_id <= {h_id[55:0], h_in};
		if (h_cls == 3'd0) begin
			h_inb <= 1'b0;
			h_fb <= h_in;
			h_fret <= back;
			hbit <= 4'd0;
			st <= S_H_FEED;
		end
	end
endtask

// An operand's value into fv (model_exec.c rd), then ret.
task operand(input [31:0] d, input [63:0] value, input [7:0] ret);
	begin
		case (d[31:28])
		K_PHV: field_read(SRC_PHV, {16'd0, d[15:0]}, d[22:16], ret);
		K_ADATA:
			if (x_adata) begin
				field_read(SRC_ADATA, {16'd0, d[15:0]}, d[22:16], ret);
			end else begin
				fv <= 64'd0;
				st <= ret;
			end
		K_PKT:
			if (x_parser) begin
				field_read(SRC_PKT, {13'd0, cursor, 3'b000} + {16'd0, d[15:0]}, d[22:16], ret);
			end else begin
				fv <= 64'd0;
				st <= ret;
			end
		K_CONST: begin
			fv <= value;		// masked to its width where it is used
			st <= ret;
		end
		default: begin
			fv <= 64'd0;
			st <= ret;
		end
		endcase
	end
endtask

// An instruction's result goes to dst when dst is a PHV operand (model_exec.c wr).
task dst_put(input [63:0] v, input [7:0] ret);
	if (x_dst[31:28] == K_PHV)
		field_write(x_dst[15:0], x_dst[22:16], v, ret);
	else
		st <= ret;
endtask

task meter(input [15:0] id, input [63:0] idx, input [7:0] ret);
	begin
		mt_id <= id;
		mt_idx <= idx;
		mt_ret <= ret;
		st <= S_MTR;
	end
endtask

// A copy is dropped; the next multicast copy (if any) goes on.
task out_byte(input [7:0] d);
	begin
		m_pkt_valid <= 1'b1;
		m_pkt_data <= d;
		m_pkt_last <= oi + 18'd1 == olen;
		m_pkt_port <= eg_port;		// as egress began (pisa-model)
		oi <= oi + 18'd1;
	end
endtask

task pass_drop;
	begin
		cnt_drop <= cnt_drop + 32'd1;
		st <= S_COPY_DONE;
	end
endtask

// Next table after the running one: v, unless EXIT ran or v does not go forward.
task t_goto(input [15:0] v);
	if (x_exit || v <= tnext) begin
		st <= S_PASS_END;
	end else begin
		tnext <= v;
		st <= S_T_NEXT;
	end
endtask

// The key byte the state looks at, as its index from the key's last byte: S_T_HBYTE hashes
// byte kbi, S_T_HCMP compares byte cmp_idx - 1, S_T_TCMP byte cmp_idx / 2 - 1.
wire [15:0] kb_idx = st == S_T_HCMP ? t_kb - cmp_idx :
	st == S_T_TCMP ? t_kb - {1'b0, cmp_idx[15:1]} : t_kb - 16'd1 - kbi;
wire [7:0] key_byte = keyv[kb_idx * 8 +: 8];
// with one bank, words arriving stop the image until the commit
wire cfg_busy = BANKS == 1 && s_cfg_valid;
assign s_cfg_ready = !commit_pend && !cfg_commit && st != S_LOAD_HDR && st != S_LOAD_HDR_W &&
	(BANKS == 2 || st == S_IDLE);
assign s_pkt_ready = (st == S_IDLE && !commit_pend && !reset_pend && !cfg_busy) || st == S_RX;
assign s_cmd_ready = st == S_C_BEAT;
assign idle = st == S_IDLE;
wire hcmp_ok = cmp_idx == 16'd0 ? dm_rd[0] : dm_rd == key_byte;
// TCAM: the valid bit, a value byte (odd: kept in t_val), or a mask byte (even: compare)
wire tcmp_ok = cmp_idx == 16'd0 ? dm_rd[0] : cmp_idx[0] || ((key_byte ^ t_val) & dm_rd) == 8'h00;
// The deparsed length: headers, payload, then the truncate length or the clone session's,
// whichever is shorter.
wire [17:0] dep_total = hlen + (cursor < plen ? {2'd0, plen - cursor} : 18'd0);
wire [15:0] dep_cut = cp_trunc != 16'd0 && (md_trunc == 16'd0 || cp_trunc < md_trunc) ?
	cp_trunc : md_trunc;
wire [17:0] dep_len = dep_cut != 16'd0 && {2'd0, dep_cut} < dep_total ? {2'd0, dep_cut} :
	dep_total;
wire [15:0] copy_n = x_t[47:32] < cf0[47:32] ? x_t[47:32] : cf0[47:32];	// COPYHDR bytes
wire [31:0] reg_off = ({8'd0, cf0[55:32]} + x_a[31:0]) << 3;	// a register cell's bytes
// csum16's end: the odd byte, two folds of the carries (model: lib/pisa_hash.c)
wire [31:0] cs_s0 = h_sum + (h_odd ? {16'd0, h_hi, 8'd0} : 32'd0);
wire [31:0] cs_s1 = {16'd0, cs_s0[15:0]} + {16'd0, cs_s0[31:16]};
wire [15:0] csum_fold = cs_s1[15:0] + cs_s1[31:16];
// the subroutines' byte counts, shifts and addresses
wire [7:0] fr_nb8 = ({5'd0, fr_off[2:0]} + {1'b0, fr_w} + 8'd7) >> 3;
wire [3:0] fr_nbytes = fr_nb8[3:0];
wire [7:0] fr_in = fr_inr ? (fr_src == SRC_PKT ? pkt_rd : dm_rd) : 8'h00;
wire [71:0] fr_cat = {fr_acc[63:0], fr_in};		// with the byte arriving
wire [71:0] fr_shifted = fr_cat >> fr_s;
wire [7:0] fw_nb8 = ({5'd0, fw_off[2:0]} + {1'b0, fw_w} + 8'd7) >> 3;
wire [3:0] fw_nbytes = fw_nb8[3:0];
wire [15:0] fw_last = (fw_off >> 3) + {12'd0, fw_nbytes} - 16'd1;	// its last byte
wire [2:0] fw_shift = 3'd0 - (fw_off[2:0] + fw_w[2:0]);	// bits after the field's last
wire [63:0] cnt_idx_eff = cf0[31:0] == 32'd1 ? 64'd0 : cnt_idx;
wire [31:0] cnt_base = A_CNT + {cnt_cell[27:0], 4'b0000} + (cnt_second ? 32'd8 : 32'd0);
wire [8:0] cnt_sum = {1'b0, dm_rd} + {1'b0, cnt_add[7:0]} + {8'd0, cnt_carry};
// cf0 describes whole bytes of the PHV on a byte boundary (fast paths of keys and hashes)
wire cf0_bytes = cf0[2:0] == 3'd0 && cf0[18:16] == 3'd0 && cf0[22:16] != 7'd0 &&
	cf0[22:16] <= 7'd64 && {16'd0, cf0[15:0]} + {25'd0, cf0[22:16]} <= {13'd0, g_phv_bits};
// One mask of the low w bits, for whichever width the state needs (one generator, not one
// per use).
reg [6:0] mw_sel;
always @(*) begin
	case (st)
	S_FW: mw_sel = fw_w;
	S_X_OPA: mw_sel = x_ad[22:16];
	S_X_OPB: mw_sel = x_bd[22:16];
	S_CSUM_COND: mw_sel = cs_cw;
	S_CSUM_CMP: mw_sel = csw[22:16];
	S_T_HBYTE: mw_sel = tw0[54:48];
	S_X_REG, S_C_REG: mw_sel = cf0[62:56];
	default: mw_sel = fr_w;		// S_FR_RD
	endcase
end
wire [63:0] mw = mask64(mw_sel);
// an operand masked to its width, sign-extended from it for PISA_INSN_SIGNED (S_X_OPA/B)
wire [63:0] op_m = fv & mw;
wire op_neg = x_flags[0] && !mw_sel[6] && mw_sel != 7'd0 && op_m[mw_sel[5:0] - 6'd1];
wire [63:0] op_ext = op_neg ? op_m | ~mw : op_m;
wire [31:0] way_size = 32'd1 << tw0[52:48];	// rows per way
wire [63:0] pkey = keyv[63:0];			// the parser's key
wire [STK_W-1:0] stk_i = x_imm[STK_W-1:0];	// the stack EXTRACT_STACK names
// a CRC's result: reflected (16 or 32 bits) if refout, then xorout, masked to its width
wire [31:0] crc_rev = rev32(h_crc);
wire [31:0] crc_out = ((h_refout ? (h_width == 6'd32 ? crc_rev : {16'd0, crc_rev[31:16]}) :
	h_crc) ^ h_xo) & (h_width == 6'd32 ? 32'hFFFFFFFF : 32'h0000FFFF);
wire [15:0] c_rs12 = {c_dat[15:8], c_dat[23:16]};	// a staged row's action id
wire [31:0] fr_byte = st == S_FR ? fr_off >> 3 : fr_b;	// the field byte read next
// the bucket being refilled (tc, then tp) and its cap
wire [63:0] mt_b = mt_second ? mt_tp : mt_tc;
wire [63:0] mt_cap = mt_second ? {16'd0, mt_pbs, 16'd0} : {16'd0, mt_cbs, 16'd0};
wire [31:0] mt_addr = A_MTR + {mt_cell[28:0], 3'b000} + {mt_cell[26:0], 5'b00000};

always @(posedge clk) begin
	dm_we <= 1'b0;
	alu_start <= 1'b0;
	if (in_pkt)
		cnt_cycles <= cnt_cycles + 64'd1;
	if (m_rsp_valid && m_rsp_ready)
		m_rsp_valid <= 1'b0;
	if (m_pkt_valid && m_pkt_ready)
		m_pkt_valid <= 1'b0;
	if (m_dig_valid && m_dig_ready)
		m_dig_valid <= 1'b0;
	if (cfg_commit)
		commit_pend <= 1'b1;
	if (state_reset)
		reset_pend <= 1'b1;
	if (h_take)
		hash_take;		// a byte into the hash (S_H_FEED, S_H_BYTE, S_H_PAY)
	case (st)
	// ---- idle: configuration, commands, packets ----
	S_IDLE: begin
		// Every job (packet, command, load) starts with each subroutine's return state at
		// S_IDLE, so none left by an earlier job can send this one into that job's states
		// (the invariant hw/formal's core_atomic proves).
		cf_ret <= S_IDLE;
		fr_ret <= S_IDLE;
		fw_ret <= S_IDLE;
		mul_ret <= S_IDLE;
		dm_ret <= S_IDLE;
		alu_ret <= S_IDLE;
		cnt_ret <= S_IDLE;
		md_ret <= S_IDLE;
		wm_ret <= S_IDLE;
		x_ret <= S_IDLE;
		h_ret <= S_IDLE;
		h_fret <= S_IDLE;
		mt_ret <= S_IDLE;
		mv_ret <= S_IDLE;
		if (commit_pend) begin
			if (BANKS == 2)
				bank <= !bank;
			commit_pend <= 1'b0;
			loaded <= 1'b0;
			st <= S_LOAD_HDR;
		end else if (reset_pend) begin
			reset_pend <= 1'b0;
			if (loaded) begin
				loaded <= 1'b0;
				st <= S_LOAD_HDR;
			end
		end else if (cfg_busy) begin
			loaded <= 1'b0;		// one bank: the running image is being replaced
		end else if (s_pkt_valid) begin
			in_port <= s_pkt_port;
			now <= now_us;
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
		// the PHV starts at zero: most of it is cleared while the packet arrives
		if ({16'd0, zi} < PHV_MAX) begin
			dm_we <= 1'b1;
			dm_wa <= dma(A_PHV + {16'd0, zi});
			dm_wd <= 8'h00;
			zi <= zi + 16'd1;
		end
		if ({16'd0, plen} >= PKT_MAX)
			oversize <= 1'b1;
		if (plen != 16'hFFFF)
			plen <= plen + 16'd1;
		if (s_pkt_last)
			st <= S_CLEAR;
	end

	// ---- ingress pass ----
	S_CLEAR: begin
		cnt_rx <= cnt_rx + 32'd1;
		cl_active <= 1'b0;
		cl_done <= 1'b0;
		passes <= 5'd1;
		cp_mc <= 1'b0;
		cp_trunc <= 16'd0;
		if (!loaded) begin
			in_pkt <= 1'b1;
			pass_drop;
		end else if (oversize) begin
			cnt_oversize <= cnt_oversize + 32'd1;
			st <= S_IDLE;
		end else begin
			in_pkt <= 1'b1;
			st <= S_ZERO;
		end
	end
	S_ZERO: begin
		if (zi < g_phv_bytes && {16'd0, zi} < PHV_MAX) begin
			dm_we <= 1'b1;
			dm_wa <= dma(A_PHV + {16'd0, zi});
			dm_wd <= 8'h00;
			zi <= zi + 16'd1;
		end else begin
			for (i = 0; i < STACKS; i = i + 1)
				stk_next[i] <= 16'd0;
			cl_k <= 16'd0;
			if (cl_active || passes != 5'd1) begin	// a clone's or a resubmitted pass's
				if (keep_flist != 8'd0 && {8'd0, keep_flist} <= g_nflists)
					cfg_fetch(b_flist + {8'd0, keep_flist} - 16'd1, 3'd1, S_CL_KEEP);
				else
					write_meta(WM_INST, 6'd12, 6'd15, S_ING_INIT);
			end else begin
				st <= S_ING_INIT;
			end
		end
	end
	S_ING_INIT: begin
		cursor <= 16'd0;
		pstate <= g_parser_start;
		steps <= 9'd0;
		perr <= 32'd0;
		gress <= 1'b0;
		write_meta(WM_ING, 6'd0, 6'd45, S_P_STATE);
	end
	S_WRITE_META: begin
		if (wm_write) begin
			dm_we <= 1'b1;
			dm_wa <= dma(A_PHV + {26'd0, wm_i});
			dm_wd <= wm_val;
		end
		if (wm_i == wm_end)
			st <= wm_ret;
		else
			wm_i <= wm_next;
	end

	// ---- the parser ----
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
			cfg_fetch(b_state + {pstate[14:0], 1'b0}, 3'd2, S_P_STATE_W);
		end
	end
	S_P_STATE_W: begin
		tw0 <= cf0;
		tw1 <= cf1;
		x_adata <= 1'b0;
		exec_start(cf0[63:48], cf0[47:32], 1'b1, S_P_OPS);
	end
	S_P_OPS: begin
		if (perr != 32'd0) begin
			st <= S_P_ERR;
		end else begin
			pk_i <= 3'd0;
			keyv <= {KEY_BITS{1'b0}};
			st <= S_P_KEY;
		end
	end
	S_P_KEY: begin
		// the key: up to 4 operands concatenated MSB first
		if ({5'd0, pk_i} < tw1[63:56] && pk_i < 3'd4) begin
			cfg_fetch(tw1[55:40] + {12'd0, pk_i, 1'b0}, 3'd2, S_P_KEY_W);
		end else begin
			prow <= 16'd0;
			st <= S_P_ROWS;
		end
	end
	S_P_KEY_W: begin
		sb_n <= cf0[22:16] > 7'd64 ? 7'd64 : cf0[22:16];
		operand(cf0[31:0], cf1, S_P_KEY_V);
	end
	S_P_KEY_V: begin
		if (sb_n != 7'd0) begin
			keyv <= {keyv[KEY_BITS-2:0], sb_bit};
			sb_n <= sb_n - 7'd1;
		end else begin
			pk_i <= pk_i + 3'd1;
			st <= S_P_KEY;
		end
	end
	S_P_ROWS: begin
		if (prow >= tw0[15:0]) begin
			perr <= E_NO_MATCH;
			st <= S_P_ERR;
		end else begin
			cfg_fetch(tw0[31:16] + {prow[14:0], 1'b0} + prow, 3'd3, S_P_ROW_W);
		end
	end
	S_P_ROW_W: begin
		if ((pkey & cf1) == (cf0 & cf1)) begin	// (the state's key: keyv's low 64 bits)
			pstate <= cf2[31:16];
			if (cf2[31:16] == P_REJECT) begin
				perr <= {16'd0, cf2[15:0]};
				st <= S_P_ERR;
			end else begin
				st <= S_P_STATE;
			end
		end else begin
			prow <= prow + 16'd1;
			st <= S_P_ROWS;
		end
	end
	S_P_ERR: begin
		cs_i <= 16'd0;
		if (perr != 32'd0)
			write_meta(WM_PERR, 6'd36, 6'd39, S_CSUM);
		else
			st <= S_CSUM;
	end

	// ---- checksum units: verify after the parser (gress 0), update before the deparser ----
	S_CSUM: begin
		if (cs_i >= g_ncsum) begin
			tnext <= gress ? g_eg_start : g_ing_start;
			st <= gress ? S_DEP : (cl_active ? S_CL_SPAWN : S_T_NEXT);
		end else begin
			cs_base <= b_csum + {cs_i[13:0], 2'b00} + {cs_i[14:0], 1'b0};
			cfg_fetch(b_csum + {cs_i[13:0], 2'b00} + {cs_i[14:0], 1'b0}, 3'd3, S_CSUM_W);
		end
	end
	S_CSUM_W: begin
		// runs iff its kind is this point's and its condition is non-zero
		csw <= cf0;
		cs_cw <= cf1[54:48];
		if (cf0[63] != gress) begin
			cs_i <= cs_i + 16'd1;
			st <= S_CSUM;
		end else if (cf1[63:60] == K_CONST) begin
			fv <= cf2;
			st <= S_CSUM_COND;
		end else if (cf1[63:60] == K_PHV) begin
			field_read(SRC_PHV, {16'd0, cf1[47:32]}, cf1[54:48], S_CSUM_COND);
		end else begin
			cs_i <= cs_i + 16'd1;
			st <= S_CSUM;
		end
	end
	S_CSUM_COND: begin
		if ((fv & mw) != 64'd0) begin
			hash_start(cs_base + 16'd3, csw[62], S_CSUM_DONE);
		end else begin
			cs_i <= cs_i + 16'd1;
			st <= S_CSUM;
		end
	end
	S_CSUM_DONE: begin
		if (!gress) begin
			field_read(SRC_PHV, {16'd0, csw[15:0]}, csw[22:16], S_CSUM_CMP);
		end else begin
			cs_i <= cs_i + 16'd1;
			field_write(csw[15:0], csw[22:16], h_res, S_CSUM);
		end
	end
	S_CSUM_CMP: begin
		if ((h_res & mw) != fv) begin
			dm_we <= 1'b1;			// checksum_error
			dm_wa <= dma(A_PHV + 32'd10);
			dm_wd <= 8'h01;
		end
		cs_i <= cs_i + 16'd1;
		st <= S_CSUM;
	end

	// ---- tables ----
	S_T_NEXT: begin
		if (tnext == NEXT_END || tnext >= g_ntables)
			st <= S_PASS_END;
		else
			cfg_fetch(b_table + {tnext[13:0], 2'b00} + tnext, 3'd5, S_T_NEXT_W);
	end
	S_T_NEXT_W: begin
		if (cf0[63] != gress) begin
			st <= S_PASS_END;
		end else begin
			tw0 <= cf0;
			tw1 <= cf1;
			tw2 <= cf2;
			tw3 <= cf3;
			tw4 <= cf4;
			keyv <= {KEY_BITS{1'b0}};
			ki <= 8'd0;
			hit <= 1'b0;
			st <= cf0[62:61] == MEM_NONE ? S_T_ACT : S_T_KEY;
		end
	end
	S_T_KEY: begin
		if (ki < tw0[31:24]) begin
			cfg_fetch(tw4[63:48] + {8'd0, ki}, 3'd1, S_T_KEY_W);
		end else begin
			way <= 3'd0;
			trow <= 32'd0;
			rb <= dma(t_base);
			st <= tw0[62:61] == MEM_HASH ? S_T_HWAY : S_T_TROW;
		end
	end
	S_T_KEY_W: begin
		h_ba <= cf0[15:3];
		h_bn <= cf0[22:19];
		t_pend <= 1'b0;
		if (cf0_bytes) begin
			st <= S_T_KEYB;		// whole bytes on a byte boundary: a byte a clock
		end else if (cf0[22:16] != 7'd0) begin
			sb_n <= cf0[22:16] > 7'd64 ? 7'd64 : cf0[22:16];
			field_read(SRC_PHV, {16'd0, cf0[15:0]}, cf0[22:16], S_T_KEY_V);
		end else begin
			ki <= ki + 8'd1;
			st <= S_T_KEY;
		end
	end
	S_T_KEYB: begin
		if (t_pend)
			keyv <= {keyv[KEY_BITS-9:0], dm_rd};
		if (h_bn != 4'd0) begin
			dm_ra <= dma(A_PHV + {19'd0, h_ba});
			h_ba <= h_ba + 13'd1;
			h_bn <= h_bn - 4'd1;
			t_pend <= 1'b1;
		end else begin
			t_pend <= 1'b0;
			if (!t_pend) begin
				ki <= ki + 8'd1;
				st <= S_T_KEY;
			end
		end
	end
	S_T_KEY_V: begin
		if (sb_n != 7'd0) begin
			keyv <= {keyv[KEY_BITS-2:0], sb_bit};
			sb_n <= sb_n - 7'd1;
		end else begin
			ki <= ki + 8'd1;
			st <= S_T_KEY;
		end
	end
	// exact: way w's bucket is CRC-32 (its polynomial, reflected) of the key bytes
	S_T_HWAY: begin
		if (way >= tw0[58:56]) begin
			st <= S_T_ACT;
		end else begin
			way_base <= way == 3'd0 ? 32'd0 : way_base + way_size;
			hcrc <= 32'hFFFFFFFF;
			kbi <= 16'd0;
			st <= S_T_HBYTE;
		end
	end
	S_T_HBYTE: begin
		if (kbi < t_kb) begin
			h_fb <= key_byte;
			hbit <= 4'd0;
			st <= S_T_HBIT;
		end else begin
			trow <= way_base | ((rev32(hcrc) ^ 32'hFFFFFFFF) & mw[31:0]);
			st <= S_T_HBASE;
		end
	end
	S_T_HBIT: begin
		// reflected input: the byte's bits LSB first
		hcrc <= (hcrc[31] ^ h_fb[hbit[2:0]]) ? ({hcrc[30:0], 1'b0} ^ way_poly(way)) :
			{hcrc[30:0], 1'b0};
		hbit <= hbit + 4'd1;
		if (hbit == 4'd7) begin
			kbi <= kbi + 16'd1;
			st <= S_T_HBYTE;
		end
	end
	S_T_HBASE: begin
		if (trow >= t_rows)
			st <= S_T_ACT;		// beyond the table: a miss (model: stops looking)
		else
			mul_start(trow, t_rowb, S_T_HROW);
	end
	S_T_HROW: begin
		rb <= dma(t_base + mul_p);
		t_issue <= 16'd0;
		t_pend <= 1'b0;
		st <= S_T_HCMP;
	end
	S_T_HCMP: begin
		// row bytes 0 (valid) and 3 .. 3+KB-1 against the key, one a clock
		if (t_pend && !hcmp_ok) begin
			t_pend <= 1'b0;
			way <= way + 3'd1;
			st <= S_T_HWAY;
		end else if (t_pend && cmp_idx == t_kb) begin
			t_pend <= 1'b0;
			hit <= 1'b1;
			st <= S_T_ACT;
		end else if (t_issue <= t_kb) begin
			dm_ra <= dma(A_ROW + dm32(rb) + (t_issue == 16'd0 ? 32'd0 : {16'd0, t_issue} + 32'd2));
			cmp_idx <= t_issue;
			t_issue <= t_issue + 16'd1;
			t_pend <= 1'b1;
		end
	end
	// ternary, lpm, range: the first valid row whose masked key and ranges match
	S_T_TROW: begin
		if (trow >= t_rows) begin
			st <= S_T_ACT;
		end else begin
			t_issue <= 16'd0;
			t_pend <= 1'b0;
			st <= S_T_TCMP;
		end
	end
	S_T_TCMP: begin
		// byte 0 (valid), then for each key byte i its value (3 + i) and mask (3 + KB + i)
		if (t_pend && !tcmp_ok) begin
			t_pend <= 1'b0;
			st <= S_T_TNEXT;
		end else begin
			if (t_pend && cmp_idx[0])
				t_val <= dm_rd;
			if (t_pend && cmp_idx == {t_kb[14:0], 1'b0}) begin
				t_pend <= 1'b0;
				ki <= 8'd0;
				rg <= dma(32'd3 + {15'd0, t_kb, 1'b0});
				rphase <= 1'b0;
				st <= S_T_TRANGE;
			end else if (t_issue <= {t_kb[14:0], 1'b0}) begin
				dm_ra <= dma(A_ROW + dm32(rb) + (t_issue == 16'd0 ? 32'd0 : t_issue[0] ?
					32'd3 + {17'd0, t_issue[15:1]} :
					32'd2 + {16'd0, t_kb} + {17'd0, t_issue[15:1]}));
				cmp_idx <= t_issue;
				t_issue <= t_issue + 16'd1;
				t_pend <= 1'b1;
			end
		end
	end
	S_T_TRANGE: begin
		if (ki >= tw0[31:24]) begin
			hit <= 1'b1;
			st <= S_T_ACT;
		end else begin
			cfg_fetch(tw4[63:48] + {8'd0, ki}, 3'd1, S_T_TRANGE_W);
		end
	end
	S_T_TRANGE_W: begin
		if (cf0[63:56] == M_RANGE) begin
			rn_full <= {1'b0, cf0[22:19]} + {4'd0, |cf0[18:16]};	// bits / 8, rounded up
			field_read(SRC_PHV, {16'd0, cf0[15:0]}, cf0[22:16], S_T_TRANGE_V);
		end else begin
			ki <= ki + 8'd1;
			st <= S_T_TRANGE;
		end
	end
	S_T_TRANGE_V: begin
		// lo, then hi: big-endian, at most 8 bytes each
		rn <= rn_full > 5'd8 ? 4'd8 : rn_full[3:0];
		dm_read(A_ROW + dm32(rb) + dm32(rg), rn_full > 5'd8 ? 4'd8 : rn_full[3:0], S_T_TRANGE_LH);
	end
	S_T_TRANGE_LH: begin
		if (!rphase) begin
			x_t <= dacc;			// lo; hi stays in dacc
			rphase <= 1'b1;
			dm_read(A_ROW + dm32(rb) + dm32(rg) + {27'd0, rn_full}, rn, S_T_TRANGE_LH);
		end else begin
			rphase <= 1'b0;
			alu_call(OP_LTU, fv, x_t, S_T_TRANGE_HI);
		end
	end
	S_T_TRANGE_HI: begin
		if (alu_res[0])
			st <= S_T_TNEXT;		// below lo
		else
			alu_call(OP_LTU, dacc, fv, S_T_TRANGE_OK);
	end
	S_T_TRANGE_OK: begin
		if (alu_res[0]) begin
			st <= S_T_TNEXT;		// above hi
		end else begin
			rg <= dma(dm32(rg) + {26'd0, rn_full, 1'b0});
			ki <= ki + 8'd1;
			st <= S_T_TRANGE;
		end
	end
	S_T_TNEXT: begin
		trow <= trow + 32'd1;
		rb <= dma(dm32(rb) + {16'd0, t_rowb});
		st <= S_T_TROW;
	end
	S_T_ACT: begin
		// the row that ran: the hit row or the default row (index rows)
		if (!hit)
			trow <= t_rows;
		mul_start(hit ? trow : t_rows, t_rowb, S_T_ACT_RD);
	end
	S_T_ACT_RD: begin
		rbase <= dma(t_base + mul_p);
		x_exit <= 1'b0;
		dm_read(A_ROW + t_base + mul_p, 4'd3, S_T_ACT_CNT);
	end
	S_T_ACT_CNT: begin
		rvalid <= dacc[16];
		aid <= dacc[15:0];
		ai <= 8'd0;
		afound <= 1'b0;
		if (hit && tw2[15:0] != 16'hFFFF)
			count(tw2[15:0], {32'd0, trow}, S_T_AFIND);
		else
			st <= S_T_AFIND;
	end
	S_T_AFIND: begin
		if (!rvalid || ai >= tw0[23:16]) begin
			x_exit <= 1'b0;
			st <= S_T_AFTER;
		end else begin
			cfg_fetch(tw4[47:32] + {8'd0, ai}, 3'd1, S_T_AFIND_W);
		end
	end
	S_T_AFIND_W: begin
		if (cf0[63:48] == aid) begin
			afound <= 1'b1;
			ta_w <= cf0;
			cfg_fetch(b_action + aid, 3'd1, S_T_EXEC);
		end else begin
			ai <= ai + 8'd1;
			st <= S_T_AFIND;
		end
	end
	S_T_EXEC: begin
		x_adata <= 1'b1;
		x_adbase <= dma(dm32(rbase) + 32'd3 + {16'd0, tw2[47:32]});
		x_db <= tw2[31:16];
		if (aid < g_nactions)
			exec_start(cf0[63:48], cf0[47:32], 1'b0, S_T_AFTER);
		else
			st <= S_T_AFTER;
	end
	S_T_AFTER: begin
		case (tw0[60:59])
		NX_ACTION: t_goto(afound ? ta_w[47:32] : tw3[47:32]);
		NX_COND: field_read(SRC_PHV, {16'd0, tw3[15:0]}, tw3[22:16], S_T_AFTER_F);
		default: t_goto(hit ? tw3[63:48] : tw3[47:32]);
		endcase
	end
	S_T_AFTER_F: t_goto(fv != 64'd0 ? tw3[63:48] : tw3[47:32]);
	S_PASS_END: meta_read(S_TM);
	S_META: begin
		if (md_pend) begin
			case (md_k)
			4'd0: md_espec[8] <= dm_rd[0];
			4'd1: md_espec[7:0] <= dm_rd;
			4'd2: md_mgrp[15:8] <= dm_rd;
			4'd3: md_mgrp[7:0] <= dm_rd;
			4'd4: md_csess[15:8] <= dm_rd;
			4'd5: md_csess[7:0] <= dm_rd;
			4'd6: md_ctype <= dm_rd;
			4'd7: md_cflist <= dm_rd;
			4'd8: md_trunc[15:8] <= dm_rd;
			4'd9: md_trunc[7:0] <= dm_rd;
			default: md_rflist <= dm_rd;
			endcase
			md_k <= md_k + 4'd1;
		end
		if (md_i < 4'd11) begin
			dm_ra <= dma(A_PHV + {16'd0, meta_byte(md_i)});
			md_i <= md_i + 4'd1;
			md_pend <= 1'b1;
		end else begin
			md_pend <= 1'b0;
			if (md_pend && md_k == 4'd10)
				st <= md_ret;
		end
	end

	// ---- traffic manager (after ingress) / end of egress ----
	S_TM: begin
		if (!gress && !cl_done && md_ctype == 8'd1 && {16'd0, md_csess} < CL_SESS) begin
			// an I2E clone request: is the session enabled?
			dm_read(A_CLS + {13'd0, md_csess, 3'b000}, 4'd7, S_TM_CLONE);
		end else begin
			st <= S_TM_GO;
		end
	end
	S_TM_CLONE: begin
		cl_rec <= dacc[55:0];
		if (dacc[48]) begin
			// the packet as it arrived, parsed again, metadata zero but the clone field
			// list; the original waits in the orig copy
			cl_active <= 1'b1;
			orig_cursor <= cursor;
			zi <= 16'd0;
			phv_copy(PC_TO_ORIG, S_ZERO);
		end else begin
			st <= S_TM_GO;
		end
	end
	S_TM_GO: begin
		if (!gress) begin
			cp_mc <= 1'b0;
			cp_rep <= 1'b0;
			mc_i <= 16'd0;
			if (md_rflist != 8'd0) begin
				// resubmit: the packet as it arrived, parsed again with metadata zero
				// but the field list's fields (kept from the orig copy) and
				// instance_type 6 (S_ZERO); past the pass limit, nothing (pisa-model
				// counts that apart from the program's drops)
				if (passes == MAX_PASSES) begin
					st <= S_COPY_DONE;
				end else begin
					passes <= passes + 5'd1;
					cl_active <= 1'b0;
					cl_done <= 1'b0;
					zi <= 16'd0;
					phv_copy(PC_TO_ORIG, S_ZERO);
				end
			end else if (md_mgrp != 16'd0) begin
				// multicast: one copy per (rid, port) of the group; none: dropped
				mc_g <= md_mgrp;
				cp_rep <= 1'b1;
				if ({16'd0, md_mgrp} < MC_GROUPS)
					dm_read(A_MCN + {15'd0, md_mgrp, 1'b0}, 4'd2, S_MC_N);
				else
					pass_drop;
			end else if (md_espec == 9'd511) begin
				pass_drop;
			end else begin
				cp_port <= md_espec;
				cp_rid <= 16'd0;
				st <= S_EG_INIT;
			end
		end else if (md_espec == 9'd511) begin
			pass_drop;
		end else begin
			cs_i <= 16'd0;
			st <= S_CSUM;
		end
	end
	S_MC_N: begin
		mc_n <= dacc[15:0];
		if (dacc[15:0] != 16'd0)
			phv_copy(PC_TO_SAVE, S_MC_NEXT);
		else if (cl_active && !cl_done)
			st <= S_COPY_DONE;	// a clone to an empty group: no copies
		else
			pass_drop;
	end
	S_MC_NEXT: dm_read(A_MCS + {(({14'd0, mc_g} << MC_SHIFT) + {14'd0, mc_i}), 2'b00}, 4'd4,
			   S_MC_NEXT_RD);
	S_MC_NEXT_RD: begin
		cp_port <= dacc[8:0];
		cp_rid <= dacc[31:16];
		cp_mc <= 1'b1;
		if (mc_i == 16'd0)
			st <= S_EG_INIT;
		else
			phv_copy(PC_FROM_SAVE, S_EG_INIT);
	end
	S_COPY_DONE: begin
		if (cp_mc && mc_i + 16'd1 < mc_n) begin
			mc_i <= mc_i + 16'd1;
			st <= S_MC_NEXT;
		end else if (cl_active && !cl_done) begin
			// the clone's copies are out: the original goes on
			cp_mc <= 1'b0;
			cl_done <= 1'b1;
			cp_trunc <= 16'd0;
			cursor <= orig_cursor;
			gress <= 1'b0;
			phv_copy(PC_FROM_ORIG, S_PASS_END);
		end else begin
			cp_mc <= 1'b0;
			in_pkt <= 1'b0;
			st <= S_IDLE;
		end
	end
	S_CL_KEEP: begin
		// the kept field list's fields, from the orig copy (cf0: the list's word)
		cl_w <= cf0;
		st <= S_CL_KEEP_N;
	end
	S_CL_KEEP_N: begin
		if (cl_k < cl_w[47:32])
			cfg_fetch(cl_w[63:48] + cl_k, 3'd1, S_CL_KEEP_W);
		else
			write_meta(WM_INST, 6'd12, 6'd15, S_ING_INIT);
	end
	S_CL_KEEP_W: begin
		x_t <= cf0;
		field_read(SRC_ORIG, {16'd0, cf0[15:0]}, cf0[22:16], S_CL_KEEP_V);
	end
	S_CL_KEEP_V: begin
		cl_k <= cl_k + 16'd1;
		field_write(x_t[15:0], x_t[22:16], fv, S_CL_KEEP_N);
	end
	S_CL_SPAWN: begin
		// to the session's port, or each copy of its multicast group (no such group: none)
		cp_trunc <= cl_rec[15:0];
		cp_rep <= 1'b0;
		cp_mc <= 1'b0;
		mc_i <= 16'd0;
		if (cl_rec[31:16] != 16'd0) begin
			mc_g <= cl_rec[31:16];
			if ({16'd0, cl_rec[31:16]} < MC_GROUPS)
				dm_read(A_MCN + {15'd0, cl_rec[31:16], 1'b0}, 4'd2, S_MC_N);
			else
				st <= S_COPY_DONE;
		end else begin
			cp_port <= cl_rec[40:32];
			cp_rid <= 16'd0;
			st <= S_EG_INIT;
		end
	end
	S_EG_INIT: begin
		eg_port <= {7'd0, cp_port};
		gress <= 1'b1;
		tnext <= g_eg_start;
		write_meta(WM_EG, 6'd4, 6'd56, S_T_NEXT);
	end

	// ---- deparser: valid headers in emit order, then the payload, then truncation ----
	// Two walks of the emit list: the first adds up the length (truncation needs it for
	// m_pkt_last), the second sends the bytes.
	S_DEP: begin
		dp_i <= 16'd0;
		hlen <= 18'd0;
		dp_emit <= 1'b0;
		st <= S_DEP_ENT;
	end
	S_DEP_ENT: begin
		if (dp_i >= g_ndeparse)
			st <= dp_emit ? S_OUT_PAY : S_DEP_LEN;
		else
			cfg_fetch(b_deparse + dp_i, 3'd1, S_DEP_W);
	end
	S_DEP_W: begin
		dp_h <= cf0[63:48];
		if (cf0[63:48] >= g_nheaders) begin
			dp_i <= dp_i + 16'd1;
			st <= S_DEP_ENT;
		end else begin
			cfg_fetch(b_hdr + cf0[63:48], 3'd1, S_DEP_H);
		end
	end
	S_DEP_H: begin
		dp_hb <= cf0[63:48];
		dp_hl <= cf0[47:32];
		field_read(SRC_PHV, 32'd512 + {16'd0, dp_h}, 7'd1, S_DEP_V);
	end
	S_DEP_V: begin
		if (fv[0] && {16'd0, dp_hb} + {16'd0, dp_hl} <= {16'd0, g_phv_bytes} &&
		    hlen + {2'd0, dp_hl} <= {1'b0, g_phv_bytes, 1'b0}) begin
			hlen <= hlen + {2'd0, dp_hl};
			dp_b <= 16'd0;
			st <= dp_emit ? S_OUT_HDR : S_DEP_NEXT;
		end else begin
			st <= S_DEP_NEXT;
		end
	end
	S_DEP_NEXT: begin
		dp_i <= dp_i + 16'd1;
		st <= S_DEP_ENT;
	end
	S_DEP_LEN: begin
		if (dep_len == 18'd0) begin
			pass_drop;		// nothing to send: an empty packet cannot leave
		end else begin
			olen <= dep_len;
			oi <= 18'd0;
			dp_i <= 16'd0;
			hlen <= 18'd0;
			pp <= cursor;
			dp_emit <= 1'b1;
			st <= S_DEP_ENT;
		end
	end
	S_OUT_HDR: begin
		if (dp_b < dp_hl && oi < olen) begin
			dm_ra <= dma(A_PHV + {16'd0, dp_hb} + {16'd0, dp_b});
			dp_b <= dp_b + 16'd1;
			st <= S_OUT_HS;
		end else begin
			st <= S_DEP_NEXT;
		end
	end
	S_OUT_HS: if (!m_pkt_valid || m_pkt_ready) begin
		// the header byte read last clock goes out; the next is read meanwhile
		out_byte(dm_rd);
		if (dp_b < dp_hl && oi + 18'd1 < olen) begin
			dm_ra <= dma(A_PHV + {16'd0, dp_hb} + {16'd0, dp_b});
			dp_b <= dp_b + 16'd1;
		end else begin
			st <= S_DEP_NEXT;
		end
	end
	S_OUT_PAY: begin
		if (oi < olen) begin
			pkt_ra <= pp[PKT_AW-1:0];
			pp <= pp + 16'd1;
			st <= S_OUT_PS;
		end else begin
			st <= S_OUT_END;
		end
	end
	S_OUT_PS: if (!m_pkt_valid || m_pkt_ready) begin
		out_byte(pkt_rd);
		if (oi + 18'd1 < olen) begin
			pkt_ra <= pp[PKT_AW-1:0];
			pp <= pp + 16'd1;
		end else begin
			st <= S_OUT_END;
		end
	end
	S_OUT_END: if (!m_pkt_valid || m_pkt_ready) begin
		cnt_tx <= cnt_tx + 32'd1;
		st <= S_COPY_DONE;
	end

	// ---- instruction engine ----
	S_X_FETCH: begin
		if (x_left == 16'd0 || x_exit || (x_parser && perr != 32'd0))
			st <= x_ret;
		else
			cfg_fetch(x_pc, 3'd4, S_X_FETCH_W);
	end
	S_X_FETCH_W: begin
		x_op <= cf0[63:56];
		x_flags <= cf0[55:48];
		x_imm <= cf0[47:32];
		x_dst <= cf0[31:0];
		x_ad <= cf1[63:32];
		x_bd <= cf1[31:0];
		x_aval <= cf2[15:0];
		x_aval_ok <= cf2[63:16] == 48'd0;
		x_bval <= cf3[7:0];
		x_pc <= x_pc + 16'd4;
		x_left <= x_left - 16'd1;
		operand(cf1[63:32], cf2, S_X_OPA);
	end
	S_X_OPA: begin
		x_a <= op_ext;
		operand(x_bd, cf3, S_X_OPB);	// cf3: b's value, still there (no fetch since)
	end
	S_X_OPB: begin
		x_b <= op_ext;
		st <= S_X_RUN;
	end
	S_X_RUN: begin
		st <= S_X_FETCH;
		if (x_op <= OP_MAX) begin
			alu_op <= x_op;
			alu_sgn <= x_flags[0];
			alu_a <= x_a;
			alu_b <= x_b;
			alu_aw <= x_ad[22:16];
			alu_bw <= x_bd[22:16];
			alu_dw <= x_dst[22:16];
			alu_cin <= x_carry;
			alu_start <= 1'b1;
			st <= S_X_ALU;
		end else case (x_op)
		OP_JZ, OP_JNZ:
			if ((x_a == 64'd0) == (x_op == OP_JZ)) begin
				if (x_imm >= x_left) begin
					x_left <= 16'd0;
				end else begin
					x_left <= x_left - x_imm;
					x_pc <= x_pc + {x_imm[13:0], 2'b00};
				end
			end
		OP_SETVALID, OP_SETINVALID:
			if (x_imm < g_nheaders)
				field_write(16'd512 + x_imm, 7'd1, {63'd0, x_op == OP_SETVALID}, S_X_FETCH);
		OP_COPYHDR:
			if (x_imm < g_nheaders && x_aval_ok && x_aval < g_nheaders && x_aval != x_imm)
				cfg_fetch(b_hdr + x_imm, 3'd1, S_X_COPY);
		OP_EXIT: x_exit <= 1'b1;
		OP_COUNT: count(x_imm, x_a, S_X_FETCH);
		OP_REG_READ, OP_REG_WRITE: cfg_fetch(b_register + x_imm, 3'd1, S_X_REG);
		OP_METER: meter(x_imm, x_a, S_X_FETCH);
		OP_DMETER:
			if (hit)
				meter(x_imm, {32'd0, trow}, S_X_FETCH);	// the row that hit
			else
				dst_put(64'd0, S_X_FETCH);		// a miss: GREEN
		OP_HASH:
			if (x_imm < g_nhash) begin
				hash_start(b_hash + {x_imm[14:0], 1'b0} + x_imm, 1'b0, S_X_HASHED);
			end else begin
				h_res <= 64'd0;
				st <= S_X_HASHED;
			end
		OP_RANDOM: begin
			x_t <= {32'd0, xorshift(rng)};
			rng <= xorshift(rng);
			x_step <= 3'd0;
			alu_call(OP_LTU, x_b, x_a, S_X_RANDOM);
			alu_sgn <= x_flags[0];		// b < a, signed for PISA_INSN_SIGNED
		end
		OP_CLONE: write_meta(WM_CLONE_REQ, 6'd52, 6'd55, S_X_FETCH);
		OP_RESUBMIT: write_meta(WM_RESUB_REQ, 6'd56, 6'd56, S_X_FETCH);
		OP_DIGEST:
			if (x_imm < g_ndigests)
				cfg_fetch(b_digest + x_imm, 3'd1, S_X_DIG);
		OP_TRUNCATE: write_meta(WM_TRUNC, 6'd58, 6'd59, S_X_FETCH);
		OP_DROP: field_write(16'd23, 7'd9, 64'd511, S_X_DROP);	// egress_spec
		OP_EXTRACT:
			if (x_parser) begin
				if (x_imm >= g_nheaders) begin
					perr <= E_ARG;
				end else begin
					ex_hdr <= x_imm;
					cfg_fetch(b_hdr + x_imm, 3'd1, S_X_EXTRACT);
				end
			end
		OP_EXTRACT_STACK:
			if (x_parser) begin
				if (x_imm >= g_nstacks || {16'd0, x_imm} >= STACKS)
					perr <= E_ARG;
				else
					cfg_fetch(b_stack + x_imm, 3'd1, S_X_STACK);
			end
		OP_ADVANCE:
			if (x_parser) begin
				if (x_a[2:0] != 3'd0)
					perr <= E_ARG;
				else if (x_a[63:19] != 45'd0 || x_a[18:3] > plen - cursor)
					perr <= E_TOO_SHORT;
				else
					cursor <= cursor + x_a[18:3];
			end
		default: ;
		endcase
	end
	S_X_ALU: if (alu_done) begin
		x_carry <= alu_cout;
		if (alu_write)
			dst_put(alu_res, S_X_FETCH);
		else
			st <= S_X_FETCH;
	end
	S_X_DROP: field_write(16'd48, 7'd16, 64'd0, S_X_FETCH);	// mcast_grp
	S_X_COPY: begin
		// COPYHDR imm, a: header a's bytes, then its validity bit, onto header imm
		x_t <= cf0;				// dst header
		cfg_fetch(b_hdr + x_aval, 3'd1, S_X_COPY_W);
	end
	S_X_COPY_W: begin
		if ({16'd0, x_t[63:48]} + {16'd0, copy_n} <= {16'd0, g_phv_bytes} &&
		    {16'd0, cf0[63:48]} + {16'd0, copy_n} <= {16'd0, g_phv_bytes})
			move(1'b0, A_PHV + {16'd0, cf0[63:48]}, A_PHV + {16'd0, x_t[63:48]}, copy_n,
			     S_X_COPY_B);
		else
			st <= S_X_COPY_B;
	end
	S_X_COPY_B: field_read(SRC_PHV, 32'd512 + {16'd0, x_aval}, 7'd1, S_X_COPY_V);
	S_X_COPY_V: field_write(16'd512 + x_imm, 7'd1, fv, S_X_FETCH);
	S_X_STACK: begin
		// cf0: the stack's word
		if (stk_next[stk_i] >= cf0[47:32]) begin
			perr <= E_STACK;
			st <= S_X_FETCH;
		end else if (cf0[63:48] + stk_next[stk_i] >= g_nheaders) begin
			perr <= E_ARG;
			st <= S_X_FETCH;
		end else begin
			ex_hdr <= cf0[63:48] + stk_next[stk_i];
			cfg_fetch(b_hdr + cf0[63:48] + stk_next[stk_i], 3'd1, S_X_EXTRACT);
		end
	end
	S_X_EXTRACT: begin
		// cf0: the header's word; its bytes from the cursor into the PHV, then valid
		ex_len <= cf0[47:32];
		if (cf0[47:32] > plen || cursor > plen - cf0[47:32]) begin
			perr <= E_TOO_SHORT;
			st <= S_X_FETCH;
		end else if (cf0[63:48] + cf0[47:32] <= g_phv_bytes) begin
			move(1'b1, {16'd0, cursor}, A_PHV + {16'd0, cf0[63:48]}, cf0[47:32], S_X_EXTRACT_V);
		end else begin
			st <= S_X_EXTRACT_V;
		end
	end
	S_X_EXTRACT_V: begin
		cursor <= cursor + ex_len;
		if (x_op == OP_EXTRACT_STACK)
			stk_next[stk_i] <= stk_next[stk_i] + 16'd1;
		field_write(16'd512 + ex_hdr, 7'd1, 64'd1, S_X_FETCH);
	end
	S_X_REG: begin
		// cf0: the register's word: [63:56] width, [55:32] first cell, [31:0] cells
		if (x_imm < g_nregisters && x_a[63:32] == 32'd0 && x_a[31:0] < cf0[31:0] &&
		    {9'd0, cf0[55:32]} + {1'b0, x_a[31:0]} < REG_CELLS33) begin
			if (x_op == OP_REG_READ)
				dm_read(A_REG + reg_off, 4'd8, S_X_REG_RD);
			else
				dm_write(A_REG + reg_off, 4'd8,
					 x_b & mw, S_X_FETCH);
		end else if (x_op == OP_REG_READ) begin
			dst_put(64'd0, S_X_FETCH);
		end else begin
			st <= S_X_FETCH;
		end
	end
	S_X_REG_RD: dst_put(dacc, S_X_FETCH);
	S_X_HASHED: alu_call(OP_MODU, h_res, x_b, S_X_HASHED2);	// x_b = 0: h_res itself
	S_X_HASHED2: alu_call(OP_ADD, x_a, alu_res, S_X_PUT);
	S_X_PUT: dst_put(alu_res, S_X_FETCH);
	S_X_RANDOM: begin
		// b < a: dst = a; else dst = a + x % (b - a + 1), or a + x when that is 0
		// (x_t: the random value)
		x_step <= x_step + 3'd1;
		case (x_step)
		3'd0:
			if (alu_res[0])
				dst_put(x_a, S_X_FETCH);
			else
				alu_call(OP_SUB, x_b, x_a, S_X_RANDOM);
		3'd1: alu_call(OP_ADD, alu_res, 64'd1, S_X_RANDOM);
		3'd2: alu_call(OP_MODU, x_t, alu_res, S_X_RANDOM);
		default: alu_call(OP_ADD, x_a, alu_res, S_X_PUT);
		endcase
	end
	S_X_DIG: begin
		// cf0: the digest's word; the hash engine collects the field list's bytes (class 5),
		// then S_DIG_OUT sends them
		h_flid <= cf0[63:48];
		oi <= 18'd0;
		h_cls <= 3'd5;
		h_pay <= 1'b0;
		h_ret <= S_DIG_OUT;
		h_dn <= 16'd0;
		h_nbit <= 4'd0;
		h_fi <= 16'd0;
		cfg_fetch(b_flist + cf0[63:48], 3'd1, S_H_FL);
	end
	S_DIG_OUT: begin
		// the digest's bytes (DIG_MAX at most); a digest of no bytes sends nothing
		if ({16'd0, oi[15:0]} < {16'd0, h_dn} && {16'd0, oi[15:0]} < DIG_MAX) begin
			dm_ra <= dma(A_DIG + {16'd0, oi[15:0]});
			st <= S_DIG_OUT_RD;
		end else begin
			oi <= 18'd0;
			st <= S_X_FETCH;
		end
	end
	S_DIG_OUT_RD: if (!m_dig_valid || m_dig_ready) begin
		m_dig_valid <= 1'b1;
		m_dig_id <= x_imm;
		m_dig_data <= dm_rd;
		m_dig_last <= oi[15:0] + 16'd1 == h_dn || {16'd0, oi[15:0]} + 32'd1 == DIG_MAX;
		oi <= oi + 18'd1;
		st <= S_DIG_OUT;
	end

	// ---- the hash engine: field list bytes (MSB first, zero padded), then the payload ----
	S_H_START: cfg_fetch(h_rec, 3'd3, S_H_START_W);
	S_H_START_W: begin
		h_cls <= cf0[58:56];
		h_width <= cf0[53:48];
		h_refin <= cf0[47];
		h_refout <= cf0[46];
		h_poly <= cf1[63:32];
		h_crc <= cf1[31:0];
		h_xo <= cf2[31:0];
		h_sum <= 32'd0;
		h_xor <= 16'd0;
		h_id <= 64'd0;
		h_odd <= 1'b0;
		h_nbit <= 4'd0;
		h_fi <= 16'd0;
		h_flid <= cf0[31:16];
		if (cf0[58:56] == 3'd4) begin
			h_res <= {32'd0, xorshift(rng)};
			rng <= xorshift(rng);
			st <= h_ret;
		end else begin
			cfg_fetch(b_flist + cf0[31:16], 3'd1, S_H_FL);
		end
	end
	S_H_FL: begin
		h_faddr <= cf0[63:48];
		h_nf <= h_flid < g_nflists ? cf0[47:32] : 16'd0;
		st <= S_H_FIELD;
	end
	S_H_FIELD: begin
		h_inb <= 1'b0;		// the byte paths start empty
		if (h_fi >= h_nf) begin
			// the last partial byte, zero padded
			h_pi <= cursor;
			st <= h_nbit != 4'd0 ? S_H_PAD : (h_pay ? S_H_PAY : S_H_FIN);
		end else begin
			cfg_fetch(h_faddr + h_fi, 3'd1, S_H_FIELD_W);
		end
	end
	S_H_FIELD_W: begin
		h_fi <= h_fi + 16'd1;
		sb_n <= cf0[22:16] > 7'd64 ? 7'd64 : cf0[22:16];
		h_ba <= cf0[15:3];
		h_bn <= cf0[22:19];
		if (cf0_bytes && h_nbit == 4'd0)
			st <= S_H_BYTE;		// whole bytes on a byte boundary: a byte a step
		else
			field_read(SRC_PHV, {16'd0, cf0[15:0]}, cf0[22:16], S_H_BITS);
	end
	S_H_BYTE: begin
		hash_in(S_H_BYTE);
		if (!h_crc_wait) begin
			if (h_bn == 4'd0) begin
				st <= S_H_FIELD;
			end else begin
				dm_ra <= dma(A_PHV + {19'd0, h_ba});
				h_ba <= h_ba + 13'd1;
				h_bn <= h_bn - 4'd1;
				h_inb <= 1'b1;
			end
		end
	end
	S_H_BITS: begin
		// the field's bits into the byte being assembled and the identity value
		if (sb_n == 7'd0) begin
			st <= S_H_FIELD;
		end else begin
			sb_n <= sb_n - 7'd1;
			h_byte <= {h_byte[6:0], sb_bit};
			h_id <= {h_id[62:0], sb_bit};
			if (h_nbit == 4'd7) begin
				h_nbit <= 4'd0;
				h_fb <= {h_byte[6:0], sb_bit};
				h_fret <= S_H_BITS;
				hbit <= 4'd0;
				st <= S_H_FEED;
			end else begin
				h_nbit <= h_nbit + 4'd1;
			end
		end
	end
	S_H_PAD: begin
		// zero bits up to the byte's end (and into the identity value when the payload
		// follows it), then the byte goes in
		h_byte <= {h_byte[6:0], 1'b0};
		if (h_pay && cursor < plen)
			h_id <= {h_id[62:0], 1'b0};
		h_nbit <= h_nbit + 4'd1;
		if (h_nbit == 4'd7) begin
			h_nbit <= 4'd0;
			h_fb <= {h_byte[6:0], 1'b0};
			h_fret <= h_pay ? S_H_PAY : S_H_FIN;
			hbit <= 4'd0;
			st <= S_H_FEED;
		end
	end
	S_H_FEED: begin
		// one byte (h_fb) into the hash; a CRC takes it a bit a clock
		if (h_cls == 3'd0) begin
			h_crc <= ((h_crc[h_width[4:0] - 5'd1] ^ (h_refin ? h_fb[hbit[2:0]] :
				 h_fb[3'd7 - hbit[2:0]])) ? {h_crc[30:0], 1'b0} ^ h_poly :
				 {h_crc[30:0], 1'b0}) & (h_width == 6'd32 ? 32'hFFFFFFFF : 32'h0000FFFF);
			hbit <= hbit + 4'd1;
			if (hbit == 4'd7)
				st <= h_fret;
		end else begin
			st <= h_fret;	// h_take took it
		end
	end
	S_H_PAY: begin
		// the payload, a byte a clock like S_H_BYTE
		hash_in(S_H_PAY);
		if (!h_crc_wait) begin
			if (h_pi < plen) begin
				pkt_ra <= h_pi[PKT_AW-1:0];
				h_pi <= h_pi + 16'd1;
				h_inb <= 1'b1;
			end else begin
				st <= S_H_FIN;
			end
		end
	end
	S_H_FIN: begin
		case (h_cls)
		3'd0: h_res <= {32'd0, crc_out};
		3'd1: h_res <= {48'd0, ~csum_fold};
		3'd2: h_res <= {48'd0, h_xor ^ (h_odd ? {h_hi, 8'd0} : 16'd0)};
		default: h_res <= h_id;
		endcase
		st <= h_ret;
	end

	// ---- subroutines ----
	S_CFG: begin
		if (cf_pend) begin
			case (cf_k)
			3'd0: cf0 <= cfg_rd;
			3'd1: cf1 <= cfg_rd;
			3'd2: cf2 <= cfg_rd;
			3'd3: cf3 <= cfg_rd;
			default: cf4 <= cfg_rd;
			endcase
			cf_k <= cf_k + 3'd1;
		end
		if (cf_i < cf_n) begin
			cfg_ra <= cfg_addr(cf_addr + {13'd0, cf_i});
			cf_i <= cf_i + 3'd1;
			cf_pend <= 1'b1;
		end else begin
			cf_pend <= 1'b0;
		end
		if (cf_pend && cf_k + 3'd1 == cf_n)
			st <= cf_ret;
	end
	S_FR: begin
		fr_nb <= fr_nbytes - 4'd1;	// bytes still to read after this one
		fr_k <= fr_nbytes;		// bytes still to arrive
		fr_s <= 3'd0 - (fr_off[2:0] + fr_w[2:0]);
		fr_acc <= 72'd0;
		if (fr_w == 7'd0 || fr_w > 7'd64 || ((fr_src == SRC_PHV || fr_src == SRC_ORIG) &&
		    fr_off + {25'd0, fr_w} > {13'd0, g_phv_bits})) begin
			fv <= 64'd0;
			st <= fr_ret;
		end else begin
			fr_read;
			st <= S_FR_RD;
		end
	end
	S_FR_RD: begin
		// a byte arrives every clock; the next is read while there are more
		fr_acc <= fr_cat;
		fr_k <= fr_k - 4'd1;
		if (fr_nb != 4'd0) begin
			fr_read;
			fr_nb <= fr_nb - 4'd1;
		end
		if (fr_k == 4'd1) begin
			fv <= fr_shifted[63:0] & mw;
			st <= fr_ret;
		end
	end
	S_FW: begin
		fw_nb <= fw_nbytes - 4'd1;	// bytes still to read after the last one
		fw_k <= fw_nbytes;		// bytes still to write
		fw_vs <= {8'd0, fw_v & mw} << fw_shift;
		fw_ms <= {8'd0, mw} << fw_shift;
		if (fw_w == 7'd0 || fw_w > 7'd64 ||
		    {16'd0, fw_off} + {25'd0, fw_w} > {13'd0, g_phv_bits}) begin
			st <= fw_ret;
		end else begin
			dm_ra <= dma(A_PHV + {16'd0, fw_last});
			fw_pa <= dma(A_PHV + {16'd0, fw_last});
			st <= S_FW_RD;
		end
	end
	S_FW_RD: begin
		// from the field's last byte back: a byte arrives, is merged and written back
		dm_we <= 1'b1;
		dm_wa <= fw_pa;
		dm_wd <= (dm_rd & ~fw_ms[7:0]) | (fw_vs[7:0] & fw_ms[7:0]);
		fw_vs <= fw_vs >> 8;
		fw_ms <= fw_ms >> 8;
		fw_k <= fw_k - 4'd1;
		if (fw_nb != 4'd0) begin
			dm_ra <= fw_pa - {{(DM_AW-1){1'b0}}, 1'b1};
			fw_pa <= fw_pa - {{(DM_AW-1){1'b0}}, 1'b1};
			fw_nb <= fw_nb - 4'd1;
		end
		if (fw_k == 4'd1)
			st <= fw_ret;
	end
	S_MUL: begin
		if (mul_b == 16'd0) begin
			st <= mul_ret;
		end else begin
			if (mul_b[0])
				mul_p <= mul_p + mul_a;
			mul_a <= mul_a << 1;
			mul_b <= mul_b >> 1;
		end
	end
	S_DMR: begin
		if (dm_pend) begin
			dacc <= {dacc[55:0], dm_rd};
			dm_k <= dm_k + 4'd1;
		end
		if (dm_i < dm_n) begin
			dm_ra <= dm_addr + dma({28'd0, dm_i});
			dm_i <= dm_i + 4'd1;
			dm_pend <= 1'b1;
		end else begin
			dm_pend <= 1'b0;
		end
		if (dm_pend && dm_k + 4'd1 == dm_n)
			st <= dm_ret;
	end
	S_DMW: begin
		dm_we <= 1'b1;
		dm_wa <= dm_addr + dma({28'd0, dm_i});
		dm_wd <= dacc[63:56];
		dacc <= dacc << 8;
		dm_i <= dm_i + 4'd1;
		if (dm_i + 4'd1 == dm_n)
			st <= dm_ret;
	end
	S_MOVE: begin
		if (mv_pend) begin
			dm_we <= 1'b1;
			dm_wa <= mv_da + dma({16'd0, mv_k});
			dm_wd <= mv_pkt ? pkt_rd : dm_rd;
			mv_k <= mv_k + 16'd1;
		end
		if (mv_i < mv_n) begin
			if (mv_pkt)
				pkt_ra <= mv_sa[PKT_AW-1:0] + mv_i[PKT_AW-1:0];	// PKT_AW <= 16
			else
				dm_ra <= dma({{(32 - MV_AW){1'b0}}, mv_sa} + {16'd0, mv_i});
			mv_i <= mv_i + 16'd1;
			mv_pend <= 1'b1;
		end else begin
			mv_pend <= 1'b0;
			if (!mv_pend)
				st <= mv_ret;
		end
	end
	S_ALU: if (alu_done)
		st <= alu_ret;

	// counters: packets += 1, bytes += packet_length, each by its kind (model_count)
	S_CNT: cfg_fetch(b_counter + cnt_id, 3'd1, S_CNT_W);
	S_CNT_W: begin
		// cf0: [63:62] kind, [61:32] first cell, [31:0] cells; a single cell ignores idx
		if (cnt_id < g_ncounters && cnt_idx_eff[63:32] == 32'd0 &&
		    cnt_idx_eff[31:0] < cf0[31:0] &&
		    {3'd0, cf0[61:32]} + {1'b0, cnt_idx_eff[31:0]} < CNT_CELLS33) begin
			cnt_cell <= {2'd0, cf0[61:32]} + cnt_idx_eff[31:0];
			cnt_kind <= cf0[63:62];
			field_read(SRC_PHV, 32'd128, 7'd32, S_CNT_LEN);	// packet_length
		end else begin
			st <= cnt_ret;
		end
	end
	S_CNT_LEN: begin
		cnt_i <= 4'd0;
		cnt_k <= 4'd0;
		cnt_pend <= 1'b0;
		cnt_carry <= 1'b0;
		cnt_second <= cnt_kind == 2'd1;		// bytes only
		cnt_add <= cnt_kind == 2'd1 ? {32'd0, fv[31:0]} : 64'd1;
		cnt_len <= fv[31:0];
		st <= S_CNT_ADD;
	end
	S_CNT_ADD: begin
		// 8 bytes, the last first: read, add with carry, write
		if (cnt_pend) begin
			dm_we <= 1'b1;
			dm_wa <= cnt_pa;
			dm_wd <= cnt_sum[7:0];
			cnt_carry <= cnt_sum[8];
			cnt_add <= cnt_add >> 8;
			cnt_k <= cnt_k + 4'd1;
		end
		if (cnt_i < 4'd8) begin
			dm_ra <= dma(cnt_base + 32'd7 - {28'd0, cnt_i});
			cnt_pa <= dma(cnt_base + 32'd7 - {28'd0, cnt_i});
			cnt_i <= cnt_i + 4'd1;
			cnt_pend <= 1'b1;
		end else begin
			cnt_pend <= 1'b0;
		end
		if (cnt_pend && cnt_k == 4'd7) begin
			if (!cnt_second && cnt_kind == 2'd2) begin
				cnt_second <= 1'b1;
				cnt_add <= {32'd0, cnt_len};
				cnt_carry <= 1'b0;
				cnt_i <= 4'd0;
				cnt_k <= 4'd0;
				cnt_pend <= 1'b0;
			end else begin
				st <= cnt_ret;
			end
		end
	end

	// meters (model_meter_exec): the colour of cell mt_idx of meter mt_id into dst
	S_MTR: cfg_fetch(b_meter + mt_id, 3'd1, S_MTR_W);
	S_MTR_W: begin
		// cf0: [63:62] kind (0 packets, 1 bytes), [61:32] first cell, [31:0] cells
		if (MTR_CELLS > 0 && mt_id < g_nmeters && mt_idx[63:32] == 32'd0 &&
		    mt_idx[31:0] < cf0[31:0] &&
		    {3'd0, cf0[61:32]} + {1'b0, mt_idx[31:0]} < MTR_CELLS33) begin
			mt_cell <= {2'd0, cf0[61:32]} + mt_idx[31:0];
			mt_bytes <= cf0[63:62] == 2'd1;
			mt_step <= 5'd0;
			mt_second <= 1'b0;
			st <= S_MTR_RUN;
		end else begin
			dst_put(64'd0, mt_ret);
		end
	end
	S_MTR_RUN: if (MTR_CELLS > 0) begin
		mt_step <= mt_step + 5'd1;
		case (mt_step)
		5'd0: dm_read(mt_addr + MTR_ON, 4'd1, S_MTR_RUN);
		5'd1:
			if (!dacc[0])
				dst_put(64'd0, mt_ret);		// not configured: GREEN
			else
				dm_read(mt_addr, 4'd8, S_MTR_RUN);
		5'd2: begin
			mt_cir <= dacc[63:32];
			mt_pir <= dacc[31:0];
			dm_read(mt_addr + 32'd8, 4'd8, S_MTR_RUN);
		end
		5'd3: begin
			mt_cbs <= dacc[63:32];
			mt_pbs <= dacc[31:0];
			dm_read(mt_addr + 32'd16, 4'd8, S_MTR_RUN);
		end
		5'd4: begin
			mt_tc <= dacc;
			dm_read(mt_addr + 32'd24, 4'd8, S_MTR_RUN);
		end
		5'd5: begin
			mt_tp <= dacc;
			dm_read(mt_addr + 32'd32, 4'd6, S_MTR_RUN);
		end
		5'd6: begin
			mt_since <= now > dacc[47:0] ? now - dacc[47:0] : 48'd0;
			if (mt_bytes) begin
				field_read(SRC_PHV, 32'd128, 7'd32, S_MTR_RUN);	// packet_length
			end else begin
				fv <= 64'd1;
				st <= S_MTR_RUN;
			end
		end
		// The buckets refill towards their caps at cir / pir units << 16 per us: b = cap if
		// b >= cap or p = rate * since > cap - b, else b + p (p saturates: no overflow).
		// The 64-bit arithmetic is the ALU's, one operation a step.
		5'd7: begin
			mt_sz <= {16'd0, fv[31:0], 16'd0};
			alu_call(OP_MULSAT, {32'd0, mt_cir}, {16'd0, mt_since}, S_MTR_RUN);
		end
		5'd8: begin
			x_t <= alu_res;					// p = rate * time
			alu_call(OP_LTU, mt_b, mt_cap, S_MTR_RUN);
		end
		5'd9: begin
			mt_full <= !alu_res[0];				// b >= cap
			alu_call(OP_SUB, mt_cap, mt_b, S_MTR_RUN);	// room
		end
		5'd10: alu_call(OP_LTU, alu_res, x_t, S_MTR_RUN);	// room < p
		5'd11: begin
			mt_full <= mt_full || alu_res[0];
			alu_call(OP_ADD, mt_b, x_t, S_MTR_RUN);
		end
		5'd12: begin
			if (!mt_second) begin
				mt_tc <= mt_full ? mt_cap : alu_res;
				mt_second <= 1'b1;
				mt_step <= 5'd8;
				alu_call(OP_MULSAT, {32'd0, mt_pir}, {16'd0, mt_since}, S_MTR_RUN);
			end else begin
				mt_tp <= mt_full ? mt_cap : alu_res;
			end
		end
		// the colour: tp < sz RED; else tc < sz YELLOW (tp -= sz); else GREEN (both -= sz)
		5'd13: alu_call(OP_LTU, mt_tp, mt_sz, S_MTR_RUN);
		5'd14: begin
			mt_red <= alu_res[0];
			alu_call(OP_LTU, mt_tc, mt_sz, S_MTR_RUN);
		end
		5'd15: begin
			mt_color <= mt_red ? 2'd2 : alu_res[0] ? 2'd1 : 2'd0;
			if (mt_red)
				mt_step <= 5'd18;
			else
				alu_call(OP_SUB, mt_tp, mt_sz, S_MTR_RUN);
		end
		5'd16: begin
			mt_tp <= alu_res;
			if (mt_color != 2'd0)
				mt_step <= 5'd18;
			else
				alu_call(OP_SUB, mt_tc, mt_sz, S_MTR_RUN);
		end
		5'd17: mt_tc <= alu_res;
		5'd18: dm_write(mt_addr + 32'd16, 4'd8, mt_tc, S_MTR_RUN);
		5'd19: dm_write(mt_addr + 32'd24, 4'd8, mt_tp, S_MTR_RUN);
		5'd20: dm_write(mt_addr + 32'd32, 4'd6, {16'd0, now}, S_MTR_RUN);
		default: dst_put({62'd0, mt_color}, mt_ret);
		endcase
	end

	// ---- commands ----
	S_C_BEAT: if (s_cmd_valid) begin
		// a beat: 4 bytes, staged one a clock; the first 16 also kept in c_dat
		c_beat <= s_cmd_data;
		c_bi <= 2'd0;
		c_pend <= s_cmd_last;
		case (c_k)
		16'd0: c_dat[31:0] <= s_cmd_data;
		16'd4: c_dat[63:32] <= s_cmd_data;
		16'd8: c_dat[95:64] <= s_cmd_data;
		16'd12: c_dat[127:96] <= s_cmd_data;
		default: ;
		endcase
		st <= S_C_STAGE;
	end
	S_C_STAGE: begin
		if ({16'd0, c_k} + {30'd0, c_bi} < ROW_STAGE) begin
			dm_we <= 1'b1;
			dm_wa <= dma(A_STAGE + {16'd0, c_k} + {30'd0, c_bi});
			dm_wd <= c_beat[{c_bi, 3'b000} +: 8];
		end
		c_bi <= c_bi + 2'd1;
		if (c_bi == 2'd3) begin
			c_k <= c_k + 16'd4;
			st <= c_pend ? S_C_CHECK : S_C_BEAT;
		end
	end
	S_C_CHECK: begin
		m_rsp_a <= 64'd0;
		m_rsp_b <= 64'd0;
		c_err <= 8'd0;
		c_k <= 16'd0;
		x_step <= 3'd0;
		st <= S_C_RSP;
		case (c_kind)
		4'd1:	// a table row: c_index (rows = the default row), c_len bytes
			if (!loaded || c_id >= g_ntables)
				c_err <= ERR_RANGE;
			else
				cfg_fetch(b_table + {c_id[13:0], 2'b00} + c_id, 3'd5, S_C_ROW);
		4'd2, 4'd10:	// counter cell write / read
			if (!loaded || c_id >= g_ncounters)
				c_err <= ERR_RANGE;
			else
				cfg_fetch(b_counter + c_id, 3'd1, S_C_CNT);
		4'd3, 4'd11:	// register cell write / read
			if (!loaded || c_id >= g_nregisters)
				c_err <= ERR_RANGE;
			else
				cfg_fetch(b_register + c_id, 3'd1, S_C_REG);
		4'd4:	// meter cell: configured flag, then cir_q16, pir_q16, cbs, pbs (u32 each)
			if (!loaded || c_id >= g_nmeters)
				c_err <= ERR_RANGE;
			else
				cfg_fetch(b_meter + c_id, 3'd1, S_C_MTR);
		4'd5:	// a group's copies: n x (rid u16, port u16), little-endian
			if (!loaded || {16'd0, c_id} >= MC_GROUPS)
				c_err <= ERR_RANGE;
			else if (c_index > MC_SLOT)
				c_err <= ERR_FULL;
			else if ({16'd0, c_len} != {c_index[29:0], 2'b00})
				c_err <= ERR_INVAL;
			else
				st <= S_C_MCCHK;
		4'd6:	// a clone session: enabled flag; port, mcast_grp, truncate (u16 each)
			if (!loaded || {16'd0, c_id} >= CL_SESS ||
			    (c_flag != 8'd0 && c_dat[15:0] >= 16'd511 && c_dat[31:16] == 16'd0) ||
			    (c_dat[31:16] != 16'd0 && {16'd0, c_dat[31:16]} >= MC_GROUPS))
				c_err <= ERR_RANGE;
			else
				dm_write(A_CLS + {13'd0, c_id, 3'b000}, 4'd7, {8'd0, 7'd0, c_flag != 8'd0,
					 7'd0, c_dat[8:0], c_dat[31:16], c_dat[47:32]}, S_C_RSP);
		default: c_err <= ERR_INVAL;
		endcase
	end
	S_C_ROW: begin
		// cf0 .. cf4: the table's words
		tw0 <= cf0;
		tw1 <= cf1;
		tw4 <= cf4;
		ai <= 8'd0;
		if (c_index > cf1[63:32]) begin
			c_err <= ERR_RANGE;
			st <= S_C_RSP;
		end else if (c_len != cf2[63:48] || {16'd0, c_len} > ROW_STAGE) begin
			c_err <= ERR_INVAL;
			st <= S_C_RSP;
		end else if (c_dat[0] && c_dat[7:1] != 7'd0) begin
			c_err <= ERR_INVAL;
			st <= S_C_RSP;
		end else begin
			st <= c_dat[0] ? S_C_AFIND : S_C_ROWMUL;
		end
	end
	S_C_AFIND: begin
		// the row's action must be one of the table's, in its place (default or entry)
		if (ai >= tw0[23:16]) begin
			c_err <= ERR_INVAL;
			st <= S_C_RSP;
		end else begin
			cfg_fetch(tw4[47:32] + {8'd0, ai}, 3'd1, S_C_AFIND_W);
		end
	end
	S_C_AFIND_W: begin
		if (cf0[63:48] == c_rs12) begin
			if ((c_index != tw1[63:32] && cf0[24]) || (c_index == tw1[63:32] && cf0[25])) begin
				c_err <= ERR_INVAL;
				st <= S_C_RSP;
			end else begin
				st <= S_C_ROWMUL;
			end
		end else begin
			ai <= ai + 8'd1;
			st <= S_C_AFIND;
		end
	end
	S_C_ROWMUL: mul_start(c_index, c_len, S_C_ROWCOPY);
	S_C_ROWCOPY: move(1'b0, A_STAGE, A_ROW + tw1[31:0] + mul_p, c_len, S_C_RSP);
	S_C_CNT: begin
		// cf0: the counter's word
		if (c_index >= cf0[31:0] || {2'd0, cf0[61:32]} + c_index >= CNT_CELLS) begin
			c_err <= ERR_RANGE;
			st <= S_C_RSP;
		end else begin
			x_t[31:0] <= A_CNT + ({2'd0, cf0[61:32]} + c_index << 4);
			st <= S_C_CNT_RW;
		end
	end
	S_C_CNT_RW: begin
		// packets, then bytes: written from c_dat (little-endian u64 each) or read
		x_step <= x_step + 3'd1;
		case (x_step)
		3'd0:
			if (c_kind == 4'd2)
				dm_write(x_t[31:0], 4'd8, c_dat[63:0], S_C_CNT_RW);
			else
				dm_read(x_t[31:0], 4'd8, S_C_CNT_RW);
		3'd1: begin
			if (c_kind != 4'd2)
				m_rsp_a <= dacc;
			if (c_kind == 4'd2)
				dm_write(x_t[31:0] + 32'd8, 4'd8, c_dat[127:64], S_C_RSP);
			else
				dm_read(x_t[31:0] + 32'd8, 4'd8, S_C_CNT_RW);
		end
		default: begin
			m_rsp_b <= dacc;
			st <= S_C_RSP;
		end
		endcase
	end
	S_C_REG: begin
		// cf0: the register's word
		if (c_index >= cf0[31:0] || {8'd0, cf0[55:32]} + c_index >= REG_CELLS) begin
			c_err <= ERR_RANGE;
			st <= S_C_RSP;
		end else if (c_kind == 4'd3) begin
			if ((c_dat[63:0] & ~mw) != 64'd0) begin
				c_err <= ERR_RANGE;
				st <= S_C_RSP;
			end else begin
				dm_write(A_REG + ({8'd0, cf0[55:32]} + c_index << 3), 4'd8, c_dat[63:0],
					 S_C_RSP);
			end
		end else begin
			dm_read(A_REG + ({8'd0, cf0[55:32]} + c_index << 3), 4'd8, S_C_REG_RD);
		end
	end
	S_C_REG_RD: begin
		m_rsp_a <= dacc;
		st <= S_C_RSP;
	end
	S_C_MTR: begin
		// cf0: the meter's word; the cell gets its rates and full buckets
		if (c_index >= cf0[31:0] || {2'd0, cf0[61:32]} + c_index + 32'd1 > MTR_CELLS) begin
			c_err <= ERR_RANGE;
			st <= S_C_RSP;
		end else begin
			mt_cell <= {2'd0, cf0[61:32]} + c_index;
			st <= S_C_MTR_W;
		end
	end
	S_C_MTR_W: begin
		x_step <= x_step + 3'd1;
		case (x_step)
		3'd0: dm_write(mt_addr, 4'd8, {c_dat[31:0], c_dat[63:32]}, S_C_MTR_W);
		3'd1: dm_write(mt_addr + 32'd8, 4'd8, {c_dat[95:64], c_dat[127:96]}, S_C_MTR_W);
		3'd2: dm_write(mt_addr + 32'd16, 4'd8, {16'd0, c_dat[95:64], 16'd0}, S_C_MTR_W);
		3'd3: dm_write(mt_addr + 32'd24, 4'd8, {16'd0, c_dat[127:96], 16'd0}, S_C_MTR_W);
		default: dm_write(mt_addr + 32'd32, 4'd7, {8'd0, now, 7'd0, c_flag != 8'd0}, S_C_RSP);
		endcase
	end
	S_C_MCCHK: begin
		// ports are checked first: a refused group is left as it was
		if (c_k < c_index[15:0])
			dm_read(A_STAGE + {14'd0, c_k, 2'b00} + 32'd2, 4'd2, S_C_MCCHK_W);
		else begin
			c_k <= 16'd0;
			st <= S_C_MCCOPY;
		end
	end
	S_C_MCCHK_W: begin
		if ({dacc[7:0], dacc[15:8]} >= 16'd511) begin
			c_err <= ERR_RANGE;
			st <= S_C_RSP;
		end else begin
			c_k <= c_k + 16'd1;
			st <= S_C_MCCHK;
		end
	end
	S_C_MCCOPY: begin
		if (c_k < c_index[15:0])
			dm_read(A_STAGE + {14'd0, c_k, 2'b00}, 4'd4, S_C_MCCOPY_W);
		else
			dm_write(A_MCN + {15'd0, c_id, 1'b0}, 4'd2, {48'd0, c_index[15:0]}, S_C_RSP);
	end
	S_C_MCCOPY_W: begin
		// staged rid (LE), port (LE) -> rid, port (BE)
		c_k <= c_k + 16'd1;
		dm_write(A_MCS + {(({14'd0, c_id} << MC_SHIFT) + {14'd0, c_k}), 2'b00}, 4'd4,
			 {32'd0, dacc[23:16], dacc[31:24], 7'd0, dacc[0], dacc[15:8]}, S_C_MCCOPY);
	end
	S_C_RSP: begin
		if (!m_rsp_valid) begin
			m_rsp_err <= c_err;
			m_rsp_valid <= 1'b1;
			st <= S_IDLE;
		end
	end

	// ---- loading an image: header words, empty memories, default rows ----
	S_LOAD_HDR: cfg_fetch(16'd0, 3'd5, S_LOAD_HDR_W);
	S_LOAD_HDR_W: begin
		if (cf0 != HW_MAGIC) begin
			st <= S_IDLE;			// no image: stay empty
		end else begin
			hw1 <= cf1;
			hw2 <= cf2;
			hw3 <= cf3;
			hw4 <= cf4;
			cfg_fetch(16'd5, 3'd5, S_LOAD_HDR_W2);
		end
	end
	S_LOAD_HDR_W2: begin
		hw5 <= cf0;
		hw6 <= cf1;
		hw7 <= cf2;
		hw8 <= cf3;
		hw9 <= cf4;
		rng <= 32'd1;
		clr_r <= 3'd0;
		st <= S_LOAD_RANGE;
	end
	S_LOAD_RANGE: begin
		// what the image uses of each memory, emptied one byte a clock
		clr_i <= {(DM_AW + 1){1'b0}};
		clr_r <= clr_r + 3'd1;
		st <= S_LOAD_CLR;
		case (clr_r)
		3'd0: begin
			clr_base <= dma(A_ROW);
			clr_n <= dm_len(g_row_used < ROW_BYTES ? g_row_used : ROW_BYTES);
		end
		3'd1: begin
			clr_base <= dma(A_CNT);
			clr_n <= dm_len((g_cnt_used < CNT_CELLS ? g_cnt_used : CNT_CELLS) << 4);
		end
		3'd2: begin
			clr_base <= dma(A_REG);
			clr_n <= dm_len((g_reg_used < REG_CELLS ? g_reg_used : REG_CELLS) << 3);
		end
		3'd3: begin
			clr_base <= dma(A_MCN);
			clr_n <= dm_len(2 * MC_GROUPS);
		end
		3'd4: begin
			// clone sessions: only each one's enabled byte
			clr_base <= dma(A_CLS);
			clr_n <= dm_len(CL_SESS);
		end
		3'd5: begin
			// meters: only each cell's configured flag
			clr_base <= dma(A_MTR + MTR_ON);
			clr_n <= dm_len(MTR_CELLS);
		end
		default: begin
			dt <= 16'd0;
			st <= S_LOAD_DEF;
		end
		endcase
	end
	S_LOAD_CLR: begin
		if (clr_i < clr_n) begin
			dm_we <= 1'b1;
			dm_wa <= clr_base;
			dm_wd <= 8'h00;
			// (clr_r is already the next range's: 5 sessions, 6 meters)
			clr_base <= dma(dm32(clr_base) + (clr_r == 3'd6 ? 32'd40 : clr_r == 3'd5 ? 32'd8 : 32'd1));
			clr_i <= clr_i + {{DM_AW{1'b0}}, 1'b1};
		end else begin
			st <= S_LOAD_RANGE;
		end
	end
	S_LOAD_DEF: begin
		// each table's initial default row (index rows), one byte a few clocks
		if (dt >= g_ntables) begin
			loaded <= 1'b1;
			st <= S_IDLE;
		end else begin
			cfg_fetch(b_table + {dt[13:0], 2'b00} + dt, 3'd5, S_LOAD_DEF_W);
		end
	end
	S_LOAD_DEF_W: begin
		tw1 <= cf1;
		tw2 <= cf2;
		tw4 <= cf4;
		mul_start(cf1[63:32], cf2[63:48], S_LOAD_DEF_M);
	end
	S_LOAD_DEF_M: begin
		ld_base <= t_base + mul_p;
		dk <= 32'd0;
		st <= S_LOAD_DEF_B;
	end
	S_LOAD_DEF_B: begin
		if (dk < {16'd0, t_rowb})
			cfg_fetch(tw4[31:16] + dk[18:3], 3'd1, S_LOAD_DEF_C);
		else begin
			dt <= dt + 16'd1;
			st <= S_LOAD_DEF;
		end
	end
	S_LOAD_DEF_C: begin
		if (ld_base + dk < ROW_BYTES) begin
			dm_we <= 1'b1;
			dm_wa <= dma(A_ROW + ld_base + dk);
			dm_wd <= cf0[{3'd7 - dk[2:0], 3'b000} +: 8];
		end
		dk <= dk + 32'd1;
		st <= S_LOAD_DEF_B;
	end
	default: st <= S_IDLE;
	endcase

	if (rst) begin
		st <= S_IDLE;
		loaded <= 1'b0;
		in_pkt <= 1'b0;
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
		alu_start <= 1'b0;
		dm_we <= 1'b0;
	end
end

`ifdef FORMAL
// Table commits are atomic (hw/formal, proof core_atomic): from the cycle a packet's first
// byte is taken until the engine is idle again, no command runs (s_cmd_ready low, no command
// state, no subroutine set to return into one), no image is loaded or reset (no load state,
// the running bank stays), and with one bank no configuration word is taken. Commands and
// loads are what change rows, counters, registers, meters, groups and sessions, so a packet
// sees each of them entirely as it was before or entirely as it is after.
// Proved by k-induction from any state: the invariant holds for every value of the
// memories and of the registers it does not name.
function f_not_pkt(input [7:0] s);	// a state only commands and loads enter
	f_not_pkt = s == S_C_BEAT || s == S_C_REG || s == S_C_STAGE || s == S_C_CHECK ||
		s == S_C_RSP || s == S_C_ROW || s == S_C_CNT || s == S_C_MTR || s == S_C_MCCHK ||
		s == S_C_AFIND || s == S_C_ROWMUL || s == S_C_AFIND_W || s == S_C_ROWCOPY ||
		s == S_C_CNT_RW || s == S_C_REG_RD || s == S_C_MTR_W || s == S_C_MCCHK_W ||
		s == S_C_MCCOPY || s == S_C_MCCOPY_W ||
		s == S_LOAD_CLR || s == S_LOAD_HDR || s == S_LOAD_HDR_W || s == S_LOAD_HDR_W2 ||
		s == S_LOAD_RANGE || s == S_LOAD_DEF || s == S_LOAD_DEF_W || s == S_LOAD_DEF_M ||
		s == S_LOAD_DEF_B || s == S_LOAD_DEF_C;
endfunction

reg f_past_valid = 1'b0;
reg f_pkt = 1'b0;		// a packet taken, the engine not idle since
reg f_bank = 1'b0;		// the bank it started in
always @(posedge clk) begin
	f_past_valid <= 1'b1;
	if (st == S_IDLE) begin
		f_pkt <= s_pkt_valid && s_pkt_ready;
		f_bank <= bank;
	end
	if (rst)
		f_pkt <= 1'b0;
end

initial assume (rst);

wire f_busy = f_pkt && st != S_IDLE;
always @* if (f_past_valid && f_busy) begin
	assert (!f_not_pkt(st));
	assert (!s_cmd_ready);
	assert (BANKS == 1 || bank == f_bank);
	assert (BANKS == 2 || !s_cfg_ready);
	assert (!f_not_pkt(cf_ret) && !f_not_pkt(fr_ret) && !f_not_pkt(fw_ret) &&
		!f_not_pkt(mul_ret) && !f_not_pkt(dm_ret) && !f_not_pkt(alu_ret) &&
		!f_not_pkt(cnt_ret) && !f_not_pkt(md_ret) && !f_not_pkt(wm_ret) &&
		!f_not_pkt(x_ret) && !f_not_pkt(h_ret) && !f_not_pkt(h_fret) &&
		!f_not_pkt(mt_ret) && !f_not_pkt(mv_ret));
end
// not vacuous: a packet gets into the engine
always @* cover (f_busy && st == S_CLEAR);
`endif

endmodule

`resetall
