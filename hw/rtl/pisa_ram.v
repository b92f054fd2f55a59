// SPDX-License-Identifier: Apache-2.0
// pisa_ram: a simple dual-port memory for block RAM: one synchronous write port and one read
// port whose address comes straight from a register of the caller.
//
// The read is written as asynchronous (rdata follows raddr), but raddr must be driven by a
// flip-flop (the caller's read-address register, with or without an enable): Yosys then
// absorbs that register into a synchronous block-RAM read port (SB_RAM40_4K, DP16KD), so a
// read costs one clock: set the address register at one edge, use rdata in the next cycle.
// A write issued at an edge (we, waddr, wdata sampled there) is seen by every read whose
// address is set at that edge or later; Yosys keeps that order (transparent port) on the
// device. Nothing is reset: the contents after configuration are undefined.
`default_nettype none

module pisa_ram #(
	parameter WIDTH = 8,		// bits per word, >= 1
	parameter DEPTH = 512,		// words, >= 2
	parameter AW = $clog2(DEPTH)	// address bits (derived)
) (
	input  wire             clk,
	input  wire             we,
	input  wire [AW-1:0]    waddr,
	input  wire [WIDTH-1:0] wdata,
	input  wire [AW-1:0]    raddr,
	output wire [WIDTH-1:0] rdata
);

reg [WIDTH-1:0] mem [0:DEPTH-1];

always @(posedge clk)
	if (we)
		mem[waddr] <= wdata;

assign rdata = mem[raddr];

endmodule

`resetall
