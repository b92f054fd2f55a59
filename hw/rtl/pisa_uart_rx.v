// SPDX-License-Identifier: Apache-2.0
// pisa_uart_rx: 8N1 UART receiver with mid-bit sampling (control link on FT2232H channel B).
//
// rxd is asynchronous: it passes two synchronizer flip-flops first. A falling edge starts a
// byte; the start bit is sampled again half a bit later and, if the line is high again, the
// edge was a glitch (err_false_start, back to idle). Data bits are sampled in the middle of
// each bit time, LSB first, then the stop bit: high delivers the byte on m_*, low drops it
// (err_frame) and the receiver waits for the line to go high before it looks for a new start
// bit (a break does not produce a stream of 0x00 bytes).
// Stream contract (m port): a byte moves when m_valid && m_ready at a rising clock edge; once
// m_valid is high it stays high with m_data stable until m_ready. A UART cannot be stalled: a
// byte that completes while the previous one still waits is dropped (err_overrun).
// err_* are one-cycle pulses.
`default_nettype none

module pisa_uart_rx #(
	// Clock cycles per bit: clock frequency / baud rate, >= 4 (e.g. 48 MHz / 3 Mbaud = 16).
	// The sender's bit time may differ by up to about +-4 % (half a bit over 10 bits, minus
	// the synchronizer delay of 2 cycles and rounding: smaller values tolerate less).
	parameter CLKS_PER_BIT = 16,
	// Width of the bit-time counter, derived.
	parameter CW = $clog2(CLKS_PER_BIT)
) (
	input  wire       clk,
	input  wire       rst,

	input  wire       rxd,

	output wire [7:0] m_data,
	output wire       m_valid,
	input  wire       m_ready,

	output wire       err_false_start,
	output wire       err_frame,
	output wire       err_overrun
);

generate
	if (CLKS_PER_BIT < 4) begin : g_bad_cpb
		pisa_uart_rx_error_clks_per_bit_must_be_at_least_4 u_stop ();
	end
endgenerate

localparam integer CNT_TOP_I = CLKS_PER_BIT - 1;
localparam [CW-1:0] CNT_TOP = CNT_TOP_I[CW-1:0];
// From the first low sample to the middle of the start bit.
localparam integer CNT_HALF_I = CLKS_PER_BIT / 2 - 1;
localparam [CW-1:0] CNT_HALF = CNT_HALF_I[CW-1:0];

localparam [2:0]
	ST_IDLE = 3'd0,  // line high, waiting for a falling edge
	ST_START = 3'd1, // counting to the middle of the start bit
	ST_DATA = 3'd2,  // sampling 8 data bits
	ST_STOP = 3'd3,  // sampling the stop bit
	ST_BREAK = 3'd4; // framing error: waiting for the line to go high

(* async_reg = "true" *)
reg [1:0] sync_reg = 2'b11;
wire rx = sync_reg[1];

reg [2:0] state_reg = ST_IDLE, state_next;
reg [CW-1:0] cnt_reg = {CW{1'b0}}, cnt_next;
reg [2:0] bit_reg = 3'd0, bit_next;
reg [7:0] shift_reg, shift_next;
reg [7:0] m_data_reg, m_data_next;
reg m_valid_reg = 1'b0, m_valid_next;
reg err_false_start_reg = 1'b0, err_false_start_next;
reg err_frame_reg = 1'b0, err_frame_next;
reg err_overrun_reg = 1'b0, err_overrun_next;

assign m_data = m_data_reg;
assign m_valid = m_valid_reg;
assign err_false_start = err_false_start_reg;
assign err_frame = err_frame_reg;
assign err_overrun = err_overrun_reg;

always @* begin
	state_next = state_reg;
	cnt_next = cnt_reg;
	bit_next = bit_reg;
	shift_next = shift_reg;
	m_data_next = m_data_reg;
	m_valid_next = m_valid_reg;
	err_false_start_next = 1'b0;
	err_frame_next = 1'b0;
	err_overrun_next = 1'b0;

	if (m_valid_reg && m_ready)
		m_valid_next = 1'b0;

	case (state_reg)
	ST_IDLE: begin
		if (!rx) begin
			state_next = ST_START;
			cnt_next = CNT_HALF;
		end
	end
	ST_START: begin
		if (cnt_reg != {CW{1'b0}}) begin
			cnt_next = cnt_reg - 1'b1;
		end else if (rx) begin
			state_next = ST_IDLE;
			err_false_start_next = 1'b1;
		end else begin
			state_next = ST_DATA;
			cnt_next = CNT_TOP;
			bit_next = 3'd0;
		end
	end
	ST_DATA: begin
		if (cnt_reg != {CW{1'b0}}) begin
			cnt_next = cnt_reg - 1'b1;
		end else begin
			shift_next = {rx, shift_reg[7:1]};
			cnt_next = CNT_TOP;
			bit_next = bit_reg + 1'b1;
			if (bit_reg == 3'd7)
				state_next = ST_STOP;
		end
	end
	ST_STOP: begin
		if (cnt_reg != {CW{1'b0}}) begin
			cnt_next = cnt_reg - 1'b1;
		end else if (!rx) begin
			state_next = ST_BREAK;
			err_frame_next = 1'b1;
		end else begin
			// Back to idle in mid stop bit, ready for the next start edge.
			state_next = ST_IDLE;
			if (m_valid_next) begin
				err_overrun_next = 1'b1;
			end else begin
				m_valid_next = 1'b1;
				m_data_next = shift_reg;
			end
		end
	end
	ST_BREAK: begin
		if (rx)
			state_next = ST_IDLE;
	end
	default: begin
		state_next = ST_IDLE;
	end
	endcase
end

always @(posedge clk) begin
	sync_reg <= {sync_reg[0], rxd};
	state_reg <= state_next;
	cnt_reg <= cnt_next;
	bit_reg <= bit_next;
	m_valid_reg <= m_valid_next;
	err_false_start_reg <= err_false_start_next;
	err_frame_reg <= err_frame_next;
	err_overrun_reg <= err_overrun_next;
	if (rst) begin
		sync_reg <= 2'b11;
		state_reg <= ST_IDLE;
		cnt_reg <= {CW{1'b0}};
		bit_reg <= 3'd0;
		m_valid_reg <= 1'b0;
		err_false_start_reg <= 1'b0;
		err_frame_reg <= 1'b0;
		err_overrun_reg <= 1'b0;
	end
end

always @(posedge clk) begin
	shift_reg <= shift_next;
	m_data_reg <= m_data_next;
end

`ifdef FORMAL
// Checked by hw/formal: the m-side contract and the receiver's state invariants. Decoding
// (including false starts and framing errors) is checked by the loopback testbench.
reg f_past_valid = 1'b0;
always @(posedge clk)
	f_past_valid <= 1'b1;

initial assume (rst);

always @(posedge clk) if (f_past_valid && !$past(rst)) begin
	if ($past(m_valid && !m_ready)) begin
		assert (m_valid);
		assert ($stable(m_data));
	end
	assert (state_reg <= ST_BREAK);
	if (state_reg == ST_START)
		assert (cnt_reg <= CNT_HALF);
	if (state_reg == ST_DATA || state_reg == ST_STOP)
		assert (cnt_reg <= CNT_TOP);
	if (state_reg == ST_STOP)
		assert (bit_reg == 3'd0);
	// At most one event per cycle, and a byte is delivered only when m was free.
	assert ({2'b00, err_false_start} + {2'b00, err_frame} + {2'b00, err_overrun} <= 3'd1);
	if (m_valid && !$past(m_valid))
		assert (!err_overrun && $past(state_reg == ST_STOP));
end

// A whole byte takes > 40 cycles even at CLKS_PER_BIT = 4, too deep for a quick cover run:
// delivery, err_frame and err_overrun are covered by the testbench.
always @(posedge clk) begin
	cover (err_false_start);
	cover (state_reg == ST_DATA && bit_reg == 3'd1);
end
`endif

endmodule

`resetall
