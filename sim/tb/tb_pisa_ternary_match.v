// SPDX-License-Identifier: Apache-2.0
// tb_pisa_ternary_match: pisa_ternary_match against the TCAM lookups of lib/pisa_switch.h. The
// ops come from tests/stage/gen_ternary_vectors (TERNARY_VECTORS, its header gives the format):
// row writes and lookups in one ordered stream, each lookup with its expected result. Phases:
//   1. every op in order, the source randomly idle between beats and the sink randomly not
//      ready (a quarter of the time each); every result is checked, in order, against the
//      vectors, and a result held while m_ready is low must not change. A write followed by a
//      lookup is sent with that lookup's first byte (the write at once, the byte maybe idle
//      first, as any): the write must be taken first (the vectors expect the lookup to see it);
//   2. the bench row written again, then its key looked up, timed: the write must take at most
//      KB x 2^CHUNK_BITS + 16 clocks until the lookup's result;
//   3. throughput: BENCH lookups of the bench key back to back, sink always ready; each must
//      give the bench result, all within BENCH x KB + 16 clocks.
// Prints PASSED TB_NAME (N ops, L lookups, H hits, row write: W clocks, bench: C clocks for
// BENCH lookups) or FAILED.
`default_nettype none

`ifndef TB_NAME
`define TB_NAME "tb_pisa_ternary_match"
`endif
`ifndef TERNARY_VECTORS
`define TERNARY_VECTORS "build/sim/stage/pisa_ternary_match.hex"
`endif
`ifndef ENTRIES
`define ENTRIES 32
`endif
`ifndef KEY_BYTES
`define KEY_BYTES 4
`endif
`ifndef DATA_BYTES
`define DATA_BYTES 2
`endif
`ifndef CHUNK_BITS
`define CHUNK_BITS 8
`endif

module tb_pisa_ternary_match;

localparam ENTRIES = `ENTRIES, KEY_BYTES = `KEY_BYTES, DATA_BYTES = `DATA_BYTES;
localparam CHUNK_BITS = `CHUNK_BITS;
localparam IDX_W = $clog2(ENTRIES), NB_W = $clog2(KEY_BYTES + 1);
localparam MAX_OPS = 65536, NF = 8, BENCH = 200;

reg clk = 1'b0;
always #5 clk = !clk;
reg rst = 1'b1;

reg [7:0] s_key_data = 8'd0;
reg s_key_last = 1'b0, s_key_valid = 1'b0;
wire s_key_ready;
reg [IDX_W-1:0] w_index = 0;
reg [NB_W-1:0] w_nbytes = 0;
reg w_row_valid = 1'b0;
reg [15:0] w_action = 16'd0;
reg [8*KEY_BYTES-1:0] w_value = 0, w_mask = 0;
reg [8*DATA_BYTES-1:0] w_data = 0;
reg w_valid = 1'b0;
wire w_ready;
wire m_hit, m_too_long, m_valid;
wire [IDX_W-1:0] m_index;
wire [15:0] m_action;
wire [8*DATA_BYTES-1:0] m_data;
reg m_ready = 1'b1;

pisa_ternary_match #(.ENTRIES(ENTRIES), .KEY_BYTES(KEY_BYTES), .DATA_BYTES(DATA_BYTES),
	.CHUNK_BITS(CHUNK_BITS)) dut (
	.clk(clk), .rst(rst),
	.s_key_data(s_key_data), .s_key_last(s_key_last), .s_key_valid(s_key_valid),
	.s_key_ready(s_key_ready),
	.w_index(w_index), .w_nbytes(w_nbytes), .w_row_valid(w_row_valid), .w_action(w_action),
	.w_value(w_value), .w_mask(w_mask), .w_data(w_data), .w_valid(w_valid), .w_ready(w_ready),
	.m_hit(m_hit), .m_too_long(m_too_long), .m_index(m_index), .m_action(m_action),
	.m_data(m_data), .m_valid(m_valid), .m_ready(m_ready)
);

// ---- expected results, in order ----
reg [63:0] exp_q [0:MAX_OPS*5-1];	// hit, too_long, index, action, data
integer q_in = 0, q_out = 0, lookups = 0, hits = 0;
integer seed = 32'h7e4a5a1d;
reg idle_ok = 1'b1;			// phase 1: random idle and back-pressure

// ---- the vectors (f, nops), fail, the held-result check, the key source, drain ----
`define TB_RESULT {m_hit, m_too_long, m_index, m_action, m_data}
`define TB_VECTORS `TERNARY_VECTORS
`include "tb_stage_lookup.vh"

// the sink: random back-pressure in phase 1; checks each result against the queue
always @(posedge clk) begin
	if (m_valid && m_ready) begin
		if (q_out >= q_in) begin
			fail("a result without a lookup");
		end else begin
			if (m_hit !== exp_q[q_out * 5][0] || m_too_long !== exp_q[q_out * 5 + 1][0] ||
			    m_index !== exp_q[q_out * 5 + 2][IDX_W-1:0] ||
			    m_action !== exp_q[q_out * 5 + 3][15:0] ||
			    m_data !== exp_q[q_out * 5 + 4][8*DATA_BYTES-1:0]) begin
				errors = errors + 1;
				if (errors <= 10)
					$display("%0t: lookup %0d: got hit %0d long %0d index %0d action %h data %h, want %0d %0d %0d %h %h",
						$time, q_out, m_hit, m_too_long, m_index, m_action, m_data,
						exp_q[q_out * 5], exp_q[q_out * 5 + 1], exp_q[q_out * 5 + 2],
						exp_q[q_out * 5 + 3], exp_q[q_out * 5 + 4]);
			end
			hits = hits + m_hit;
			q_out = q_out + 1;
		end
	end
	m_ready <= !idle_ok || ($random(seed) & 3) != 0;
end

// when a write and a key's first byte are taken
integer w_taken_at = 0, key_first_at = 0;
reg in_key = 1'b0;
always @(posedge clk) begin
	if (w_valid && w_ready)
		w_taken_at = $time;
	if (s_key_valid && s_key_ready) begin
		if (!in_key)
			key_first_at = $time;
		in_key = !s_key_last;
	end
end

// a lookup of op's key, its result queued (n > KEY_BYTES: 0xA5 bytes first, then all of it)
task send_lookup(input integer op);
	integer j, n;
	reg [8*KEY_BYTES-1:0] k;
	begin
		for (j = 0; j < 5; j = j + 1)
			exp_q[q_in * 5 + j] = f[op * NF + 3 + j];
		q_in = q_in + 1;
		lookups = lookups + 1;
		n = f[op * NF + 1];
		k = f[op * NF + 2][8*KEY_BYTES-1:0];
		for (j = n - 1; j >= 0; j = j - 1)
			send_byte(j >= KEY_BYTES ? 8'hA5 : k[8 * j +: 8], j == 0);
	end
endtask

task send_write(input integer op, input may_idle);
	begin
		if (may_idle)
			idle;
		w_index <= f[op * NF + 1][IDX_W-1:0];
		w_nbytes <= f[op * NF + 2][NB_W-1:0];
		w_row_valid <= f[op * NF + 3][0];
		w_action <= f[op * NF + 4][15:0];
		w_value <= f[op * NF + 5][8*KEY_BYTES-1:0];
		w_mask <= f[op * NF + 6][8*KEY_BYTES-1:0];
		w_data <= f[op * NF + 7][8*DATA_BYTES-1:0];
		w_valid <= 1'b1;
		@(posedge clk);
		while (!w_ready)
			@(posedge clk);
		w_valid <= 1'b0;
	end
endtask

integer op, t0, kb, bench_row, bench_op, write_clocks, bench_clocks, raced = 0;
initial begin
	repeat (4) @(posedge clk);
	rst <= 1'b0;
	@(posedge clk);
	// phase 1: the vectors
	bench_row = -1;
	bench_op = -1;
	op = 0;
	while (op < nops) begin
		if (f[op * NF] == 64'd3) begin
			bench_op = op;
			send_lookup(op);
			op = op + 1;
		end else if (f[op * NF] != 64'd2 && op + 1 < nops && f[(op + 1) * NF] == 64'd2) begin
			// a write and the next lookup at once: the write goes first
			if (f[op * NF] == 64'd4)
				bench_row = op;
			fork
				send_write(op, 1'b0);
				send_lookup(op + 1);
			join
			if (key_first_at <= w_taken_at)
				fail("a key started while a write waited");
			raced = raced + 1;
			op = op + 2;
		end else if (f[op * NF] != 64'd2) begin
			if (f[op * NF] == 64'd4)
				bench_row = op;
			send_write(op, 1'b1);
			op = op + 1;
		end else begin
			send_lookup(op);
			op = op + 1;
		end
	end
	drain;
	if (bench_row < 0 || bench_op < 0)
		fail("no bench row or key in the vectors");
	// phase 2: the bench row written again, then its key: how long the write stops lookups
	idle_ok = 1'b0;
	kb = f[bench_op * NF + 1];
	@(posedge clk);
	t0 = $time;
	send_write(bench_row, 1'b0);
	send_lookup(bench_op);
	drain;
	write_clocks = ($time - t0) / 10;
	if (write_clocks > (kb << CHUNK_BITS) + 16)
		fail("phase 2: a row write took longer than KB x 2^CHUNK_BITS + 16 clocks");
	// phase 3: the bench key back to back
	@(posedge clk);
	t0 = $time;
	for (op = 0; op < BENCH; op = op + 1)
		send_lookup(bench_op);
	drain;
	bench_clocks = ($time - t0) / 10;
	if (bench_clocks > BENCH * kb + 16)
		fail("phase 3: slower than a lookup every KB clocks");
	if (errors == 0)
		$display("PASSED %s (%0d ops, %0d lookups, %0d hits, %0d writes raced a key; row write of a %0d-byte key: %0d clocks; bench: %0d clocks for %0d lookups)",
			`TB_NAME, nops, lookups, hits, raced, kb, write_clocks, bench_clocks, BENCH);
	else
		$display("FAILED %s: %0d errors (see above)", `TB_NAME, errors);
	$finish;
end

endmodule

`resetall
