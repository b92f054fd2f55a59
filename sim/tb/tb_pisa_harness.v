// SPDX-License-Identifier: Apache-2.0
// tb_pisa_harness: the full-pipeline harness. Loads an image's configuration words into
// pisa_core, then runs the statements it reads from STIM one at a time and answers each on
// OUT (flushed), so a client can drive it interactively through two named pipes: pisa-stf
// --target rtl and tests/rtl do (stf/stf_rtl.c). Plain files work too.
//
//   vvp tb_pisa_harness.vvp +cfg=CFG.hex +ncfg=N +stim=STIM +out=OUT [+seed=S]
//
// CFG.hex: N 64-bit words, one hex word per line (lib/pisa_hwconf.c, docs/hwconf.md).
// OUT gets "l" once the image is loaded. Then STIM, one statement per line, numbers in hex:
//   c KIND ID INDEX FLAG LEN B0 .. B(LEN-1)   a command as pisa_link_ctrl issues it
//                                             -> "r ERR A B" (its answer on m_rsp_*)
//   p PORT TIME_US LEN B0 .. B(LEN-1)         a packet, run to completion
//                                             -> "o PORT LEN B0 .." per packet that left and
//                                                "g ID LEN B0 .." per digest, in order, "d"
//   s                                         -> "s RX TX DROP OVERSIZE CYCLES" (counters)
//   b ON                                      the sink's back-pressure on (1, the start)
//                                             or off (0: always ready, for benchmarks) -> "b"
//   q                                         -> "e RX TX DROP OVERSIZE CYCLES", the end
// The packet sink is randomly not ready (+seed) unless told otherwise (b 0), so back-pressure
// is exercised on every run. The harness opens STIM before OUT; a client must open them in the
// same order.
`default_nettype none

module tb_pisa_harness;

reg clk = 1'b0, rst = 1'b1;
always #5 clk = ~clk;

reg [47:0] now_us = 48'd0;
reg [15:0] cfg_addr = 16'd0;
reg [63:0] cfg_data = 64'd0;
reg cfg_valid = 1'b0, cfg_commit = 1'b0;
wire cfg_ready, loaded, idle;
reg [3:0] cmd_kind = 4'd0;
reg [15:0] cmd_id = 16'd0, cmd_len = 16'd0;
reg [31:0] cmd_index = 32'd0, cmd_data = 32'd0;
reg [7:0] cmd_flag = 8'd0;
reg cmd_last = 1'b0, cmd_valid = 1'b0;
wire cmd_ready;
wire [7:0] rsp_err;
wire [63:0] rsp_a, rsp_b;
wire rsp_valid;
reg [8:0] in_port = 9'd0;
reg [7:0] in_data = 8'd0;
reg in_last = 1'b0, in_valid = 1'b0;
wire in_ready;
wire [15:0] out_port;
wire [7:0] out_data;
wire out_last, out_valid;
reg out_ready = 1'b0;
reg pressure = 1'b1;		// the sink is randomly not ready
wire [31:0] cnt_rx, cnt_tx, cnt_drop, cnt_oversize;
wire [63:0] cnt_cycles;
wire [15:0] dig_id;
wire [7:0] dig_data;
wire dig_last, dig_valid;

pisa_core dut (
	.clk(clk), .rst(rst), .now_us(now_us),
	.s_cfg_addr(cfg_addr), .s_cfg_data(cfg_data), .s_cfg_valid(cfg_valid),
	.s_cfg_ready(cfg_ready), .cfg_commit(cfg_commit), .state_reset(1'b0), .loaded(loaded),
	.idle(idle),
	.s_cmd_kind(cmd_kind), .s_cmd_id(cmd_id), .s_cmd_index(cmd_index), .s_cmd_flag(cmd_flag),
	.s_cmd_len(cmd_len), .s_cmd_data(cmd_data), .s_cmd_last(cmd_last),
	.s_cmd_valid(cmd_valid), .s_cmd_ready(cmd_ready),
	.m_rsp_err(rsp_err), .m_rsp_a(rsp_a), .m_rsp_b(rsp_b), .m_rsp_valid(rsp_valid),
	.m_rsp_ready(1'b1),
	.s_pkt_port(in_port), .s_pkt_data(in_data), .s_pkt_last(in_last), .s_pkt_valid(in_valid),
	.s_pkt_ready(in_ready),
	.m_pkt_port(out_port), .m_pkt_data(out_data), .m_pkt_last(out_last),
	.m_pkt_valid(out_valid), .m_pkt_ready(out_ready),
	.m_dig_id(dig_id), .m_dig_data(dig_data), .m_dig_last(dig_last), .m_dig_valid(dig_valid),
	.m_dig_ready(1'b1),
	.cnt_rx(cnt_rx), .cnt_tx(cnt_tx), .cnt_drop(cnt_drop), .cnt_oversize(cnt_oversize),
	.cnt_cycles(cnt_cycles)
);

localparam MAXW = 65536;
reg [63:0] words [0:MAXW-1];
reg [7:0] bytes [0:65535];
reg [8*1024-1:0] cfg_file, stim_file, out_file;
integer ncfg, seed, fin, fout, n, i, len, kind, id, index, flag, port, t, k;
reg [7:0] c;

// the sink: random back-pressure; collects each packet and writes it out
reg [7:0] obytes [0:65535];
integer olen = 0;
always @(posedge clk) begin
	out_ready <= ($random(seed) & 3) != 0 || !pressure;
	if (out_valid && out_ready) begin
		obytes[olen] = out_data;
		olen = olen + 1;
		if (out_last) begin
			$fwrite(fout, "o %0x %0x", out_port, olen);
			for (k = 0; k < olen; k = k + 1)
				$fwrite(fout, " %02x", obytes[k]);
			$fwrite(fout, "\n");
			olen = 0;
		end
	end
end

// digests, written as they complete
reg [7:0] dbytes [0:65535];
integer dlen = 0, dk;
always @(posedge clk)
	if (dig_valid) begin
		dbytes[dlen] = dig_data;
		dlen = dlen + 1;
		if (dig_last) begin
			$fwrite(fout, "g %0x %0x", dig_id, dlen);
			for (dk = 0; dk < dlen; dk = dk + 1)
				$fwrite(fout, " %02x", dbytes[dk]);
			$fwrite(fout, "\n");
			dlen = 0;
		end
	end

task fatal(input [8*80-1:0] why);
	begin
		$display("FAIL tb_pisa_harness: %0s", why);
		$finish;
	end
endtask

initial begin
	if (!$value$plusargs("cfg=%s", cfg_file) || !$value$plusargs("ncfg=%d", ncfg) ||
	    !$value$plusargs("stim=%s", stim_file) || !$value$plusargs("out=%s", out_file))
		fatal("usage: +cfg=FILE +ncfg=N +stim=FILE +out=FILE [+seed=S]");
	if (!$value$plusargs("seed=%d", seed))
		seed = 1;
	if (ncfg < 8 || ncfg > MAXW)
		fatal("+ncfg out of range");
	$readmemh(cfg_file, words, 0, ncfg - 1);
	fin = $fopen(stim_file, "r");
	fout = $fopen(out_file, "w");
	if (fin == 0 || fout == 0)
		fatal("cannot open the stimulus or output file");
	repeat (4) @(posedge clk);
	rst <= 1'b0;
	@(posedge clk);
	// the image
	for (i = 0; i < ncfg; i = i + 1) begin
		cfg_addr <= i;
		cfg_data <= words[i];
		cfg_valid <= 1'b1;
		@(posedge clk);
		while (!cfg_ready) @(posedge clk);
	end
	cfg_valid <= 1'b0;
	cfg_commit <= 1'b1;
	@(posedge clk);
	cfg_commit <= 1'b0;
	while (!loaded) @(posedge clk);
	$fwrite(fout, "l\n");
	$fflush(fout);

	forever begin
		n = $fscanf(fin, " %c", c);
		if (n != 1 || c == "q")
			finish_run;
		if (c == "c") begin
			n = $fscanf(fin, " %h %h %h %h %h", kind, id, index, flag, len);
			if (n != 5 || len > 65535)
				fatal("bad command line in the stimulus");
			for (k = 0; k < len; k = k + 1)
				if ($fscanf(fin, " %h", bytes[k]) != 1)
					fatal("short command in the stimulus");
			run_cmd;
		end else if (c == "p") begin
			n = $fscanf(fin, " %h %h %h", port, t, len);
			if (n != 3 || len < 1 || len > 65535)
				fatal("bad packet line in the stimulus");
			for (k = 0; k < len; k = k + 1)
				if ($fscanf(fin, " %h", bytes[k]) != 1)
					fatal("short packet in the stimulus");
			run_packet;
		end else if (c == "b") begin
			if ($fscanf(fin, " %h", k) != 1 || k > 1)
				fatal("bad back-pressure line in the stimulus");
			pressure <= k != 0;
			$fwrite(fout, "b\n");
			$fflush(fout);
		end else if (c == "s") begin
			$fwrite(fout, "s %0x %0x %0x %0x %0x\n", cnt_rx, cnt_tx, cnt_drop, cnt_oversize,
				cnt_cycles);
			$fflush(fout);
		end else begin
			fatal("unknown statement in the stimulus");
		end
	end
end

// One op as pisa_link_ctrl issues it: 4 data bytes per beat, little-endian lanes.
task run_cmd;
	integer b;
	begin
		cmd_kind <= kind;
		cmd_id <= id;
		cmd_index <= index;
		cmd_flag <= flag;
		cmd_len <= len;
		b = 0;
		while (b == 0 || b < len) begin
			cmd_data <= {b + 3 < len ? bytes[b + 3] : 8'h00, b + 2 < len ? bytes[b + 2] : 8'h00,
				     b + 1 < len ? bytes[b + 1] : 8'h00, b < len ? bytes[b] : 8'h00};
			cmd_last <= b + 4 >= len;
			cmd_valid <= 1'b1;
			@(posedge clk);
			while (!cmd_ready) @(posedge clk);
			b = b + 4;
		end
		cmd_valid <= 1'b0;
		while (!rsp_valid) @(posedge clk);
		$fwrite(fout, "r %0x %0x %0x\n", rsp_err, rsp_a, rsp_b);
		$fflush(fout);
		@(posedge clk);
	end
endtask

task run_packet;
	integer b;
	begin
		now_us <= t;
		for (b = 0; b < len; b = b + 1) begin
			in_port <= port;
			in_data <= bytes[b];
			in_last <= b + 1 == len;
			in_valid <= 1'b1;
			@(posedge clk);
			while (!in_ready) @(posedge clk);
		end
		in_valid <= 1'b0;
		in_last <= 1'b0;
		// the packet and all it caused are done when the core is idle again
		@(posedge clk);
		while (!idle || out_valid) @(posedge clk);
		$fwrite(fout, "d\n");
		$fflush(fout);
	end
endtask

task finish_run;
	begin
		repeat (4) @(posedge clk);
		$fwrite(fout, "e %0x %0x %0x %0x %0x\n", cnt_rx, cnt_tx, cnt_drop, cnt_oversize,
			cnt_cycles);
		$fflush(fout);
		$fclose(fout);
		$finish;
	end
endtask

endmodule
`default_nettype wire
