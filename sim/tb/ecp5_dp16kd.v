// SPDX-License-Identifier: Apache-2.0
// ecp5_dp16kd: a simulation model of the ECP5's DP16KD block RAM, as far as pisa_ram_2clk uses
// it, for tb_pisa_ram_2clk (Yosys 0.23's ECP5 cell library declares DP16KD without a model).
// Written from the primitive's description in Lattice's ECP5 memory guide (TN1264), so it
// checks how pisa_ram_2clk slices a word and picks a block, not that reading of the guide:
//   port A writes, port B reads, both 9 bits (2,048 words, address AD13..AD3) or 18 bits (1,024
//   words, address AD13..AD4, AD1..AD0 the write's byte enables: AD0 bits 8..0, AD1 17..9);
//   CSDECODE "0b000" with the chip selects tied low; REGMODE_B "OUTREG": DOB is the output
//   register, loaded from the read latch where OCEB is high; the latch from the memory where
//   CEB is high. Anything else stops the simulation.
`default_nettype none

module DP16KD #(
	parameter DATA_WIDTH_A = 18,
	parameter DATA_WIDTH_B = 18,
	parameter REGMODE_A = "NOREG",
	parameter REGMODE_B = "NOREG",
	parameter RESETMODE = "SYNC",
	parameter ASYNC_RESET_RELEASE = "SYNC",
	parameter CSDECODE_A = "0b000",
	parameter CSDECODE_B = "0b000",
	parameter WRITEMODE_A = "NORMAL",
	parameter WRITEMODE_B = "NORMAL",
	parameter GSR = "ENABLED"
) (
	input wire CLKA, CEA, OCEA, RSTA, WEA, CSA2, CSA1, CSA0,
	input wire ADA13, ADA12, ADA11, ADA10, ADA9, ADA8, ADA7, ADA6, ADA5, ADA4, ADA3, ADA2,
		ADA1, ADA0,
	input wire DIA17, DIA16, DIA15, DIA14, DIA13, DIA12, DIA11, DIA10, DIA9, DIA8, DIA7, DIA6,
		DIA5, DIA4, DIA3, DIA2, DIA1, DIA0,
	input wire CLKB, CEB, OCEB, RSTB, WEB, CSB2, CSB1, CSB0,
	input wire ADB13, ADB12, ADB11, ADB10, ADB9, ADB8, ADB7, ADB6, ADB5, ADB4, ADB3, ADB2,
		ADB1, ADB0,
	input wire DIB17, DIB16, DIB15, DIB14, DIB13, DIB12, DIB11, DIB10, DIB9, DIB8, DIB7, DIB6,
		DIB5, DIB4, DIB3, DIB2, DIB1, DIB0,
	output wire DOA17, DOA16, DOA15, DOA14, DOA13, DOA12, DOA11, DOA10, DOA9, DOA8, DOA7,
		DOA6, DOA5, DOA4, DOA3, DOA2, DOA1, DOA0,
	output wire DOB17, DOB16, DOB15, DOB14, DOB13, DOB12, DOB11, DOB10, DOB9, DOB8, DOB7,
		DOB6, DOB5, DOB4, DOB3, DOB2, DOB1, DOB0
);

wire [13:0] ada = {ADA13, ADA12, ADA11, ADA10, ADA9, ADA8, ADA7, ADA6, ADA5, ADA4, ADA3, ADA2,
	ADA1, ADA0};
wire [13:0] adb = {ADB13, ADB12, ADB11, ADB10, ADB9, ADB8, ADB7, ADB6, ADB5, ADB4, ADB3, ADB2,
	ADB1, ADB0};
wire [17:0] dia = {DIA17, DIA16, DIA15, DIA14, DIA13, DIA12, DIA11, DIA10, DIA9, DIA8, DIA7,
	DIA6, DIA5, DIA4, DIA3, DIA2, DIA1, DIA0};
wire wide = DATA_WIDTH_A == 18;

// 18 Kbit; a 9-bit word w is bits 9w .. 9w+8, an 18-bit word w is the 9-bit words 2w and 2w+1
reg [8:0] mem [0:2047];
reg [17:0] latch_reg, out_reg;

initial begin
	if (!((DATA_WIDTH_A == 9 || DATA_WIDTH_A == 18) && DATA_WIDTH_B == DATA_WIDTH_A &&
		REGMODE_B == "OUTREG" && CSDECODE_A == "0b000" && CSDECODE_B == "0b000")) begin
		$display("FAILED ecp5_dp16kd: %m: a configuration the model does not have");
		$finish;
	end
end

always @(posedge CLKA)
	if (CEA && WEA && {CSA2, CSA1, CSA0} == 3'b000) begin
		if (!wide)
			mem[ada[13:3]] <= dia[8:0];
		else begin
			if (ada[0])
				mem[{ada[13:4], 1'b0}] <= dia[8:0];
			if (ada[1])
				mem[{ada[13:4], 1'b1}] <= dia[17:9];
		end
	end

always @(posedge CLKB) begin
	if (CEB)
		latch_reg <= wide ? {mem[{adb[13:4], 1'b1}], mem[{adb[13:4], 1'b0}]} :
			{9'd0, mem[adb[13:3]]};
	if (OCEB)
		out_reg <= latch_reg;
end

assign {DOB17, DOB16, DOB15, DOB14, DOB13, DOB12, DOB11, DOB10, DOB9, DOB8, DOB7, DOB6, DOB5,
	DOB4, DOB3, DOB2, DOB1, DOB0} = out_reg;
assign {DOA17, DOA16, DOA15, DOA14, DOA13, DOA12, DOA11, DOA10, DOA9, DOA8, DOA7, DOA6, DOA5,
	DOA4, DOA3, DOA2, DOA1, DOA0} = 18'bx;
wire _unused = &{1'b0, OCEA, RSTA, RSTB, WEB, CSB2, CSB1, CSB0, DIB17, DIB16, DIB15, DIB14,
	DIB13, DIB12, DIB11, DIB10, DIB9, DIB8, DIB7, DIB6, DIB5, DIB4, DIB3, DIB2, DIB1, DIB0,
	ada[2], adb[2:0], 1'b0};

endmodule

`resetall
