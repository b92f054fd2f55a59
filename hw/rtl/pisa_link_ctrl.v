// SPDX-License-Identifier: Apache-2.0
// pisa_link_ctrl: the switch end of the control link (docs/control-protocol.md, "Reliability"),
// between pisa_frame_rx (good frames in) and pisa_frame_tx (replies out).
//
// Per request, exactly as lib/pisa_proto.c's server:
//  - type bit 7 set: ignored, no reply;
//  - HELLO: payload of 4 bytes opens a session (expect = seq + 1, replay window emptied) and is
//    answered HELLO_REPLY (fields from the parameters and info_* inputs); else ACK MALFORMED;
//  - no session yet: ACK NO_SESSION;
//  - seq 1 .. WINDOW behind the expected one with a kept reply: that reply again, nothing runs;
//    any other unexpected seq: ACK SEQ;
//  - the expected seq: consumed, then WRITE / READ / IMAGE_CHUNK / IMAGE_COMMIT / PACKET_OUT /
//    RESET run as below, anything else ACK UNSUPPORTED; the reply is kept for duplicates.
// ACKs carry no detail text (the spec allows 0 .. 120 bytes; pisa_proto.c sends some).
//
// WRITE: the batch is stored in a RAM and checked whole while it arrives (opcodes, body
// lengths, flag bytes, count); a bad batch is ACK MALFORMED and issues nothing. Then each op
// leaves on m_cmd_* and the consumer answers on s_rsp_* before the next one is issued; the
// first error stops the batch: ACK FAILED, err, failed = op index. OK only after every op.
// Command beats (kind, id, index, flag, len stay the same for all beats of one op):
//
//   kind  op            id       index   flag        data bytes (len), 4 per beat, LE lanes
//   1     ROW           table    row     0           the row bytes
//   2     COUNTER       counter  cell    0           packets u64, bytes u64
//   3     REGISTER      register cell    0           value u64
//   4     METER         meter    cell    configured  cir_q16, pir_q16, cbs, pbs (u32 each)
//   5     MCAST         group    n       0           n x (rid u16, port u16)
//   6     CLONE         session  0       enabled     port, mcast_grp, truncate (u16 each)
//   8     port read     port     counter 0           none (a MAC counter: pisa_switch answers)
//   10    counter read  counter  cell    0           none
//   11    register read register cell    0           none
//
// Data byte k of an op is in beat k/4, bits [8*(k%4)+7 -: 8]; an op with len 0 has one beat
// (data 0). m_cmd_last marks an op's final beat. READ: one beat of kind 10 / 11 / 8, the
// consumer answers err and the values on s_rsp_a / s_rsp_b (READ_REPLY; b is sent as 0 for
// registers).
// IMAGE_CHUNK (>= 4 bytes), IMAGE_COMMIT (8), PACKET_OUT (>= 2), RESET (0): the payload is
// forwarded unchanged on m_req_* (type, len; RESET as one beat of data 0) and the consumer
// answers on s_rsp_* (err 0: ACK OK; else ACK FAILED with that err). The consumer owns image
// staging and its checks (offset, size, CRC, board).
// s_rsp_err is a positive pisa_err (lib/pisa_image.h), 0 for success; one answer per op, read
// or request, after its last beat was taken (a READ's answer is held until its reply is kept).
//
// Area (iCE40; docs/performance.md has the figures): one byte parser serves both passes over a
// WRITE batch: the check while it arrives (into the batch RAM) and the execution read back
// from it; a READ's 7 bytes land straight in the command registers; the kept replies are the
// bare ACK / READ_REPLY payloads in a block RAM (slot = seq mod WINDOW, 32 bytes each) with
// their type in a WINDOW-bit register, written by the same byte generator that sends the
// replies that are not kept. A slot needs no seq of its own: a reply is kept for every seq
// consumed, so slot seq mod WINDOW holds the reply to seq whenever seq is 1 .. WINDOW behind
// the expected one and its kept bit is set (HELLO clears them); the formal proof checks it.
// Counters and lengths are as wide as MAX_PAYLOAD needs, not 16 bits.
//
// Stream contract (all ports): a word moves when valid && ready at a rising clock edge; once a
// source raises valid it keeps valid high and its data stable until ready; a source never
// waits for ready before raising valid. m_req_* passes s_* through (combinational) while a
// request is forwarded.
`default_nettype none

module pisa_link_ctrl #(
	// Largest request payload, bytes (64 .. 10240): the WRITE batch RAM and HELLO_REPLY's
	// max_payload. s_hdr_len must not exceed it: give pisa_frame_rx the same value (it drops
	// longer frames, as the protocol allows a receiver with smaller buffers).
	parameter MAX_PAYLOAD = 1024,
	// Replay window: replies kept for duplicates and HELLO_REPLY's window, 1, 2, 4, 8 or 16.
	parameter WINDOW = 16,
	// HELLO_REPLY fields (docs/control-protocol.md): bitstream version major << 8 | minor,
	parameter [15:0] HW_VERSION = 16'h0100,
	// front-panel ports, the CPU port, stage engines, PHV bytes,
	parameter [15:0] PORTS = 16'd8,
	parameter [15:0] CPU_PORT = 16'd8,
	parameter [15:0] STAGES = 16'd4,
	parameter [15:0] PHV_BYTES = 16'd128,
	// replication engine capacity,
	parameter [15:0] MCAST_GROUPS = 16'd64,
	parameter [15:0] MCAST_NODES = 16'd256,
	parameter [15:0] CLONE_SESSIONS = 16'd8,
	// the largest image the consumer can stage, bytes,
	parameter [31:0] MAX_IMAGE = 32'd65536,
	// and the profile name (lib/pisa_profile.c), at most 15 characters.
	parameter [8*16-1:0] BOARD = "sim",
	// Bytes of info_program that HELLO_REPLY reports, 0 .. 64; the rest of its 64-byte field
	// is sent as 0, so a longer name arrives cut to PROGRAM_BYTES characters (0: none). The
	// name is for people (pisactl status); each byte costs some 8 LUT4 of multiplexer.
	parameter PROGRAM_BYTES = 64,
	// Slot index width, derived.
	parameter SLOT_W = WINDOW > 1 ? $clog2(WINDOW) : 1,
	// WRITE RAM address width, derived.
	parameter WAW = $clog2(MAX_PAYLOAD),
	// Width of lengths, payload positions and op counts (0 .. MAX_PAYLOAD), derived.
	parameter LW = MAX_PAYLOAD < 255 ? 8 : $clog2(MAX_PAYLOAD + 1)
) (
	input  wire         clk,
	input  wire         rst,

	// Good frames from pisa_frame_rx.
	input  wire [15:0]  s_hdr_seq,
	input  wire [7:0]   s_hdr_type,
	input  wire [15:0]  s_hdr_len,
	input  wire         s_hdr_valid,
	output wire         s_hdr_ready,
	input  wire [7:0]   s_data,
	input  wire         s_last,
	input  wire         s_valid,
	output wire         s_ready,

	// Replies to pisa_frame_tx.
	output wire [15:0]  m_hdr_seq,
	output wire [7:0]   m_hdr_type,
	output wire [15:0]  m_hdr_len,
	output wire         m_hdr_valid,
	input  wire         m_hdr_ready,
	output wire [7:0]   m_data,
	output wire         m_last,
	output wire         m_valid,
	input  wire         m_ready,

	// Control-bus commands (WRITE ops, READs).
	output wire [3:0]   m_cmd_kind,
	output wire [15:0]  m_cmd_id,
	output wire [31:0]  m_cmd_index,
	output wire [7:0]   m_cmd_flag,
	output wire [15:0]  m_cmd_len,
	output wire [31:0]  m_cmd_data,
	output wire         m_cmd_last,
	output wire         m_cmd_valid,
	input  wire         m_cmd_ready,

	// Forwarded requests (IMAGE_CHUNK, IMAGE_COMMIT, PACKET_OUT, RESET).
	output wire [7:0]   m_req_type,
	output wire [15:0]  m_req_len,
	output wire [7:0]   m_req_data,
	output wire         m_req_last,
	output wire         m_req_valid,
	input  wire         m_req_ready,

	// The consumer's answer to each op, read or request.
	input  wire [7:0]   s_rsp_err,
	input  wire [63:0]  s_rsp_a,
	input  wire [63:0]  s_rsp_b,
	input  wire         s_rsp_valid,
	output wire         s_rsp_ready,

	// For HELLO_REPLY: an image runs (flags bit 0), its length and CRC-32, its program name
	// (byte j in bits [8j+7 -: 8], NUL-padded, NUL-terminated).
	input  wire         info_image,
	input  wire [31:0]  info_image_len,
	input  wire [31:0]  info_image_crc,
	input  wire [511:0] info_program,

	// Session state, for status registers.
	output wire         session,
	output wire [15:0]  expect_seq
);

generate
	if (WINDOW != 1 && WINDOW != 2 && WINDOW != 4 && WINDOW != 8 && WINDOW != 16) begin : g_bad_win
		pisa_link_ctrl_error_window_must_be_1_2_4_8_or_16 u_stop ();
	end
	if (MAX_PAYLOAD < 64 || MAX_PAYLOAD > 10240) begin : g_bad_max
		pisa_link_ctrl_error_max_payload_must_be_64_to_10240 u_stop ();
	end
	if (PROGRAM_BYTES < 0 || PROGRAM_BYTES > 64) begin : g_bad_prog
		pisa_link_ctrl_error_program_bytes_must_be_0_to_64 u_stop ();
	end
endgenerate

// Message types, statuses, errors (lib/pisa_proto.h, lib/pisa_image.h).
localparam [7:0] T_HELLO = 8'h01, T_CHUNK = 8'h02, T_COMMIT = 8'h03, T_WRITE = 8'h04,
	T_READ = 8'h05, T_POUT = 8'h06, T_RESET = 8'h07, T_ACK = 8'h80, T_HELLO_REPLY = 8'h81,
	T_READ_REPLY = 8'h85;
localparam [2:0] ST_OK = 3'd0, ST_FAILED = 3'd1, ST_SEQ = 3'd2, ST_MALFORMED = 3'd3,
	ST_UNSUPPORTED = 3'd4, ST_NO_SESSION = 3'd5;
localparam [7:0] E_FORMAT = 8'd3, E_INVAL = 8'd10;
localparam [15:0] MAXP = MAX_PAYLOAD[15:0];
localparam [15:0] WIN = WINDOW[15:0];
localparam WB = $clog2(WINDOW);  // 0 for WINDOW 1
localparam [SLOT_W-1:0] SLOT_MASK = WINDOW[SLOT_W-1:0] - 1'b1;
localparam [LW-1:0] L0 = 0, L1 = 1, L2 = 2;
localparam [LW-1:0] END_ACK = 5, END_RR = 17, END_HELLO = 113;
localparam [LW-1:0] RD_BODY = 6;  // a READ's id and index

// The board name with byte j at [8j+7 -: 8] (a Verilog string is right-aligned).
function [127:0] board_le(input [127:0] s);
	integer i, n;
	begin
		n = 0;
		for (i = 0; i < 16; i = i + 1)
			if (s[8 * i +: 8] != 8'd0)
				n = i + 1;
		board_le = 128'd0;
		for (i = 0; i < 15; i = i + 1)
			if (i < n)
				board_le[8 * i +: 8] = s[8 * (n - 1 - i) +: 8];
	end
endfunction
localparam [127:0] BOARD_LE = board_le(BOARD);

localparam [4:0]
	S_IDLE = 5'd0,   // waiting for a request header
	S_DRAIN = 5'd1,  // consuming a payload that is not forwarded (a READ's into the parser)
	S_ACT = 5'd2,    // act on a drained request
	S_WLOAD = 5'd3,  // WRITE batch into RAM, checked on the way (parser pass 1)
	S_WCHK = 5'd4,   // verdict on the batch
	S_ERD = 5'd5,    // executing (parser pass 2): read a batch byte
	S_EUSE = 5'd6,   // executing: use it
	S_EBEAT = 5'd7,  // a command beat out
	S_ERSP = 5'd8,   // waiting for the op's answer
	S_RCMD = 5'd9,   // READ command out
	S_RRSP = 5'd10,  // READ answer
	S_FWD = 5'd11,   // forwarding a request
	S_FRSP = 5'd12,  // its answer
	S_ST = 5'd13,    // storing the reply in its slot
	S_TXH = 5'd14,   // reply header out
	S_TXR = 5'd15,   // reply byte: read
	S_TXL = 5'd16,   // reply byte: load
	S_TXW = 5'd17;   // reply byte: out

// What to do once the payload is drained.
localparam [2:0] A_NONE = 3'd0, A_HELLO = 3'd1, A_GEN = 3'd2, A_DUP = 3'd3, A_STORE = 3'd4,
	A_READ = 3'd5;

// Reply kinds (the header type and length follow).
localparam [1:0] R_ACK = 2'd0, R_RR = 2'd1, R_HELLO = 2'd2;

// Parser phases: opcode, body length low and high byte, body.
localparam [1:0] P_OPC = 2'd0, P_BL0 = 2'd1, P_BL1 = 2'd2, P_BODY = 2'd3;

reg [4:0] state_reg = S_IDLE, state_next;
reg [2:0] act_reg, act_next;
reg session_reg = 1'b0, session_next;
reg [15:0] expect_reg = 16'd0, expect_next;
reg [WINDOW-1:0] kept_reg = {WINDOW{1'b0}}, kept_next;
reg [WINDOW-1:0] kept_rr_reg, kept_rr_next;  // the kept reply is a READ_REPLY (else ACK)

reg [15:0] seq_reg, seq_next;
reg [2:0] type_reg, type_next;       // request type (forwarded ones are 2, 3, 6, 7)
reg [LW-1:0] len_reg, len_next;      // payload length (<= MAX_PAYLOAD when it matters)
reg len_ok_reg, len_ok_next;         // HELLO: 4 bytes; READ: 7 bytes and kind 2, 3 or 4
reg [LW-1:0] idx_reg, idx_next;      // payload byte, then reply byte

// The reply: its kind and where it comes from are decided at the request's header; status,
// err and failed there too, or from the consumer's answer.
reg [1:0] rep_reg, rep_next;
reg rep_ram_reg, rep_ram_next;       // sent from the slot RAM
reg [2:0] ack_st_reg, ack_st_next;
reg [7:0] ack_err_reg, ack_err_next;
reg none_reg, none_next;             // ACK failed = 0xFFFF (else ops)
reg rr_use_reg, rr_use_next;         // READ_REPLY values from s_rsp (else 0)
reg rsp_hold_reg, rsp_hold_next;     // s_rsp is held until the reply is stored
reg [7:0] m_data_reg, m_data_next;

// The byte parser: a WRITE batch in pass 1 (checks: bad) and pass 2 (beats out), and a READ's
// payload (kind, then id and index as if they were an op's body).
reg ex_reg, ex_next;                 // pass 2
reg [1:0] ph_reg, ph_next;
reg [7:0] blen_lo_reg, blen_lo_next; // body length, low byte
reg [LW-1:0] rem_reg, rem_next;      // body bytes left, this one included
reg [2:0] k_reg, k_next;             // body byte, saturating at 7
reg [1:0] j_reg, j_next;             // byte within the data word
reg bad_reg, bad_next;
reg [LW-1:0] ops_reg, ops_next;      // pass 1: ops seen; pass 2: ops done
reg [15:0] count_reg, count_next;

// The command registers (written by the parser, see below).
reg [3:0] cmd_kind_reg;
reg [15:0] cmd_id_reg;
reg [31:0] cmd_index_reg;
reg [7:0] cmd_flag_reg;
reg [LW-1:0] cmd_len_reg;
reg [31:0] cmd_data_reg;
reg cmd_last_reg;

// RAMs: the WRITE batch, and the kept reply payloads (32 bytes a slot, 6 or 18 used).
(* ram_style = "block" *)
reg [7:0] wram [0:(1 << WAW) - 1];
reg [7:0] wram_q;
reg wram_we, wram_re;

// The reply RAM's lower half holds the slots (WINDOW = 1 uses one of two), its upper half
// HELLO_REPLY's constant bytes (a ROM, initialised from the parameters).
localparam RAW = (SLOT_W + 5 > 7 ? SLOT_W + 5 : 7) + 1;
(* ram_style = "block" *)
reg [7:0] rram [0:(1 << RAW) - 1];
reg [7:0] rram_q;
reg rram_we, rram_re;

wire [SLOT_W-1:0] slot = seq_reg[SLOT_W-1:0] & SLOT_MASK;
wire [SLOT_W-1:0] hdr_slot = s_hdr_seq[SLOT_W-1:0] & SLOT_MASK;
// expect - 1 - seq: below WINDOW when seq is 1 .. WINDOW behind the expected one
wire [15:0] behind_m1 = expect_reg + ~s_hdr_seq;
wire dup = behind_m1 >> WB == 16'd0 && kept_reg[hdr_slot];
wire [RAW-1:0] rram_addr = rep_reg == R_HELLO ?
	{1'b1, {(RAW - 8){1'b0}}, idx_reg[6:0]} : {1'b0, {(RAW - SLOT_W - 6){1'b0}}, slot, idx_reg[4:0]};

// Reply length - 1: ACK 6, READ_REPLY 18, HELLO_REPLY 114 bytes.
wire [LW-1:0] rep_end = rep_reg == R_HELLO ? END_HELLO : rep_reg == R_RR ? END_RR : END_ACK;
wire idx_at_end = idx_reg == rep_end;

assign s_hdr_ready = state_reg == S_IDLE;
assign s_ready = state_reg == S_DRAIN || state_reg == S_WLOAD ||
	(state_reg == S_FWD && len_reg != L0 && m_req_ready);
assign m_hdr_seq = seq_reg;
assign m_hdr_type = rep_reg == R_HELLO ? T_HELLO_REPLY : rep_reg == R_RR ? T_READ_REPLY : T_ACK;
assign m_hdr_len = {{(16 - LW){1'b0}}, rep_end} + 16'd1;
assign m_hdr_valid = state_reg == S_TXH;
assign m_data = m_data_reg;
assign m_last = idx_at_end;
assign m_valid = state_reg == S_TXW;
assign m_cmd_kind = cmd_kind_reg;
assign m_cmd_id = cmd_id_reg;
assign m_cmd_index = cmd_index_reg;
assign m_cmd_flag = cmd_flag_reg;
assign m_cmd_len = {{(16 - LW){1'b0}}, cmd_len_reg};
assign m_cmd_data = cmd_data_reg;
assign m_cmd_last = cmd_last_reg;
assign m_cmd_valid = state_reg == S_EBEAT || state_reg == S_RCMD;
assign m_req_type = {5'd0, type_reg};
assign m_req_len = {{(16 - LW){1'b0}}, len_reg};
assign m_req_data = len_reg == L0 ? 8'd0 : s_data;
assign m_req_last = len_reg == L0 ? 1'b1 : s_last;
assign m_req_valid = state_reg == S_FWD && (len_reg == L0 || s_valid);
assign session = session_reg;
assign expect_seq = expect_reg;

reg rsp_ready;
assign s_rsp_ready = rsp_ready;

// ---- the reply bytes ----
// HELLO_REPLY: the constant bytes from the ROM, the others from the info_* inputs, each group
// through a small multiplexer (flags byte 1, image length and CRC bytes 26 .. 33, program
// name bytes 50 .. 113).
function [7:0] hello_rom(input integer i);
	begin
		case (i)
		0: hello_rom = 8'd1;
		2: hello_rom = HW_VERSION[7:0];
		3: hello_rom = HW_VERSION[15:8];
		4: hello_rom = MAXP[7:0];
		5: hello_rom = MAXP[15:8];
		6: hello_rom = WIN[7:0];
		7: hello_rom = WIN[15:8];
		8: hello_rom = PORTS[7:0];
		9: hello_rom = PORTS[15:8];
		10: hello_rom = CPU_PORT[7:0];
		11: hello_rom = CPU_PORT[15:8];
		12: hello_rom = STAGES[7:0];
		13: hello_rom = STAGES[15:8];
		14: hello_rom = PHV_BYTES[7:0];
		15: hello_rom = PHV_BYTES[15:8];
		16: hello_rom = MCAST_GROUPS[7:0];
		17: hello_rom = MCAST_GROUPS[15:8];
		18: hello_rom = MCAST_NODES[7:0];
		19: hello_rom = MCAST_NODES[15:8];
		20: hello_rom = CLONE_SESSIONS[7:0];
		21: hello_rom = CLONE_SESSIONS[15:8];
		22: hello_rom = MAX_IMAGE[7:0];
		23: hello_rom = MAX_IMAGE[15:8];
		24: hello_rom = MAX_IMAGE[23:16];
		25: hello_rom = MAX_IMAGE[31:24];
		default: hello_rom = i >= 34 && i < 50 ? BOARD_LE[8 * (i - 34) +: 8] : 8'd0;
		endcase
	end
endfunction
integer rom_i;
initial
	for (rom_i = 0; rom_i < 128; rom_i = rom_i + 1)
		rram[(1 << (RAW - 1)) + rom_i] = hello_rom(rom_i);

wire [63:0] img_info = {info_image_crc, info_image_len};
wire [2:0] img_i = idx_reg[2:0] - 3'd2;            // bytes 26 .. 33: 26 mod 8 = 2
wire [7:0] img_byte = info_image ? img_info[8 * img_i +: 8] : 8'd0;
wire [7:0] prog_byte;
generate
	if (PROGRAM_BYTES > 0) begin : g_prog
		wire [6:0] prog_i = idx_reg[6:0] - 7'd50;
		wire [8*PROGRAM_BYTES-1:0] prog = info_program[8 * PROGRAM_BYTES - 1:0];
		assign prog_byte = prog_i < PROGRAM_BYTES ? prog[8 * prog_i[5:0] +: 8] : 8'd0;
		wire _unused_prog = &{1'b0, info_program, 1'b0};
	end else begin : g_no_prog
		assign prog_byte = 8'd0;
		wire _unused_prog = &{1'b0, info_program, 1'b0};
	end
endgenerate
wire hello_var = idx_reg[6:0] == 7'd1 || (idx_reg[6:0] >= 7'd26 && idx_reg[6:0] < 7'd34) ||
	idx_reg[6:0] >= 7'd50;
wire [7:0] hello_byte = idx_reg[6:0] == 7'd1 ? {7'd0, info_image} :
	idx_reg[6:0] < 7'd34 ? img_byte : prog_byte;

// ACK (status, err, failed, expect) and READ_REPLY (status, err, a, b) payload byte idx.
wire [15:0] failed = none_reg ? 16'hFFFF : {{(16 - LW){1'b0}}, ops_reg};
wire [63:0] rr_a = rr_use_reg ? s_rsp_a : 64'd0;
wire [63:0] rr_b = rr_use_reg && !cmd_kind_reg[0] ? s_rsp_b : 64'd0;  // kinds 10 and 8
wire [3:0] rr_i = idx_reg[3:0] - 4'd2;  // mod 16: idx 2 .. 17
reg [7:0] gen_byte;
always @* begin
	if (rep_reg == R_HELLO)
		gen_byte = hello_byte;
	else if (idx_reg[4:0] == 5'd0)
		gen_byte = {5'd0, ack_st_reg};
	else if (idx_reg[4:0] == 5'd1)
		gen_byte = ack_err_reg;
	else if (rep_reg == R_RR)
		gen_byte = rr_i[3] ? rr_b[8 * rr_i[2:0] +: 8] : rr_a[8 * rr_i[2:0] +: 8];
	else
		case (idx_reg[2:0])
		3'd2: gen_byte = failed[7:0];
		3'd3: gen_byte = failed[15:8];
		3'd4: gen_byte = expect_reg[7:0];
		default: gen_byte = expect_reg[15:8];
		endcase
end

// Body length check of a WRITE op, at its second length byte (bit tests, not comparators).
function blen_ok(input [3:0] opc, input [15:0] blen);
	case (opc)
	4'd1: blen_ok = blen[15:3] != 13'd0 || blen[2:1] == 2'b11;	// >= 6
	4'd2: blen_ok = blen == 16'd22;
	4'd3: blen_ok = blen == 16'd14;
	4'd4: blen_ok = blen == 16'd23;
	4'd5: blen_ok = blen[15:2] != 14'd0;				// >= 4
	4'd6: blen_ok = blen == 16'd9;
	default: blen_ok = 1'b0;
	endcase
endfunction

// Bytes of fixed fields (id, index, flag) at the start of an op's body.
function [2:0] prefix_len(input [3:0] opc);
	case (opc)
	4'd4: prefix_len = 3'd7;
	4'd5: prefix_len = 3'd4;
	4'd6: prefix_len = 3'd3;
	default: prefix_len = 3'd6;
	endcase
endfunction

// The parser: which byte it takes this cycle (p_on), from where (b: the arriving byte in
// pass 1 and for a READ, the one read back in pass 2), and what it makes of it. A batch's
// first two bytes are its count, not parsed.
wire rd_mode = state_reg == S_DRAIN;
wire p_on = ((state_reg == S_WLOAD && s_valid) || state_reg == S_EUSE) && idx_reg >= L2 ||
	(rd_mode && s_valid && act_reg == A_READ);
wire [7:0] b = ex_reg ? wram_q : s_data;
wire p_opc = p_on && ph_reg == P_OPC;
wire p_bl1 = p_on && ph_reg == P_BL1;
wire p_body = p_on && ph_reg == P_BODY;
wire [15:0] blen_full = {b, blen_lo_reg};
wire [2:0] prefix = prefix_len(cmd_kind_reg);
wire in_prefix = k_reg < prefix;
wire prefix_end = k_reg == prefix - 3'd1;
wire body_end = rem_reg == L1;
// pass 2: a beat after the prefix (when there is no data), every 4 data bytes, at the end
wire beat = ex_reg && p_body && (body_end ? !in_prefix || prefix_end : !in_prefix && j_reg == 2'd3);
wire data_clr = p_opc || (p_body && prefix_end) || (state_reg == S_EBEAT && m_cmd_ready);

// Status, err and failed from the consumer's answer e (0: OK, failed 0xFFFF; else FAILED).
task answer(input [7:0] e);
	begin
		ack_st_next = e == 8'd0 ? ST_OK : ST_FAILED;
		ack_err_next = e;
		none_next = e == 8'd0;
		idx_next = L0;
		state_next = S_ST;
	end
endtask

always @* begin
	state_next = state_reg;
	act_next = act_reg;
	session_next = session_reg;
	expect_next = expect_reg;
	kept_next = kept_reg;
	kept_rr_next = kept_rr_reg;
	seq_next = seq_reg;
	type_next = type_reg;
	len_next = len_reg;
	len_ok_next = len_ok_reg;
	idx_next = idx_reg;
	rep_next = rep_reg;
	rep_ram_next = rep_ram_reg;
	ack_st_next = ack_st_reg;
	ack_err_next = ack_err_reg;
	none_next = none_reg;
	rr_use_next = rr_use_reg;
	rsp_hold_next = rsp_hold_reg;
	m_data_next = m_data_reg;
	ex_next = ex_reg;
	ph_next = ph_reg;
	blen_lo_next = blen_lo_reg;
	rem_next = rem_reg;
	k_next = k_reg;
	j_next = j_reg;
	bad_next = bad_reg;
	ops_next = ops_reg;
	count_next = count_reg;
	wram_we = 1'b0;
	wram_re = 1'b0;
	rram_we = 1'b0;
	rram_re = 1'b0;
	rsp_ready = 1'b0;

	case (state_reg)
	S_IDLE: begin
		if (s_hdr_valid) begin
			seq_next = s_hdr_seq;
			type_next = s_hdr_type[2:0];
			len_next = s_hdr_len[LW-1:0];
			len_ok_next = s_hdr_len == (s_hdr_type == T_HELLO ? 16'd4 : 16'd7);
			idx_next = L0;
			ph_next = P_OPC;
			ex_next = 1'b0;
			bad_next = 1'b0;
			ops_next = L0;
			// unless said otherwise below: a generated ACK MALFORMED
			rep_next = R_ACK;
			rep_ram_next = 1'b0;
			ack_st_next = ST_MALFORMED;
			ack_err_next = E_FORMAT;
			none_next = 1'b0;
			rr_use_next = 1'b0;
			state_next = S_DRAIN;
			if (s_hdr_type[7]) begin
				act_next = A_NONE;
			end else if (s_hdr_type == T_HELLO) begin
				act_next = A_HELLO;
				// a good HELLO: expect = seq now, + 1 once its payload is drained
				if (s_hdr_len == 16'd4) begin
					rep_next = R_HELLO;
					expect_next = s_hdr_seq;
				end
			end else if (!session_reg) begin
				act_next = A_GEN;
				ack_st_next = ST_NO_SESSION;
				ack_err_next = 8'd0;
			end else if (s_hdr_seq != expect_reg) begin
				// 1 .. WINDOW behind with a kept reply: a retransmission
				if (dup) begin
					act_next = A_DUP;
					rep_next = kept_rr_reg[hdr_slot] ? R_RR : R_ACK;
					rep_ram_next = 1'b1;
				end else begin
					act_next = A_GEN;
					ack_st_next = ST_SEQ;
					ack_err_next = 8'd0;
				end
			end else begin
				// the expected request: its seq is consumed whatever it holds, and its
				// reply is kept
				expect_next = expect_reg + 16'd1;
				act_next = A_STORE;
				case (s_hdr_type)
				T_WRITE: state_next = s_hdr_len == 16'd0 ? S_WCHK : S_WLOAD;
				T_READ: begin
					act_next = A_READ;
					rep_next = R_RR;
				end
				T_CHUNK: if (s_hdr_len[15:2] != 14'd0) state_next = S_FWD;	// >= 4
				T_COMMIT: if (s_hdr_len == 16'd8) state_next = S_FWD;
				T_POUT: if (s_hdr_len[15:1] != 15'd0) state_next = S_FWD;	// >= 2
				T_RESET: if (s_hdr_len == 16'd0) state_next = S_FWD;
				default: begin
					ack_st_next = ST_UNSUPPORTED;
					ack_err_next = E_INVAL;
				end
				endcase
			end
			if (s_hdr_len == 16'd0 && state_next == S_DRAIN)
				state_next = S_ACT;
		end
	end
	S_DRAIN: begin
		// a READ's kind, id and index go through the parser to the command registers
		if (s_valid) begin
			if (idx_reg == L0 && act_reg == A_READ)
				len_ok_next = len_ok_reg && (s_data == 8'd2 || s_data == 8'd3 ||
							     s_data == 8'd4);
			idx_next = idx_reg + L1;
			if (s_last)
				state_next = S_ACT;
		end
	end
	S_ACT: begin
		idx_next = L0;
		case (act_reg)
		A_HELLO: begin
			if (len_ok_reg) begin
				session_next = 1'b1;
				expect_next = expect_reg + 16'd1;
				kept_next = {WINDOW{1'b0}};
			end
			state_next = S_TXH;
		end
		A_GEN, A_DUP: state_next = S_TXH;
		A_STORE: state_next = S_ST;
		A_READ: state_next = len_ok_reg ? S_RCMD : S_ST;
		default: state_next = S_IDLE;
		endcase
	end
	S_WLOAD: begin
		if (s_valid) begin
			wram_we = 1'b1;
			idx_next = idx_reg + L1;
			if (idx_reg == L0)
				count_next[7:0] = s_data;
			if (idx_reg == L1)
				count_next[15:8] = s_data;
			if (s_last)
				state_next = S_WCHK;
		end
	end
	S_WCHK: begin
		idx_next = L0;
		ops_next = L0;
		if (bad_reg || len_reg < L2 || ph_reg != P_OPC ||
		    count_reg != {{(16 - LW){1'b0}}, ops_reg}) begin
			state_next = S_ST;	// MALFORMED, as the header set it
		end else if (count_reg == 16'd0) begin
			answer(8'd0);
		end else begin
			ex_next = 1'b1;
			state_next = S_ERD;
		end
	end
	S_ERD: begin
		wram_re = 1'b1;
		state_next = S_EUSE;
	end
	S_EUSE: begin
		idx_next = idx_reg + L1;
		state_next = S_ERD;
	end
	S_EBEAT: begin
		if (m_cmd_ready) begin
			j_next = 2'd0;
			state_next = cmd_last_reg ? S_ERSP : S_ERD;
		end
	end
	S_ERSP: begin
		rsp_ready = 1'b1;
		if (s_rsp_valid) begin
			if (s_rsp_err != 8'd0 || idx_reg == len_reg) begin
				answer(s_rsp_err);
			end else begin
				ops_next = ops_reg + L1;
				state_next = S_ERD;
			end
		end
	end
	S_RCMD: begin
		if (m_cmd_ready)
			state_next = S_RRSP;
	end
	S_RRSP: begin
		// the answer stays on s_rsp until the reply is stored (S_ST takes it)
		if (s_rsp_valid) begin
			rr_use_next = s_rsp_err == 8'd0;
			rsp_hold_next = 1'b1;
			answer(s_rsp_err);
		end
	end
	S_FWD: begin
		if (m_req_valid && m_req_ready && m_req_last)
			state_next = S_FRSP;
	end
	S_FRSP: begin
		rsp_ready = 1'b1;
		if (s_rsp_valid)
			answer(s_rsp_err);
	end
	S_ST: begin
		rram_we = 1'b1;
		idx_next = idx_reg + L1;
		if (idx_at_end) begin
			kept_next[slot] = 1'b1;
			kept_rr_next[slot] = rep_reg == R_RR;
			rep_ram_next = 1'b1;
			if (rsp_hold_reg) begin
				rsp_ready = 1'b1;
				rsp_hold_next = 1'b0;
			end
			state_next = S_TXH;
		end
	end
	S_TXH: begin
		if (m_hdr_ready) begin
			idx_next = L0;
			state_next = S_TXR;
		end
	end
	S_TXR: begin
		rram_re = 1'b1;
		state_next = S_TXL;
	end
	S_TXL: begin
		m_data_next = rep_ram_reg || (rep_reg == R_HELLO && !hello_var) ? rram_q : gen_byte;
		state_next = S_TXW;
	end
	S_TXW: begin
		if (m_ready) begin
			idx_next = idx_reg + L1;
			state_next = idx_at_end ? S_IDLE : S_TXR;
		end
	end
	default: state_next = S_IDLE;
	endcase

	// The parser's own state and checks (pass 1 sets bad; it means nothing elsewhere).
	if (p_on) begin
		case (ph_reg)
		P_OPC: begin
			if (b[7:4] != 4'd0)
				bad_next = 1'b1;
			k_next = 3'd0;
			rem_next = RD_BODY;
			ph_next = rd_mode ? P_BODY : P_BL0;
		end
		P_BL0: begin
			blen_lo_next = b;
			ph_next = P_BL1;
		end
		P_BL1: begin
			// a body longer than the payload cannot fit: one of 2^LW bytes or more is bad
			// here, a shorter one ends the payload inside its body (ph != P_OPC at the end)
			rem_next = blen_full[LW-1:0];
			if (!blen_ok(cmd_kind_reg, blen_full) || blen_full[15:LW] != {(16 - LW){1'b0}})
				bad_next = 1'b1;
			if (!ex_reg)
				ops_next = ops_reg + L1;
			ph_next = blen_full[LW-1:0] == L0 ? P_OPC : P_BODY;	// (0: bad anyway)
		end
		default: begin
			rem_next = rem_reg - L1;
			if (k_reg != 3'd7)
				k_next = k_reg + 3'd1;
			if (body_end)
				ph_next = P_OPC;
			if (!in_prefix)
				j_next = j_reg + 2'd1;
			if (prefix_end)
				j_next = 2'd0;
			// flags are 0 or 1; MCAST's body is 4 + 4 n bytes (here rem = body - 3)
			if (((cmd_kind_reg == 4'd4 && k_reg == 3'd6) ||
			     (cmd_kind_reg == 4'd6 && k_reg == 3'd2)) && b > 8'd1)
				bad_next = 1'b1;
			if (cmd_kind_reg == 4'd5 && k_reg == 3'd3 &&
			    {{(18 - LW){1'b0}}, rem_reg} != {b, cmd_index_reg[7:0], 2'b01})
				bad_next = 1'b1;
			if (beat)
				state_next = S_EBEAT;
		end
		endcase
	end
end

always @(posedge clk) begin
	state_reg <= state_next;
	session_reg <= session_next;
	expect_reg <= expect_next;
	kept_reg <= kept_next;
	rsp_hold_reg <= rsp_hold_next;
	if (rst) begin
		state_reg <= S_IDLE;
		session_reg <= 1'b0;
		expect_reg <= 16'd0;
		kept_reg <= {WINDOW{1'b0}};
		rsp_hold_reg <= 1'b0;
	end
end

always @(posedge clk) begin
	act_reg <= act_next;
	kept_rr_reg <= kept_rr_next;
	seq_reg <= seq_next;
	type_reg <= type_next;
	len_reg <= len_next;
	len_ok_reg <= len_ok_next;
	idx_reg <= idx_next;
	rep_reg <= rep_next;
	rep_ram_reg <= rep_ram_next;
	ack_st_reg <= ack_st_next;
	ack_err_reg <= ack_err_next;
	none_reg <= none_next;
	rr_use_reg <= rr_use_next;
	m_data_reg <= m_data_next;
	ex_reg <= ex_next;
	ph_reg <= ph_next;
	blen_lo_reg <= blen_lo_next;
	rem_reg <= rem_next;
	k_reg <= k_next;
	j_reg <= j_next;
	bad_reg <= bad_next;
	ops_reg <= ops_next;
	count_reg <= count_next;
end

// The command registers take the parser's byte b with an enable (and a clear) per field, so
// that they map onto enable / reset flip-flops with no multiplexer in front. A READ's kind
// byte becomes kind 10, 11 or 8 (2, 3, 4) with len 0, one beat (last, data 0).
wire [6:0] f_we = p_body && in_prefix ? 7'd1 << k_reg : 7'd0;  // body byte k of the prefix
wire clone = cmd_kind_reg == 4'd6;
wire [3:0] d_we = p_body && !in_prefix ? 4'd1 << j_reg : 4'd0;  // data byte j
always @(posedge clk) begin
	if (p_opc)
		cmd_kind_reg <= rd_mode ? {2'b10, b[1:0]} : b[3:0];
	if (p_opc)
		cmd_id_reg[7:0] <= 8'd0;
	else if (f_we[0])
		cmd_id_reg[7:0] <= b;
	if (p_opc)
		cmd_id_reg[15:8] <= 8'd0;
	else if (f_we[1])
		cmd_id_reg[15:8] <= b;
	if (p_opc)
		cmd_index_reg[7:0] <= 8'd0;
	else if (f_we[2] && !clone)
		cmd_index_reg[7:0] <= b;
	if (p_opc)
		cmd_index_reg[15:8] <= 8'd0;
	else if (f_we[3])
		cmd_index_reg[15:8] <= b;
	if (p_opc)
		cmd_index_reg[23:16] <= 8'd0;
	else if (f_we[4])
		cmd_index_reg[23:16] <= b;
	if (p_opc)
		cmd_index_reg[31:24] <= 8'd0;
	else if (f_we[5])
		cmd_index_reg[31:24] <= b;
	// METER's configured (byte 6), CLONE's enabled (byte 2)
	if (p_opc)
		cmd_flag_reg <= 8'd0;
	else if (f_we[6] || (f_we[2] && clone))
		cmd_flag_reg <= b;
	if (p_opc)
		cmd_len_reg <= L0;
	else if (p_bl1)
		cmd_len_reg <= blen_full[LW-1:0] - {{(LW - 3){1'b0}}, prefix};
	// data bytes, packed little-endian into the beat: lane j
	if (data_clr)
		cmd_data_reg[7:0] <= 8'd0;
	else if (d_we[0])
		cmd_data_reg[7:0] <= b;
	if (data_clr)
		cmd_data_reg[15:8] <= 8'd0;
	else if (d_we[1])
		cmd_data_reg[15:8] <= b;
	if (data_clr)
		cmd_data_reg[23:16] <= 8'd0;
	else if (d_we[2])
		cmd_data_reg[23:16] <= b;
	if (data_clr)
		cmd_data_reg[31:24] <= 8'd0;
	else if (d_we[3])
		cmd_data_reg[31:24] <= b;
	if (p_opc)
		cmd_last_reg <= 1'b1;
	else if (beat)
		cmd_last_reg <= body_end;
end

// RAM ports on their own, no reset, for block RAM inference.
always @(posedge clk) begin
	if (wram_we)
		wram[idx_reg[WAW-1:0]] <= s_data;
	if (wram_re)
		wram_q <= wram[idx_reg[WAW-1:0]];
	if (rram_we)
		rram[rram_addr] <= gen_byte;
	if (rram_re)
		rram_q <= rram[rram_addr];
end

`ifdef FORMAL
// Checked by hw/formal (MAX_PAYLOAD 64, WINDOW 2, payloads of at most 9 bytes):
//  - the stream contracts on every port;
//  - commands (m_cmd_*) and forwarded requests (m_req_*) only ever belong to a request whose
//    seq was the expected one of an open session at its header (so never to a duplicate,
//    a replay or a request out of order), and a WRITE's ops only after its batch was checked;
//  - exactly once: for an arbitrary seq S, once a request with seq S issued a command or a
//    forwarded request, no later request with seq S does so in the same session, unless
//    65,535 other requests were consumed since (the seq space wrapped);
//  - a repeated reply comes from the slot that holds the reply to that very seq;
//  - lengths, positions and op counts stay within the payload.
reg f_past_valid = 1'b0;
always @(posedge clk)
	f_past_valid <= 1'b1;

