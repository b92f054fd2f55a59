// SPDX-License-Identifier: Apache-2.0
// pisa_ctl_link: the whole control link of a switch, PHY to control bus.
//
//   uart_rxd / SPI / s_byte -> [pisa_uart_rx | pisa_spi_slave] -> pisa_frame_rx -> pisa_link_ctrl
//   uart_txd / SPI / m_byte <- [pisa_uart_tx | pisa_spi_slave] <- pisa_frame_tx <-/    |  ^
//                                       m_cmd_* (WRITE ops, READs), m_req_* -/  |
//                                       (IMAGE_CHUNK/COMMIT, PACKET_OUT, RESET)  s_rsp_*
//
// The command, request and answer ports are pisa_link_ctrl's (see there for the beat
// layouts). s_pin_* (packets that left on the CPU port) and s_dig_* (digests) become
// PACKET_IN and DIGEST frames (pisa_pkt_in), sent between replies, a whole frame at a time.
// PHY selects the byte link; the other PHYs' pins are unused (outputs idle). PHY "byte" is the
// bare byte streams s_byte_* (host to switch) and m_byte_* (switch to host, m_byte_last on the
// last byte of each protocol frame), for a transport that is not a wire of its own: Ethernet
// management frames through pisa_ctl_eth.
// Area: docs/performance.md ("Hardware blocks") has the LUT4 counts per parameter set; the
// small boards take CRC_SERIAL 1, PROGRAM_BYTES 0 .. 16, CNT_W 8 and a window of 4 or 8.
// Counters: good frames, dropped candidates (bad hcheck/CRC), skipped bytes, UART framing
// errors and receive overruns (bytes lost because the decoder's buffer was full).
// Stream contract (all ports): a word moves when valid && ready at a rising clock edge; once a
// source raises valid it keeps valid high and its data stable until ready; a source never
// waits for ready before raising valid.
`default_nettype none

module pisa_ctl_link #(
	// Byte link: "uart" (8N1, CLKS_PER_BIT), "spi" (mode 0 slave, SCK up to clk/4) or "byte"
	// (the s_byte_* / m_byte_* streams).
	parameter [8*4-1:0] PHY = "uart",
	// UART: clock frequency / baud rate, >= 4 (pisa_uart_rx).
	parameter CLKS_PER_BIT = 16,
	// Largest request payload (64 .. 10240): frame buffer, WRITE RAM, HELLO_REPLY.
	parameter MAX_PAYLOAD = 1024,
	// Replies kept for duplicates, 1, 2, 4, 8 or 16 (HELLO_REPLY window).
	parameter WINDOW = 16,
	// HELLO_REPLY fields, see pisa_link_ctrl.
	parameter [15:0] HW_VERSION = 16'h0100,
	parameter [15:0] PORTS = 16'd8,
	parameter [15:0] CPU_PORT = 16'd8,
	parameter [15:0] STAGES = 16'd4,
	parameter [15:0] PHV_BYTES = 16'd128,
	parameter [15:0] MCAST_GROUPS = 16'd64,
	parameter [15:0] MCAST_NODES = 16'd256,
	parameter [15:0] CLONE_SESSIONS = 16'd8,
	parameter [31:0] MAX_IMAGE = 32'd65536,
	parameter [8*16-1:0] BOARD = "sim",
	// Bytes of the program name HELLO_REPLY reports, 0 .. 64 (pisa_link_ctrl).
	parameter PROGRAM_BYTES = 64,
	// Frame CRCs a bit per cycle (1: saves some 150 LUT4; needs a byte link no faster than
	// clk/10, true of the UART and of SPI at SCK <= clk/4) or a byte per cycle (0).
	parameter CRC_SERIAL = 0,
	// Width of the frame counters cnt_frames / cnt_bad / cnt_dropped, 1 .. 16 (they wrap).
	parameter CNT_W = 16,
	// Largest PACKET_IN / DIGEST payload, 64 .. 10240 (pisa_pkt_in's buffer; a longer packet
	// to the CPU port is dropped and counted).
	parameter PIN_MAX_PAYLOAD = MAX_PAYLOAD
) (
	input  wire         clk,
	input  wire         rst,

	input  wire         uart_rxd,
	output wire         uart_txd,
	input  wire         spi_sck,
	input  wire         spi_cs_n,
	input  wire         spi_mosi,
	output wire         spi_miso,
	output wire         spi_miso_oe,
	input  wire [7:0]   s_byte_data,
	input  wire         s_byte_valid,
	output wire         s_byte_ready,
	output wire [7:0]   m_byte_data,
	output wire         m_byte_last,
	output wire         m_byte_valid,
	input  wire         m_byte_ready,

	output wire [3:0]   m_cmd_kind,
	output wire [15:0]  m_cmd_id,
	output wire [31:0]  m_cmd_index,
	output wire [7:0]   m_cmd_flag,
	output wire [15:0]  m_cmd_len,
	output wire [31:0]  m_cmd_data,
	output wire         m_cmd_last,
	output wire         m_cmd_valid,
	input  wire         m_cmd_ready,

	output wire [7:0]   m_req_type,
	output wire [15:0]  m_req_len,
	output wire [7:0]   m_req_data,
	output wire         m_req_last,
	output wire         m_req_valid,
	input  wire         m_req_ready,

	input  wire [7:0]   s_rsp_err,
	input  wire [63:0]  s_rsp_a,
	input  wire [63:0]  s_rsp_b,
	input  wire         s_rsp_valid,
	output wire         s_rsp_ready,

	// the switch's own messages: packets that left on the CPU port, digests (pisa_pkt_in)
	input  wire [15:0]  s_pin_port,
	input  wire [7:0]   s_pin_data,
	input  wire         s_pin_last,
	input  wire         s_pin_valid,
	output wire         s_pin_ready,
	input  wire [15:0]  s_dig_id,
	input  wire [7:0]   s_dig_data,
	input  wire         s_dig_last,
	input  wire         s_dig_valid,
	output wire         s_dig_ready,
	output wire         pin_held,	// one of those messages waits or is being sent

	input  wire         info_image,
	input  wire [31:0]  info_image_len,
	input  wire [31:0]  info_image_crc,
	input  wire [511:0] info_program,

	output wire         session,
	output wire [15:0]  expect_seq,
	output wire [15:0]  cnt_frames,
	output wire [15:0]  cnt_bad,
	output wire [15:0]  cnt_dropped,
	output wire         err_line,     // pulse: UART framing error or false start
	output wire         err_overrun   // pulse: a received byte was lost
);

localparam [8*4-1:0] PHY_UART = "uart", PHY_SPI = "spi", PHY_BYTE = "byte";

generate
	if (PHY != PHY_UART && PHY != PHY_SPI && PHY != PHY_BYTE) begin : g_bad_phy
		pisa_ctl_link_error_phy_must_be_uart_spi_or_byte u_stop ();
	end
	if (CNT_W < 1 || CNT_W > 16) begin : g_bad_cnt
		pisa_ctl_link_error_cnt_w_must_be_1_to_16 u_stop ();
	end
endgenerate

// PHY <-> frame decoder / encoder byte streams.
wire [7:0] rx_data, tx_data;
wire rx_valid, rx_ready, tx_valid, tx_ready, tx_last;

generate
	if (PHY == PHY_BYTE) begin : g_byte
		assign rx_data = s_byte_data;
		assign rx_valid = s_byte_valid;
		assign s_byte_ready = rx_ready;
		assign m_byte_data = tx_data;
		assign m_byte_last = tx_last;
		assign m_byte_valid = tx_valid;
		assign tx_ready = m_byte_ready;
		assign uart_txd = 1'b1;
		assign spi_miso = 1'b0;
		assign spi_miso_oe = 1'b0;
		assign err_line = 1'b0;
		assign err_overrun = 1'b0;
		wire _unused_pins = &{1'b0, uart_rxd, spi_sck, spi_cs_n, spi_mosi, 1'b0};
	end else if (PHY == PHY_SPI) begin : g_spi
		wire spi_overrun;

		pisa_spi_slave u_spi (
			.clk(clk), .rst(rst),
			.sck(spi_sck), .cs_n(spi_cs_n), .mosi(spi_mosi),
			.miso(spi_miso), .miso_oe(spi_miso_oe),
			.m_data(rx_data), .m_valid(rx_valid), .m_ready(rx_ready),
			.s_data(tx_data), .s_valid(tx_valid), .s_ready(tx_ready),
			.err_overrun(spi_overrun)
		);
		assign uart_txd = 1'b1;
		assign err_line = 1'b0;
		assign err_overrun = spi_overrun;
		assign s_byte_ready = 1'b0;
		assign m_byte_data = 8'd0;
		assign m_byte_last = 1'b0;
		assign m_byte_valid = 1'b0;
		wire _unused_uart = &{1'b0, uart_rxd, s_byte_data, s_byte_valid, m_byte_ready, tx_last,
			1'b0};
	end else begin : g_uart
		wire false_start, frame_err, uart_overrun, tx_busy;

		pisa_uart_rx #(.CLKS_PER_BIT(CLKS_PER_BIT)) u_uart_rx (
			.clk(clk), .rst(rst),
			.rxd(uart_rxd),
			.m_data(rx_data), .m_valid(rx_valid), .m_ready(rx_ready),
			.err_false_start(false_start), .err_frame(frame_err),
			.err_overrun(uart_overrun)
		);
		pisa_uart_tx #(.CLKS_PER_BIT(CLKS_PER_BIT)) u_uart_tx (
			.clk(clk), .rst(rst),
			.s_data(tx_data), .s_valid(tx_valid), .s_ready(tx_ready),
			.txd(uart_txd), .busy(tx_busy)
		);
		assign spi_miso = 1'b0;
		assign spi_miso_oe = 1'b0;
		assign err_line = false_start || frame_err;
		assign err_overrun = uart_overrun;
		assign s_byte_ready = 1'b0;
		assign m_byte_data = 8'd0;
		assign m_byte_last = 1'b0;
		assign m_byte_valid = 1'b0;
		wire _unused_spi = &{1'b0, spi_sck, spi_cs_n, spi_mosi, tx_busy, s_byte_data, s_byte_valid,
			m_byte_ready, tx_last, 1'b0};
	end
endgenerate

wire [15:0] rh_seq, rh_len, th_seq, th_len;
wire [7:0] rh_type, th_type, r_data, t_data;
wire rh_valid, rh_ready, r_last, r_valid, r_ready;
wire th_valid, th_ready, t_last, t_valid, t_ready;
wire [CNT_W-1:0] c_frames, c_bad, c_dropped;

pisa_frame_rx #(.MAX_PAYLOAD(MAX_PAYLOAD), .CNT_W(CNT_W), .CRC_SERIAL(CRC_SERIAL)) u_frame_rx (
	.clk(clk), .rst(rst),
	.s_data(rx_data), .s_valid(rx_valid), .s_ready(rx_ready),
	.m_hdr_seq(rh_seq), .m_hdr_type(rh_type), .m_hdr_len(rh_len), .m_hdr_valid(rh_valid),
	.m_hdr_ready(rh_ready),
	.m_data(r_data), .m_last(r_last), .m_valid(r_valid), .m_ready(r_ready),
	.cnt_frames(c_frames), .cnt_bad(c_bad), .cnt_dropped(c_dropped)
);
generate
	if (CNT_W < 16) begin : g_cnt_ext
		assign cnt_frames = {{(16 - CNT_W){1'b0}}, c_frames};
		assign cnt_bad = {{(16 - CNT_W){1'b0}}, c_bad};
		assign cnt_dropped = {{(16 - CNT_W){1'b0}}, c_dropped};
	end else begin : g_cnt
		assign cnt_frames = c_frames;
		assign cnt_bad = c_bad;
		assign cnt_dropped = c_dropped;
	end
endgenerate

pisa_link_ctrl #(
	.MAX_PAYLOAD(MAX_PAYLOAD), .WINDOW(WINDOW), .HW_VERSION(HW_VERSION), .PORTS(PORTS),
	.CPU_PORT(CPU_PORT), .STAGES(STAGES), .PHV_BYTES(PHV_BYTES),
	.MCAST_GROUPS(MCAST_GROUPS), .MCAST_NODES(MCAST_NODES),
	.CLONE_SESSIONS(CLONE_SESSIONS), .MAX_IMAGE(MAX_IMAGE), .BOARD(BOARD),
	.PROGRAM_BYTES(PROGRAM_BYTES)
) u_ctrl (
	.clk(clk), .rst(rst),
	.s_hdr_seq(rh_seq), .s_hdr_type(rh_type), .s_hdr_len(rh_len), .s_hdr_valid(rh_valid),
	.s_hdr_ready(rh_ready),
	.s_data(r_data), .s_last(r_last), .s_valid(r_valid), .s_ready(r_ready),
	.m_hdr_seq(th_seq), .m_hdr_type(th_type), .m_hdr_len(th_len), .m_hdr_valid(th_valid),
	.m_hdr_ready(th_ready),
	.m_data(t_data), .m_last(t_last), .m_valid(t_valid), .m_ready(t_ready),
	.m_cmd_kind(m_cmd_kind), .m_cmd_id(m_cmd_id), .m_cmd_index(m_cmd_index),
	.m_cmd_flag(m_cmd_flag), .m_cmd_len(m_cmd_len), .m_cmd_data(m_cmd_data),
	.m_cmd_last(m_cmd_last), .m_cmd_valid(m_cmd_valid), .m_cmd_ready(m_cmd_ready),
	.m_req_type(m_req_type), .m_req_len(m_req_len), .m_req_data(m_req_data),
	.m_req_last(m_req_last), .m_req_valid(m_req_valid), .m_req_ready(m_req_ready),
	.s_rsp_err(s_rsp_err), .s_rsp_a(s_rsp_a), .s_rsp_b(s_rsp_b),
	.s_rsp_valid(s_rsp_valid), .s_rsp_ready(s_rsp_ready),
	.info_image(info_image), .info_image_len(info_image_len),
	.info_image_crc(info_image_crc), .info_program(info_program),
	.session(session), .expect_seq(expect_seq)
);

// PACKET_IN and DIGEST frames, and a frame mux: replies first, a whole frame at a time.
wire [15:0] ph_seq, ph_len, pin_dropped;
wire [7:0] ph_type, p_data;
wire ph_valid, ph_ready, p_last, p_valid, p_ready;

pisa_pkt_in #(.MAX_PAYLOAD(PIN_MAX_PAYLOAD)) u_pkt_in (
	.clk(clk), .rst(rst),
	.s_pkt_port(s_pin_port), .s_pkt_data(s_pin_data), .s_pkt_last(s_pin_last),
	.s_pkt_valid(s_pin_valid), .s_pkt_ready(s_pin_ready),
	.s_dig_id(s_dig_id), .s_dig_data(s_dig_data), .s_dig_last(s_dig_last),
	.s_dig_valid(s_dig_valid), .s_dig_ready(s_dig_ready),
	.m_hdr_seq(ph_seq), .m_hdr_type(ph_type), .m_hdr_len(ph_len), .m_hdr_valid(ph_valid),
	.m_hdr_ready(ph_ready),
	.m_data(p_data), .m_last(p_last), .m_valid(p_valid), .m_ready(p_ready),
	.cnt_dropped(pin_dropped), .held(pin_held)
);
wire _unused_pin = &{1'b0, pin_dropped, 1'b0};

// mux_on: a frame is in progress, from the packet-in side when mux_pin; it ends with the
// payload's last byte, or with the header when the frame has no payload.
reg mux_on = 1'b0, mux_pin = 1'b0;
wire pick_pin = mux_on ? mux_pin : !th_valid && ph_valid;
wire [15:0] f_seq = pick_pin ? ph_seq : th_seq;
wire [7:0] f_type = pick_pin ? ph_type : th_type;
wire [15:0] f_len = pick_pin ? ph_len : th_len;
wire f_hvalid = !mux_on && (pick_pin ? ph_valid : th_valid);
wire f_hready;
wire [7:0] f_data = mux_pin ? p_data : t_data;
wire f_last = mux_pin ? p_last : t_last;
wire f_valid = mux_on && (mux_pin ? p_valid : t_valid);
wire f_ready;
assign th_ready = f_hready && !mux_on && !pick_pin;
assign ph_ready = f_hready && !mux_on && pick_pin;
assign t_ready = f_ready && mux_on && !mux_pin;
assign p_ready = f_ready && mux_on && mux_pin;
always @(posedge clk) begin
	if (f_hvalid && f_hready) begin
		mux_on <= f_len != 16'd0;
		mux_pin <= pick_pin;
	end else if (f_valid && f_ready && f_last) begin
		mux_on <= 1'b0;
	end
	if (rst)
		mux_on <= 1'b0;
end

pisa_frame_tx #(.CRC_SERIAL(CRC_SERIAL)) u_frame_tx (
	.clk(clk), .rst(rst),
	.s_hdr_seq(f_seq), .s_hdr_type(f_type), .s_hdr_len(f_len), .s_hdr_valid(f_hvalid),
	.s_hdr_ready(f_hready),
	.s_data(f_data), .s_last(f_last), .s_valid(f_valid), .s_ready(f_ready),
	.m_data(tx_data), .m_last(tx_last), .m_valid(tx_valid), .m_ready(tx_ready)
);

endmodule

`resetall
