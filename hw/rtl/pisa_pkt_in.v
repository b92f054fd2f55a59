// SPDX-License-Identifier: Apache-2.0
// pisa_pkt_in: the switch's own messages to the host (docs/control-protocol.md): PACKET_IN
// (0x90) for a packet that left on the CPU port, DIGEST (0x91) for a digest. Each message is
// collected whole (its length goes in the frame header before the payload), then sent as
// one frame: header (seq: this module's own counter, type, len = 2 + n) and payload (the port
// or digest id, u16 little-endian, then the n bytes), for pisa_frame_tx through the frame mux
// of pisa_ctl_link. A message longer than MAX_PAYLOAD - 2 bytes is dropped and counted: these
// messages are best effort, and their seq lets a host see the gap.
// Inputs: two streams, packets and digests, each with its id on every beat; a whole message of
// one is taken before the other (packets first).
// Stream contract as everywhere in hw/: a word moves when valid && ready.
`default_nettype none

module pisa_pkt_in #(
	parameter MAX_PAYLOAD = 1024
) (
	input  wire         clk,
	input  wire         rst,

	input  wire [15:0]  s_pkt_port,
	input  wire [7:0]   s_pkt_data,
	input  wire         s_pkt_last,
	input  wire         s_pkt_valid,
	output wire         s_pkt_ready,
	input  wire [15:0]  s_dig_id,
	input  wire [7:0]   s_dig_data,
	input  wire         s_dig_last,
	input  wire         s_dig_valid,
	output wire         s_dig_ready,

	output reg  [15:0]  m_hdr_seq,
	output reg  [7:0]   m_hdr_type,
	output reg  [15:0]  m_hdr_len,
	output reg          m_hdr_valid,
	input  wire         m_hdr_ready,
	output wire [7:0]   m_data,
	output wire         m_last,
	output reg          m_valid,
	input  wire         m_ready,

	output reg  [15:0]  cnt_dropped,
	output wire         held	// a whole message waits or is being sent
);

localparam [7:0] T_PACKET_IN = 8'h90, T_DIGEST = 8'h91;
localparam AW = $clog2(MAX_PAYLOAD);
localparam NW = AW + 1;	// byte counts: a message's bytes and k, as wide as MAX_PAYLOAD needs
localparam [NW-1:0] ROOM = MAX_PAYLOAD[NW-1:0] - 2;
localparam [NW-1:0] N0 = 0, N1 = 1, N2 = 2;

localparam [1:0] P_IN = 0, P_HDR = 1, P_OUT = 2;
reg [1:0] st;
reg from_dig, busy, too_long;
reg [NW-1:0] n, k;	// n wraps on a long message, but too_long is set by then
reg [15:0] id, seq;
reg [7:0] buf_mem [0:(1 << AW) - 1];

// while collecting: one source, whole messages, packets first
wire take_dig = busy ? from_dig : !s_pkt_valid;
wire in_valid = take_dig ? s_dig_valid : s_pkt_valid;
wire [7:0] in_data = take_dig ? s_dig_data : s_pkt_data;
wire in_last = take_dig ? s_dig_last : s_pkt_last;
wire [15:0] in_id = take_dig ? s_dig_id : s_pkt_port;
assign held = st != P_IN;
assign s_pkt_ready = st == P_IN && !take_dig;
assign s_dig_ready = st == P_IN && take_dig;
assign m_last = k == n + N1;

always @(posedge clk) begin
	case (st)
	P_IN: if (in_valid) begin
		if (!busy) begin
			busy <= 1'b1;
			from_dig <= take_dig;
			id <= in_id;
			n <= N0;
			too_long <= 1'b0;
		end
		if ((busy ? n : N0) < ROOM)
			buf_mem[(busy ? n[AW-1:0] : {AW{1'b0}})] <= in_data;
		else
			too_long <= 1'b1;
		n <= (busy ? n : N0) + N1;
		if (in_last) begin
			busy <= 1'b0;
			if (too_long || (busy ? n : N0) >= ROOM) begin
				cnt_dropped <= cnt_dropped + 16'd1;
			end else begin
				m_hdr_seq <= seq;
				m_hdr_type <= (busy ? from_dig : take_dig) ? T_DIGEST : T_PACKET_IN;
				m_hdr_len <= {{(16 - NW){1'b0}}, busy ? n : N0} + 16'd3;
				m_hdr_valid <= 1'b1;
				st <= P_HDR;
			end
		end
	end
	P_HDR: if (m_hdr_ready) begin
		m_hdr_valid <= 1'b0;
		seq <= seq + 16'd1;
		n <= m_hdr_len[NW-1:0] - N2;	// the message's bytes
		k <= N0;
		m_valid <= 1'b1;
		st <= P_OUT;
	end
	// k counts payload bytes sent: 0, 1 the id, then the message (m_data)
	P_OUT: if (m_ready) begin
		if (m_last) begin
			m_valid <= 1'b0;
			st <= P_IN;
		end
		k <= k + N1;
	end
	default: st <= P_IN;
	endcase
	if (rst) begin
		st <= P_IN;
		busy <= 1'b0;
		m_hdr_valid <= 1'b0;
		m_valid <= 1'b0;
		seq <= 16'd0;
		cnt_dropped <= 16'd0;
	end
end

// The buffer's read port on its own (block RAM): at each byte taken it reads the one for the
// next k, message byte k + 1 - 2, which m_data shows from then until the next byte is taken.
reg [7:0] rd_q;
always @(posedge clk)
	if (st == P_OUT && m_ready)
		rd_q <= buf_mem[k[AW-1:0] - 1'b1];
assign m_data = k == N0 ? id[7:0] : k == N1 ? id[15:8] : rd_q;

endmodule
`default_nettype wire
