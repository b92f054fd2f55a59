// SPDX-License-Identifier: Apache-2.0
// tb_pisa_match: a stage's match for an exact table, pisa_key_gather's key bytes straight into
// pisa_exact_match, against tests/stage/gen_match_vectors (MATCH_VECTORS, its header gives the
// format): the table's rows are written, then each PHV is put in the testbench's memory (read
// like a pisa_ram port) as soon as the gatherer has finished the one before, and its result,
// checked in order, must be the row lib's key layout and way hashes find. The sink is randomly
// not ready a quarter of the time and a held result must not change. Prints PASSED TB_NAME
// (N lookups, H hits, C clocks) or FAILED.
`default_nettype none

`ifndef TB_NAME
`define TB_NAME "tb_pisa_match"
`endif
`ifndef MATCH_VECTORS
`define MATCH_VECTORS "build/sim/stage/pisa_match.hex"
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
`ifndef DATA_BYTES
`define DATA_BYTES 2
`endif

module tb_pisa_match;

localparam PHV_BYTES = `PHV_BYTES, FIELDS = `FIELDS, KEY_BYTES = `KEY_BYTES, WAYS = `WAYS,
	WAY_BITS = `WAY_BITS, DATA_BYTES = `DATA_BYTES;
localparam PA = $clog2(PHV_BYTES), FI_W = $clog2(FIELDS + 1);
localparam WAY_W = WAYS > 1 ? $clog2(WAYS) : 1;
localparam MAX_CASES = 4096;

reg clk = 1'b0;
always #5 clk = !clk;
reg rst = 1'b1;

// the key gatherer, on the testbench's PHV memory
reg [FI_W-1:0] cfg_nfields = 0;
reg [16*FIELDS-1:0] cfg_off = 0;
reg [7*FIELDS-1:0] cfg_width = 0;
reg s_start_valid = 1'b0;
wire s_start_ready;
wire [PA-1:0] phv_raddr;
reg [7:0] mem [0:PHV_BYTES-1];
wire [7:0] key_data;
wire key_last, key_valid, key_ready;

pisa_key_gather #(.PHV_BYTES(PHV_BYTES), .FIELDS(FIELDS), .KEY_BYTES(KEY_BYTES)) u_gather (
	.clk(clk), .rst(rst), .cfg_nfields(cfg_nfields), .cfg_off(cfg_off),
	.cfg_width(cfg_width), .s_start_valid(s_start_valid), .s_start_ready(s_start_ready),
	.phv_raddr(phv_raddr), .phv_rdata(mem[phv_raddr]), .m_key_data(key_data),
	.m_key_last(key_last), .m_key_valid(key_valid), .m_key_ready(key_ready)
);

// the lookup
reg [WAY_W-1:0] w_way = 0;
reg [WAY_BITS-1:0] w_bucket = 0;
reg w_row_valid = 1'b0;
reg [15:0] w_action = 16'd0;
reg [8*KEY_BYTES-1:0] w_key = 0;
reg [8*DATA_BYTES-1:0] w_data = 0;
reg w_valid = 1'b0;
wire w_ready;
wire m_hit, m_too_long, m_valid;
wire [WAY_W-1:0] m_way;
wire [WAY_BITS-1:0] m_bucket;
wire [15:0] m_action;
wire [8*DATA_BYTES-1:0] m_data;
reg m_ready = 1'b1;

pisa_exact_match #(.WAYS(WAYS), .WAY_BITS(WAY_BITS), .KEY_BYTES(KEY_BYTES),
	.DATA_BYTES(DATA_BYTES)) u_match (
	.clk(clk), .rst(rst),
	.s_key_data(key_data), .s_key_last(key_last), .s_key_valid(key_valid),
	.s_key_ready(key_ready),
	.w_way(w_way), .w_bucket(w_bucket), .w_row_valid(w_row_valid), .w_action(w_action),
	.w_key(w_key), .w_data(w_data), .w_valid(w_valid), .w_ready(w_ready),
	.m_hit(m_hit), .m_too_long(m_too_long), .m_way(m_way), .m_bucket(m_bucket),
	.m_action(m_action), .m_data(m_data), .m_valid(m_valid), .m_ready(m_ready)
);

// ---- expected results, in order: {hit, way, bucket, action, data} ----
reg [63:0] exp_q [0:MAX_CASES*5-1];
integer q_in = 0, q_out = 0, errors = 0, hits = 0, seed = 32'h6d617463;

task fail(input [8*80-1:0] why);
	begin
		errors = errors + 1;
		if (errors <= 10)
			$display("%0t: %0s", $time, why);
	end
endtask

reg held = 1'b0;
reg [63:0] held_v;
always @(posedge clk) begin
	if (held && !(m_valid && held_v == {m_hit, m_too_long, m_way, m_bucket, m_action, m_data}))
		fail("a result changed (or left) while m_ready was low");
	held <= m_valid && !m_ready;
	held_v <= {m_hit, m_too_long, m_way, m_bucket, m_action, m_data};
	if (m_valid && m_ready) begin
		if (q_out >= q_in) begin
			fail("a result without a lookup");
		end else begin
			if (m_hit !== exp_q[q_out * 5][0] || m_too_long !== 1'b0 ||
			    (m_hit && (m_way !== exp_q[q_out * 5 + 1][WAY_W-1:0] ||
			     m_bucket !== exp_q[q_out * 5 + 2][WAY_BITS-1:0])) ||
			    m_action !== exp_q[q_out * 5 + 3][15:0] ||
			    m_data !== exp_q[q_out * 5 + 4][8*DATA_BYTES-1:0]) begin
				errors = errors + 1;
				if (errors <= 10)
					$display("%0t: lookup %0d: got hit %0d way %0d bucket %0d action %h data %h, want %0d %0d %0d %h %h",
						$time, q_out, m_hit, m_way, m_bucket, m_action, m_data,
						exp_q[q_out * 5], exp_q[q_out * 5 + 1], exp_q[q_out * 5 + 2],
						exp_q[q_out * 5 + 3], exp_q[q_out * 5 + 4]);
			end
			hits = hits + m_hit;
			q_out = q_out + 1;
		end
	end
	m_ready <= ($random(seed) & 3) != 0;
end

integer fd, r, i, n, ncases, c, t0;
reg [63:0] v [0:5];
reg [63:0] x;
initial begin
	fd = $fopen(`MATCH_VECTORS, "r");
	if (fd == 0) begin
		$display("FAILED %s: cannot open %s", `TB_NAME, `MATCH_VECTORS);
		$finish;
	end
	repeat (3) @(posedge clk);
	rst <= 1'b0;
	// the key's fields
	r = $fscanf(fd, "%h", x);
	cfg_nfields <= x[FI_W-1:0];
	n = x;
	for (i = 0; i < n; i = i + 1) begin
		r = $fscanf(fd, "%h %h", v[0], v[1]);
		cfg_off[16 * i +: 16] <= v[0][15:0];
		cfg_width[7 * i +: 7] <= v[1][6:0];
	end
	// the rows
	r = $fscanf(fd, "%h", x);
	n = x;
	for (i = 0; i < n; i = i + 1) begin
		r = $fscanf(fd, "%h %h %h %h %h %h", v[0], v[1], v[2], v[3], v[4], v[5]);
		w_way <= v[0][WAY_W-1:0];
		w_bucket <= v[1][WAY_BITS-1:0];
		w_row_valid <= v[2][0];
		w_action <= v[3][15:0];
		w_key <= v[4][8*KEY_BYTES-1:0];
		w_data <= v[5][8*DATA_BYTES-1:0];
		w_valid <= 1'b1;
		@(posedge clk);
		while (!w_ready)
			@(posedge clk);
		w_valid <= 1'b0;
	end
	// the lookups: each PHV once the gatherer is done with the one before
	r = $fscanf(fd, "%h", x);
	ncases = x;
	t0 = $time;
	for (c = 0; c < ncases; c = c + 1) begin
		for (i = 0; i < PHV_BYTES; i = i + 1) begin
			r = $fscanf(fd, "%h", x);
			mem[i] = x[7:0];
		end
		r = $fscanf(fd, "%h %h %h %h %h", v[0], v[1], v[2], v[3], v[4]);
		for (i = 0; i < 5; i = i + 1)
			exp_q[q_in * 5 + i] = v[i];
		q_in = q_in + 1;
		s_start_valid <= 1'b1;
		@(posedge clk);
		s_start_valid <= 1'b0;
		@(posedge clk);
		while (!s_start_ready)
			@(posedge clk);
	end
	$fclose(fd);
	n = 0;
	while (q_out < q_in && n < 1000) begin
		@(posedge clk);
		n = n + 1;
	end
	if (q_out != q_in)
		fail("results missing");
	if (errors == 0)
		$display("PASSED %s (%0d lookups, %0d hits, %0d clocks)", `TB_NAME, ncases, hits,
			($time - t0) / 10);
	else
		$display("FAILED %s: %0d errors (see above)", `TB_NAME, errors);
	$finish;
end

endmodule

`resetall
