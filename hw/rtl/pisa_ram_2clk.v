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
// ECP5: the word is cut into slices of 18 bits, each a DP16KD of 1,024 words, or, for a DEPTH
// above 1,024 (or a WIDTH of at most 9), of 9 bits in 2,048 words: the mode that takes fewer
// blocks. A DEPTH above a block's words takes blocks side by side in depth too, the one written
// chosen by the address bits above by its write enable, the one read by a mux after the output
// registers, from the read address delayed with the data. A DEPTH below a block's words still
// takes a whole one.
// Nothing is reset: the contents after configuration are undefined.
`default_nettype none

module pisa_ram_2clk #(
	// "sim", "ice40" or "ecp5".
	parameter [8*5-1:0] FAMILY = "sim",
	// Bits per word: >= 1.
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

	if (FAMILY == F_ECP5) begin : g_ecp5
		// 2048 words of 9 bits or 1024 of 18: the address's low bits sit at AD3 or AD4, and in
		// the 18-bit mode AD1..AD0 are the write port's byte enables
		localparam DW = WIDTH <= 9 || DEPTH > 1024 ? 9 : 18;
		localparam BLOCK_AW = DW == 18 ? 10 : 11;
		localparam SLICES = (WIDTH + DW - 1) / DW;
		localparam SEL_W = AW > BLOCK_AW ? AW - BLOCK_AW : 1;
		localparam BLOCKS = AW > BLOCK_AW ? 1 << SEL_W : 1;
		localparam ROW_W = DW * SLICES;		// a word as the blocks hold it
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
		wire [13:0] ada = DW == 18 ? {wa, 4'b0011} : {wa, 3'b000};
		wire [13:0] adb = DW == 18 ? {ra, 4'b0000} : {ra, 3'b000};
		wire [ROW_W+17:0] di = {18'd0, wdata};	// wdata, zeros above
		wire [ROW_W*BLOCKS-1:0] dout;		// block b's word at ROW_W*b
		genvar b, s;
		for (b = 0; b < BLOCKS; b = b + 1) begin : g_block
			for (s = 0; s < SLICES; s = s + 1) begin : g_slice
				wire [17:0] dia = di[DW*s +: 18];	// the slice, then bits the mode ignores
				wire [17:0] dob;
				assign dout[ROW_W*b + DW*s +: DW] = dob[DW-1:0];
				DP16KD #(
					.DATA_WIDTH_A(DW), .DATA_WIDTH_B(DW),
					.REGMODE_A("NOREG"), .REGMODE_B("OUTREG"),
					.RESETMODE("SYNC"), .ASYNC_RESET_RELEASE("SYNC"),
					.CSDECODE_A("0b000"), .CSDECODE_B("0b000"),
					.WRITEMODE_A("NORMAL"), .WRITEMODE_B("NORMAL"),
					.GSR("DISABLED")
				) u_bram (
					// port A writes (its DOA pins are left open)
					.CLKA(wclk), .CEA(1'b1), .OCEA(1'b1), .RSTA(1'b0),
					.WEA(we && wsel == b), .CSA2(1'b0), .CSA1(1'b0), .CSA0(1'b0),
					.ADA13(ada[13]), .ADA12(ada[12]), .ADA11(ada[11]), .ADA10(ada[10]),
					.ADA9(ada[9]), .ADA8(ada[8]), .ADA7(ada[7]), .ADA6(ada[6]),
					.ADA5(ada[5]), .ADA4(ada[4]), .ADA3(ada[3]), .ADA2(ada[2]),
					.ADA1(ada[1]), .ADA0(ada[0]),
					.DIA17(dia[17]), .DIA16(dia[16]), .DIA15(dia[15]), .DIA14(dia[14]),
					.DIA13(dia[13]), .DIA12(dia[12]), .DIA11(dia[11]), .DIA10(dia[10]),
					.DIA9(dia[9]), .DIA8(dia[8]), .DIA7(dia[7]), .DIA6(dia[6]),
					.DIA5(dia[5]), .DIA4(dia[4]), .DIA3(dia[3]), .DIA2(dia[2]),
					.DIA1(dia[1]), .DIA0(dia[0]),
					// port B reads: CEB moves the latch, OCEB the output register
					.CLKB(rclk), .CEB(rd_en), .OCEB(rd_oce), .RSTB(1'b0),
					.WEB(1'b0), .CSB2(1'b0), .CSB1(1'b0), .CSB0(1'b0),
					.ADB13(adb[13]), .ADB12(adb[12]), .ADB11(adb[11]), .ADB10(adb[10]),
					.ADB9(adb[9]), .ADB8(adb[8]), .ADB7(adb[7]), .ADB6(adb[6]),
					.ADB5(adb[5]), .ADB4(adb[4]), .ADB3(adb[3]), .ADB2(adb[2]),
					.ADB1(adb[1]), .ADB0(adb[0]),
					.DIB17(1'b0), .DIB16(1'b0), .DIB15(1'b0), .DIB14(1'b0),
					.DIB13(1'b0), .DIB12(1'b0), .DIB11(1'b0), .DIB10(1'b0), .DIB9(1'b0),
					.DIB8(1'b0), .DIB7(1'b0), .DIB6(1'b0), .DIB5(1'b0), .DIB4(1'b0),
					.DIB3(1'b0), .DIB2(1'b0), .DIB1(1'b0), .DIB0(1'b0),
					.DOB17(dob[17]), .DOB16(dob[16]), .DOB15(dob[15]), .DOB14(dob[14]),
					.DOB13(dob[13]), .DOB12(dob[12]), .DOB11(dob[11]), .DOB10(dob[10]),
					.DOB9(dob[9]), .DOB8(dob[8]), .DOB7(dob[7]), .DOB6(dob[6]),
					.DOB5(dob[5]), .DOB4(dob[4]), .DOB3(dob[3]), .DOB2(dob[2]),
					.DOB1(dob[1]), .DOB0(dob[0])
				);
			end
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
		wire [ROW_W-1:0] word = dout[ROW_W*sel2_reg +: ROW_W];
		assign rd_data = word[WIDTH-1:0];
		wire _unused = &{1'b0, word, di, 1'b0};
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
