// SPDX-License-Identifier: Apache-2.0
// tb_pisa_loader: self-checking test of the image loader with a real image (the IPv4 router,
// p4lower --board sim, LOADER_DIR/image.pisa). The testbench reads the
// image's section table itself and checks that every HWCONF word reaches the core's cfg port
// in order and that the program name is kept; then the refusals: a wrong CRC (CRC), a wrong
// length or a chunk out of order (RANGE), a broken magic, an image whose HWCONF section lies
// past its end (FORMAT), an image for another board (RANGE), one over MAX_IMAGE (FULL), and
// that nothing refused commits. Random stalls on the request source and on the cfg sink.
`default_nettype none
`ifndef LOADER_DIR
`define LOADER_DIR "build/sim/loader"
`endif

module tb_pisa_loader_case #(
	parameter [8*16-1:0] BOARD = "sim",
	parameter [31:0] MAX_IMAGE = 32'd1048576,
	parameter integer MODE = 0,	// 0: load and refusals, 1: another board, 2: too big
	parameter integer SEED = 1
) (
	input  wire clk,
	input  wire start,
	output reg  done,
	output reg  [31:0] errors
);
localparam MAX_IN = 1 << 16;
localparam [7:0] T_CHUNK = 8'h02, T_COMMIT = 8'h03, T_RESET = 8'h07;
reg [7:0] img [0:MAX_IN - 1];
integer len, seed, i, n_words, commits;
integer cfg_bad;		// words the cfg sink found wrong (errors counts the rest)
integer hw_off, hw_len, bd_off, hw_ent;

reg rst = 1'b1;
reg [7:0] s_type = 8'd0, s_data = 8'd0;
reg s_last = 1'b0, s_valid = 1'b0;
wire s_ready;
wire [7:0] rsp_err;
wire rsp_valid;
wire [15:0] cfg_addr;
wire [63:0] cfg_data;
wire cfg_valid;
reg cfg_ready = 1'b0;
wire cfg_commit, core_reset, info_image;
wire [31:0] info_len, info_crc;
wire [511:0] info_program;
wire [8:0] pko_port;
wire [7:0] pko_data;
wire pko_last, pko_valid;

