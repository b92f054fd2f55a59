// SPDX-License-Identifier: Apache-2.0
// pisa_eth_ports: a board's N Ethernet ports as one packet stream each way (N MACs, their reset
// synchronizers, pisa_port_mux and pisa_port_demux): the part the board tops and bring-up bridges
// share.
//
//   PHY pins, port i <-> pisa_mac_rmii / pisa_mac_rgmii [i] (line clocks | clk)
//     rx_*[i] -> pisa_port_mux   -> m_pkt_* (m_pkt_port = i; to pisa_switch's s_pkt_*)
//     tx_*[i] <- pisa_port_demux <- s_pkt_* (s_pkt_port = i; from pisa_switch's m_pkt_*)
//
// Pins (port i at [PIN_W*i +: PIN_W] of phy_rxd and phy_txd, at [i] of the others):
//   PHY      phy_rx_clk         phy_rxd  phy_rx_ctl  phy_txd  phy_tx_ctl  phy_tx_clk  gtx_clk
//   "rmii"   REF_CLK (50 MHz;   RXD1..0  CRS_DV      TXD1..0  TX_EN       driven low  not used
//            times TX as well)
//   "rgmii"  RXC (125 MHz)      RXD3..0  RX_CTL      TXD3..0  TX_CTL      TXC         the 125 MHz
//                                                                                     TX clock
// RMII ports that share one oscillator get the same net on each phy_rx_clk bit. The RMII MACs
// run 100 Mb/s only (mode_10m = 0), the RGMII MACs 1000 Mb/s only: the PHYs keep their straps.
// RGMII on ECP5 (FAMILY "ecp5"): every receive pin goes through a DELAYG of RX_DELAY taps (about
// 25 ps each; 0: none) so that RXC samples mid-bit; the PHY must delay TXC itself (TXDly).
//
// Reset: rst is synchronous to clk; rst_in is the board's reset before synchronizing (the PLL not
// locked, a button). This module makes a pisa_rst_sync from rst_in for each line-side clock (one
// per MAC, even where the MACs share a clock, so that each sits next to its logic; RGMII: one
// more for gtx_clk). Reset synchronizers otherwise live only in board tops: this module is the
// part of the board tops they share, and only board tops instantiate it.
//
// Streams (m_pkt_* and s_pkt_*): pisa_port_mux's and pisa_port_demux's contract: a beat moves when
// valid && ready at a rising edge of clk; once a source raises valid it keeps valid and the beat
// stable until ready; valid never waits for ready. Packets to ports outside 0 .. N-1 are dropped.
// Activity (clk domain, for LEDs): rx_act[i] a byte came from port i's MAC this cycle; tx_act[i]
// a byte went to port i's MAC; tx_pend[i] a byte is offered to port i's MAC (moving or not).
// Counters (clk domain): stats_req (a cycle) copies every MAC's counters at once, each through a
// pisa_snapshot from the clock it counts in; stats_busy is high until all copies are in (a
// stats_req meanwhile is ignored). Then stats_value is counter stats_idx of port stats_port
// (combinational; 16 bits, wrapping):
//   0 rx frames   1 rx bytes   2 rx FCS errors   3 rx runts   4 rx giants   5 rx drops
//   6 tx frames   7 tx bytes   8 tx drops        (pisa_mac_rmii / pisa_mac_rgmii say what each
//   counts; 9 .. 15 read 0). The bring-up bridges print them (pisa_bridge_console); the switch
//   tops hand stats_* to pisa_switch (mac_*), which answers a host's READ of them (`pisactl
//   port-counters`). A top built with MAC_COUNTERS = 0 reads nothing, so synthesis removes the
//   counters there, like the demux's drop count.
`default_nettype none

module pisa_eth_ports #(
	// The MACs: "rmii" (pisa_mac_rmii, 100 Mb/s) or "rgmii" (pisa_mac_rgmii, 1000 Mb/s).
	parameter [8*5-1:0] PHY = "rmii",
	// RGMII pin primitives and delays: "sim", "ice40" or "ecp5" (pisa_ddr_io). RMII: not used.
	parameter [8*5-1:0] FAMILY = "sim",
	// Ports: >= 1; port i is pisa_switch's port i.
	parameter N = 2,
	// Longest frame accepted and sent (FCS included) and each MAC's frame buffers (bytes), as
	// pisa_mac_rmii / pisa_mac_rgmii take them.
	parameter MAX_FRAME = 1518,
	parameter RX_DEPTH = 2048,
	parameter TX_DEPTH = 2048,
	// RGMII on ECP5: DELAYG taps on each receive pin, 0 .. 127 (0: none).
	parameter RX_DELAY = 0,
	// Derived: data pins a port each way (2 for RMII, 4 for RGMII).
	parameter PIN_W = PHY == "rgmii" ? 4 : 2,
	// Derived: bits of a port number (stats_port).
	parameter SEL_W = N > 1 ? $clog2(N) : 1
) (
	input  wire               clk,
	input  wire               rst,
	input  wire               rst_in,

	// PHY pins (the table above).
	input  wire [N-1:0]       phy_rx_clk,
	input  wire [PIN_W*N-1:0] phy_rxd,
	input  wire [N-1:0]       phy_rx_ctl,
	input  wire               gtx_clk,
	output wire [N-1:0]       phy_tx_clk,
	output wire [PIN_W*N-1:0] phy_txd,
	output wire [N-1:0]       phy_tx_ctl,

	// Frames received, tagged with their port.
	output wire [8:0]         m_pkt_port,
	output wire [7:0]         m_pkt_data,
	output wire               m_pkt_last,
	output wire               m_pkt_valid,
	input  wire               m_pkt_ready,

	// Frames to send, each on the port it is tagged with.
	input  wire [15:0]        s_pkt_port,
	input  wire [7:0]         s_pkt_data,
	input  wire               s_pkt_last,
	input  wire               s_pkt_valid,
	output wire               s_pkt_ready,

	output wire [N-1:0]       rx_act,
	output wire [N-1:0]       tx_act,
	output wire [N-1:0]       tx_pend,

	// The MACs' counters.
	input  wire               stats_req,
	output wire               stats_busy,
	input  wire [SEL_W-1:0]   stats_port,
	input  wire [3:0]         stats_idx,
	output wire [15:0]        stats_value
);

localparam [8*5-1:0] P_RMII = "rmii", P_RGMII = "rgmii";
localparam [8*5-1:0] F_SIM = "sim", F_ICE40 = "ice40", F_ECP5 = "ecp5";
localparam IS_RGMII = PHY == P_RGMII;

generate
	if (PHY != P_RMII && PHY != P_RGMII) begin : g_bad_phy
		pisa_eth_ports_error_phy_must_be_rmii_or_rgmii u_stop ();
	end
	if (FAMILY != F_SIM && FAMILY != F_ICE40 && FAMILY != F_ECP5) begin : g_bad_family
		pisa_eth_ports_error_family_must_be_sim_ice40_or_ecp5 u_stop ();
	end
	if (N < 1) begin : g_bad_n
		pisa_eth_ports_error_n_must_be_at_least_1 u_stop ();
	end
	if (RX_DELAY < 0 || RX_DELAY > 127) begin : g_bad_rx_delay
		pisa_eth_ports_error_rx_delay_must_be_0_to_127 u_stop ();
	end
	if (PIN_W != (IS_RGMII ? 4 : 2)) begin : g_bad_pin_w
		pisa_eth_ports_error_pin_w_is_derived_from_phy u_stop ();
	end
	if ((1 << SEL_W) < N) begin : g_bad_sel_w
		pisa_eth_ports_error_sel_w_is_derived_from_n u_stop ();
	end
endgenerate

// ---- the MACs ----
wire [8*N-1:0] rx_data;
wire [N-1:0] rx_last, rx_valid, rx_ready;
wire [7:0] tx_data;
wire [N-1:0] tx_last, tx_valid, tx_ready;
// the counters for stats_*: port i's eight line-clock ones as copied at [128 i +: 128] (counter k
// at [16 k +: 16]), its tx drops (in clk) at [16 i +: 16]; all nine as copied at [144 i +: 144]
localparam NC = 9;
wire [16*8*N-1:0] stats_line;
wire [16*N-1:0] tx_drops;
wire [16*NC*N-1:0] stats_all;
wire [2*N-1:0] snap_busy;
wire snap_req = stats_req && !stats_busy;  // all copies at once, or none

genvar i;
generate
	if (IS_RGMII) begin : g_rgmii
		wire gtx_rst;
		pisa_rst_sync u_gtx_rst (.clk(gtx_clk), .rst_in(rst_in), .rst_out(gtx_rst));

		// receive pin delays
		wire [PIN_W*N-1:0] rxd_d;
		wire [N-1:0] rx_ctl_d;
		if (FAMILY == F_ECP5 && RX_DELAY > 0) begin : g_delay
			for (i = 0; i < (PIN_W + 1) * N; i = i + 1) begin : g_pin
				wire pin_in = i < PIN_W * N ? phy_rxd[i] : phy_rx_ctl[i - PIN_W * N];
				wire pin_out;
				DELAYG #(.DEL_MODE("USER_DEFINED"), .DEL_VALUE(RX_DELAY)) u_delay (
					.A(pin_in), .Z(pin_out)
				);
				if (i < PIN_W * N) begin : g_d
					assign rxd_d[i] = pin_out;
				end else begin : g_c
					assign rx_ctl_d[i - PIN_W * N] = pin_out;
				end
			end
		end else begin : g_nodelay
			assign rxd_d = phy_rxd;
			assign rx_ctl_d = phy_rx_ctl;
		end

		for (i = 0; i < N; i = i + 1) begin : g_port
			wire rx_rst;
			wire [15:0] c_rf, c_rb, c_fcs, c_runt, c_giant, c_rdrop, c_tf, c_tb, c_tdrop;
			pisa_rst_sync u_rst (.clk(phy_rx_clk[i]), .rst_in(rst_in), .rst_out(rx_rst));
			pisa_mac_rgmii #(.FAMILY(FAMILY), .MAX_FRAME(MAX_FRAME), .RX_DEPTH(RX_DEPTH),
				.TX_DEPTH(TX_DEPTH), .CNT_W(16)) u_mac (
				.clk(clk), .rst(rst),
				.rx_data(rx_data[8 * i +: 8]), .rx_last(rx_last[i]), .rx_valid(rx_valid[i]),
				.rx_ready(rx_ready[i]),
				.tx_data(tx_data), .tx_last(tx_last[i]), .tx_valid(tx_valid[i]),
				.tx_ready(tx_ready[i]),
				.rgmii_rx_clk(phy_rx_clk[i]), .rgmii_rx_rst(rx_rst),
				.rgmii_rxd(rxd_d[PIN_W * i +: PIN_W]), .rgmii_rx_ctl(rx_ctl_d[i]),
				.gtx_clk(gtx_clk), .gtx_rst(gtx_rst),
				.rgmii_tx_clk(phy_tx_clk[i]), .rgmii_txd(phy_txd[PIN_W * i +: PIN_W]),
				.rgmii_tx_ctl(phy_tx_ctl[i]),
				.rx_frames(c_rf), .rx_bytes(c_rb), .rx_fcs_errors(c_fcs), .rx_runts(c_runt),
				.rx_giants(c_giant), .rx_drops(c_rdrop), .tx_frames(c_tf), .tx_bytes(c_tb),
				.tx_drops(c_tdrop)
			);
			// rx_* count in RXC, tx frames and bytes in gtx_clk
			wire [16*6-1:0] s_rx;
			wire [16*2-1:0] s_tx;
			pisa_snapshot #(.W(16 * 6)) u_snap_rx (
				.clk(clk), .rst(rst), .req(snap_req), .busy(snap_busy[2 * i]), .snap(s_rx),
				.src_clk(phy_rx_clk[i]), .src_rst(rx_rst),
				.src_data({c_rdrop, c_giant, c_runt, c_fcs, c_rb, c_rf})
			);
			pisa_snapshot #(.W(16 * 2)) u_snap_tx (
				.clk(clk), .rst(rst), .req(snap_req), .busy(snap_busy[2 * i + 1]),
				.snap(s_tx), .src_clk(gtx_clk), .src_rst(gtx_rst), .src_data({c_tb, c_tf})
			);
			assign stats_line[128 * i +: 128] = {s_tx, s_rx};
			assign tx_drops[16 * i +: 16] = c_tdrop;
		end
	end else begin : g_rmii
		for (i = 0; i < N; i = i + 1) begin : g_port
			wire rmii_rst;
			wire [15:0] c_rf, c_rb, c_fcs, c_runt, c_giant, c_rdrop, c_tf, c_tb, c_tdrop;
			pisa_rst_sync u_rst (.clk(phy_rx_clk[i]), .rst_in(rst_in), .rst_out(rmii_rst));
			pisa_mac_rmii #(.MAX_FRAME(MAX_FRAME), .RX_DEPTH(RX_DEPTH), .TX_DEPTH(TX_DEPTH),
				.CNT_W(16)) u_mac (
				.clk(clk), .rst(rst),
				.rx_data(rx_data[8 * i +: 8]), .rx_last(rx_last[i]), .rx_valid(rx_valid[i]),
				.rx_ready(rx_ready[i]),
				.tx_data(tx_data), .tx_last(tx_last[i]), .tx_valid(tx_valid[i]),
				.tx_ready(tx_ready[i]),
				.rmii_clk(phy_rx_clk[i]), .rmii_rst(rmii_rst), .mode_10m(1'b0),
				.rmii_rxd(phy_rxd[PIN_W * i +: PIN_W]), .rmii_crs_dv(phy_rx_ctl[i]),
				.rmii_txd(phy_txd[PIN_W * i +: PIN_W]), .rmii_tx_en(phy_tx_ctl[i]),
				.rx_frames(c_rf), .rx_bytes(c_rb), .rx_fcs_errors(c_fcs), .rx_runts(c_runt),
				.rx_giants(c_giant), .rx_drops(c_rdrop), .tx_frames(c_tf), .tx_bytes(c_tb),
				.tx_drops(c_tdrop)
			);
			// all but tx drops count in REF_CLK
			pisa_snapshot #(.W(16 * 8)) u_snap (
				.clk(clk), .rst(rst), .req(snap_req), .busy(snap_busy[2 * i]),
				.snap(stats_line[128 * i +: 128]),
				.src_clk(phy_rx_clk[i]), .src_rst(rmii_rst),
				.src_data({c_tb, c_tf, c_rdrop, c_giant, c_runt, c_fcs, c_rb, c_rf})
			);
			assign snap_busy[2 * i + 1] = 1'b0;
			assign tx_drops[16 * i +: 16] = c_tdrop;
		end
		assign phy_tx_clk = {N{1'b0}};
		wire _unused_gtx_clk = gtx_clk;
	end
endgenerate

// ---- the port mux and demux ----
pisa_port_mux #(.N(N)) u_mux (
	.clk(clk), .rst(rst),
	.s_data(rx_data), .s_last(rx_last), .s_valid(rx_valid), .s_ready(rx_ready),
	.m_port(m_pkt_port), .m_data(m_pkt_data), .m_last(m_pkt_last), .m_valid(m_pkt_valid),
	.m_ready(m_pkt_ready)
);

wire [15:0] drops;
pisa_port_demux #(.N(N), .CNT_W(16)) u_demux (
	.clk(clk), .rst(rst),
	.s_port(s_pkt_port), .s_data(s_pkt_data), .s_last(s_pkt_last), .s_valid(s_pkt_valid),
	.s_ready(s_pkt_ready),
	.m_data(tx_data), .m_last(tx_last), .m_valid(tx_valid), .m_ready(tx_ready),
	.drops(drops)
);
wire _unused = &{1'b0, drops, 1'b0};

assign stats_busy = |snap_busy;
generate
	for (i = 0; i < N; i = i + 1) begin : g_tx_drops
		reg [15:0] copy = 16'd0;
		always @(posedge clk)
			if (snap_req)
				copy <= tx_drops[16 * i +: 16];
		assign stats_all[16 * NC * i +: 16 * NC] = {copy, stats_line[128 * i +: 128]};
	end
endgenerate
// (a table of 16 slots a port, so that {port, index} addresses it: a plain multiplexer, not a
// shifter by port x 9 + index)
wire [15:0] stats_slot [0:16*(1<<SEL_W)-1];
genvar si;
generate
	for (si = 0; si < 16 * (1 << SEL_W); si = si + 1) begin : g_slot
		if (si / 16 < N && si % 16 < NC) begin : g_cnt
			assign stats_slot[si] = stats_all[16 * (NC * (si / 16) + si % 16) +: 16];
		end else begin : g_zero
			assign stats_slot[si] = 16'd0;
		end
	end
endgenerate
assign stats_value = stats_slot[{stats_port, stats_idx}];

assign rx_act = rx_valid & rx_ready;
assign tx_act = tx_valid & tx_ready;
assign tx_pend = tx_valid;

endmodule

`resetall
