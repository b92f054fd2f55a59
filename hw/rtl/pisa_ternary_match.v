// SPDX-License-Identifier: Apache-2.0
// pisa_ternary_match: a ternary (value and mask) lookup in block RAM, the block of the streaming
// stage engine for ternary, lpm and optional tables (docs/rtl-core.md, "Towards the pipeline";
// an lpm table is a ternary one whose rows the host orders by prefix length). pisa_core does not
// use it yet.
//
// The lookup is the one of lib/pisa_switch.h and pisa-model: the lowest-index valid row with
// (key & mask) == (value & mask) hits. Range fields are not handled here.
//
// How, without a comparator per row: each key byte is cut into pieces of CHUNK_BITS bits, and
// a column memory per piece of the byte holds, for each byte position c and each value v of
// the piece, one bit per row: row r matches v there. A key's bytes stream in a byte a clock, each
// piece reads its word {c, v}, and the words' AND is the set of rows that match the whole key; a
// priority encoder (groups of 16 rows, then the groups) finds the lowest, whose action and data
// come from the row memory. A lookup every KB clocks (KB = the key's bytes), its result eight
// clocks after the last byte.
//
// Writing a row rewrites its bit in the KB x 2^CHUNK_BITS words of each column memory: each
// word is read and written back two clocks later with the row's bit changed, a word a clock in
// every memory at once, so a row write takes KB x 2^CHUNK_BITS + 2 clocks (66 for a 32-bit key
// in pieces of 4 bits, 1,026 in whole bytes). The column memories' read ports serve both, so
// lookups wait meanwhile: a waiting write stops new keys from starting, the keys and results in
// the pipeline finish, then the write runs alone. That makes a row write atomic: every lookup
// reads the table entirely before or entirely after it. An invalid row's bits are all zero.
//
// CHUNK_BITS trades block RAM and write time for memories: 8 / CHUNK_BITS memories of
// KB x 2^CHUNK_BITS words. Whole bytes suit wide block RAMs (an ECP5 DP16KD of 1,024 x 18 holds
// 18 rows of a 32-bit key); pieces of 4 bits suit the iCE40's 256 x 16 (32 rows of a 32-bit key
// in 4 instead of 8) and write a row 16 times faster.
//
// Key (s_key_*): 1 .. KEY_BYTES bytes, most significant first, s_key_last on the final one.
// A longer key is not looked up: its result is a miss with m_too_long.
// Rows (w_*): row w_index gets {w_row_valid, w_action, w_value, w_mask, w_data} for keys of
// w_nbytes bytes (1 .. KEY_BYTES, anything else counts as KEY_BYTES), value and mask
// right-aligned in KEY_BYTES bytes. A table's keys all have its KB bytes, so a table written
// for another KB must have every row written again. Nothing is reset: write every row before
// the first lookup.
// Result (m_*): per lookup, in order: m_hit, the row (m_index), its action id and data; zeros on
// a miss. m_ready low stops the lookup pipeline (and s_key_ready) until it rises.
// Stream contract as everywhere in hw/: a word moves when valid && ready at a rising edge.
`default_nettype none

module pisa_ternary_match #(
	parameter [8*5-1:0] FAMILY = "sim",	// pisa_ram_2clk's: "sim", "ice40" or "ecp5"
	parameter ENTRIES = 32,			// rows: 2 .. 256, a power of 2
	parameter KEY_BYTES = 4,		// longest key, 1 .. 16
	parameter DATA_BYTES = 2,		// action data per row
	parameter CHUNK_BITS = 8,		// 8, 4 or 2: a column memory's share of a key byte
	parameter IDX_W = $clog2(ENTRIES),	// (derived)
	parameter NB_W = $clog2(KEY_BYTES + 1)	// (derived)
) (
	input  wire                    clk,
	input  wire                    rst,

	input  wire [7:0]              s_key_data,
	input  wire                    s_key_last,
	input  wire                    s_key_valid,
	output wire                    s_key_ready,

	input  wire [IDX_W-1:0]        w_index,
	input  wire [NB_W-1:0]         w_nbytes,
	input  wire                    w_row_valid,
	input  wire [15:0]             w_action,
	input  wire [8*KEY_BYTES-1:0]  w_value,
	input  wire [8*KEY_BYTES-1:0]  w_mask,
	input  wire [8*DATA_BYTES-1:0] w_data,
	input  wire                    w_valid,
	output wire                    w_ready,

	output reg                     m_hit,
	output reg                     m_too_long,
	output reg  [IDX_W-1:0]        m_index,
	output reg  [15:0]             m_action,
	output reg  [8*DATA_BYTES-1:0] m_data,
	output reg                     m_valid,
	input  wire                    m_ready
);

localparam KEY_W = 8 * KEY_BYTES;
localparam DATA_W = 8 * DATA_BYTES;
localparam ROW_W = 16 + DATA_W;				// the row memory: {action, data}
localparam CH_W = KEY_BYTES > 1 ? $clog2(KEY_BYTES) : 1;	// a key byte's position
localparam CB = CHUNK_BITS;
localparam NP = 8 / CB;					// column memories: a byte's pieces
localparam COL_AW = CH_W + CB;				// column words: {position, value}
localparam [CB-1:0] V_LAST = {CB{1'b1}};
localparam [31:0] KEY_BYTES32 = KEY_BYTES;
localparam [NB_W-1:0] KEY_MAX = KEY_BYTES32[NB_W-1:0];
// The priority encoder: G rows a group, NG groups.
localparam G = ENTRIES < 16 ? ENTRIES : 16;
localparam NG = ENTRIES / G;
localparam GI_W = $clog2(G);
localparam GS_W = NG > 1 ? $clog2(NG) : 1;

generate
	if (ENTRIES < 2 || ENTRIES > 256 || (1 << IDX_W) != ENTRIES)
		pisa_ternary_match_ENTRIES_must_be_a_power_of_2_from_2_to_256 bad_entries();
	if (KEY_BYTES < 1 || KEY_BYTES > 16 || DATA_BYTES < 1)
		pisa_ternary_match_KEY_BYTES_1_to_16_and_DATA_BYTES_at_least_1 bad_bytes();
	if (CHUNK_BITS != 8 && CHUNK_BITS != 4 && CHUNK_BITS != 2)
		pisa_ternary_match_CHUNK_BITS_must_be_8_4_or_2 bad_chunk();
endgenerate

wire stall = m_valid && !m_ready;	// the result waits: no lookup moves

// ---- a row write: every column word of its key's bytes read, its bit changed, written back ----
reg upd_issue;				// reading the words
reg [CH_W-1:0] upd_chunk;		// the words being read: {upd_chunk, upd_piece} in each memory
reg [CB-1:0] upd_piece;
reg [KEY_W-1:0] upd_value, upd_mask;	// shift right a byte a position: low byte = upd_chunk's
reg upd_row_valid;
reg [NG-1:0] upd_group;			// the row's bit: its group's and its place's in
reg [G-1:0] upd_place;			// the group, each one-hot (a LUT4 a bit to merge)
reg p1_v, p2_v;				// words read, their address and the row's new bits with them
reg [COL_AW-1:0] p1_addr, p2_addr;
reg [NP-1:0] p1_bits, p2_bits;		// a bit a memory
wire upd = upd_issue || p1_v || p2_v;
// the row's new bit in each memory (memory 0: the byte's most significant piece)
reg [NP-1:0] upd_bits;
integer pi;
always @(*)
	for (pi = 0; pi < NP; pi = pi + 1)
		upd_bits[pi] = upd_row_valid && ((upd_piece ^ upd_value[8 - CB * (pi + 1) +: CB]) &
			upd_mask[8 - CB * (pi + 1) +: CB]) == {CB{1'b0}};
wire [31:0] w_nbytes32 = {{(32-NB_W){1'b0}}, w_nbytes};
wire [31:0] w_index32 = {{(32-IDX_W){1'b0}}, w_index};
wire [31:0] w_last_chunk = (w_nbytes32 == 32'd0 || w_nbytes32 > KEY_BYTES32 ? KEY_BYTES32 :
	w_nbytes32) - 32'd1;
wire _unused_last_chunk = &{1'b0, w_last_chunk[31:CH_W], 1'b0};

// ---- the lookups: key bytes in, column words ANDed, the lowest row, its action and data ----
reg [NB_W-1:0] nbytes_reg;		// key bytes taken (stops at KEY_BYTES)
wire in_key = nbytes_reg != {NB_W{1'b0}};
wire take = s_key_valid && s_key_ready;
reg l1_v, l1_first, l1_last, l1_long;	// a key byte's word: address set ...
reg l2_v, l2_first, l2_last, l2_long;	// ... on the column memories' output
reg [ENTRIES-1:0] acc;			// the AND of the key's words so far
reg v3, long3;				// acc holds a key's rows
reg v4, long4;				// each group: any row, the lowest
reg [NG-1:0] any4;
reg [NG*GI_W-1:0] first4;
reg v5, hit5;				// the lowest group, its rows' lowest: the row memory's address
reg long5;
reg [GS_W-1:0] group5;
reg [NG*GI_W-1:0] first5;
reg v6, hit6, long6, v7, hit7, long7;	// the row memory's latch and output register
reg [IDX_W-1:0] index6, index7;
wire busy = in_key || l1_v || l2_v || v3 || v4 || v5 || v6 || v7 || m_valid;

assign w_ready = !upd && !busy;
wire w_take = w_valid && w_ready;
// a waiting write goes before the next key (the key being sent finishes first)
assign s_key_ready = !stall && !upd && !(w_valid && !in_key);

wire [NP*ENTRIES-1:0] col_rd;		// memory p's word: bits p*ENTRIES ..
wire [NP*ENTRIES-1:0] col_wd;		// col_rd with the row's bit changed
// the words' AND: the rows that match this key byte
function [ENTRIES-1:0] and_words(input [NP*ENTRIES-1:0] words);
	integer k;
	begin
		and_words = {ENTRIES{1'b1}};
		for (k = 0; k < NP; k = k + 1)
			and_words = and_words & words[k * ENTRIES +: ENTRIES];
	end
endfunction
wire [ENTRIES-1:0] col_and = and_words(col_rd);
wire [CH_W-1:0] key_chunk = nbytes_reg[CH_W-1:0];	// (any, for a key too long)
wire [IDX_W-1:0] index5;
wire [ROW_W-1:0] row_rd;

genvar gp, gr;
generate
	for (gp = 0; gp < NP; gp = gp + 1) begin : g_col
		for (gr = 0; gr < ENTRIES; gr = gr + 1) begin : g_row_bit
			assign col_wd[gp * ENTRIES + gr] = upd_group[gr / G] && upd_place[gr % G] ?
				p2_bits[gp] : col_rd[gp * ENTRIES + gr];
		end
		wire [COL_AW-1:0] raddr = upd_issue ? {upd_chunk, upd_piece} :
			{key_chunk, s_key_data[8 - CB * (gp + 1) +: CB]};
		pisa_ram_2clk #(.FAMILY(FAMILY), .WIDTH(ENTRIES), .DEPTH(1 << COL_AW)) u_col (
			.wclk(clk), .we(p2_v), .waddr(p2_addr), .wdata(col_wd[gp * ENTRIES +: ENTRIES]),
			.rclk(clk), .rd_en(!stall), .raddr(raddr), .rd_oce(!stall),
			.rd_data(col_rd[gp * ENTRIES +: ENTRIES])
		);
	end
	pisa_ram_2clk #(.FAMILY(FAMILY), .WIDTH(ROW_W), .DEPTH(ENTRIES)) u_row (
		.wclk(clk), .we(w_take), .waddr(w_index), .wdata({w_action, w_data}),
		.rclk(clk), .rd_en(!stall), .raddr(index5), .rd_oce(!stall), .rd_data(row_rd)
	);
endgenerate

integer i, g;

// the lowest set bit of a group, and the lowest group with one
reg [NG-1:0] any_next;
reg [NG*GI_W-1:0] first_next;
reg [GS_W-1:0] group_next;
always @(*) begin
	for (g = 0; g < NG; g = g + 1) begin
		any_next[g] = |acc[g * G +: G];
		first_next[g * GI_W +: GI_W] = {GI_W{1'b0}};
		for (i = G - 1; i >= 0; i = i - 1)
			if (acc[g * G + i])
				first_next[g * GI_W +: GI_W] = i[GI_W-1:0];
	end
	group_next = {GS_W{1'b0}};
	for (g = NG - 1; g >= 0; g = g - 1)
		if (any4[g])
			group_next = g[GS_W-1:0];
end
generate
	if (NG > 1) begin : g_groups
		assign index5 = {group5, first5[group5 * GI_W +: GI_W]};
	end else begin : g_one_group
		assign index5 = first5[GI_W-1:0];
		wire _unused = &{1'b0, group5, 1'b0};
	end
endgenerate

always @(posedge clk) begin
	// a row write
	p1_v <= upd_issue;
	p1_addr <= {upd_chunk, upd_piece};
	p1_bits <= upd_bits;
	p2_v <= p1_v;
	p2_addr <= p1_addr;
	p2_bits <= p1_bits;
	if (w_take) begin
		upd_issue <= 1'b1;
		upd_chunk <= w_last_chunk[CH_W-1:0];
		upd_piece <= {CB{1'b0}};
		upd_value <= w_value;
		upd_mask <= w_mask;
		upd_row_valid <= w_row_valid;
		for (g = 0; g < NG; g = g + 1)
			upd_group[g] <= w_index32 >> GI_W == g;
		for (i = 0; i < G; i = i + 1)
			upd_place[i] <= (w_index32 & (G - 1)) == i;
	end else if (upd_issue) begin
		upd_piece <= upd_piece + 1'b1;
		if (upd_piece == V_LAST) begin
			upd_chunk <= upd_chunk - 1'b1;
			upd_value <= upd_value >> 8;
			upd_mask <= upd_mask >> 8;
			if (upd_chunk == {CH_W{1'b0}})
				upd_issue <= 1'b0;
		end
	end

	// the lookups
	if (take) begin
		if (s_key_last)
			nbytes_reg <= {NB_W{1'b0}};
		else if (nbytes_reg != KEY_MAX)
			nbytes_reg <= nbytes_reg + 1'b1;
	end
	if (!stall) begin
		l1_v <= take;
		l1_first <= !in_key;
		l1_last <= s_key_last;
		l1_long <= nbytes_reg == KEY_MAX;	// one byte too many (stays to the last)
		l2_v <= l1_v;
		l2_first <= l1_first;
		l2_last <= l1_last;
		l2_long <= l1_long;
		if (l2_v)
			acc <= l2_first ? col_and : acc & col_and;
		v3 <= l2_v && l2_last;
		long3 <= l2_long;
		v4 <= v3;
		long4 <= long3;
		any4 <= any_next;
		first4 <= first_next;
		v5 <= v4;
		hit5 <= |any4 && !long4;
		long5 <= long4;
		group5 <= group_next;
		first5 <= first4;
		v6 <= v5;
		hit6 <= hit5;
		long6 <= long5;
		index6 <= index5;
		v7 <= v6;
		hit7 <= hit6;
		long7 <= long6;
		index7 <= index6;
		m_valid <= v7;
		m_hit <= hit7;
		m_too_long <= long7;
		m_index <= hit7 ? index7 : {IDX_W{1'b0}};
		{m_action, m_data} <= hit7 ? row_rd : {ROW_W{1'b0}};
	end
	if (rst) begin
		upd_issue <= 1'b0;
		p1_v <= 1'b0;
		p2_v <= 1'b0;
		nbytes_reg <= {NB_W{1'b0}};
		l1_v <= 1'b0;
		l2_v <= 1'b0;
		v3 <= 1'b0;
		v4 <= 1'b0;
		v5 <= 1'b0;
		v6 <= 1'b0;
		v7 <= 1'b0;
		m_valid <= 1'b0;
	end
end

`ifdef FORMAL
// Checked by hw/formal (yosys-smtbmc, BMC and k-induction): the result stream keeps the stream
// contract; every lookup gives exactly one result (none lost, none made up); and a row write is
// atomic: the memories are written only while no lookup is anywhere in the unit, and no key
// byte is taken while a write runs.
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
wire [3:0] f_inside = {3'd0, l1_v && l1_last} + {3'd0, l2_v && l2_last} + {3'd0, v3} +
	{3'd0, v4} + {3'd0, v5} + {3'd0, v6} + {3'd0, v7} + {3'd0, m_valid};
reg f_written = 1'b0;			// a row write has read its last words
always @(posedge clk) begin
	if (rst)
		f_owed <= 4'd0;
	else
		f_owed <= f_owed + {3'd0, take && s_key_last} - {3'd0, m_valid && m_ready};
	if (!rst && upd_issue && upd_piece == V_LAST && upd_chunk == {CH_W{1'b0}})
		f_written <= 1'b1;
	if (f_past_valid && !$past(rst)) begin
		assert (f_owed == f_inside);
		if ($past(m_valid && !m_ready)) begin
			assert (m_valid);
			assert ($stable({m_hit, m_too_long, m_index, m_action, m_data}));
		end
		// atomic row writes
		assert (!(p2_v || w_take) || !(in_key || l1_v || l2_v || v3 || v4 || v5 || v6 || v7));
		assert (!upd || !busy);
		assert (!(take && upd));
		// the write pipeline follows its reads
		assert (!p2_v || upd);
		assert (!upd_issue || {{(32-CH_W){1'b0}}, upd_chunk} < KEY_BYTES32);
	end
	if (f_past_valid && $past(rst))
		assert (!upd && !l1_v && !l2_v && !v3 && !v4 && !v5 && !v6 && !v7 && !m_valid);
	// a hit after a whole row write, a miss and a key too long all come out
	cover (m_valid && m_ready && m_hit && f_written);
	cover (m_valid && m_ready && !m_hit && !m_too_long);
	cover (m_valid && m_ready && m_too_long);
end
`endif

endmodule

`resetall
