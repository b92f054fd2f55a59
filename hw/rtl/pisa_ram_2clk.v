// SPDX-License-Identifier: Apache-2.0
// pisa_ram_2clk: a simple dual-port block RAM with a clock per port and a registered read, for
// a read side that must run at the line's full clock (the MACs' TX frame buffers at 125 MHz).
//
// Write port (wclk): mem[waddr] <= wdata at an edge where we is high.
// Read port (rclk), two registers in a row, each with its own enable:
//   the read latch   <= mem[raddr]   at an edge where rd_en is high
//   rd_data          <= the latch    at an edge where rd_oce is high
// so with both high every cycle a word is on rd_data two edges after its address. A read of a
// word being written in the same cycle from the other clock returns undefined data.
//
// Why the second register: an ECP5 DP16KD's data output takes 5.8 ns after its clock (speed
// grade 6) without its output register, which leaves 2.2 ns of a 125 MHz cycle to reach even
// the nearest flip-flop. With FAMILY "ecp5" the DP16KDs are instantiated by hand with REGMODE
// "OUTREG" (Yosys 0.23 does not infer that register), so rd_data leaves the block RAM from its
// own output register. Every other FAMILY gets the behavioural memory below: "sim" for the
// simulators, the linter and formal, and "ice40" (SB_RAM40_4K has no output register; Yosys
// absorbs the latch into the block RAM and keeps the second register in the fabric).
//
// ECP5: one DP16KD of 2048 x 9 per 2048 words (DEPTH below 2048 still takes a whole one), the
// block chosen by the address bits above 11: its write enable on the write side, a mux on the
// read side after the output registers, from the read address delayed with the data.
// Nothing is reset: the contents after configuration are undefined.
`default_nettype none

module pisa_ram_2clk #(
	// "sim", "ice40" or "ecp5".
	parameter [8*5-1:0] FAMILY = "sim",
	// Bits per word: >= 1 (<= 9 with FAMILY "ecp5").
	parameter WIDTH = 8,
	// Words: a power of 2, >= 2.
	parameter DEPTH = 2048,
	// Address bits (derived).
	parameter AW = $clog2(DEPTH)
) (
	input  wire             wclk,
	input  wire             we,
	input  wire [AW-1:0]    waddr,
	input  wire [WIDTH-1:0] wdata,

	input  wire             rclk,
	input  wire             rd_en,
	input  wire [AW-1:0]    raddr,
	input  wire             rd_oce,
	output wire [WIDTH-1:0] rd_data
);

localparam [8*5-1:0] F_SIM = "sim", F_ICE40 = "ice40", F_ECP5 = "ecp5";

generate
	if (FAMILY != F_SIM && FAMILY != F_ICE40 && FAMILY != F_ECP5) begin : g_bad_family
		pisa_ram_2clk_error_family_must_be_sim_ice40_or_ecp5 u_stop ();
	end
	if ((1 << AW) != DEPTH || DEPTH < 2) begin : g_bad_depth
		pisa_ram_2clk_error_depth_must_be_a_power_of_2 u_stop ();
	end
	if (FAMILY == F_ECP5 && WIDTH > 9) begin : g_bad_width
		pisa_ram_2clk_error_ecp5_width_must_be_at_most_9 u_stop ();
	end

	if (FAMILY == F_ECP5) begin : g_ecp5
		localparam BLOCK_AW = 11;  // 2048 words of 9 bits
		localparam SEL_W = AW > BLOCK_AW ? AW - BLOCK_AW : 1;
		localparam BLOCKS = AW > BLOCK_AW ? 1 << SEL_W : 1;
		// word address in the block: AD13..AD3 in the 9-bit mode, AD2..AD0 unused
		wire [BLOCK_AW-1:0] wa, ra;
		wire [SEL_W-1:0] wsel, rsel;
		if (AW > BLOCK_AW) begin : g_split
			assign wa = waddr[BLOCK_AW-1:0];
			assign ra = raddr[BLOCK_AW-1:0];
			assign wsel = waddr[AW-1:BLOCK_AW];
			assign rsel = raddr[AW-1:BLOCK_AW];
		end else begin : g_one
			assign wa = {{(BLOCK_AW-AW){1'b0}}, waddr};
			assign ra = {{(BLOCK_AW-AW){1'b0}}, raddr};
			assign wsel = 1'b0;
			assign rsel = 1'b0;
		end
		wire [8:0] di = {{(9-WIDTH){1'b0}}, wdata};
		wire [9*BLOCKS-1:0] dout;
		genvar b;
		for (b = 0; b < BLOCKS; b = b + 1) begin : g_block
			wire [17:0] dob;
			assign dout[9*b +: 9] = dob[8:0];
			DP16KD #(
				.DATA_WIDTH_A(9), .DATA_WIDTH_B(9),
				.REGMODE_A("NOREG"), .REGMODE_B("OUTREG"),
				.RESETMODE("SYNC"), .ASYNC_RESET_RELEASE("SYNC"),
				.CSDECODE_A("0b000"), .CSDECODE_B("0b000"),
				.WRITEMODE_A("NORMAL"), .WRITEMODE_B("NORMAL"),
				.GSR("DISABLED")
			) u_bram (
				// port A writes (its DOA pins are left open)
				.CLKA(wclk), .CEA(1'b1), .OCEA(1'b1), .RSTA(1'b0),
				.WEA(we && wsel == b), .CSA2(1'b0), .CSA1(1'b0), .CSA0(1'b0),
				.ADA13(wa[10]), .ADA12(wa[9]), .ADA11(wa[8]), .ADA10(wa[7]), .ADA9(wa[6]),
				.ADA8(wa[5]), .ADA7(wa[4]), .ADA6(wa[3]), .ADA5(wa[2]), .ADA4(wa[1]),
				.ADA3(wa[0]), .ADA2(1'b0), .ADA1(1'b0), .ADA0(1'b0),
				.DIA17(1'b0), .DIA16(1'b0), .DIA15(1'b0), .DIA14(1'b0), .DIA13(1'b0),
				.DIA12(1'b0), .DIA11(1'b0), .DIA10(1'b0), .DIA9(1'b0),
				.DIA8(di[8]), .DIA7(di[7]), .DIA6(di[6]), .DIA5(di[5]), .DIA4(di[4]),
				.DIA3(di[3]), .DIA2(di[2]), .DIA1(di[1]), .DIA0(di[0]),
				// port B reads: CEB moves the latch, OCEB the output register
				.CLKB(rclk), .CEB(rd_en), .OCEB(rd_oce), .RSTB(1'b0),
				.WEB(1'b0), .CSB2(1'b0), .CSB1(1'b0), .CSB0(1'b0),
				.ADB13(ra[10]), .ADB12(ra[9]), .ADB11(ra[8]), .ADB10(ra[7]), .ADB9(ra[6]),
				.ADB8(ra[5]), .ADB7(ra[4]), .ADB6(ra[3]), .ADB5(ra[2]), .ADB4(ra[1]),
				.ADB3(ra[0]), .ADB2(1'b0), .ADB1(1'b0), .ADB0(1'b0),
				.DIB17(1'b0), .DIB16(1'b0), .DIB15(1'b0), .DIB14(1'b0), .DIB13(1'b0),
				.DIB12(1'b0), .DIB11(1'b0), .DIB10(1'b0), .DIB9(1'b0), .DIB8(1'b0),
				.DIB7(1'b0), .DIB6(1'b0), .DIB5(1'b0), .DIB4(1'b0), .DIB3(1'b0), .DIB2(1'b0),
				.DIB1(1'b0), .DIB0(1'b0),
				.DOB17(dob[17]), .DOB16(dob[16]), .DOB15(dob[15]), .DOB14(dob[14]),
				.DOB13(dob[13]), .DOB12(dob[12]), .DOB11(dob[11]), .DOB10(dob[10]),
				.DOB9(dob[9]), .DOB8(dob[8]), .DOB7(dob[7]), .DOB6(dob[6]), .DOB5(dob[5]),
				.DOB4(dob[4]), .DOB3(dob[3]), .DOB2(dob[2]), .DOB1(dob[1]), .DOB0(dob[0])
			);
		end
		// the block whose word is on the output registers: the read address's upper bits
		// through the same two enables
		reg [SEL_W-1:0] sel1_reg = {SEL_W{1'b0}}, sel2_reg = {SEL_W{1'b0}};
		always @(posedge rclk) begin
			if (rd_en)
				sel1_reg <= rsel;
			if (rd_oce)
				sel2_reg <= sel1_reg;
		end
		wire [8:0] word = dout[9*sel2_reg +: 9];
		assign rd_data = word[WIDTH-1:0];
		wire _unused = &{1'b0, word, 1'b0};
	end else begin : g_behavioural
		reg [WIDTH-1:0] mem [0:DEPTH-1];
		reg [WIDTH-1:0] latch_reg, out_reg;
		always @(posedge wclk)
			if (we)
				mem[waddr] <= wdata;
		always @(posedge rclk) begin
			if (rd_en)
				latch_reg <= mem[raddr];
			if (rd_oce)
				out_reg <= latch_reg;
		end
		assign rd_data = out_reg;
	end
endgenerate

endmodule

`resetall
