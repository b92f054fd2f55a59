// SPDX-License-Identifier: Apache-2.0
// pisa_mac_rmii: 10/100 Ethernet MAC on an RMII PHY (50 MHz REF_CLK), store-and-forward both
// ways, with byte streams and per-port counters.
//
// Clock domains: rmii_clk (REF_CLK, 50 MHz) runs the RMII pins, the frame buffers' line-side
// ports and the rx_*/tx_frames/tx_bytes counters; clk (the core clock, any frequency) runs the
// rx_* and tx_* streams, the buffers' core-side ports and tx_drops. Each frame buffer is a block
// RAM with a clock per port and is itself the crossing (only Gray-coded counters cross). The
// buffers, the FCS and length checks on receive and the rx_* and tx_drops counters are
// pisa_mac_rxbuf and pisa_mac_txbuf, shared with pisa_mac_rgmii; this module is the RMII side.
//
// Receive path (rmii_clk):
//   pins -> input flops -> dibit sampler -> preamble/SFD hunt -> bytes -> pisa_mac_rxbuf:
//        CRC-32 (2 bits a cycle) and RX frame buffer (RX_DEPTH bytes: length header, frame,
//        FCS) -> committed frames only -> rx_* (clk)
//   A frame is written into the buffer as it arrives; only when it has ended, its FCS is good
//   and its length is in [64, MAX_FRAME] (FCS included) is it committed (its header written);
//   otherwise the write pointer goes back to its start. A frame that does not fit in the free
//   space is dropped whole the same way. So rx_* only ever carries whole good frames, without
//   preamble, SFD and FCS, rx_last on the last byte.
//   CRS_DV: a dibit is data when CRS_DV is high on it or on the next dibit (RMII toggles
//   CRS_DV on nibble boundaries once carrier drops while the PHY still holds data); two dibits
//   in a row with CRS_DV low end the frame. A trailing partial byte (dribble) is ignored.
//   RXD = 10 before the SFD (false carrier) discards until carrier drops.
//   10 Mb/s (mode_10m = 1): the PHY repeats each dibit for 10 REF_CLK cycles; the sampler locks
//   onto the first 01 preamble dibit and samples 5 cycles into each dibit.
// Transmit path:
//   tx_* (clk) -> pisa_mac_txbuf: TX frame buffer (TX_DEPTH bytes: length header, frame) ->
//   when a whole frame is in it, the engine here: 7 x 0x55, 0xD5, the bytes, zero padding to
//   60 bytes, FCS (a CRC-32 register stepped with each data and pad dibit as it leaves), then
//   12 idle bytes of inter-frame gap before the next preamble.
//   A frame from the core longer than MAX_FRAME - 4 bytes is dropped whole (tx_drops).
//   tx_en and txd change on rmii_clk edges, once per dibit (every cycle at 100 Mb/s, every
//   10 cycles at 10 Mb/s).
//
// Stream contract (rx_* and tx_*): a beat moves when valid && ready at a rising edge of clk;
// once a source raises valid it keeps valid and data/last stable until ready; a source never
// waits for ready before raising valid.
//
// Counters (wrap at 2^CNT_W; rmii_clk domain except tx_drops, which is in the clk domain; read
// them through a synchronizer or a snapshot handshake from another domain):
//   rx_frames, rx_bytes   good frames committed to the RX buffer; bytes counted from the
//                         destination address through the FCS
//   rx_fcs_errors         frames of legal length with a bad FCS
//   rx_runts              frames shorter than 64 bytes (FCS included), whatever their FCS
//   rx_giants             frames longer than MAX_FRAME, whatever their FCS
//   rx_drops              good frames that did not fit in the RX buffer
//   tx_frames, tx_bytes   frames sent; bytes from destination address through FCS (padding in)
//   tx_drops              frames from the core longer than MAX_FRAME - 4 bytes, not sent
//
// Reset: rst (sync to clk) and rmii_rst (sync to rmii_clk) must overlap, each held for at least
// SYNC_STAGES + 1 edges of its own clock (the frame buffers' crossings). mode_10m is static:
// change it only in reset.
`default_nettype none

module pisa_mac_rmii #(
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

	// RMII side.
	input  wire             rmii_clk,
	input  wire             rmii_rst,
	input  wire             mode_10m,
	input  wire [1:0]       rmii_rxd,
	input  wire             rmii_crs_dv,
	output wire [1:0]       rmii_txd,
	output wire             rmii_tx_en,

	// Counters (rmii_clk domain).
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
		pisa_mac_rmii_error_max_frame_must_be_64_to_16383 u_stop ();
	end
	if ((1 << RX_AW) != RX_DEPTH || RX_DEPTH < MAX_FRAME + 2) begin : g_bad_rx_depth
		pisa_mac_rmii_error_rx_depth_must_be_power_of_2_at_least_max_frame_plus_2 u_stop ();
	end
	if ((1 << TX_AW) != TX_DEPTH || TX_DEPTH < MAX_FRAME - 2) begin : g_bad_tx_depth
		pisa_mac_rmii_error_tx_depth_must_be_power_of_2_at_least_max_frame_minus_2 u_stop ();
	end
	if (CNT_W < LEN_W) begin : g_bad_cnt_w
		pisa_mac_rmii_error_cnt_w_must_hold_max_frame u_stop ();
	end
endgenerate

localparam [LEN_W-1:0] LEN_PAD = 60;
localparam [LEN_W-1:0] LEN_FCS = 4;

// ==== receive (rmii_clk) ====

// Input flops.
reg [1:0] rxd_q;
reg dv_q = 1'b0;
always @(posedge rmii_clk) begin
	rxd_q <= rmii_rxd;
	dv_q <= rmii_crs_dv;
	if (rmii_rst)
		dv_q <= 1'b0;
end

localparam [1:0] RX_HUNT = 2'd0, RX_FRAME = 2'd1, RX_DISCARD = 2'd2;

reg [1:0] rx_state_reg = RX_HUNT, rx_state_next;
reg rx_pre_reg = 1'b0, rx_pre_next;        // a preamble dibit seen
reg rx_lock_reg = 1'b0, rx_lock_next;      // 10 Mb/s: sampling phase found
reg [3:0] rx_div_reg = 4'd0, rx_div_next;  // 10 Mb/s: cycle within the dibit
reg [1:0] rx_pd_reg = 2'b00, rx_pd_next;   // the previous dibit and its CRS_DV
reg rx_pdv_reg = 1'b0, rx_pdv_next;
reg [1:0] rx_di_reg = 2'd0, rx_di_next;    // dibit within the byte
reg [7:0] rx_sr_reg, rx_sr_next;           // byte being assembled, LSB first

wire rx_sample = mode_10m ? (rx_lock_reg && rx_div_reg == 4'd5) : 1'b1;
wire rx_data_dibit = rx_sample && (rx_pdv_reg || dv_q);
wire rx_end = rx_sample && !rx_pdv_reg && !dv_q;
wire rx_byte_evt = rx_state_reg == RX_FRAME && rx_data_dibit && rx_di_reg == 2'd3;
wire [7:0] rx_byte = {rx_pd_reg, rx_sr_reg[7:2]};
wire rx_fin = rx_state_reg == RX_FRAME && rx_end;

always @* begin
	rx_state_next = rx_state_reg;
	rx_pre_next = rx_pre_reg;
	rx_lock_next = rx_lock_reg;
	rx_div_next = rx_div_reg;
	rx_pd_next = rx_pd_reg;
	rx_pdv_next = rx_pdv_reg;
	rx_di_next = rx_di_reg;
	rx_sr_next = rx_sr_reg;

	// 10 Mb/s sampling phase.
	if (rx_lock_reg)
		rx_div_next = rx_div_reg == 4'd9 ? 4'd0 : rx_div_reg + 4'd1;
	if (mode_10m && !rx_lock_reg && rx_state_reg == RX_HUNT && dv_q && rxd_q == 2'b01) begin
		rx_lock_next = 1'b1;
		rx_div_next = 4'd1;
	end

	if (rx_sample) begin
		rx_pd_next = rxd_q;
		rx_pdv_next = dv_q;
	end

	if (rx_end) begin
		rx_state_next = RX_HUNT;
		rx_pre_next = 1'b0;
		rx_lock_next = 1'b0;
	end else if (rx_data_dibit) begin
		case (rx_state_reg)
		RX_HUNT: begin
			case (rx_pd_reg)
			2'b01: rx_pre_next = 1'b1;
			2'b11: begin
				if (rx_pre_reg) begin
					rx_state_next = RX_FRAME;
					rx_di_next = 2'd0;
				end else begin
					rx_state_next = RX_DISCARD;
				end
			end
			2'b10: rx_state_next = RX_DISCARD;
			default: rx_pre_next = 1'b0;
			endcase
		end
		RX_FRAME: begin
			rx_sr_next = {rx_pd_reg, rx_sr_reg[7:2]};
			rx_di_next = rx_di_reg + 2'd1;
		end
		default: ;
		endcase
	end
end

always @(posedge rmii_clk) begin
	rx_state_reg <= rx_state_next;
	rx_pre_reg <= rx_pre_next;
	rx_lock_reg <= rx_lock_next;
	rx_div_reg <= rx_div_next;
	rx_pd_reg <= rx_pd_next;
	rx_pdv_reg <= rx_pdv_next;
	rx_di_reg <= rx_di_next;
	rx_sr_reg <= rx_sr_next;
	if (rmii_rst) begin
		rx_state_reg <= RX_HUNT;
		rx_pre_reg <= 1'b0;
		rx_lock_reg <= 1'b0;
		rx_div_reg <= 4'd0;
		rx_pd_reg <= 2'b00;
		rx_pdv_reg <= 1'b0;
		rx_di_reg <= 2'd0;
	end
end

// FCS and length checks, the RX frame buffer (also the crossing into clk) and the rx counters: a
// byte every 4th (100 Mb/s) or 40th (10 Mb/s) rmii_clk cycle, so the CRC takes 2 bits a cycle;
// rx_fin a dibit after the last byte; the next frame's first byte comes more than 6 cycles
// later (two idle dibits, then at least the SFD).
// (registered first: the sampler's decisions and the buffer's write enable would not fit in one
// 20 ns cycle on an iCE40UP5K)
reg [7:0] rxo_data_reg;
reg rxo_valid_reg = 1'b0, rxo_end_reg = 1'b0;
always @(posedge rmii_clk) begin
	rxo_data_reg <= rx_byte;
	rxo_valid_reg <= rx_byte_evt;
	rxo_end_reg <= rx_fin;
	if (rmii_rst) begin
		rxo_valid_reg <= 1'b0;
		rxo_end_reg <= 1'b0;
	end
end

pisa_mac_rxbuf #(.MAX_FRAME(MAX_FRAME), .DEPTH(RX_DEPTH), .RAM_STYLE(RX_RAM_STYLE),
	.SYNC_STAGES(SYNC_STAGES), .CRC_BITS(2), .CNT_W(CNT_W)) u_rxbuf (
	.line_clk(rmii_clk), .line_rst(rmii_rst),
	.s_data(rxo_data_reg), .s_valid(rxo_valid_reg), .s_end(rxo_end_reg), .s_bad(1'b0),
	.clk(clk), .rst(rst),
	.m_data(rx_data), .m_last(rx_last), .m_valid(rx_valid), .m_ready(rx_ready),
	.frames(rx_frames), .bytes(rx_bytes), .fcs_errors(rx_fcs_errors), .runts(rx_runts),
	.giants(rx_giants), .drops(rx_drops)
);

// ==== transmit ====

// The TX frame buffer, which is also the crossing from clk: it holds back a frame until all of
// it is in and drops those longer than MAX_FRAME - 4 bytes (tx_drops).
wire txq_frame;        // a whole frame is buffered
wire [7:0] txq_data;   // the TX buffer word at its read pointer
wire txq_last;
wire txq_pop;

pisa_mac_txbuf #(.MAX_FRAME(MAX_FRAME), .DEPTH(TX_DEPTH),
	.SYNC_STAGES(SYNC_STAGES), .CNT_W(CNT_W)) u_txbuf (
	.clk(clk), .rst(rst),
	.s_data(tx_data), .s_last(tx_last), .s_valid(tx_valid), .s_ready(tx_ready),
	.line_clk(rmii_clk), .line_rst(rmii_rst),
	.m_frame(txq_frame), .m_data(txq_data), .m_last(txq_last), .m_pop(txq_pop),
	.drops(tx_drops)
);

// TX engine, two stages a byte apart. The chooser, a byte state machine, picks each byte in the
// cycle before it starts (tx_dec_reg) and pops the TX buffer for it; the shifter sends it a dibit
// at a time from its first dibit (tx_start_reg) on and steps the FCS: a CRC-32 register stepped
// with every data and pad dibit as it goes out, then sent complemented two bits at a time
// (stepping it with its own low bits shifts it right by two), and set back to all ones at every
// other byte. Both stage marks are flip-flops and the chosen byte waits in tx_nb_*, so the byte
// choice, the pop behind it and the pins' next value each start from registers (REF_CLK's 20 ns
// on an iCE40UP5K do not hold the three in a row).
localparam [2:0] TX_IDLE = 3'd0, TX_PRE = 3'd1, TX_DATA = 3'd2, TX_PAD = 3'd3, TX_FCS = 3'd4,
	TX_IFG = 3'd5;

reg [2:0] tx_state_reg = TX_IDLE, tx_state_next;
reg [3:0] tx_div_reg = 4'd0, tx_div_next;      // 10 Mb/s: cycle within the dibit
reg [1:0] tx_di_reg = 2'd0, tx_di_next;        // dibit within the byte
reg tx_dec_reg = 1'b0;                         // the next cycle starts a byte: choose it
reg tx_pop_reg = 1'b0;                         // ... a data byte: pop it (tx_dec_reg, TX_DATA)
reg tx_start_reg = 1'b0;                       // a byte starts (tx_tick on dibit 0)
reg [7:0] tx_nb_reg = 8'h00, tx_nb_next;       // the chosen byte
reg tx_nb_en_reg = 1'b0, tx_nb_en_next;        // ... is sent (not idle)
reg tx_nb_crc_reg = 1'b0, tx_nb_crc_next;      // ... is a data or pad byte
reg tx_nb_fcs_reg = 1'b0, tx_nb_fcs_next;      // ... is an FCS byte
reg [5:0] tx_sh_reg, tx_sh_next;               // the byte's dibits still to send
reg [1:0] tx_txd_reg = 2'b00, tx_txd_next;
reg tx_en_reg = 1'b0, tx_en_next;
reg tx_byte_en_reg = 1'b0, tx_byte_en_next;    // tx_en for the rest of the byte
reg tx_byte_crc_reg = 1'b0, tx_byte_crc_next;  // the byte is a data or pad byte
reg tx_byte_fcs_reg = 1'b0, tx_byte_fcs_next;  // the byte is an FCS byte
reg [3:0] tx_cnt_reg = 4'd0, tx_cnt_next;      // choices made in this state (PRE, FCS, IFG)
reg [LEN_W-1:0] tx_len_reg = {LEN_W{1'b0}}, tx_len_next;  // data + pad bytes chosen
// The chooser's conditions, registered (no comparator on the choice's path): the state, the
// counts and txq_last change in the cycle after a choice, 4 cycles or more before the next one
// (txq_frame is seen a cycle late, as if the frame had crossed a cycle later).
reg tx_end_reg = 1'b0;   // the state ends with this choice
reg tx_lt_reg = 1'b1;    // tx_len_reg < 59: a frame ending now needs padding
reg [31:0] tx_crc_reg = 32'hFFFFFFFF, tx_crc_next;
reg [1:0] tx_dibit;                            // the data dibit going out
reg tx_crc_en, tx_fcs_en;
reg [CNT_W-1:0] tx_frames_reg = {CNT_W{1'b0}}, tx_frames_next;
reg [CNT_W-1:0] tx_bytes_reg = {CNT_W{1'b0}}, tx_bytes_next;

wire tx_tick = mode_10m ? tx_div_reg == 4'd9 : 1'b1;
// (10 Mb/s: two cycles before a tick on dibit 0; 100 Mb/s: on dibit 2)
wire tx_dec_next = mode_10m ? tx_div_reg == 4'd7 && tx_di_reg == 2'd0 : tx_di_reg == 2'd2;
assign txq_pop = tx_pop_reg;

// CRC-32 (reflected, poly 0xEDB88320) over one dibit, bit 0 first.
function [31:0] crc_dibit(input [31:0] c, input [1:0] d);
	reg [31:0] r;
	begin
		r = (c >> 1) ^ ((c[0] ^ d[0]) ? 32'hEDB88320 : 32'h0);
		crc_dibit = (r >> 1) ^ ((r[0] ^ d[1]) ? 32'hEDB88320 : 32'h0);
	end
endfunction

// The chooser. Every state ends with the choice at which tx_end_reg is high; tx_cnt_reg counts
// the choices made in the state so far.
always @* begin
	tx_state_next = tx_state_reg;
	tx_nb_next = tx_nb_reg;
	tx_nb_en_next = tx_nb_en_reg;
	tx_nb_crc_next = tx_nb_crc_reg;
	tx_nb_fcs_next = tx_nb_fcs_reg;
	tx_cnt_next = tx_cnt_reg;
	tx_len_next = tx_len_reg;
	tx_frames_next = tx_frames_reg;
	tx_bytes_next = tx_bytes_reg;

	if (tx_dec_reg) begin
		tx_cnt_next = tx_end_reg ? 4'd0 : tx_cnt_reg + 4'd1;
		tx_nb_next = 8'h00;
		tx_nb_en_next = 1'b1;
		tx_nb_crc_next = tx_state_reg == TX_DATA || tx_state_reg == TX_PAD;
		tx_nb_fcs_next = tx_state_reg == TX_FCS;
		case (tx_state_reg)
		TX_IDLE: begin
			// (a frame is buffered)
			tx_nb_next = 8'h55;
			tx_nb_en_next = tx_end_reg;
			if (tx_end_reg)
				tx_state_next = TX_PRE;
		end
		TX_PRE: begin
			// 6 more preamble bytes, then the SFD
			tx_nb_next = tx_end_reg ? 8'hD5 : 8'h55;
			if (tx_end_reg) begin
				tx_len_next = {LEN_W{1'b0}};
				tx_state_next = TX_DATA;
			end
		end
		TX_DATA: begin
			// (popped: tx_pop_reg is high; the frame's last byte ends the state)
			tx_nb_next = txq_data;
			tx_len_next = tx_len_reg + 1'b1;
			if (tx_end_reg)
				tx_state_next = tx_lt_reg ? TX_PAD : TX_FCS;
		end
		TX_PAD: begin
			// zeros up to 60 bytes
			tx_len_next = tx_len_reg + 1'b1;
			if (tx_end_reg)
				tx_state_next = TX_FCS;
		end
		TX_FCS: begin
			// 4 bytes (the shifter takes them from its CRC register)
			if (tx_end_reg) begin
				tx_state_next = TX_IFG;
				tx_frames_next = tx_frames_reg + 1'b1;
				tx_bytes_next = tx_bytes_reg + {{(CNT_W-LEN_W){1'b0}}, tx_len_reg + LEN_FCS};
			end
		end
		TX_IFG: begin
			// 12 idle bytes
			tx_nb_en_next = 1'b0;
			if (tx_end_reg)
				tx_state_next = TX_IDLE;
		end
		default: begin
			tx_nb_en_next = 1'b0;
			tx_state_next = TX_IDLE;
		end
		endcase
	end
end

// The shifter.
always @* begin
	tx_div_next = 4'd0;
	tx_di_next = tx_di_reg;
	tx_sh_next = tx_sh_reg;
	tx_txd_next = tx_txd_reg;
	tx_en_next = tx_en_reg;
	tx_byte_en_next = tx_byte_en_reg;
	tx_byte_crc_next = tx_byte_crc_reg;
	tx_byte_fcs_next = tx_byte_fcs_reg;
	tx_crc_next = tx_crc_reg;
	tx_dibit = tx_sh_reg[1:0];
	tx_crc_en = tx_byte_crc_reg;
	tx_fcs_en = tx_byte_fcs_reg;

	if (mode_10m)
		tx_div_next = tx_div_reg == 4'd9 ? 4'd0 : tx_div_reg + 4'd1;

	if (tx_tick) begin
		tx_di_next = tx_di_reg + 2'd1;
		if (tx_start_reg) begin
			// the chosen byte starts
			tx_dibit = tx_nb_reg[1:0];
			tx_sh_next = tx_nb_reg[7:2];
			tx_en_next = tx_nb_en_reg;
			tx_byte_en_next = tx_nb_en_reg;
			tx_crc_en = tx_nb_crc_reg;
			tx_fcs_en = tx_nb_fcs_reg;
			tx_byte_crc_next = tx_nb_crc_reg;
			tx_byte_fcs_next = tx_nb_fcs_reg;
		end else begin
			tx_en_next = tx_byte_en_reg;
			tx_sh_next = {2'b00, tx_sh_reg[5:2]};
		end
		tx_txd_next = !tx_en_next ? 2'b00 : tx_fcs_en ? ~tx_crc_reg[1:0] : tx_dibit;
		if (tx_crc_en || tx_fcs_en)
			tx_crc_next = crc_dibit(tx_crc_reg, tx_fcs_en ? tx_crc_reg[1:0] : tx_dibit);
		else if (tx_start_reg)
			tx_crc_next = 32'hFFFFFFFF;
	end
end

always @(posedge rmii_clk) begin
	tx_state_reg <= tx_state_next;
	tx_div_reg <= tx_div_next;
	tx_di_reg <= tx_di_next;
	tx_dec_reg <= tx_dec_next;
	// (the state changes only in the cycle after a choice, 4 cycles or more before the next)
	tx_pop_reg <= tx_dec_next && tx_state_reg == TX_DATA;
	tx_start_reg <= tx_dec_reg;
	tx_nb_reg <= tx_nb_next;
	tx_nb_en_reg <= tx_nb_en_next;
	tx_nb_crc_reg <= tx_nb_crc_next;
	tx_nb_fcs_reg <= tx_nb_fcs_next;
	tx_sh_reg <= tx_sh_next;
	tx_txd_reg <= tx_txd_next;
	tx_en_reg <= tx_en_next;
	tx_byte_en_reg <= tx_byte_en_next;
	tx_byte_crc_reg <= tx_byte_crc_next;
	tx_byte_fcs_reg <= tx_byte_fcs_next;
	tx_cnt_reg <= tx_cnt_next;
	tx_len_reg <= tx_len_next;
	case (tx_state_reg)
	TX_IDLE: tx_end_reg <= txq_frame;
	TX_PRE: tx_end_reg <= tx_cnt_reg == 4'd6;
	TX_DATA: tx_end_reg <= txq_last;
	TX_PAD: tx_end_reg <= tx_len_reg == LEN_PAD - 1'b1;
	TX_FCS: tx_end_reg <= tx_cnt_reg == 4'd3;
	default: tx_end_reg <= tx_cnt_reg == 4'd11;
	endcase
	tx_lt_reg <= tx_len_reg < LEN_PAD - 1'b1;
	tx_crc_reg <= tx_crc_next;
	tx_frames_reg <= tx_frames_next;
	tx_bytes_reg <= tx_bytes_next;
	if (rmii_rst) begin
		tx_state_reg <= TX_IDLE;
		tx_div_reg <= 4'd0;
		tx_di_reg <= 2'd0;
		tx_dec_reg <= 1'b0;
		tx_pop_reg <= 1'b0;
		tx_start_reg <= 1'b0;
		tx_nb_en_reg <= 1'b0;
		tx_nb_crc_reg <= 1'b0;
		tx_nb_fcs_reg <= 1'b0;
		tx_txd_reg <= 2'b00;
		tx_en_reg <= 1'b0;
		tx_byte_en_reg <= 1'b0;
		tx_byte_crc_reg <= 1'b0;
		tx_byte_fcs_reg <= 1'b0;
		tx_cnt_reg <= 4'd0;
		tx_len_reg <= {LEN_W{1'b0}};
		tx_end_reg <= 1'b0;
		tx_crc_reg <= 32'hFFFFFFFF;
		tx_frames_reg <= {CNT_W{1'b0}};
		tx_bytes_reg <= {CNT_W{1'b0}};
	end
end

assign rmii_txd = tx_txd_reg;
assign rmii_tx_en = tx_en_reg;
assign tx_frames = tx_frames_reg;
assign tx_bytes = tx_bytes_reg;

endmodule

`resetall
