// SPDX-License-Identifier: Apache-2.0
// tb_pisa_ctl_link: self-checking test of the whole control link, PHY to control bus, against
// lib/pisa_proto.c's server (gen_frames' short session: NO_SESSION, HELLO, writes, a duplicate, corruptions, garbage, a gap, a read, packet-out, reset): over a UART at
// CLKS_PER_BIT 4 and 16 (the testbench's own pisa_uart_tx / pisa_uart_rx on the host side)
// and over SPI mode 0 at SCK = clk/4 (a bit-banged master that also drops a partial byte with
// cs_n first and raises cs_n between bytes now and then). Random idle time on the host's
// sending side, random stalls on the command, request and reply sinks, random answer delays.
// On SPI the slave sends 0x00 while it has nothing to say; the host side skips 0x00 between
// frames (it hunts for sync like a real host). The small boards' area options (bit-serial
// CRCs, a 16-byte program name, 8-bit counters) run over the UART and SPI too.
`default_nettype none
`ifndef HWLINK_DIR
`define HWLINK_DIR "build/sim/hwlink"
`endif

module tb_pisa_ctl_link_case #(
	parameter SPI = 0,
	parameter CLKS_PER_BIT = 16,
	parameter SEED = 1,
	parameter P_VALID = 100,
	parameter P_READY = 100,
	parameter SMALL = 0		// CRC_SERIAL 1, PROGRAM_BYTES 16, CNT_W 8
) (
	input  wire clk,
	output reg  done,
	output reg  [31:0] errors
);
localparam MAX_IN = 1 << 14;
reg [7:0] in_mem [0:MAX_IN - 1];
reg [111:0] cmd_mem [0:MAX_IN - 1];
reg [39:0] req_mem [0:MAX_IN - 1];
reg [7:0] rep_mem [0:MAX_IN - 1];
reg [31:0] meta [0:6];

