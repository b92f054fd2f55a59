// SPDX-License-Identifier: Apache-2.0
// board_pins.vh: what tb_board.v and tb_bridge.v share at module level: the board's ports and
// clocks, its pins with behavioural PHYs' registers on them, the top under test, CRC-32 and a
// host's side of the UART (8N1).
// The includer defines BOARD_ICEBREAKER, BOARD_HX8K or BOARD_COLORLIGHT (none: the iCEBreaker)
// and TB_DUT_ICEBREAKER, TB_DUT_HX8K and TB_DUT_COLORLIGHT: the module to test on each board
// (its switch top or its bridge; they have the same pins), and TB_COLORLIGHT_PARAMS: more
// parameters for the Colorlight's module (empty, or starting with a comma).
// The core clock drives the oscillator pin (FAMILY "sim": the PLL is a wire); REF_CLK is 50 MHz;
// on the Colorlight the core clock is also the RGMII transmit clock (125 MHz) and each PHY's RXC
// is its own 125 MHz clock. Time unit: 1 ns. The UART runs at 4 core clocks a bit.

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
`TB_DUT_COLORLIGHT #(.FAMILY("sim"), .CLKS_PER_BIT(CLKS_PER_BIT) `TB_COLORLIGHT_PARAMS) dut (
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
`ifdef BOARD_HX8K
wire [7:0] led;
`TB_DUT_HX8K #(.FAMILY("sim"), .CLK_HZ(50000000), .CLKS_PER_BIT(CLKS_PER_BIT)) dut (
	.clk_12m(clk), .uart_rx(uart_h2s), .uart_tx(uart_s2h), .led(led),
	.rmii_ref_clk(ref_clk), .rmii_crs_dv(crs_dv), .rmii_rxd(rxd), .rmii_tx_en(tx_en),
	.rmii_txd(txd)
);
`elsif BOARD_COLORLIGHT
`else
wire ledr_n, ledg_n;
wire [4:0] led;
`TB_DUT_ICEBREAKER #(.FAMILY("sim"), .CLK_HZ(29411765), .CLKS_PER_BIT(CLKS_PER_BIT)) dut (
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

// A byte to the top's uart_rx.
task uart_send(input [7:0] b);
	integer i;
	begin
		uart_h2s <= 1'b0;
		repeat (CLKS_PER_BIT) @(posedge clk);
		for (i = 0; i < 8; i = i + 1) begin
			uart_h2s <= b[i];
			repeat (CLKS_PER_BIT) @(posedge clk);
		end
		uart_h2s <= 1'b1;
		repeat (CLKS_PER_BIT) @(posedge clk);
	end
endtask

// The next byte from the top's uart_tx, sampled mid-bit.
task uart_recv(output [7:0] b);
	integer i;
	begin
		@(posedge clk);
		while (uart_s2h != 1'b0)
			@(posedge clk);
		repeat (CLKS_PER_BIT / 2 + CLKS_PER_BIT) @(posedge clk);
		for (i = 0; i < 8; i = i + 1) begin
			b[i] = uart_s2h;
			if (i < 7)
				repeat (CLKS_PER_BIT) @(posedge clk);
		end
		repeat (CLKS_PER_BIT) @(posedge clk);
	end
endtask
