// SPDX-License-Identifier: Apache-2.0
// tb_cosim: a simulated OpenPISA board for pisad (--board sim --transport sim:PATH).
//
//   pisad <-> Unix socket PATH <-> pisa_vpi.c ($pisa_sock_*) <-> behavioural UART (8N1)
//         <-> uart_rxd / uart_txd of pisa_switch: pisa_ctl_link (UART, frame decoder,
//             pisa_link_ctrl), pisa_loader (images, RESET, PACKET_OUT), pisa_core
//   Linux interfaces <-> pisa_vpi_eth.c ($pisa_eth_*, AF_PACKET) <-> the core's packets
//
// Every protocol byte crosses the Verilog UART and frame decoder, every image byte the
// loader, every packet the pipeline. pisa_link_ctrl answers HELLO with the sim profile of
// lib/pisa_profile.c (version 1.0, 511 ports, CPU port 255, 32 stages, 1024 PHV bytes) and
// window 16, 256 multicast groups of up to 16 copies and 1024 clone sessions (pisa_core's).
// MAX_PAYLOAD is 128, not pisa-model's 10240: Icarus runs this design at some 50-100k cycles
// a second, a byte takes 10 * CLKS_PER_BIT cycles, so a 140-byte frame crosses the UART in
// about 60 ms, well inside pisad's 200 ms retransmission timeout; 1 KiB frames would not be.
// An op larger than 126 bytes (a ROW write of a wide table) does not fit; pisad says so.
//
// Plusargs: +sock=PATH (required), +cycles=N (stop after N clock cycles; default: run until
// killed), +idle=N (idle clock cycles before each further one waits up to 1 ms for the
// socket or a frame, so that an idle board does not burn a core; default 5000),
// +portN=IFNAME (N = 0 .. 15: the switch's port N is Linux interface IFNAME; needs root).
// A packet that leaves on a port without an interface is dropped (and counted).
// Run: make -C sim/cosim run SOCK=/tmp/sw.sock [PORTS="+port1=veth1 +port2=veth2"], or
//   vvp -n -M build/cosim -m pisa_vpi build/cosim/tb_cosim.vvp +sock=/tmp/sw.sock ...
`default_nettype none

module tb_cosim;

parameter CLKS_PER_BIT = 4;
parameter MAX_PAYLOAD = 128;
parameter [15:0] PORTS = 16'd511;
parameter [15:0] CPU_PORT = 16'd255;
parameter [15:0] STAGES = 16'd32;
parameter [8*16-1:0] BOARD = "sim";
localparam [15:0] HW_VERSION = 16'h0100;

reg clk = 1'b0;
reg rst = 1'b1;
always #5 clk = !clk;

// ---- the board ----
reg h2s = 1'b1;		// host -> switch: uart_rxd
wire s2h;		// switch -> host: uart_txd
wire spi_miso, spi_miso_oe, loaded, session;
wire [31:0] cnt_rx, cnt_tx, cnt_drop;
reg [8:0] in_port = 9'd0;
reg [7:0] in_data = 8'd0;
reg in_last = 1'b0, in_valid = 1'b0;
wire in_ready;
wire [15:0] out_port;
wire [7:0] out_data;
wire out_last, out_valid;

pisa_switch #(
	.CLK_HZ(100000000), .PHY("uart"), .CLKS_PER_BIT(CLKS_PER_BIT), .MAX_PAYLOAD(MAX_PAYLOAD),
	.PORTS(PORTS), .CPU_PORT(CPU_PORT), .STAGES(STAGES), .BOARD(BOARD)
) u_switch (
	.clk(clk), .rst(rst),
	.uart_rxd(h2s), .uart_txd(s2h),
	.spi_sck(1'b0), .spi_cs_n(1'b1), .spi_mosi(1'b0), .spi_miso(spi_miso),
	.spi_miso_oe(spi_miso_oe),
	.s_ctl_data(8'd0), .s_ctl_valid(1'b0), .s_ctl_ready(),
	.m_ctl_data(), .m_ctl_last(), .m_ctl_valid(), .m_ctl_ready(1'b0),
	.s_pkt_port(in_port), .s_pkt_data(in_data), .s_pkt_last(in_last), .s_pkt_valid(in_valid),
	.s_pkt_ready(in_ready),
	.m_pkt_port(out_port), .m_pkt_data(out_data), .m_pkt_last(out_last),
	.m_pkt_valid(out_valid), .m_pkt_ready(1'b1),
	.mac_req(), .mac_busy(1'b0), .mac_port(), .mac_idx(), .mac_value(16'd0),	// no MACs
	.loaded(loaded), .session(session), .cnt_rx(cnt_rx), .cnt_tx(cnt_tx), .cnt_drop(cnt_drop)
);

// ---- Ethernet ports: frames from the interfaces in, one at a time; frames out ----
integer eth_len, eth_i, eth_r, n_eth_out = 0, n_eth_dropped = 0;
always begin : eth_in
	@(posedge clk);
	// look every 64 cycles, so a system call does not cost every cycle
	if (!rst && loaded && cycles % 64 == 0) begin
		eth_len = $pisa_eth_recv;
		if (eth_len > 0) begin
			in_port <= $pisa_eth_rx_port;
			for (eth_i = 0; eth_i < eth_len; eth_i = eth_i + 1) begin
				in_data <= $pisa_eth_rx_byte(eth_i);
				in_last <= eth_i + 1 == eth_len;
				in_valid <= 1'b1;
				@(posedge clk);
				while (!in_ready) @(posedge clk);
			end
			in_valid <= 1'b0;
			in_last <= 1'b0;
		end
	end
end

always @(posedge clk)
	if (out_valid) begin
		eth_r = $pisa_eth_tx_byte(out_data);
		if (out_last) begin
			if ($pisa_eth_tx_send(out_port))
				n_eth_out = n_eth_out + 1;
			else
				n_eth_dropped = n_eth_dropped + 1;
		end
	end

// ---- start, stop ----
reg [8*256-1:0] sock;
reg [8*16-1:0] board = BOARD;	// (Icarus 11 prints a string parameter as blanks)
integer cycles = 0, max_cycles = 0, idle = 5000, r_open, r_put, p_i;
reg [8*32-1:0] p_arg, p_if;

initial begin
	if (!$value$plusargs("sock=%s", sock)) begin
		$fatal(1, "tb_cosim: no socket path: run with +sock=PATH");
	end
	if (!$value$plusargs("cycles=%d", max_cycles))
		max_cycles = 0;
	if (!$value$plusargs("idle=%d", idle))
		idle = 5000;
	r_open = $pisa_sock_open(sock, idle);
	if (r_open != 0)
		$finish;
	for (p_i = 0; p_i < 16; p_i = p_i + 1) begin
		$sformat(p_arg, "port%0d=%%s", p_i);
		if ($value$plusargs(p_arg, p_if))
			if ($pisa_eth_open(p_i, p_if) != 0)
				$finish;
	end
	$display("tb_cosim: board %0s, version %0d.%0d, %0d ports, cpu port %0d, %0d stages, UART at %0d clocks a bit",
		board, HW_VERSION[15:8], HW_VERSION[7:0], PORTS, CPU_PORT, STAGES, CLKS_PER_BIT);
	$fflush;
	repeat (16) @(posedge clk);
	rst <= 1'b0;
end

always @(posedge clk) begin
	cycles = cycles + 1;
	if (max_cycles > 0 && cycles >= max_cycles) begin
		$display("tb_cosim: stopped after %0d cycles (%0d packets in, %0d out, %0d dropped)",
			cycles, cnt_rx, cnt_tx, cnt_drop);
		$fflush;
		$finish;
	end
end


// ---- host -> switch: bytes from the socket, sent 8N1 on uart_rxd ----
// The core side is busy: the idle wait of $pisa_sock_getc must not slow it down.
wire core_busy = !u_switch.u_core.idle || in_valid || out_valid ||
	u_switch.cmd_valid || u_switch.req_valid;
integer tx_b, tx_i;
always begin : host_tx
	@(posedge clk);
	if (!rst) begin
		tx_b = $pisa_sock_getc(core_busy);
		if (tx_b >= 0) begin
			h2s <= 1'b0;
			repeat (CLKS_PER_BIT) @(posedge clk);
			for (tx_i = 0; tx_i < 8; tx_i = tx_i + 1) begin
				h2s <= tx_b[tx_i];
				repeat (CLKS_PER_BIT) @(posedge clk);
			end
			h2s <= 1'b1;
			// the stop bit; the next call is at the end of its last clock
			repeat (CLKS_PER_BIT - 1) @(posedge clk);
		end
	end
end

// ---- switch -> host: uart_txd sampled mid-bit, bytes to the socket ----
reg [7:0] rx_b;
integer rx_i, n_lost = 0;
always begin : host_rx
	@(posedge clk);
	if (!rst && s2h == 1'b0) begin
		// start bit seen at its first clock: go to the middle of bit 0
		repeat (CLKS_PER_BIT / 2 + CLKS_PER_BIT) @(posedge clk);
		for (rx_i = 0; rx_i < 8; rx_i = rx_i + 1) begin
			rx_b[rx_i] = s2h;
			if (rx_i < 7)
				repeat (CLKS_PER_BIT) @(posedge clk);
		end
		repeat (CLKS_PER_BIT) @(posedge clk);
		if (s2h != 1'b1) begin
			$display("tb_cosim: warning: no stop bit from the switch");
			$fflush;
		end
		r_put = $pisa_sock_putc(rx_b);
		if (r_put == 0)
			n_lost = n_lost + 1;
		// in the middle of the stop bit now: the next start bit is the next low sample
	end
end

// Connection changes, for the log.
reg was_connected = 1'b0;
reg now_connected;
always @(posedge clk) begin
	if (cycles % 1024 == 0) begin
		now_connected = $pisa_sock_connected == 1;
		if (!now_connected && was_connected) begin
			$display("tb_cosim: host gone; %0d packets in, %0d out (%0d to no interface), %0d dropped by the program, %0d reply bytes lost",
				cnt_rx, n_eth_out, n_eth_dropped, cnt_drop, n_lost);
			$fflush;
		end
		was_connected = now_connected;
	end
end

endmodule

`resetall
