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
// back at line rate, and reads back each MAC's counters (hierarchically: no message carries
// them yet).
// The core clock drives the oscillator pin (FAMILY "sim": the PLL is a wire); REF_CLK is 50 MHz;
// on the Colorlight the core clock is also the RGMII transmit clock (125 MHz) and each PHY's RXC
// is its own 125 MHz clock. Time unit: 1 ns.
// Plusargs: +sock=PATH +pkt=PATH (both required).
`default_nettype none

module tb_board;

`ifdef BOARD_HX8K
localparam N = 4;
localparam CORE_HALF = 10;     // 50 MHz (the board's 48)
`elsif BOARD_COLORLIGHT
localparam N = 2;
localparam CORE_HALF = 4;      // 125 MHz
`else
localparam N = 2;
localparam CORE_HALF = 17;     // 29.4 MHz (the board's 30)
`endif
localparam REF_HALF = 10;      // 50 MHz
localparam CLKS_PER_BIT = 4;
localparam QUIET = 400;

reg clk = 1'b0, ref_clk = 1'b0;
always #(CORE_HALF) clk = !clk;
initial begin
	#3;
	forever #(REF_HALF) ref_clk = !ref_clk;
end

reg uart_h2s = 1'b1;
wire uart_s2h;
`ifdef BOARD_COLORLIGHT
// RGMII: each PHY's RXC (125 MHz, its own phase), DDR nibbles; TX sampled off the forwarded TXC
reg [N-1:0] rx_clk = {N{1'b0}};
always #4 rx_clk[0] = !rx_clk[0];
initial begin
	#1;
	forever #4 rx_clk[1] = !rx_clk[1];
end
reg [4*N-1:0] rxd = {4*N{1'b0}};
reg [N-1:0] rx_ctl = {N{1'b0}};
wire [N-1:0] tx_clk_pin, tx_en;
wire [4*N-1:0] txd;
wire phy_rst_n, phy_mdc;
pisa_top_colorlight #(.FAMILY("sim"), .CLKS_PER_BIT(CLKS_PER_BIT)) dut (
	.clk_25m(clk), .uart_rx(uart_h2s), .uart_tx(uart_s2h), .phy_rst_n(phy_rst_n),
	.phy_mdc(phy_mdc),
	.rgmii_rx_clk(rx_clk), .rgmii_rxd(rxd), .rgmii_rx_ctl(rx_ctl), .rgmii_tx_clk(tx_clk_pin),
	.rgmii_txd(txd), .rgmii_tx_ctl(tx_en)
);
`else
reg [N-1:0] crs_dv = {N{1'b0}};
reg [2*N-1:0] rxd = {2*N{1'b0}};
wire [N-1:0] tx_en;
wire [2*N-1:0] txd;
`endif

`ifdef BOARD_COLORLIGHT
`elsif BOARD_HX8K
wire [7:0] led;
pisa_top_hx8k #(.FAMILY("sim"), .CLK_HZ(50000000), .CLKS_PER_BIT(CLKS_PER_BIT)) dut (
	.clk_12m(clk), .uart_rx(uart_h2s), .uart_tx(uart_s2h), .led(led),
	.rmii_ref_clk(ref_clk), .rmii_crs_dv(crs_dv), .rmii_rxd(rxd), .rmii_tx_en(tx_en),
	.rmii_txd(txd)
);
`else
wire ledr_n, ledg_n;
wire [4:0] led;
pisa_top_icebreaker #(.FAMILY("sim"), .CLK_HZ(29411765), .CLKS_PER_BIT(CLKS_PER_BIT)) dut (
	.clk_12m(clk), .btn_n(1'b1), .uart_rx(uart_h2s), .uart_tx(uart_s2h), .ledr_n(ledr_n),
	.ledg_n(ledg_n), .led(led),
	.rmii_ref_clk({N{ref_clk}}), .rmii_crs_dv(crs_dv), .rmii_rxd(rxd), .rmii_tx_en(tx_en),
	.rmii_txd(txd)
);
`endif

function [31:0] crc_byte(input [31:0] c, input [7:0] b);
	integer i;
	reg [31:0] r;
	begin
		r = c;
		for (i = 0; i < 8; i = i + 1)
			r = (r >> 1) ^ ((r[0] ^ b[i]) ? 32'hEDB88320 : 32'h0);
		crc_byte = r;
	end
endfunction

// ---- start ----
reg [8*256-1:0] sock, pkt;
integer r;
initial begin
	if (!$value$plusargs("sock=%s", sock) || !$value$plusargs("pkt=%s", pkt))
		$fatal(1, "tb_board: run with +sock=PATH +pkt=PATH");
	r = $pisa_sock_open(sock, 1000000);
	r = $pkt_open(pkt);
end

// ---- host -> switch: socket bytes sent 8N1 on uart_rx ----
integer tx_b, tx_i;
always begin : host_tx
	@(posedge clk);
	tx_b = $pisa_sock_getc(1);
	if (tx_b >= 0) begin
		uart_h2s <= 1'b0;
		repeat (CLKS_PER_BIT) @(posedge clk);
		for (tx_i = 0; tx_i < 8; tx_i = tx_i + 1) begin
			uart_h2s <= tx_b[tx_i];
			repeat (CLKS_PER_BIT) @(posedge clk);
		end
		uart_h2s <= 1'b1;
		repeat (CLKS_PER_BIT - 1) @(posedge clk);
	end
end

// ---- switch -> host: uart_tx sampled mid-bit ----
reg [7:0] rx_b;
integer rx_i;
always begin : host_rx
	@(posedge clk);
	if (uart_s2h == 1'b0) begin
		repeat (CLKS_PER_BIT / 2 + CLKS_PER_BIT) @(posedge clk);
		for (rx_i = 0; rx_i < 8; rx_i = rx_i + 1) begin
			rx_b[rx_i] = uart_s2h;
			if (rx_i < 7)
				repeat (CLKS_PER_BIT) @(posedge clk);
		end
		repeat (CLKS_PER_BIT) @(posedge clk);
		r = $pisa_sock_putc(rx_b);
	end
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

		reg [7:0] fb [0:65535 + 4];
		integer len, count, i, j, k;
		reg [31:0] crc;
`ifdef BOARD_COLORLIGHT
		// One byte time on the RGMII pins: the low nibble and RX_DV a quarter period before
		// RXC rises, the high nibble (RX_ER = 0) a quarter period before it falls.
		task line_byte(input [7:0] b, input dv);
			begin
				@(negedge rx_clk[g]);
				#2;
				rxd[4 * g +: 4] = b[3:0];
				rx_ctl[g] = dv;
				@(posedge rx_clk[g]);
				#2;
				rxd[4 * g +: 4] = b[7:4];
			end
		endtask
`else
		// One byte time on the RMII pins: four dibits, low first, CRS_DV = dv.
		task line_byte(input [7:0] b, input dv);
			integer d;
			begin
				for (d = 0; d < 4; d = d + 1) begin
					@(posedge ref_clk);
					rxd[2 * g +: 2] <= b[2 * d +: 2];
					crs_dv[g] <= dv;
				end
			end
		endtask
`endif
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
				for (k = 0; k < count; k = k + 1) begin
					for (j = 0; j < 7; j = j + 1)
						line_byte(8'h55, 1'b1);
					line_byte(8'hD5, 1'b1);
					for (j = 0; j < len + 4; j = j + 1)
						line_byte(fb[j], 1'b1);
					for (j = 0; j < 12; j = j + 1)
						line_byte(8'h00, 1'b0);
				end
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
		reg [7:0] ob [0:65535];
		reg [7:0] sr;
		integer nd = 0, nb, k, len;
		reg in_frame = 1'b0;
		reg [31:0] c;
`ifdef BOARD_COLORLIGHT
		// a byte per TXC cycle: low nibble and TX_CTL a quarter period after TXC rises, the
		// high nibble a quarter period after it falls
		reg [3:0] lo;
		reg ctl;
		always begin
			@(posedge tx_clk_pin[g]);
			#2;
			lo = txd[4 * g +: 4];
			ctl = tx_en[g];
			@(negedge tx_clk_pin[g]);
			#2;
			if (ctl) begin
				in_frame = 1'b1;
				if (nd < 65536)
					ob[nd] = {txd[4 * g +: 4], lo};
				nd = nd + 1;
			end else if (in_frame) begin
				in_frame = 1'b0;
				nb = nd;
				nd = 0;
`else
		always @(posedge ref_clk) begin
			if (tx_en[g]) begin
				in_frame = 1'b1;
				sr = {txd[2 * g +: 2], sr[7:2]};
				if (nd % 4 == 3 && nd / 4 < 65536)
					ob[nd / 4] = sr;
				nd = nd + 1;
			end else if (in_frame) begin
				in_frame = 1'b0;
				nb = nd / 4;
				nd = 0;
`endif
				// 7 x 55, D5, frame, FCS
				c = 32'hFFFFFFFF;
				for (k = 8; k < nb; k = k + 1)
					c = crc_byte(c, ob[k]);
				if (nb < 8 + 64 || ob[7] !== 8'hD5 || ~c != 32'h2144DF1C) begin
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
		end
	end
endgenerate

endmodule

`resetall
