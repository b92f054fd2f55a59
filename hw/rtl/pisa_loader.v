// SPDX-License-Identifier: Apache-2.0
// pisa_loader: the requests of the control link that are not table writes, for pisa_core:
// image staging and commit, RESET and PACKET_OUT (docs/control-protocol.md), between
// pisa_link_ctrl's m_req_* / s_rsp_* and the core.
//
// IMAGE_CHUNK: the .pisa bytes stream through a small parser that knows only the file header,
// the section table and two sections: BOARD (board and program name) and HWCONF (type 11, the
// core's configuration words, docs/hwconf.md). HWCONF's words go to the core's s_cfg_* port
// as they pass (the core stages them in its other configuration bank, so the running image
// keeps running); every byte goes through the CRC-32. Chunks must be consecutive (else
// FAILED RANGE) and the image at most MAX_IMAGE bytes (else FULL).
// IMAGE_COMMIT checks, in the order the protocol gives: length (RANGE), CRC (CRC), then what
// pisa_image_read() would refuse that this parser can see: magic and a HWCONF section whose
// status is 0, that holds at least the 10 header words and lies inside the image (FORMAT, or
// the status HWCONF carries: the writer's reason why the core cannot run the image), and the
// board name (RANGE). Only then cfg_commit: the core switches banks and starts the image empty.
// RESET: core_reset (empties rows, counters and registers; default rows as the image has
// them). PACKET_OUT: u16 port, then the packet, to m_pko_*; answered once the packet has run
// (the core is idle again: it serves one packet at a time and passes through idle between
// them) and the PACKET_IN or DIGEST it caused has gone to the link (pin_held low), so those
// reach the host before the ACK, as the protocol says.
// Every request gets one answer on m_rsp_* (err 0 = OK; else a positive pisa_err).
// Stream contract as everywhere in hw/: a word moves when valid && ready.
`default_nettype none

module pisa_loader #(
	parameter [8*16-1:0] BOARD = "sim",	// this bitstream's profile (lib/pisa_profile.c)
	parameter [31:0] MAX_IMAGE = 32'd1048576,
	// bytes of the program name kept for HELLO_REPLY (0 .. 64; pisa_link_ctrl's PROGRAM_BYTES)
	parameter PROGRAM_BYTES = 64
) (
	input  wire         clk,
	input  wire         rst,

	input  wire [7:0]   s_req_type,
	input  wire [15:0]  s_req_len,
	input  wire [7:0]   s_req_data,
	input  wire         s_req_last,
	input  wire         s_req_valid,
	output wire         s_req_ready,
	output reg  [7:0]   m_rsp_err,
	output reg          m_rsp_valid,
	input  wire         m_rsp_ready,

	output reg  [15:0]  m_cfg_addr,
	output reg  [63:0]  m_cfg_data,
	output reg          m_cfg_valid,
	input  wire         m_cfg_ready,
	output reg          cfg_commit,
	output reg          core_reset,

	output reg  [8:0]   m_pko_port,
	output wire [7:0]   m_pko_data,
	output wire         m_pko_last,
	output wire         m_pko_valid,
	input  wire         m_pko_ready,
	input  wire         core_idle,	// pisa_core: no packet, command or load in progress
	input  wire         pin_held,	// pisa_pkt_in: a message waits to be sent

	output reg          info_image,
	output reg  [31:0]  info_image_len,
	output reg  [31:0]  info_image_crc,
	output wire [511:0] info_program	// byte j in bits [8j+7 -: 8], NUL-padded
);

localparam [7:0] T_CHUNK = 8'h02, T_COMMIT = 8'h03, T_PACKET_OUT = 8'h06, T_RESET = 8'h07;
localparam [7:0] E_FORMAT = 3, E_CRC = 5, E_RANGE = 6, E_FULL = 8;
localparam [31:0] IMAGE_MAGIC = 32'h41534950;
localparam [15:0] SEC_BOARD = 1, SEC_HWCONF = 11;
localparam [63:0] HWCONF_MAGIC = 64'h5048574300000001;

// CRC-32/ISO-HDLC, one byte (reflected form).
function [31:0] crc_byte(input [31:0] c0, input [7:0] d);
	reg [31:0] c;
	integer k;
	begin
		c = c0 ^ {24'd0, d};
		for (k = 0; k < 8; k = k + 1)
			c = c[0] ? (c >> 1) ^ 32'hEDB88320 : c >> 1;
		crc_byte = c;
	end
endfunction

localparam [2:0] L_IDLE = 0, L_HDR = 1, L_BODY = 2, L_WORD = 3, L_PKO = 4, L_ANSWER = 5,
	L_DRAIN = 6, L_PKO_RUN = 7;
reg [2:0] st;
reg [7:0] rtype, err;
reg [15:0] ri;			// byte of the request's payload
reg [31:0] roff;		// IMAGE_CHUNK offset / IMAGE_COMMIT length, then crc

// The image being staged. Positions in it are below MAX_IMAGE, so PW bits hold them with one
// to spare; offsets and lengths the image gives are saturated to PW bits as they are read,
// which keeps every compare below as it would be in 32 bits.
localparam integer PW = MAX_IMAGE >= 32'h40000 ? $clog2(MAX_IMAGE + 1) + 1 : 20;	// 20: nsec fits
generate
	if (MAX_IMAGE > 32'h40000000)
		pisa_loader_MAX_IMAGE_must_be_at_most_1_GiB bad_max_image();
endgenerate
localparam [PW-1:0] P_MAX = {PW{1'b1}};
reg [PW-1:0] staged;
reg [31:0] crc;
reg [31:0] magic;
reg [15:0] nsec;
reg [15:0] ent_type;
reg [31:0] ent_off;
reg [23:0] ent_len;		// the low bytes; the last comes with the entry's final byte	// the section table entry being read
reg [PW-1:0] hw_off, hw_len, bd_off, bd_len;
reg hw_seen, hw_bad;
reg [7:0] hw_status;
reg [63:0] word;
reg wlast;			// the byte that completed the word was the request's last
reg [15:0] waddr;
// The image's board name as a Verilog string, like BOARD: its first 16 bytes shifted in from
// the right. The program name: bytes shifted in from the left, then NULs up to
// PROGRAM_BYTES, so that byte j lands in bits [8j+7 -: 8].
localparam PN_W = PROGRAM_BYTES > 0 ? 8 * PROGRAM_BYTES : 8;
reg [127:0] board;
reg [15:0] bd_slen, pg_slen;
reg [PN_W-1:0] prog, info_prog;
reg [6:0] pg_n;			// bytes shifted into prog
reg pg_fill;			// the name is over: NULs fill the rest
reg [31:0] ccrc;
wire [PW-1:0] bd_s = {{(PW - 16){1'b0}}, bd_slen}, pg_s = {{(PW - 16){1'b0}}, pg_slen};
wire [31:0] staged32 = {{(32 - PW){1'b0}}, staged};

wire take = s_req_valid && s_req_ready;
wire _unused_len = &{1'b0, s_req_len, 1'b0};	// the stream's last flag ends a request
assign s_req_ready = st == L_HDR || st == L_BODY || (st == L_PKO && m_pko_ready) || st == L_DRAIN;
assign m_pko_valid = st == L_PKO && s_req_valid;
assign m_pko_data = s_req_data;
assign m_pko_last = s_req_last;

// A 32-bit offset or length from the image as PW bits, saturated.
function [PW-1:0] sat(input [31:0] x);
	sat = x > {{(32 - PW){1'b0}}, P_MAX} ? P_MAX : x[PW-1:0];
endfunction

// Byte p of the image completes a HWCONF word (8 bytes after the 4-byte status).
function word_done(input [PW-1:0] p);
	reg [PW-1:0] q;
	begin
		q = p - hw_off;
		word_done = hw_seen && p >= hw_off && q < hw_len && q >= 4 && q[2:0] == 3'd3;
	end
endfunction

// One image byte at file position p.
task image_byte(input [PW-1:0] p, input [7:0] d);
	reg [PW-1:0] q;
	begin
		crc <= crc_byte(crc, d);
		staged <= p + 1'b1;
		q = p - 20;			// the section table: 16-byte entries from byte 20
		if (p < 4)
			magic[8 * p[1:0] +: 8] <= d;
		else if (p == 12)
			nsec[7:0] <= d;
		else if (p == 13)
			nsec[15:8] <= d;
		else if (p >= 20 && q[PW-1:4] < {{(PW - 20){1'b0}}, nsec}) begin
			if (q[3:0] < 2)
				ent_type[8 * q[0] +: 8] <= d;
			else if (q[3:0] >= 4 && q[3:0] < 8)
				ent_off[8 * q[1:0] +: 8] <= d;
			else if (q[3:0] >= 8 && q[3:0] < 12)
				ent_len[8 * q[1:0] +: 8] <= d;
			if (q[3:0] == 11) begin
				// the entry is complete with this byte
				if (ent_type == SEC_HWCONF) begin
					hw_off <= sat(ent_off);
					hw_len <= sat({d, ent_len[23:0]});
					hw_seen <= 1'b1;
				end else if (ent_type == SEC_BOARD) begin
					bd_off <= sat(ent_off);
					bd_len <= sat({d, ent_len[23:0]});
				end
			end
		end else if (hw_seen && p >= hw_off && p - hw_off < hw_len) begin
			q = p - hw_off;
			if (q < 4) begin
				if (q == 0)
					hw_status <= d;
				else if (d != 0)
					hw_bad <= 1'b1;
			end else begin
				word <= {d, word[63:8]};
			end
		end else if (p >= bd_off && p - bd_off < bd_len) begin
			// str board (u16 n, bytes), str program (u16 n, bytes)
			q = p - bd_off;
			if (q == 0)
				bd_slen[7:0] <= d;
			else if (q == 1)
				bd_slen[15:8] <= d;
			else if (q < bd_s + 2) begin
				if (q - 2 < 16)
					board <= {board[119:0], d};
			end else if (q == bd_s + 2)
				pg_slen[7:0] <= d;
			else if (q == bd_s + 3) begin
				pg_slen[15:8] <= d;
				if ({d, pg_slen[7:0]} == 16'd0)
					pg_fill <= 1'b1;		// no program name
			end else if (q - 4 - bd_s < pg_s) begin
				if ({25'd0, pg_n} < PROGRAM_BYTES) begin
					prog <= {d, prog[PN_W-1:8]};
					pg_n <= pg_n + 7'd1;
				end
				if (q - 3 - bd_s == pg_s)
					pg_fill <= 1'b1;		// its last byte
			end
		end
	end
endtask

assign info_program = PROGRAM_BYTES > 0 ? {{(512 - PN_W){1'b0}}, info_prog} : 512'd0;

always @(posedge clk) begin
	cfg_commit <= 1'b0;
	if (pg_fill && {25'd0, pg_n} < PROGRAM_BYTES) begin
		prog <= {8'd0, prog[PN_W-1:8]};
		pg_n <= pg_n + 7'd1;
	end
	core_reset <= 1'b0;
	if (m_cfg_valid && m_cfg_ready)
		m_cfg_valid <= 1'b0;
	if (m_rsp_valid && m_rsp_ready)
		m_rsp_valid <= 1'b0;
	case (st)
	L_IDLE: if (s_req_valid && !m_rsp_valid) begin
		rtype <= s_req_type;
		ri <= 16'd0;
		err <= 8'd0;
		roff <= 32'd0;
		st <= s_req_type == T_PACKET_OUT || s_req_type == T_CHUNK || s_req_type == T_COMMIT ?
		      L_HDR : L_DRAIN;
	end
	// the request's fixed prefix: chunk offset, commit length and crc, packet-out port
	L_HDR: if (take) begin
		ri <= ri + 16'd1;
		if (rtype == T_PACKET_OUT) begin
			if (ri == 0)
				m_pko_port[7:0] <= s_req_data;
			else begin
				m_pko_port[8] <= s_req_data[0];
				st <= s_req_last ? L_ANSWER : L_PKO;
			end
		end else if (rtype == T_COMMIT && ri >= 4) begin
			ccrc[8 * (ri[1:0]) +: 8] <= s_req_data;
		end else begin
			roff[8 * ri[1:0] +: 8] <= s_req_data;
		end
		if (rtype == T_CHUNK && ri == 3) begin
			// offset 0 starts a new image; any other must continue this one
			if ({s_req_data, roff[23:0]} == 32'd0) begin
				staged <= {PW{1'b0}};
				crc <= 32'hFFFFFFFF;
				nsec <= 16'd0;
				hw_seen <= 1'b0;
				hw_bad <= 1'b0;
				hw_status <= 8'd0;
				bd_off <= P_MAX;
				bd_len <= {PW{1'b0}};
				bd_slen <= 16'd0;
				board <= 128'd0;
				pg_n <= 7'd0;
				pg_fill <= 1'b0;
				waddr <= 16'd0;
			end else if ({s_req_data, roff[23:0]} != staged32) begin
				err <= E_RANGE;
			end
			st <= s_req_last ? L_ANSWER : ({s_req_data, roff[23:0]} == 32'd0 ||
			      {s_req_data, roff[23:0]} == staged32 ? L_BODY : L_DRAIN);
		end else if (s_req_last) begin
			st <= L_ANSWER;
		end
	end
	L_BODY: if (take) begin
		if (staged32 >= MAX_IMAGE) begin
			err <= E_FULL;
			st <= s_req_last ? L_ANSWER : L_DRAIN;
		end else begin
			image_byte(staged, s_req_data);
			wlast <= s_req_last;
			if (word_done(staged))
				st <= L_WORD;		// 8 bytes: to the core
			else if (s_req_last)
				st <= L_ANSWER;
		end
	end
	// a configuration word is complete: hand it to the core, then go on
	L_WORD: if (!m_cfg_valid) begin
		if (waddr == 16'd0 && word != HWCONF_MAGIC)
			hw_bad <= 1'b1;		// not a layout this core reads
		m_cfg_addr <= waddr;
		m_cfg_data <= word;
		m_cfg_valid <= 1'b1;
		waddr <= waddr + 16'd1;
		st <= wlast ? L_ANSWER : L_BODY;
	end
	L_PKO: if (take && s_req_last)
		st <= L_PKO_RUN;
	// The core took the last byte, so it is busy with this packet now. When it is idle again,
	// all the packet produced is out of it; a PACKET_IN or DIGEST may still wait in
	// pisa_pkt_in (one at most: the core stalls until it takes the next), so wait for that too.
	L_PKO_RUN: if (core_idle && !pin_held)
		st <= L_ANSWER;
	L_DRAIN: if (take && s_req_last)
		st <= L_ANSWER;
	L_ANSWER: if (!m_cfg_valid && !m_rsp_valid) begin
		m_rsp_err <= err;
		m_rsp_valid <= 1'b1;
		st <= L_IDLE;
		case (rtype)
		T_COMMIT:
			if (roff != staged32)
				m_rsp_err <= E_RANGE;
			else if (ccrc != ~crc)
				m_rsp_err <= E_CRC;
			else if (magic != IMAGE_MAGIC || !hw_seen)
				m_rsp_err <= E_FORMAT;
			else if (hw_status != 0)
				m_rsp_err <= hw_status;	// the writer's reason the core cannot run it
			else if (hw_bad || hw_len < 4 + 8 * 10 || {1'b0, hw_off} + {1'b0, hw_len} > {1'b0, staged})
				m_rsp_err <= E_FORMAT;
			else if (board != BOARD)
				m_rsp_err <= E_RANGE;
			else begin
				cfg_commit <= 1'b1;
				info_image <= 1'b1;
				info_image_len <= staged32;
				info_image_crc <= ~crc;
				info_prog <= prog;
			end
		T_RESET: core_reset <= 1'b1;
		T_CHUNK, T_PACKET_OUT: ;
		default: m_rsp_err <= E_FORMAT;
		endcase
	end
	default: st <= L_IDLE;
	endcase
	if (rst) begin
		st <= L_IDLE;
		m_rsp_valid <= 1'b0;
		m_cfg_valid <= 1'b0;
		info_image <= 1'b0;
		info_image_len <= 32'd0;
		info_image_crc <= 32'd0;
		info_prog <= {PN_W{1'b0}};
		staged <= {PW{1'b0}};
		crc <= 32'hFFFFFFFF;
	end
end

endmodule
`default_nettype wire