initial assume (rst);

always @(posedge clk)
	if (f_past_valid && !$past(rst)) begin
		if ($past(s_hdr_valid && !s_hdr_ready)) begin
			assume (s_hdr_valid);
			assume ($stable(s_hdr_seq) && $stable(s_hdr_type) && $stable(s_hdr_len));
		end
		if ($past(s_valid && !s_ready)) begin
			assume (s_valid);
			assume ($stable(s_data) && $stable(s_last));
		end
		if ($past(s_rsp_valid && !s_rsp_ready)) begin
			assume (s_rsp_valid);
			assume ($stable(s_rsp_err) && $stable(s_rsp_a) && $stable(s_rsp_b));
		end
	end

// The payload stream follows its header: len bytes, s_last on the final one (pisa_frame_rx).
reg [15:0] f_left = 16'd0;
reg f_in = 1'b0;
always @(posedge clk) begin
	if (rst) begin
		f_in <= 1'b0;
	end else if (s_hdr_valid && s_hdr_ready) begin
		f_in <= s_hdr_len != 16'd0;
		f_left <= s_hdr_len;
	end else if (s_valid && s_ready) begin
		f_left <= f_left - 16'd1;
		if (f_left == 16'd1)
			f_in <= 1'b0;
	end
end
always @(posedge clk) begin
	if (!f_in)
		assume (!s_valid);
	if (s_valid)
		assume (s_last == (f_left == 16'd1));
	if (f_in)
		assume (!s_hdr_valid);
	assume (s_hdr_len <= 16'd9);
end

// f_exec: the request being handled had the expected seq of an open session at its header.
reg f_exec = 1'b0, f_issued = 1'b0;
reg [15:0] f_seq;
wire f_hdr = s_hdr_valid && s_hdr_ready;
wire f_consume = f_hdr && session_reg && s_hdr_seq == expect_reg && !s_hdr_type[7] &&
	s_hdr_type != T_HELLO;
wire f_start = (m_cmd_valid || m_req_valid) && !f_issued;	// the request's first output
// a good HELLO: expect moves to its seq at its header, the session restarts at S_ACT
wire f_hello_ok = f_hdr && s_hdr_type == T_HELLO && s_hdr_len == 16'd4;
wire f_in_hello = act_reg == A_HELLO && len_ok_reg && (state_reg == S_DRAIN || state_reg == S_ACT);
always @(posedge clk) begin
	if (rst) begin
		f_exec <= 1'b0;
		f_issued <= 1'b0;
	end else if (f_hdr) begin
		f_exec <= f_consume;
		f_seq <= s_hdr_seq;
		f_issued <= 1'b0;
	end else if (f_start) begin
		f_issued <= 1'b1;
	end
end

// f_checked: this request's batch passed the check (S_WCHK to pass 2).
reg f_checked = 1'b0;
always @(posedge clk)
	if (rst || f_hdr)
		f_checked <= 1'b0;
	else if (state_reg == S_WCHK && state_next == S_ERD)
		f_checked <= !bad_reg && len_reg >= L2 && ph_reg == P_OPC &&
			count_reg == {{(16 - LW){1'b0}}, ops_reg} && count_reg != 16'd0;

// Exactly once for the arbitrary seq S: f_done once S issued something in this session,
// f_since the requests consumed since.
(* anyconst *) reg [15:0] f_s;
reg f_done = 1'b0;
reg [15:0] f_since;
always @(posedge clk) begin
	if (rst || f_hello_ok) begin
		f_done <= 1'b0;
	end else if (f_start && f_seq == f_s) begin
		f_done <= 1'b1;
		f_since <= 16'd0;
	end else if (f_consume && f_done) begin
		f_since <= f_since + 16'd1;
		if (f_since == 16'hFFFE)
			f_done <= 1'b0;	// the seq space wrapped: S may come again
	end
end

// f_stored: this request's reply is kept.
reg f_stored = 1'b0;
always @(posedge clk)
	if (rst || f_hdr)
		f_stored <= 1'b0;
	else if (state_reg == S_ST && idx_at_end)
		f_stored <= 1'b1;

// The seq whose reply each slot keeps.
reg [15:0] f_slot [0:WINDOW-1];
always @(posedge clk)
	if (state_reg == S_ST && idx_at_end)
		f_slot[slot] <= seq_reg;

integer f_i;
always @(posedge clk) begin
	if (f_past_valid && !$past(rst)) begin
		if ($past(m_cmd_valid && !m_cmd_ready)) begin
			assert (m_cmd_valid);
			assert ($stable(m_cmd_kind) && $stable(m_cmd_id) && $stable(m_cmd_index) &&
				$stable(m_cmd_flag) && $stable(m_cmd_len) && $stable(m_cmd_data) &&
				$stable(m_cmd_last));
		end
		if ($past(m_hdr_valid && !m_hdr_ready)) begin
			assert (m_hdr_valid);
			assert ($stable(m_hdr_seq) && $stable(m_hdr_type) && $stable(m_hdr_len));
		end
		if ($past(m_valid && !m_ready)) begin
			assert (m_valid);
			assert ($stable(m_data) && $stable(m_last));
		end
		if ($past(m_req_valid && !m_req_ready)) begin
			assert (m_req_valid);
			assert ($stable(m_req_type) && $stable(m_req_len) && $stable(m_req_data) &&
				$stable(m_req_last));
		end
	end
	assert (state_reg <= S_TXW);
	// commands and forwarded requests: the expected request of an open session only
	if (m_cmd_valid || m_req_valid || state_reg == S_WLOAD || state_reg == S_WCHK ||
	    (state_reg >= S_ERD && state_reg <= S_FRSP))
		assert (f_exec && session_reg && seq_reg == f_seq && expect_reg == f_seq + 16'd1);
	if (state_reg != S_IDLE)
		assert (seq_reg == f_seq);
	if (f_exec)
		assert (session_reg && expect_reg == f_seq + 16'd1);
	if (state_reg == S_DRAIN || state_reg == S_ACT || state_reg == S_WLOAD ||
	    state_reg == S_WCHK || (state_reg >= S_RCMD && state_reg <= S_FRSP))
		assert (!ex_reg);
	// a batch's ops only once it was checked whole (pass 2 starts only from a good check)
	if (state_reg >= S_ERD && state_reg <= S_ERSP)
		assert (ex_reg && f_checked && type_reg == T_WRITE[2:0]);
	// exactly once
	if (f_start && f_seq == f_s)
		assert (!f_done);
	if (f_done && f_exec && f_seq == f_s)
		assert (f_issued);
	if (f_done)
		assert (session_reg && expect_reg == f_s + 16'd1 + f_since && f_since != 16'hFFFF &&
			!f_in_hello);
	// the kept replies: slot i holds the reply to a seq 1 .. WINDOW behind, i mod WINDOW
	// (the slot of a request consumed but not yet answered still holds the seq before it)
	for (f_i = 0; f_i < WINDOW; f_i = f_i + 1)
		if (kept_reg[f_i] && !f_in_hello)
			assert (session_reg && (f_slot[f_i] & SLOT_MASK) == f_i &&
				(expect_reg - 16'd1 - f_slot[f_i] < WIN ||
				 (f_exec && !f_stored && f_i == slot &&
				  expect_reg - 16'd1 - f_slot[f_i] == WIN)));
	if (f_stored)
		assert (f_exec);
	if (f_exec && (state_reg == S_IDLE || state_reg >= S_TXH))
		assert (f_stored);
	if (state_reg >= S_DRAIN && state_reg <= S_ST)
		assert (!f_stored && (f_exec == (act_reg == A_STORE || act_reg == A_READ)));
	if (state_reg == S_ST)
		assert (f_exec);
	if ((state_reg == S_DRAIN || state_reg == S_ACT) && act_reg == A_DUP)
		assert (session_reg && kept_reg[slot] && f_slot[slot] == seq_reg);
	// positions and counts within the payload
	if (state_reg == S_DRAIN || state_reg == S_WLOAD)
		assert (f_in && idx_reg + f_left == len_reg && len_reg <= 16'd9);
	else if (state_reg == S_FWD)
		assert (f_in == (len_reg != L0) && f_left <= len_reg && len_reg <= 16'd9);
	else
		assert (!f_in);
	if (f_in)
		assert (f_left != 16'd0 && f_left <= 16'd9);
	if (state_reg >= S_WLOAD && state_reg <= S_ERSP)
		assert (len_reg <= 16'd9 && type_reg == T_WRITE[2:0] && act_reg == A_STORE);
	if (state_reg == S_WLOAD || state_reg == S_WCHK)
		assert (idx_reg <= len_reg && ops_reg <= len_reg);
	if (state_reg == S_WLOAD || state_reg == S_WCHK)
		assert (!ex_reg && ops_reg <= idx_reg);
	if (state_reg == S_FWD || state_reg == S_FRSP)
		assert (act_reg == A_STORE && type_reg != T_WRITE[2:0] && type_reg != T_READ[2:0] &&
			type_reg[1]);
	if (state_reg == S_RCMD || state_reg == S_RRSP)
		assert (act_reg == A_READ && cmd_last_reg && cmd_len_reg == L0 &&
			cmd_kind_reg[3:2] == 2'b10);
	if (state_reg == S_DRAIN && act_reg == A_READ && idx_reg <= 7'd7)
		assert (!ex_reg && (ph_reg == P_OPC ? idx_reg == L0 || idx_reg == 7'd7 :
			ph_reg == P_BODY && rem_reg + idx_reg == 7'd7 && idx_reg != L0 &&
			k_reg == idx_reg - 1'b1 && cmd_last_reg && cmd_len_reg == L0 &&
			cmd_kind_reg[3:2] == 2'b10));
	if ((state_reg == S_DRAIN || state_reg == S_ACT) && act_reg == A_READ && len_ok_reg)
		assert (len_reg == 7'd7 && (state_reg == S_DRAIN || (idx_reg == 7'd7 &&
			ph_reg == P_OPC && cmd_last_reg && cmd_len_reg == L0 &&
			cmd_kind_reg[3:2] == 2'b10)));
	if ((state_reg == S_DRAIN || state_reg == S_ACT) && act_reg == A_HELLO && len_ok_reg)
		assert (len_reg == 7'd4);
	// the reply decided at the header
	if (state_reg == S_DRAIN || state_reg == S_ACT)
		case (act_reg)
		A_READ: assert (rep_reg == R_RR && !rep_ram_reg);
		A_DUP: assert ((rep_reg == R_ACK || rep_reg == R_RR) && rep_ram_reg);
		A_HELLO: assert (rep_reg == (len_ok_reg ? R_HELLO : R_ACK) && !rep_ram_reg);
		A_NONE: ;
		default: assert (rep_reg == R_ACK && !rep_ram_reg);
		endcase
	if (state_reg >= S_WLOAD && state_reg <= S_ST)
		assert (!rep_ram_reg && rep_reg == (state_reg == S_RCMD || state_reg == S_RRSP ||
			(state_reg == S_ST && act_reg == A_READ) ? R_RR : R_ACK));
	if (state_reg == S_ST)
		assert (act_reg == A_READ || act_reg == A_STORE);
	if (state_reg == S_TXH)
		assert (idx_reg <= rep_end + 1'b1);
	else if (state_reg >= S_ST)
		assert (idx_reg <= rep_end);
	if (state_reg >= S_ST)
		assert (rep_reg != 2'd3 && (state_reg != S_ST || rep_reg != R_HELLO));
	if (ph_reg == P_BODY && (state_reg == S_WLOAD || state_reg == S_WCHK ||
	    (state_reg >= S_ERD && state_reg <= S_ERSP) || (state_reg == S_DRAIN && act_reg == A_READ)))
		assert (rem_reg != 0);
end

// Shallow milestones only: a command needs a session, and so HELLO_REPLY's 114 bytes sent
// first (over 340 cycles); the testbenches take every request that far.
always @(posedge clk) begin
	cover (f_past_valid && session_reg && !$past(session_reg));
	cover (m_hdr_valid && m_hdr_ready && m_hdr_type == T_ACK);
	cover (m_valid && m_ready);
end
`endif

endmodule

`resetall
