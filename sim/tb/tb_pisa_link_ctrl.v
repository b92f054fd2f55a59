// SPDX-License-Identifier: Apache-2.0
// tb_pisa_link_ctrl: self-checking test of the switch end, pisa_frame_rx -> pisa_link_ctrl ->
// pisa_frame_tx, against lib/pisa_proto.c's server (tests/hwlink/gen_frames: link_in.hex
// bytes in; link_cmd.hex command beats, link_req.hex forwarded requests and link_reply.hex
// reply bytes expected). The testbench plays the consumer with gen_frames' stub rules: id or
// port 0x0BAD fails with err 6 (RANGE); reads return a = 0x5A5A << 48 | id << 32 | index,
// b = ~a; image chunks must be consecutive, a commit must name the staged length.
// Runs with everything always ready, then with a random idle source, random stalls on every
// sink and random answer delays.
`default_nettype none
`ifndef HWLINK_DIR
`define HWLINK_DIR "build/sim/hwlink"
`endif

module tb_pisa_link_ctrl_case #(
	parameter SEED = 1,
	parameter P_VALID = 100,
	parameter P_READY = 100
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
reg [7:0] s_data;
reg s_valid = 1'b0;
wire s_ready;
wire [7:0] m_data;
wire m_last, m_valid;
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
wire [15:0] expect_seq;
reg [31:0] image_len, image_crc;
wire [511:0] program = {488'd0, "knilwh"};  // "hwlink", byte 0 first

pisa_link_top_sim #(.MAX_PAYLOAD(1024)) dut (
	.clk(clk), .rst(rst),
	.s_data(s_data), .s_valid(s_valid), .s_ready(s_ready),
	.m_data(m_data), .m_last(m_last), .m_valid(m_valid), .m_ready(m_ready),
	.m_cmd_kind(cmd_kind), .m_cmd_id(cmd_id), .m_cmd_index(cmd_index), .m_cmd_flag(cmd_flag),
	.m_cmd_len(cmd_len), .m_cmd_data(cmd_data), .m_cmd_last(cmd_last),
	.m_cmd_valid(cmd_valid), .m_cmd_ready(cmd_ready),
	.m_req_type(req_type), .m_req_len(req_len), .m_req_data(req_data), .m_req_last(req_last),
	.m_req_valid(req_valid), .m_req_ready(req_ready),
	.s_rsp_err(rsp_err), .s_rsp_a(rsp_a), .s_rsp_b(rsp_b), .s_rsp_valid(rsp_valid),
	.s_rsp_ready(rsp_ready),
	.info_image(1'b1), .info_image_len(image_len), .info_image_crc(image_crc),
	.info_program(program),
	.session(session), .expect_seq(expect_seq)
);

`define LINK_SET "link"
`include "tb_pisa_link_consumer.vh"
`undef LINK_SET

// Byte source: random idle time, holds a byte until taken.
always @(posedge clk) begin
	if (!rst) begin
		if (s_valid && s_ready)
			sent = sent + 1;
		if (!s_valid || s_ready) begin
			if (sent < n_in && ($random(seed) & 32'h7f) % 100 < P_VALID) begin
				s_valid <= 1'b1;
				s_data <= in_mem[sent];
			end else begin
				s_valid <= 1'b0;
				s_data <= 8'hxx;
			end
		end
	end
end

initial begin
	done = 1'b0;
	errors = 0;
	load_files;
	repeat (3) @(posedge clk);
	rst <= 1'b0;
	wait (sent == n_in);
	finish_check;
	done = 1'b1;
end

endmodule

// frame_rx -> link_ctrl -> frame_tx, as pisa_ctl_link has them without a PHY.
module pisa_link_top_sim #(
	parameter MAX_PAYLOAD = 1024
) (
	input  wire clk, input wire rst,
	input  wire [7:0] s_data, input wire s_valid, output wire s_ready,
	output wire [7:0] m_data, output wire m_last, output wire m_valid, input wire m_ready,
	output wire [3:0] m_cmd_kind, output wire [15:0] m_cmd_id, output wire [31:0] m_cmd_index,
	output wire [7:0] m_cmd_flag, output wire [15:0] m_cmd_len, output wire [31:0] m_cmd_data,
	output wire m_cmd_last, output wire m_cmd_valid, input wire m_cmd_ready,
	output wire [7:0] m_req_type, output wire [15:0] m_req_len, output wire [7:0] m_req_data,
	output wire m_req_last, output wire m_req_valid, input wire m_req_ready,
	input  wire [7:0] s_rsp_err, input wire [63:0] s_rsp_a, input wire [63:0] s_rsp_b,
	input  wire s_rsp_valid, output wire s_rsp_ready,
	input  wire info_image, input wire [31:0] info_image_len, input wire [31:0] info_image_crc,
	input  wire [511:0] info_program,
	output wire session, output wire [15:0] expect_seq
);
wire [15:0] rh_seq, rh_len, th_seq, th_len;
wire [7:0] rh_type, th_type, r_data, t_data;
wire rh_valid, rh_ready, r_last, r_valid, r_ready;
wire th_valid, th_ready, t_last, t_valid, t_ready;
wire [15:0] c0, c1, c2;

pisa_frame_rx #(.MAX_PAYLOAD(MAX_PAYLOAD)) u_rx (
	.clk(clk), .rst(rst), .s_data(s_data), .s_valid(s_valid), .s_ready(s_ready),
	.m_hdr_seq(rh_seq), .m_hdr_type(rh_type), .m_hdr_len(rh_len), .m_hdr_valid(rh_valid),
	.m_hdr_ready(rh_ready), .m_data(r_data), .m_last(r_last), .m_valid(r_valid),
	.m_ready(r_ready), .cnt_frames(c0), .cnt_bad(c1), .cnt_dropped(c2)
);
pisa_link_ctrl #(.MAX_PAYLOAD(MAX_PAYLOAD), .HW_VERSION(16'h0102)) u_ctrl (
	.clk(clk), .rst(rst),
	.s_hdr_seq(rh_seq), .s_hdr_type(rh_type), .s_hdr_len(rh_len), .s_hdr_valid(rh_valid),
	.s_hdr_ready(rh_ready), .s_data(r_data), .s_last(r_last), .s_valid(r_valid),
	.s_ready(r_ready),
	.m_hdr_seq(th_seq), .m_hdr_type(th_type), .m_hdr_len(th_len), .m_hdr_valid(th_valid),
	.m_hdr_ready(th_ready), .m_data(t_data), .m_last(t_last), .m_valid(t_valid),
	.m_ready(t_ready),
	.m_cmd_kind(m_cmd_kind), .m_cmd_id(m_cmd_id), .m_cmd_index(m_cmd_index),
	.m_cmd_flag(m_cmd_flag), .m_cmd_len(m_cmd_len), .m_cmd_data(m_cmd_data),
	.m_cmd_last(m_cmd_last), .m_cmd_valid(m_cmd_valid), .m_cmd_ready(m_cmd_ready),
	.m_req_type(m_req_type), .m_req_len(m_req_len), .m_req_data(m_req_data),
	.m_req_last(m_req_last), .m_req_valid(m_req_valid), .m_req_ready(m_req_ready),
	.s_rsp_err(s_rsp_err), .s_rsp_a(s_rsp_a), .s_rsp_b(s_rsp_b), .s_rsp_valid(s_rsp_valid),
	.s_rsp_ready(s_rsp_ready),
	.info_image(info_image), .info_image_len(info_image_len),
	.info_image_crc(info_image_crc), .info_program(info_program),
	.session(session), .expect_seq(expect_seq)
);
pisa_frame_tx u_tx (
	.clk(clk), .rst(rst),
	.s_hdr_seq(th_seq), .s_hdr_type(th_type), .s_hdr_len(th_len), .s_hdr_valid(th_valid),
	.s_hdr_ready(th_ready), .s_data(t_data), .s_last(t_last), .s_valid(t_valid),
	.s_ready(t_ready),
	.m_data(m_data), .m_last(m_last), .m_valid(m_valid), .m_ready(m_ready)
);
endmodule

module tb_pisa_link_ctrl;
reg clk = 1'b0;
always #5 clk = ~clk;

wire [1:0] done;
wire [31:0] e0, e1;
tb_pisa_link_ctrl_case #(.SEED(21)) c0 (.clk(clk), .done(done[0]), .errors(e0));
tb_pisa_link_ctrl_case #(.SEED(22), .P_VALID(40), .P_READY(50)) c1 (.clk(clk), .done(done[1]), .errors(e1));

initial begin
	wait (&done);
	if (e0 + e1 == 0)
		$display("PASSED pisa_link_ctrl");
	else
		$display("FAILED pisa_link_ctrl: %0d errors (see messages above)", e0 + e1);
	$finish;
end

initial begin
	#20000000;
	$display("FAILED pisa_link_ctrl: timeout");
	$finish;
end
endmodule

`resetall
