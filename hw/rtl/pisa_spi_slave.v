// SPDX-License-Identifier: Apache-2.0
// pisa_spi_slave: SPI mode 0 slave as a byte stream (control link over SPI, e.g. from an MCU).
//
// Mode 0: SCK idles low, both sides sample on the rising edge and change on the falling one;
// bytes MSB first; cs_n low frames a transfer. sck, cs_n and mosi are asynchronous: each goes
// through two synchronizer flip-flops, so SCK may run at up to clk/4 (each SCK level lasts at
// least 2 clk cycles). Because the edges are seen 2 to 3 cycles late, MISO moves to the next
// bit just after the rising edge that sampled the previous one (the master samples MISO a
// whole SCK period later, not half); the first bit of a transfer is driven when cs_n falls,
// so the master keeps cs_n low for at least 6 clk cycles before the first SCK edge.
//
// Received bytes leave on m_* (a byte is lost, err_overrun, if the previous one still waits).
// Bytes to send are taken from s_* at each byte boundary; with nothing to send the slave
// sends 0x00 (the host's frame hunt skips it, as it skips the host's own filler here).
// cs_n high drops a partial byte (received and sent) and starts the next transfer at bit 7; a
// byte taken at the end of a transfer is sent first in the next one. miso_oe is high while
// cs_n is low (the board top drives the pin from it).
// Stream contract (both ports): a byte moves when valid && ready at a rising clock edge; once
// a source raises valid it keeps valid high and data stable until ready; a source never waits
// for ready. s_ready is a one-cycle pulse at a byte boundary (combinational from registers).
`default_nettype none

module pisa_spi_slave (
	input  wire       clk,
	input  wire       rst,

	input  wire       sck,
	input  wire       cs_n,
	input  wire       mosi,
	output wire       miso,
	output wire       miso_oe,

	output wire [7:0] m_data,
	output wire       m_valid,
	input  wire       m_ready,

	input  wire [7:0] s_data,
	input  wire       s_valid,
	output wire       s_ready,

	output wire       err_overrun
);

(* async_reg = "true" *)
reg [2:0] sck_sync = 3'b000;
(* async_reg = "true" *)
reg [2:0] cs_sync = 3'b111;
(* async_reg = "true" *)
reg [1:0] mosi_sync = 2'b00;

wire sck_rise = sck_sync[1] && !sck_sync[2];
wire cs_active = !cs_sync[1];
wire cs_fall = !cs_sync[1] && cs_sync[2];
wire mosi_s = mosi_sync[1];

reg [2:0] bit_reg = 3'd0, bit_next;
reg [6:0] rx_reg, rx_next;
reg [7:0] tx_reg = 8'd0, tx_next;
reg [7:0] m_data_reg, m_data_next;
reg m_valid_reg = 1'b0, m_valid_next;
reg err_overrun_reg = 1'b0, err_overrun_next;
// tx_reg holds a whole byte not yet started (taken at the end of the previous one).
reg loaded_reg = 1'b0, loaded_next;

// A byte boundary: a transfer starts with nothing loaded, or the 8th bit was just sampled.
wire boundary = (cs_fall && !loaded_reg) || (cs_active && sck_rise && bit_reg == 3'd7);

assign s_ready = boundary;
assign miso = tx_reg[7];
assign miso_oe = cs_active;
assign m_data = m_data_reg;
assign m_valid = m_valid_reg;
assign err_overrun = err_overrun_reg;

always @* begin
	bit_next = bit_reg;
	rx_next = rx_reg;
	tx_next = tx_reg;
	m_data_next = m_data_reg;
	m_valid_next = m_valid_reg;
	err_overrun_next = 1'b0;
	loaded_next = loaded_reg;

	if (m_valid_reg && m_ready)
		m_valid_next = 1'b0;
	if (!cs_active) begin
		bit_next = 3'd0;
	end else if (sck_rise) begin
		rx_next = {rx_reg[5:0], mosi_s};
		bit_next = bit_reg + 3'd1;
		tx_next = {tx_reg[6:0], 1'b0};
		loaded_next = 1'b0;
		if (bit_reg == 3'd7) begin
			if (m_valid_next) begin
				err_overrun_next = 1'b1;
			end else begin
				m_valid_next = 1'b1;
				m_data_next = {rx_reg, mosi_s};
			end
		end
	end
	if (boundary) begin
		tx_next = s_valid ? s_data : 8'h00;
		loaded_next = 1'b1;
	end
end

always @(posedge clk) begin
	sck_sync <= {sck_sync[1:0], sck};
	cs_sync <= {cs_sync[1:0], cs_n};
	mosi_sync <= {mosi_sync[0], mosi};
	bit_reg <= bit_next;
	tx_reg <= tx_next;
	m_valid_reg <= m_valid_next;
	err_overrun_reg <= err_overrun_next;
	loaded_reg <= loaded_next;
	if (rst) begin
		sck_sync <= 3'b000;
		cs_sync <= 3'b111;
		mosi_sync <= 2'b00;
		bit_reg <= 3'd0;
		tx_reg <= 8'd0;
		m_valid_reg <= 1'b0;
		err_overrun_reg <= 1'b0;
		loaded_reg <= 1'b0;
	end
end

always @(posedge clk) begin
	rx_reg <= rx_next;
	m_data_reg <= m_data_next;
end

`ifdef FORMAL
// Checked by hw/formal: the m-side contract; s bytes are taken only at byte boundaries.
reg f_past_valid = 1'b0;
always @(posedge clk)
	f_past_valid <= 1'b1;

initial assume (rst);

always @(posedge clk)
	if (f_past_valid && !$past(rst)) begin
		if ($past(s_valid && !s_ready)) begin
			assume (s_valid);
			assume ($stable(s_data));
		end
		if ($past(m_valid && !m_ready)) begin
			assert (m_valid);
			assert ($stable(m_data));
		end
		if (m_valid && !$past(m_valid))
			assert ($past(cs_active && sck_rise && bit_reg == 3'd7));
		if (!$past(cs_active))
			assert (bit_reg == 3'd0);
	end

always @(posedge clk)
	cover (m_valid && !loaded_reg);
`endif

endmodule

`resetall
