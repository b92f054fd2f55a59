// SPDX-License-Identifier: Apache-2.0
// pisa_skid: register slice (skid buffer) that cuts the valid/data and the ready paths.
//
// Stream contract (both ports): a word moves when valid && ready at a rising clock edge; once
// a source raises valid it keeps valid high and data stable until ready; a source never waits
// for ready before raising valid.
// Here s_ready, m_valid and m_data all come straight from registers, so nothing combinational
// passes through; full throughput (one word per cycle) with one cycle of latency. When the
// sink stalls, the word that was already accepted waits in the skid register.
`default_nettype none

module pisa_skid #(
	// Bits per word (>= 1), e.g. {last, data}.
	parameter WIDTH = 8
) (
	input  wire             clk,
	input  wire             rst,

	input  wire [WIDTH-1:0] s_data,
	input  wire             s_valid,
	output wire             s_ready,

	output wire [WIDTH-1:0] m_data,
	output wire             m_valid,
	input  wire             m_ready
);

generate
	if (WIDTH < 1) begin : g_bad_width
		pisa_skid_error_width_must_be_at_least_1 u_stop ();
	end
endgenerate

reg m_valid_reg = 1'b0, m_valid_next;
reg skid_valid_reg = 1'b0, skid_valid_next;
reg s_ready_reg = 1'b0, s_ready_next;
reg [WIDTH-1:0] m_data_reg, m_data_next;
reg [WIDTH-1:0] skid_data_reg, skid_data_next;

assign s_ready = s_ready_reg;
assign m_valid = m_valid_reg;
assign m_data = m_data_reg;

wire push = s_valid && s_ready_reg;
wire pop = m_valid_reg && m_ready;

always @* begin
	m_valid_next = m_valid_reg;
	skid_valid_next = skid_valid_reg;
	m_data_next = m_data_reg;
	skid_data_next = skid_data_reg;

	if (!m_valid_reg || pop) begin
		// The output register is free after this edge: fill it from the skid register first.
		if (skid_valid_reg) begin
			m_valid_next = 1'b1;
			m_data_next = skid_data_reg;
			skid_valid_next = 1'b0;
		end else begin
			m_valid_next = push;
			m_data_next = s_data;
		end
	end else if (push) begin
		// Output stalled: the word accepted in this cycle waits in the skid register.
		skid_valid_next = 1'b1;
		skid_data_next = s_data;
	end
	// Ready only while the skid register is free; s_ready is low whenever it is full, so a
	// word never arrives with both registers taken.
	s_ready_next = !skid_valid_next;
end

always @(posedge clk) begin
	m_valid_reg <= m_valid_next;
	skid_valid_reg <= skid_valid_next;
	s_ready_reg <= s_ready_next;
	if (rst) begin
		m_valid_reg <= 1'b0;
		skid_valid_reg <= 1'b0;
		s_ready_reg <= 1'b0;
	end
end

// Datapath registers without reset.
always @(posedge clk) begin
	m_data_reg <= m_data_next;
	skid_data_reg <= skid_data_next;
end

`ifdef FORMAL
// Checked by hw/formal (yosys-smtbmc, BMC and k-induction).
reg f_past_valid = 1'b0;
always @(posedge clk)
	f_past_valid <= 1'b1;

initial assume (rst);

// The source keeps its side of the contract.
always @(posedge clk)
	if (f_past_valid && !$past(rst) && $past(s_valid && !s_ready)) begin
		assume (s_valid);
		assume ($stable(s_data));
	end

// Invariants and the output's side of the contract.
always @(posedge clk) begin
	if (skid_valid_reg)
		assert (m_valid_reg);
	if (f_past_valid && !$past(rst))
		assert (s_ready_reg == !skid_valid_reg);
	if (f_past_valid && $past(rst))
		assert (!m_valid && !s_ready && !skid_valid_reg);
	if (f_past_valid && !$past(rst) && $past(m_valid && !m_ready)) begin
		assert (m_valid);
		assert ($stable(m_data));
	end
	// Full throughput: a word may enter while one leaves, and with the sink always ready the
	// skid register stays empty.
	if (f_past_valid && !$past(rst) && $past(m_ready) && $past(!skid_valid_reg))
		assert (!skid_valid_reg);
end

// Order, no loss, no duplication: follow one arbitrary word (see pisa_fifo).
(* anyseq *) wire f_pick;
reg f_busy = 1'b0;
reg [WIDTH-1:0] f_data;
reg f_ahead;
wire [1:0] f_count = {1'b0, m_valid_reg} + {1'b0, skid_valid_reg};
always @(posedge clk) begin
	if (rst) begin
		f_busy <= 1'b0;
	end else if (f_busy) begin
		if (pop) begin
			if (!f_ahead) begin
				assert (m_data == f_data);
				f_busy <= 1'b0;
			end
			f_ahead <= 1'b0;
		end
	end else if (push && f_pick) begin
		f_busy <= 1'b1;
		f_data <= s_data;
		f_ahead <= (f_count - {1'b0, pop}) != 2'd0;
	end
end

always @(posedge clk)
	if (f_busy) begin
		if (f_ahead) begin
			assert (skid_valid_reg && skid_data_reg == f_data);
		end else begin
			assert (m_valid_reg && m_data_reg == f_data);
		end
	end

always @(posedge clk) begin
	cover (skid_valid_reg);
	cover (f_busy && f_ahead && pop);
end
`endif

endmodule

`resetall
