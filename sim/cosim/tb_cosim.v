// SPDX-License-Identifier: Apache-2.0
// tb_cosim: a simulated OpenPISA board for pisad (--board sim --transport sim:PATH).
//
//   pisad <-> Unix socket PATH <-> pisa_vpi.c ($pisa_sock_*) <-> behavioural UART (8N1)
//         <-> uart_rxd / uart_txd of pisa_ctl_link (pisa_uart_rx/tx, pisa_frame_rx/tx,
//             pisa_link_ctrl) <-> m_cmd_* / m_req_* / s_rsp_* <-> cosim_no_core
//
// Every protocol byte crosses the Verilog UART and frame decoder. pisa_link_ctrl answers HELLO
// with the parameters below: the sim profile of lib/pisa_profile.c as pisa-model announces it
// (model/ctlsock.c: version 1.0, 511 ports, CPU port 255, 32 stages, 1024 PHV bytes, 4096
// groups, 16384 nodes, 1024 sessions, 16 MiB images, board "sim") and window 16 like
// lib/pisa_proto.c's server. No image runs (flags 0). Everything else the link forwards is
// refused by cosim_no_core until pisa_core replaces it.
// MAX_PAYLOAD is 128, not pisa-model's 10240: Icarus runs this design at about 100k cycles
// a second, a byte takes 10 * CLKS_PER_BIT cycles, so a 140-byte frame crosses the UART in
// some 60 ms, well inside pisad's 200 ms retransmission timeout; 1 KiB frames would not be
// (pisad retransmits, the backlog grows, its heartbeat times out). An op larger than 126
// bytes (a ROW write of a wide table) does not fit; pisad says so itself.
//
// Plusargs: +sock=PATH (required), +cycles=N (stop after N clock cycles; default: run until
// killed), +idle=N (idle clock cycles before each further one waits up to 1 ms for the
// socket, so that an idle board does not burn a core; default 5000; cycles pass at about
// 1000 a second while it waits). Not idle: a byte on the UART either way, or the core side
// busy (a command or request offered, an answer awaited or offered).
// Run: make -C sim/cosim run SOCK=/tmp/sw.sock, or
//   vvp -n -M build/cosim -m pisa_vpi build/cosim/tb_cosim.vvp +sock=/tmp/sw.sock
`default_nettype none

module tb_cosim;

parameter CLKS_PER_BIT = 4;
parameter MAX_PAYLOAD = 128;
parameter WINDOW = 16;
parameter [15:0] HW_VERSION = 16'h0100;
parameter [15:0] PORTS = 16'd511;
parameter [15:0] CPU_PORT = 16'd255;
parameter [15:0] STAGES = 16'd32;
parameter [15:0] PHV_BYTES = 16'd1024;
parameter [15:0] MCAST_GROUPS = 16'd4096;
parameter [15:0] MCAST_NODES = 16'd16384;
parameter [15:0] CLONE_SESSIONS = 16'd1024;
parameter [31:0] MAX_IMAGE = 32'd16777216;
parameter [8*16-1:0] BOARD = "sim";

reg clk = 1'b0;
reg rst = 1'b1;
always #5 clk = !clk;

// ---- the board ----
reg h2s = 1'b1;		// host -> switch: uart_rxd
wire s2h;		// switch -> host: uart_txd
wire [3:0] cmd_kind;
wire [15:0] cmd_id, cmd_len, req_len, expect_seq, cnt_frames, cnt_bad, cnt_dropped;
wire [31:0] cmd_index, cmd_data, n_cmds, n_reqs;
wire [7:0] cmd_flag, req_type, req_data, rsp_err;
wire cmd_last, cmd_valid, cmd_ready, req_last, req_valid, req_ready;
wire [63:0] rsp_a, rsp_b;
wire rsp_valid, rsp_ready, session, err_line, err_overrun, spi_miso, spi_miso_oe;

pisa_ctl_link #(
	.PHY("uart"), .CLKS_PER_BIT(CLKS_PER_BIT), .MAX_PAYLOAD(MAX_PAYLOAD), .WINDOW(WINDOW),
	.HW_VERSION(HW_VERSION), .PORTS(PORTS), .CPU_PORT(CPU_PORT), .STAGES(STAGES),
	.PHV_BYTES(PHV_BYTES), .MCAST_GROUPS(MCAST_GROUPS), .MCAST_NODES(MCAST_NODES),
	.CLONE_SESSIONS(CLONE_SESSIONS), .MAX_IMAGE(MAX_IMAGE), .BOARD(BOARD)
) u_link (
	.clk(clk), .rst(rst),
	.uart_rxd(h2s), .uart_txd(s2h),
	.spi_sck(1'b0), .spi_cs_n(1'b1), .spi_mosi(1'b0), .spi_miso(spi_miso),
	.spi_miso_oe(spi_miso_oe),
	.m_cmd_kind(cmd_kind), .m_cmd_id(cmd_id), .m_cmd_index(cmd_index), .m_cmd_flag(cmd_flag),
	.m_cmd_len(cmd_len), .m_cmd_data(cmd_data), .m_cmd_last(cmd_last),
	.m_cmd_valid(cmd_valid), .m_cmd_ready(cmd_ready),
	.m_req_type(req_type), .m_req_len(req_len), .m_req_data(req_data), .m_req_last(req_last),
	.m_req_valid(req_valid), .m_req_ready(req_ready),
	.s_rsp_err(rsp_err), .s_rsp_a(rsp_a), .s_rsp_b(rsp_b), .s_rsp_valid(rsp_valid),
	.s_rsp_ready(rsp_ready),
	.info_image(1'b0), .info_image_len(32'd0), .info_image_crc(32'd0), .info_program(512'd0),
	.session(session), .expect_seq(expect_seq),
	.cnt_frames(cnt_frames), .cnt_bad(cnt_bad), .cnt_dropped(cnt_dropped),
	.err_line(err_line), .err_overrun(err_overrun)
);

// Replaced by pisa_core when that lands.
cosim_no_core u_core (
	.clk(clk), .rst(rst),
	.s_cmd_kind(cmd_kind), .s_cmd_id(cmd_id), .s_cmd_index(cmd_index), .s_cmd_flag(cmd_flag),
	.s_cmd_len(cmd_len), .s_cmd_data(cmd_data), .s_cmd_last(cmd_last),
	.s_cmd_valid(cmd_valid), .s_cmd_ready(cmd_ready),
	.s_req_type(req_type), .s_req_len(req_len), .s_req_data(req_data), .s_req_last(req_last),
	.s_req_valid(req_valid), .s_req_ready(req_ready),
	.m_rsp_err(rsp_err), .m_rsp_a(rsp_a), .m_rsp_b(rsp_b), .m_rsp_valid(rsp_valid),
	.m_rsp_ready(rsp_ready),
	.cnt_cmds(n_cmds), .cnt_reqs(n_reqs)
);

// ---- start, stop ----
reg [8*256-1:0] sock;
reg [8*16-1:0] board = BOARD;	// (Icarus 11 prints a string parameter as blanks)
integer cycles = 0, max_cycles = 0, idle = 5000, r_open, r_put;

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
	$display("tb_cosim: board %0s, version %0d.%0d, %0d ports, cpu port %0d, %0d stages, UART at %0d clocks a bit",
		board, HW_VERSION[15:8], HW_VERSION[7:0], PORTS, CPU_PORT, STAGES, CLKS_PER_BIT);
	$fflush;
	repeat (16) @(posedge clk);
	rst <= 1'b0;
end

always @(posedge clk) begin
	cycles = cycles + 1;
	if (max_cycles > 0 && cycles >= max_cycles) begin
		$display("tb_cosim: stopped after %0d cycles (%0d frames, %0d bad, %0d refused)",
			cycles, cnt_frames, cnt_bad, n_cmds + n_reqs);
		$fflush;
		$finish;
	end
end

// Line errors on the switch's receiver would mean the behavioural UART is wrong.
always @(posedge clk)
	if (!rst && (err_line || err_overrun)) begin
		$display("tb_cosim: warning: switch UART %0s", err_line ? "framing error" :
			"overrun (a received byte was lost)");
		$fflush;
	end

// ---- host -> switch: bytes from the socket, sent 8N1 on uart_rxd ----
// The core side is busy: the idle wait of $pisa_sock_getc must not slow it down.
wire core_busy = cmd_valid || req_valid || rsp_valid || rsp_ready;
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
			$display("tb_cosim: %0d frames so far, %0d bad, %0d refused by cosim_no_core, %0d reply bytes dropped",
				cnt_frames, cnt_bad, n_cmds + n_reqs, n_lost);
			$fflush;
		end
		was_connected = now_connected;
	end
end

endmodule

`resetall
