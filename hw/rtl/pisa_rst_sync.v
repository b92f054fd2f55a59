// SPDX-License-Identifier: Apache-2.0
// pisa_rst_sync: a reset synchronizer for a board top: rst_out (active high, synchronous to clk)
// rises as soon as rst_in does (asynchronously) and falls STAGES edges of clk after rst_in fell,
// so every domain leaves reset on its own clock edge. One per clock domain; the board tops
// hold rst_in until the PLL locked.
`default_nettype none

module pisa_rst_sync #(
	// Flip-flops: >= 2. The MACs' crossings want their resets held SYNC_STAGES + 1 edges; 4
	// covers SYNC_STAGES up to 3.
	parameter STAGES = 4
) (
	input  wire clk,
	input  wire rst_in,
	output wire rst_out
);

generate
	if (STAGES < 2) begin : g_bad_stages
		pisa_rst_sync_error_stages_must_be_at_least_2 u_stop ();
	end
endgenerate

(* async_reg = "true" *)
reg [STAGES-1:0] sync_reg = {STAGES{1'b1}};
always @(posedge clk or posedge rst_in)
	if (rst_in)
		sync_reg <= {STAGES{1'b1}};
	else
		sync_reg <= {sync_reg[STAGES-2:0], 1'b0};
assign rst_out = sync_reg[STAGES-1];

endmodule

`resetall