reg rst = 1'b1;
wire [7:0] m_data;
wire m_last = 1'b0;
wire m_valid;
reg m_ready = 1'b0;
wire [3:0] cmd_kind;
wire [15:0] cmd_id, cmd_len;
wire [31:0] cmd_index, cmd_data;
wire [7:0] cmd_flag;
wire cmd_last, cmd_valid;
reg cmd_ready = 1'b0;
wire [7:0] req_type, req_data;
wire [15:0] req_len;
wire req_last, req_valid;
reg req_ready = 1'b0;
reg [7:0] rsp_err;
reg [63:0] rsp_a, rsp_b;
reg rsp_valid = 1'b0;
wire rsp_ready;
wire session;
wire [15:0] expect_seq, cnt_frames, cnt_bad, cnt_dropped;
wire err_line, err_overrun;
reg [31:0] image_len, image_crc;
wire [511:0] program = {488'd0, "knilwh"};

wire uart_h2s, uart_s2h, miso, miso_oe;
reg sck = 1'b0, cs_n = 1'b1, mosi = 1'b0;

pisa_ctl_link #(
	.PHY(SPI ? "spi" : "uart"), .CLKS_PER_BIT(CLKS_PER_BIT), .MAX_PAYLOAD(1024),
	.HW_VERSION(16'h0102), .CRC_SERIAL(SMALL), .PROGRAM_BYTES(SMALL ? 16 : 64),
	.CNT_W(SMALL ? 8 : 16)
) dut (
	.clk(clk), .rst(rst),
	.uart_rxd(uart_h2s), .uart_txd(uart_s2h),
	.spi_sck(sck), .spi_cs_n(cs_n), .spi_mosi(mosi), .spi_miso(miso), .spi_miso_oe(miso_oe),
	.s_byte_data(8'd0), .s_byte_valid(1'b0), .s_byte_ready(),
	.m_byte_data(), .m_byte_last(), .m_byte_valid(), .m_byte_ready(1'b0),
	.m_cmd_kind(cmd_kind), .m_cmd_id(cmd_id), .m_cmd_index(cmd_index), .m_cmd_flag(cmd_flag),
	.m_cmd_len(cmd_len), .m_cmd_data(cmd_data), .m_cmd_last(cmd_last),
	.m_cmd_valid(cmd_valid), .m_cmd_ready(cmd_ready),
	.m_req_type(req_type), .m_req_len(req_len), .m_req_data(req_data), .m_req_last(req_last),
	.m_req_valid(req_valid), .m_req_ready(req_ready),
	.s_rsp_err(rsp_err), .s_rsp_a(rsp_a), .s_rsp_b(rsp_b), .s_rsp_valid(rsp_valid),
	.s_rsp_ready(rsp_ready),
	.s_pin_port(16'd0), .s_pin_data(8'd0), .s_pin_last(1'b0), .s_pin_valid(1'b0), .s_pin_ready(),
	.s_dig_id(16'd0), .s_dig_data(8'd0), .s_dig_last(1'b0), .s_dig_valid(1'b0), .s_dig_ready(),
	.info_image(1'b1), .info_image_len(image_len), .info_image_crc(image_crc),
	.info_program(program),
	.session(session), .expect_seq(expect_seq),
	.cnt_frames(cnt_frames), .cnt_bad(cnt_bad), .cnt_dropped(cnt_dropped),
	.err_line(err_line), .err_overrun(err_overrun)
);

`define LINK_SET "short"
`include "tb_pisa_link_consumer.vh"
`undef LINK_SET

// Host side: bytes received from the switch go through a FIFO to the reply checker.
reg [7:0] h_data;
reg h_valid = 1'b0;
wire h_ready;
wire [6:0] h_count;
pisa_fifo #(.WIDTH(8), .DEPTH(64)) u_hfifo (
	.clk(clk), .rst(rst),
	.s_data(h_data), .s_valid(h_valid), .s_ready(h_ready),
	.m_data(m_data), .m_valid(m_valid), .m_ready(m_ready),
	.count(h_count)
);

// Host UART.
reg [7:0] ht_data;
reg ht_valid = 1'b0;
wire ht_ready, ht_busy;
wire [7:0] hr_data;
wire hr_valid, hr_fs, hr_fe, hr_ov;
pisa_uart_tx #(.CLKS_PER_BIT(CLKS_PER_BIT)) u_htx (
	.clk(clk), .rst(rst),
	.s_data(ht_data), .s_valid(ht_valid), .s_ready(ht_ready),
	.txd(uart_h2s), .busy(ht_busy)
);
pisa_uart_rx #(.CLKS_PER_BIT(CLKS_PER_BIT)) u_hrx (
	.clk(clk), .rst(rst),
	.rxd(SPI ? 1'b1 : uart_s2h),
	.m_data(hr_data), .m_valid(hr_valid), .m_ready(1'b1),
	.err_false_start(hr_fs), .err_frame(hr_fe), .err_overrun(hr_ov)
);

integer n_overrun = 0, n_line = 0, pushed = 0, left = 0;

// Received bytes into the host FIFO; on SPI, 0x00 between frames is the slave's filler.
task host_byte(input [7:0] b);
	begin
		if (SPI && left == 0 && b == 8'h00) begin
			// filler
		end else begin
			if (!h_ready)
				fail("host FIFO overflow");
			h_data <= b;
			h_valid <= 1'b1;
			if (left == 0)
				left = 12 + {rep_mem[pushed + 3], rep_mem[pushed + 2]};
			left = left - 1;
			pushed = pushed + 1;
		end
	end
endtask

always @(posedge clk) begin
	if (!rst) begin
		if (h_valid && h_ready)
			h_valid <= 1'b0;
		if (!SPI && hr_valid)
			host_byte(hr_data);
		n_overrun = n_overrun + err_overrun;
		n_line = n_line + err_line;
		// UART source: random idle between bytes
		if (!SPI) begin
			if (ht_valid && ht_ready)
				sent = sent + 1;
			if (!ht_valid || ht_ready) begin
				if (sent < n_in && ($random(seed) & 32'h7f) % 100 < P_VALID) begin
					ht_valid <= 1'b1;
					ht_data <= in_mem[sent];
				end else begin
					ht_valid <= 1'b0;
				end
			end
		end
	end
end

// SPI master, mode 0, SCK = clk/4.
task spi_byte(input [7:0] b, input integer nbits);
	integer k;
	reg [7:0] r;
	begin
		for (k = 7; k > 7 - nbits; k = k - 1) begin
			mosi <= b[k];
			repeat (2) @(posedge clk);
			sck <= 1'b1;
			r[k] = miso;
			repeat (2) @(posedge clk);
			sck <= 1'b0;
		end
		if (nbits == 8)
			host_byte(r);
	end
endtask

task spi_select;
	begin
		cs_n <= 1'b0;
		repeat (6) @(posedge clk);
	end
endtask

task spi_deselect;
	begin
		repeat (2) @(posedge clk);
		cs_n <= 1'b1;
		repeat (3) @(posedge clk);
	end
endtask

integer gap;
initial begin
	done = 1'b0;
	errors = 0;
	load_files;
	repeat (3) @(posedge clk);
	rst <= 1'b0;
	repeat (3) @(posedge clk);
	if (SPI) begin
		// a partial byte, dropped by cs_n
		spi_select;
		spi_byte(8'hA5, 5);
		spi_deselect;
		spi_select;
		while (sent < n_in) begin
			spi_byte(in_mem[sent], 8);
			sent = sent + 1;
			gap = $random(seed) & 32'h1f;
			if (gap == 0) begin
				spi_deselect;
				spi_select;
			end else if (P_VALID < 100 && gap < 8) begin
				repeat (gap) @(posedge clk);
			end
		end
		// clock out what the switch still has to say
		while (got_rep < n_rep && wait_cycles < 400000) begin
			spi_byte(8'h00, 8);
			wait_cycles = wait_cycles + 32;
		end
		spi_deselect;
	end else begin
		wait (sent == n_in);
	end
	finish_check;
	if (n_overrun != 0 || n_line != 0 || hr_fe || hr_ov) begin
		fail("bytes lost on the link");
		$display("%m: overruns %0d line errors %0d", n_overrun, n_line);
	end
	if (cnt_frames !== (SMALL ? {8'd0, meta[6][7:0]} : meta[6][15:0])) begin
		fail("frame count differs");
		$display("%m: frames %0d expected %0d", cnt_frames, meta[6]);
	end
	done = 1'b1;
end
endmodule

module tb_pisa_ctl_link;
reg clk = 1'b0;
always #5 clk = ~clk;

wire [4:0] done;
wire [31:0] e0, e1, e2, e3, e4;
tb_pisa_ctl_link_case #(.CLKS_PER_BIT(4), .SEED(31), .P_VALID(70), .P_READY(60)) c0 (
	.clk(clk), .done(done[0]), .errors(e0));
tb_pisa_ctl_link_case #(.CLKS_PER_BIT(16), .SEED(32)) c1 (
	.clk(clk), .done(done[1]), .errors(e1));
tb_pisa_ctl_link_case #(.SPI(1), .SEED(33), .P_VALID(70), .P_READY(60)) c2 (
	.clk(clk), .done(done[2]), .errors(e2));
tb_pisa_ctl_link_case #(.CLKS_PER_BIT(4), .SEED(34), .P_VALID(70), .P_READY(60), .SMALL(1)) c3 (
	.clk(clk), .done(done[3]), .errors(e3));
tb_pisa_ctl_link_case #(.SPI(1), .SEED(35), .P_VALID(70), .P_READY(60), .SMALL(1)) c4 (
	.clk(clk), .done(done[4]), .errors(e4));

initial begin
	wait (&done);
	if (e0 + e1 + e2 + e3 + e4 == 0)
		$display("PASSED pisa_ctl_link");
	else
		$display("FAILED pisa_ctl_link: %0d errors (see messages above)",
			e0 + e1 + e2 + e3 + e4);
	$finish;
end

initial begin
	#100000000;
	$display("FAILED pisa_ctl_link: timeout");
	$finish;
end
endmodule

`resetall
