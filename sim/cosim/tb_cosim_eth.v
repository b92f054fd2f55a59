// SPDX-License-Identifier: Apache-2.0
// tb_cosim_eth: a simulated board managed over Ethernet, as the Colorlight is: pisad
// --transport eth:IF reaches it through a Linux interface, no UART.
//
//   pisad <-> eth:IF (AF_PACKET, EtherType 0x88B5) <-> the other end of a veth pair
//         <-> pisa_vpi_eth.c ($pisa_eth_*) = the board's port 0 <-> pisa_ctl_eth
//         <-> pisa_switch with PHY "byte" (pisa_ctl_link, pisa_loader, pisa_core)
//
// Port 0 is the management port and a switch port at once: management frames (to MAC or
// broadcast, EtherType 0x88B5) go to the control link, every other frame into the pipeline
// on port 0; the replies and the packets the pipeline sends to port 0 share its wire. Packets
// for other ports are dropped (counted). The board is the sim profile of tb_cosim.v (511
// ports, CPU port 255, 32 stages) with 1 KiB frames (they fit an Ethernet frame) and window 16.
// Plusargs: +port0=IFNAME (required; needs root), +cycles=N (stop after N clock cycles).
// Build and run: tests/ethlink/test_ethlink.sh does both (iverilog with the RTL of
// sim/cosim/Makefile plus pisa_ctl_eth and pisa_fifo; vvp -M build/cosim -m pisa_vpi).
`default_nettype none

module tb_cosim_eth;

parameter MAX_PAYLOAD = 1024;
parameter [47:0] MAC = 48'h02_50_49_53_41_01;

reg clk = 1'b0;
reg rst = 1'b1;
always #5 clk = !clk;

// ---- the board ----
wire [7:0] c_in_data, c_out_data, sw_in_data, sw_out_data, tx_data;
wire c_in_valid, c_in_ready, c_out_last, c_out_valid, c_out_ready;
wire sw_in_last, sw_in_valid, sw_in_ready, sw_out_last, sw_out_valid;
wire tx_last, tx_valid, to0_ready;
wire [15:0] sw_out_port;
wire uart_txd, spi_miso, spi_miso_oe, loaded, session;
wire [31:0] cnt_rx, cnt_tx, cnt_drop;
wire [15:0] cnt_ctl_rx, cnt_ctl_tx;
reg [7:0] rx_data = 8'd0;
reg rx_last = 1'b0, rx_valid = 1'b0;
wire rx_ready;

pisa_switch #(
	.CLK_HZ(100000000), .PHY("byte"), .MAX_PAYLOAD(MAX_PAYLOAD), .PORTS(16'd511),
	.CPU_PORT(16'd255), .STAGES(16'd32), .BOARD("sim")
) u_switch (
	.clk(clk), .rst(rst),
	.uart_rxd(1'b1), .uart_txd(uart_txd),
	.spi_sck(1'b0), .spi_cs_n(1'b1), .spi_mosi(1'b0), .spi_miso(spi_miso),
	.spi_miso_oe(spi_miso_oe),
	.s_ctl_data(c_in_data), .s_ctl_valid(c_in_valid), .s_ctl_ready(c_in_ready),
	.m_ctl_data(c_out_data), .m_ctl_last(c_out_last), .m_ctl_valid(c_out_valid),
	.m_ctl_ready(c_out_ready),
	.s_pkt_port(9'd0), .s_pkt_data(sw_in_data), .s_pkt_last(sw_in_last),
	.s_pkt_valid(sw_in_valid), .s_pkt_ready(sw_in_ready),
	.m_pkt_port(sw_out_port), .m_pkt_data(sw_out_data), .m_pkt_last(sw_out_last),
	.m_pkt_valid(sw_out_valid), .m_pkt_ready(sw_out_port != 16'd0 || to0_ready),
	.mac_req(), .mac_busy(1'b0), .mac_port(), .mac_idx(), .mac_value(16'd0),	// no MACs
	.loaded(loaded), .session(session), .cnt_rx(cnt_rx), .cnt_tx(cnt_tx), .cnt_drop(cnt_drop)
);

pisa_ctl_eth #(.MAC(MAC)) u_eth (
	.clk(clk), .rst(rst),
	.s_rx_data(rx_data), .s_rx_last(rx_last), .s_rx_valid(rx_valid), .s_rx_ready(rx_ready),
	.m_rx_data(sw_in_data), .m_rx_last(sw_in_last), .m_rx_valid(sw_in_valid),
	.m_rx_ready(sw_in_ready),
	.m_ctl_data(c_in_data), .m_ctl_valid(c_in_valid), .m_ctl_ready(c_in_ready),
	.s_ctl_data(c_out_data), .s_ctl_last(c_out_last), .s_ctl_valid(c_out_valid),
	.s_ctl_ready(c_out_ready),
	.s_tx_data(sw_out_data), .s_tx_last(sw_out_last),
	.s_tx_valid(sw_out_valid && sw_out_port == 16'd0), .s_tx_ready(to0_ready),
	.m_tx_data(tx_data), .m_tx_last(tx_last), .m_tx_valid(tx_valid), .m_tx_ready(1'b1),
	.cnt_ctl_rx(cnt_ctl_rx), .cnt_ctl_tx(cnt_ctl_tx)
);
wire _unused = &{1'b0, uart_txd, spi_miso, spi_miso_oe, loaded, session, 1'b0};

// ---- port 0 on the interface ----
integer eth_len, eth_i, eth_r, cycles = 0, max_cycles = 0, n_other = 0;
always begin : eth_in
	@(posedge clk);
	// look every 16 cycles, so a system call does not cost every cycle
	if (!rst && cycles % 16 == 0) begin
		eth_len = $pisa_eth_recv;
		if (eth_len > 0) begin
			for (eth_i = 0; eth_i < eth_len; eth_i = eth_i + 1) begin
				rx_data <= $pisa_eth_rx_byte(eth_i);
				rx_last <= eth_i + 1 == eth_len;
				rx_valid <= 1'b1;
				@(posedge clk);
				while (!rx_ready) @(posedge clk);
			end
			rx_valid <= 1'b0;
			rx_last <= 1'b0;
		end
	end
end

always @(posedge clk) begin
	if (tx_valid) begin
		eth_r = $pisa_eth_tx_byte(tx_data);
		if (tx_last)
			eth_r = $pisa_eth_tx_send(0);
	end
	if (sw_out_valid && sw_out_last && sw_out_port != 16'd0)
		n_other = n_other + 1;
end

// ---- start, stop ----
reg [8*32-1:0] p_if;
initial begin
	if (!$value$plusargs("port0=%s", p_if))
		$fatal(1, "tb_cosim_eth: no interface: run with +port0=IFNAME");
	if (!$value$plusargs("cycles=%d", max_cycles))
		max_cycles = 0;
	if ($pisa_eth_open(0, p_if) != 0)
		$finish;
	$display("tb_cosim_eth: board sim managed over Ethernet on port 0 (%0s), MAC %h, EtherType 0x88b5",
		p_if, MAC);
	$fflush;
	repeat (16) @(posedge clk);
	rst <= 1'b0;
end

always @(posedge clk) begin
	cycles = cycles + 1;
	if (cycles % 1000000 == 0) begin
		$display("tb_cosim_eth: %0d cycles, %0d management frames in, %0d out, %0d packets in, %0d out (%0d to other ports)",
			cycles, cnt_ctl_rx, cnt_ctl_tx, cnt_rx, cnt_tx, n_other);
		$fflush;
	end
	if (max_cycles > 0 && cycles >= max_cycles) begin
		$display("tb_cosim_eth: stopped after %0d cycles", cycles);
		$finish;
	end
end

endmodule

`resetall
