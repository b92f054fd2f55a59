// SPDX-License-Identifier: Apache-2.0
// pisa_bridge_console: the bring-up bridges' UART (8N1). It echoes every byte it receives, and
// after a carriage return (Enter in a terminal) prints the MACs' counters (pisa_eth_ports'
// stats_*), one line a port, in hexadecimal, as they were at one instant:
//
//   <the echoed CR>\n
//   port rx_frames rx_bytes fcs_errors runts giants rx_drops tx_frames tx_bytes tx_drops\r\n
//   0 0003 00d8 0001 0001 0000 0000 0002 0090 0000\r\n
//   1 ...
//
// Each number is the counter's 16 bits (they wrap). What each counts: pisa_mac_rmii and
// pisa_mac_rgmii; the byte counts run from the destination address through the FCS. Bytes that
// come while the table is printed wait in pisa_uart_rx (one byte; more are lost as overruns).
`default_nettype none

module pisa_bridge_console #(
	// Ports (rows): 1 .. 16.
	parameter N = 2,
	// Core clocks a UART bit.
	parameter CLKS_PER_BIT = 16,
	// Derived: bits of a port number.
	parameter SEL_W = N > 1 ? $clog2(N) : 1
) (
	input  wire             clk,
	input  wire             rst,
	input  wire             uart_rx,
	output wire             uart_tx,

	// pisa_eth_ports' counters
	output reg              stats_req,
	input  wire             stats_busy,
	output wire [SEL_W-1:0] stats_port,
	output wire [3:0]       stats_idx,
	input  wire [15:0]      stats_value
);

generate
	if (N < 1 || N > 16) begin : g_bad_n
		pisa_bridge_console_error_n_must_be_1_to_16 u_stop ();
	end
endgenerate

localparam [8*87-1:0] HEAD = {"\nport rx_frames rx_bytes fcs_errors runts giants rx_drops ",
	"tx_frames tx_bytes tx_drops\015\n"};
localparam [6:0] HEAD_LEN = 87;  // HEAD's characters
localparam [3:0] COUNTERS = 9;
localparam [31:0] LAST_PORT = N - 1;
localparam [7:0] CR = 8'h0D;

function [7:0] hex_char(input [3:0] v);
	hex_char = v < 4'd10 ? 8'h30 + {4'd0, v} : 8'h57 + {4'd0, v};
endfunction

// ---- the UART ----
wire [7:0] rx_data;
wire rx_valid, rx_ready;
reg [7:0] tx_data;
reg tx_valid;
wire tx_ready;
wire e_start, e_frame, e_overrun, tx_busy;
pisa_uart_rx #(.CLKS_PER_BIT(CLKS_PER_BIT)) u_rx (
	.clk(clk), .rst(rst), .rxd(uart_rx), .m_data(rx_data), .m_valid(rx_valid),
	.m_ready(rx_ready), .err_false_start(e_start), .err_frame(e_frame), .err_overrun(e_overrun)
);
pisa_uart_tx #(.CLKS_PER_BIT(CLKS_PER_BIT)) u_tx (
	.clk(clk), .rst(rst), .s_data(tx_data), .s_valid(tx_valid), .s_ready(tx_ready),
	.txd(uart_tx), .busy(tx_busy)
);
wire _unused = &{1'b0, e_start, e_frame, e_overrun, tx_busy, 1'b0};

// ---- echo, then the table ----
localparam [2:0] S_ECHO = 3'd0, S_SNAP = 3'd1, S_HEAD = 3'd2, S_PORT = 3'd3, S_SPACE = 3'd4,
	S_DIGIT = 3'd5, S_CR = 3'd6, S_LF = 3'd7;

reg [2:0] st = S_ECHO;
reg [6:0] head_i = 7'd0;       // next character of HEAD
reg [3:0] port = 4'd0;         // the row
reg [3:0] idx = 4'd0;          // the column (counter)
reg [1:0] digit = 2'd0;        // hex digits of val sent
reg [15:0] val = 16'd0;        // the counter being printed, its next digit on top

assign stats_port = port[SEL_W-1:0];
assign stats_idx = idx;
// S_ECHO passes each received byte straight to the transmitter.
assign rx_ready = st == S_ECHO && tx_ready;

// The byte for the current state.
always @* begin
	case (st)
	S_HEAD: tx_data = HEAD[8 * (HEAD_LEN - 7'd1 - head_i) +: 8];
	S_PORT: tx_data = hex_char(port);
	S_SPACE: tx_data = 8'h20;
	S_DIGIT: tx_data = hex_char(val[15:12]);
	S_CR: tx_data = CR;
	S_LF: tx_data = 8'h0A;
	default: tx_data = rx_data;
	endcase
end

always @* begin
	case (st)
	S_ECHO: tx_valid = rx_valid;
	S_SNAP: tx_valid = 1'b0;
	default: tx_valid = 1'b1;
	endcase
end

always @(posedge clk) begin
	stats_req <= 1'b0;
	case (st)
	S_ECHO:
		if (rx_valid && rx_ready && rx_data == CR) begin
			stats_req <= 1'b1;
			st <= S_SNAP;
		end
	S_SNAP:
		// (stats_busy rises the cycle after the request)
		if (!stats_req && !stats_busy) begin
			head_i <= 7'd0;
			port <= 4'd0;
			st <= S_HEAD;
		end
	S_HEAD:
		if (tx_ready) begin
			head_i <= head_i + 7'd1;
			if (head_i == HEAD_LEN - 7'd1)
				st <= S_PORT;
		end
	S_PORT:
		if (tx_ready) begin
			idx <= 4'd0;
			st <= S_SPACE;
		end
	S_SPACE:
		// (stats_value, a wide multiplexer, goes into a register while the space is sent)
		if (tx_ready) begin
			val <= stats_value;
			digit <= 2'd0;
			st <= S_DIGIT;
		end
	S_DIGIT:
		if (tx_ready) begin
			val <= {val[11:0], 4'd0};
			digit <= digit + 2'd1;
			if (digit == 2'd3) begin
				idx <= idx + 4'd1;
				st <= idx == COUNTERS - 4'd1 ? S_CR : S_SPACE;
			end
		end
	S_CR:
		if (tx_ready)
			st <= S_LF;
	default:	// S_LF
		if (tx_ready) begin
			port <= port + 4'd1;
			st <= {28'd0, port} == LAST_PORT ? S_ECHO : S_PORT;
		end
	endcase
	if (rst) begin
		st <= S_ECHO;
		stats_req <= 1'b0;
	end
end

endmodule

`resetall
