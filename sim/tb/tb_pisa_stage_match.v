// SPDX-License-Identifier: Apache-2.0
// tb_pisa_stage_match: a stage's match from the PHV to the row, pisa_stage_match (the key
// gatherer into the exact or the ternary unit), against tests/stage/gen_match_vectors
// (MATCH_VECTORS, its header gives the format): both tables' rows are written, then each PHV is
// offered with the field list of the table it looks in (exact or ternary, at random): one in
// the same table as the last at once, held until the stage takes it, one in the other table
// once the stage is free (its fields change); its result, checked in order, must be the row
// lib's key layout, way hashes and lookup rules find.
// The exact unit answers sooner than the ternary one; the sink is randomly not ready a quarter
// of the time and now and then for up to 31 clocks, so results pile up in both units and wait
// for their turn (the testbench fails if none ever does); a held result must not change. Prints
// PASSED TB_NAME (N lookups, H hits, C clocks) or FAILED.
`default_nettype none

`ifndef TB_NAME
`define TB_NAME "tb_pisa_stage_match"
`endif
`ifndef MATCH_VECTORS
`define MATCH_VECTORS "build/sim/stage/pisa_stage_match.hex"
`endif
`ifndef PHV_BYTES
`define PHV_BYTES 64
`endif
`ifndef FIELDS
`define FIELDS 4
`endif
`ifndef KEY_BYTES
`define KEY_BYTES 6
`endif
`ifndef WAYS
`define WAYS 2
`endif
`ifndef WAY_BITS
`define WAY_BITS 4
`endif
`ifndef ENTRIES
`define ENTRIES 16
`endif
`ifndef CHUNK_BITS
`define CHUNK_BITS 4
`endif
`ifndef DATA_BYTES
`define DATA_BYTES 2
`endif

module tb_pisa_stage_match;

localparam PHV_BYTES = `PHV_BYTES, FIELDS = `FIELDS, KEY_BYTES = `KEY_BYTES, WAYS = `WAYS,
	WAY_BITS = `WAY_BITS, ENTRIES = `ENTRIES, CHUNK_BITS = `CHUNK_BITS,
	DATA_BYTES = `DATA_BYTES;
localparam PA = $clog2(PHV_BYTES), FI_W = $clog2(FIELDS + 1);
localparam WAY_W = WAYS > 1 ? $clog2(WAYS) : 1, IDX_W = $clog2(ENTRIES);
localparam NB_W = $clog2(KEY_BYTES + 1);
localparam INDEX_W = WAY_W + WAY_BITS > IDX_W ? WAY_W + WAY_BITS : IDX_W;
localparam MAX_CASES = 4096;

reg clk = 1'b0;
always #5 clk = !clk;
reg rst = 1'b1;

// the lookups, on the testbench's PHV memory
reg cfg_ternary = 1'b0;
reg [FI_W-1:0] cfg_nfields = 0;
reg [16*FIELDS-1:0] cfg_off = 0;
reg [7*FIELDS-1:0] cfg_width = 0;
reg s_start_valid = 1'b0;
wire s_start_ready;
wire [PA-1:0] phv_raddr;
// two PHVs: the one being read (bank) and the next lookup's, which a lookup in the same table
// offers while the last one's key is still being built (its fields are the same, so they may)
reg [7:0] mem [0:2*PHV_BYTES-1];
reg bank = 1'b0;
always @(posedge clk)
	if (s_start_valid && s_start_ready)
		bank <= !bank;
// the rows
`include "tb_stage_rows.vh"
wire we_ready, wt_ready;
// the results
wire m_ternary, m_hit, m_too_long, m_valid;
wire [INDEX_W-1:0] m_index;
wire [15:0] m_action;
wire [8*DATA_BYTES-1:0] m_data;
reg m_ready = 1'b1;

pisa_stage_match #(.PHV_BYTES(PHV_BYTES), .FIELDS(FIELDS), .KEY_BYTES(KEY_BYTES),
	.WAYS(WAYS), .WAY_BITS(WAY_BITS), .ENTRIES(ENTRIES), .CHUNK_BITS(CHUNK_BITS),
	.DATA_BYTES(DATA_BYTES)) dut (
	.clk(clk), .rst(rst),
	.cfg_ternary(cfg_ternary), .cfg_nfields(cfg_nfields), .cfg_off(cfg_off),
	.cfg_width(cfg_width), .s_start_valid(s_start_valid), .s_start_ready(s_start_ready),
	.phv_raddr(phv_raddr), .phv_rdata(mem[{bank, phv_raddr}]),
	.we_way(we_way), .we_bucket(we_bucket), .we_row_valid(w_row_valid), .we_action(w_action),
	.we_key(w_key), .we_data(w_data), .we_valid(we_valid), .we_ready(we_ready),
	.wt_index(wt_index), .wt_nbytes(wt_nbytes), .wt_row_valid(w_row_valid),
	.wt_action(w_action), .wt_value(w_key), .wt_mask(w_mask), .wt_data(w_data),
	.wt_valid(wt_valid), .wt_ready(wt_ready),
	.m_ternary(m_ternary), .m_hit(m_hit), .m_too_long(m_too_long), .m_index(m_index),
	.m_action(m_action), .m_data(m_data), .m_valid(m_valid), .m_ready(m_ready)
);

// ---- expected results, in order: {ternary, hit, index, action, data} ----
reg [63:0] exp_q [0:MAX_CASES*5-1];
integer q_in = 0, q_out = 0, hits = 0, waited = 0, burst = 0, seed = 32'h6d617463;

// fail, the held-result check, drain
`define TB_RESULT {m_ternary, m_hit, m_too_long, m_index, m_action, m_data}
`include "tb_stage_check.vh"

