// SPDX-License-Identifier: Apache-2.0
// pisa_top_colorlight: the OpenPISA switch on a Colorlight 5A-75B v8.0 (LFE5U-25F-6BG256C): its
// two 1000 Mb/s RGMII PHYs (RTL8211FD) as ports 0 and 1, the control link on a UART at header
// J19 (the board has no USB: a 3.3 V USB-UART adapter there, a JTAG adapter to load it).
// Pins: colorlight-5a-75b.lpf; what to wire: README.md.
//
//   25 MHz (from PHY 1) -> PLL (EHXPLLL, VCO 625 MHz) -> gtx_clk 125 MHz (RGMII transmit)
//                                                     -> clk (the core, 625 / CORE_DIV MHz)
//   RGMII pins <-> pisa_eth_ports (pisa_mac_rgmii x 2: RXC | gtx_clk | clk) -> pisa_switch
//                  (pisa_port_mux, pisa_port_demux)                         <-
//   J19: uart_rx (KEY+, R7), uart_tx (DATA_LED-, T6) <-> pisa_switch's control link
//
// The PHYs are never reset (PHY 1 makes the FPGA's clock) and are not configured (no MDIO): the
// board's straps must give RGMII with the PHY's transmit clock delay (TXDly); the receive side
// is delayed by RX_DELAY DELAYG taps (about 25 ps each, in pisa_eth_ports) so that RXC samples
// mid-bit. The MACs run 1000 Mb/s only: the link partner must negotiate gigabit.
// LEDs: the board's one LED (DATA_LED-) carries the UART's transmit line, so nothing else shows
// status; the UART's activity is visible on it.
// FAMILY = "sim" makes the PLL a wire (clk_25m must then run at the core clock, which is also
// the transmit clock) and leaves out the delays, for sim/board.
`default_nettype none

module pisa_top_colorlight #(
	// "ecp5" on the board, "sim" in the board-level simulation.
	parameter [8*5-1:0] FAMILY = "ecp5",
	// The core clock: VCO / CORE_DIV (625 MHz / 5 = 125 MHz); boards/Makefile sets both.
	parameter CORE_DIV = 5,
	parameter CLK_HZ = 125000000,
	// UART bit rate (pisad's PISAD_UART_BAUD) and the clocks a bit that follow from it.
	parameter UART_BAUD = 3000000,
	parameter CLKS_PER_BIT = (CLK_HZ + UART_BAUD / 2) / UART_BAUD,
	// Control link: largest frame payload and frames in flight, and its area options
	// (pisa_ctl_link: bit-serial CRCs, 16 bytes of the program's name in HELLO_REPLY, 8-bit
	// frame counters): about 600 LUT4 less than its defaults, which this device needs.
	parameter MAX_PAYLOAD = 512,
	parameter WINDOW = 8,
	parameter CRC_SERIAL = 1,
	parameter PROGRAM_BYTES = 16,
	parameter CNT_W = 8,
	// The MACs' counters readable over the control link (`pisactl port-counters`): 0 by
	// default, as they and their copy into the core clock (about 700 TRELLIS_COMB for the two
	// ports) do not fit beside the core; 1 keeps them (the board-level simulation does).
	parameter MAC_COUNTERS = 0,
	// Longest Ethernet frame (FCS included) and the MACs' buffers (one DP16KD each).
	parameter MAX_FRAME = 1518,
	parameter RX_DEPTH = 2048,
	parameter TX_DEPTH = 2048,
	// Receive pin delay, DELAYG taps (0: none).
	parameter RX_DELAY = 80,
	// the core's sizes: this board's profile (lib/pisa_profile.c, `p4lower --board colorlight-5a-75b
	// --core-params`; boards/check-params.sh keeps them equal)
	parameter CFG_WORDS = 1024,
	parameter BANKS = 2,
	parameter ROW_BYTES = 49024,
	parameter CNT_CELLS = 512,
	parameter REG_CELLS = 256,
	parameter MTR_CELLS = 64,
	parameter KEY_BITS = 128,
	parameter PHV_MAX = 256,
	parameter PKT_MAX = 2048,
	parameter ROW_STAGE = 512,
	parameter STACKS = 8,
	parameter MC_GROUPS = 64,
	parameter MC_SLOT = 8,
	parameter DIG_MAX = 128,
	parameter CL_SESS = 16
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
wire [8:0] in_port;
wire [7:0] in_data;
wire in_last, in_valid, in_ready;
wire [15:0] out_port;
wire [7:0] out_data;
wire out_last, out_valid, out_ready;
wire [N-1:0] rx_act, tx_act, tx_pend;
wire mac_req, mac_busy;	// the MACs' counters, read through pisa_switch
wire [15:0] mac_port, mac_value;
wire [3:0] mac_idx;
pisa_eth_ports #(.PHY("rgmii"), .FAMILY(FAMILY), .N(N), .MAX_FRAME(MAX_FRAME),
	.RX_DEPTH(RX_DEPTH), .TX_DEPTH(TX_DEPTH), .RX_DELAY(RX_DELAY)) u_ports (
	.clk(clk), .rst(rst), .rst_in(rst_any),
	.phy_rx_clk(rgmii_rx_clk), .phy_rxd(rgmii_rxd), .phy_rx_ctl(rgmii_rx_ctl),
	.gtx_clk(gtx_clk), .phy_tx_clk(rgmii_tx_clk), .phy_txd(rgmii_txd),
	.phy_tx_ctl(rgmii_tx_ctl),
	.m_pkt_port(in_port), .m_pkt_data(in_data), .m_pkt_last(in_last), .m_pkt_valid(in_valid),
	.m_pkt_ready(in_ready),
	.s_pkt_port(out_port), .s_pkt_data(out_data), .s_pkt_last(out_last),
	.s_pkt_valid(out_valid), .s_pkt_ready(out_ready),
	.rx_act(rx_act), .tx_act(tx_act), .tx_pend(tx_pend),
	.stats_req(mac_req), .stats_busy(mac_busy), .stats_port(mac_port[$clog2(N)-1:0]),
	.stats_idx(mac_idx), .stats_value(mac_value)
);

