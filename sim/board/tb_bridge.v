// SPDX-License-Identifier: Apache-2.0
// tb_bridge: a board's bring-up bridge in Icarus with behavioural PHYs on its pins (RMII, or
// RGMII for the Colorlight), self-checking. Built once per board with -DBOARD_ICEBREAKER,
// -DBOARD_HX8K or -DBOARD_COLORLIGHT (sim/board/Makefile).
//
// Port 0 gets a 60-byte frame, a 96-byte one, one with a bad FCS, a runt (36 bytes and a good
// FCS), another with a bad FCS and another 60-byte one (so no two counters match); port 1 a 76-byte frame and a giant (MAX_FRAME + 8 bytes), all
// with preamble, SFD and FCS, at line rate, both ports at once. Checked: the good frames come
// out of the other port's TX pins byte for byte with a good FCS, nothing else comes out; a byte
// on the UART comes back; after a carriage return the console prints the header and a line a
// port whose counters are exactly what went in and out (a board's other ports: zeros).
// Ends with "PASSED tb_bridge_BOARD" or "FAILED tb_bridge_BOARD: why". +show prints the table.
`default_nettype none

module tb_bridge;

`define TB_DUT_ICEBREAKER pisa_bridge_icebreaker
`define TB_DUT_HX8K pisa_bridge_hx8k
`define TB_DUT_COLORLIGHT pisa_bridge_colorlight
`define TB_COLORLIGHT_PARAMS
`include "board_pins.vh"
`ifdef BOARD_HX8K
localparam MAX_FRAME = 510;
localparam [8*13-1:0] NAME = "hx8k-breakout";
`elsif BOARD_COLORLIGHT
localparam MAX_FRAME = 1518;
localparam [8*17-1:0] NAME = "colorlight-5a-75b";
`else
localparam MAX_FRAME = 1022;
localparam [8*10-1:0] NAME = "icebreaker";
`endif
// (each NAME exactly as wide as its string: Icarus 11 prints a padded string parameter empty)
localparam GIANT = MAX_FRAME + 8;   // bytes with its FCS

// a frame's byte i (FCS excluded), from its seed
function [7:0] frame_byte(input integer seed, input integer i);
	frame_byte = (seed * 37 + i * 11 + i / 7) & 8'hFF;
endfunction

task fail(input [8*120-1:0] why);
	begin
		$display("FAILED tb_bridge_%0s: %0s", NAME, why);
		$finish;
	end
endtask

// ---- what each port's TX pins must send: frames by seed and length, in order ----
integer exp_seed [0:N-1][0:7];
integer exp_len [0:N-1][0:7];
integer exp_n [0:N-1];
integer got_n [0:N-1];
// counters each port's line must show: rx frames, bytes, FCS errors, runts, giants, drops,
// tx frames, bytes, drops
integer want [0:N-1][0:8];
integer p, k;
initial
	for (p = 0; p < N; p = p + 1) begin
		exp_n[p] = 0;
		got_n[p] = 0;
		for (k = 0; k < 9; k = k + 1)
			want[p][k] = 0;
	end

