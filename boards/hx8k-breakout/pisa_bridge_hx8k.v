// SPDX-License-Identifier: Apache-2.0
// pisa_bridge_hx8k: a bring-up bitstream for the HX8K board's wiring (not the switch): every
// frame received on port 0 leaves on port 1 and the other way round, likewise ports 2 and 3,
// through the same pins, PLL, resets, MACs and port mux/demux as pisa_top_hx8k. Hosts on two
// paired PHY modules can ping each other through it: a check of the modules and the wiring
// before the switch fits, and what `make bitstream BOARD=hx8k-breakout TOP=pisa_bridge_hx8k`
// proves the bitstream flow with today. The UART echoes what it receives (a check of channel
// B). LEDs: led[3:0] activity on port 3..0, led[7] the PLL locked.
`default_nettype none

module pisa_bridge_hx8k #(
	parameter [8*5-1:0] FAMILY = "ice40",
	parameter [3:0] PLL_DIVR = 4'd0,
	parameter [6:0] PLL_DIVF = 7'd63,
	parameter [2:0] PLL_DIVQ = 3'd4,
	parameter [2:0] PLL_FILTER_RANGE = 3'd1,
	parameter CLK_HZ = 48000000,
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

wire [8*N-1:0] rx_data;
wire [N-1:0] rx_last, rx_valid, rx_ready;
wire [7:0] tx_data;
wire [N-1:0] tx_last, tx_valid, tx_ready;

genvar i;
generate
	for (i = 0; i < N; i = i + 1) begin : g_port
		wire rmii_rst;  // one per MAC, so that each sits next to its logic
		wire [15:0] c_rf, c_rb, c_fcs, c_runt, c_giant, c_rdrop, c_tf, c_tb, c_tdrop;
		pisa_rst_sync u_rst (.clk(rmii_ref_clk), .rst_in(rst_any), .rst_out(rmii_rst));
		pisa_mac_rmii #(.MAX_FRAME(MAX_FRAME), .RX_DEPTH(RX_DEPTH), .TX_DEPTH(TX_DEPTH),
			.CNT_W(16)) u_mac (
			.clk(clk), .rst(rst),
			.rx_data(rx_data[8 * i +: 8]), .rx_last(rx_last[i]), .rx_valid(rx_valid[i]),
			.rx_ready(rx_ready[i]),
			.tx_data(tx_data), .tx_last(tx_last[i]), .tx_valid(tx_valid[i]),
			.tx_ready(tx_ready[i]),
			.rmii_clk(rmii_ref_clk), .rmii_rst(rmii_rst), .mode_10m(1'b0),
			.rmii_rxd(rmii_rxd[2 * i +: 2]), .rmii_crs_dv(rmii_crs_dv[i]),
			.rmii_txd(rmii_txd[2 * i +: 2]), .rmii_tx_en(rmii_tx_en[i]),
			.rx_frames(c_rf), .rx_bytes(c_rb), .rx_fcs_errors(c_fcs), .rx_runts(c_runt),
			.rx_giants(c_giant), .rx_drops(c_rdrop), .tx_frames(c_tf), .tx_bytes(c_tb),
			.tx_drops(c_tdrop)
		);
		wire _unused = &{1'b0, c_rf, c_rb, c_fcs, c_runt, c_giant, c_rdrop, c_tf, c_tb,
			c_tdrop, 1'b0};
	end
endgenerate

// port p's frames leave on port p ^ 1
wire [8:0] in_port;
wire [7:0] in_data;
wire in_last, in_valid, in_ready;
pisa_port_mux #(.N(N)) u_mux (
	.clk(clk), .rst(rst),
	.s_data(rx_data), .s_last(rx_last), .s_valid(rx_valid), .s_ready(rx_ready),
	.m_port(in_port), .m_data(in_data), .m_last(in_last), .m_valid(in_valid),
	.m_ready(in_ready)
);
wire [15:0] drops;
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
	.drops(drops)
);

// UART echo
wire [7:0] u_data;
wire u_valid, u_ready, u_e0, u_e1, u_e2, u_busy;
pisa_uart_rx #(.CLKS_PER_BIT((CLK_HZ + 1500000) / 3000000)) u_urx (
	.clk(clk), .rst(rst), .rxd(uart_rx), .m_data(u_data), .m_valid(u_valid), .m_ready(u_ready),
	.err_false_start(u_e0), .err_frame(u_e1), .err_overrun(u_e2)
);
pisa_uart_tx #(.CLKS_PER_BIT((CLK_HZ + 1500000) / 3000000)) u_utx (
	.clk(clk), .rst(rst), .s_data(u_data), .s_valid(u_valid), .s_ready(u_ready), .txd(uart_tx),
	.busy(u_busy)
);

reg [21:0] tick_reg = 22'd0;
reg [3:0] seen_reg = 4'd0, show_reg = 4'd0;
wire [3:0] act = (rx_valid & rx_ready) | tx_valid;
always @(posedge clk) begin
	tick_reg <= tick_reg + 1'b1;
	seen_reg <= seen_reg | act;
	if (&tick_reg) begin
		show_reg <= seen_reg | act;
		seen_reg <= 4'd0;
	end
	if (rst) begin
		seen_reg <= 4'd0;
		show_reg <= 4'd0;
	end
end
assign led = {locked, 3'b000, show_reg};
wire _unused = &{1'b0, drops, clk_unused, u_e0, u_e1, u_e2, u_busy, 1'b0};

endmodule

`resetall
