// SPDX-License-Identifier: Apache-2.0
// pisa_bridge_colorlight: a bring-up bitstream for the Colorlight 5A-75B (not the switch): every
// frame received on port 0 leaves on port 1 and the other way round, through the same pins,
// PLL, delays, resets, MACs and port mux/demux as pisa_top_colorlight (whose header says what
// each part does). Two hosts on the two Ethernet jacks can ping each other through it: a check
// of the PHYs' straps and delays before the switch fits, and what `make bitstream
// BOARD=colorlight-5a-75b TOP=pisa_bridge_colorlight` proves the bitstream flow with today.
// The UART echoes what it receives and prints the MACs' counters after Enter
// (pisa_bridge_console).
`default_nettype none

module pisa_bridge_colorlight #(
	// "ecp5" on the board, "sim" in the board-level simulation.
	parameter [8*5-1:0] FAMILY = "ecp5",
	// The core clock: VCO / CORE_DIV (625 MHz / 5 = 125 MHz); boards/Makefile sets both.
	parameter CORE_DIV = 5,
	parameter CLK_HZ = 125000000,
	// UART bit rate (pisad's PISAD_UART_BAUD) and the clocks a bit that follow from it.
	parameter UART_BAUD = 3000000,
	parameter CLKS_PER_BIT = (CLK_HZ + UART_BAUD / 2) / UART_BAUD,
	// Longest Ethernet frame (FCS included) and the MACs' buffers (one DP16KD each).
	parameter MAX_FRAME = 1518,
	parameter RX_DEPTH = 2048,
	parameter TX_DEPTH = 2048,
	// Receive pin delay, DELAYG taps (0: none).
	parameter RX_DELAY = 80
) (
	input  wire       clk_25m,
	input  wire       uart_rx,
	output wire       uart_tx,
	output wire       phy_rst_n,
	output wire       phy_mdc,

	input  wire [1:0] rgmii_rx_clk,
	input  wire [7:0] rgmii_rxd,      // port i: RXD3..0 at [4i+3:4i]
	input  wire [1:0] rgmii_rx_ctl,
	output wire [1:0] rgmii_tx_clk,
	output wire [7:0] rgmii_txd,
	output wire [1:0] rgmii_tx_ctl
);

localparam N = 2;

// ---- clocks and resets ----
wire clk, gtx_clk, locked;
pisa_pll #(.FAMILY(FAMILY), .CLKI_DIV(1), .CLKFB_DIV(5), .CLKOP_DIV(5), .CLKOS_DIV(CORE_DIV))
	u_pll (
	.clk_in(clk_25m), .clk_out0(clk), .clk_out1(gtx_clk), .locked(locked)
);
wire rst_any = !locked;
wire rst;
pisa_rst_sync u_rst (.clk(clk), .rst_in(rst_any), .rst_out(rst));
assign phy_rst_n = 1'b1;
assign phy_mdc = 1'b0;

// ---- the ports ----
// port p's frames leave on port p ^ 1
wire [8:0] in_port;
wire [7:0] in_data;
wire in_last, in_valid, in_ready;
wire [8:0] sk_port;
wire [7:0] sk_data;
wire sk_last, sk_valid, sk_ready;
wire [N-1:0] rx_act, tx_act, tx_pend;
wire st_req, st_busy;
wire [0:0] st_port;
wire [3:0] st_idx;
wire [15:0] st_value;
pisa_eth_ports #(.PHY("rgmii"), .FAMILY(FAMILY), .N(N), .MAX_FRAME(MAX_FRAME),
	.RX_DEPTH(RX_DEPTH), .TX_DEPTH(TX_DEPTH), .RX_DELAY(RX_DELAY)) u_ports (
	.clk(clk), .rst(rst), .rst_in(rst_any),
	.phy_rx_clk(rgmii_rx_clk), .phy_rxd(rgmii_rxd), .phy_rx_ctl(rgmii_rx_ctl),
	.gtx_clk(gtx_clk), .phy_tx_clk(rgmii_tx_clk), .phy_txd(rgmii_txd),
	.phy_tx_ctl(rgmii_tx_ctl),
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
wire _unused = &{1'b0, rx_act, tx_act, tx_pend, 1'b0};

endmodule

`resetall
