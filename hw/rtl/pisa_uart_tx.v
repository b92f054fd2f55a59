// SPDX-License-Identifier: Apache-2.0
// pisa_uart_tx: 8N1 UART transmitter (control link on FT2232H channel B).
//
// Line: idle high; a start bit (0), 8 data bits LSB first, a stop bit (1), each CLKS_PER_BIT
// clock cycles; back-to-back bytes follow each other with no extra idle time.
// Stream contract (s port): a byte moves when s_valid && s_ready at a rising clock edge; once
// the source raises s_valid it keeps it high and s_data stable until s_ready; a source never
// waits for s_ready before raising s_valid. s_ready is a register: high while idle and in the
// last cycle of a stop bit.
`default_nettype none

module pisa_uart_tx #(
	// Clock cycles per bit: clock frequency / baud rate, >= 2 (e.g. 48 MHz / 3 Mbaud = 16).
	parameter CLKS_PER_BIT = 16,
	// Width of the bit-time counter, derived.
	parameter CW = $clog2(CLKS_PER_BIT)
) (
	input  wire       clk,
	input  wire       rst,

	input  wire [7:0] s_data,
	input  wire       s_valid,
	output wire       s_ready,

	output wire       txd,
	// High while a byte is on the line.
	output wire       busy
);

generate
	if (CLKS_PER_BIT < 2) begin : g_bad_cpb
		pisa_uart_tx_error_clks_per_bit_must_be_at_least_2 u_stop ();
	end
endgenerate

localparam integer CNT_TOP_I = CLKS_PER_BIT - 1;
localparam [CW-1:0] CNT_TOP = CNT_TOP_I[CW-1:0];

reg busy_reg = 1'b0, busy_next;
reg s_ready_reg = 1'b0, s_ready_next;
reg txd_reg = 1'b1, txd_next;
// Bits still to send after the current one: 8 data bits then the stop bit.
reg [3:0] bits_reg = 4'd0, bits_next;
reg [CW-1:0] cnt_reg = {CW{1'b0}}, cnt_next;
// Data bits not yet sent, then the stop bit (1) shifted in from the top.
reg [8:0] shift_reg, shift_next;

wire push = s_valid && s_ready_reg;

assign s_ready = s_ready_reg;
assign txd = txd_reg;
assign busy = busy_reg;

always @* begin
	busy_next = busy_reg;
	txd_next = txd_reg;
	bits_next = bits_reg;
	cnt_next = cnt_reg;
	shift_next = shift_reg;

	if (push) begin
		busy_next = 1'b1;
		txd_next = 1'b0;
		shift_next = {1'b1, s_data};
		bits_next = 4'd9;
		cnt_next = CNT_TOP;
	end else if (busy_reg) begin
		if (cnt_reg != {CW{1'b0}}) begin
			cnt_next = cnt_reg - 1'b1;
		end else if (bits_reg != 4'd0) begin
			txd_next = shift_reg[0];
			shift_next = {1'b1, shift_reg[8:1]};
			bits_next = bits_reg - 1'b1;
			cnt_next = CNT_TOP;
		end else begin
			busy_next = 1'b0;
			txd_next = 1'b1;
		end
	end
	// Ready when idle or in the last cycle of the stop bit, so bytes go back to back.
	s_ready_next = !busy_next || (bits_next == 4'd0 && cnt_next == {CW{1'b0}});
end

always @(posedge clk) begin
	busy_reg <= busy_next;
	s_ready_reg <= s_ready_next;
	txd_reg <= txd_next;
	bits_reg <= bits_next;
	cnt_reg <= cnt_next;
	if (rst) begin
		busy_reg <= 1'b0;
		s_ready_reg <= 1'b0;
		txd_reg <= 1'b1;
		bits_reg <= 4'd0;
		cnt_reg <= {CW{1'b0}};
	end
end

always @(posedge clk)
	shift_reg <= shift_next;

`ifdef FORMAL
// Checked by hw/formal: the s-side contract, the line idles high, every bit lasts
// CLKS_PER_BIT cycles and a byte takes exactly 10 bit times.
reg f_past_valid = 1'b0;
always @(posedge clk)
	f_past_valid <= 1'b1;

initial assume (rst);

always @(posedge clk)
	if (f_past_valid && !$past(rst) && $past(s_valid && !s_ready)) begin
		assume (s_valid);
		assume ($stable(s_data));
	end

// Formal-only frame position: cycles since the start bit began, and the byte being sent.
reg [CW+3:0] f_t = 0;
reg [7:0] f_byte;
always @(posedge clk) begin
	if (rst)
		f_t <= 0;
	else if (push)
		f_t <= 1;
	else if (busy_next)
		f_t <= f_t + 1'b1;
	else
		f_t <= 0;
	if (push)
		f_byte <= s_data;
end

wire [3:0] f_bit = (f_t - 1'b1) / CLKS_PER_BIT;
// During bit b the shift register has moved b times, filling with ones from the top.
wire [17:0] f_shift = {9'h1ff, 1'b1, f_byte} >> f_bit;
always @(posedge clk) if (f_past_valid && !$past(rst)) begin
	assert (busy_reg == (f_t != 0));
	assert (f_t <= 10 * CLKS_PER_BIT);
	if (!busy_reg)
		assert (txd && s_ready_reg);
	else if (f_bit == 0)
		assert (!txd);
	else if (f_bit <= 8)
		assert (txd == f_byte[f_bit - 1]);
	else
		assert (txd);
	assert (s_ready_reg == (!busy_reg || f_t == 10 * CLKS_PER_BIT));
	if (busy_reg) begin
		assert (bits_reg == 4'd9 - f_bit);
		assert (cnt_reg == CLKS_PER_BIT - 1 - (f_t - 1'b1) % CLKS_PER_BIT);
		assert (shift_reg == f_shift[8:0]);
	end
end

always @(posedge clk)
	cover (f_past_valid && push && busy_reg);
`endif

endmodule

`resetall
