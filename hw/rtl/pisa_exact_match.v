// SPDX-License-Identifier: Apache-2.0
// pisa_exact_match: a pipelined exact-match lookup, the first block of the streaming stage
// engine (docs/rtl-core.md, "Towards the pipeline"): the key streams in a byte a clock, every
// way's hash is computed as it passes, and one clock after its last byte every way's row is
// read at once, so a table takes a lookup every KB clocks (KB = the key's bytes) at the
// clock of a block RAM read, whatever the number of ways. pisa_core does not use it yet.
//
// The lookup is the one of lib/pisa_switch.h and pisa-model: way w looks at its bucket
// pisa_hash_way(w, key, KB) & (2^WAY_BITS - 1) (the reflected CRC-32 of the key's bytes with
// way w's polynomial, initial value all ones, inverted); the first way whose row is valid and
// holds the key hits.
//
// Key (s_key_*): 1 .. KEY_BYTES bytes, most significant first, s_key_last on the final one.
// A longer key is not looked up: its result is a miss with m_too_long.
// Rows (w_*): way w_way's bucket w_bucket gets {w_row_valid, w_action, w_key, w_data}; the key
// right-aligned in KEY_BYTES bytes (zeros above). A row is one memory word, so a lookup sees
// it entirely old or entirely new; a lookup sees the writes taken up to the clock its last key
// byte is taken, and none after (a write waits while such a lookup is about to read: a read
// and a write of one word in one clock are undefined on the ECP5).
// Result (m_*): per lookup, in order: m_hit, the way and bucket that hit (the row index is
// {m_way, m_bucket}: (w << WAY_BITS) | bucket), its action id and data; zeros on a miss.
// A result is on m_* four clocks after the clock that takes the key's last byte, when m_ready
// stays high; m_ready low stops the whole lookup pipeline (and s_key_ready) until it rises.
// Stream contract as everywhere in hw/: a word moves when valid && ready at a rising edge.
`default_nettype none

module pisa_exact_match #(
	parameter [8*5-1:0] FAMILY = "sim",	// pisa_ram_2clk's: "sim", "ice40" or "ecp5"
	parameter WAYS = 2,			// 1 .. 4 memories, one per hash way
	parameter WAY_BITS = 8,			// rows per way: 2^WAY_BITS
	parameter KEY_BYTES = 6,		// longest key
	parameter DATA_BYTES = 2,		// action data per row
	parameter WAY_W = WAYS > 1 ? $clog2(WAYS) : 1	// (derived)
) (
	input  wire                    clk,
	input  wire                    rst,

	input  wire [7:0]              s_key_data,
	input  wire                    s_key_last,
	input  wire                    s_key_valid,
	output wire                    s_key_ready,

	input  wire [WAY_W-1:0]        w_way,
	input  wire [WAY_BITS-1:0]     w_bucket,
	input  wire                    w_row_valid,
	input  wire [15:0]             w_action,
	input  wire [8*KEY_BYTES-1:0]  w_key,
	input  wire [8*DATA_BYTES-1:0] w_data,
	input  wire                    w_valid,
	output wire                    w_ready,

	output reg                     m_hit,
	output reg                     m_too_long,
	output reg  [WAY_W-1:0]        m_way,
	output reg  [WAY_BITS-1:0]     m_bucket,
	output reg  [15:0]             m_action,
	output reg  [8*DATA_BYTES-1:0] m_data,
	output reg                     m_valid,
	input  wire                    m_ready
);

localparam KEY_W = 8 * KEY_BYTES;
localparam DATA_W = 8 * DATA_BYTES;
localparam ROW_W = 1 + 16 + KEY_W + DATA_W;	// {valid, action, key, data}
localparam CNT_W = $clog2(KEY_BYTES + 1);	// key bytes so far, stops at KEY_BYTES
localparam [31:0] KEY_BYTES32 = KEY_BYTES;
localparam [CNT_W-1:0] KEY_MAX = KEY_BYTES32[CNT_W-1:0];

generate
	if (WAYS < 1 || WAYS > 4)
		pisa_exact_match_WAYS_must_be_1_to_4 bad_ways();
	if (WAY_BITS < 1 || WAY_BITS > 16)
		pisa_exact_match_WAY_BITS_must_be_1_to_16 bad_way_bits();
	if (KEY_BYTES < 1 || DATA_BYTES < 1)
		pisa_exact_match_KEY_BYTES_and_DATA_BYTES_must_be_at_least_1 bad_bytes();
endgenerate

// One polynomial per way (lib/pisa_hash.c): CRC-32, -32C, -32K, -32Q.
function [31:0] way_poly(input integer w);
	case (w)
	0: way_poly = 32'h04C11DB7;
	1: way_poly = 32'h1EDC6F41;
	2: way_poly = 32'h741B8CD7;
	default: way_poly = 32'h814141AB;
	endcase
endfunction

wire stall = m_valid && !m_ready;	// the result waits: nothing moves

// ---- stage 0: the key comes in, every way's CRC follows it (pisa_crc32, one a way: its
// result register, taken when the rows are read, holds the buckets of stage 1) ----
reg [KEY_W-1:0] key_reg;
reg [CNT_W-1:0] nbytes_reg;
wire [KEY_W+7:0] key_cat = {key_reg, s_key_data};
wire [KEY_W-1:0] key_next = key_cat[KEY_W-1:0];
wire _unused_key_top = &{1'b0, key_cat[KEY_W+7:KEY_W], 1'b0};	// shifted out
wire too_long_next = nbytes_reg == KEY_MAX;	// this byte is one too many
wire take = s_key_valid && s_key_ready;
assign s_key_ready = !stall;

wire [WAYS*WAY_BITS-1:0] b1;	// stage 1: each way's bucket, the hash's low bits
genvar gw;
generate
	for (gw = 0; gw < WAYS; gw = gw + 1) begin : g_hash
		wire [31:0] hash;
		wire hash_valid, hash_ready;
		pisa_crc32 #(.WIDTH(8), .POLY(way_poly(gw))) u_hash (
			.clk(clk), .rst(rst), .s_data(s_key_data), .s_keep(1'b1), .s_last(s_key_last),
			.s_valid(take), .s_ready(hash_ready), .m_crc(hash), .m_valid(hash_valid),
			.m_ready(!stall)
		);
		assign b1[gw * WAY_BITS +: WAY_BITS] = hash[WAY_BITS-1:0];
		// (take implies ready; the result is v1's, taken as v1 moves on)
		wire _unused_hash = &{1'b0, hash[31:WAY_BITS], hash_valid, hash_ready, 1'b0};
	end
endgenerate

integer wi, bi;

// ---- stages 1 .. 4: bucket addresses, the block RAMs' latch and output register, compare ----
reg v1, v2, v3, v4;
reg [KEY_W-1:0] key1, key2, key3;
reg long1, long2, long3, long4;
reg [WAYS*WAY_BITS-1:0] b2, b3, b4;
// per way: each key byte equal, and the row valid (the compare is cut in two: bytes here, their
// AND in stage 5, so that the block RAM's output only goes through a byte compare)
reg [WAYS*(KEY_BYTES+1)-1:0] beq4;
reg [WAYS*(16+DATA_W)-1:0] row4;
wire [WAYS*ROW_W-1:0] rd;

// no write in the clock a lookup's rows are read (v1: their addresses are set)
assign w_ready = !v1;
wire we = w_valid && w_ready;

generate
	for (gw = 0; gw < WAYS; gw = gw + 1) begin : g_way
		pisa_ram_2clk #(.FAMILY(FAMILY), .WIDTH(ROW_W), .DEPTH(1 << WAY_BITS)) u_mem (
			.wclk(clk), .we(we && w_way == gw), .waddr(w_bucket),
			.wdata({w_row_valid, w_action, w_key, w_data}),
			.rclk(clk), .rd_en(!stall), .raddr(b1[gw * WAY_BITS +: WAY_BITS]),
			.rd_oce(!stall), .rd_data(rd[gw * ROW_W +: ROW_W])
		);
	end
endgenerate

// ---- stage 5: the first way that hit ----
reg out_hit;
reg [WAY_W-1:0] out_way;
reg [WAY_BITS-1:0] out_bucket;
reg [16+DATA_W-1:0] out_row;
always @(*) begin
	out_hit = 1'b0;
	out_way = {WAY_W{1'b0}};
	out_bucket = {WAY_BITS{1'b0}};
	out_row = {(16+DATA_W){1'b0}};
	for (wi = WAYS - 1; wi >= 0; wi = wi - 1)
		if (&beq4[wi * (KEY_BYTES+1) +: KEY_BYTES+1]) begin
			out_hit = 1'b1;
			out_way = wi[WAY_W-1:0];
			out_bucket = b4[wi * WAY_BITS +: WAY_BITS];
			out_row = row4[wi * (16+DATA_W) +: 16+DATA_W];
		end
end

always @(posedge clk) begin
	if (take) begin
		if (s_key_last) begin
			key1 <= key_next;
			long1 <= too_long_next;
			key_reg <= {KEY_W{1'b0}};
			nbytes_reg <= {CNT_W{1'b0}};
		end else begin
			key_reg <= key_next;
			if (!too_long_next)
				nbytes_reg <= nbytes_reg + 1'b1;
		end
	end
	if (!stall) begin
		v1 <= take && s_key_last;
		v2 <= v1;
		key2 <= key1;
		long2 <= long1;
		b2 <= b1;
		v3 <= v2;
		key3 <= key2;
		long3 <= long2;
		b3 <= b2;
		v4 <= v3;
		long4 <= long3;
		b4 <= b3;
		for (wi = 0; wi < WAYS; wi = wi + 1) begin
			// {valid, action, key, data}
			beq4[wi * (KEY_BYTES+1) + KEY_BYTES] <= rd[wi * ROW_W + ROW_W - 1] && !long3;
			for (bi = 0; bi < KEY_BYTES; bi = bi + 1)
				beq4[wi * (KEY_BYTES+1) + bi] <=
					rd[wi * ROW_W + DATA_W + 8 * bi +: 8] == key3[8 * bi +: 8];
			row4[wi * (16+DATA_W) +: 16+DATA_W] <= {rd[wi * ROW_W + DATA_W + KEY_W +: 16],
				rd[wi * ROW_W +: DATA_W]};
		end
		m_valid <= v4;
		m_hit <= out_hit;
		m_too_long <= long4;
		m_way <= out_way;
		m_bucket <= out_bucket;
		{m_action, m_data} <= out_row;
	end
	if (rst) begin
		key_reg <= {KEY_W{1'b0}};
		nbytes_reg <= {CNT_W{1'b0}};
		v1 <= 1'b0;
		v2 <= 1'b0;
		v3 <= 1'b0;
		v4 <= 1'b0;
		m_valid <= 1'b0;
	end
end

`ifdef FORMAL
// Checked by hw/formal (yosys-smtbmc, BMC and k-induction): the result stream keeps the stream
// contract, every lookup gives exactly one result (none lost, none made up), and no write
// lands in the clock a lookup's rows are read.
reg f_past_valid = 1'b0;
always @(posedge clk)
	f_past_valid <= 1'b1;

