// SPDX-License-Identifier: Apache-2.0
// pisa_ctl_eth: the control link over Ethernet management frames (docs/control-protocol.md,
// "Ethernet"), for boards without a USB UART (the Colorlight): sits between a port's MAC and
// the switch, takes the management frames out of the port's receive stream into the control
// link's byte input (pisa_ctl_link PHY "byte") and sends the link's replies as Ethernet frames
// merged into the port's transmit stream.
//
//   MAC rx  s_rx_* ---> [classify: dst, EtherType] --- other frames ---> m_rx_*  switch port in
//                                                  \-- management ----> m_ctl_* link bytes in
//   MAC tx  m_tx_* <--- [whole frames, replies first] <-- s_tx_* <----- switch port out
//                                                     <-- header + s_ctl_* (link bytes out)
//
// A management frame (no VLAN tag; the MAC strips the FCS and drops bad frames):
//
//    offset size field
//    0      6    destination  MAC, or ff:ff:ff:ff:ff:ff
//    6      6    source       the host; replies go back to the last one seen
//    12     2    EtherType    ETHERTYPE (0x88B5, IEEE 802 local experimental), big-endian
//    14     n    payload      one protocol frame (12 + len bytes), then the MAC's zero padding
//
// Frames with another EtherType or destination pass to m_rx_* unchanged. Of a management
// frame's payload only the protocol frame goes to the link: 12 + len bytes, len from payload
// bytes 2..3, so the padding of short frames never reaches the frame decoder. A reply leaves
// as destination (the host last seen, broadcast before any), source MAC, EtherType, then one
// protocol frame from s_ctl_* (s_ctl_last on its last byte); the MAC pads it to 60 bytes.
// The switch's frames and the replies share m_tx_* a whole frame at a time, replies first.
// The first 14 bytes of every received frame wait in a small FIFO until the frame is
// classified; frames are at least 60 bytes (the MAC drops runts).
// Counters (wrap): management frames received (cnt_ctl_rx) and sent (cnt_ctl_tx).
// Stream contract (all ports): a word moves when valid && ready at a rising clock edge; once a
// source raises valid it keeps valid high and its data stable until ready; a source never
// waits for ready before raising valid.
`default_nettype none

module pisa_ctl_eth #(
	// The EtherType of management frames.
	parameter [15:0] ETHERTYPE = 16'h88B5,
	// The board's own MAC address: replies come from it, frames to it (or broadcast) are taken.
	parameter [47:0] MAC = 48'h02_50_49_53_41_01,
	// Width of cnt_ctl_rx / cnt_ctl_tx, >= 1.
	parameter CNT_W = 16
) (
	input  wire             clk,
	input  wire             rst,

	// From the port's MAC (whole good frames, no FCS).
	input  wire [7:0]       s_rx_data,
	input  wire             s_rx_last,
	input  wire             s_rx_valid,
	output wire             s_rx_ready,
	// The other frames, on to the switch.
	output wire [7:0]       m_rx_data,
	output wire             m_rx_last,
	output wire             m_rx_valid,
	input  wire             m_rx_ready,
	// Management payload bytes to the control link (pisa_ctl_link s_byte_*).
	output wire [7:0]       m_ctl_data,
	output wire             m_ctl_valid,
	input  wire             m_ctl_ready,

	// The control link's bytes out (pisa_ctl_link m_byte_*; last: a protocol frame's last).
	input  wire [7:0]       s_ctl_data,
	input  wire             s_ctl_last,
	input  wire             s_ctl_valid,
	output wire             s_ctl_ready,
	// The switch's frames for this port.
	input  wire [7:0]       s_tx_data,
	input  wire             s_tx_last,
	input  wire             s_tx_valid,
	output wire             s_tx_ready,
	// To the port's MAC.
	output wire [7:0]       m_tx_data,
	output wire             m_tx_last,
	output wire             m_tx_valid,
	input  wire             m_tx_ready,

	output wire [CNT_W-1:0] cnt_ctl_rx,
	output wire [CNT_W-1:0] cnt_ctl_tx
);

generate
	if (CNT_W < 1) begin : g_bad_cnt
		pisa_ctl_eth_error_cnt_w_must_be_at_least_1 u_stop ();
	end
endgenerate

// ---- receive: classify at the input, route at the FIFO's output ----
// in_pos: byte of the current input frame (saturates at 14). The classification of a frame is
// ready once its byte 13 went in (or its last, for a frame too short to be management) and is
// taken by the output side at the frame's start; one at a time: the input waits at byte 13
// while the previous frame's is still in use.
reg [3:0] in_pos = 4'd0;
reg in_mine, in_bcast, in_type_hi;	// destination bytes so far: ours, broadcast
reg [47:0] in_src;
reg dec_valid = 1'b0, dec_ctl;
reg [47:0] dec_src;

wire [8:0] q_data;
wire [4:0] q_count;
wire q_in_ready, q_valid;
reg q_ready;
wire in_decide = in_pos == 4'd13 || (in_pos < 4'd13 && s_rx_last);
assign s_rx_ready = q_in_ready && !(in_decide && dec_valid);
wire in_go = s_rx_valid && s_rx_ready;

pisa_fifo #(.WIDTH(9), .DEPTH(16), .RAM_STYLE("logic")) u_hdr (
	.clk(clk), .rst(rst),
	.s_data({s_rx_last, s_rx_data}), .s_valid(s_rx_valid && !(in_decide && dec_valid)),
	.s_ready(q_in_ready),
	.m_data(q_data), .m_valid(q_valid), .m_ready(q_ready),
	.count(q_count)
);
wire _unused_q = &{1'b0, q_count, 1'b0};

// our address's byte in_pos (0 .. 5)
reg [7:0] mac_byte;
always @* begin
	case (in_pos[2:0])
	3'd0: mac_byte = MAC[47:40];
	3'd1: mac_byte = MAC[39:32];
	3'd2: mac_byte = MAC[31:24];
	3'd3: mac_byte = MAC[23:16];
	3'd4: mac_byte = MAC[15:8];
	default: mac_byte = MAC[7:0];
	endcase
end

// ---- output side ----
localparam [1:0] O_START = 2'd0, O_DATA = 2'd1, O_CTL = 2'd2;
reg [1:0] o_state = O_START;
reg [15:0] o_pos;        // byte of the frame (management: from its payload on, after 14)
reg [15:0] o_end;        // management: payload bytes that are the protocol frame
reg o_hdr;               // management: still in the Ethernet header
reg [7:0] o_len_lo;      // management: the protocol frame's len, low byte
reg [47:0] host = 48'hFFFF_FFFF_FFFF;
reg [CNT_W-1:0] ctl_rx = {CNT_W{1'b0}};

wire o_last = q_data[8];
wire [7:0] o_byte = q_data[7:0];
wire o_fwd = o_state == O_CTL && !o_hdr && o_pos < o_end;	// a protocol-frame byte
assign m_rx_data = o_byte;
assign m_rx_last = o_last;
assign m_rx_valid = q_valid && o_state == O_DATA;
assign m_ctl_data = o_byte;
assign m_ctl_valid = q_valid && o_fwd;
always @* begin
	case (o_state)
	O_DATA: q_ready = m_rx_ready;
	O_CTL: q_ready = o_fwd ? m_ctl_ready : 1'b1;
	default: q_ready = 1'b0;
	endcase
end

always @(posedge clk) begin
	// input side
	if (in_go) begin
		if (s_rx_last)
			in_pos <= 4'd0;
		else if (in_pos != 4'd14)
			in_pos <= in_pos + 4'd1;
		if (in_pos < 4'd6) begin
			in_mine <= (in_pos == 4'd0 || in_mine) && s_rx_data == mac_byte;
			in_bcast <= (in_pos == 4'd0 || in_bcast) && s_rx_data == 8'hFF;
		end
		if (in_pos >= 4'd6 && in_pos < 4'd12)
			in_src <= {in_src[39:0], s_rx_data};
		if (in_pos == 4'd12)
			in_type_hi <= s_rx_data == ETHERTYPE[15:8];
		if (in_decide) begin
			dec_valid <= 1'b1;
			dec_ctl <= in_pos == 4'd13 && !s_rx_last && (in_mine || in_bcast) &&
				in_type_hi && s_rx_data == ETHERTYPE[7:0];
			dec_src <= in_src;
		end
	end
	// output side
	case (o_state)
	O_START: if (dec_valid) begin
		o_state <= dec_ctl ? O_CTL : O_DATA;
		o_pos <= 16'd0;
		o_end <= 16'd12;
		o_hdr <= 1'b1;
		if (dec_ctl) begin
			host <= dec_src;
			ctl_rx <= ctl_rx + 1'b1;
		end
	end
	O_DATA: if (q_valid && q_ready && o_last) begin
		dec_valid <= 1'b0;
		o_state <= O_START;
	end
	default: if (q_valid && q_ready) begin
		o_pos <= o_pos + 16'd1;
		if (o_hdr && o_pos == 16'd13) begin
			o_hdr <= 1'b0;
			o_pos <= 16'd0;
		end
		// the protocol frame's len: payload bytes 2, 3 (little-endian)
		if (!o_hdr && o_pos == 16'd2)
			o_len_lo <= o_byte;
		if (!o_hdr && o_pos == 16'd3)
			o_end <= {o_byte, o_len_lo} + 16'd12;
		if (o_last) begin
			dec_valid <= 1'b0;
			o_state <= O_START;
		end
	end
	endcase
	if (rst) begin
		in_pos <= 4'd0;
		dec_valid <= 1'b0;
		o_state <= O_START;
		host <= 48'hFFFF_FFFF_FFFF;
		ctl_rx <= {CNT_W{1'b0}};
	end
end
assign cnt_ctl_rx = ctl_rx;

// ---- transmit: whole frames, a reply before the switch's next frame ----
// t_busy: a frame has been offered and not finished (its source, t_ctl, stays chosen);
// t_pos: a reply's header byte (0 .. 13), 14 once in its payload.
reg t_busy = 1'b0, t_ctl;
reg [3:0] t_pos;
reg [CNT_W-1:0] ctl_tx = {CNT_W{1'b0}};
wire [111:0] t_hdr = {host, MAC, ETHERTYPE};
wire [7:0] t_hdr_byte = t_hdr[8 * (4'd13 - t_pos) +: 8];
wire pick_ctl = t_busy ? t_ctl : s_ctl_valid;
wire t_in_hdr = pick_ctl && t_pos != 4'd14;
assign m_tx_data = t_in_hdr ? t_hdr_byte : pick_ctl ? s_ctl_data : s_tx_data;
assign m_tx_last = t_in_hdr ? 1'b0 : pick_ctl ? s_ctl_last : s_tx_last;
assign m_tx_valid = t_in_hdr ? 1'b1 : pick_ctl ? s_ctl_valid : s_tx_valid;
assign s_ctl_ready = pick_ctl && !t_in_hdr && m_tx_ready;
assign s_tx_ready = !pick_ctl && m_tx_ready;
always @(posedge clk) begin
	if (m_tx_valid) begin
		t_busy <= !(m_tx_ready && m_tx_last);
		t_ctl <= pick_ctl;
	end
	if (m_tx_valid && m_tx_ready) begin
		if (t_in_hdr)
			t_pos <= t_pos + 4'd1;
		if (m_tx_last) begin
			t_pos <= 4'd0;
			if (pick_ctl)
				ctl_tx <= ctl_tx + 1'b1;
		end
	end
	if (rst) begin
		t_busy <= 1'b0;
		t_pos <= 4'd0;
		ctl_tx <= {CNT_W{1'b0}};
	end
end
assign cnt_ctl_tx = ctl_tx;

endmodule

`resetall
