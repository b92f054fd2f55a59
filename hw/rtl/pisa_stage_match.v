// SPDX-License-Identifier: Apache-2.0
// pisa_stage_match: a stage's match, from the PHV to the row, for an exact or a ternary table
// (docs/rtl-core.md, "Towards the pipeline"): pisa_key_gather builds the table's key and sends
// it to pisa_exact_match or pisa_ternary_match, and the results leave in the order the lookups
// started, whichever unit each used. pisa_core does not use it yet.
//
// A lookup (s_start_*): the table's key fields (cfg_*, pisa_key_gather's) and its kind
// (cfg_ternary); all of them must hold from the start until the lookup's last key byte has
// left, which s_start_ready waits for. A table needs a key: 1 .. FIELDS fields.
// Rows: the exact unit's (we_*) and the ternary unit's (wt_*) write ports, as the units have
// them (a ternary row write waits for the ternary lookups in flight).
// Result (m_*): per lookup, in order: m_ternary (the unit), m_hit, m_too_long, the row (m_index:
// {way, bucket} of an exact table, the row of a ternary one), its action id and data; zeros on
// a miss. The two units take different numbers of clocks, so a queue of the units whose
// results are due (a lookup joins it as it starts) says which result is next; the other unit's
// result waits (and stops that unit) until its turn.
// Stream contract as everywhere in hw/: a word moves when valid && ready at a rising edge.
`default_nettype none

module pisa_stage_match #(
	parameter [8*5-1:0] FAMILY = "sim",	// pisa_ram_2clk's: "sim", "ice40" or "ecp5"
	parameter PHV_BYTES = 256,		// bytes the PHV read port reaches, a power of 2
	parameter FIELDS = 8,			// most key fields
	parameter KEY_BYTES = 8,		// longest key, both units
	parameter WAYS = 2,			// the exact unit's ways and rows per way (2^WAY_BITS)
	parameter WAY_BITS = 8,
	parameter ENTRIES = 32,			// the ternary unit's rows and key pieces
	parameter CHUNK_BITS = 8,
	parameter DATA_BYTES = 2,		// action data per row, both units
	parameter PA = $clog2(PHV_BYTES),				// (derived)
	parameter FI_W = $clog2(FIELDS + 1),				// (derived)
	parameter WAY_W = WAYS > 1 ? $clog2(WAYS) : 1,			// (derived)
	parameter IDX_W = $clog2(ENTRIES),				// (derived)
	parameter NB_W = $clog2(KEY_BYTES + 1),				// (derived)
	parameter INDEX_W = WAY_W + WAY_BITS > IDX_W ? WAY_W + WAY_BITS : IDX_W	// (derived)
) (
	input  wire                    clk,
	input  wire                    rst,

	input  wire                    cfg_ternary,
	input  wire [FI_W-1:0]         cfg_nfields,
	input  wire [16*FIELDS-1:0]    cfg_off,
	input  wire [7*FIELDS-1:0]     cfg_width,
	input  wire                    s_start_valid,
	output wire                    s_start_ready,

	output wire [PA-1:0]           phv_raddr,
	input  wire [7:0]              phv_rdata,

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

	output wire                    m_ternary,
	output wire                    m_hit,
	output wire                    m_too_long,
	output wire [INDEX_W-1:0]      m_index,
	output wire [15:0]             m_action,
	output wire [8*DATA_BYTES-1:0] m_data,
	output wire                    m_valid,
	input  wire                    m_ready
);

localparam DATA_W = 8 * DATA_BYTES;
// Results due: every lookup in both units' pipelines (5 exact, 9 ternary) and the one whose key
// is being built fit; a full queue holds new lookups back.
localparam QD = 16;

// ---- the key, through a register slice: the units' ready (which the result queue decides)
// would otherwise reach every enable of the gatherer in the same clock ----
wire gather_ready;
wire [7:0] g_key_data, key_data;
wire g_key_last, g_key_valid, g_key_ready, key_last, key_valid, key_ready;
// a new lookup once the last one's key has left (its cfg_* may change then); the gatherer is
// offered only what the stage takes, or it would start a lookup the queue never heard of
wire due_ready;
wire free = !g_key_valid && !key_valid && due_ready;
assign s_start_ready = gather_ready && free;
wire start = s_start_valid && s_start_ready;

pisa_key_gather #(.PHV_BYTES(PHV_BYTES), .FIELDS(FIELDS), .KEY_BYTES(KEY_BYTES)) u_gather (
	.clk(clk), .rst(rst), .cfg_nfields(cfg_nfields), .cfg_off(cfg_off), .cfg_width(cfg_width),
	.s_start_valid(s_start_valid && free), .s_start_ready(gather_ready),
	.phv_raddr(phv_raddr), .phv_rdata(phv_rdata),
	.m_key_data(g_key_data), .m_key_last(g_key_last), .m_key_valid(g_key_valid),
	.m_key_ready(g_key_ready)
);

pisa_skid #(.WIDTH(9)) u_key_slice (
	.clk(clk), .rst(rst),
	.s_data({g_key_last, g_key_data}), .s_valid(g_key_valid), .s_ready(g_key_ready),
	.m_data({key_last, key_data}), .m_valid(key_valid), .m_ready(key_ready)
);

// ---- the queue of units whose results are due, in order (1: ternary) ----
wire head_ternary, due_any;
wire [$clog2(QD):0] due_count;
wire _unused_due_count = &{1'b0, due_count, 1'b0};	// due_ready says it is full
pisa_fifo #(.WIDTH(1), .DEPTH(QD), .RAM_STYLE("logic")) u_due (
	.clk(clk), .rst(rst),
	.s_data(cfg_ternary), .s_valid(start), .s_ready(due_ready),
	.m_data(head_ternary), .m_valid(due_any), .m_ready(m_valid && m_ready),
	.count(due_count)
);

// the key goes to its table's unit
wire ex_key_ready, tc_key_ready;
assign key_ready = cfg_ternary ? tc_key_ready : ex_key_ready;

// ---- the units ----
wire ex_hit, ex_long, ex_valid, tc_hit, tc_long, tc_valid;
wire [WAY_W-1:0] ex_way;
wire [WAY_BITS-1:0] ex_bucket;
wire [IDX_W-1:0] tc_index;
wire [15:0] ex_action, tc_action;
wire [DATA_W-1:0] ex_data, tc_data;

pisa_exact_match #(.FAMILY(FAMILY), .WAYS(WAYS), .WAY_BITS(WAY_BITS), .KEY_BYTES(KEY_BYTES),
	.DATA_BYTES(DATA_BYTES)) u_exact (
	.clk(clk), .rst(rst),
	.s_key_data(key_data), .s_key_last(key_last),
	.s_key_valid(key_valid && !cfg_ternary),
	.s_key_ready(ex_key_ready),
	.w_way(we_way), .w_bucket(we_bucket), .w_row_valid(we_row_valid), .w_action(we_action),
	.w_key(we_key), .w_data(we_data), .w_valid(we_valid), .w_ready(we_ready),
	.m_hit(ex_hit), .m_too_long(ex_long), .m_way(ex_way), .m_bucket(ex_bucket),
	.m_action(ex_action), .m_data(ex_data), .m_valid(ex_valid),
	.m_ready(m_ready && due_any && !head_ternary)
);

pisa_ternary_match #(.FAMILY(FAMILY), .ENTRIES(ENTRIES), .KEY_BYTES(KEY_BYTES),
	.DATA_BYTES(DATA_BYTES), .CHUNK_BITS(CHUNK_BITS)) u_ternary (
	.clk(clk), .rst(rst),
	.s_key_data(key_data), .s_key_last(key_last),
	.s_key_valid(key_valid && cfg_ternary),
	.s_key_ready(tc_key_ready),
	.w_index(wt_index), .w_nbytes(wt_nbytes), .w_row_valid(wt_row_valid),
	.w_action(wt_action), .w_value(wt_value), .w_mask(wt_mask), .w_data(wt_data),
	.w_valid(wt_valid), .w_ready(wt_ready),
	.m_hit(tc_hit), .m_too_long(tc_long), .m_index(tc_index), .m_action(tc_action),
	.m_data(tc_data), .m_valid(tc_valid), .m_ready(m_ready && due_any && head_ternary)
);

// ---- the result due next ----
// the row indices with zeros above, cut to INDEX_W
wire [WAY_W+WAY_BITS+31:0] ex_index = {32'd0, ex_way, ex_bucket};
wire [IDX_W+31:0] tc_index_w = {32'd0, tc_index};
wire _unused_index = &{1'b0, ex_index[WAY_W+WAY_BITS+31:INDEX_W], tc_index_w[IDX_W+31:INDEX_W],
	1'b0};
assign m_valid = due_any && (head_ternary ? tc_valid : ex_valid);
assign m_ternary = head_ternary;
assign m_hit = head_ternary ? tc_hit : ex_hit;
assign m_too_long = head_ternary ? tc_long : ex_long;
assign m_index = head_ternary ? tc_index_w[INDEX_W-1:0] : ex_index[INDEX_W-1:0];
assign m_action = head_ternary ? tc_action : ex_action;
assign m_data = head_ternary ? tc_data : ex_data;

endmodule

`resetall
