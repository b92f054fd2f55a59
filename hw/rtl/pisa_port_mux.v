// SPDX-License-Identifier: Apache-2.0
// pisa_port_mux: N packet streams (the MACs' rx_*) into one (pisa_switch's s_pkt_*), a whole
// packet at a time, round-robin, each packet tagged with the port it came from.
//
//   s_valid[i], s_data[8i+7:8i], s_last[i] --+
//                                            +--> m_port (PORT_BASE + i), m_data, m_last
//   (N inputs)                      grant ---+    m_valid, m_ready
//
// Arbitration: while no packet is under way, the next input with s_valid set after the one
// served last (wrapping round) is granted, one cycle before its first byte may move; the
// grant holds until the beat with s_last has moved. So packets are never interleaved, and an
// input that has a packet waiting is served after at most one packet of each other input. A
// granted input is never kept waiting for another; it can only be slow itself. The MACs hand
// out only whole, checked frames from their store-and-forward buffers, at one byte per cycle,
// so a packet holds the grant for about its length in cycles.
//
// Stream contract (every s_* input and m_*): a beat moves when valid && ready at a rising edge
// of clk; once a source raises valid it keeps it and data/last stable until ready; a source
// never waits for ready before raising valid. m_valid, m_data and m_last are the granted
// input's (combinational), so m_* keeps the contract whenever the inputs do; s_ready[i] is
// m_ready for the granted input and 0 for the others. The one-cycle grant costs one idle cycle
// per packet.
`default_nettype none

module pisa_port_mux #(
	// Inputs: >= 1.
	parameter N = 2,
	// m_port of input 0; input i is PORT_BASE + i. PORT_BASE + N - 1 must fit in PORT_W bits.
	parameter PORT_BASE = 0,
	// m_port width (9 for v1model ports).
	parameter PORT_W = 9,
	// Derived: bits of an input number.
	parameter SEL_W = N > 1 ? $clog2(N) : 1
) (
	input  wire              clk,
	input  wire              rst,

	input  wire [8*N-1:0]    s_data,
	input  wire [N-1:0]      s_last,
	input  wire [N-1:0]      s_valid,
	output wire [N-1:0]      s_ready,

	output wire [PORT_W-1:0] m_port,
	output wire [7:0]        m_data,
	output wire              m_last,
	output wire              m_valid,
	input  wire              m_ready
);

generate
	if (N < 1) begin : g_bad_n
		pisa_port_mux_error_n_must_be_at_least_1 u_stop ();
	end
	if (PORT_BASE < 0 || PORT_BASE + N > (1 << PORT_W)) begin : g_bad_port
		pisa_port_mux_error_ports_must_fit_in_port_w u_stop ();
	end
endgenerate

localparam integer N_M1 = N - 1;
localparam [SEL_W-1:0] SEL_LAST = N_M1[SEL_W-1:0];
localparam [PORT_W-1:0] BASE = PORT_BASE[PORT_W-1:0];

reg busy_reg = 1'b0, busy_next;            // an input is granted
reg [SEL_W-1:0] sel_reg = {SEL_W{1'b0}}, sel_next;  // the granted (or last granted) input

// The next input with a packet after sel_reg, round-robin.
reg pick_any;
reg [SEL_W-1:0] pick;
integer k;
reg [SEL_W-1:0] cand;
always @* begin
	pick_any = 1'b0;
	pick = sel_reg;
	cand = sel_reg;
	for (k = 0; k < N; k = k + 1) begin
		cand = cand == SEL_LAST ? {SEL_W{1'b0}} : cand + 1'b1;
		if (!pick_any && s_valid[cand]) begin
			pick_any = 1'b1;
			pick = cand;
		end
	end
end

wire [7:0] sel_data = s_data[8 * sel_reg +: 8];
assign m_valid = busy_reg && s_valid[sel_reg];
assign m_data = sel_data;
assign m_last = s_last[sel_reg];
wire [PORT_W+SEL_W-1:0] sel_ext = {{PORT_W{1'b0}}, sel_reg};
assign m_port = BASE + sel_ext[PORT_W-1:0];
wire _unused = &{1'b0, sel_ext[PORT_W+SEL_W-1:PORT_W], 1'b0};

genvar g;
generate
	for (g = 0; g < N; g = g + 1) begin : g_ready
		localparam [SEL_W-1:0] G = g;
		assign s_ready[g] = busy_reg && sel_reg == G && m_ready;
	end
endgenerate

always @* begin
	busy_next = busy_reg;
	sel_next = sel_reg;
	if (!busy_reg) begin
		if (pick_any) begin
			busy_next = 1'b1;
			sel_next = pick;
		end
	end else if (m_valid && m_ready && m_last) begin
		busy_next = 1'b0;
	end
end

always @(posedge clk) begin
	busy_reg <= busy_next;
	sel_reg <= sel_next;
	if (rst) begin
		busy_reg <= 1'b0;
		sel_reg <= SEL_LAST;
	end
end

`ifdef FORMAL
// Checked by hw/formal (N = 2 and 3): the output keeps the stream contract when the inputs do,
// packets are never interleaved, and only the granted input's beats move. The bound on waiting
// (at most one packet of each other input) is checked by tb_pisa_port_mux.
reg f_past_valid = 1'b0;
always @(posedge clk)
	f_past_valid <= 1'b1;

initial assume (rst);

integer fi;
always @(posedge clk)
	if (f_past_valid && !$past(rst))
		for (fi = 0; fi < N; fi = fi + 1)
			if ($past(s_valid[fi] && !s_ready[fi])) begin
				assume (s_valid[fi]);
				assume (s_data[8 * fi +: 8] == $past(s_data[8 * fi +: 8]));
				assume (s_last[fi] == $past(s_last[fi]));
			end

// Inside a packet (a beat without last moved): the port stays.
reg f_in_pkt = 1'b0;
reg [PORT_W-1:0] f_port;
always @(posedge clk) begin
	if (rst) begin
		f_in_pkt <= 1'b0;
	end else if (m_valid && m_ready) begin
		f_in_pkt <= !m_last;
		f_port <= m_port;
	end
end

integer fa;
always @(posedge clk) begin
	if (f_past_valid && !$past(rst) && $past(m_valid && !m_ready)) begin
		assert (m_valid);
		assert ($stable(m_data) && $stable(m_last) && $stable(m_port));
	end
	if (f_in_pkt)
		assert (busy_reg && m_port == f_port);
	assert (sel_reg <= SEL_LAST);
	for (fa = 0; fa < N; fa = fa + 1)
		if (s_ready[fa])
			assert (busy_reg && sel_reg == fa);
end

// Round-robin order: after a packet of input i the next grant goes to the first input after i
// that has one.
always @(posedge clk)
	if (f_past_valid && !$past(rst) && !$past(busy_reg) && busy_reg)
		assert (sel_reg == $past(pick));

always @(posedge clk)
	cover (f_past_valid && m_valid && m_ready && m_last && sel_reg == SEL_LAST);
`endif

endmodule

`resetall
