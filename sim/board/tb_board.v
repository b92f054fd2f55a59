// SPDX-License-Identifier: Apache-2.0
// tb_board: a board's switch top in Icarus with behavioural PHYs on its pins (RMII, or RGMII
// for the Colorlight), for pisa-stf --target board:NAME (stf/stf_board.c). Built once per board
// with -DBOARD_ICEBREAKER, -DBOARD_HX8K or -DBOARD_COLORLIGHT (sim/board/Makefile).
//
//   pisa-stf <-> Unix socket +sock (pisa_vpi.c, $pisa_sock_*) <-> 8N1 on the top's uart_rx/tx
//   pisa-stf <-> Unix socket +pkt (pisa_vpi_pkt.c, $pkt_*)     <-> the PHYs' RMII pins
//
// Every control-link byte crosses the top's UART pins; every frame goes in as RMII dibits (RGMII
// DDR nibbles) with preamble, SFD and FCS and comes out of the TX pins the same way (its FCS
// checked here). As on
// a wire, a frame shorter than 60 bytes goes in padded with zeros to 60 (so the switch sees the
// pad, and sends it on: STF expectations for such frames must be prefixes, without '$'); a
// frame the switch sends shorter than 60 bytes is reported at the length it sent (counted on
// the MAC's tx stream), without the MAC's padding. A request
// is done ("d") when nothing has moved for QUIET core cycles after its frames went in. A request
// ("b" lines, then "g": pisa_vpi_pkt.c) puts frames on every port that has some at once, back to
// back at line rate, and reads back each MAC's counters hierarchically (pisa-stf then reads
// them over the control link as well, and the two must agree).
// Clocks, pins and the PHYs' line side: board_pins.vh, board_line_in.vh, board_line_out.vh
// (shared with tb_bridge.v).
// Plusargs: +sock=PATH +pkt=PATH (both required).
`default_nettype none

module tb_board;

`define TB_DUT_ICEBREAKER pisa_top_icebreaker
`define TB_DUT_HX8K pisa_top_hx8k
`define TB_DUT_COLORLIGHT pisa_top_colorlight
// the Colorlight's MAC counters, which its build leaves out (area), readable here too
`define TB_COLORLIGHT_PARAMS , .MAC_COUNTERS(1)
`include "board_pins.vh"
localparam QUIET = 400;

// ---- start ----
reg [8*256-1:0] sock, pkt;
integer r;
initial begin
	if (!$value$plusargs("sock=%s", sock) || !$value$plusargs("pkt=%s", pkt))
		$fatal(1, "tb_board: run with +sock=PATH +pkt=PATH");
	r = $pisa_sock_open(sock, 1000000);
	r = $pkt_open(pkt);
end

// ---- host <-> switch: socket bytes 8N1 on uart_rx, uart_tx's bytes to the socket ----
integer tx_b;
always begin : host_tx
	@(posedge clk);
	tx_b = $pisa_sock_getc(1);
	if (tx_b >= 0)
		uart_send(tx_b[7:0]);
end

reg [7:0] rx_b;
always begin : host_rx
	uart_recv(rx_b);
	r = $pisa_sock_putc(rx_b);
end

// ---- frames in: each port's sender puts its staged frame on its PHY's pins COUNT times ----
// A request ("g") starts the senders of the ports that have a frame staged together; each sends
// its copies back to back, 12 idle bytes after each (line rate). When all is quiet, each port's
// MAC counters and the times go back ("c" and "t" lines).
reg sending = 1'b0;
integer quiet = 0;
reg [N-1:0] go = {N{1'b0}}, busy = {N{1'b0}};
time t_go = 0, t_in = 0, t_out = 0;
integer req, fi;

