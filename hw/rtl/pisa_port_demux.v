// SPDX-License-Identifier: Apache-2.0
// pisa_port_demux: one packet stream with a port number (pisa_switch's m_pkt_*) out to N packet
// streams (the MACs' tx_*), a whole packet at a time; packets to ports that do not exist here
// are dropped and counted.
//
//   s_port, s_data, s_last, s_valid, s_ready --+--> m_valid[i], m_data, m_last[i] (i = port - PORT_BASE)
//                                              +--> dropped (port outside PORT_BASE .. +N-1)
//
// The port is read from the packet's first beat and held for the rest of it, so a source may
// change s_port after the first beat. A packet for output i waits for m_ready[i] (the MAC's TX
// buffer); packets behind it wait too (one input stream: head-of-line blocking, bounded by the
// TX buffer's space, which holds at least one whole frame). A packet for a port outside the
// range is taken at one beat per cycle and thrown away; drops counts such packets (wraps at
// 2^CNT_W).
//
// Stream contract (s_* and every m_* output): a beat moves when valid && ready at a rising edge
// of clk; once a source raises valid it keeps it and data/last stable until ready; a source
// never waits for ready before raising valid. m_* are combinational from s_* (no added latency);
// they keep the contract whenever s_* does. Checked by tb_pisa_port_demux (random ports in and
// out of range, random idle source, back-pressuring outputs).
`default_nettype none

module pisa_port_demux #(
	// Outputs: >= 1.
	parameter N = 2,
	// The port number of output 0; output i is port PORT_BASE + i.
	parameter PORT_BASE = 0,
	// s_port width.
	parameter PORT_W = 16,
	// Drop counter width.
	parameter CNT_W = 32,
	// Derived: bits of an output number.
	parameter SEL_W = N > 1 ? $clog2(N) : 1
) (
	input  wire              clk,
	input  wire              rst,

	input  wire [PORT_W-1:0] s_port,
	input  wire [7:0]        s_data,
	input  wire              s_last,
	input  wire              s_valid,
	output wire              s_ready,

	output wire [7:0]        m_data,
	output wire [N-1:0]      m_last,
	output wire [N-1:0]      m_valid,
	input  wire [N-1:0]      m_ready,

	output wire [CNT_W-1:0]  drops
);

generate
	if (N < 1) begin : g_bad_n
		pisa_port_demux_error_n_must_be_at_least_1 u_stop ();
	end
	if (PORT_BASE < 0 || PORT_BASE + N > (1 << PORT_W)) begin : g_bad_port
		pisa_port_demux_error_ports_must_fit_in_port_w u_stop ();
	end
endgenerate

localparam [PORT_W:0] BASE = PORT_BASE[PORT_W:0];
localparam [PORT_W:0] OUTS = N[PORT_W:0];

reg in_pkt_reg = 1'b0, in_pkt_next;        // a beat without last moved: the port is held
reg [SEL_W-1:0] dst_reg = {SEL_W{1'b0}}, dst_next;
reg drop_reg = 1'b0, drop_next;
reg [CNT_W-1:0] drops_reg = {CNT_W{1'b0}}, drops_next;

// The first beat's destination.
wire [PORT_W:0] port_ext = {1'b0, s_port};
wire [PORT_W:0] rel = port_ext - BASE;    // below PORT_BASE: wraps to >= 2^PORT_W
wire first_drop = rel >= OUTS;
wire [SEL_W-1:0] first_dst = rel[SEL_W-1:0];
wire _unused = &{1'b0, rel[PORT_W:SEL_W], 1'b0};

wire [SEL_W-1:0] dst = in_pkt_reg ? dst_reg : first_dst;
wire drop = in_pkt_reg ? drop_reg : first_drop;

assign s_ready = drop || m_ready[dst];
assign m_data = s_data;

genvar g;
generate
	for (g = 0; g < N; g = g + 1) begin : g_out
		localparam [SEL_W-1:0] G = g;
		assign m_valid[g] = s_valid && !drop && dst == G;
		assign m_last[g] = s_last;
	end
endgenerate

always @* begin
	in_pkt_next = in_pkt_reg;
	dst_next = dst_reg;
	drop_next = drop_reg;
	drops_next = drops_reg;
	if (s_valid && s_ready) begin
		in_pkt_next = !s_last;
		dst_next = dst;
		drop_next = drop;
		if (drop && !in_pkt_reg)
			drops_next = drops_reg + 1'b1;
	end
end

always @(posedge clk) begin
	in_pkt_reg <= in_pkt_next;
	dst_reg <= dst_next;
	drop_reg <= drop_next;
	drops_reg <= drops_next;
	if (rst) begin
		in_pkt_reg <= 1'b0;
		drop_reg <= 1'b0;
		drops_reg <= {CNT_W{1'b0}};
	end
end

assign drops = drops_reg;


endmodule

`resetall
