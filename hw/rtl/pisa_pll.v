// SPDX-License-Identifier: Apache-2.0
// pisa_pll: a board's PLL, one port meaning for every FPGA family: clk_in (the board's
// oscillator) to clk_out0 (the core clock) and, on ECP5, clk_out1; locked when they are stable.
//
// FAMILY:
//   "ice40" SB_PLL40_PAD (ICE40_PAD = 1: clk_in is the pin next to the PLL, as on the UP5K's
//           pin 35) or SB_PLL40_CORE (ICE40_PAD = 0: clk_in from any global net), simple feedback: clk_out0 = clk_in * (DIVF + 1) /
//           (2^DIVQ * (DIVR + 1)); the four values are what `icepll -i IN -o OUT` prints (the
//           boards' Makefile computes them from the board's CORE_MHZ). clk_out1 = clk_out0.
//   "ecp5"  EHXPLLL, feedback from CLKOP: VCO = clk_in * CLKFB_DIV / CLKI_DIV; clk_out1 = CLKOP
//           = VCO / CLKOP_DIV (the RGMII 125 MHz), clk_out0 = CLKOS = VCO / CLKOS_DIV (the core);
//           the values are what `ecppll` prints (boards/colorlight-5a-75b/board.mk).
//   "sim"   for Icarus and Verilator: clk_out0 and clk_out1 are clk_in (the board-level
//           testbench drives the oscillator pin at the core clock's frequency), locked rises
//           after 16 edges of clk_in.
// The vendor primitives are instantiated only inside their family's branch.
`default_nettype none

module pisa_pll #(
	// "sim", "ice40" or "ecp5".
	parameter [8*5-1:0] FAMILY = "sim",
	// iCE40: 1 when clk_in is the PLL's own pad (SB_PLL40_PAD), 0 for SB_PLL40_CORE.
	parameter ICE40_PAD = 0,
	// iCE40 (icepll's output).
	parameter [3:0] DIVR = 4'd0,
	parameter [6:0] DIVF = 7'd0,
	parameter [2:0] DIVQ = 3'd0,
	parameter [2:0] FILTER_RANGE = 3'd1,
	// ECP5 (ecppll's output; 0-degree phases are the divider minus one).
	parameter CLKI_DIV = 1,
	parameter CLKFB_DIV = 5,
	parameter CLKOP_DIV = 5,
	parameter CLKOS_DIV = 5
) (
	input  wire clk_in,
	output wire clk_out0,
	output wire clk_out1,
	output wire locked
);

localparam [8*5-1:0] F_SIM = "sim", F_ICE40 = "ice40", F_ECP5 = "ecp5";

generate
	if (FAMILY != F_SIM && FAMILY != F_ICE40 && FAMILY != F_ECP5) begin : g_bad_family
		pisa_pll_error_family_must_be_sim_ice40_or_ecp5 u_stop ();
	end
	if (FAMILY == F_ICE40) begin : g_ice40
		wire out;
		if (ICE40_PAD != 0) begin : g_pad
			SB_PLL40_PAD #(
				.FEEDBACK_PATH("SIMPLE"),
				.DIVR(DIVR), .DIVF(DIVF), .DIVQ(DIVQ), .FILTER_RANGE(FILTER_RANGE)
			) u_pll (
				.PACKAGEPIN(clk_in), .PLLOUTGLOBAL(out), .LOCK(locked),
				.RESETB(1'b1), .BYPASS(1'b0)
			);
		end else begin : g_core
			SB_PLL40_CORE #(
				.FEEDBACK_PATH("SIMPLE"),
				.DIVR(DIVR), .DIVF(DIVF), .DIVQ(DIVQ), .FILTER_RANGE(FILTER_RANGE)
			) u_pll (
				.REFERENCECLK(clk_in), .PLLOUTGLOBAL(out), .LOCK(locked),
				.RESETB(1'b1), .BYPASS(1'b0)
			);
		end
		assign clk_out0 = out;
		assign clk_out1 = out;
	end else if (FAMILY == F_ECP5) begin : g_ecp5
		wire op, os;
		(* FREQUENCY_PIN_CLKI = "25" *)
		EHXPLLL #(
			.PLLRST_ENA("DISABLED"), .INTFB_WAKE("DISABLED"), .STDBY_ENABLE("DISABLED"),
			.DPHASE_SOURCE("DISABLED"), .OUTDIVIDER_MUXA("DIVA"), .OUTDIVIDER_MUXB("DIVB"),
			.CLKOP_ENABLE("ENABLED"), .CLKOS_ENABLE("ENABLED"),
			.CLKI_DIV(CLKI_DIV), .CLKFB_DIV(CLKFB_DIV), .FEEDBK_PATH("CLKOP"),
			.CLKOP_DIV(CLKOP_DIV), .CLKOP_CPHASE(CLKOP_DIV - 1), .CLKOP_FPHASE(0),
			.CLKOS_DIV(CLKOS_DIV), .CLKOS_CPHASE(CLKOS_DIV - 1), .CLKOS_FPHASE(0)
		) u_pll (
			.CLKI(clk_in), .CLKFB(op), .CLKOP(op), .CLKOS(os), .LOCK(locked),
			.RST(1'b0), .STDBY(1'b0), .PHASESEL0(1'b0), .PHASESEL1(1'b0), .PHASEDIR(1'b1),
			.PHASESTEP(1'b1), .PHASELOADREG(1'b1), .PLLWAKESYNC(1'b0), .ENCLKOP(1'b0)
		);
		assign clk_out0 = os;
		assign clk_out1 = op;
	end else begin : g_sim
		reg [4:0] n = 5'd0;
		always @(posedge clk_in)
			if (!n[4])
				n <= n + 5'd1;
		assign clk_out0 = clk_in;
		assign clk_out1 = clk_in;
		assign locked = n[4];
	end
endgenerate

endmodule

`resetall
