// SPDX-License-Identifier: Apache-2.0
// pisa_switch: a whole switch without its Ethernet ports: the control link (pisa_ctl_link,
// UART or SPI), the image loader (pisa_loader) and the pipeline (pisa_core), one packet
// stream in and one out with their port numbers. A board top (or the co-simulation) adds
// the MACs and maps ports.
//
//   pins -> pisa_ctl_link -> m_cmd_* (table writes, reads) ------------> pisa_core
//                         -> m_req_* -> pisa_loader -> configuration ---->   |
//                                                   -> PACKET_OUT --+       |
//   s_pkt_* (ports) ------------------------------------------------+-> (one at a time)
//                         <- s_rsp_*: the core's or the loader's answer      |
//   m_pkt_* <--------------------------------------------------------------+
//
// The two packet sources are served a whole packet at a time, the ports first. Packets to
// CPU_PORT go to the host as PACKET_IN, digests as DIGEST (pisa_ctl_link); the others leave
// on m_pkt_*.
// now_us counts microseconds from CLK_HZ. PHY "byte" takes the control link's bytes from
// s_ctl_* / m_ctl_* instead of pins (Ethernet management frames through pisa_ctl_eth; see
// pisa_ctl_link); PROGRAM_BYTES, CRC_SERIAL and CNT_W are pisa_ctl_link's area options.
// The MACs' counters (a READ of kind 4: port, counter) are answered here from mac_*, the
// interface of pisa_eth_ports' stats_*: counter 0 asks for a new copy of every port's
// counters (mac_req, then wait while mac_busy), the others read the latest copy (mac_value,
// combinational from mac_port and mac_idx); a port >= MAC_PORTS or a counter > 8 is FAILED,
// RANGE. MAC_PORTS = 0 (no MACs: the co-simulation, a top without them) adds nothing: the core
// answers such a READ as any command it does not know, FAILED, INVAL.
`default_nettype none

module pisa_switch #(
	parameter CLK_HZ = 50000000,
	parameter [8*4-1:0] PHY = "uart",
	parameter CLKS_PER_BIT = 16,
	parameter MAX_PAYLOAD = 1024,
	parameter WINDOW = 16,
	parameter [15:0] PORTS = 16'd8,
	parameter [15:0] CPU_PORT = 16'd255,
	parameter [15:0] STAGES = 16'd32,
	parameter [8*16-1:0] BOARD = "sim",
	parameter [31:0] MAX_IMAGE = 32'd1048576,
	parameter PROGRAM_BYTES = 64,
	parameter CRC_SERIAL = 0,
	parameter CNT_W = 16,
	parameter MAC_PORTS = 0,	// ports with MAC counters on mac_*; 0: none
	parameter MAC_CNT_W = 16,	// their width (READ_REPLY's b)
	// pisa_core's sizes (hw/rtl/pisa_core.v says what each is; a board's are those of its
	// profile, `p4lower --board NAME --core-params`); the defaults are the sim profile's
	parameter CFG_WORDS = 65536,
	parameter BANKS = 2,
	parameter ROW_BYTES = 1048576,
	parameter CNT_CELLS = 16384,
	parameter REG_CELLS = 16384,
	parameter MTR_CELLS = 4096,
	parameter KEY_BITS = 512,
	parameter PHV_MAX = 1024,
	parameter PKT_MAX = 4096,
	parameter ROW_STAGE = 1024,
	parameter STACKS = 64,
	parameter MC_GROUPS = 256,
	parameter MC_SLOT = 16,
	parameter DIG_MAX = 1024,
	parameter CL_SESS = 1024,
	parameter DM_RAM_BITS = 8		// how dm maps onto block RAM (pisa_core.v): 8, or 1 on the ECP5
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
	input  wire [7:0]   s_ctl_data,
	input  wire         s_ctl_valid,
	output wire         s_ctl_ready,
	output wire [7:0]   m_ctl_data,
	output wire         m_ctl_last,
	output wire         m_ctl_valid,
	input  wire         m_ctl_ready,

	input  wire [8:0]   s_pkt_port,
	input  wire [7:0]   s_pkt_data,
	input  wire         s_pkt_last,
	input  wire         s_pkt_valid,
	output wire         s_pkt_ready,
	output wire [15:0]  m_pkt_port,
	output wire [7:0]   m_pkt_data,
	output wire         m_pkt_last,
	output wire         m_pkt_valid,
	input  wire         m_pkt_ready,

	output wire         mac_req,
	input  wire         mac_busy,
	output wire [15:0]  mac_port,
	output wire [3:0]   mac_idx,
	input  wire [15:0]  mac_value,

	output wire         loaded,
	output wire         session,
	output wire [31:0]  cnt_rx,
	output wire [31:0]  cnt_tx,
	output wire [31:0]  cnt_drop
);

// ---- microseconds ----
localparam TICK = CLK_HZ / 1000000 > 0 ? CLK_HZ / 1000000 : 1;
reg [31:0] tick;
reg [47:0] now_us;
always @(posedge clk) begin
	if (tick + 1 >= TICK) begin
		tick <= 32'd0;
		now_us <= now_us + 48'd1;
	end else begin
		tick <= tick + 32'd1;
	end
	if (rst) begin
		tick <= 32'd0;
		now_us <= 48'd0;
	end
end

// ---- control link ----
wire [3:0] cmd_kind;
wire [15:0] cmd_id, cmd_len;
wire [31:0] cmd_index, cmd_data;
wire [7:0] cmd_flag;
wire cmd_last, cmd_valid, cmd_ready, link_cmd_ready;
wire [7:0] req_type, req_data;
wire [15:0] req_len;
wire req_last, req_valid, req_ready;
wire [7:0] core_err, ld_err;
wire [63:0] core_a, core_b;
wire core_rsp_valid, ld_rsp_valid;
wire info_image;
wire [31:0] info_len, info_crc;
wire [511:0] info_program;
wire [15:0] expect_seq, cnt_frames, cnt_bad, cnt_dropped;
wire err_line, err_overrun;
wire rsp_ready;
// what HELLO_REPLY reports of the core: groups, copies over all groups, sessions
localparam [15:0] MC_GROUPS16 = MC_GROUPS[15:0], CL_SESS16 = CL_SESS[15:0];
localparam integer MC_NODES = MC_GROUPS * MC_SLOT;
localparam [15:0] MC_NODES16 = MC_NODES[15:0];
localparam [15:0] PHV16 = PHV_MAX[15:0];
// the core's output: to the host (CPU port) or out
wire [15:0] core_port;
wire [7:0] core_data;
wire core_last, core_valid, pin_ready, dig_ready, pin_held;
wire [15:0] dig_id;
wire [7:0] dig_data;
wire dig_last, dig_valid;
wire to_cpu = core_port == CPU_PORT;
assign m_pkt_port = core_port;
assign m_pkt_data = core_data;
assign m_pkt_last = core_last;
assign m_pkt_valid = core_valid && !to_cpu;
wire core_ready = to_cpu ? pin_ready : m_pkt_ready;

// ---- READ kind 4 (command kind 8): a MAC counter, answered here ----
wire mac_rsp_valid;	// the answer: err, and the counter as a, its width as b
wire [7:0] mac_err;
wire core_cmd_valid;
generate
	if (MAC_PORTS > 0) begin : g_mac
		localparam [3:0] K_MAC = 4'd8;
		localparam [7:0] E_RANGE = 8'd6;	// pisa_err PISA_E_RANGE
		localparam [31:0] MAC_PORTS32 = MAC_PORTS;
		wire cmd_mac = cmd_kind == K_MAC;
		reg held, copy, wait_busy, fail;
		reg [15:0] port_reg;
		reg [3:0] idx_reg;
		wire take = cmd_valid && cmd_mac && !held;	// a one-beat command
		wire ok = {16'd0, cmd_id} < MAC_PORTS32 && cmd_index < 32'd9;
		assign link_cmd_ready = cmd_mac ? take : cmd_ready;
		assign core_cmd_valid = cmd_valid && !cmd_mac;
		assign mac_req = copy;
		assign mac_port = port_reg;
		assign mac_idx = idx_reg;
		// answered once the copy is in, if one was asked for (busy rises the cycle after req)
		assign mac_rsp_valid = held && !copy && !wait_busy && !mac_busy;
		assign mac_err = fail ? E_RANGE : 8'd0;
		always @(posedge clk) begin
			copy <= 1'b0;
			wait_busy <= copy;
			if (take) begin
				held <= 1'b1;
				fail <= !ok;
				copy <= ok && cmd_index == 32'd0;
				port_reg <= cmd_id;
				idx_reg <= cmd_index[3:0];
			end
			if (mac_rsp_valid && rsp_ready)
				held <= 1'b0;
			if (rst) begin
				held <= 1'b0;
				copy <= 1'b0;
				wait_busy <= 1'b0;
			end
		end
	end else begin : g_no_mac
		// the core answers command kind 8 as every kind it does not know: FAILED, INVAL
		assign link_cmd_ready = cmd_ready;
		assign core_cmd_valid = cmd_valid;
		assign mac_req = 1'b0;
		assign mac_port = 16'd0;
		assign mac_idx = 4'd0;
		assign mac_rsp_valid = 1'b0;
		assign mac_err = 8'd0;
		wire _unused_mac = &{1'b0, mac_busy, mac_value, 1'b0};
	end
endgenerate
localparam [63:0] MAC_BITS = MAC_CNT_W;

pisa_ctl_link #(
	.PHY(PHY), .CLKS_PER_BIT(CLKS_PER_BIT), .MAX_PAYLOAD(MAX_PAYLOAD), .WINDOW(WINDOW),
	.PORTS(PORTS), .CPU_PORT(CPU_PORT), .STAGES(STAGES), .PHV_BYTES(PHV16),
	.MCAST_GROUPS(MC_GROUPS16), .MCAST_NODES(MC_NODES16), .CLONE_SESSIONS(CL_SESS16),
	.MAX_IMAGE(MAX_IMAGE), .BOARD(BOARD), .PROGRAM_BYTES(PROGRAM_BYTES),
	.CRC_SERIAL(CRC_SERIAL), .CNT_W(CNT_W)
) u_link (
	.clk(clk), .rst(rst),
	.uart_rxd(uart_rxd), .uart_txd(uart_txd),
	.spi_sck(spi_sck), .spi_cs_n(spi_cs_n), .spi_mosi(spi_mosi), .spi_miso(spi_miso),
	.spi_miso_oe(spi_miso_oe),
	.s_byte_data(s_ctl_data), .s_byte_valid(s_ctl_valid), .s_byte_ready(s_ctl_ready),
	.m_byte_data(m_ctl_data), .m_byte_last(m_ctl_last), .m_byte_valid(m_ctl_valid),
	.m_byte_ready(m_ctl_ready),
	.m_cmd_kind(cmd_kind), .m_cmd_id(cmd_id), .m_cmd_index(cmd_index), .m_cmd_flag(cmd_flag),
	.m_cmd_len(cmd_len), .m_cmd_data(cmd_data), .m_cmd_last(cmd_last),
	.m_cmd_valid(cmd_valid), .m_cmd_ready(link_cmd_ready),
	.m_req_type(req_type), .m_req_len(req_len), .m_req_data(req_data), .m_req_last(req_last),
	.m_req_valid(req_valid), .m_req_ready(req_ready),
	// one command or request is outstanding at a time: whoever answers, answers it
	.s_rsp_err(core_rsp_valid ? core_err : mac_rsp_valid ? mac_err : ld_err),
	.s_rsp_a(mac_rsp_valid ? {48'd0, mac_value} : core_a),
	.s_rsp_b(mac_rsp_valid ? MAC_BITS : core_b),
	.s_rsp_valid(core_rsp_valid || ld_rsp_valid || mac_rsp_valid), .s_rsp_ready(rsp_ready),
	.s_pin_port(core_port), .s_pin_data(core_data), .s_pin_last(core_last),
	.s_pin_valid(core_valid && to_cpu), .s_pin_ready(pin_ready),
	.s_dig_id(dig_id), .s_dig_data(dig_data), .s_dig_last(dig_last), .s_dig_valid(dig_valid),
	.s_dig_ready(dig_ready), .pin_held(pin_held),
	.info_image(info_image), .info_image_len(info_len), .info_image_crc(info_crc),
	.info_program(info_program),
	.session(session), .expect_seq(expect_seq), .cnt_frames(cnt_frames), .cnt_bad(cnt_bad),
	.cnt_dropped(cnt_dropped), .err_line(err_line), .err_overrun(err_overrun)
);
wire _unused = &{1'b0, expect_seq, cnt_frames, cnt_bad, cnt_dropped, err_line, err_overrun,
		 1'b0};

// ---- loader ----
wire [15:0] cfg_addr;
wire [63:0] cfg_data;
wire cfg_valid, cfg_ready, cfg_commit, core_reset;
wire [8:0] pko_port;
wire [7:0] pko_data;
wire pko_last, pko_valid, pko_ready;
wire idle;	// pisa_core

pisa_loader #(.BOARD(BOARD), .MAX_IMAGE(MAX_IMAGE), .PROGRAM_BYTES(PROGRAM_BYTES)) u_loader (
	.clk(clk), .rst(rst),
	.s_req_type(req_type), .s_req_len(req_len), .s_req_data(req_data), .s_req_last(req_last),
	.s_req_valid(req_valid), .s_req_ready(req_ready),
	.m_rsp_err(ld_err), .m_rsp_valid(ld_rsp_valid), .m_rsp_ready(rsp_ready),
	.m_cfg_addr(cfg_addr), .m_cfg_data(cfg_data), .m_cfg_valid(cfg_valid),
	.m_cfg_ready(cfg_ready), .cfg_commit(cfg_commit), .core_reset(core_reset),
	.m_pko_port(pko_port), .m_pko_data(pko_data), .m_pko_last(pko_last),
	.m_pko_valid(pko_valid), .m_pko_ready(pko_ready), .core_idle(idle), .pin_held(pin_held),
	.info_image(info_image), .info_image_len(info_len), .info_image_crc(info_crc),
	.info_program(info_program)
);

// ---- packet sources: whole packets, ports first ----
reg busy, from_pko;
wire pick_pko = busy ? from_pko : !s_pkt_valid && pko_valid;
wire [8:0] in_port = pick_pko ? pko_port : s_pkt_port;
wire [7:0] in_data = pick_pko ? pko_data : s_pkt_data;
wire in_last = pick_pko ? pko_last : s_pkt_last;
wire in_valid = pick_pko ? pko_valid : s_pkt_valid;
wire in_ready;
assign s_pkt_ready = in_ready && !pick_pko;
assign pko_ready = in_ready && pick_pko;
always @(posedge clk) begin
	if (in_valid && in_ready) begin
		busy <= !in_last;
		from_pko <= pick_pko;
	end
	if (rst)
		busy <= 1'b0;
end

wire [31:0] cnt_oversize;
wire [63:0] cnt_cycles;

pisa_core #(
	.CFG_WORDS(CFG_WORDS), .BANKS(BANKS), .ROW_BYTES(ROW_BYTES), .CNT_CELLS(CNT_CELLS),
	.REG_CELLS(REG_CELLS), .MTR_CELLS(MTR_CELLS), .KEY_BITS(KEY_BITS), .PHV_MAX(PHV_MAX),
	.PKT_MAX(PKT_MAX), .ROW_STAGE(ROW_STAGE), .STACKS(STACKS), .MC_GROUPS(MC_GROUPS),
	.MC_SLOT(MC_SLOT), .DIG_MAX(DIG_MAX), .CL_SESS(CL_SESS),
	.DM_RAM_BITS(DM_RAM_BITS)
) u_core (
	.clk(clk), .rst(rst), .now_us(now_us),
	.s_cfg_addr(cfg_addr), .s_cfg_data(cfg_data), .s_cfg_valid(cfg_valid),
	.s_cfg_ready(cfg_ready), .cfg_commit(cfg_commit), .state_reset(core_reset),
	.loaded(loaded), .idle(idle),
	.s_cmd_kind(cmd_kind), .s_cmd_id(cmd_id), .s_cmd_index(cmd_index), .s_cmd_flag(cmd_flag),
	.s_cmd_len(cmd_len), .s_cmd_data(cmd_data), .s_cmd_last(cmd_last),
	.s_cmd_valid(core_cmd_valid), .s_cmd_ready(cmd_ready),
	.m_rsp_err(core_err), .m_rsp_a(core_a), .m_rsp_b(core_b), .m_rsp_valid(core_rsp_valid),
	.m_rsp_ready(rsp_ready),
	.s_pkt_port(in_port), .s_pkt_data(in_data), .s_pkt_last(in_last), .s_pkt_valid(in_valid),
	.s_pkt_ready(in_ready),
	.m_pkt_port(core_port), .m_pkt_data(core_data), .m_pkt_last(core_last),
	.m_pkt_valid(core_valid), .m_pkt_ready(core_ready),
	.m_dig_id(dig_id), .m_dig_data(dig_data), .m_dig_last(dig_last), .m_dig_valid(dig_valid),
	.m_dig_ready(dig_ready),
	.cnt_rx(cnt_rx), .cnt_tx(cnt_tx), .cnt_drop(cnt_drop), .cnt_oversize(cnt_oversize),
	.cnt_cycles(cnt_cycles)
);
wire _unused_core = &{1'b0, cnt_oversize, cnt_cycles, 1'b0};

endmodule
`default_nettype wire