initial assume (rst);

always @(posedge clk)
	if (f_past_valid && !$past(rst) && $past(s_key_valid && !s_key_ready)) begin
		assume (s_key_valid);
		assume ($stable(s_key_data) && $stable(s_key_last));
	end

// lookups whose last byte is in, minus results taken: those in the pipeline
reg [3:0] f_owed = 4'd0;
wire [3:0] f_inside = {3'd0, v1} + {3'd0, v2} + {3'd0, v3} + {3'd0, v4} + {3'd0, m_valid};
always @(posedge clk) begin
	if (rst)
		f_owed <= 4'd0;
	else
		f_owed <= f_owed + {3'd0, take && s_key_last} - {3'd0, m_valid && m_ready};
	if (f_past_valid && !$past(rst)) begin
		assert (f_owed == f_inside);
		if ($past(m_valid && !m_ready)) begin
			assert (m_valid);
			assert ($stable({m_hit, m_too_long, m_way, m_bucket, m_action, m_data}));
		end
		assert (!(we && v1));
		// a result waits only for m_ready; a free pipeline takes a key byte
		assert (s_key_ready == !(m_valid && !m_ready));
	end
	if (f_past_valid && $past(rst))
		assert (!v1 && !v2 && !v3 && !v4 && !m_valid);
	// a hit and a miss both come out, as does a key too long
	cover (m_valid && m_ready && m_hit);
	cover (m_valid && m_ready && m_too_long);
end
`endif

endmodule

`resetall