// ---- frames in ----
reg [N-1:0] sent = {N{1'b0}};
genvar g;
generate
	for (g = 0; g < N; g = g + 1) begin : g_in
`include "board_line_in.vh"
		// len bytes and the FCS (inverted when bad); what the MACs must make of it
		task send(input integer seed, input integer len, input bad);
			integer i, total;
			reg [31:0] crc;
			begin
				crc = 32'hFFFFFFFF;
				for (i = 0; i < len; i = i + 1) begin
					fb[i] = frame_byte(seed, i);
					crc = crc_byte(crc, fb[i]);
				end
				crc = bad ? crc : ~crc;
				for (i = 0; i < 4; i = i + 1)
					fb[len + i] = crc[8 * i +: 8];
				line_frame(len + 4);
				total = len + 4;
				if (total < 64) begin
					want[g][3] = want[g][3] + 1;
				end else if (total > MAX_FRAME) begin
					want[g][4] = want[g][4] + 1;
				end else if (bad) begin
					want[g][2] = want[g][2] + 1;
				end else begin
					want[g][0] = want[g][0] + 1;
					want[g][1] = want[g][1] + total;
					want[g ^ 1][6] = want[g ^ 1][6] + 1;
					want[g ^ 1][7] = want[g ^ 1][7] + total;
					exp_seed[g ^ 1][exp_n[g ^ 1]] = seed;
					exp_len[g ^ 1][exp_n[g ^ 1]] = len;
					exp_n[g ^ 1] = exp_n[g ^ 1] + 1;
				end
			end
		endtask

		initial begin
			wait (!dut.rst);
			repeat (50) @(posedge clk);
			if (g == 0) begin
				send(1, 60, 1'b0);
				send(2, 96, 1'b0);
				send(3, 60, 1'b1);
				send(4, 36, 1'b0);
				send(8, 200, 1'b1);
				send(5, 60, 1'b0);
			end else if (g == 1) begin
				send(6, 76, 1'b0);
				send(7, GIANT - 4, 1'b0);
			end
			sent[g] = 1'b1;
		end
	end
endgenerate

// ---- frames out: each port's TX pins ----
generate
	for (g = 0; g < N; g = g + 1) begin : g_out
`include "board_line_out.vh"
		integer i;
		// the frame expected next on this port
		task tx_frame;
			begin
				if (!tx_good(nb))
					fail("a frame on a TX pin has no SFD or a bad FCS");
				if (got_n[g] >= exp_n[g])
					fail("a frame came out that should not have");
				if (nb != 8 + exp_len[g][got_n[g]] + 4)
					fail("a frame came out at the wrong length");
				for (i = 0; i < exp_len[g][got_n[g]]; i = i + 1)
					if (ob[8 + i] !== frame_byte(exp_seed[g][got_n[g]], i))
						fail("a frame came out with different bytes");
				got_n[g] = got_n[g] + 1;
			end
		endtask
	end
endgenerate

// ---- the UART, as a host's terminal ----
reg [7:0] text [0:4095];
integer text_n = 0;
always begin : host_rx
	reg [7:0] b;
	uart_recv(b);
	if (text_n < 4096)
		text[text_n] = b;
	text_n = text_n + 1;
end

function [4:0] hex_val(input [7:0] ch);	// 16: not a hex digit
	if (ch >= "0" && ch <= "9")
		hex_val = ch - "0";
	else if (ch >= "a" && ch <= "f")
		hex_val = ch - "a" + 10;
	else
		hex_val = 16;
endfunction

localparam [8*87-1:0] HEAD = {"\nport rx_frames rx_bytes fcs_errors runts giants rx_drops ",
	"tx_frames tx_bytes tx_drops\015\n"};
localparam LINE = 1 + 9 * 5 + 2;    // "P" + 9 x " hhhh" + CR LF

integer t, q, v, j, lines;
initial begin
	// a watchdog: the whole test is well under 2 ms of simulated time
	#2000000;
	fail("timed out");
end
initial begin
	wait (&sent);
	repeat (2000) @(posedge clk);
	for (q = 0; q < N; q = q + 1)
		if (got_n[q] != exp_n[q])
			fail("a good frame did not come out of the other port");

	uart_send("a");
	repeat (20 * CLKS_PER_BIT) @(posedge clk);
	if (text_n != 1 || text[0] != "a")
		fail("the UART did not echo a byte");

	text_n = 0;
	uart_send(8'h0D);
	lines = 0;
	while (lines < 2 + N) begin
		@(posedge clk);
		lines = 0;
		for (t = 0; t < text_n; t = t + 1)
			if (text[t] == 8'h0A)
				lines = lines + 1;
	end
	repeat (20 * CLKS_PER_BIT) @(posedge clk);
	if ($test$plusargs("show"))	// +show: the table as a terminal gets it
		for (t = 0; t < text_n; t = t + 1)
			$write("%c", text[t]);
	if (text_n != 1 + 87 + N * LINE)
		fail("the counter table has the wrong length");
	if (text[0] != 8'h0D)
		fail("the carriage return was not echoed");
	for (t = 0; t < 87; t = t + 1)
		if (text[1 + t] != HEAD[8 * (86 - t) +: 8])
			fail("the counter table's header differs");
	for (q = 0; q < N; q = q + 1) begin
		t = 1 + 87 + q * LINE;
		if (hex_val(text[t]) != q)
			fail("a line of the counter table does not start with its port");
		for (k = 0; k < 9; k = k + 1) begin
			if (text[t + 1 + 5 * k] != " ")
				fail("the counter table's columns are not separated by spaces");
			v = 0;
			for (j = 0; j < 4; j = j + 1) begin
				if (hex_val(text[t + 2 + 5 * k + j]) == 16)
					fail("a counter is not four hex digits");
				v = v * 16 + hex_val(text[t + 2 + 5 * k + j]);
			end
			if (v != want[q][k]) begin
				$display("tb_bridge: port %0d counter %0d: %0d, want %0d", q, k, v, want[q][k]);
				fail("a counter in the table is wrong");
			end
		end
		if (text[t + LINE - 2] != 8'h0D || text[t + LINE - 1] != 8'h0A)
			fail("a line of the counter table does not end in CR LF");
	end
	$display("PASSED tb_bridge_%0s (%0d frames forwarded, %0d counters checked)", NAME,
		exp_n[0] + exp_n[1], 9 * N);
	$finish;
end

endmodule

`resetall