always @(posedge clk) begin
	// a result waiting for the other unit's
	if (dut.due_any && (dut.head_ternary ? dut.ex_valid : dut.tc_valid))
		waited = waited + 1;
	if (m_valid && m_ready) begin
		if (q_out >= q_in) begin
			fail("a result without a lookup");
		end else begin
			if (m_ternary !== exp_q[q_out * 5][0] || m_hit !== exp_q[q_out * 5 + 1][0] ||
			    m_too_long !== 1'b0 ||
			    (m_hit && m_index !== exp_q[q_out * 5 + 2][INDEX_W-1:0]) ||
			    m_action !== exp_q[q_out * 5 + 3][15:0] ||
			    m_data !== exp_q[q_out * 5 + 4][8*DATA_BYTES-1:0]) begin
				errors = errors + 1;
				if (errors <= 10)
					$display("%0t: lookup %0d: got ternary %0d hit %0d index %0d action %h data %h, want %0d %0d %0d %h %h",
						$time, q_out, m_ternary, m_hit, m_index, m_action, m_data,
						exp_q[q_out * 5], exp_q[q_out * 5 + 1], exp_q[q_out * 5 + 2],
						exp_q[q_out * 5 + 3], exp_q[q_out * 5 + 4]);
			end
			hits = hits + m_hit;
			q_out = q_out + 1;
		end
	end
	// not ready a quarter of the time, and now and then for up to 31 clocks in a row (the
	// units' results pile up: one waits for the other's)
	if (burst != 0)
		burst = burst - 1;
	else if (($random(seed) & 63) == 0)
		burst = $random(seed) & 31;
	m_ready <= burst == 0 && ($random(seed) & 3) != 0;
end

// a stage that stops taking lookups or giving results must not hang the test
initial begin
	#10000000;
	$display("FAILED %s: still running after 1,000,000 clocks (%0d of %0d results)", `TB_NAME,
		q_out, q_in);
	$finish;
end

integer fd, r, i, n, t, ncases, c, t0;
reg [63:0] v [0:6];
reg [63:0] x;
// the two tables' key fields: the exact table's ([0]) and the ternary table's ([1])
reg [FI_W-1:0] nfields [0:1];
reg [16*FIELDS-1:0] offs [0:1];
reg [7*FIELDS-1:0] widths [0:1];
initial begin
	fd = $fopen(`MATCH_VECTORS, "r");
	if (fd == 0) begin
		$display("FAILED %s: cannot open %s", `TB_NAME, `MATCH_VECTORS);
		$finish;
	end
	repeat (3) @(posedge clk);
	rst <= 1'b0;
	for (t = 0; t < 2; t = t + 1) begin
		r = $fscanf(fd, "%h", x);
		nfields[t] = x[FI_W-1:0];
		offs[t] = 0;
		widths[t] = 0;
		n = x;
		for (i = 0; i < n; i = i + 1) begin
			r = $fscanf(fd, "%h %h", v[0], v[1]);
			offs[t][16 * i +: 16] = v[0][15:0];
			widths[t][7 * i +: 7] = v[1][6:0];
		end
	end
	// the exact rows
	r = $fscanf(fd, "%h", x);
	n = x;
	for (i = 0; i < n; i = i + 1) begin
		r = $fscanf(fd, "%h %h %h %h %h %h", v[0], v[1], v[2], v[3], v[4], v[5]);
		write_exact_row(v[0], v[1], v[2], v[3], v[4], v[5]);
	end
	// the ternary rows
	r = $fscanf(fd, "%h", x);
	n = x;
	for (i = 0; i < n; i = i + 1) begin
		r = $fscanf(fd, "%h %h %h %h %h %h %h", v[0], v[1], v[2], v[3], v[4], v[5], v[6]);
		write_ternary_row(v[0], v[1], v[2], v[3], v[4], v[5], v[6]);
	end
	// the lookups: each PHV and its table's fields once the stage takes a new lookup
	r = $fscanf(fd, "%h", x);
	ncases = x;
	t0 = $time;
	for (c = 0; c < ncases; c = c + 1) begin
		// (s_start_ready comes from registers: between edges it says what the next edge does)
		@(negedge clk);
		r = $fscanf(fd, "%h", x);
		t = x[0];
		for (i = 0; i < PHV_BYTES; i = i + 1) begin
			r = $fscanf(fd, "%h", x);
			mem[{!bank, i[PA-1:0]}] = x[7:0];
		end
		r = $fscanf(fd, "%h %h %h %h", v[1], v[2], v[3], v[4]);
		exp_q[q_in * 5] = t;
		for (i = 1; i < 5; i = i + 1)
			exp_q[q_in * 5 + i] = v[i];
		q_in = q_in + 1;
		if (t[0] != cfg_ternary)
			while (!s_start_ready)
				@(negedge clk);
		cfg_ternary = t[0];
		cfg_nfields = nfields[t];
		cfg_off = offs[t];
		cfg_width = widths[t];
		s_start_valid = 1'b1;
		while (!s_start_ready)
			@(negedge clk);
		@(posedge clk);
		s_start_valid <= 1'b0;
	end
	$fclose(fd);
	drain;
	if (waited == 0)
		fail("no result ever waited for the other unit's (the test lost its point)");
	if (errors == 0)
		$display("PASSED %s (%0d lookups, %0d hits, %0d clocks; results waited for the other unit's in %0d)",
			`TB_NAME, ncases, hits, ($time - t0) / 10, waited);
	else
		$display("FAILED %s: %0d errors (see above)", `TB_NAME, errors);
	$finish;
end

endmodule

`resetall