pisa_loader #(.BOARD(BOARD), .MAX_IMAGE(MAX_IMAGE)) dut (
	.clk(clk), .rst(rst),
	.s_req_type(s_type), .s_req_len(16'd0), .s_req_data(s_data), .s_req_last(s_last),
	.s_req_valid(s_valid), .s_req_ready(s_ready),
	.m_rsp_err(rsp_err), .m_rsp_valid(rsp_valid), .m_rsp_ready(1'b1),
	.m_cfg_addr(cfg_addr), .m_cfg_data(cfg_data), .m_cfg_valid(cfg_valid),
	.m_cfg_ready(cfg_ready), .cfg_commit(cfg_commit), .core_reset(core_reset),
	.m_pko_port(pko_port), .m_pko_data(pko_data), .m_pko_last(pko_last),
	.m_pko_valid(pko_valid), .m_pko_ready(1'b1), .core_idle(1'b1), .pin_held(1'b0),
	.info_image(info_image), .info_image_len(info_len), .info_image_crc(info_crc),
	.info_program(info_program)
);

function [31:0] le32(input integer at);
	le32 = {img[at + 3], img[at + 2], img[at + 1], img[at]};
endfunction

function [31:0] image_crc(input integer n);	// CRC-32/ISO-HDLC of the first n bytes
	integer p, k;
	reg [31:0] c;
	begin
		c = 32'hFFFFFFFF;
		for (p = 0; p < n; p = p + 1) begin
			c = c ^ {24'd0, img[p]};
			for (k = 0; k < 8; k = k + 1)
				c = c[0] ? (c >> 1) ^ 32'hEDB88320 : c >> 1;
		end
		image_crc = ~c;
	end
endfunction

// the cfg sink: random stalls; every word checked against the image's HWCONF words
always @(posedge clk) begin
	cfg_ready <= ($random(seed) & 3) != 0;
	if (cfg_valid && cfg_ready) begin
		if (cfg_addr != n_words[15:0] ||
		    cfg_data != {le32(hw_off + 8 + 8 * n_words), le32(hw_off + 4 + 8 * n_words)}) begin
			if (cfg_bad < 5)
				$display("cfg word %0d: got addr %0d data %h", n_words, cfg_addr, cfg_data);
			cfg_bad <= cfg_bad + 1;
		end
		n_words <= n_words + 1;
	end
	if (cfg_commit)
		commits <= commits + 1;
end

task put(input [7:0] d, input last);	// one request byte, the source idle at random
	begin
		while (($random(seed) & 3) == 0)
			@(posedge clk);
		s_data <= d;
		s_last <= last;
		s_valid <= 1'b1;
		@(posedge clk);
		while (!s_ready)
			@(posedge clk);
		s_valid <= 1'b0;
	end
endtask

task answer(output [7:0] err);
	begin
		while (!rsp_valid)
			@(posedge clk);
		err = rsp_err;
		@(posedge clk);
	end
endtask

// IMAGE_CHUNK: offset off, image bytes from..from+n-1 (the offset need not be from)
task chunk(input [31:0] off, input integer from, input integer n, output [7:0] err);
	integer k;
	begin
		s_type <= T_CHUNK;
		for (k = 0; k < 4; k = k + 1)
			put(off[8 * k +: 8], n == 0 && k == 3);
		for (k = 0; k < n; k = k + 1)
			put(img[from + k], k == n - 1);
		answer(err);
	end
endtask

task commit(input [31:0] n, input [31:0] crc, output [7:0] err);
	integer k;
	begin
		s_type <= T_COMMIT;
		for (k = 0; k < 4; k = k + 1)
			put(n[8 * k +: 8], 1'b0);
		for (k = 0; k < 4; k = k + 1)
			put(crc[8 * k +: 8], k == 3);
		answer(err);
	end
endtask

task expect_err(input [8*24-1:0] what, input [7:0] got, input [7:0] want);
	if (got != want) begin
		$display("%0s: err %0d, expected %0d", what, got, want);
		errors = errors + 1;
	end
endtask

// the whole image in chunks of 200 bytes
task load(output [7:0] err);
	integer off;
	reg [7:0] e;
	begin
		err = 8'd0;
		n_words = 0;
		for (off = 0; off < len; off = off + 200) begin
			chunk(off, off, len - off < 200 ? len - off : 200, e);
			if (e != 8'd0 && err == 8'd0)
				err = e;
		end
	end
endtask

integer c0, fd, ch;
reg [7:0] e;
reg [31:0] crc;
reg [8*64-1:0] want_prog;
integer pn;

initial begin
	done = 1'b0;
	errors = 0;
	cfg_bad = 0;
	seed = SEED;
	commits = 0;
	n_words = 0;
	len = 0;
	fd = $fopen({`LOADER_DIR, "/image.pisa"}, "rb");
	if (fd != 0) begin
		for (ch = $fgetc(fd); ch >= 0 && len < MAX_IN; ch = $fgetc(fd)) begin
			img[len] = ch[7:0];
			len = len + 1;
		end
		$fclose(fd);
	end
	// the section table: HWCONF (11) and BOARD (1)
	hw_off = -1;
	bd_off = -1;
	for (i = 0; i < {img[13], img[12]}; i = i + 1) begin
		if ({img[20 + 16 * i + 1], img[20 + 16 * i]} == 16'd11) begin
			hw_ent = 20 + 16 * i;
			hw_off = le32(20 + 16 * i + 4);
			hw_len = le32(20 + 16 * i + 8);
		end else if ({img[20 + 16 * i + 1], img[20 + 16 * i]} == 16'd1) begin
			bd_off = le32(20 + 16 * i + 4);
		end
	end
	// the program name: after the board string
	want_prog = 512'd0;
	if (bd_off >= 0) begin
		i = bd_off + 2 + {img[bd_off + 1], img[bd_off]};
		for (pn = 0; pn < {img[i + 1], img[i]} && pn < 64; pn = pn + 1)
			want_prog[8 * pn +: 8] = img[i + 2 + pn];
	end
	crc = image_crc(len);
	wait (start);
	repeat (4) @(posedge clk);
	rst <= 1'b0;
	@(posedge clk);
	if (len < 100 || hw_off < 0 || bd_off < 0) begin
		$display("image.pisa: %0d bytes, HWCONF at %0d, BOARD at %0d: not a usable image",
			len, hw_off, bd_off);
		errors = errors + 1;
	end else if (MODE == 0) begin
		load(e);
		expect_err("chunks", e, 8'd0);
		commit(len, crc, e);
		expect_err("commit", e, 8'd0);
		@(posedge clk);
		if (commits != 1 || n_words != (hw_len - 4) / 8 || info_len != len ||
		    info_crc != crc || !info_image || info_program != want_prog) begin
			$display("load: %0d commits, %0d of %0d words, len %0d, crc %h, program %0s",
				commits, n_words, (hw_len - 4) / 8, info_len, info_crc, info_program);
			errors = errors + 1;
		end
		// refusals: none of them may commit
		c0 = commits;
		load(e);
		commit(len, crc ^ 32'h1, e);
		expect_err("wrong crc", e, 8'd5);
		commit(len - 1, crc, e);
		expect_err("wrong length", e, 8'd6);
		chunk(len + 8, 0, 16, e);
		expect_err("chunk out of order", e, 8'd6);
		img[0] = img[0] ^ 8'h20;		// the magic
		load(e);
		commit(len, image_crc(len), e);
		expect_err("broken magic", e, 8'd3);
		img[0] = img[0] ^ 8'h20;
		// HWCONF past the end: its offset, then its length
		img[hw_ent + 7] = 8'hFF;
		load(e);
		commit(len, image_crc(len), e);
		expect_err("HWCONF offset past end", e, 8'd3);
		img[hw_ent + 7] = hw_off[31:24];
		img[hw_ent + 11] = 8'h7F;
		n_words = 0;
		load(e);
		commit(len, image_crc(len), e);
		expect_err("HWCONF length past end", e, 8'd3);
		img[hw_ent + 11] = hw_len[31:24];
		if (commits != c0) begin
			$display("a refused image committed");
			errors = errors + 1;
		end
		// RESET still works, and the good image loads again
		s_type <= T_RESET;
		put(8'd0, 1'b1);
		answer(e);
		expect_err("reset", e, 8'd0);
		load(e);
		commit(len, crc, e);
		expect_err("commit again", e, 8'd0);
	end else if (MODE == 1) begin
		load(e);
		commit(len, crc, e);
		expect_err("image for another board", e, 8'd6);
		if (commits != 0) begin
			$display("an image for another board committed");
			errors = errors + 1;
		end
	end else begin
		load(e);
		expect_err("image over MAX_IMAGE", e, 8'd8);
		commit(len, crc, e);
		if (e == 8'd0 || commits != 0) begin
			$display("an image over MAX_IMAGE committed (err %0d)", e);
			errors = errors + 1;
		end
	end
	errors = errors + cfg_bad;
	done = 1'b1;
end
endmodule

module tb_pisa_loader;
reg clk = 1'b0;
always #5 clk = ~clk;
wire done0, done1, done2;
wire [31:0] err0, err1, err2;

tb_pisa_loader_case #(.MODE(0), .SEED(1)) c0 (.clk(clk), .start(1'b1), .done(done0), .errors(err0));
tb_pisa_loader_case #(.MODE(1), .SEED(2), .BOARD("icebreaker")) c1 (
	.clk(clk), .start(done0), .done(done1), .errors(err1));
tb_pisa_loader_case #(.MODE(2), .SEED(3), .MAX_IMAGE(32'd1000)) c2 (
	.clk(clk), .start(done1), .done(done2), .errors(err2));

initial begin
	#200000000;
	$display("FAILED tb_pisa_loader: timeout");
	$finish;
end

always @(posedge clk)
	if (done0 && done1 && done2) begin
		if (err0 + err1 + err2 == 0)
			$display("PASSED tb_pisa_loader (an image of %0d bytes, %0d words; 8 refusals)",
				c0.len, c0.n_words);
		else
			$display("FAILED tb_pisa_loader: %0d errors", err0 + err1 + err2);
		$finish;
	end
endmodule
`default_nettype wire
