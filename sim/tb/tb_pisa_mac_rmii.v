// SPDX-License-Identifier: Apache-2.0
// tb_pisa_mac_rmii: self-checking test of pisa_mac_rmii against a behavioural RMII PHY.
// Receive: good frames (64 bytes, the longest, random), bad FCS, runts, giants (good and bad
// FCS), false carrier, CRS_DV toggling at the end, short preamble, dribble dibits, leading 00
// dibits, back-to-back frames at the minimum 12-byte gap, and a burst while the core stalls
// (the RX buffer overflows: whole frames dropped). Every byte out of rx_* is checked, with
// random back-pressure; frames the MAC may drop must be whole and counted in rx_drops.
// Transmit: frames of 1, 59, 60, 61, 64 bytes, the longest, one too long (dropped), random
// ones, one offered very slowly; the pins are checked for preamble, SFD, data, padding, FCS,
// the 12-byte gap (exactly 12 bytes between queued frames) and that no frame starts before
// its last byte was handed over. Line rate (THRU): back-to-back 64-byte frames with the core
// always ready must all come through (the buffer and its clock crossing keep up), and
// back-to-back 60-byte frames from a core that never pauses must leave with exactly 12 bytes of
// gap (line rate on transmit). Counters checked at the end. 100 Mb/s with the default parameters,
// 10 Mb/s with small buffers and a slow core clock, and the boards' settings at their worst
// clock ratios (see the cases at the end).
`default_nettype none

module tb_pisa_mac_rmii_case #(
	parameter MODE_10M = 0,
	parameter MAX_FRAME = 1518,
	parameter RX_DEPTH = 2048,
	parameter TX_DEPTH = 2048,
	parameter SYNC_STAGES = 2,
	parameter CORE_HALF = 8,   // half period of the core clock (rmii_clk: 10)
	parameter N_RANDOM = 30,   // random frames each way
	parameter THRU = 0,        // add the line-rate bursts each way
	parameter SEED = 1
) (
	output reg  done,
	output reg  [31:0] errors
);
localparam D = MODE_10M ? 10 : 1;  // REF_CLK cycles per dibit
localparam MEM = 1 << 16;
localparam NF = 256;
localparam DATA_MAX = MAX_FRAME - 4;

reg clk = 1'b0, rmii_clk = 1'b0;
reg rst = 1'b1, rmii_rst = 1'b1;
always #10 rmii_clk = ~rmii_clk;
initial begin
	#3;
	forever #(CORE_HALF) clk = ~clk;
end

wire [7:0] rx_data;
wire rx_last, rx_valid;
reg rx_ready = 1'b0;
reg [7:0] tx_data = 8'h00;
reg tx_last = 1'b0, tx_valid = 1'b0;
wire tx_ready;
reg [1:0] rxd = 2'b00;
reg crs_dv = 1'b0;
wire [1:0] txd;
wire tx_en;
wire [31:0] c_rx_frames, c_rx_bytes, c_rx_fcs, c_rx_runts, c_rx_giants, c_rx_drops;
wire [31:0] c_tx_frames, c_tx_bytes, c_tx_drops;

pisa_mac_rmii #(.MAX_FRAME(MAX_FRAME), .RX_DEPTH(RX_DEPTH), .TX_DEPTH(TX_DEPTH),
	.SYNC_STAGES(SYNC_STAGES)) dut (
	.clk(clk), .rst(rst),
	.rx_data(rx_data), .rx_last(rx_last), .rx_valid(rx_valid), .rx_ready(rx_ready),
	.tx_data(tx_data), .tx_last(tx_last), .tx_valid(tx_valid), .tx_ready(tx_ready),
	.rmii_clk(rmii_clk), .rmii_rst(rmii_rst), .mode_10m(MODE_10M != 0),
	.rmii_rxd(rxd), .rmii_crs_dv(crs_dv), .rmii_txd(txd), .rmii_tx_en(tx_en),
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
// Variants (rf_var bits): 0 CRS_DV toggles over the last 3 bytes, 1 5-byte preamble,
// 2 leading 00 dibits with CRS_DV, 3 one dribble dibit, 4 random longer gap, 5 false carrier
// (no frame), 6 long idle afterwards (the core drains the RX buffer).
reg [7:0] rf_mem [0:MEM-1];
integer rf_start [0:NF-1];
integer rf_len [0:NF-1];    // bytes after the SFD, FCS included
integer rf_var [0:NF-1];
integer rf_stall [0:NF-1];  // 1: the core stalls while this frame is sent (it may be dropped);
                            // 2: the core is always ready (line rate: it must come through)
integer n_rf = 0, rf_top = 0;
// Frames expected on rx_*, in order: frame number and whether the MAC may drop it.
integer re_id [0:NF-1];
integer re_may [0:NF-1];
integer n_re = 0;
integer exp_fcs = 0, exp_runts = 0, exp_giants = 0;

task add_rx(input integer len, input integer bad, input integer variant, input integer stall);
	integer i;
	reg [31:0] c;
	begin
		rf_start[n_rf] = rf_top;
		rf_len[n_rf] = len;
		rf_var[n_rf] = variant;
		rf_stall[n_rf] = stall;
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
		if ((variant & 32) == 0) begin
			if (len < 64)
				exp_runts = exp_runts + 1;
			else if (len > MAX_FRAME)
				exp_giants = exp_giants + 1;
			else if (bad)
				exp_fcs = exp_fcs + 1;
			else begin
				re_id[n_re] = n_rf;
				re_may[n_re] = stall == 1;
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
	add_rx(0, 0, 32, 0);
	add_rx(65, 0, 1, 0);
	add_rx(70, 0, 2, 0);
	add_rx(71, 0, 4, 0);
	add_rx(72, 0, 8, 0);
	add_rx(73, 0, 15, 0);
	add_rx(74, 1, 9, 0);
	for (k = 0; k < N_RANDOM; k = k + 1) begin
		kind = ($random(seed) & 32'hff) % 10;
		len = 64 + ($random(seed) & 32'hffff) % (MAX_FRAME < 300 ? MAX_FRAME - 63 : 237);
		v = $random(seed) & 31;
		if (kind == 0)
			add_rx(len, 1, v, 0);
		else if (kind == 1)
			add_rx(1 + ($random(seed) & 32'hff) % 63, kind & 1, v, 0);
		else
			add_rx(len, 0, v, 0);
	end
	// Phase 2: the core stalls while frames arrive back to back; then it drains.
	for (k = 0; k < RX_DEPTH / 150 + 4; k = k + 1)
		add_rx(150 + k, 0, 0, 1);
	add_rx(80, 0, 64, 1);
	// Phase T: line rate, the core always ready.
	if (THRU)
		for (k = 0; k < 24; k = k + 1)
			add_rx(64, 0, 0, 2);
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
	add_tx(60, 0);
	if (THRU)
		for (k = 0; k < 16; k = k + 1)
			add_tx(60, 2);

	#400;
	@(posedge rmii_clk) rmii_rst <= 1'b0;
	@(posedge clk) rst <= 1'b0;
end

// ---- the PHY's receive side ----
reg stall = 1'b0, thru = 1'b0;
reg rx_sent_all = 1'b0;

task dibit(input [1:0] d, input dv);
	integer i;
	begin
		for (i = 0; i < D; i = i + 1) begin
			@(posedge rmii_clk);
			rxd <= d;
			crs_dv <= dv;
		end
	end
endtask

task send_rx(input integer f);
	integer i, j, n;
	reg [7:0] b;
	reg dv;
	begin
		if ((rf_var[f] & 32) != 0) begin
			// False carrier: CRS_DV with RXD = 10, then nothing.
			for (i = 0; i < 12; i = i + 1)
				dibit(2'b10, 1'b1);
		end else begin
			if ((rf_var[f] & 4) != 0)
				for (i = 0; i < 3; i = i + 1)
					dibit(2'b00, 1'b1);
			n = (rf_var[f] & 2) != 0 ? 5 : 7;
			for (i = 0; i < 4 * n + 3; i = i + 1)
				dibit(2'b01, 1'b1);
			dibit(2'b11, 1'b1);
			for (i = 0; i < rf_len[f]; i = i + 1) begin
				b = rf_mem[rf_start[f] + i];
				for (j = 0; j < 4; j = j + 1) begin
					dv = 1'b1;
					if ((rf_var[f] & 1) != 0 && i >= rf_len[f] - 3 && j % 2 == 0)
						dv = 1'b0;
					dibit(b[2 * j +: 2], dv);
				end
			end
			if ((rf_var[f] & 8) != 0)
				dibit($random(seed), 1'b1);
		end
		// The inter-frame gap: 12 bytes, sometimes more.
		n = 48;
		if ((rf_var[f] & 16) != 0)
			n = n + ($random(seed) & 63);
		if ((rf_var[f] & 64) != 0)
			n = n + 4 * RX_DEPTH + 2000;
		for (i = 0; i < n; i = i + 1)
			dibit(2'b00, 1'b0);
	end
endtask

integer f, i_w;
initial begin
	wait (!rmii_rst);
	for (i_w = 0; i_w < 50; i_w = i_w + 1)
		@(posedge rmii_clk);
	for (f = 0; f < n_rf; f = f + 1) begin
		stall = rf_stall[f] == 1 && (rf_var[f] & 64) == 0;
		thru = rf_stall[f] == 2;
		send_rx(f);
	end
	stall = 1'b0;
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
		if (c_cycles % 200 == 0)
			p_ready = 10 + ($random(seed) & 32'h7f) % 91;
		if (rx_stalled && (!rx_valid || {rx_last, rx_data} !== rx_held))
			fail("rx_valid/rx_data changed while stalled");
		if (rx_valid && rx_ready) begin
			if (rb_n < 4096)
				rb[rb_n] = rx_data;
			rb_n = rb_n + 1;
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
integer t_dibits = 0, t_cyc = 0, gap = 0, min_gap = 1 << 30;
reg [2:0] t_cur;
reg [7:0] t_sr;
reg t_in = 1'b0, t_seen = 1'b0;
realtime t_rise;
integer tn, tp, ti, tid;
reg [31:0] tc;

task check_tx_frame;
	begin
		t_in = 1'b0;
		t_seen = 1'b1;
		gap = 1;
		tn = t_dibits / 4;
		if (te_next >= n_te) begin
			fail("a frame sent that was not expected");
		end else begin
			tid = te_id[te_next];
			tp = tf_len[tid] < 60 ? 60 : tf_len[tid];
			if (t_dibits % 4 != 0 || tn != 8 + tp + 4) begin
				fail("frame length on the wire wrong");
				$display("%m: frame %0d: %0d dibits, expected %0d", tid, t_dibits,
					4 * (8 + tp + 4));
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

always @(posedge rmii_clk) begin
	if (!rmii_rst && !done) begin
		if (!tx_en && txd !== 2'b00)
			fail("txd not 00 while tx_en is low");
		if (tx_en && !t_in) begin
			t_in = 1'b1;
			t_rise = $realtime;
			t_dibits = 0;
			t_cyc = 0;
			if (t_seen && gap < 48 * D)
				fail("inter-frame gap below 12 bytes");
			if (t_seen && gap < min_gap)
				min_gap = gap;
			// line rate: a burst frame follows the one before it after exactly 12 bytes
			if (t_seen && te_next > 0 && te_next < n_te && tf_slow[te_id[te_next]] == 2 &&
					tf_slow[te_id[te_next - 1]] == 2 && gap != 48 * D) begin
				fail("line-rate burst: gap not exactly 12 bytes");
				$display("%m: frame %0d: gap %0d cycles", te_id[te_next], gap);
			end
		end
		if (t_in) begin
			if (t_cyc % D == 0) begin
				t_cur = {tx_en, txd};
				if (tx_en) begin
					t_sr = {txd, t_sr[7:2]};
					if (t_dibits % 4 == 3 && t_dibits / 4 < 4096)
						tb_bytes[t_dibits / 4] = t_sr;
					t_dibits = t_dibits + 1;
				end else begin
					check_tx_frame;
				end
			end else if ({tx_en, txd} !== t_cur) begin
				fail("txd/tx_en changed within a dibit");
			end
			t_cyc = t_cyc + 1;
		end else begin
			gap = gap + 1;
		end
	end
end

// ---- end: everything out, counters ----
integer r_cycles = 0;
always @(posedge rmii_clk) begin
	if (!rmii_rst && !done) begin
		r_cycles = r_cycles + 1;
		if (rx_sent_all && te_next == n_te && (re_next == n_re || r_cycles > 4000000)) begin
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
			if (min_gap != 48 * D)
				fail("queued frames not sent with exactly 12 bytes of gap");
			if (errors != 0 || $test$plusargs("verbose"))
				$display("%m: rx %0d/%0d frames (%0d skipped), counters frames %0d bytes %0d fcs %0d runts %0d giants %0d drops %0d; tx %0d/%0d frames, counters %0d %0d drops %0d, min gap %0d",
					got_frames, n_re, skipped, c_rx_frames, c_rx_bytes, c_rx_fcs,
					c_rx_runts, c_rx_giants, c_rx_drops, te_next, n_te, c_tx_frames,
					c_tx_bytes, c_tx_drops, min_gap);
			done = 1'b1;
		end else if (r_cycles > 4000000) begin
			fail("timeout");
			$display("%m: rx %0d/%0d frames, tx %0d/%0d frames", re_next, n_re, te_next, n_te);
			done = 1'b1;
		end
	end
end
endmodule

module tb_pisa_mac_rmii;
wire [3:0] done;
wire [31:0] e0, e1, e2, e3;
tb_pisa_mac_rmii_case #(.MODE_10M(0), .CORE_HALF(8), .N_RANDOM(40), .SEED(61)) c0 (
	.done(done[0]), .errors(e0));
tb_pisa_mac_rmii_case #(.MODE_10M(1), .MAX_FRAME(300), .RX_DEPTH(512), .TX_DEPTH(512),
	.SYNC_STAGES(3), .CORE_HALF(23), .N_RANDOM(12), .SEED(62)) c1 (
	.done(done[1]), .errors(e1));
// The iCEBreaker's setting (1 KiB buffers, MAX_FRAME 1022) with a core clock at 23.8 MHz, below
// the slowest board core clock (half period 21 against REF_CLK's 10): line rate both ways.
tb_pisa_mac_rmii_case #(.MODE_10M(0), .MAX_FRAME(1022), .RX_DEPTH(1024), .TX_DEPTH(1024),
	.CORE_HALF(21), .N_RANDOM(8), .THRU(1), .SEED(63)) c2 (.done(done[2]), .errors(e2));
// The HX8K board's setting (512-byte buffers, MAX_FRAME 510), the core clock as fast as REF_CLK
// but unrelated in phase: line rate both ways.
tb_pisa_mac_rmii_case #(.MODE_10M(0), .MAX_FRAME(510), .RX_DEPTH(512), .TX_DEPTH(512),
	.CORE_HALF(10), .N_RANDOM(8), .THRU(1), .SEED(64)) c3 (.done(done[3]), .errors(e3));

initial begin
	wait (&done);
	if (e0 + e1 + e2 + e3 == 0)
		$display("PASSED tb_pisa_mac_rmii");
	else
		$display("FAILED tb_pisa_mac_rmii: %0d errors (see messages above)", e0 + e1 + e2 + e3);
	$finish;
end
endmodule

`resetall