`ifdef BOARD_COLORLIGHT
`define MAC_PORT(i) dut.u_ports.g_rgmii.g_port[i]
`else
`define MAC_PORT(i) dut.u_ports.g_rmii.g_port[i]
`endif
wire [16*N-1:0] c_rxf, c_rxdrop, c_fcs, c_runt, c_giant, c_txdrop;

genvar g;
generate
	for (g = 0; g < N; g = g + 1) begin : g_in
		assign c_rxf[16 * g +: 16] = `MAC_PORT(g).c_rf;
		assign c_rxdrop[16 * g +: 16] = `MAC_PORT(g).c_rdrop;
		assign c_fcs[16 * g +: 16] = `MAC_PORT(g).c_fcs;
		assign c_runt[16 * g +: 16] = `MAC_PORT(g).c_runt;
		assign c_giant[16 * g +: 16] = `MAC_PORT(g).c_giant;
		assign c_txdrop[16 * g +: 16] = `MAC_PORT(g).c_tdrop;

		integer len, count, i, k;
		reg [31:0] crc;
`include "board_line_in.vh"
		always begin : sender
			@(posedge clk);
			if (go[g]) begin
				busy[g] = 1'b1;
				go[g] = 1'b0;
				len = $pkt_len(g);
				count = $pkt_count(g);
				for (i = 0; i < len; i = i + 1)
					fb[i] = $pkt_byte(g, i);
				// a host pads a short frame to 60 bytes, as on a wire
				for (i = len; i < 60; i = i + 1)
					fb[i] = 8'h00;
				if (len < 60)
					len = 60;
				crc = 32'hFFFFFFFF;
				for (i = 0; i < len; i = i + 1)
					crc = crc_byte(crc, fb[i]);
				crc = ~crc;
				for (i = 0; i < 4; i = i + 1)
					fb[len + i] = crc[8 * i +: 8];
				for (k = 0; k < count; k = k + 1)
					line_frame(len + 4);
				busy[g] = 1'b0;
			end
		end
	end
endgenerate
`undef MAC_PORT

always begin : frames_in
	@(posedge clk);
	if (!sending && quiet >= 16) begin
		req = $pkt_poll;
		if (req < 0)
			$finish;
		if (req > 0) begin
			sending = 1'b1;
			t_go = $time;
			t_out = $time;
			// (a port the board does not have: nothing goes in, the answer is "d")
			for (fi = 0; fi < N; fi = fi + 1)
				if ($pkt_count(fi) > 0)
					go[fi] = 1'b1;
			while (go != 0 || busy != 0)
				@(posedge clk);
			t_in = $time;
			quiet = 0;
			sending = 1'b0;
			while (quiet < QUIET)
				@(posedge clk);
			for (fi = 0; fi < N; fi = fi + 1)
				r = $pkt_ocount(fi, c_rxf[16 * fi +: 16], c_rxdrop[16 * fi +: 16],
					c_fcs[16 * fi +: 16], c_runt[16 * fi +: 16], c_giant[16 * fi +: 16],
					c_txdrop[16 * fi +: 16]);
			r = $pkt_otime(t_in - t_go, t_out - t_go, 2 * CORE_HALF);
			r = $pkt_done;
		end
	end
end

// Nothing moving: no frame going in, none in the MACs' streams, the core idle, no TX pins busy.
always @(posedge clk) begin
	if (sending || dut.u_ports.rx_valid != 0 || dut.u_ports.tx_valid != 0 || dut.in_valid ||
			dut.out_valid || !dut.u_switch.u_core.idle || tx_en != 0)
		quiet <= 0;
	else if (quiet < 1000000)
		quiet <= quiet + 1;
end

// ---- frames out: each port's TX pins, and the lengths the switch sent ----
generate
	for (g = 0; g < N; g = g + 1) begin : g_mon
		// lengths of the frames handed to this port's MAC, in order
		integer qlen [0:255];
		integer qh = 0, qt = 0, cnt = 0;
		always @(posedge clk)
			if (dut.u_ports.tx_valid[g] && dut.u_ports.tx_ready[g]) begin
				cnt = cnt + 1;
				if (dut.u_ports.tx_last[g]) begin
					qlen[qt % 256] = cnt;
					qt = qt + 1;
					cnt = 0;
				end
			end
`include "board_line_out.vh"
		integer k, len;
		// the frame to pisa-stf at the length the switch sent
		task tx_frame;
			begin
				if (nb < 8 + 64 || !tx_good(nb)) begin
					$display("tb_board: port %0d: a malformed frame on the TX pins (%0d bytes)",
						g, nb);
				end else begin
					len = nb - 12;
					if (qh < qt) begin
						if (qlen[qh % 256] < len)
							len = qlen[qh % 256];
						qh = qh + 1;
					end
					for (k = 0; k < len; k = k + 1)
						r = $pkt_obyte(ob[8 + k]);
					r = $pkt_osend(g);
					t_out = $time;
				end
			end
		endtask
	end
endgenerate

endmodule

`resetall
