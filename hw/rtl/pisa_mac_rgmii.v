// SPDX-License-Identifier: Apache-2.0
// pisa_mac_rgmii: 1000 Mb/s Ethernet MAC on an RGMII PHY, store-and-forward both ways, with the
// user-side streams and counters of pisa_mac_rmii (a board top can use either).
//
// Clock domains: rgmii_rx_clk (RXC, 125 MHz from the PHY) runs the receive pins, the RX frame
// buffer's write port and the rx_* counters; gtx_clk (125 MHz from a local PLL; it may be the same
// net as rgmii_rx_clk) runs the transmit pins, the TX frame buffer's read port and tx_frames and
// tx_bytes; clk (the core clock) runs the rx_* and tx_* streams, the buffers' other ports and
// tx_drops. Each frame buffer is a block RAM with a clock per port and is itself the crossing
// (only Gray-coded counters cross). The buffers, the FCS and length checks on receive and the
// rx_* and tx_drops counters are pisa_mac_rxbuf and pisa_mac_txbuf, shared with pisa_mac_rmii;
// this module is the RGMII side. The byte streams carry one byte per core cycle, so the core
// needs about 123 MHz to take back-to-back longest frames at line rate (125 MHz on the
// Colorlight profile).
//
// Pins (pisa_ddr_io, FAMILY "sim", "ice40" or "ecp5"): one byte per RXC/TXC cycle, bits 3:0 on
// the rising edge and 7:4 on the falling edge; RX_CTL carries RX_DV on the rising edge and
// RX_DV xor RX_ER on the falling edge, TX_CTL likewise (TX_ER is never sent). rgmii_tx_clk is
// gtx_clk forwarded through the same DDR register as txd and tx_ctl, so it is edge-aligned with
// them; the 1.5-2 ns skew RGMII asks for (clock in the middle of the data) must come from the
// PHY's internal delays (RGMII-ID) or a delay line in the board top, on both directions.
// Only 1000 Mb/s: a PHY linked at 10/100 clocks 2.5/25 MHz nibbles, which come out as FCS
// errors and runts here, so advertise 1000BASE-T only.
//
// Receive path (rgmii_rx_clk):
//   pins -> DDR input registers -> {byte, RX_DV, RX_ER} per cycle -> preamble/SFD hunt
//        -> a register stage -> pisa_mac_rxbuf: CRC-32 (a byte a cycle) and RX frame buffer
//        (RX_DEPTH bytes: length header, frame, FCS) -> committed frames only -> rx_* (clk)
//   A frame is written into the buffer as it arrives; only when it has ended, its FCS is good,
//   no RX_ER came with it and its length is in [64, MAX_FRAME] (FCS included) is it committed
//   (its header written); otherwise the write pointer goes back to its start. A frame that does
//   not fit in the free space is dropped whole the same way. So rx_* only ever carries
//   whole good frames, without preamble, SFD and FCS, rx_last on the last byte.
//   With RX_DV high, bytes 0x55 are preamble (any number, none included: PHYs may shorten it),
//   0xD5 is the SFD, anything else before the SFD discards until RX_DV drops. RX_DV low ends
//   the frame. RX_ER while RX_DV is high anywhere in the carrier event marks the frame bad (802.3
//   35.2.1.7: the MAC sees it as an FCS error). RX_ER with RX_DV low (carrier extension, false
//   carrier) and the in-band status on RXD between frames are ignored. A frame needs RX_DV low for
//   one cycle before the next one; 802.3 guarantees many more.
// Transmit path:
//   tx_* (clk) -> pisa_mac_txbuf: TX frame buffer (TX_DEPTH bytes: length header, frame) ->
//   when a whole frame is in it (gtx_clk), the engine here: 7 x 0x55, 0xD5, the bytes, zero
//   padding to 60 bytes, FCS (pisa_crc32), then 12 idle bytes of inter-frame gap before the
//   next preamble. A frame is sent only once all of it is buffered, so it never underruns
//   whatever the core clock.
//   A frame from the core longer than MAX_FRAME - 4 bytes is dropped whole (tx_drops).
//
// Stream contract (rx_* and tx_*): a beat moves when valid && ready at a rising edge of clk;
// once a source raises valid it keeps valid and data/last stable until ready; a source never
// waits for ready before raising valid.
//
// Counters (wrap at 2^CNT_W; rx_* in the rgmii_rx_clk domain, tx_frames and tx_bytes in the
// gtx_clk domain, tx_drops in the clk domain: read them through a synchronizer or a snapshot
// handshake from another domain):
//   rx_frames, rx_bytes   good frames committed to the RX buffer; bytes counted from the
//                         destination address through the FCS
//   rx_fcs_errors         frames of legal length with a bad FCS or with RX_ER
//   rx_runts              frames shorter than 64 bytes (FCS included), whatever their FCS
//   rx_giants             frames longer than MAX_FRAME, whatever their FCS
//   rx_drops              good frames that did not fit in the RX buffer
//   tx_frames, tx_bytes   frames sent; bytes from destination address through FCS (padding in)
//   tx_drops              frames from the core longer than MAX_FRAME - 4 bytes, not sent
//
// Reset: rst (sync to clk), rgmii_rx_rst (sync to rgmii_rx_clk) and gtx_rst (sync to gtx_clk)
// must overlap, each held for at least SYNC_STAGES + 1 edges of its own clock (the frame
// buffers' crossings); so RXC must be running during reset (the PHY out of reset, its clock up).
`default_nettype none

module pisa_mac_rgmii #(
	// Pin primitives: "sim", "ice40" or "ecp5" (see pisa_ddr_io).
	parameter [8*5-1:0] FAMILY = "sim",
	// Longest frame accepted and sent, FCS included (1518 for untagged, 1522 for VLAN);
	// 64 .. 16383.
	parameter MAX_FRAME = 1518,
	// RX frame buffer words (one byte each): a power of 2, >= MAX_FRAME + 2.
	parameter RX_DEPTH = 2048,
	// TX frame buffer words: a power of 2, >= MAX_FRAME - 2 (a whole frame must fit).
	parameter TX_DEPTH = 2048,
	// RX frame buffer memory: "block", "distributed" or "logic" (yosys ram_style). The TX buffer
	// is always block RAM (pisa_ram_2clk).
	parameter RX_RAM_STYLE = "block",
	// Synchronizer flip-flops per crossing counter: >= 2.
	parameter SYNC_STAGES = 2,
	// Counter width.
	parameter CNT_W = 32,
	// Derived widths.
	parameter RX_AW = $clog2(RX_DEPTH),
	parameter TX_AW = $clog2(TX_DEPTH),
	parameter LEN_W = $clog2(MAX_FRAME + 1)
) (
	// Core side.
	input  wire             clk,
	input  wire             rst,

	output wire [7:0]       rx_data,
	output wire             rx_last,
	output wire             rx_valid,
	input  wire             rx_ready,

	input  wire [7:0]       tx_data,
	input  wire             tx_last,
	input  wire             tx_valid,
	output wire             tx_ready,

	// RGMII side.
	input  wire             rgmii_rx_clk,
	input  wire             rgmii_rx_rst,
	input  wire [3:0]       rgmii_rxd,
	input  wire             rgmii_rx_ctl,
	input  wire             gtx_clk,
	input  wire             gtx_rst,
	output wire             rgmii_tx_clk,
	output wire [3:0]       rgmii_txd,
	output wire             rgmii_tx_ctl,

	// Counters (rx_*: rgmii_rx_clk domain, tx_*: gtx_clk domain).
	output wire [CNT_W-1:0] rx_frames,
	output wire [CNT_W-1:0] rx_bytes,
	output wire [CNT_W-1:0] rx_fcs_errors,
	output wire [CNT_W-1:0] rx_runts,
	output wire [CNT_W-1:0] rx_giants,
	output wire [CNT_W-1:0] rx_drops,
	output wire [CNT_W-1:0] tx_frames,
	output wire [CNT_W-1:0] tx_bytes,
	output wire [CNT_W-1:0] tx_drops
);

generate
	if (MAX_FRAME < 64 || MAX_FRAME > 16383) begin : g_bad_max
		pisa_mac_rgmii_error_max_frame_must_be_64_to_16383 u_stop ();
	end
	if ((1 << RX_AW) != RX_DEPTH || RX_DEPTH < MAX_FRAME + 2) begin : g_bad_rx_depth
		pisa_mac_rgmii_error_rx_depth_must_be_power_of_2_at_least_max_frame_plus_2 u_stop ();
	end
	if ((1 << TX_AW) != TX_DEPTH || TX_DEPTH < MAX_FRAME - 2) begin : g_bad_tx_depth
		pisa_mac_rgmii_error_tx_depth_must_be_power_of_2_at_least_max_frame_minus_2 u_stop ();
	end
	if (CNT_W < LEN_W) begin : g_bad_cnt_w
		pisa_mac_rgmii_error_cnt_w_must_hold_max_frame u_stop ();
	end
endgenerate

localparam [LEN_W-1:0] LEN_PAD = 60;
localparam [LEN_W-1:0] LEN_FCS = 4;

// ==== receive (rgmii_rx_clk) ====

// DDR input registers: {RX_CTL, RXD} at the rising and at the following falling edge.
wire [4:0] rx_q_rise, rx_q_fall;
wire [4:0] rx_ddr_pin_out_unused;

pisa_ddr_io #(.FAMILY(FAMILY), .DIR("in"), .WIDTH(5)) u_rx_ddr (
	.clk(rgmii_rx_clk),
	.pin_in({rgmii_rx_ctl, rgmii_rxd}), .q_rise(rx_q_rise), .q_fall(rx_q_fall),
	.d_rise(5'd0), .d_fall(5'd0), .pin_out(rx_ddr_pin_out_unused)
);

wire [7:0] rx_b = {rx_q_fall[3:0], rx_q_rise[3:0]};
wire rx_dv = rx_q_rise[4];
wire rx_er = rx_q_rise[4] ^ rx_q_fall[4];

localparam [1:0] RX_HUNT = 2'd0, RX_FRAME = 2'd1, RX_DISCARD = 2'd2;

reg [1:0] rx_state_reg = RX_HUNT, rx_state_next;
reg rx_cer_reg = 1'b0, rx_cer_next;        // RX_ER seen since RX_DV rose
reg rx_ferr_reg = 1'b0, rx_ferr_next;      // RX_ER came with this frame (or its preamble)

wire rx_byte_evt = rx_state_reg == RX_FRAME && rx_dv;
wire rx_fin = rx_state_reg == RX_FRAME && !rx_dv;

always @* begin
	rx_state_next = rx_state_reg;
	rx_cer_next = rx_cer_reg;
	rx_ferr_next = rx_ferr_reg;

	if (!rx_dv) begin
		// End of the carrier event (and of the frame, if one was being received).
		rx_state_next = RX_HUNT;
		rx_cer_next = 1'b0;
	end else begin
		if (rx_er)
			rx_cer_next = 1'b1;
		case (rx_state_reg)
		RX_HUNT: begin
			if (rx_b == 8'hD5) begin
				rx_state_next = RX_FRAME;
				// The new frame inherits RX_ER from its own preamble only.
				rx_ferr_next = rx_cer_reg || rx_er;
			end else if (rx_b != 8'h55) begin
				rx_state_next = RX_DISCARD;
			end
		end
		RX_FRAME: begin
			if (rx_er)
				rx_ferr_next = 1'b1;
		end
		default: ;
		endcase
	end
end

always @(posedge rgmii_rx_clk) begin
	rx_state_reg <= rx_state_next;
	rx_cer_reg <= rx_cer_next;
	rx_ferr_reg <= rx_ferr_next;
	if (rgmii_rx_rst) begin
		// A frame under way when reset ends is discarded: wait for RX_DV to drop.
		rx_state_reg <= RX_DISCARD;
		rx_cer_reg <= 1'b0;
		rx_ferr_reg <= 1'b0;
	end
end

// A register stage between the line side and the RX buffer: the DDR input registers sit at the
// pads, and the path from there through the end-of-frame logic into the buffer's write enable
// needed more than RXC's 8 ns of routing on the ECP5. Every signal is delayed alike, so the
// buffer sees the same sequence a cycle later. rx_ferr_reg holds RX_ER of the whole frame in the
// cycle rx_fin is high (it only changes while RX_DV is high).
reg [7:0] rxs_data_reg = 8'd0;
reg rxs_valid_reg = 1'b0, rxs_end_reg = 1'b0, rxs_bad_reg = 1'b0;

always @(posedge rgmii_rx_clk) begin
	rxs_data_reg <= rx_b;
	rxs_valid_reg <= rx_byte_evt;
	rxs_end_reg <= rx_fin;
	rxs_bad_reg <= rx_ferr_reg;
	if (rgmii_rx_rst) begin
		rxs_valid_reg <= 1'b0;
		rxs_end_reg <= 1'b0;
	end
end

// FCS and length checks, the RX frame buffer, the rx counters and the crossing into clk: a byte
// every rgmii_rx_clk cycle, s_end in the cycle after the last byte.
pisa_mac_rxbuf #(.MAX_FRAME(MAX_FRAME), .DEPTH(RX_DEPTH), .RAM_STYLE(RX_RAM_STYLE),
	.SYNC_STAGES(SYNC_STAGES), .CRC_BITS(8), .CNT_W(CNT_W)) u_rxbuf (
	.line_clk(rgmii_rx_clk), .line_rst(rgmii_rx_rst),
	.s_data(rxs_data_reg), .s_valid(rxs_valid_reg), .s_end(rxs_end_reg), .s_bad(rxs_bad_reg),
	.clk(clk), .rst(rst),
	.m_data(rx_data), .m_last(rx_last), .m_valid(rx_valid), .m_ready(rx_ready),
	.frames(rx_frames), .bytes(rx_bytes), .fcs_errors(rx_fcs_errors), .runts(rx_runts),
	.giants(rx_giants), .drops(rx_drops)
);

// ==== transmit (gtx_clk) ====

// The TX frame buffer, which is also the crossing from clk: it holds back a frame until all of
// it is in and drops those longer than MAX_FRAME - 4 bytes (tx_drops).
wire txq_frame;        // a whole frame is buffered
wire [7:0] txq_data;   // the TX buffer word at its read pointer, a cycle after it moved
wire txq_last;
reg txq_pop;

pisa_mac_txbuf #(.FAMILY(FAMILY), .MAX_FRAME(MAX_FRAME), .DEPTH(TX_DEPTH),
	.SYNC_STAGES(SYNC_STAGES), .CNT_W(CNT_W)) u_txbuf (
	.clk(clk), .rst(rst),
	.s_data(tx_data), .s_last(tx_last), .s_valid(tx_valid), .s_ready(tx_ready),
	.line_clk(gtx_clk), .line_rst(gtx_rst),
	.m_frame(txq_frame), .m_data(txq_data), .m_last(txq_last), .m_pop(txq_pop),
	.drops(tx_drops)
);

// TX engine, two stages a cycle apart, one byte a gtx_clk cycle. The chooser, a byte state
// machine, picks each byte and pops the TX buffer for it; the output stage, a cycle later, puts
// it together (the buffer word it took in the cycle before, or the constant chosen), feeds the
// data and pad bytes to the CRC and drives the pins' register, taking the FCS bytes from the
// CRC's result: the CRC (pisa_crc32) gets the last data or pad byte with s_last and holds its
// result from the next cycle, when the first FCS byte goes out. So the TX buffer's memory output
// only goes into a flip-flop, and the CRC only takes registers (the byte chosen from the buffer
// word through the CRC into its register in one cycle does not fit in 8 ns on an ECP5-25F,
// speed 6); the pins follow a cycle later than the choice, which the IFG, padding and FCS do not
// see.
localparam [2:0] TX_IDLE = 3'd0, TX_PRE = 3'd1, TX_DATA = 3'd2, TX_PAD = 3'd3, TX_FCS = 3'd4,
	TX_IFG = 3'd5;

reg [2:0] tx_state_reg = TX_IDLE, tx_state_next;
reg [3:0] tx_cnt_reg = 4'd0, tx_cnt_next;      // preamble, FCS and IFG byte count
reg [LEN_W-1:0] tx_len_reg = {LEN_W{1'b0}}, tx_len_next;  // data + pad bytes chosen
reg [CNT_W-1:0] tx_frames_reg = {CNT_W{1'b0}}, tx_frames_next;
reg [CNT_W-1:0] tx_bytes_reg = {CNT_W{1'b0}}, tx_bytes_next;
// the chosen byte, for the output stage
reg [7:0] tx_buf_reg;                          // the buffer word at the choice (every cycle)
reg tx_en1_reg = 1'b0, tx_en1_next;            // the byte is sent (not idle)
reg tx_data1_reg = 1'b0, tx_data1_next;        // ... it is tx_buf_reg
reg [7:0] tx_k1_reg = 8'h00, tx_k1_next;       // ... else this constant (pad: 0)
reg tx_crc1_reg = 1'b0, tx_crc1_next;          // ... a data or pad byte: into the CRC
reg tx_last1_reg = 1'b0, tx_last1_next;        // ... the last of them
reg tx_fcs1_reg = 1'b0, tx_fcs1_next;          // ... an FCS byte, which one:
reg [1:0] tx_fi1_reg = 2'd0, tx_fi1_next;
// the pins' register
reg [7:0] tx_d_reg = 8'h00, tx_d_next;         // TXD[7:0] and TX_EN of the byte on the pins
reg tx_en_reg = 1'b0;

wire [7:0] tx_byte1 = tx_data1_reg ? tx_buf_reg : tx_k1_reg;
wire [31:0] tx_crc;
wire tx_crc_valid_unused;
wire tx_crc_s_ready_unused;

pisa_crc32 #(.WIDTH(8)) u_tx_crc (
	.clk(gtx_clk), .rst(gtx_rst),
	.s_data(tx_byte1), .s_keep(tx_crc1_reg), .s_last(tx_last1_reg),
	.s_valid(tx_crc1_reg), .s_ready(tx_crc_s_ready_unused),
	.m_crc(tx_crc), .m_valid(tx_crc_valid_unused), .m_ready(1'b1)
);

// The chooser.
always @* begin
	txq_pop = 1'b0;
	tx_state_next = tx_state_reg;
	tx_cnt_next = tx_cnt_reg;
	tx_len_next = tx_len_reg;
	tx_frames_next = tx_frames_reg;
	tx_bytes_next = tx_bytes_reg;
	tx_en1_next = 1'b1;
	tx_data1_next = 1'b0;
	tx_k1_next = 8'h00;
	tx_crc1_next = 1'b0;
	tx_last1_next = 1'b0;
	tx_fcs1_next = 1'b0;
	tx_fi1_next = tx_cnt_reg[1:0];

	case (tx_state_reg)
	TX_IDLE: begin
		if (txq_frame) begin
			tx_k1_next = 8'h55;
			tx_cnt_next = 4'd1;
			tx_state_next = TX_PRE;
		end else begin
			tx_en1_next = 1'b0;
		end
	end
	TX_PRE: begin
		tx_cnt_next = tx_cnt_reg + 4'd1;
		if (tx_cnt_reg == 4'd7) begin
			tx_k1_next = 8'hD5;
			tx_len_next = {LEN_W{1'b0}};
			tx_state_next = TX_DATA;
		end else begin
			tx_k1_next = 8'h55;
		end
	end
	TX_DATA: begin
		tx_data1_next = 1'b1;
		tx_crc1_next = 1'b1;
		txq_pop = 1'b1;
		tx_len_next = tx_len_reg + 1'b1;
		if (txq_last) begin
			// (compared before the increment)
			if (tx_len_reg < LEN_PAD - 1'b1) begin
				tx_state_next = TX_PAD;
			end else begin
				tx_last1_next = 1'b1;
				tx_state_next = TX_FCS;
				tx_cnt_next = 4'd0;
			end
		end
	end
	TX_PAD: begin
		tx_crc1_next = 1'b1;
		tx_len_next = tx_len_reg + 1'b1;
		if (tx_len_reg == LEN_PAD - 1'b1) begin
			tx_last1_next = 1'b1;
			tx_state_next = TX_FCS;
			tx_cnt_next = 4'd0;
		end
	end
	TX_FCS: begin
		tx_fcs1_next = 1'b1;
		tx_cnt_next = tx_cnt_reg + 4'd1;
		if (tx_cnt_reg == 4'd3) begin
			tx_state_next = TX_IFG;
			tx_cnt_next = 4'd0;
			tx_frames_next = tx_frames_reg + 1'b1;
			tx_bytes_next = tx_bytes_reg + {{(CNT_W-LEN_W){1'b0}}, tx_len_reg + LEN_FCS};
		end
	end
	TX_IFG: begin
		tx_en1_next = 1'b0;
		tx_cnt_next = tx_cnt_reg + 4'd1;
		if (tx_cnt_reg == 4'd11)
			tx_state_next = TX_IDLE;
	end
	default: begin
		tx_en1_next = 1'b0;
		tx_state_next = TX_IDLE;
	end
	endcase
end

// The output stage: TXD is zero between frames (the constant of an idle byte is zero).
always @* begin
	if (tx_fcs1_reg) begin
		// pisa_crc32 holds its result from the cycle after s_last until the next frame's last
		// byte, so all four bytes come straight from it.
		case (tx_fi1_reg)
		2'd0: tx_d_next = tx_crc[7:0];
		2'd1: tx_d_next = tx_crc[15:8];
		2'd2: tx_d_next = tx_crc[23:16];
		default: tx_d_next = tx_crc[31:24];
		endcase
	end else begin
		tx_d_next = tx_byte1;
	end
end

always @(posedge gtx_clk) begin
	tx_state_reg <= tx_state_next;
	tx_cnt_reg <= tx_cnt_next;
	tx_len_reg <= tx_len_next;
	tx_frames_reg <= tx_frames_next;
	tx_bytes_reg <= tx_bytes_next;
	tx_buf_reg <= txq_data;
	tx_en1_reg <= tx_en1_next;
	tx_data1_reg <= tx_data1_next;
	tx_k1_reg <= tx_k1_next;
	tx_crc1_reg <= tx_crc1_next;
	tx_last1_reg <= tx_last1_next;
	tx_fcs1_reg <= tx_fcs1_next;
	tx_fi1_reg <= tx_fi1_next;
	tx_d_reg <= tx_d_next;
	tx_en_reg <= tx_en1_reg;
	if (gtx_rst) begin
		tx_state_reg <= TX_IDLE;
		tx_cnt_reg <= 4'd0;
		tx_len_reg <= {LEN_W{1'b0}};
		tx_frames_reg <= {CNT_W{1'b0}};
		tx_bytes_reg <= {CNT_W{1'b0}};
		tx_en1_reg <= 1'b0;
		tx_data1_reg <= 1'b0;
		tx_k1_reg <= 8'h00;
		tx_crc1_reg <= 1'b0;
		tx_last1_reg <= 1'b0;
		tx_fcs1_reg <= 1'b0;
		tx_d_reg <= 8'h00;
		tx_en_reg <= 1'b0;
	end
end

// Pins: {TXC, TX_CTL, TXD}; TXC = gtx_clk through the same DDR registers (1 high, 0 low),
// TX_CTL = TX_EN on both edges (TX_ER = 0).
wire [5:0] tx_ddr_q_rise_unused, tx_ddr_q_fall_unused;

pisa_ddr_io #(.FAMILY(FAMILY), .DIR("out"), .WIDTH(6)) u_tx_ddr (
	.clk(gtx_clk),
	.pin_in(6'd0), .q_rise(tx_ddr_q_rise_unused), .q_fall(tx_ddr_q_fall_unused),
	.d_rise({1'b1, tx_en_reg, tx_d_reg[3:0]}), .d_fall({1'b0, tx_en_reg, tx_d_reg[7:4]}),
	.pin_out({rgmii_tx_clk, rgmii_tx_ctl, rgmii_txd})
);

assign tx_frames = tx_frames_reg;
assign tx_bytes = tx_bytes_reg;

endmodule

`resetall
