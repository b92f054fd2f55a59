// SPDX-License-Identifier: Apache-2.0
// pisa_top_hx8k: the OpenPISA switch on a Lattice iCE40-HX8K Breakout Board (iCE40HX8K-CT256):
// four 100 Mb/s RMII ports on header J2, the control link on the FT2232H's channel B UART,
// status on the eight LEDs. Pins: hx8k-breakout.pcf; what to wire: README.md.
//
//   12 MHz -> PLL (SB_PLL40_CORE) -> clk (the core clock, CLK_HZ) -----------------------------+
//   J2 pin 5: REF_CLK, one 50 MHz oscillator for all four PHYs -> rmii_clk (one domain)       |
//   RMII pins <-> pisa_eth_ports (pisa_mac_rmii x 4: rmii_clk | clk) -> pisa_switch (clk) <----+
//                 (pisa_port_mux, pisa_port_demux)                   <-
//   FT2232H B (uart_rx B10, uart_tx B12) <-> pisa_switch's control link (pisa_ctl_link)
//
// Reset: until the PLL locked (the board has no user button); each clock domain leaves reset
// on its own edge (pisa_rst_sync). The PHYs keep their strap settings (no MDIO); the MACs run
// 100 Mb/s only (mode_10m = 0).
// LEDs (D2..D9 = led[0..7], lit = true): led[3:0] a frame received or sent on port 3..0 (lit
// ~90 ms after it), led[5] program loaded and running, led[6] the host's session is open,
// led[7] the PLL locked.
// FAMILY = "sim" makes the PLL a wire (clk_12m must then run at the core clock) for sim/board.
`default_nettype none

module pisa_top_hx8k #(
	// "ice40" on the board, "sim" in the board-level simulation.
	parameter [8*5-1:0] FAMILY = "ice40",
	// The PLL's settings for CLK_HZ from 12 MHz (icepll; boards/Makefile passes them).
	parameter [3:0] PLL_DIVR = 4'd0,
	parameter [6:0] PLL_DIVF = 7'd63,
	parameter [2:0] PLL_DIVQ = 3'd4,
	parameter [2:0] PLL_FILTER_RANGE = 3'd1,
	// The core clock in Hz (board.mk CORE_MHZ).
	parameter CLK_HZ = 48000000,
	// UART bit rate (pisad's PISAD_UART_BAUD) and the clocks a bit that follow from it.
	parameter UART_BAUD = 3000000,
	parameter CLKS_PER_BIT = (CLK_HZ + UART_BAUD / 2) / UART_BAUD,
	// Control link: largest frame payload and frames in flight (block RAM: keep them small).
	parameter MAX_PAYLOAD = 256,
	parameter WINDOW = 4,
	// its area options (pisa_ctl_link): bit-serial CRCs, 16 bytes of the program's name in
	// HELLO_REPLY, 8-bit frame counters
	parameter CRC_SERIAL = 1,
	parameter PROGRAM_BYTES = 16,
	parameter CNT_W = 8,
	// The MACs' counters readable over the control link (`pisactl port-counters`): 1, or 0 to
	// leave them out (synthesis then removes the counters themselves).
	parameter MAC_COUNTERS = 1,
	// Longest Ethernet frame (FCS included) and the MACs' buffers: 512 bytes each way per port
	// (1 SB_RAM40_4K each: 8 of the 32 for four ports), so frames up to 510 bytes (an IP MTU
	// of 492).
	parameter MAX_FRAME = 510,
	parameter RX_DEPTH = 512,
	parameter TX_DEPTH = 512,
	// the core's sizes: this board's profile (lib/pisa_profile.c, `p4lower --board hx8k-breakout
	// --core-params`; boards/check-params.sh keeps them equal)
	parameter CFG_WORDS = 512,
	parameter BANKS = 1,
	parameter ROW_BYTES = 16384,
	parameter CNT_CELLS = 64,
	parameter REG_CELLS = 128,
	parameter MTR_CELLS = 0,
	parameter KEY_BITS = 64,
	parameter PHV_MAX = 256,
	parameter PKT_MAX = 2048,
	parameter ROW_STAGE = 256,
	parameter STACKS = 8,
	parameter MC_GROUPS = 16,
	parameter MC_SLOT = 4,
	parameter DIG_MAX = 64,
	parameter CL_SESS = 4
) (
	input  wire       clk_12m,
	input  wire       uart_rx,
	output wire       uart_tx,
	output wire [7:0] led,

	input  wire       rmii_ref_clk,  // the 50 MHz oscillator all four PHYs share
	input  wire [3:0] rmii_crs_dv,
	input  wire [7:0] rmii_rxd,      // port i: RXD1..0 at [2i+1:2i]
	output wire [3:0] rmii_tx_en,
	output wire [7:0] rmii_txd
);

localparam N = 4;

// ---- clocks and resets ----
wire clk, clk_unused, locked;
pisa_pll #(.FAMILY(FAMILY), .DIVR(PLL_DIVR), .DIVF(PLL_DIVF), .DIVQ(PLL_DIVQ),
	.FILTER_RANGE(PLL_FILTER_RANGE)) u_pll (
	.clk_in(clk_12m), .clk_out0(clk), .clk_out1(clk_unused), .locked(locked)
);
wire rst_any = !locked;
wire rst;
pisa_rst_sync u_rst (.clk(clk), .rst_in(rst_any), .rst_out(rst));

