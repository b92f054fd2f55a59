// SPDX-License-Identifier: Apache-2.0
// pisa_bridge_colorlight: a bring-up bitstream for the Colorlight 5A-75B (not the switch): every
// frame received on port 0 leaves on port 1 and the other way round, through the same pins,
// PLL, delays, resets, MACs and port mux/demux as pisa_top_colorlight (whose header says what
// each part does). Two hosts on the two Ethernet jacks can ping each other through it: a check
// of the PHYs' straps and delays before the switch fits, and what `make bitstream
// BOARD=colorlight-5a-75b TOP=pisa_bridge_colorlight` proves the bitstream flow with today.
// The UART echoes what it receives.
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
localparam [8*5-1:0] F_ECP5 = "ecp5", F_SIM = "sim";
localparam [8*5-1:0] MAC_FAMILY = FAMILY == F_ECP5 ? F_ECP5 : F_SIM;

// ---- clocks and resets ----
wire clk, gtx_clk, locked;
pisa_pll #(.FAMILY(FAMILY), .CLKI_DIV(1), .CLKFB_DIV(5), .CLKOP_DIV(5), .CLKOS_DIV(CORE_DIV))
	u_pll (
	.clk_in(clk_25m), .clk_out0(clk), .clk_out1(gtx_clk), .locked(locked)
);
wire rst_any = !locked;
wire rst, gtx_rst;
pisa_rst_sync u_rst (.clk(clk), .rst_in(rst_any), .rst_out(rst));
pisa_rst_sync u_gtx_rst (.clk(gtx_clk), .rst_in(rst_any), .rst_out(gtx_rst));
assign phy_rst_n = 1'b1;
assign phy_mdc = 1'b0;

// ---- receive pin delays ----
wire [7:0] rxd_d;
wire [1:0] rx_ctl_d;
genvar i;
generate
	if (FAMILY == F_ECP5 && RX_DELAY > 0) begin : g_delay
		for (i = 0; i < 10; i = i + 1) begin : g_pin
			wire pin_in = i < 8 ? rgmii_rxd[i] : rgmii_rx_ctl[i - 8];
			wire pin_out;
			DELAYG #(.DEL_MODE("USER_DEFINED"), .DEL_VALUE(RX_DELAY)) u_delay (
				.A(pin_in), .Z(pin_out)
			);
			if (i < 8) begin : g_d
				assign rxd_d[i] = pin_out;
			end else begin : g_c
				assign rx_ctl_d[i - 8] = pin_out;
			end
		end
	end else begin : g_nodelay
		assign rxd_d = rgmii_rxd;
		assign rx_ctl_d = rgmii_rx_ctl;
	end
endgenerate

// ---- the ports ----
wire [8*N-1:0] rx_data;
wire [N-1:0] rx_last, rx_valid, rx_ready;
wire [7:0] tx_data;
wire [N-1:0] tx_last, tx_valid, tx_ready;

generate
	for (i = 0; i < N; i = i + 1) begin : g_port
		wire rx_rst;
		wire [31:0] c_rf, c_rb, c_fcs, c_runt, c_giant, c_rdrop, c_tf, c_tb, c_tdrop;
		pisa_rst_sync u_rst (.clk(rgmii_rx_clk[i]), .rst_in(rst_any), .rst_out(rx_rst));
		pisa_mac_rgmii #(.FAMILY(MAC_FAMILY), .MAX_FRAME(MAX_FRAME),
			.RX_DEPTH(RX_DEPTH), .TX_DEPTH(TX_DEPTH), .CNT_W(32)) u_mac (
			.clk(clk), .rst(rst),
			.rx_data(rx_data[8 * i +: 8]), .rx_last(rx_last[i]), .rx_valid(rx_valid[i]),
			.rx_ready(rx_ready[i]),
			.tx_data(tx_data), .tx_last(tx_last[i]), .tx_valid(tx_valid[i]),
			.tx_ready(tx_ready[i]),
			.rgmii_rx_clk(rgmii_rx_clk[i]), .rgmii_rx_rst(rx_rst),
			.rgmii_rxd(rxd_d[4 * i +: 4]), .rgmii_rx_ctl(rx_ctl_d[i]),
			.gtx_clk(gtx_clk), .gtx_rst(gtx_rst),
			.rgmii_tx_clk(rgmii_tx_clk[i]), .rgmii_txd(rgmii_txd[4 * i +: 4]),
			.rgmii_tx_ctl(rgmii_tx_ctl[i]),
			// nothing reads the MAC counters yet (no protocol message for them)
			.rx_frames(c_rf), .rx_bytes(c_rb), .rx_fcs_errors(c_fcs), .rx_runts(c_runt),
			.rx_giants(c_giant), .rx_drops(c_rdrop), .tx_frames(c_tf), .tx_bytes(c_tb),
			.tx_drops(c_tdrop)
		);
		wire _unused = &{1'b0, c_rf, c_rb, c_fcs, c_runt, c_giant, c_rdrop, c_tf, c_tb,
			c_tdrop, 1'b0};
	end
endgenerate

wire [8:0] in_port;
wire [7:0] in_data;
wire in_last, in_valid, in_ready;
pisa_port_mux #(.N(N)) u_mux (
	.clk(clk), .rst(rst),
	.s_data(rx_data), .s_last(rx_last), .s_valid(rx_valid), .s_ready(rx_ready),
	.m_port(in_port), .m_data(in_data), .m_last(in_last), .m_valid(in_valid),
	.m_ready(in_ready)
);

// port p's frames leave on port p ^ 1
wire [15:0] out_drops;
// (a register stage between the two: the mux's choice and the demux's decode in one cycle would
// be the slowest path)
wire [8:0] sk_port;
wire [7:0] sk_data;
wire sk_last, sk_valid, sk_ready;
pisa_skid #(.WIDTH(18)) u_skid (
	.clk(clk), .rst(rst),
	.s_data({in_port, in_last, in_data}), .s_valid(in_valid), .s_ready(in_ready),
	.m_data({sk_port, sk_last, sk_data}), .m_valid(sk_valid), .m_ready(sk_ready)
);
pisa_port_demux #(.N(N), .CNT_W(16)) u_demux (
	.clk(clk), .rst(rst),
	.s_port({7'd0, sk_port ^ 9'd1}), .s_data(sk_data), .s_last(sk_last), .s_valid(sk_valid),
	.s_ready(sk_ready),
	.m_data(tx_data), .m_last(tx_last), .m_valid(tx_valid), .m_ready(tx_ready),
	.drops(out_drops)
);

// UART echo
wire [7:0] u_data;
wire u_valid, u_ready, u_e0, u_e1, u_e2, u_busy;
pisa_uart_rx #(.CLKS_PER_BIT(CLKS_PER_BIT)) u_urx (
	.clk(clk), .rst(rst), .rxd(uart_rx), .m_data(u_data), .m_valid(u_valid), .m_ready(u_ready),
	.err_false_start(u_e0), .err_frame(u_e1), .err_overrun(u_e2)
);
pisa_uart_tx #(.CLKS_PER_BIT(CLKS_PER_BIT)) u_utx (
	.clk(clk), .rst(rst), .s_data(u_data), .s_valid(u_valid), .s_ready(u_ready), .txd(uart_tx),
	.busy(u_busy)
);
wire _unused = &{1'b0, out_drops, u_e0, u_e1, u_e2, u_busy, 1'b0};

endmodule

`resetall
