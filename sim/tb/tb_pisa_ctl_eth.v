// SPDX-License-Identifier: Apache-2.0
// tb_pisa_ctl_eth: self-checking test of pisa_ctl_eth with the whole control link behind it
// (pisa_ctl_link, PHY "byte"), as a board's management port has them. The host side sends
// Ethernet frames: management frames (to the board's MAC and to broadcast, short ones that
// the MAC padded with zeros), data frames for the switch (other EtherType, other destination)
// in between; the switch side sends its own frames on the port meanwhile. Checked:
//  - data frames reach m_rx_* unchanged and in order; the switch's frames leave unchanged;
//  - management frames carry HELLO, WRITE (a REGISTER op), a repeated WRITE, READ, a frame with
//    a bad CRC, a WRITE of one wide ROW op (258 bytes of payload: its len's low byte is below 4,
//    the management frame's length field must still be taken whole): the link issues exactly one
//    register write, one read and one row write, and every reply leaves
//    as an Ethernet frame to the host's address (learned from the first management frame), from
//    the board's MAC, EtherType 0x88B5, holding one protocol frame with a good CRC and the
//    expected type, seq and status;
//  - the counters of management frames in and out.
// Runs with everything always ready, then with random idle time and stalls on every stream.
`default_nettype none

module tb_pisa_ctl_eth_case #(
	parameter SEED = 1,
	parameter P_VALID = 100,
	parameter P_READY = 100
) (
	input  wire clk,
	output reg  done,
	output reg  [31:0] errors
);
localparam [47:0] BOARD_MAC = 48'h02_50_49_53_41_01, HOST = 48'h02_00_00_00_00_aa;
localparam [15:0] ET = 16'h88B5;

reg rst = 1'b1;
integer seed = SEED;

// ---- DUT: pisa_ctl_eth + pisa_ctl_link ----
reg [7:0] rx_data;
reg rx_last, rx_valid = 1'b0;
wire rx_ready;
wire [7:0] sw_rx_data, c_in_data, c_out_data, tx_data;
wire sw_rx_last, sw_rx_valid, c_in_valid, c_in_ready, c_out_last, c_out_valid, c_out_ready;
wire tx_last, tx_valid;
reg sw_rx_ready = 1'b0, tx_ready = 1'b0;
reg [7:0] stx_data;
reg stx_last, stx_valid = 1'b0;
wire stx_ready;
wire [15:0] cnt_rx, cnt_tx;

pisa_ctl_eth #(.MAC(BOARD_MAC)) dut (
	.clk(clk), .rst(rst),
	.s_rx_data(rx_data), .s_rx_last(rx_last), .s_rx_valid(rx_valid), .s_rx_ready(rx_ready),
	.m_rx_data(sw_rx_data), .m_rx_last(sw_rx_last), .m_rx_valid(sw_rx_valid),
	.m_rx_ready(sw_rx_ready),
	.m_ctl_data(c_in_data), .m_ctl_valid(c_in_valid), .m_ctl_ready(c_in_ready),
	.s_ctl_data(c_out_data), .s_ctl_last(c_out_last), .s_ctl_valid(c_out_valid),
	.s_ctl_ready(c_out_ready),
	.s_tx_data(stx_data), .s_tx_last(stx_last), .s_tx_valid(stx_valid), .s_tx_ready(stx_ready),
	.m_tx_data(tx_data), .m_tx_last(tx_last), .m_tx_valid(tx_valid), .m_tx_ready(tx_ready),
	.cnt_ctl_rx(cnt_rx), .cnt_ctl_tx(cnt_tx)
);

wire [3:0] cmd_kind;
wire [15:0] cmd_id, cmd_len, expect_seq, c0, c1, c2;
wire [31:0] cmd_index, cmd_data;
wire [7:0] cmd_flag, req_type, req_data;
wire cmd_last, cmd_valid, req_last, req_valid, rsp_ready, session, e0, e1, u0, u1, u2, u3;
wire [15:0] req_len;
reg rsp_valid = 1'b0;

pisa_ctl_link #(.PHY("byte"), .MAX_PAYLOAD(512), .WINDOW(4), .BOARD("colorlight-5a-75b")) link (
	.clk(clk), .rst(rst),
	.uart_rxd(1'b1), .uart_txd(u0), .spi_sck(1'b0), .spi_cs_n(1'b1), .spi_mosi(1'b0),
	.spi_miso(u1), .spi_miso_oe(u2),
	.s_byte_data(c_in_data), .s_byte_valid(c_in_valid), .s_byte_ready(c_in_ready),
	.m_byte_data(c_out_data), .m_byte_last(c_out_last), .m_byte_valid(c_out_valid),
	.m_byte_ready(c_out_ready),
	.m_cmd_kind(cmd_kind), .m_cmd_id(cmd_id), .m_cmd_index(cmd_index), .m_cmd_flag(cmd_flag),
	.m_cmd_len(cmd_len), .m_cmd_data(cmd_data), .m_cmd_last(cmd_last), .m_cmd_valid(cmd_valid),
	.m_cmd_ready(1'b1),
	.m_req_type(req_type), .m_req_len(req_len), .m_req_data(req_data), .m_req_last(req_last),
	.m_req_valid(req_valid), .m_req_ready(1'b1),
	.s_rsp_err(8'd0), .s_rsp_a(64'h1122334455667788), .s_rsp_b(64'd0), .s_rsp_valid(rsp_valid),
	.s_rsp_ready(rsp_ready),
	.s_pin_port(16'd0), .s_pin_data(8'd0), .s_pin_last(1'b0), .s_pin_valid(1'b0), .s_pin_ready(),
	.s_dig_id(16'd0), .s_dig_data(8'd0), .s_dig_last(1'b0), .s_dig_valid(1'b0), .s_dig_ready(),
	.pin_held(u3),
	.info_image(1'b0), .info_image_len(32'd0), .info_image_crc(32'd0), .info_program(512'd0),
	.session(session), .expect_seq(expect_seq), .cnt_frames(c0), .cnt_bad(c1),
	.cnt_dropped(c2), .err_line(e0), .err_overrun(e1)
);

// The consumer: answers every command's last beat and every request, after a beat.
integer n_writes = 0, n_reads = 0, n_rows = 0;
always @(posedge clk) begin
	if (rsp_valid && rsp_ready)
		rsp_valid <= 1'b0;
	if (cmd_valid && cmd_last) begin
		rsp_valid <= 1'b1;
		if (cmd_kind == 4'd3 && cmd_id == 16'd7 && cmd_index == 32'd5)
			n_writes = n_writes + 1;
		else if (cmd_kind == 4'd11 && cmd_id == 16'd7 && cmd_index == 32'd5)
			n_reads = n_reads + 1;
		else if (cmd_kind == 4'd1 && cmd_id == 16'd9 && cmd_index == 32'd3 && cmd_len == 16'd247)
			n_rows = n_rows + 1;
		else
			fail("unexpected command");
	end
	if (req_valid)
		fail("unexpected forwarded request");
end

task fail(input [8 * 64 - 1:0] what);
	begin
		errors = errors + 1;
		if (errors < 10)
			$display("%m: %0s", what);
	end
endtask

// ---- protocol frames (docs/control-protocol.md) ----
function [31:0] crc_upd(input [31:0] c, input [7:0] d);
	integer i;
	reg [31:0] t;
	begin
		t = c;
		for (i = 0; i < 8; i = i + 1)
			t = (t >> 1) ^ ((t[0] ^ d[i]) ? 32'hEDB88320 : 32'h0);
		crc_upd = t;
	end
endfunction

// Host frames to send: bytes, with a frame-end mark, built up front.
localparam MAXB = 4096;
reg [8:0] h_mem [0:MAXB - 1];	// {last, byte}
integer h_n = 0;
reg [7:0] pf [0:599];		// a protocol frame being built
integer pf_n;

task pf_build(input [15:0] seq, input [7:0] typ, input integer plen, input [8 * 32 - 1:0] pay,
	      input corrupt);
	integer i;
	reg [31:0] c;
	begin
		pf[0] = 8'hA5; pf[1] = 8'hC3;
		pf[2] = plen[7:0]; pf[3] = 8'd0;
		pf[4] = seq[7:0]; pf[5] = seq[15:8]; pf[6] = typ;
		c = 32'hFFFFFFFF;
		for (i = 2; i < 7; i = i + 1)
			c = crc_upd(c, pf[i]);
		pf[7] = ~c[7:0];
		c = crc_upd(c, pf[7]);
		for (i = 0; i < plen; i = i + 1) begin
			pf[8 + i] = pay[8 * (31 - i) +: 8];
			c = crc_upd(c, pf[8 + i]);
		end
		c = ~c;
		if (corrupt)
			c = c ^ 32'h00010000;
		for (i = 0; i < 4; i = i + 1)
			pf[8 + plen + i] = c[8 * i +: 8];
		pf_n = 12 + plen;
	end
endtask

// A WRITE of one ROW op: table 9, row 3, 247 bytes; 258 bytes of payload (len 0x0102).
task pf_build_row(input [15:0] seq);
	integer i;
	reg [31:0] c;
	begin
		pf[0] = 8'hA5; pf[1] = 8'hC3;
		pf[2] = 8'h02; pf[3] = 8'h01;
		pf[4] = seq[7:0]; pf[5] = seq[15:8]; pf[6] = 8'h04;
		c = 32'hFFFFFFFF;
		for (i = 2; i < 7; i = i + 1)
			c = crc_upd(c, pf[i]);
		pf[7] = ~c[7:0];
		pf[8] = 8'd1; pf[9] = 8'd0;			// count 1
		pf[10] = 8'd1; pf[11] = 8'd253; pf[12] = 8'd0;	// ROW, body 253
		pf[13] = 8'd9; pf[14] = 8'd0;			// table 9
		pf[15] = 8'd3; pf[16] = 8'd0; pf[17] = 8'd0; pf[18] = 8'd0;	// row 3
		for (i = 19; i < 266; i = i + 1)
			pf[i] = i[7:0];
		for (i = 7; i < 266; i = i + 1)
			c = crc_upd(c, pf[i]);
		c = ~c;
		for (i = 0; i < 4; i = i + 1)
			pf[266 + i] = c[8 * i +: 8];
		pf_n = 270;
	end
endtask

// An Ethernet frame from the host: header, the protocol frame in pf (or n filler bytes for a
// data frame), zero padding up to 60 bytes (what the MAC's receive side hands over).
task eth_frame(input [47:0] dst, input [15:0] et, input use_pf, input integer n);
	integer i, len, start;
	begin
		start = h_n;
		for (i = 0; i < 6; i = i + 1)
			h_mem[h_n + i] = {1'b0, dst[8 * (5 - i) +: 8]};
		for (i = 0; i < 6; i = i + 1)
			h_mem[h_n + 6 + i] = {1'b0, HOST[8 * (5 - i) +: 8]};
		h_mem[h_n + 12] = {1'b0, et[15:8]};
		h_mem[h_n + 13] = {1'b0, et[7:0]};
		len = use_pf ? pf_n : n;
		for (i = 0; i < len; i = i + 1)
			h_mem[h_n + 14 + i] = {1'b0, use_pf ? pf[i] : (8'h30 + i[7:0])};
		len = 14 + len;
		for (i = len; i < 60; i = i + 1)
			h_mem[h_n + i] = 9'd0;
		if (len < 60)
			len = 60;
		h_mem[h_n + len - 1][8] = 1'b1;
		h_n = h_n + len;
		if (!use_pf || dst != BOARD_MAC && dst != 48'hFFFFFFFFFFFF || et != ET)
			exp_data_frame(start, len);
	end
endtask

// Data frames expected on m_rx (copies of what was sent).
reg [8:0] d_mem [0:MAXB - 1];
integer d_n = 0, d_got = 0;
task exp_data_frame(input integer start, input integer len);
	integer i;
	begin
		for (i = 0; i < len; i = i + 1)
			d_mem[d_n + i] = h_mem[start + i];
		d_n = d_n + len;
	end
endtask

// ---- the host's byte source ----
integer h_sent = 0;
always @(posedge clk) begin
	if (!rst) begin
		if (rx_valid && rx_ready)
			h_sent = h_sent + 1;
		if (!rx_valid || rx_ready) begin
			if (h_sent < h_n && ($random(seed) & 32'h7f) % 100 < P_VALID) begin
				rx_valid <= 1'b1;
				{rx_last, rx_data} <= h_mem[h_sent];
			end else begin
				rx_valid <= 1'b0;
			end
		end
	end
end

// ---- the switch's own frames on the port: 3 frames of 64 bytes ----
integer s_sent = 0, s_frames = 3;
always @(posedge clk) begin
	if (!rst) begin
		if (stx_valid && stx_ready)
			s_sent = s_sent + 1;
		if (!stx_valid || stx_ready) begin
			if (s_sent < 64 * s_frames && ($random(seed) & 32'h7f) % 100 < P_VALID) begin
				stx_valid <= 1'b1;
				stx_data <= 8'h80 + s_sent[7:0];
				stx_last <= s_sent % 64 == 63;
			end else begin
				stx_valid <= 1'b0;
			end
		end
	end
end

// ---- checks on m_rx and m_tx ----
reg rx_stalled = 1'b0, tx_stalled = 1'b0;
reg [8:0] rx_held, tx_held;
reg [7:0] t_buf [0:255];
integer t_n = 0, s_seen = 0, replies = 0, t_i;
reg [31:0] t_crc;
// expected replies in order: type, seq, status
reg [7:0] r_type [0:7];
reg [15:0] r_seq [0:7];
reg [7:0] r_st [0:7];
integer r_n = 0;

always @(posedge clk) begin
	if (!rst) begin
		if (rx_stalled && (!sw_rx_valid || {sw_rx_last, sw_rx_data} !== rx_held))
			fail("m_rx changed while stalled");
		if (tx_stalled && (!tx_valid || {tx_last, tx_data} !== tx_held))
			fail("m_tx changed while stalled");
		if (sw_rx_valid && sw_rx_ready) begin
			if (d_got >= d_n || {sw_rx_last, sw_rx_data} !== d_mem[d_got])
				fail("data frame differs on m_rx");
			d_got = d_got + 1;
		end
		if (tx_valid && tx_ready) begin
			t_buf[t_n] = tx_data;
			t_n = t_n + 1;
			if (tx_last) begin
				check_tx_frame;
				t_n = 0;
			end
		end
		rx_stalled = sw_rx_valid && !sw_rx_ready;
		rx_held = {sw_rx_last, sw_rx_data};
		tx_stalled = tx_valid && !tx_ready;
		tx_held = {tx_last, tx_data};
		sw_rx_ready <= ($random(seed) & 32'h7f) % 100 < P_READY;
		tx_ready <= ($random(seed) & 32'h7f) % 100 < P_READY;
	end
end

// A frame left on m_tx: one of the switch's (unchanged) or a reply.
task check_tx_frame;
	begin
		if (t_buf[0] == (128 + s_seen * 64) % 256 && t_n == 64) begin
			for (t_i = 0; t_i < 64; t_i = t_i + 1)
				if (t_buf[t_i] !== (128 + s_seen * 64 + t_i) % 256)
					fail("switch frame changed");
			s_seen = s_seen + 1;
		end else begin
			if ({t_buf[0], t_buf[1], t_buf[2], t_buf[3], t_buf[4], t_buf[5]} !== HOST)
				fail("reply not to the host");
			if ({t_buf[6], t_buf[7], t_buf[8], t_buf[9], t_buf[10], t_buf[11]} !== BOARD_MAC)
				fail("reply not from the board");
			if ({t_buf[12], t_buf[13]} !== ET)
				fail("reply EtherType");
			if (t_buf[14] !== 8'hA5 || t_buf[15] !== 8'hC3 ||
			    t_n != 14 + 12 + {t_buf[17], t_buf[16]})
				fail("reply is not one protocol frame");
			t_crc = 32'hFFFFFFFF;
			for (t_i = 16; t_i < t_n; t_i = t_i + 1)
				t_crc = crc_upd(t_crc, t_buf[t_i]);
			if (t_crc !== 32'hDEBB20E3)
				fail("reply CRC");
			if (replies >= r_n || t_buf[20] !== r_type[replies] ||
			    {t_buf[19], t_buf[18]} !== r_seq[replies] ||
			    (r_type[replies] != 8'h81 && t_buf[22] !== r_st[replies])) begin
				fail("reply differs");
				$display("%m: reply %0d: type %h seq %h status %h", replies, t_buf[20],
					{t_buf[19], t_buf[18]}, t_buf[22]);
			end
			replies = replies + 1;
		end
	end
endtask

task expect_reply(input [7:0] t, input [15:0] seq, input [7:0] st);
	begin
		r_type[r_n] = t;
		r_seq[r_n] = seq;
		r_st[r_n] = st;
		r_n = r_n + 1;
	end
endtask

integer wait_cycles = 0;
initial begin
	done = 1'b0;
	errors = 0;
	// the host's frames, with what comes back
	eth_frame(48'h02_11_22_33_44_55, 16'h0800, 1'b0, 50);	// not ours: to the switch
	pf_build(16'h0100, 8'h01, 4, {8'd1, 8'd0, 16'h0001, 224'd0}, 1'b0);	// HELLO
	eth_frame(48'hFFFFFFFFFFFF, ET, 1'b1, 0);
	expect_reply(8'h81, 16'h0100, 8'd0);
	// WRITE: count 1, REGISTER op: id 7, index 5, value
	pf_build(16'h0101, 8'h04, 19, {16'h0100, 8'd3, 16'h0e00, 16'h0700, 32'h05000000,
		64'h0102030405060708, 104'd0}, 1'b0);
	eth_frame(BOARD_MAC, ET, 1'b1, 0);
	expect_reply(8'h80, 16'h0101, 8'd0);
	eth_frame(BOARD_MAC, 16'h0806, 1'b0, 46);		// ARP-like: to the switch
	eth_frame(BOARD_MAC, ET, 1'b1, 0);			// the same WRITE again: kept ACK
	expect_reply(8'h80, 16'h0101, 8'd0);
	pf_build(16'h0102, 8'h05, 7, {8'd3, 16'h0700, 32'h05000000, 200'd0}, 1'b1);	// bad CRC
	eth_frame(BOARD_MAC, ET, 1'b1, 0);
	pf_build(16'h0102, 8'h05, 7, {8'd3, 16'h0700, 32'h05000000, 200'd0}, 1'b0);	// READ
	eth_frame(BOARD_MAC, ET, 1'b1, 0);
	expect_reply(8'h85, 16'h0102, 8'd0);
	eth_frame(48'h02_50_49_53_41_02, ET, 1'b1, 0);		// another board's: to the switch
	pf_build_row(16'h0103);
	eth_frame(BOARD_MAC, ET, 1'b1, 0);
	expect_reply(8'h80, 16'h0103, 8'd0);
	repeat (3) @(posedge clk);
	rst <= 1'b0;
	while ((replies < r_n || d_got < d_n || s_seen < s_frames || h_sent < h_n) &&
	       wait_cycles < 200000) begin
		@(posedge clk);
		wait_cycles = wait_cycles + 1;
	end
	repeat (200) @(posedge clk);
	if (replies != r_n || d_got != d_n || s_seen != s_frames) begin
		fail("frames missing");
		$display("%m: replies %0d/%0d data bytes %0d/%0d switch frames %0d/%0d", replies, r_n,
			d_got, d_n, s_seen, s_frames);
	end
	if (n_writes != 1 || n_reads != 1 || n_rows != 1) begin
		fail("register written or read, or row written, other than once");
		$display("%m: writes %0d reads %0d rows %0d", n_writes, n_reads, n_rows);
	end
	if (cnt_rx != 16'd6 || cnt_tx != 16'd5) begin
		fail("counters");
		$display("%m: management frames in %0d out %0d", cnt_rx, cnt_tx);
	end
	done = 1'b1;
end
endmodule

module tb_pisa_ctl_eth;
reg clk = 1'b0;
always #5 clk = ~clk;

wire [1:0] done;
wire [31:0] e0, e1;
tb_pisa_ctl_eth_case #(.SEED(41)) c0 (.clk(clk), .done(done[0]), .errors(e0));
tb_pisa_ctl_eth_case #(.SEED(42), .P_VALID(60), .P_READY(50)) c1 (.clk(clk), .done(done[1]),
	.errors(e1));

initial begin
	wait (&done);
	if (e0 + e1 == 0)
		$display("PASSED pisa_ctl_eth");
	else
		$display("FAILED pisa_ctl_eth: %0d errors (see messages above)", e0 + e1);
	$finish;
end

initial begin
	#50000000;
	$display("FAILED pisa_ctl_eth: timeout");
	$finish;
end
endmodule

`resetall
