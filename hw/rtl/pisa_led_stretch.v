// SPDX-License-Identifier: Apache-2.0
// pisa_led_stretch: single-cycle activity strobes made long enough to see on LEDs.
//
// Time runs in windows of 2^TICK_W cycles of clk (a free-running counter). show[i] is high for
// the whole window after one in which act[i] was high in at least one cycle, low after a window
// without it: so a lone strobe lights its LED for one window (~70 ms for TICK_W = 21 at 30 MHz),
// starting at most one window late, and steady traffic keeps it lit.
//
//   window   |<------ k ------>|<----- k+1 ----->|<----- k+2 ----->|
//   act[i]   ___/\___________________________________________________
//   show[i]  __________________/~~~~~~~~~~~~~~~~~\___________________
//
// Reset (rst, synchronous) clears what was seen and what is shown; the window counter runs on
// through it (not reset: it holds no state that matters).
`default_nettype none

module pisa_led_stretch #(
	// Strobes (and LEDs): >= 1.
	parameter N = 4,
	// A window is 2^TICK_W cycles of clk: >= 1.
	parameter TICK_W = 21
) (
	input  wire         clk,
	input  wire         rst,

	input  wire [N-1:0] act,
	output wire [N-1:0] show
);

generate
	if (N < 1) begin : g_bad_n
		pisa_led_stretch_error_n_must_be_at_least_1 u_stop ();
	end
	if (TICK_W < 1) begin : g_bad_tick_w
		pisa_led_stretch_error_tick_w_must_be_at_least_1 u_stop ();
	end
endgenerate

reg [TICK_W-1:0] tick_reg = {TICK_W{1'b0}}, tick_next;
reg [N-1:0] seen_reg = {N{1'b0}}, seen_next;  // act so far in this window
reg [N-1:0] show_reg = {N{1'b0}}, show_next;  // act in the last window

always @* begin
	tick_next = tick_reg + 1'b1;
	seen_next = seen_reg | act;
	show_next = show_reg;
	if (&tick_reg) begin
		// the window's last cycle
		show_next = seen_reg | act;
		seen_next = {N{1'b0}};
	end
end

always @(posedge clk) begin
	tick_reg <= tick_next;
	seen_reg <= seen_next;
	show_reg <= show_next;
	if (rst) begin
		seen_reg <= {N{1'b0}};
		show_reg <= {N{1'b0}};
	end
end

assign show = show_reg;

endmodule

`resetall
