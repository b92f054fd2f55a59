// SPDX-License-Identifier: Apache-2.0
// tb_pisa_crc32: self-checking test of pisa_crc32: known vectors ("123456789" -> 0xCBF43926,
// CRC-32C -> 0xE3069283) and random frames of 0..64 bytes checked against a table-driven
// reference, for 8/16/32/64-bit words, both lane orders, with a randomly idle source and a
// randomly back-pressuring sink (fixed seeds).
`default_nettype none

module tb_pisa_crc32_case #(
	parameter WIDTH = 8,
	parameter [31:0] POLY = 32'h04C11DB7,
	parameter BIG_ENDIAN = 0,
	// Expected CRC of "123456789" for this POLY.
	parameter [31:0] CHECK = 32'hCBF43926,
	parameter SEED = 1,
	parameter FRAMES = 300
) (
	input  wire clk,
	output reg  done,
	output reg  [31:0] errors
);
localparam KW = WIDTH / 8;
localparam MAXLEN = 64;

reg rst = 1'b1;
reg [WIDTH-1:0] s_data;
reg [KW-1:0] s_keep;
reg s_last;
reg s_valid = 1'b0;
wire s_ready;
wire [31:0] m_crc;
wire m_valid;
reg m_ready = 1'b0;

pisa_crc32 #(.WIDTH(WIDTH), .POLY(POLY), .BIG_ENDIAN(BIG_ENDIAN)) dut (
	.clk(clk), .rst(rst),
	.s_data(s_data), .s_keep(s_keep), .s_last(s_last), .s_valid(s_valid), .s_ready(s_ready),
	.m_crc(m_crc), .m_valid(m_valid), .m_ready(m_ready)
);

// Reference: byte-at-a-time table of the reflected polynomial, built here.
reg [31:0] table_mem [0:255];
reg [31:0] rpoly;
integer seed = SEED;
integer i, j, f;
reg [31:0] c;
initial begin
	for (i = 0; i < 32; i = i + 1)
		rpoly[i] = POLY[31 - i];
	for (i = 0; i < 256; i = i + 1) begin
		c = i;
		for (j = 0; j < 8; j = j + 1)
			c = c[0] ? (c >> 1) ^ rpoly : c >> 1;
		table_mem[i] = c;
	end
end

function [31:0] ref_crc(input integer frame);
	integer n;
	reg [31:0] r;
	begin
		r = 32'hffffffff;
		for (n = 0; n < len[frame]; n = n + 1)
			r = (r >> 8) ^ table_mem[(r ^ bytes[frame * MAXLEN + n]) & 32'hff];
		ref_crc = r ^ 32'hffffffff;
	end
endfunction

reg [7:0] bytes [0:FRAMES * MAXLEN - 1];
integer len [0:FRAMES - 1];
reg [31:0] expect_crc [0:FRAMES - 1];
reg [8 * 9 - 1:0] check_str;

// Frame 0 is "123456789", frame 1 is empty, the rest random.
initial begin
	check_str = "123456789";
	len[0] = 9;
	for (i = 0; i < 9; i = i + 1)
		bytes[i] = check_str[8 * (8 - i) +: 8];
	len[1] = 0;
	for (f = 2; f < FRAMES; f = f + 1) begin
		len[f] = ($random(seed) & 32'hffff) % (MAXLEN + 1);
		for (i = 0; i < len[f]; i = i + 1)
			bytes[f * MAXLEN + i] = $random(seed);
	end
	#1;
	for (f = 0; f < FRAMES; f = f + 1)
		expect_crc[f] = ref_crc(f);
	if (expect_crc[0] !== CHECK) begin
		errors = errors + 1;
		$display("%m: reference gives %h for the check string, expected %h", expect_crc[0], CHECK);
	end
end

// Source: word w of frame f carries bytes w*KW .. w*KW+KW-1.
integer sf = 0, sw = 0, got = 0, cycles = 0, lane, b;
integer p_valid = 60, p_ready = 60;
reg was_stalled = 1'b0;
reg [31:0] stalled_crc;

task make_word;
	begin
		s_data = {WIDTH{1'bx}};
		s_keep = {KW{1'b0}};
		for (lane = 0; lane < KW; lane = lane + 1) begin
			b = sw * KW + lane;
			if (b < len[sf]) begin
				if (BIG_ENDIAN) begin
					s_data[WIDTH - 1 - 8 * lane -: 8] = bytes[sf * MAXLEN + b];
					s_keep[KW - 1 - lane] = 1'b1;
				end else begin
					s_data[8 * lane +: 8] = bytes[sf * MAXLEN + b];
					s_keep[lane] = 1'b1;
				end
			end
		end
		s_last = (sw + 1) * KW >= len[sf];
	end
endtask

initial begin
	done = 1'b0;
	errors = 0;
	repeat (3) @(posedge clk);
	rst <= 1'b0;
end

always @(posedge clk) begin
	if (!rst && !done) begin
		cycles = cycles + 1;
		if (cycles % 300 == 0) begin
			p_valid = 10 + ($random(seed) & 32'h7f) % 91;
			p_ready = 10 + ($random(seed) & 32'h7f) % 91;
		end
		if (was_stalled && (!m_valid || m_crc !== stalled_crc)) begin
			errors = errors + 1;
			$display("%m: m_valid/m_crc changed while stalled");
		end
		if (m_valid && m_ready) begin
			if (m_crc !== expect_crc[got]) begin
				errors = errors + 1;
				$display("%m: frame %0d (%0d bytes): crc %h, expected %h", got, len[got],
					m_crc, expect_crc[got]);
			end
			got = got + 1;
		end
		was_stalled = m_valid && !m_ready;
		stalled_crc = m_crc;
		if (s_valid && s_ready) begin
			if (s_last) begin
				sf = sf + 1;
				sw = 0;
			end else begin
				sw = sw + 1;
			end
		end
		if (!s_valid || s_ready) begin
			if (sf < FRAMES && ($random(seed) & 32'h7f) % 100 < p_valid) begin
				s_valid <= 1'b1;
				make_word;
			end else begin
				s_valid <= 1'b0;
			end
		end
		m_ready <= ($random(seed) & 32'h7f) % 100 < p_ready;
		if (got == FRAMES)
			done = 1'b1;
		if (cycles > 200 * FRAMES) begin
			errors = errors + 1;
			$display("%m: timeout, %0d of %0d frames", got, FRAMES);
			done = 1'b1;
		end
	end
end
endmodule

module tb_pisa_crc32;
reg clk = 1'b0;
always #5 clk = ~clk;

wire [5:0] done;
wire [31:0] e0, e1, e2, e3, e4, e5;
tb_pisa_crc32_case #(.WIDTH(8), .SEED(41)) c0 (.clk(clk), .done(done[0]), .errors(e0));
tb_pisa_crc32_case #(.WIDTH(16), .SEED(42)) c1 (.clk(clk), .done(done[1]), .errors(e1));
tb_pisa_crc32_case #(.WIDTH(32), .SEED(43)) c2 (.clk(clk), .done(done[2]), .errors(e2));
tb_pisa_crc32_case #(.WIDTH(64), .SEED(44)) c3 (.clk(clk), .done(done[3]), .errors(e3));
tb_pisa_crc32_case #(.WIDTH(32), .BIG_ENDIAN(1), .SEED(45)) c4 (.clk(clk), .done(done[4]), .errors(e4));
tb_pisa_crc32_case #(.WIDTH(16), .POLY(32'h1EDC6F41), .CHECK(32'hE3069283), .BIG_ENDIAN(1), .SEED(46))
	c5 (.clk(clk), .done(done[5]), .errors(e5));

initial begin
	wait (&done);
	if (e0 + e1 + e2 + e3 + e4 + e5 == 0)
		$display("PASSED pisa_crc32");
	else
		$display("FAILED pisa_crc32: %0d errors (see messages above)", e0 + e1 + e2 + e3 + e4 + e5);
	$finish;
end
endmodule

`resetall
