// SPDX-License-Identifier: Apache-2.0
// pisa_bridge_hx8k: a bring-up bitstream for the HX8K board's wiring (not the switch): every
// frame received on port 0 leaves on port 1 and the other way round, likewise ports 2 and 3,
// through the same pins, PLL, resets, MACs and port mux/demux as pisa_top_hx8k. Hosts on two
// paired PHY modules can ping each other through it: a check of the modules and the wiring
// before the switch fits, and what `make bitstream BOARD=hx8k-breakout TOP=pisa_bridge_hx8k`
// proves the bitstream flow with today. The UART (channel B) echoes what it receives and
// prints the MACs' counters after Enter (pisa_bridge_console). LEDs: led[3:0] activity on port 3..0, led[7] the PLL locked.
`default_nettype none

module pisa_bridge_hx8k #(
	parameter [8*5-1:0] FAMILY = "ice40",
	parameter [3:0] PLL_DIVR = 4'd0,
	parameter [6:0] PLL_DIVF = 7'd63,
	parameter [2:0] PLL_DIVQ = 3'd4,
	parameter [2:0] PLL_FILTER_RANGE = 3'd1,
	parameter CLK_HZ = 48000000,
	// UART bit rate (pisad's PISAD_UART_BAUD) and the clocks a bit that follow from it.
	parameter UART_BAUD = 3000000,
	parameter CLKS_PER_BIT = (CLK_HZ + UART_BAUD / 2) / UART_BAUD,
	parameter MAX_FRAME = 510,
	parameter RX_DEPTH = 512,
	parameter TX_DEPTH = 512
) (
	input  wire       clk_12m,
	input  wire       uart_rx,
	output wire       uart_tx,
	output wire [7:0] led,

	input  wire       rmii_ref_clk,  // the 50 MHz oscillator all four PHYs share
	input  wire [3:0] rmii_crs_dv,
	input  wire [7:0] rmii_rxd,
	output wire [3:0] rmii_tx_en,
	output wire [7:0] rmii_txd
);

localparam N = 4;

wire clk, clk_unused, locked;
pisa_pll #(.FAMILY(FAMILY), .DIVR(PLL_DIVR), .DIVF(PLL_DIVF), .DIVQ(PLL_DIVQ),
	.FILTER_RANGE(PLL_FILTER_RANGE)) u_pll (
	.clk_in(clk_12m), .clk_out0(clk), .clk_out1(clk_unused), .locked(locked)
);
wire rst_any = !locked;
wire rst;
pisa_rst_sync u_rst (.clk(clk), .rst_in(rst_any), .rst_out(rst));

// port p's frames leave on port p ^ 1
wire [8:0] in_port;
wire [7:0] in_data;
wire in_last, in_valid, in_ready;
wire [8:0] sk_port;
wire [7:0] sk_data;
wire sk_last, sk_valid, sk_ready;
wire [N-1:0] rmii_tx_clk_unused, rx_act, tx_act, tx_pend;
wire st_req, st_busy;
wire [1:0] st_port;
wire [3:0] st_idx;
wire [15:0] st_value;
pisa_eth_ports #(.PHY("rmii"), .N(N), .MAX_FRAME(MAX_FRAME), .RX_DEPTH(RX_DEPTH),
	.TX_DEPTH(TX_DEPTH)) u_ports (
	.clk(clk), .rst(rst), .rst_in(rst_any),
	.phy_rx_clk({N{rmii_ref_clk}}), .phy_rxd(rmii_rxd), .phy_rx_ctl(rmii_crs_dv), .gtx_clk(1'b0),
	.phy_tx_clk(rmii_tx_clk_unused), .phy_txd(rmii_txd), .phy_tx_ctl(rmii_tx_en),
	.m_pkt_port(in_port), .m_pkt_data(in_data), .m_pkt_last(in_last), .m_pkt_valid(in_valid),
	.m_pkt_ready(in_ready),
	.s_pkt_port({7'd0, sk_port ^ 9'd1}), .s_pkt_data(sk_data), .s_pkt_last(sk_last),
	.s_pkt_valid(sk_valid), .s_pkt_ready(sk_ready),
	.rx_act(rx_act), .tx_act(tx_act), .tx_pend(tx_pend),
	.stats_req(st_req), .stats_busy(st_busy), .stats_port(st_port), .stats_idx(st_idx),
	.stats_value(st_value)
);
// (a register stage between the two: the mux's choice and the demux's decode in one cycle would
// be the slowest path)
pisa_skid #(.WIDTH(18)) u_skid (
	.clk(clk), .rst(rst),
	.s_data({in_port, in_last, in_data}), .s_valid(in_valid), .s_ready(in_ready),
	.m_data({sk_port, sk_last, sk_data}), .m_valid(sk_valid), .m_ready(sk_ready)
);

// The UART: an echo, and the MACs' counters after Enter (pisa_bridge_console)
pisa_bridge_console #(.N(N), .CLKS_PER_BIT(CLKS_PER_BIT)) u_console (
	.clk(clk), .rst(rst), .uart_rx(uart_rx), .uart_tx(uart_tx),
	.stats_req(st_req), .stats_busy(st_busy), .stats_port(st_port), .stats_idx(st_idx),
	.stats_value(st_value)
);

wire [3:0] show;
pisa_led_stretch #(.N(4), .TICK_W(22)) u_leds (
	.clk(clk), .rst(rst), .act(rx_act | tx_pend), .show(show)
);
assign led = {locked, 3'b000, show};
wire _unused = &{1'b0, clk_unused, rmii_tx_clk_unused, tx_act, 1'b0};

endmodule

`resetall