// ---- the switch ----
// BOARD: the image format keeps 15 characters of a board name, so images for this profile
// say "colorlight-5a-7" (docs/config-image.md); the loader compares with what they say.
wire loaded, session, spi_miso, spi_miso_oe;
wire ctl_s_ready, ctl_m_last, ctl_m_valid;  // the link's byte port: unused with PHY "uart"
wire [7:0] ctl_m_data;
wire [31:0] cnt_rx, cnt_tx, cnt_drop;
pisa_switch #(
	.CLK_HZ(CLK_HZ), .PHY("uart"), .CLKS_PER_BIT(CLKS_PER_BIT), .MAX_PAYLOAD(MAX_PAYLOAD),
	.WINDOW(WINDOW), .CRC_SERIAL(CRC_SERIAL), .PROGRAM_BYTES(PROGRAM_BYTES), .CNT_W(CNT_W),
	.PORTS(N), .CPU_PORT(16'd255), .MAC_PORTS(MAC_COUNTERS ? N : 0), .STAGES(16'd8),
	.BOARD("colorlight-5a-7"),
	.CFG_WORDS(CFG_WORDS), .BANKS(BANKS), .ROW_BYTES(ROW_BYTES), .CNT_CELLS(CNT_CELLS),
	.REG_CELLS(REG_CELLS), .MTR_CELLS(MTR_CELLS), .KEY_BITS(KEY_BITS), .PHV_MAX(PHV_MAX),
	.PKT_MAX(PKT_MAX), .ROW_STAGE(ROW_STAGE), .STACKS(STACKS), .MC_GROUPS(MC_GROUPS),
	.MC_SLOT(MC_SLOT), .DIG_MAX(DIG_MAX), .CL_SESS(CL_SESS), .DM_RAM_BITS(1)
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
	cnt_rx, cnt_tx, cnt_drop, loaded, session, rx_act, tx_act, tx_pend, mac_port, 1'b0};

endmodule

`resetall
