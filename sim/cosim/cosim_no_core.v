// SPDX-License-Identifier: Apache-2.0
// cosim_no_core: what stands behind the control link in the co-simulation (tb_cosim) while
// there is no pipeline core. It is replaced by pisa_core when that lands.
//
// It takes every control-bus command (WRITE ops, READs) and every forwarded request
// (IMAGE_CHUNK, IMAGE_COMMIT, PACKET_OUT, RESET) of pisa_link_ctrl, beat by beat at full
// rate, and answers each one, after its last beat, with s_rsp_err = ERR: PISA_E_INVAL (10,
// lib/pisa_image.h), the code pisa_link_ctrl itself gives with ACK UNSUPPORTED for message
// types it does not know; there is no "not supported" pisa_err. So the host sees
// "IMAGE_CHUNK FAILED: invalid argument", "WRITE FAILED ...", and so on: every request the
// link forwards fails, HELLO (answered by pisa_link_ctrl) works. READs answer a = b = 0.
// Each refusal is printed ("cosim_no_core: refused ...") when VERBOSE is set.
// Stream contract as in pisa_link_ctrl: a word moves when valid && ready at a rising edge.
`default_nettype none

module cosim_no_core #(
	parameter [7:0] ERR = 8'd10,
	parameter VERBOSE = 1
) (
	input  wire         clk,
	input  wire         rst,

	input  wire [3:0]   s_cmd_kind,
	input  wire [15:0]  s_cmd_id,
	input  wire [31:0]  s_cmd_index,
	input  wire [7:0]   s_cmd_flag,
	input  wire [15:0]  s_cmd_len,
	input  wire [31:0]  s_cmd_data,
	input  wire         s_cmd_last,
	input  wire         s_cmd_valid,
	output wire         s_cmd_ready,

	input  wire [7:0]   s_req_type,
	input  wire [15:0]  s_req_len,
	input  wire [7:0]   s_req_data,
	input  wire         s_req_last,
	input  wire         s_req_valid,
	output wire         s_req_ready,

	output wire [7:0]   m_rsp_err,
	output wire [63:0]  m_rsp_a,
	output wire [63:0]  m_rsp_b,
	output wire         m_rsp_valid,
	input  wire         m_rsp_ready,

	// Commands (ops and reads) and requests refused so far.
	output reg  [31:0]  cnt_cmds,
	output reg  [31:0]  cnt_reqs
);

reg pending = 1'b0;

// One answer at a time: nothing is taken while an answer waits.
assign s_cmd_ready = !pending;
assign s_req_ready = !pending;
assign m_rsp_err = ERR;
assign m_rsp_a = 64'd0;
assign m_rsp_b = 64'd0;
assign m_rsp_valid = pending;

function [8*12-1:0] req_name(input [7:0] t);
	case (t)
	8'h02: req_name = "IMAGE_CHUNK";
	8'h03: req_name = "IMAGE_COMMIT";
	8'h06: req_name = "PACKET_OUT";
	8'h07: req_name = "RESET";
	default: req_name = "request";
	endcase
endfunction

function [8*14-1:0] cmd_name(input [3:0] k);
	case (k)
	4'd1: cmd_name = "ROW write";
	4'd2: cmd_name = "COUNTER write";
	4'd3: cmd_name = "REGISTER write";
	4'd4: cmd_name = "METER write";
	4'd5: cmd_name = "MCAST write";
	4'd6: cmd_name = "CLONE write";
	4'd10: cmd_name = "COUNTER read";
	4'd11: cmd_name = "REGISTER read";
	default: cmd_name = "command";
	endcase
endfunction

always @(posedge clk) begin
	if (rst) begin
		pending <= 1'b0;
		cnt_cmds <= 32'd0;
		cnt_reqs <= 32'd0;
	end else begin
		if (pending && m_rsp_ready)
			pending <= 1'b0;
		if (!pending && s_cmd_valid && s_cmd_last) begin
			pending <= 1'b1;
			cnt_cmds <= cnt_cmds + 32'd1;
			if (VERBOSE) begin
				$display("cosim_no_core: refused %0s (id %0d, index %0d, %0d data bytes) with err %0d: no pipeline core",
					cmd_name(s_cmd_kind), s_cmd_id, s_cmd_index, s_cmd_len, ERR);
				$fflush;
			end
		end else if (!pending && s_req_valid && s_req_last) begin
			pending <= 1'b1;
			cnt_reqs <= cnt_reqs + 32'd1;
			if (VERBOSE) begin
				$display("cosim_no_core: refused %0s (type 0x%02h, %0d bytes) with err %0d: no pipeline core",
					req_name(s_req_type), s_req_type, s_req_len, ERR);
				$fflush;
			end
		end
	end
end

wire _unused = &{1'b0, s_cmd_flag, s_cmd_data, s_req_data, 1'b0};

endmodule

`resetall
