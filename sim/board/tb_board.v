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
// is done ("d") when nothing has moved for QUIET core cycles after its frame went in.
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

// ---- frames in: a request's frame into its port's PHY, as RMII dibits ----
reg sending = 1'b0;
integer quiet = 0;
reg [7:0] fb [0:65535];
integer flen, fport, fi, fj;
reg [31:0] fcrc;

`ifdef BOARD_COLORLIGHT
// One byte time on port's RGMII: the low nibble and RX_DV a quarter period before RXC rises,
// the high nibble (RX_ER = 0) a quarter period before it falls.
task rgmii_byte(input integer port, input [7:0] b, input dv);
	begin
		@(negedge rx_clk[port]);
		#2;
		rxd[4 * port +: 4] = b[3:0];
		rx_ctl[port] = dv;
		@(posedge rx_clk[port]);
		#2;
		rxd[4 * port +: 4] = b[7:4];
	end
endtask
`else
task dibit(input integer port, input [1:0] d, input dv);
	begin
		@(posedge ref_clk);
		rxd[2 * port +: 2] <= d;
		crs_dv[port] <= dv;
	end
endtask
`endif

always begin : frames_in
	@(posedge clk);
	if (!sending && quiet >= 16) begin
		flen = $pkt_poll;
		if (flen < 0)
			$finish;
		if (flen > 0) begin
			sending = 1'b1;
			fport = $pkt_port;
			fcrc = 32'hFFFFFFFF;
			for (fi = 0; fi < flen; fi = fi + 1)
				fb[fi] = $pkt_byte(fi);
			// a host pads a short frame to 60 bytes, as on a wire
			for (fi = flen; fi < 60; fi = fi + 1)
				fb[fi] = 8'h00;
			if (flen < 60)
				flen = 60;
			for (fi = 0; fi < flen; fi = fi + 1)
				fcrc = crc_byte(fcrc, fb[fi]);
			fcrc = ~fcrc;
			for (fi = 0; fi < 4; fi = fi + 1)
				fb[flen + fi] = fcrc[8 * fi +: 8];
			if (fport >= 0 && fport < N) begin
`ifdef BOARD_COLORLIGHT
				for (fi = 0; fi < 7; fi = fi + 1)
					rgmii_byte(fport, 8'h55, 1'b1);
				rgmii_byte(fport, 8'hD5, 1'b1);
				for (fi = 0; fi < flen + 4; fi = fi + 1)
					rgmii_byte(fport, fb[fi], 1'b1);
				for (fi = 0; fi < 12; fi = fi + 1)
					rgmii_byte(fport, 8'h00, 1'b0);
`else
				for (fi = 0; fi < 31; fi = fi + 1)
					dibit(fport, 2'b01, 1'b1);
				dibit(fport, 2'b11, 1'b1);
				for (fi = 0; fi < flen + 4; fi = fi + 1)
					for (fj = 0; fj < 4; fj = fj + 1)
						dibit(fport, fb[fi][2 * fj +: 2], 1'b1);
				dibit(fport, 2'b00, 1'b0);
`endif
			end
			// (a port the board does not have: nothing goes in, the answer is "d")
			quiet = 0;
			sending = 1'b0;
			while (quiet < QUIET)
				@(posedge clk);
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
genvar g;
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
				end
			end
		end
	end
endgenerate

endmodule

`resetall
