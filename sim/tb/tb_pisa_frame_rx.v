// SPDX-License-Identifier: Apache-2.0
// tb_pisa_frame_rx: self-checking test of pisa_frame_rx against lib/pisa_proto.c's receiver.
// The stimulus and the frames the C receiver finds in it come from tests/hwlink/gen_frames
// (rx_in.hex, rx_out.hex, rx_meta.hex in HWLINK_DIR): good frames of every length up to 3000
// bytes, every single-byte corruption of a WRITE frame, garbage with false syncs, a real frame
// inside a false candidate, truncated frames. Runs with a source and sinks that are always
// ready, then a randomly idle source and randomly stalling sinks; each with the byte-wide and
// the bit-serial CRC (CRC_SERIAL).
`default_nettype none
`ifndef HWLINK_DIR
`define HWLINK_DIR "build/sim/hwlink"
`endif

module tb_pisa_frame_rx_case #(
	parameter SEED = 1,
	parameter P_VALID = 100,  // percent of cycles the source offers a byte
	parameter P_READY = 100,  // percent of cycles the sinks are ready
	parameter CRC_SERIAL = 0
) (
	input  wire clk,
	output reg  done,
	output reg  [31:0] errors
);
localparam MAX_IN = 1 << 16;
reg [7:0] in_mem [0:MAX_IN - 1];
reg [47:0] out_mem [0:MAX_IN - 1];
reg [31:0] meta [0:7];

reg rst = 1'b1;
reg [7:0] s_data;
reg s_valid = 1'b0;
wire s_ready;
wire [15:0] hdr_seq, hdr_len;
wire [7:0] hdr_type;
wire hdr_valid;
reg hdr_ready = 1'b0;
wire [7:0] m_data;
wire m_last, m_valid;
reg m_ready = 1'b0;
wire [15:0] cnt_frames, cnt_bad, cnt_dropped;

pisa_frame_rx #(.MAX_PAYLOAD(10240), .CRC_SERIAL(CRC_SERIAL)) dut (
	.clk(clk), .rst(rst),
	.s_data(s_data), .s_valid(s_valid), .s_ready(s_ready),
	.m_hdr_seq(hdr_seq), .m_hdr_type(hdr_type), .m_hdr_len(hdr_len),
	.m_hdr_valid(hdr_valid), .m_hdr_ready(hdr_ready),
	.m_data(m_data), .m_last(m_last), .m_valid(m_valid), .m_ready(m_ready),
	.cnt_frames(cnt_frames), .cnt_bad(cnt_bad), .cnt_dropped(cnt_dropped)
);

integer seed = SEED;
integer n_in, n_out, sent = 0, got = 0, idle = 0;
reg hdr_stalled = 1'b0, m_stalled = 1'b0;
reg [39:0] hdr_held;
reg [8:0] m_held;

task fail(input [8 * 64 - 1:0] what);
	begin
		errors = errors + 1;
		if (errors < 10)
			$display("%m: record %0d: %0s", got, what);
	end
endtask

always @(posedge clk) begin
	if (!rst) begin
		// contract checks: held outputs stay put
		if (hdr_stalled && (!hdr_valid || {hdr_seq, hdr_type, hdr_len} !== hdr_held))
			fail("header changed while stalled");
		if (m_stalled && (!m_valid || {m_last, m_data} !== m_held))
			fail("payload changed while stalled");
		if (hdr_valid && m_valid)
			fail("header and payload valid together");
		if (hdr_valid && hdr_ready) begin
			if (got >= n_out || out_mem[got] !== {8'h01, hdr_seq, hdr_type, hdr_len}) begin
				fail("header differs");
				$display("%m: got %h, expected %h", {8'h01, hdr_seq, hdr_type, hdr_len},
					out_mem[got]);
			end
			got = got + 1;
		end
		if (m_valid && m_ready) begin
			if (got >= n_out || out_mem[got] !== {8'h02, 31'd0, m_last, m_data}) begin
				fail("payload differs");
				$display("%m: got %h, expected %h", {8'h02, 31'd0, m_last, m_data},
					out_mem[got]);
			end
			got = got + 1;
		end
		hdr_stalled = hdr_valid && !hdr_ready;
		hdr_held = {hdr_seq, hdr_type, hdr_len};
		m_stalled = m_valid && !m_ready;
		m_held = {m_last, m_data};
		hdr_ready <= ($random(seed) & 32'h7f) % 100 < P_READY;
		m_ready <= ($random(seed) & 32'h7f) % 100 < P_READY;
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
	$readmemh({`HWLINK_DIR, "/rx_meta.hex"}, meta, 0, 4);
	n_in = meta[0];
	n_out = meta[1];
	$readmemh({`HWLINK_DIR, "/rx_in.hex"}, in_mem, 0, n_in - 1);
	$readmemh({`HWLINK_DIR, "/rx_out.hex"}, out_mem, 0, n_out - 1);
	repeat (3) @(posedge clk);
	rst <= 1'b0;
	wait (sent == n_in);
	while (idle < 200) begin
		@(posedge clk);
		// done when the decoder waits for bytes that will not come
		idle = (hdr_valid || m_valid || dut.can_read || dut.have_reg) ? 0 : idle + 1;
	end
	if (got != n_out)
		fail("records missing");
	if (cnt_frames !== meta[2][15:0] || cnt_bad !== meta[3][15:0] || cnt_dropped !== meta[4][15:0]) begin
		fail("counters differ");
		$display("%m: frames %0d bad %0d dropped %0d, expected %0d %0d %0d", cnt_frames,
			cnt_bad, cnt_dropped, meta[2], meta[3], meta[4]);
	end
	done = 1'b1;
end
endmodule

module tb_pisa_frame_rx;
reg clk = 1'b0;
always #5 clk = ~clk;

wire [3:0] done;
wire [31:0] e0, e1, e2, e3;
tb_pisa_frame_rx_case #(.SEED(11)) c0 (.clk(clk), .done(done[0]), .errors(e0));
tb_pisa_frame_rx_case #(.SEED(12), .P_VALID(30), .P_READY(60)) c1 (.clk(clk), .done(done[1]), .errors(e1));
tb_pisa_frame_rx_case #(.SEED(13), .CRC_SERIAL(1)) c2 (.clk(clk), .done(done[2]), .errors(e2));
tb_pisa_frame_rx_case #(.SEED(14), .P_VALID(30), .P_READY(60), .CRC_SERIAL(1)) c3 (.clk(clk),
	.done(done[3]), .errors(e3));

initial begin
	wait (&done);
	if (e0 + e1 + e2 + e3 == 0)
		$display("PASSED pisa_frame_rx");
	else
		$display("FAILED pisa_frame_rx: %0d errors (see messages above)", e0 + e1 + e2 + e3);
	$finish;
end

initial begin
	#20000000;
	$display("FAILED pisa_frame_rx: timeout");
	$finish;
end
endmodule

`resetall
