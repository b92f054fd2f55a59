// SPDX-License-Identifier: Apache-2.0
// pisa_ddr_io: WIDTH DDR pins in one direction, one clock, one port meaning for every FPGA family.
//
// DIR = "in" (pin_in -> q_rise, q_fall):
//   q_rise[i] is pin_in[i] sampled at a rising edge of clk, q_fall[i] is pin_in[i] sampled at the
//   falling edge that follows it. Both change together, just after the next rising edge:
//       clk     __/~~~~\____/~~~~\____/~~~~\__
//       pin_in    < r0 >< f0 >< r1 >< f1 >
//                   ^ n   ^ n+1/2 ^ n+1
//       q_rise, q_fall                 = r0, f0 from just after edge n+1 (latency 1 cycle)
//   so logic on the rising edge of clk sees a pair in wire order, rise first.
// DIR = "out" (d_rise, d_fall -> pin_out):
//   the pair that d_rise and d_fall hold at rising edge n is driven as d_rise while clk is high
//   after edge n and d_fall while clk is low after it (until edge n+1), so the rise value goes
//   out first. Every bit has the same latency, so data and a clock forwarded through the same
//   instance (d_rise = 1, d_fall = 0) stay edge-aligned.
//
// FAMILY:
//   "sim"   behavioural flops for Icarus/Verilator (and a generic yosys netlist). Exactly the
//           timing above: output latency 0 (pin follows edge n), input latency 1.
//   "ice40" SB_IO. Input: PIN_TYPE 000000, D_IN_0 registers at the rising edge and D_IN_1 at the
//           falling edge; a fabric register pair moves both to the next rising edge (as above).
//           Output: PIN_TYPE 010000, D_OUT_0 registers at the rising edge and D_OUT_1 at the
//           falling edge; D_OUT_1 is fed from a fabric register of d_fall, otherwise the fall
//           value would leave half a cycle before its rise value. Timing as "sim".
//   "ecp5"  IDDRX1F / ODDRX1F (RST tied low). Input: as above (the primitive re-registers both
//           samples on the next rising edge itself). Output: same pair order; the primitive adds
//           its own fixed pipeline latency of whole SCLK cycles, the same for every bit.
// The vendor primitives are only instantiated inside their family's generate branch, so
// simulators and the linter never see them with FAMILY = "sim". The pins of the unused
// direction are ignored (inputs) or driven low (outputs). Delays to centre clock and data
// (RGMII-ID in the PHY, DELAYG) are the board top's business, not this module's.
`default_nettype none

module pisa_ddr_io #(
	// "sim", "ice40" or "ecp5".
	parameter [8*5-1:0] FAMILY = "sim",
	// "in" or "out".
	parameter [8*3-1:0] DIR = "in",
	// Pins (>= 1).
	parameter WIDTH = 1
) (
	input  wire             clk,
	// DIR = "in".
	input  wire [WIDTH-1:0] pin_in,
	output wire [WIDTH-1:0] q_rise,
	output wire [WIDTH-1:0] q_fall,
	// DIR = "out".
	input  wire [WIDTH-1:0] d_rise,
	input  wire [WIDTH-1:0] d_fall,
	output wire [WIDTH-1:0] pin_out
);

localparam [8*5-1:0] F_SIM = "sim", F_ICE40 = "ice40", F_ECP5 = "ecp5";
localparam [8*3-1:0] D_IN = "in", D_OUT = "out";
localparam IS_IN = DIR == D_IN;

generate
	if (FAMILY != F_SIM && FAMILY != F_ICE40 && FAMILY != F_ECP5) begin : g_bad_family
		pisa_ddr_io_error_family_must_be_sim_ice40_or_ecp5 u_stop ();
	end
	if (DIR != D_IN && DIR != D_OUT) begin : g_bad_dir
		pisa_ddr_io_error_dir_must_be_in_or_out u_stop ();
	end
	if (WIDTH < 1) begin : g_bad_width
		pisa_ddr_io_error_width_must_be_at_least_1 u_stop ();
	end
endgenerate

genvar i;
generate
	if (IS_IN) begin : g_in
		assign pin_out = {WIDTH{1'b0}};
		wire _unused_out = &{1'b0, d_rise, d_fall, 1'b0};
		if (FAMILY == F_ICE40) begin : g_ice40
			wire [WIDTH-1:0] din_0, din_1;
			reg [WIDTH-1:0] rise_reg, fall_reg;
			for (i = 0; i < WIDTH; i = i + 1) begin : g_pin
				SB_IO #(.PIN_TYPE(6'b000000)) u_io (
					.PACKAGE_PIN(pin_in[i]),
					.CLOCK_ENABLE(1'b1),
					.INPUT_CLK(clk),
					.D_IN_0(din_0[i]),
					.D_IN_1(din_1[i])
				);
			end
			always @(posedge clk) begin
				rise_reg <= din_0;
				fall_reg <= din_1;
			end
			assign q_rise = rise_reg;
			assign q_fall = fall_reg;
		end else if (FAMILY == F_ECP5) begin : g_ecp5
			for (i = 0; i < WIDTH; i = i + 1) begin : g_pin
				IDDRX1F u_iddr (
					.D(pin_in[i]), .SCLK(clk), .RST(1'b0),
					.Q0(q_rise[i]), .Q1(q_fall[i])
				);
			end
		end else begin : g_sim
			reg [WIDTH-1:0] rise_cap, fall_cap, rise_reg, fall_reg;
			always @(posedge clk)
				rise_cap <= pin_in;
			always @(negedge clk)
				fall_cap <= pin_in;
			// Both samples move to the rising edge together, as the IDDRX1F does.
			always @(posedge clk) begin
				rise_reg <= rise_cap;
				fall_reg <= fall_cap;
			end
			assign q_rise = rise_reg;
			assign q_fall = fall_reg;
		end
	end else begin : g_out
		assign q_rise = {WIDTH{1'b0}};
		assign q_fall = {WIDTH{1'b0}};
		wire _unused_in = &{1'b0, pin_in, 1'b0};
		if (FAMILY == F_ICE40) begin : g_ice40
			// D_OUT_1 is taken at the falling edge: give it the d_fall of the rising edge before.
			reg [WIDTH-1:0] fall_reg;
			always @(posedge clk)
				fall_reg <= d_fall;
			for (i = 0; i < WIDTH; i = i + 1) begin : g_pin
				SB_IO #(.PIN_TYPE(6'b010000)) u_io (
					.PACKAGE_PIN(pin_out[i]),
					.CLOCK_ENABLE(1'b1),
					.OUTPUT_CLK(clk),
					.D_OUT_0(d_rise[i]),
					.D_OUT_1(fall_reg[i])
				);
			end
		end else if (FAMILY == F_ECP5) begin : g_ecp5
			for (i = 0; i < WIDTH; i = i + 1) begin : g_pin
				ODDRX1F u_oddr (
					.D0(d_rise[i]), .D1(d_fall[i]), .SCLK(clk), .RST(1'b0),
					.Q(pin_out[i])
				);
			end
		end else begin : g_sim
			reg [WIDTH-1:0] rise_reg, fall_hold, fall_reg;
			always @(posedge clk) begin
				rise_reg <= d_rise;
				fall_hold <= d_fall;
			end
			always @(negedge clk)
				fall_reg <= fall_hold;
			assign pin_out = clk ? rise_reg : fall_reg;
		end
	end
endgenerate

endmodule

`resetall
