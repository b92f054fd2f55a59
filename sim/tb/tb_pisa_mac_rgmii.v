// SPDX-License-Identifier: Apache-2.0
// tb_pisa_mac_rgmii: self-checking test of pisa_mac_rgmii (FAMILY "sim") against a behavioural
// RGMII PHY. The PHY drives one byte per 125 MHz RXC cycle as DDR nibbles (low nibble and RX_DV
// for the rising edge, high nibble and RX_DV xor RX_ER for the falling edge), each nibble set a
// quarter period before its edge (a PHY with RGMII-ID delays); its receiver samples TXD/TX_CTL a
// quarter period after each edge of the forwarded TXC.
// Receive: good frames (64 bytes, the longest, random), bad FCS, runts (63, 10, 0 bytes), giants
// (good and bad FCS), RX_ER inside a frame and inside its preamble, short and missing preambles,
// carrier events without an SFD, false-carrier/carrier-extension codes and in-band status
// between frames, back-to-back frames at the minimum 12-byte gap and at a shrunk 5-byte gap, a
// burst of the longest frames and one of 64-byte frames back to back with the core always ready
// (the buffer and its clock crossing must keep up: line rate), and a burst while the core stalls (the RX buffer overflows: whole frames dropped).
// Every byte out of rx_* is checked, with random back-pressure; before each frame that must
// come through, the PHY waits until the RX buffer surely has room for it, so only the frames
// of the stall burst may be dropped, and those must be whole and counted in rx_drops.
// Transmit: frames of 1, 59, 60, 61, 64 bytes, the longest, one too long (dropped), random
// ones, one offered very slowly, and (THRU) a burst of 60-byte frames from a core that never
// pauses, which must leave with exactly 12 bytes of gap (line rate); the pins are checked for preamble, SFD, data, padding, FCS,
// TX_ER never set, TXD zero between frames, the 12-byte gap (exactly 12 bytes between queued
// frames), TXC running at gtx_clk, and that no frame starts before its last byte was handed
// over. Counters checked at the end.
// Time unit: 1 = 1 ps (no `timescale: the RTL has none); RXC period 8000.
`default_nettype none

module tb_pisa_mac_rgmii_case #(
	parameter MAX_FRAME = 1518,
	parameter RX_DEPTH = 2048,
	parameter TX_DEPTH = 2048,
	parameter SYNC_STAGES = 2,
	parameter CORE_HALF = 4003,  // half period of the core clock
	parameter GTX_HALF = 4001,   // half period of gtx_clk; 0: gtx_clk is the PHY's RXC
	parameter THRU = 1,          // send the back-to-back burst of longest frames
	parameter N_RANDOM = 30,     // random frames each way
	parameter SEED = 1
) (
	output reg  done,
	output reg  [31:0] errors
);
localparam RXH = 4000;  // RXC half period
localparam TXH = GTX_HALF != 0 ? GTX_HALF : RXH;
localparam MEM = 1 << 17;
localparam NF = 512;
localparam DATA_MAX = MAX_FRAME - 4;

reg clk = 1'b0, rx_clk = 1'b0, gtx_osc = 1'b0;
reg rst = 1'b1, rx_rst = 1'b1, gtx_rst = 1'b1;
always #(RXH) rx_clk = ~rx_clk;
initial begin
	#1234;
	forever #(TXH) gtx_osc = ~gtx_osc;
end
wire gtx_clk = GTX_HALF != 0 ? gtx_osc : rx_clk;
initial begin
	#777;
	forever #(CORE_HALF) clk = ~clk;
end

wire [7:0] rx_data;
wire rx_last, rx_valid;
reg rx_ready = 1'b0;
reg [7:0] tx_data = 8'h00;
reg tx_last = 1'b0, tx_valid = 1'b0;
wire tx_ready;
reg [3:0] rxd = 4'h0;
reg rx_ctl = 1'b0;
wire tx_clk_pin;
wire [3:0] txd;
wire tx_ctl;
wire [31:0] c_rx_frames, c_rx_bytes, c_rx_fcs, c_rx_runts, c_rx_giants, c_rx_drops;
wire [31:0] c_tx_frames, c_tx_bytes, c_tx_drops;

pisa_mac_rgmii #(.FAMILY("sim"), .MAX_FRAME(MAX_FRAME), .RX_DEPTH(RX_DEPTH),
	.TX_DEPTH(TX_DEPTH), .SYNC_STAGES(SYNC_STAGES)) dut (
	.clk(clk), .rst(rst),
	.rx_data(rx_data), .rx_last(rx_last), .rx_valid(rx_valid), .rx_ready(rx_ready),
	.tx_data(tx_data), .tx_last(tx_last), .tx_valid(tx_valid), .tx_ready(tx_ready),
	.rgmii_rx_clk(rx_clk), .rgmii_rx_rst(rx_rst), .rgmii_rxd(rxd), .rgmii_rx_ctl(rx_ctl),
	.gtx_clk(gtx_clk), .gtx_rst(gtx_rst),
	.rgmii_tx_clk(tx_clk_pin), .rgmii_txd(txd), .rgmii_tx_ctl(tx_ctl),
	.rx_frames(c_rx_frames), .rx_bytes(c_rx_bytes), .rx_fcs_errors(c_rx_fcs),
	.rx_runts(c_rx_runts), .rx_giants(c_rx_giants), .rx_drops(c_rx_drops),
	.tx_frames(c_tx_frames), .tx_bytes(c_tx_bytes), .tx_drops(c_tx_drops)
);

integer seed = SEED;

task fail(input [8 * 80 - 1:0] what);
	begin
		errors = errors + 1;
		if (errors < 12)
			$display("%m: %0s", what);
	end
endtask

// Reference CRC-32 (reflected, poly 0xEDB88320), one byte at a time.
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

// ---- receive frames: what the PHY sends ----
// Variants (rf_var bits): 1 preamble of one 0x55, 2 no preamble (SFD only), 4 RX_ER on a data
// byte, 8 RX_ER on the first preamble byte, 16 random longer gap, 32 false-carrier and
// carrier-extension codes in the gap, 64 gap shrunk to 5 bytes, 128 a carrier event without
// an SFD (no frame, nothing counted).
// Modes (rf_mode): 0 must come through (the PHY waits for room), 1 the core stalls and the frame
// may be dropped, 2 must come through, sent back to back (the core is always ready).
reg [7:0] rf_mem [0:MEM-1];
integer rf_start [0:NF-1];
integer rf_len [0:NF-1];    // bytes after the SFD, FCS included
integer rf_var [0:NF-1];
integer rf_mode [0:NF-1];
integer rf_good [0:NF-1];   // expected on rx_*
integer n_rf = 0, rf_top = 0;
// Frames expected on rx_*, in order: frame number and whether the MAC may drop it.
integer re_id [0:NF-1];
integer re_may [0:NF-1];
integer n_re = 0;
integer exp_fcs = 0, exp_runts = 0, exp_giants = 0;

task add_rx(input integer len, input integer bad, input integer variant, input integer mode);
	integer i;
	reg [31:0] c;
	begin
		rf_start[n_rf] = rf_top;
		rf_len[n_rf] = len;
		rf_var[n_rf] = variant;
		rf_mode[n_rf] = mode;
		rf_good[n_rf] = 0;
		c = 32'hFFFFFFFF;
		for (i = 0; i < len - 4; i = i + 1) begin
			if (i == 0)
				rf_mem[rf_top + i] = n_rf[15:8];
			else if (i == 1)
				rf_mem[rf_top + i] = n_rf[7:0];
			else
				rf_mem[rf_top + i] = $random(seed);
			c = crc_byte(c, rf_mem[rf_top + i]);
		end
		c = ~c;
		for (i = 0; i < 4 && len - 4 + i >= 0; i = i + 1)
			rf_mem[rf_top + len - 4 + i] = c[8 * i +: 8];
		if (bad && len > 0) begin
			i = ($random(seed) & 32'h7fff) % len;
			rf_mem[rf_top + i] = rf_mem[rf_top + i] ^ (8'h01 << ($random(seed) & 7));
			// Make sure it is bad: recompute and, if a flip cancelled out, flip the FCS.
			c = 32'hFFFFFFFF;
			for (i = 0; i < len; i = i + 1)
				c = crc_byte(c, rf_mem[rf_top + i]);
			if (~c == 32'h2144DF1C)
				rf_mem[rf_top + len - 1] = rf_mem[rf_top + len - 1] ^ 8'h80;
		end
		if ((variant & 128) == 0) begin
			if (len < 64)
				exp_runts = exp_runts + 1;
			else if (len > MAX_FRAME)
				exp_giants = exp_giants + 1;
			else if (bad || (variant & 12) != 0)
				exp_fcs = exp_fcs + 1;
			else begin
				rf_good[n_rf] = 1;
				re_id[n_re] = n_rf;
				re_may[n_re] = mode == 1;
				n_re = n_re + 1;
			end
		end
		rf_top = rf_top + len;
		n_rf = n_rf + 1;
	end
endtask

// ---- transmit frames: what the core sends ----
reg [8:0] tw_mem [0:MEM-1];   // {last, data} words in order
integer tw_frame [0:MEM-1];   // the frame each word belongs to
integer n_tw = 0;
integer tf_start [0:NF-1];
integer tf_len [0:NF-1];
integer tf_slow [0:NF-1];    // 1 offered very slowly, 2 line-rate burst (never paused)
integer tf_before [0:NF-1];   // frames expected on the pins before this one
integer n_tf = 0;
integer te_id [0:NF-1];       // frames expected on the pins
integer n_te = 0, te_next = 0;
integer exp_tx_bytes = 0, exp_tx_drops = 0;
realtime tf_t_last [0:NF-1];

task add_tx(input integer len, input integer slow);
	integer i;
	begin
		tf_start[n_tf] = n_tw;
		tf_len[n_tf] = len;
		tf_slow[n_tf] = slow;
		tf_before[n_tf] = n_te;
		tf_t_last[n_tf] = 0;
		for (i = 0; i < len; i = i + 1) begin
			tw_mem[n_tw] = {i == len - 1, 8'h00};
			tw_mem[n_tw][7:0] = $random(seed);
			tw_frame[n_tw] = n_tf;
			n_tw = n_tw + 1;
		end
		if (len > DATA_MAX) begin
			exp_tx_drops = exp_tx_drops + 1;
		end else begin
			te_id[n_te] = n_tf;
			n_te = n_te + 1;
			exp_tx_bytes = exp_tx_bytes + (len < 60 ? 60 : len) + 4;
		end
		n_tf = n_tf + 1;
	end
endtask

integer k, len, kind, v;
initial begin
	done = 1'b0;
	errors = 0;
	// Receive, phase 1: corner cases, the core randomly ready.
	add_rx(64, 0, 0, 0);
	add_rx(MAX_FRAME, 0, 0, 0);
	add_rx(MAX_FRAME + 1, 0, 0, 0);
	add_rx(MAX_FRAME + 20, 1, 0, 0);
	add_rx(63, 0, 0, 0);
	add_rx(10, 0, 0, 0);
	add_rx(0, 0, 0, 0);
	add_rx(100, 1, 0, 0);
	add_rx(64, 1, 0, 0);
	add_rx(80, 0, 4, 0);
	add_rx(81, 0, 8, 0);
	add_rx(30, 0, 4, 0);
	add_rx(MAX_FRAME + 3, 0, 4, 0);
	add_rx(20, 0, 128, 0);
	add_rx(65, 0, 1, 0);
	add_rx(66, 0, 2, 0);
	add_rx(67, 0, 32, 0);
	add_rx(68, 0, 64, 0);
	add_rx(69, 0, 64 + 2, 0);
	add_rx(70, 0, 16 + 32, 0);
	add_rx(71, 0, 0, 0);
	add_rx(72, 1, 64, 0);
	add_rx(73, 0, 0, 0);
	for (k = 0; k < N_RANDOM; k = k + 1) begin
		kind = ($random(seed) & 32'hff) % 12;
		len = 64 + ($random(seed) & 32'hffff) % (MAX_FRAME < 300 ? MAX_FRAME - 63 : 237);
		v = $random(seed) & (1 | 2 | 16 | 32 | 64);
		case (kind)
		0: add_rx(len, 1, v, 0);
		1: add_rx(1 + ($random(seed) & 32'hff) % 63, 0, v, 0);
		2: add_rx(len, 0, v | 4, 0);
		3: add_rx(len, 0, (v & ~2) | 8, 0);
		4: add_rx(len, 0, v | 128, 0);
		default: add_rx(len, 0, v, 0);
		endcase
	end
	// Phase T: the longest frames back to back, the core always ready.
	if (THRU) begin
		for (k = 0; k < 12; k = k + 1)
			add_rx(MAX_FRAME, 0, 0, 2);
		for (k = 0; k < 24; k = k + 1)
			add_rx(64, 0, 0, 2);
	end
	// Phase 2: the core stalls while frames arrive back to back; then it drains.
	for (k = 0; k < RX_DEPTH / 150 + 4; k = k + 1)
		add_rx(150 + k, 0, 0, 1);
	// Phase 3: back to normal.
	for (k = 0; k < 6; k = k + 1)
		add_rx(64 + k * 17, 0, 0, 0);

	// Transmit.
	add_tx(1, 0);
	add_tx(59, 0);
	add_tx(60, 0);
	add_tx(61, 0);
	add_tx(64, 0);
	add_tx(DATA_MAX, 0);
	add_tx(DATA_MAX + 1, 0);
	add_tx(2, 0);
	add_tx(100, 1);
	add_tx(3, 0);
	for (k = 0; k < N_RANDOM; k = k + 1)
		add_tx(1 + ($random(seed) & 32'hffff) % 200, 0);
	add_tx(DATA_MAX + 50, 0);
	add_tx(DATA_MAX, 0);
	for (k = 0; k < 4; k = k + 1)
		add_tx(1 + k, 0);
	add_tx(60, 0);
	if (THRU)
		for (k = 0; k < 16; k = k + 1)
			add_tx(60, 2);

	#100000;
	@(posedge rx_clk) rx_rst <= 1'b0;
	@(posedge gtx_clk) gtx_rst <= 1'b0;
	@(posedge clk) rst <= 1'b0;
end

// ---- the PHY's receive side ----
reg stall = 1'b0, thru = 1'b0;
reg rx_sent_all = 1'b0;
// Buffer words: a frame takes its length (FCS included) plus a 2-word header in the RX buffer
// until the core has taken its last byte (the MAC then skips the FCS).
integer sent_bytes = 0;       // words of must-come-through frames handed to the MAC
integer got_all = 0;          // words the core freed (bytes taken, 6 more with each last)
integer quiet = 0;            // core cycles since rx_valid was last high

// One byte time: the low nibble and RX_DV a quarter period before the rising edge, the high
// nibble and RX_DV ^ RX_ER a quarter period before the falling edge.
task rx_byte(input [7:0] b, input dv, input er);
	begin
		@(negedge rx_clk);
		#(RXH / 2);
		rxd = b[3:0];
		rx_ctl = dv;
		@(posedge rx_clk);
		#(RXH / 2);
		rxd = b[7:4];
		rx_ctl = dv ^ er;
	end
endtask

// Between frames: in-band status on RXD (RX_DV and RX_ER low), ignored by the MAC.
task rx_idle;
	begin
		rx_byte(8'h0D ^ ($random(seed) & 8'h30), 1'b0, 1'b0);
	end
endtask

task send_rx(input integer f);
	integer i, n, e;
	begin
		if ((rf_var[f] & 128) != 0) begin
			// A carrier event that never reaches an SFD.
			for (i = 0; i < 4; i = i + 1)
				rx_byte(8'h55, 1'b1, 1'b0);
			for (i = 0; i < rf_len[f]; i = i + 1)
				rx_byte($random(seed) | 8'h01, 1'b1, 1'b0);
		end else begin
			n = (rf_var[f] & 2) != 0 ? 0 : (rf_var[f] & 1) != 0 ? 1 : 7;
			for (i = 0; i < n; i = i + 1)
				rx_byte(8'h55, 1'b1, i == 0 && (rf_var[f] & 8) != 0);
			rx_byte(8'hD5, 1'b1, 1'b0);
			e = (rf_var[f] & 4) != 0 ? ($random(seed) & 32'hffff) % rf_len[f] : -1;
			for (i = 0; i < rf_len[f]; i = i + 1)
				rx_byte(rf_mem[rf_start[f] + i], 1'b1, i == e);
			if (rf_good[f] && rf_mode[f] != 1)
				sent_bytes = sent_bytes + rf_len[f] + 2;
		end
		// The inter-frame gap: 12 bytes, sometimes more or shrunk.
		n = (rf_var[f] & 64) != 0 ? 5 : 12;
		if ((rf_var[f] & 16) != 0)
			n = n + ($random(seed) & 63);
		for (i = 0; i < n; i = i + 1) begin
			if ((rf_var[f] & 32) != 0 && i >= 2 && i < 4)
				rx_byte(i == 2 ? 8'h0E : 8'h0F, 1'b0, 1'b1);
			else
				rx_idle;
		end
	end
endtask

integer f, i_w;
initial begin
	wait (!rx_rst && !rst);
	for (i_w = 0; i_w < 50; i_w = i_w + 1)
		rx_idle;
	for (f = 0; f < n_rf; f = f + 1) begin
		if (rf_mode[f] == 0 && rf_good[f]) begin
			// Wait until the frame surely fits: what was sent and not yet taken, plus it.
			while (sent_bytes - got_all + rf_len[f] + 2 > RX_DEPTH)
				rx_idle;
		end
		if (rf_mode[f] == 2 && !thru) begin
			// The burst starts with the buffer empty.
			while (sent_bytes != got_all)
				rx_idle;
			thru = 1'b1;
		end
		if (rf_mode[f] != 2)
			thru = 1'b0;
		if (rf_mode[f] == 1)
			stall = 1'b1;
		send_rx(f);
		if (stall && (f + 1 == n_rf || rf_mode[f + 1] != 1)) begin
			// End of the stall burst: let the core drain the buffer, then start counting
			// again from empty.
			stall = 1'b0;
			quiet = 0;
			while (quiet < 2000)
				rx_idle;
			sent_bytes = got_all;
		end
	end
	thru = 1'b0;
	rx_sent_all = 1'b1;
end

// ---- the core's receive side: random back-pressure, every byte checked ----
reg [7:0] rb [0:4095];
integer rb_n = 0, re_next = 0, got_frames = 0, skipped = 0, got_bytes = 0;
integer p_ready = 60, c_cycles = 0;
reg rx_stalled = 1'b0;
reg [8:0] rx_held;
integer id, m;
reg ok;

always @(posedge clk) begin
	if (!rst && !done) begin
		c_cycles = c_cycles + 1;
		quiet = rx_valid ? 0 : quiet + 1;
		if (c_cycles % 200 == 0)
			p_ready = 10 + ($random(seed) & 32'h7f) % 91;
		if (rx_stalled && (!rx_valid || {rx_last, rx_data} !== rx_held))
			fail("rx_valid/rx_data changed while stalled");
		if (rx_valid && rx_ready) begin
			if (rb_n < 4096)
				rb[rb_n] = rx_data;
			rb_n = rb_n + 1;
			got_all = got_all + (rx_last ? 7 : 1);
			if (rx_last) begin
				id = rb_n >= 2 ? {rb[0], rb[1]} : -1;
				// Frames before it that may be dropped were dropped.
				while (re_next < n_re && re_id[re_next] != id && re_may[re_next]) begin
					skipped = skipped + 1;
					re_next = re_next + 1;
				end
				if (re_next >= n_re || re_id[re_next] != id) begin
					fail("a frame out of order, unexpected or half-formed");
					$display("%m: got id %0d, %0d bytes; expected id %0d", id, rb_n,
						re_next < n_re ? re_id[re_next] : -1);
				end else begin
					ok = rb_n == rf_len[id] - 4;
					for (m = 0; ok && m < rb_n; m = m + 1)
						ok = rb[m] === rf_mem[rf_start[id] + m];
					if (!ok) begin
						fail("frame bytes differ");
						$display("%m: frame %0d: %0d bytes, expected %0d", id, rb_n,
							rf_len[id] - 4);
					end
					got_frames = got_frames + 1;
					got_bytes = got_bytes + rf_len[id];
					re_next = re_next + 1;
				end
				rb_n = 0;
			end
		end
		rx_stalled = rx_valid && !rx_ready;
		rx_held = {rx_last, rx_data};
		rx_ready <= !stall && (thru || ($random(seed) & 32'h7f) % 100 < p_ready);
	end
end

// ---- the core's transmit side: a randomly idle source ----
integer tw_sent = 0, p_valid = 70;
always @(posedge clk) begin
	if (!rst && !done) begin
		if (c_cycles % 250 == 0)
			p_valid = 20 + ($random(seed) & 32'h7f) % 81;
		if (tx_valid && tx_ready) begin
			if (tw_mem[tw_sent][8])
				tf_t_last[tw_frame[tw_sent]] = $realtime;
			tw_sent = tw_sent + 1;
		end
		// A slow frame starts only once the line is idle, so that sending early would underrun.
		if (!tx_valid || tx_ready) begin
			if (tw_sent < n_tw && !(tf_slow[tw_frame[tw_sent]] == 1 &&
					te_next < tf_before[tw_frame[tw_sent]]) &&
					($random(seed) & 32'h7f) % 100 <
					(tf_slow[tw_frame[tw_sent]] == 1 ? 3 :
					 tf_slow[tw_frame[tw_sent]] == 2 ? 100 : p_valid)) begin
				tx_valid <= 1'b1;
				{tx_last, tx_data} <= tw_mem[tw_sent];
			end else begin
				tx_valid <= 1'b0;
				{tx_last, tx_data} <= 9'bx;
			end
		end
	end
end

// ---- the PHY's transmit side: what the MAC puts on the pins ----
reg [7:0] tb_bytes [0:4095];
integer t_n = 0, gap = 0, min_gap = 1 << 30;
reg t_in = 1'b0, t_seen = 1'b0;
realtime t_rise, t_clk_last;
integer tn, tp, ti, tid;
reg [31:0] tc;

task check_tx_frame;
	begin
		t_in = 1'b0;
		t_seen = 1'b1;
		gap = 0;
		tn = t_n;
		if (te_next >= n_te) begin
			fail("a frame sent that was not expected");
		end else begin
			tid = te_id[te_next];
			tp = tf_len[tid] < 60 ? 60 : tf_len[tid];
			if (tn != 8 + tp + 4) begin
				fail("frame length on the wire wrong");
				$display("%m: frame %0d: %0d bytes, expected %0d", tid, tn, 8 + tp + 4);
			end else begin
				for (ti = 0; ti < 7; ti = ti + 1)
					if (tb_bytes[ti] !== 8'h55)
						fail("preamble wrong");
				if (tb_bytes[7] !== 8'hD5)
					fail("SFD wrong");
				tc = 32'hFFFFFFFF;
				for (ti = 0; ti < tp; ti = ti + 1) begin
					if (ti < tf_len[tid]) begin
						if (tb_bytes[8 + ti] !== tw_mem[tf_start[tid] + ti][7:0])
							fail("data byte wrong");
					end else if (tb_bytes[8 + ti] !== 8'h00) begin
						fail("pad byte not zero");
					end
					tc = crc_byte(tc, tb_bytes[8 + ti]);
				end
				tc = ~tc;
				if ({tb_bytes[8 + tp + 3], tb_bytes[8 + tp + 2], tb_bytes[8 + tp + 1],
						tb_bytes[8 + tp]} !== tc)
					fail("FCS wrong");
				if (tf_t_last[tid] == 0 || t_rise < tf_t_last[tid])
					fail("frame started before its last byte was handed over");
			end
			te_next = te_next + 1;
		end
	end
endtask

// TXC must be gtx_clk: a full period between rising edges.
always @(posedge tx_clk_pin) begin
	if (!gtx_rst && !done && t_clk_last != 0 && $realtime - t_clk_last != 2 * TXH)
		fail("TXC period is not gtx_clk's");
	t_clk_last = $realtime;
end

reg [3:0] t_lo;
reg t_ctl_r;
reg [7:0] t_b;
always begin
	@(posedge tx_clk_pin);
	#(TXH / 2);
	t_lo = txd;
	t_ctl_r = tx_ctl;
	@(negedge tx_clk_pin);
	#(TXH / 2);
	t_b = {txd, t_lo};
	if (!gtx_rst && !done) begin
		if (tx_ctl !== t_ctl_r)
			fail("TX_CTL differs between the edges (TX_ER or a glitch)");
		if (!t_ctl_r && t_b !== 8'h00)
			fail("TXD not zero between frames");
		if (t_ctl_r) begin
			if (!t_in) begin
				t_in = 1'b1;
				t_rise = $realtime;
				t_n = 0;
				if (t_seen && gap < 12)
					fail("inter-frame gap below 12 bytes");
				if (t_seen && gap < min_gap)
					min_gap = gap;
				// line rate: a burst frame follows the one before it after exactly 12 bytes
				if (t_seen && te_next > 0 && te_next < n_te &&
						tf_slow[te_id[te_next]] == 2 &&
						tf_slow[te_id[te_next - 1]] == 2 && gap != 12) begin
					fail("line-rate burst: gap not exactly 12 bytes");
					$display("%m: frame %0d: gap %0d bytes", te_id[te_next], gap);
				end
			end
			if (t_n < 4096)
				tb_bytes[t_n] = t_b;
			t_n = t_n + 1;
		end else begin
			if (t_in)
				check_tx_frame;
			gap = gap + 1;
		end
	end
end

// ---- end: everything out, counters ----
integer r_cycles = 0;
always @(posedge rx_clk) begin
	if (!rx_rst && !done) begin
		r_cycles = r_cycles + 1;
		if (rx_sent_all && te_next == n_te && (re_next == n_re || r_cycles > 400000)) begin
			if (re_next != n_re)
				fail("not every expected frame came out of rx_*");
			while (re_next < n_re && re_may[re_next]) begin
				skipped = skipped + 1;
				re_next = re_next + 1;
			end
			if (c_rx_frames != got_frames || c_rx_bytes != got_bytes)
				fail("rx_frames/rx_bytes wrong");
			if (c_rx_fcs != exp_fcs)
				fail("rx_fcs_errors wrong");
			if (c_rx_runts != exp_runts)
				fail("rx_runts wrong");
			if (c_rx_giants != exp_giants)
				fail("rx_giants wrong");
			if (c_rx_drops != skipped || skipped == 0)
				fail("rx_drops wrong, or no overflow happened");
			if (c_tx_frames != n_te || c_tx_bytes != exp_tx_bytes)
				fail("tx_frames/tx_bytes wrong");
			if (c_tx_drops != exp_tx_drops)
				fail("tx_drops wrong");
			if (min_gap != 12)
				fail("queued frames not sent with exactly 12 bytes of gap");
			if (errors != 0 || $test$plusargs("verbose"))
				$display("%m: rx %0d/%0d frames (%0d skipped), counters frames %0d bytes %0d fcs %0d/%0d runts %0d/%0d giants %0d/%0d drops %0d; tx %0d/%0d frames, counters %0d %0d/%0d drops %0d/%0d, min gap %0d, %0d RXC cycles",
					got_frames, n_re, skipped, c_rx_frames, c_rx_bytes, c_rx_fcs, exp_fcs,
					c_rx_runts, exp_runts, c_rx_giants, exp_giants, c_rx_drops, te_next,
					n_te, c_tx_frames, c_tx_bytes, exp_tx_bytes, c_tx_drops, exp_tx_drops,
					min_gap, r_cycles);
			done = 1'b1;
		end else if (r_cycles > 400000) begin
			fail("timeout");
			$display("%m: rx %0d/%0d frames, tx %0d/%0d frames", re_next, n_re, te_next, n_te);
			done = 1'b1;
		end
	end
end
endmodule

module tb_pisa_mac_rgmii;
wire [2:0] done;
wire [31:0] e0, e1, e2;
// The Colorlight setting: default buffers, a core clock a little below the line's 125 MHz, a
// local 125 MHz TX clock 250 ppm off the PHY's.
tb_pisa_mac_rgmii_case #(.CORE_HALF(4003), .GTX_HALF(4001), .THRU(1), .N_RANDOM(40),
	.SEED(71)) c0 (.done(done[0]), .errors(e0));
// Small buffers and crossings, 3 synchronizer stages, a slow core (55 MHz): the PHY waits for
// room, TX frames wait in the buffer.
tb_pisa_mac_rgmii_case #(.MAX_FRAME(300), .RX_DEPTH(512), .TX_DEPTH(512), 
	.SYNC_STAGES(3), .CORE_HALF(9001), .GTX_HALF(3999), .THRU(0), .N_RANDOM(16),
	.SEED(72)) c1 (.done(done[1]), .errors(e1));
// TX clocked by the PHY's RXC, a faster core (150 MHz), crossings of 8.
tb_pisa_mac_rgmii_case #(.CORE_HALF(3333), .GTX_HALF(0), .THRU(1),
	.N_RANDOM(20), .SEED(73)) c2 (.done(done[2]), .errors(e2));

initial begin
	wait (&done);
	if (e0 + e1 + e2 == 0)
		$display("PASSED tb_pisa_mac_rgmii");
	else
		$display("FAILED tb_pisa_mac_rgmii: %0d errors (see messages above)", e0 + e1 + e2);
	$finish;
end
endmodule

`resetall
