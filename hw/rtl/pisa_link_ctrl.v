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
//   10    counter read  counter  cell    0           none
//   11    register read register cell    0           none
//
// Data byte k of an op is in beat k/4, bits [8*(k%4)+7 -: 8]; an op with len 0 has one beat
// (data 0). m_cmd_last marks an op's final beat. READ: one beat of kind 10 / 11, the consumer
// answers err and the values on s_rsp_a / s_rsp_b (READ_REPLY; b is sent as 0 for registers).
// IMAGE_CHUNK (>= 4 bytes), IMAGE_COMMIT (8), PACKET_OUT (>= 2), RESET (0): the payload is
// forwarded unchanged on m_req_* (type, len; RESET as one beat of data 0) and the consumer
// answers on s_rsp_* (err 0: ACK OK; else ACK FAILED with that err). The consumer owns image
// staging and its checks (offset, size, CRC, board).
// s_rsp_err is a positive pisa_err (lib/pisa_image.h), 0 for success; one answer per op, read
// or request, after its last beat was taken.
//
// Stream contract (all ports): a word moves when valid && ready at a rising clock edge; once a
// source raises valid it keeps valid high and its data stable until ready; a source never
// waits for ready before raising valid. m_req_* passes s_* through (combinational) while a
// request is forwarded.
`default_nettype none

module pisa_link_ctrl #(
	// Largest request payload, bytes (64 .. 10240): the WRITE batch RAM and HELLO_REPLY's
	// max_payload; pisa_frame_rx must not pass longer frames (give it the same value).
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
	// Slot index width, derived.
	parameter SLOT_W = WINDOW > 1 ? $clog2(WINDOW) : 1,
	// WRITE RAM address width, derived.
	parameter WAW = $clog2(MAX_PAYLOAD)
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
endgenerate

// Message types, statuses, errors, opcodes (lib/pisa_proto.h, lib/pisa_image.h).
localparam [7:0] T_HELLO = 8'h01, T_CHUNK = 8'h02, T_COMMIT = 8'h03, T_WRITE = 8'h04,
	T_READ = 8'h05, T_POUT = 8'h06, T_RESET = 8'h07, T_ACK = 8'h80, T_HELLO_REPLY = 8'h81,
	T_READ_REPLY = 8'h85;
localparam [7:0] ST_OK = 8'd0, ST_FAILED = 8'd1, ST_SEQ = 8'd2, ST_MALFORMED = 8'd3,
	ST_UNSUPPORTED = 8'd4, ST_NO_SESSION = 8'd5;
localparam [7:0] E_FORMAT = 8'd3, E_RANGE = 8'd6, E_INVAL = 8'd10;
localparam [15:0] OP_NONE = 16'hFFFF;
localparam [15:0] MAXP = MAX_PAYLOAD[15:0];
localparam [15:0] WIN = WINDOW[15:0];
localparam [SLOT_W-1:0] SLOT_MASK = WINDOW[SLOT_W-1:0] - 1'b1;

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
	S_DRAIN = 5'd1,  // consuming a payload that is not forwarded (first 7 bytes kept)
	S_ACT = 5'd2,    // act on a drained request
	S_DUP0 = 5'd3,   // reading a kept reply's type and seq
	S_DUP1 = 5'd4,
	S_DUP2 = 5'd5,
	S_WLOAD = 5'd7,  // WRITE batch into RAM, checked on the way
	S_WCHK = 5'd8,
	S_ERD = 5'd9,    // executing: read a batch byte
	S_EUSE = 5'd10,  // executing: use it
	S_EBEAT = 5'd11, // a command beat out
	S_ERSP = 5'd12,  // waiting for the op's answer
	S_RCMD = 5'd13,  // READ command out
	S_RRSP = 5'd14,  // READ answer
	S_FWD = 5'd15,   // forwarding a request
	S_FRSP = 5'd16,  // its answer
	S_ST = 5'd17,    // storing the reply in its slot
	S_TXH = 5'd18,   // reply header out
	S_TXR = 5'd19,   // reply byte: read
	S_TXL = 5'd20,   // reply byte: load
	S_TXW = 5'd21;   // reply byte: out

localparam [2:0] A_NONE = 3'd0, A_HELLO = 3'd1, A_GEN = 3'd2, A_DUP = 3'd3, A_STORE = 3'd4,
	A_READ = 3'd5;

// Batch checker / executor phases.
localparam [2:0] P_OPC = 3'd0, P_BL0 = 3'd1, P_BL1 = 3'd2, P_BODY = 3'd3, P_DATA = 3'd4;

reg [4:0] state_reg = S_IDLE, state_next;
reg [2:0] act_reg, act_next;
reg session_reg = 1'b0, session_next;
reg [15:0] expect_reg = 16'd0, expect_next;
reg [WINDOW-1:0] kept_reg = {WINDOW{1'b0}}, kept_next;

reg [15:0] seq_reg, seq_next;
reg [7:0] type_reg, type_next;
reg [15:0] len_reg, len_next;
reg [15:0] idx_reg, idx_next;
reg [55:0] rdb_reg, rdb_next;        // first 7 payload bytes (READ)

// The reply: type, length, status fields; from the slot RAM or generated.
reg [7:0] rep_type_reg, rep_type_next;
reg [15:0] rep_len_reg, rep_len_next;
reg rep_ram_reg, rep_ram_next;
reg [7:0] ack_st_reg, ack_st_next;
reg [7:0] ack_err_reg, ack_err_next;
reg [15:0] ack_failed_reg, ack_failed_next;
reg rr_use_reg, rr_use_next;          // READ_REPLY values from s_rsp (else 0)
reg rsp_hold_reg, rsp_hold_next;      // s_rsp is held until the reply is stored
reg [7:0] dup_type_reg, dup_type_next;
reg [7:0] dup_lo_reg, dup_lo_next;
reg [7:0] m_data_reg, m_data_next;

// Batch check.
reg [2:0] v_ph_reg, v_ph_next;
reg [7:0] v_opc_reg, v_opc_next;
reg [15:0] v_blen_reg, v_blen_next;
reg [15:0] v_k_reg, v_k_next;
reg [7:0] v_nlo_reg, v_nlo_next;
reg v_bad_reg, v_bad_next;
reg [15:0] v_ops_reg, v_ops_next;
reg [15:0] v_count_reg, v_count_next;

// Batch execution.
reg [2:0] e_ph_reg, e_ph_next;
reg [15:0] e_pos_reg, e_pos_next;
reg [15:0] e_k_reg, e_k_next;        // body byte, then data bytes left
reg [15:0] e_blen_reg, e_blen_next;
reg [15:0] e_op_reg, e_op_next;      // op index
reg [1:0] e_j_reg, e_j_next;         // byte within the data word

reg [3:0] cmd_kind_reg, cmd_kind_next;
reg [15:0] cmd_id_reg, cmd_id_next;
reg [31:0] cmd_index_reg, cmd_index_next;
reg [7:0] cmd_flag_reg, cmd_flag_next;
reg [15:0] cmd_len_reg, cmd_len_next;
reg [31:0] cmd_data_reg, cmd_data_next;
reg cmd_last_reg, cmd_last_next;

// RAMs: the WRITE batch, and the kept replies (32 bytes a slot: type, seq lo, seq hi, 5 spare,
// then the payload of 6 or 18 bytes).
(* ram_style = "block" *)
reg [7:0] wram [0:(1 << WAW) - 1];
reg [7:0] wram_q;
reg wram_we;
reg [WAW-1:0] wram_waddr, wram_raddr;
reg wram_re;

(* ram_style = "block" *)
reg [7:0] rram [0:(32 << SLOT_W) - 1];  // WINDOW = 1 uses one of two slots
reg [7:0] rram_q;
reg rram_we, rram_re;
reg [SLOT_W+4:0] rram_waddr, rram_raddr;
reg [7:0] rram_wdata;

wire [SLOT_W-1:0] slot = seq_reg[SLOT_W-1:0] & SLOT_MASK;
wire [15:0] behind = expect_reg - s_hdr_seq;
wire [SLOT_W-1:0] hdr_slot = s_hdr_seq[SLOT_W-1:0] & SLOT_MASK;

assign s_hdr_ready = state_reg == S_IDLE;
assign s_ready = state_reg == S_DRAIN || state_reg == S_WLOAD ||
	(state_reg == S_FWD && len_reg != 16'd0 && m_req_ready);
assign m_hdr_seq = seq_reg;
assign m_hdr_type = rep_type_reg;
assign m_hdr_len = rep_len_reg;
assign m_hdr_valid = state_reg == S_TXH;
assign m_data = m_data_reg;
assign m_last = idx_reg == rep_len_reg - 16'd1;
assign m_valid = state_reg == S_TXW;
assign m_cmd_kind = cmd_kind_reg;
assign m_cmd_id = cmd_id_reg;
assign m_cmd_index = cmd_index_reg;
assign m_cmd_flag = cmd_flag_reg;
assign m_cmd_len = cmd_len_reg;
assign m_cmd_data = cmd_data_reg;
assign m_cmd_last = cmd_last_reg;
assign m_cmd_valid = state_reg == S_EBEAT || state_reg == S_RCMD;
assign m_req_type = type_reg;
assign m_req_len = len_reg;
assign m_req_data = len_reg == 16'd0 ? 8'd0 : s_data;
assign m_req_last = len_reg == 16'd0 ? 1'b1 : s_last;
assign m_req_valid = state_reg == S_FWD && (len_reg == 16'd0 || s_valid);
assign session = session_reg;
assign expect_seq = expect_reg;

wire [7:0] s_rsp_err_w = s_rsp_err;
reg rsp_ready;
assign s_rsp_ready = rsp_ready;

// ACK payload byte i.
function [7:0] ack_byte(input [4:0] i, input [7:0] st, input [7:0] err, input [15:0] failed,
		       input [15:0] exp_seq);
	case (i)
	5'd0: ack_byte = st;
	5'd1: ack_byte = err;
	5'd2: ack_byte = failed[7:0];
	5'd3: ack_byte = failed[15:8];
	5'd4: ack_byte = exp_seq[7:0];
	default: ack_byte = exp_seq[15:8];
	endcase
endfunction

// HELLO_REPLY payload byte i (114 bytes, docs/control-protocol.md).
wire [31:0] img_len = info_image ? info_image_len : 32'd0;
wire [31:0] img_crc = info_image ? info_image_crc : 32'd0;
reg [7:0] hello_byte;
always @* begin
	case (idx_reg[6:0])
	7'd0: hello_byte = 8'd1;
	7'd1: hello_byte = {7'd0, info_image};
	7'd2: hello_byte = HW_VERSION[7:0];
	7'd3: hello_byte = HW_VERSION[15:8];
	7'd4: hello_byte = MAXP[7:0];
	7'd5: hello_byte = MAXP[15:8];
	7'd6: hello_byte = WIN[7:0];
	7'd7: hello_byte = WIN[15:8];
	7'd8: hello_byte = PORTS[7:0];
	7'd9: hello_byte = PORTS[15:8];
	7'd10: hello_byte = CPU_PORT[7:0];
	7'd11: hello_byte = CPU_PORT[15:8];
	7'd12: hello_byte = STAGES[7:0];
	7'd13: hello_byte = STAGES[15:8];
	7'd14: hello_byte = PHV_BYTES[7:0];
	7'd15: hello_byte = PHV_BYTES[15:8];
	7'd16: hello_byte = MCAST_GROUPS[7:0];
	7'd17: hello_byte = MCAST_GROUPS[15:8];
	7'd18: hello_byte = MCAST_NODES[7:0];
	7'd19: hello_byte = MCAST_NODES[15:8];
	7'd20: hello_byte = CLONE_SESSIONS[7:0];
	7'd21: hello_byte = CLONE_SESSIONS[15:8];
	7'd22: hello_byte = MAX_IMAGE[7:0];
	7'd23: hello_byte = MAX_IMAGE[15:8];
	7'd24: hello_byte = MAX_IMAGE[23:16];
	7'd25: hello_byte = MAX_IMAGE[31:24];
	7'd26: hello_byte = img_len[7:0];
	7'd27: hello_byte = img_len[15:8];
	7'd28: hello_byte = img_len[23:16];
	7'd29: hello_byte = img_len[31:24];
	7'd30: hello_byte = img_crc[7:0];
	7'd31: hello_byte = img_crc[15:8];
	7'd32: hello_byte = img_crc[23:16];
	7'd33: hello_byte = img_crc[31:24];
	default: begin
		if (idx_reg[6:0] < 7'd50)
			hello_byte = BOARD_LE[8 * (idx_reg[6:0] - 7'd34) +: 8];
		else
			hello_byte = info_program[8 * (idx_reg[6:0] - 7'd50) +: 8];
	end
	endcase
end

// Byte i of a slot being stored: meta, then the ACK or READ_REPLY payload.
wire [4:0] st_p = idx_reg[4:0] - 5'd8;
wire [63:0] rr_a = rr_use_reg ? s_rsp_a : 64'd0;
wire [63:0] rr_b = rr_use_reg && rdb_reg[7:0] == 8'd2 ? s_rsp_b : 64'd0;
reg [7:0] st_byte;
always @* begin
	if (idx_reg[4:0] == 5'd0)
		st_byte = rep_type_reg;
	else if (idx_reg[4:0] == 5'd1)
		st_byte = seq_reg[7:0];
	else if (idx_reg[4:0] == 5'd2)
		st_byte = seq_reg[15:8];
	else if (idx_reg[4:0] < 5'd8)
		st_byte = 8'd0;
	else if (rep_type_reg == T_ACK)
		st_byte = ack_byte(st_p, ack_st_reg, ack_err_reg, ack_failed_reg, expect_reg);
	else if (st_p == 5'd0)
		st_byte = ack_st_reg;
	else if (st_p == 5'd1)
		st_byte = ack_err_reg;
	else if (st_p < 5'd10)
		st_byte = rr_a[8 * (st_p - 5'd2) +: 8];
	else
		st_byte = rr_b[8 * (st_p - 5'd10) +: 8];
end

// Body length check of a WRITE op, at its second length byte.
function blen_ok(input [7:0] opc, input [15:0] blen);
	case (opc)
	8'd1: blen_ok = blen >= 16'd6;
	8'd2: blen_ok = blen == 16'd22;
	8'd3: blen_ok = blen == 16'd14;
	8'd4: blen_ok = blen == 16'd23;
	8'd5: blen_ok = blen >= 16'd4;
	8'd6: blen_ok = blen == 16'd9;
	default: blen_ok = 1'b0;
	endcase
endfunction

// Bytes of fixed fields (id, index, flag) at the start of an op's body.
function [15:0] prefix_len(input [7:0] opc);
	case (opc)
	8'd4: prefix_len = 16'd7;
	8'd5: prefix_len = 16'd4;
	8'd6: prefix_len = 16'd3;
	default: prefix_len = 16'd6;
	endcase
endfunction

// Starts a reply: stored (kept for duplicates, sent from the slot) or generated.
task reply_store(input [7:0] t, input [7:0] st, input [7:0] err, input [15:0] failed);
	begin
		rep_type_next = t;
		rep_len_next = t == T_READ_REPLY ? 16'd18 : 16'd6;
		ack_st_next = st;
		ack_err_next = err;
		ack_failed_next = failed;
		idx_next = 16'd0;
		state_next = S_ST;
	end
endtask

task reply_gen(input [7:0] t, input [7:0] st, input [7:0] err);
	begin
		rep_type_next = t;
		rep_len_next = t == T_HELLO_REPLY ? 16'd114 : 16'd6;
		rep_ram_next = 1'b0;
		ack_st_next = st;
		ack_err_next = err;
		ack_failed_next = 16'd0;
		state_next = S_TXH;
	end
endtask

wire [7:0] q = wram_q;
wire [15:0] v_blen_full = {s_data, v_blen_reg[7:0]};

always @* begin
	state_next = state_reg;
	act_next = act_reg;
	session_next = session_reg;
	expect_next = expect_reg;
	kept_next = kept_reg;
	seq_next = seq_reg;
	type_next = type_reg;
	len_next = len_reg;
	idx_next = idx_reg;
	rdb_next = rdb_reg;
	rep_type_next = rep_type_reg;
	rep_len_next = rep_len_reg;
	rep_ram_next = rep_ram_reg;
	ack_st_next = ack_st_reg;
	ack_err_next = ack_err_reg;
	ack_failed_next = ack_failed_reg;
	rr_use_next = rr_use_reg;
	rsp_hold_next = rsp_hold_reg;
	dup_type_next = dup_type_reg;
	dup_lo_next = dup_lo_reg;
	m_data_next = m_data_reg;
	v_ph_next = v_ph_reg;
	v_opc_next = v_opc_reg;
	v_blen_next = v_blen_reg;
	v_k_next = v_k_reg;
	v_nlo_next = v_nlo_reg;
	v_bad_next = v_bad_reg;
	v_ops_next = v_ops_reg;
	v_count_next = v_count_reg;
	e_ph_next = e_ph_reg;
	e_pos_next = e_pos_reg;
	e_k_next = e_k_reg;
	e_blen_next = e_blen_reg;
	e_op_next = e_op_reg;
	e_j_next = e_j_reg;
	cmd_kind_next = cmd_kind_reg;
	cmd_id_next = cmd_id_reg;
	cmd_index_next = cmd_index_reg;
	cmd_flag_next = cmd_flag_reg;
	cmd_len_next = cmd_len_reg;
	cmd_data_next = cmd_data_reg;
	cmd_last_next = cmd_last_reg;
	wram_we = 1'b0;
	wram_waddr = idx_reg[WAW-1:0];
	wram_re = 1'b0;
	wram_raddr = e_pos_reg[WAW-1:0];
	rram_we = 1'b0;
	rram_waddr = {slot, idx_reg[4:0]};
	rram_wdata = st_byte;
	rram_re = 1'b0;
	rram_raddr = {slot, idx_reg[4:0]};
	rsp_ready = 1'b0;

	case (state_reg)
	S_IDLE: begin
		if (s_hdr_valid) begin
			seq_next = s_hdr_seq;
			type_next = s_hdr_type;
			len_next = s_hdr_len;
			idx_next = 16'd0;
			rdb_next = 56'd0;
			state_next = S_DRAIN;
			if (s_hdr_type[7]) begin
				act_next = A_NONE;
			end else if (s_hdr_type == T_HELLO) begin
				act_next = A_HELLO;
			end else if (!session_reg) begin
				act_next = A_GEN;
				ack_st_next = ST_NO_SESSION;
			end else if (s_hdr_seq != expect_reg) begin
				// 1 .. WINDOW behind with a kept reply: a retransmission
				if (behind != 16'd0 && behind <= WIN && kept_reg[hdr_slot]) begin
					act_next = A_DUP;
				end else begin
					act_next = A_GEN;
					ack_st_next = ST_SEQ;
				end
			end else begin
				// the expected request: its seq is consumed whatever it holds
				expect_next = expect_reg + 16'd1;
				act_next = A_STORE;
				ack_failed_next = 16'd0;
				ack_err_next = E_FORMAT;
				ack_st_next = ST_MALFORMED;
				if (s_hdr_len > MAXP) begin
					ack_err_next = E_RANGE;
				end else begin
					case (s_hdr_type)
					T_WRITE: begin
						state_next = s_hdr_len == 16'd0 ? S_WCHK : S_WLOAD;
						v_ph_next = P_OPC;
						v_bad_next = 1'b0;
						v_ops_next = 16'd0;
					end
					T_READ: act_next = A_READ;
					T_CHUNK: if (s_hdr_len >= 16'd4) state_next = S_FWD;
					T_COMMIT: if (s_hdr_len == 16'd8) state_next = S_FWD;
					T_POUT: if (s_hdr_len >= 16'd2) state_next = S_FWD;
					T_RESET: if (s_hdr_len == 16'd0) state_next = S_FWD;
					default: begin
						ack_st_next = ST_UNSUPPORTED;
						ack_err_next = E_INVAL;
					end
					endcase
				end
			end
			if (s_hdr_len == 16'd0 && state_next == S_DRAIN)
				state_next = S_ACT;
		end
	end
	S_DRAIN: begin
		if (s_valid) begin
			if (idx_reg < 16'd7)
				rdb_next[8 * idx_reg[2:0] +: 8] = s_data;
			idx_next = idx_reg + 16'd1;
			if (s_last)
				state_next = S_ACT;
		end
	end
	S_ACT: begin
		case (act_reg)
		A_HELLO: begin
			if (len_reg == 16'd4) begin
				session_next = 1'b1;
				expect_next = seq_reg + 16'd1;
				kept_next = {WINDOW{1'b0}};
				reply_gen(T_HELLO_REPLY, ST_OK, 8'd0);
			end else begin
				reply_gen(T_ACK, ST_MALFORMED, E_FORMAT);
			end
		end
		A_GEN: reply_gen(T_ACK, ack_st_reg, 8'd0);
		A_DUP: begin
			idx_next = 16'd0;
			rram_re = 1'b1;
			rram_raddr = {slot, 5'd0};
			state_next = S_DUP0;
		end
		A_STORE: reply_store(T_ACK, ack_st_reg, ack_err_reg, 16'd0);
		A_READ: begin
			if (len_reg == 16'd7 && (rdb_reg[7:0] == 8'd2 || rdb_reg[7:0] == 8'd3)) begin
				cmd_kind_next = {2'b10, rdb_reg[1:0]};
				cmd_id_next = rdb_reg[23:8];
				cmd_index_next = rdb_reg[55:24];
				cmd_flag_next = 8'd0;
				cmd_len_next = 16'd0;
				cmd_data_next = 32'd0;
				cmd_last_next = 1'b1;
				state_next = S_RCMD;
			end else begin
				rr_use_next = 1'b0;
				reply_store(T_READ_REPLY, ST_MALFORMED, E_FORMAT, 16'd0);
			end
		end
		default: state_next = S_IDLE;
		endcase
	end
	S_DUP0: begin
		dup_type_next = rram_q;
		rram_re = 1'b1;
		rram_raddr = {slot, 5'd1};
		state_next = S_DUP1;
	end
	S_DUP1: begin
		dup_lo_next = rram_q;
		rram_re = 1'b1;
		rram_raddr = {slot, 5'd2};
		state_next = S_DUP2;
	end
	S_DUP2: begin
		if ({rram_q, dup_lo_reg} == seq_reg) begin
			rep_type_next = dup_type_reg;
			rep_len_next = dup_type_reg == T_READ_REPLY ? 16'd18 : 16'd6;
			rep_ram_next = 1'b1;
			state_next = S_TXH;
		end else begin
			reply_gen(T_ACK, ST_SEQ, 8'd0);
		end
	end
	S_WLOAD: begin
		if (s_valid) begin
			wram_we = 1'b1;
			idx_next = idx_reg + 16'd1;
			if (idx_reg == 16'd0) begin
				v_count_next[7:0] = s_data;
			end else if (idx_reg == 16'd1) begin
				v_count_next[15:8] = s_data;
			end else begin
				case (v_ph_reg)
				P_OPC: begin
					v_opc_next = s_data;
					v_ph_next = P_BL0;
				end
				P_BL0: begin
					v_blen_next[7:0] = s_data;
					v_ph_next = P_BL1;
				end
				P_BL1: begin
					v_blen_next = v_blen_full;
					v_ops_next = v_ops_reg + 16'd1;
					v_k_next = 16'd0;
					if (!blen_ok(v_opc_reg, v_blen_full))
						v_bad_next = 1'b1;
					v_ph_next = v_blen_full == 16'd0 ? P_OPC : P_BODY;
				end
				default: begin
					// body byte v_k
					if ((v_opc_reg == 8'd4 && v_k_reg == 16'd6 && s_data > 8'd1) ||
					    (v_opc_reg == 8'd6 && v_k_reg == 16'd2 && s_data > 8'd1))
						v_bad_next = 1'b1;
					if (v_k_reg == 16'd2)
						v_nlo_next = s_data;
					// mcast: the body is 4 + 4 n bytes
					if (v_opc_reg == 8'd5 && v_k_reg == 16'd3 &&
					    {2'b00, v_blen_reg} != 18'd4 + {s_data, v_nlo_reg, 2'b00})
						v_bad_next = 1'b1;
					v_k_next = v_k_reg + 16'd1;
					if (v_k_reg == v_blen_reg - 16'd1)
						v_ph_next = P_OPC;
				end
				endcase
			end
			if (s_last)
				state_next = S_WCHK;
		end
	end
	S_WCHK: begin
		if (v_bad_reg || len_reg < 16'd2 || v_ph_reg != P_OPC || v_ops_reg != v_count_reg) begin
			reply_store(T_ACK, ST_MALFORMED, E_FORMAT, 16'd0);
		end else if (v_count_reg == 16'd0) begin
			reply_store(T_ACK, ST_OK, 8'd0, OP_NONE);
		end else begin
			e_pos_next = 16'd2;
			e_op_next = 16'd0;
			e_ph_next = P_OPC;
			state_next = S_ERD;
		end
	end
	S_ERD: begin
		wram_re = 1'b1;
		state_next = S_EUSE;
	end
	S_EUSE: begin
		e_pos_next = e_pos_reg + 16'd1;
		state_next = S_ERD;
		case (e_ph_reg)
		P_OPC: begin
			cmd_kind_next = q[3:0];
			cmd_id_next = 16'd0;
			cmd_index_next = 32'd0;
			cmd_flag_next = 8'd0;
			e_ph_next = P_BL0;
		end
		P_BL0: begin
			e_blen_next[7:0] = q;
			e_ph_next = P_BL1;
		end
		P_BL1: begin
			e_blen_next[15:8] = q;
			e_k_next = 16'd0;
			cmd_len_next = {q, e_blen_reg[7:0]} - prefix_len({4'd0, cmd_kind_reg});
			e_ph_next = P_BODY;
		end
		P_BODY: begin
			case (e_k_reg[2:0])
			3'd0: cmd_id_next[7:0] = q;
			3'd1: cmd_id_next[15:8] = q;
			3'd2: begin
				if (cmd_kind_reg == 4'd6)
					cmd_flag_next = q;
				else
					cmd_index_next[7:0] = q;
			end
			3'd3: cmd_index_next[15:8] = q;
			3'd4: cmd_index_next[23:16] = q;
			3'd5: cmd_index_next[31:24] = q;
			default: cmd_flag_next = q;
			endcase
			e_k_next = e_k_reg + 16'd1;
			if (e_k_reg == prefix_len({4'd0, cmd_kind_reg}) - 16'd1) begin
				e_k_next = cmd_len_reg;
				e_j_next = 2'd0;
				cmd_data_next = 32'd0;
				if (cmd_len_reg == 16'd0) begin
					cmd_last_next = 1'b1;
					state_next = S_EBEAT;
				end else begin
					e_ph_next = P_DATA;
				end
			end
		end
		default: begin
			// data bytes: e_k left, packed little-endian into the beat
			cmd_data_next[8 * e_j_reg +: 8] = q;
			e_j_next = e_j_reg + 2'd1;
			e_k_next = e_k_reg - 16'd1;
			if (e_j_reg == 2'd3 || e_k_reg == 16'd1) begin
				cmd_last_next = e_k_reg == 16'd1;
				state_next = S_EBEAT;
			end
		end
		endcase
	end
	S_EBEAT: begin
		if (m_cmd_ready) begin
			if (cmd_last_reg) begin
				state_next = S_ERSP;
			end else begin
				cmd_data_next = 32'd0;
				e_j_next = 2'd0;
				state_next = S_ERD;
			end
		end
	end
	S_ERSP: begin
		rsp_ready = 1'b1;
		if (s_rsp_valid) begin
			if (s_rsp_err_w != 8'd0) begin
				reply_store(T_ACK, ST_FAILED, s_rsp_err_w, e_op_reg);
			end else if (e_op_reg == v_count_reg - 16'd1) begin
				reply_store(T_ACK, ST_OK, 8'd0, OP_NONE);
			end else begin
				e_op_next = e_op_reg + 16'd1;
				e_ph_next = P_OPC;
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
			rr_use_next = s_rsp_err_w == 8'd0;
			rsp_hold_next = 1'b1;
			reply_store(T_READ_REPLY, s_rsp_err_w == 8'd0 ? ST_OK : ST_FAILED, s_rsp_err_w,
				16'd0);
		end
	end
	S_FWD: begin
		if (m_req_valid && m_req_ready && m_req_last)
			state_next = S_FRSP;
	end
	S_FRSP: begin
		rsp_ready = 1'b1;
		if (s_rsp_valid) begin
			if (s_rsp_err_w != 8'd0)
				reply_store(T_ACK, ST_FAILED, s_rsp_err_w, 16'd0);
			else
				reply_store(T_ACK, ST_OK, 8'd0, OP_NONE);
		end
	end
	S_ST: begin
		rram_we = 1'b1;
		idx_next = idx_reg + 16'd1;
		if (idx_reg == rep_len_reg + 16'd7) begin
			kept_next[slot] = 1'b1;
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
			idx_next = 16'd0;
			state_next = S_TXR;
		end
	end
	S_TXR: begin
		rram_re = 1'b1;
		rram_raddr = {slot, idx_reg[4:0] + 5'd8};
		state_next = S_TXL;
	end
	S_TXL: begin
		if (rep_ram_reg)
			m_data_next = rram_q;
		else if (rep_type_reg == T_HELLO_REPLY)
			m_data_next = hello_byte;
		else
			m_data_next = ack_byte(idx_reg[4:0], ack_st_reg, ack_err_reg, ack_failed_reg,
				expect_reg);
		state_next = S_TXW;
	end
	S_TXW: begin
		if (m_ready) begin
			idx_next = idx_reg + 16'd1;
			state_next = m_last ? S_IDLE : S_TXR;
		end
	end
	default: state_next = S_IDLE;
	endcase
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
	seq_reg <= seq_next;
	type_reg <= type_next;
	len_reg <= len_next;
	idx_reg <= idx_next;
	rdb_reg <= rdb_next;
	rep_type_reg <= rep_type_next;
	rep_len_reg <= rep_len_next;
	rep_ram_reg <= rep_ram_next;
	ack_st_reg <= ack_st_next;
	ack_err_reg <= ack_err_next;
	ack_failed_reg <= ack_failed_next;
	rr_use_reg <= rr_use_next;
	dup_type_reg <= dup_type_next;
	dup_lo_reg <= dup_lo_next;
	m_data_reg <= m_data_next;
	v_ph_reg <= v_ph_next;
	v_opc_reg <= v_opc_next;
	v_blen_reg <= v_blen_next;
	v_k_reg <= v_k_next;
	v_nlo_reg <= v_nlo_next;
	v_bad_reg <= v_bad_next;
	v_ops_reg <= v_ops_next;
	v_count_reg <= v_count_next;
	e_ph_reg <= e_ph_next;
	e_pos_reg <= e_pos_next;
	e_k_reg <= e_k_next;
	e_blen_reg <= e_blen_next;
	e_op_reg <= e_op_next;
	e_j_reg <= e_j_next;
	cmd_kind_reg <= cmd_kind_next;
	cmd_id_reg <= cmd_id_next;
	cmd_index_reg <= cmd_index_next;
	cmd_flag_reg <= cmd_flag_next;
	cmd_len_reg <= cmd_len_next;
	cmd_data_reg <= cmd_data_next;
	cmd_last_reg <= cmd_last_next;
end

// RAM ports on their own, no reset, for block RAM inference.
always @(posedge clk) begin
	if (wram_we)
		wram[wram_waddr] <= s_data;
	if (wram_re)
		wram_q <= wram[wram_raddr];
	if (rram_we)
		rram[rram_waddr] <= rram_wdata;
	if (rram_re)
		rram_q <= rram[rram_raddr];
end

`ifdef FORMAL
// Checked by hw/formal: the stream contracts of every output, and that a control-bus command
// or forwarded request only ever belongs to the expected request of an open session.
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
	assume (s_hdr_len <= 16'd40);
end

// f_exec: the request being handled had the expected seq of an open session at its header.
reg f_exec = 1'b0;
reg [15:0] f_seq;
always @(posedge clk) begin
	if (rst)
		f_exec <= 1'b0;
	else if (s_hdr_valid && s_hdr_ready) begin
		f_exec <= session_reg && s_hdr_seq == expect_reg && !s_hdr_type[7] &&
			s_hdr_type != T_HELLO;
		f_seq <= s_hdr_seq;
	end
end

always @(posedge clk) begin
	if (m_cmd_valid || m_req_valid)
		assert (f_exec && seq_reg == f_seq && expect_reg == f_seq + 16'd1);
	if (state_reg == S_ERD || state_reg == S_EUSE || state_reg == S_EBEAT ||
	    state_reg == S_ERSP)
		assert (type_reg == T_WRITE && !v_bad_reg && v_ops_reg == v_count_reg);
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
end

always @(posedge clk) begin
	cover (m_cmd_valid && m_cmd_ready && m_cmd_last);
	cover (m_req_valid && m_req_ready && m_req_last);
end
`endif

endmodule

`resetall
