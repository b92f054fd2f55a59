// SPDX-License-Identifier: Apache-2.0
// tb_pisa_key_gather: pisa_key_gather against the keys tests/stage/gen_key_vectors builds with
// lib's bit functions (KEY_VECTORS, its header gives the format). Each case loads its PHV into
// the testbench's memory (read like a pisa_ram port: the byte at the address register, the
// clock after), sets the fields, starts, and checks every key byte and m_key_last. Phase 1:
// every case with a random delay before the start and the sink randomly not ready (a quarter
// of the time), a byte held while m_key_ready is low must not change; phase 2: the cases again
// with the sink always ready, each taking at most its pieces + 5 clocks from start to last
// byte; phase 3: 500 random configurations, most out of bounds (widths 0 .. 127, any offset,
// any field count, keys longer than KEY_BYTES), must each end. Prints PASSED TB_NAME (N keys, B bytes) or FAILED.
`default_nettype none

`ifndef TB_NAME
`define TB_NAME "tb_pisa_key_gather"
`endif
`ifndef KEY_VECTORS
`define KEY_VECTORS "build/sim/stage/pisa_key_gather.hex"
`endif
`ifndef PHV_BYTES
`define PHV_BYTES 64
`endif
`ifndef FIELDS
`define FIELDS 4
`endif
`ifndef KEY_BYTES
`define KEY_BYTES 8
`endif

module tb_pisa_key_gather;

