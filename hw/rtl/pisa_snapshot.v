// SPDX-License-Identifier: Apache-2.0
// pisa_snapshot: a consistent copy of W bits that change in another clock domain (a MAC's
// counters in its line clock), taken on request from clk.
//
//   clk:     req (one cycle) --toggle--> SYNC_STAGES flip-flops --> src_clk
//   src_clk: src_data copied into snap, the toggle sent back --> SYNC_STAGES flip-flops --> clk
//   clk:     busy low again: snap holds src_data as it was at one src_clk edge
//
// Only the two toggles cross; snap itself changes only at a request's copy and is read (in clk)
// once busy fell, so it stands still for more than SYNC_STAGES edges of either clock around every
// read: a false path (or max-delay of one period) for the board's timing, like pisa_mac_rxbuf's
// held read pointer. A req while busy is ignored. All of src_data is copied at one edge, so
// counters read together are consistent with each other.
//
// Reset: rst (sync to clk) and src_rst (sync to src_clk) must overlap, each held for at least
// SYNC_STAGES + 1 edges of its own clock, so that both toggles and their synchronizers hold zero
// together.
`default_nettype none

module pisa_snapshot #(
	// Bits copied.
	parameter W = 16,
	// Synchronizer flip-flops per toggle: >= 2.
	parameter SYNC_STAGES = 2
) (
	input  wire         clk,
	input  wire         rst,
	input  wire         req,
	output wire         busy,
	output wire [W-1:0] snap,

	input  wire         src_clk,
	input  wire         src_rst,
	input  wire [W-1:0] src_data
);

generate
	if (SYNC_STAGES < 2) begin : g_bad_sync
		pisa_snapshot_error_sync_stages_must_be_at_least_2 u_stop ();
	end
endgenerate

reg req_t = 1'b0;                          // clk: a request, as a toggle
reg ack_t = 1'b0;                          // src_clk: the last request copied, echoed back
(* async_reg = "true" *)
reg [SYNC_STAGES-1:0] ack_sync_reg = {SYNC_STAGES{1'b0}};
(* async_reg = "true" *)
reg [SYNC_STAGES-1:0] req_sync_reg = {SYNC_STAGES{1'b0}};
reg [W-1:0] snap_reg = {W{1'b0}};

// clk side
assign busy = req_t != ack_sync_reg[SYNC_STAGES-1];

always @(posedge clk) begin
	ack_sync_reg <= {ack_sync_reg[SYNC_STAGES-2:0], ack_t};
	if (req && !busy)
		req_t <= !req_t;
	if (rst) begin
		req_t <= 1'b0;
		ack_sync_reg <= {SYNC_STAGES{1'b0}};
	end
end

// src_clk side: a new request toggle copies src_data and is echoed back
assign snap = snap_reg;

always @(posedge src_clk) begin
	req_sync_reg <= {req_sync_reg[SYNC_STAGES-2:0], req_t};
	if (req_sync_reg[SYNC_STAGES-1] != ack_t) begin
		snap_reg <= src_data;
		ack_t <= req_sync_reg[SYNC_STAGES-1];
	end
	if (src_rst) begin
		req_sync_reg <= {SYNC_STAGES{1'b0}};
		ack_t <= 1'b0;
	end
end

endmodule

`resetall
