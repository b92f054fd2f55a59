// SPDX-License-Identifier: Apache-2.0
// pisa_bridge_icebreaker: a bring-up bitstream for the iCEBreaker wiring (not the switch): every
// frame received on port 0 leaves on port 1 and the other way round, through the same pins,
// PLL, resets, MACs and port mux/demux as pisa_top_icebreaker. Two hosts on the two PHY modules
// can ping each other through it: a check of the modules and the wiring before the switch
// fits, and what `make bitstream BOARD=icebreaker TOP=pisa_bridge_icebreaker` proves the
// bitstream flow with today. The UART echoes what it receives (a check of channel B).
// LEDs as in pisa_top_icebreaker, LEDG lit (nothing to load), LEDR off.
`default_nettype none

module pisa_bridge_icebreaker #(
	parameter [8*5-1:0] FAMILY = "ice40",
	parameter [3:0] PLL_DIVR = 4'd0,
	parameter [6:0] PLL_DIVF = 7'd79,
	parameter [2:0] PLL_DIVQ = 3'd5,
	parameter [2:0] PLL_FILTER_RANGE = 3'd1,
	parameter CLK_HZ = 30000000,
	parameter MAX_FRAME = 1022,
	parameter RX_DEPTH = 1024,
	parameter TX_DEPTH = 1024
) (
	input  wire       clk_12m,
	input  wire       btn_n,
	input  wire       uart_rx,
	output wire       uart_tx,
	output wire       ledr_n,
	output wire       ledg_n,
	output wire [4:0] led,

	input  wire [1:0] rmii_ref_clk,
	input  wire [1:0] rmii_crs_dv,
	input  wire [3:0] rmii_rxd,
	output wire [1:0] rmii_tx_en,
	output wire [3:0] rmii_txd
);

localparam N = 2;

wire clk, clk_unused, locked;
pisa_pll #(.FAMILY(FAMILY), .ICE40_PAD(1), .DIVR(PLL_DIVR), .DIVF(PLL_DIVF), .DIVQ(PLL_DIVQ),
	.FILTER_RANGE(PLL_FILTER_RANGE)) u_pll (
	.clk_in(clk_12m), .clk_out0(clk), .clk_out1(clk_unused), .locked(locked)
);
wire rst_any = !locked || !btn_n;
wire rst;
pisa_rst_sync u_rst (.clk(clk), .rst_in(rst_any), .rst_out(rst));

wire [8*N-1:0] rx_data;
wire [N-1:0] rx_last, rx_valid, rx_ready;
wire [7:0] tx_data;
wire [N-1:0] tx_last, tx_valid, tx_ready;

genvar i;
generate
	for (i = 0; i < N; i = i + 1) begin : g_port
		wire rmii_rst;
		wire [15:0] c_rf, c_rb, c_fcs, c_runt, c_giant, c_rdrop, c_tf, c_tb, c_tdrop;
		pisa_rst_sync u_rst (.clk(rmii_ref_clk[i]), .rst_in(rst_any), .rst_out(rmii_rst));
		pisa_mac_rmii #(.MAX_FRAME(MAX_FRAME), .RX_DEPTH(RX_DEPTH), .TX_DEPTH(TX_DEPTH),
			.CNT_W(16)) u_mac (
			.clk(clk), .rst(rst),
			.rx_data(rx_data[8 * i +: 8]), .rx_last(rx_last[i]), .rx_valid(rx_valid[i]),
			.rx_ready(rx_ready[i]),
			.tx_data(tx_data), .tx_last(tx_last[i]), .tx_valid(tx_valid[i]),
			.tx_ready(tx_ready[i]),
			.rmii_clk(rmii_ref_clk[i]), .rmii_rst(rmii_rst), .mode_10m(1'b0),
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

reg [20:0] tick_reg = 21'd0;
reg [3:0] seen_reg = 4'd0, show_reg = 4'd0;
wire [3:0] act = {tx_valid[1] && tx_ready[1], rx_valid[1] && rx_ready[1],
	tx_valid[0] && tx_ready[0], rx_valid[0] && rx_ready[0]};
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
assign ledg_n = 1'b0;
assign ledr_n = 1'b1;
assign led = {locked, show_reg};
wire _unused = &{1'b0, drops, clk_unused, u_e0, u_e1, u_e2, u_busy, 1'b0};

endmodule

`resetall