localparam PHV_BYTES = `PHV_BYTES, FIELDS = `FIELDS, KEY_BYTES = `KEY_BYTES;
localparam PA = $clog2(PHV_BYTES), FI_W = $clog2(FIELDS + 1);
localparam MAX_CASES = 4096;

reg clk = 1'b0;
always #5 clk = !clk;
reg rst = 1'b1;

reg [FI_W-1:0] cfg_nfields = 0;
reg [16*FIELDS-1:0] cfg_off = 0;
reg [7*FIELDS-1:0] cfg_width = 0;
reg s_start_valid = 1'b0;
wire s_start_ready;
wire [PA-1:0] phv_raddr;
reg [7:0] mem [0:PHV_BYTES-1];
wire [7:0] phv_rdata = mem[phv_raddr];
wire [7:0] m_key_data;
wire m_key_last, m_key_valid;
reg m_key_ready = 1'b1;

pisa_key_gather #(.PHV_BYTES(PHV_BYTES), .FIELDS(FIELDS), .KEY_BYTES(KEY_BYTES)) dut (
	.clk(clk), .rst(rst), .cfg_nfields(cfg_nfields), .cfg_off(cfg_off),
	.cfg_width(cfg_width), .s_start_valid(s_start_valid), .s_start_ready(s_start_ready),
	.phv_raddr(phv_raddr), .phv_rdata(phv_rdata), .m_key_data(m_key_data),
	.m_key_last(m_key_last), .m_key_valid(m_key_valid), .m_key_ready(m_key_ready)
);

// ---- the cases, read once ----
reg [15:0] c_n [0:MAX_CASES-1];
reg [15:0] c_off [0:MAX_CASES*FIELDS-1];
reg [6:0] c_w [0:MAX_CASES*FIELDS-1];
reg [7:0] c_phv [0:MAX_CASES*PHV_BYTES-1];
reg [15:0] c_pieces [0:MAX_CASES-1];
reg [15:0] c_kb [0:MAX_CASES-1];
reg [7:0] c_key [0:MAX_CASES*KEY_BYTES-1];
integer ncases, fd, r, i, j;
reg [31:0] v, v2;
initial begin
	fd = $fopen(`KEY_VECTORS, "r");
	if (fd == 0) begin
		$display("FAILED %s: cannot open %s", `TB_NAME, `KEY_VECTORS);
		$finish;
	end
	ncases = 0;
	r = $fscanf(fd, "%h", v);
	while (r == 1 && v != 32'hffff && ncases < MAX_CASES) begin
		c_n[ncases] = v[15:0];
		for (i = 0; i < v; i = i + 1) begin
			r = $fscanf(fd, "%h %h", v2, j);
			c_off[ncases * FIELDS + i] = v2[15:0];
			c_w[ncases * FIELDS + i] = j[6:0];
		end
		for (i = 0; i < PHV_BYTES; i = i + 1) begin
			r = $fscanf(fd, "%h", v2);
			c_phv[ncases * PHV_BYTES + i] = v2[7:0];
		end
		r = $fscanf(fd, "%h", v2);
		c_pieces[ncases] = v2[15:0];
		r = $fscanf(fd, "%h", v2);
		c_kb[ncases] = v2[15:0];
		for (i = 0; i < c_kb[ncases]; i = i + 1) begin
			r = $fscanf(fd, "%h", v2);
			c_key[ncases * KEY_BYTES + i] = v2[7:0];
		end
		ncases = ncases + 1;
		r = $fscanf(fd, "%h", v);
	end
	$fclose(fd);
end

integer errors = 0, nbytes = 0, seed = 32'h6b657973;
reg random_sink = 1'b1;
reg bad_cfg = 1'b0;		// phase 3: the bytes are not checked

task fail(input [8*80-1:0] why);
	begin
		errors = errors + 1;
		if (errors <= 10)
			$display("%0t: %0s", $time, why);
	end
endtask

// the sink: checks each byte of the current case in order
integer cur = 0, got = 0;
reg held = 1'b0;
reg [8:0] held_v;
always @(posedge clk) begin
	if (held && !(m_key_valid && held_v == {m_key_last, m_key_data}))
		fail("a key byte changed (or left) while m_key_ready was low");
	held <= m_key_valid && !m_key_ready;
	held_v <= {m_key_last, m_key_data};
	if (m_key_valid && m_key_ready && !bad_cfg) begin
		if (got >= c_kb[cur]) begin
			fail("a key byte too many");
		end else if (m_key_data !== c_key[cur * KEY_BYTES + got] ||
			     m_key_last !== (got + 1 == c_kb[cur])) begin
			errors = errors + 1;
			if (errors <= 10)
				$display("%0t: key %0d byte %0d: got %h last %0d, want %h last %0d", $time,
					cur, got, m_key_data, m_key_last, c_key[cur * KEY_BYTES + got],
					got + 1 == c_kb[cur]);
		end
		got = got + 1;
		nbytes = nbytes + 1;
	end
	m_key_ready <= !random_sink || ($random(seed) & 3) != 0;
end

// a gatherer that never finishes a key must not hang the test
initial begin
	#(100 * MAX_CASES * (KEY_BYTES + 8) * 10);
	$display("FAILED %s: timeout (key %0d, %0d of its bytes)", `TB_NAME, cur, got);
	$finish;
end

// offers a start until it is taken
task start;
	begin
		s_start_valid <= 1'b1;
		@(posedge clk);
		while (!s_start_ready)
			@(posedge clk);
		s_start_valid <= 1'b0;
	end
endtask

integer pass, clocks;
initial begin
	repeat (3) @(posedge clk);
	rst <= 1'b0;
	for (pass = 1; pass <= 2; pass = pass + 1) begin
		random_sink = pass == 1;
		for (cur = 0; cur < ncases; cur = cur + 1) begin
			for (i = 0; i < PHV_BYTES; i = i + 1)
				mem[i] = c_phv[cur * PHV_BYTES + i];
			cfg_nfields <= c_n[cur][FI_W-1:0];
			for (i = 0; i < FIELDS; i = i + 1) begin
				cfg_off[16 * i +: 16] <= i < c_n[cur] ? c_off[cur * FIELDS + i] : 16'hxxxx;
				cfg_width[7 * i +: 7] <= i < c_n[cur] ? c_w[cur * FIELDS + i] : 7'hxx;
			end
			got = 0;
			while (pass == 1 && ($random(seed) & 3) == 0)
				@(posedge clk);
			start;
			clocks = 0;
			while (got < c_kb[cur] && clocks < 200 + 4 * c_kb[cur]) begin
				@(posedge clk);
				clocks = clocks + 1;
			end
			if (got != c_kb[cur])
				fail("key bytes missing");
			if (pass == 2 && clocks > c_pieces[cur] + 5) begin
				errors = errors + 1;
				if (errors <= 10)
					$display("key %0d: %0d clocks for %0d pieces", cur, clocks, c_pieces[cur]);
			end
			// the last byte taken: wait until the gatherer is free again
			@(posedge clk);
		end
	end
	// phase 3: configurations out of bounds end too
	bad_cfg = 1'b1;
	for (pass = 0; pass < 500; pass = pass + 1) begin
		random_sink = pass % 2;
		cfg_nfields <= $random(seed);
		for (i = 0; i < FIELDS; i = i + 1) begin
			cfg_off[16 * i +: 16] <= $random(seed);
			cfg_width[7 * i +: 7] <= $random(seed);
		end
		start;
		clocks = 0;
		@(posedge clk);
		while (!s_start_ready && clocks < 300 * FIELDS) begin
			@(posedge clk);
			clocks = clocks + 1;
		end
		if (!s_start_ready)
			fail("phase 3: a configuration out of bounds never ends");
	end
	if (errors == 0)
		$display("PASSED %s (%0d keys twice, %0d bytes)", `TB_NAME, ncases, nbytes);
	else
		$display("FAILED %s: %0d errors (see above)", `TB_NAME, errors);
	$finish;
end

endmodule

`resetall
