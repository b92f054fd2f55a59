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
	output reg  [7:0]   m_data,
	output wire         m_last,
	output reg          m_valid,
	input  wire         m_ready,

	output reg  [15:0]  cnt_dropped,
	output wire         held	// a whole message waits or is being sent
);

localparam [7:0] T_PACKET_IN = 8'h90, T_DIGEST = 8'h91;
localparam AW = $clog2(MAX_PAYLOAD);
localparam [15:0] ROOM = MAX_PAYLOAD - 2;

localparam [1:0] P_IN = 0, P_HDR = 1, P_OUT = 2;
reg [1:0] st;
reg from_dig, busy, too_long;
reg [15:0] n, k, id, seq;
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
assign m_last = k == n + 16'd1;

always @(posedge clk) begin
	case (st)
	P_IN: if (in_valid) begin
		if (!busy) begin
			busy <= 1'b1;
			from_dig <= take_dig;
			id <= in_id;
			n <= 16'd0;
			too_long <= 1'b0;
		end
		if ((busy ? n : 16'd0) < ROOM)
			buf_mem[(busy ? n[AW-1:0] : {AW{1'b0}})] <= in_data;
		else
			too_long <= 1'b1;
		n <= (busy ? n : 16'd0) + 16'd1;
		if (in_last) begin
			busy <= 1'b0;
			if (too_long || (busy ? n : 16'd0) >= ROOM) begin
				cnt_dropped <= cnt_dropped + 16'd1;
			end else begin
				m_hdr_seq <= seq;
				m_hdr_type <= (busy ? from_dig : take_dig) ? T_DIGEST : T_PACKET_IN;
				m_hdr_len <= (busy ? n : 16'd0) + 16'd3;
				m_hdr_valid <= 1'b1;
				st <= P_HDR;
			end
		end
	end
	P_HDR: if (m_hdr_ready) begin
		m_hdr_valid <= 1'b0;
		seq <= seq + 16'd1;
		n <= m_hdr_len - 16'd2;		// the message's bytes
		k <= 16'd0;
		m_data <= id[7:0];
		m_valid <= 1'b1;
		st <= P_OUT;
	end
	// k counts payload bytes sent: 0, 1 the id, then the message
	P_OUT: if (m_ready) begin
		if (m_last) begin
			m_valid <= 1'b0;
			st <= P_IN;
		end else begin
			m_data <= k == 16'd0 ? id[15:8] : buf_mem[k[AW-1:0] - 1'b1];
		end
		k <= k + 16'd1;
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

endmodule
`default_nettype wire
