// SPDX-License-Identifier: Apache-2.0
// tb_pisa_exact_match: pisa_exact_match against the lookups of lib/pisa_switch.h. The ops come
// from tests/stage/gen_exact_vectors (EXACT_VECTORS, its header gives the format): row writes
// and lookups in one ordered stream, each lookup with its expected result. Two phases:
//   1. every op in order, the source randomly idle between beats and the sink randomly not
//      ready (a quarter of the time each); every result is checked, in order, against the
//      vectors, and a result held while m_ready is low must not change;
//   2. throughput: BENCH lookups of the vectors' bench key (the last op, a key the table holds)
//      back to back, sink always ready; each must give the bench result, all within
//      BENCH x KB + 8 clocks from the first key byte to the last result.
// Prints PASSED TB_NAME (N ops, L lookups, H hits, bench: C clocks for BENCH lookups) or FAILED.
`default_nettype none

`ifndef TB_NAME
`define TB_NAME "tb_pisa_exact_match"
`endif
`ifndef EXACT_VECTORS
`define EXACT_VECTORS "build/sim/stage/pisa_exact_match.hex"
`endif
`ifndef WAYS
`define WAYS 2
`endif
`ifndef WAY_BITS
`define WAY_BITS 4
`endif
`ifndef KEY_BYTES
`define KEY_BYTES 6
`endif
`ifndef DATA_BYTES
`define DATA_BYTES 2
`endif

module tb_pisa_exact_match;

localparam WAYS = `WAYS, WAY_BITS = `WAY_BITS, KEY_BYTES = `KEY_BYTES, DATA_BYTES = `DATA_BYTES;
localparam WAY_W = WAYS > 1 ? $clog2(WAYS) : 1;
localparam MAX_OPS = 65536, NF = 9, BENCH = 200;

reg clk = 1'b0;
always #5 clk = !clk;
reg rst = 1'b1;

reg [7:0] s_key_data = 8'd0;
reg s_key_last = 1'b0, s_key_valid = 1'b0;
wire s_key_ready;
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
	.DATA_BYTES(DATA_BYTES)) dut (
	.clk(clk), .rst(rst),
	.s_key_data(s_key_data), .s_key_last(s_key_last), .s_key_valid(s_key_valid),
	.s_key_ready(s_key_ready),
	.w_way(w_way), .w_bucket(w_bucket), .w_row_valid(w_row_valid), .w_action(w_action),
	.w_key(w_key), .w_data(w_data), .w_valid(w_valid), .w_ready(w_ready),
	.m_hit(m_hit), .m_too_long(m_too_long), .m_way(m_way), .m_bucket(m_bucket),
	.m_action(m_action), .m_data(m_data), .m_valid(m_valid), .m_ready(m_ready)
);

// ---- expected results, in order ----
reg [63:0] exp_q [0:MAX_OPS*6-1];	// hit, too_long, way, bucket, action, data
integer q_in = 0, q_out = 0, lookups = 0, hits = 0;
integer seed = 32'h0e0ac7ed;
reg idle_ok = 1'b1;			// phase 1: random idle and back-pressure

// ---- the vectors (f, nops), fail, the held-result check, the key source, drain ----
`define TB_RESULT {m_hit, m_too_long, m_way, m_bucket, m_action, m_data}
`define TB_VECTORS `EXACT_VECTORS
`include "tb_stage_lookup.vh"

// the sink: random back-pressure in phase 1; checks each result against the queue
always @(posedge clk) begin
	if (m_valid && m_ready) begin
		if (q_out >= q_in) begin
			fail("a result without a lookup");
		end else begin
			if (m_hit !== exp_q[q_out * 6][0] || m_too_long !== exp_q[q_out * 6 + 1][0] ||
			    (m_hit && (m_way !== exp_q[q_out * 6 + 2][WAY_W-1:0] ||
			     m_bucket !== exp_q[q_out * 6 + 3][WAY_BITS-1:0])) ||
			    m_action !== exp_q[q_out * 6 + 4][15:0] ||
			    m_data !== exp_q[q_out * 6 + 5][8*DATA_BYTES-1:0]) begin
				errors = errors + 1;
				if (errors <= 10)
					$display("%0t: lookup %0d: got hit %0d long %0d way %0d bucket %0d action %h data %h, want %0d %0d %0d %0d %h %h",
						$time, q_out, m_hit, m_too_long, m_way, m_bucket, m_action, m_data,
						exp_q[q_out * 6], exp_q[q_out * 6 + 1], exp_q[q_out * 6 + 2],
						exp_q[q_out * 6 + 3], exp_q[q_out * 6 + 4], exp_q[q_out * 6 + 5]);
			end
			hits = hits + m_hit;
			q_out = q_out + 1;
		end
	end
	m_ready <= !idle_ok || ($random(seed) & 3) != 0;
end

// a lookup of key k's last n bytes (n > KEY_BYTES: 0xA5 bytes first, then all of k)
task send_key(input integer n, input [8*KEY_BYTES-1:0] k);
	integer j;
	begin
		for (j = n - 1; j >= 0; j = j - 1)
			send_byte(j >= KEY_BYTES ? 8'hA5 : k[8 * j +: 8], j == 0);
	end
endtask

task send_write(input integer op);
	begin
		idle;
		w_way <= f[op * NF + 1][WAY_W-1:0];
		w_bucket <= f[op * NF + 2][WAY_BITS-1:0];
		w_row_valid <= f[op * NF + 3][0];
		w_action <= f[op * NF + 4][15:0];
		w_key <= f[op * NF + 5][8*KEY_BYTES-1:0];
		w_data <= f[op * NF + 6][8*DATA_BYTES-1:0];
		w_valid <= 1'b1;
		@(posedge clk);
		while (!w_ready)
			@(posedge clk);
		w_valid <= 1'b0;
	end
endtask

// a lookup of op's key, its result queued
task send_lookup(input integer op);
	integer j;
	begin
		for (j = 0; j < 6; j = j + 1)
			exp_q[q_in * 6 + j] = f[op * NF + 3 + j];
		q_in = q_in + 1;
		lookups = lookups + 1;
		send_key(f[op * NF + 1], f[op * NF + 2][8*KEY_BYTES-1:0]);
	end
endtask

integer op, t0, kb, bench_op, bench_clocks;
initial begin
	repeat (4) @(posedge clk);
	rst <= 1'b0;
	@(posedge clk);
	// phase 1: the vectors
	bench_op = -1;
	for (op = 0; op < nops; op = op + 1) begin
		if (f[op * NF] == 64'd1)
			send_write(op);
		else
			send_lookup(op);
		if (f[op * NF] == 64'd3)
			bench_op = op;
	end
	drain;
	// phase 2: the bench key back to back, the sink always ready
	if (bench_op < 0) begin
		fail("no bench key in the vectors");
		bench_op = nops - 1;
	end
	kb = f[bench_op * NF + 1];
	idle_ok = 1'b0;
	@(posedge clk);
	t0 = $time;
	for (op = 0; op < BENCH; op = op + 1)
		send_lookup(bench_op);
	drain;
	bench_clocks = ($time - t0) / 10;
	if (bench_clocks > BENCH * kb + 8)
		fail("phase 2: slower than a lookup every KB clocks");
	if (errors == 0)
		$display("PASSED %s (%0d ops, %0d lookups, %0d hits; bench: %0d clocks for %0d lookups of %0d bytes)",
			`TB_NAME, nops, lookups, hits, bench_clocks, BENCH, kb);
	else
		$display("FAILED %s: %0d errors (see above)", `TB_NAME, errors);
	$finish;
end

endmodule

`resetall