// ---- the ports (one rst_sync per MAC, though they share REF_CLK) ----
wire [8:0] in_port;
wire [7:0] in_data;
wire in_last, in_valid, in_ready;
wire [15:0] out_port;
wire [7:0] out_data;
wire out_last, out_valid, out_ready;
wire [N-1:0] rmii_tx_clk_unused, rx_act, tx_act, tx_pend;
wire mac_req, mac_busy;	// the MACs' counters, read through pisa_switch
wire [15:0] mac_port, mac_value;
wire [3:0] mac_idx;
pisa_eth_ports #(.PHY("rmii"), .N(N), .MAX_FRAME(MAX_FRAME), .RX_DEPTH(RX_DEPTH),
	.TX_DEPTH(TX_DEPTH)) u_ports (
	.clk(clk), .rst(rst), .rst_in(rst_any),
	.phy_rx_clk({N{rmii_ref_clk}}), .phy_rxd(rmii_rxd), .phy_rx_ctl(rmii_crs_dv),
	.gtx_clk(1'b0), .phy_tx_clk(rmii_tx_clk_unused), .phy_txd(rmii_txd),
	.phy_tx_ctl(rmii_tx_en),
	.m_pkt_port(in_port), .m_pkt_data(in_data), .m_pkt_last(in_last), .m_pkt_valid(in_valid),
	.m_pkt_ready(in_ready),
	.s_pkt_port(out_port), .s_pkt_data(out_data), .s_pkt_last(out_last),
	.s_pkt_valid(out_valid), .s_pkt_ready(out_ready),
	.rx_act(rx_act), .tx_act(tx_act), .tx_pend(tx_pend),
	.stats_req(mac_req), .stats_busy(mac_busy), .stats_port(mac_port[$clog2(N)-1:0]),
	.stats_idx(mac_idx), .stats_value(mac_value)
);

// ---- the switch ----
wire loaded, session, spi_miso, spi_miso_oe;
wire ctl_s_ready, ctl_m_last, ctl_m_valid;  // the link's byte port: unused with PHY "uart"
wire [7:0] ctl_m_data;
wire [31:0] cnt_rx, cnt_tx, cnt_drop;
pisa_switch #(
	.CLK_HZ(CLK_HZ), .PHY("uart"), .CLKS_PER_BIT(CLKS_PER_BIT), .MAX_PAYLOAD(MAX_PAYLOAD),
	.WINDOW(WINDOW), .CRC_SERIAL(CRC_SERIAL), .PROGRAM_BYTES(PROGRAM_BYTES), .CNT_W(CNT_W),
	.PORTS(N), .CPU_PORT(16'd255), .MAC_PORTS(MAC_COUNTERS ? N : 0), .STAGES(16'd4),
	.BOARD("hx8k-breakout"),
	.CFG_WORDS(CFG_WORDS), .BANKS(BANKS), .ROW_BYTES(ROW_BYTES), .CNT_CELLS(CNT_CELLS),
	.REG_CELLS(REG_CELLS), .MTR_CELLS(MTR_CELLS), .KEY_BITS(KEY_BITS), .PHV_MAX(PHV_MAX),
	.PKT_MAX(PKT_MAX), .ROW_STAGE(ROW_STAGE), .STACKS(STACKS), .MC_GROUPS(MC_GROUPS),
	.MC_SLOT(MC_SLOT), .DIG_MAX(DIG_MAX), .CL_SESS(CL_SESS)
) u_switch (
	.clk(clk), .rst(rst),
	.uart_rxd(uart_rx), .uart_txd(uart_tx),
	.spi_sck(1'b0), .spi_cs_n(1'b1), .spi_mosi(1'b0), .spi_miso(spi_miso),
	.spi_miso_oe(spi_miso_oe),
	.s_ctl_data(8'd0), .s_ctl_valid(1'b0), .s_ctl_ready(ctl_s_ready),
	.m_ctl_data(ctl_m_data), .m_ctl_last(ctl_m_last), .m_ctl_valid(ctl_m_valid),
	.m_ctl_ready(1'b1),
	.s_pkt_port(in_port), .s_pkt_data(in_data), .s_pkt_last(in_last), .s_pkt_valid(in_valid),
	.s_pkt_ready(in_ready),
	.m_pkt_port(out_port), .m_pkt_data(out_data), .m_pkt_last(out_last),
	.m_pkt_valid(out_valid), .m_pkt_ready(out_ready),
	.mac_req(mac_req), .mac_busy(mac_busy), .mac_port(mac_port), .mac_idx(mac_idx),
	.mac_value(mac_value),
	.loaded(loaded), .session(session), .cnt_rx(cnt_rx), .cnt_tx(cnt_tx), .cnt_drop(cnt_drop)
);
wire _unused = &{1'b0, spi_miso, spi_miso_oe, ctl_s_ready, ctl_m_data, ctl_m_last, ctl_m_valid,
	cnt_rx, cnt_tx, cnt_drop, clk_unused, rmii_tx_clk_unused, tx_act, mac_port, 1'b0};

// ---- LEDs: activity stretched to ~90 ms (2^22 core cycles at 48 MHz) ----
wire [3:0] show;
pisa_led_stretch #(.N(4), .TICK_W(22)) u_leds (
	// (a frame offered to a MAC counts as sent, moved or not)
	.clk(clk), .rst(rst), .act(rx_act | tx_pend), .show(show)
);
assign led = {locked, session, loaded, 1'b0, show};

endmodule

`resetall
