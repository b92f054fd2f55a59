// SPDX-License-Identifier: Apache-2.0
// pisa_fifo: synchronous stream FIFO with a registered output, in block RAM or LUT RAM.
//
// Stream contract (both ports, the same for every pisa_ stream):
//   a word moves when valid && ready at a rising clock edge; once a source raises valid it
//   keeps valid high and data/last stable until ready; a source never waits for ready before
//   raising valid; a sink may lower or raise ready at any time.
// Here: s_ready and m_valid come from registers, m_data from the output register, so the FIFO
// also cuts every combinational path between its two sides.
//
// Timing: a word written at edge t can be read out (m_valid high) after edge t+2.
// count: words held (memory + output register), 0..DEPTH; s_ready = (count != DEPTH).
`default_nettype none

module pisa_fifo #(
	// Bits per word (>= 1); the last flag is not special, put it in the word if needed.
	parameter WIDTH = 8,
	// Words the FIFO holds: a power of 2, >= 2.
	parameter DEPTH = 16,
	// Memory: "block" (block RAM, e.g. iCE40 EBR / ECP5 DP16KD), "distributed" (LUT RAM where
	// the device has it, e.g. ECP5) or "logic" (flip-flops). Passed to yosys as ram_style.
	parameter RAM_STYLE = "block",
	// Address width, derived.
	parameter AW = $clog2(DEPTH)
) (
	input  wire             clk,
	input  wire             rst,

	input  wire [WIDTH-1:0] s_data,
	input  wire             s_valid,
	output wire             s_ready,

	output wire [WIDTH-1:0] m_data,
	output wire             m_valid,
	input  wire             m_ready,

	output wire [AW:0]      count
);

// Parameter checks: a failing check stops elaboration with a message naming the instance.
generate
	if (DEPTH < 2 || (1 << AW) != DEPTH) begin : g_bad_depth
		pisa_fifo_error_depth_must_be_power_of_2_at_least_2 u_stop ();
	end
	if (WIDTH < 1) begin : g_bad_width
		pisa_fifo_error_width_must_be_at_least_1 u_stop ();
	end
endgenerate

(* ram_style = RAM_STYLE *)
reg [WIDTH-1:0] mem [0:DEPTH-1];

// Pointers carry one bit more than the address so that full and empty differ.
reg [AW:0] wr_ptr_reg = {(AW+1){1'b0}}, wr_ptr_next;
reg [AW:0] rd_ptr_reg = {(AW+1){1'b0}}, rd_ptr_next;
reg [AW:0] count_reg = {(AW+1){1'b0}}, count_next;
reg s_ready_reg = 1'b0, s_ready_next;
reg m_valid_reg = 1'b0, m_valid_next;
reg [WIDTH-1:0] m_data_reg;

localparam [AW:0] FULL = DEPTH[AW:0];

wire push = s_valid && s_ready_reg;
wire pop = m_valid_reg && m_ready;
wire mem_empty = wr_ptr_reg == rd_ptr_reg;
// Load the output register from memory when it is empty or being emptied.
wire load = !mem_empty && (!m_valid_reg || m_ready);

assign s_ready = s_ready_reg;
assign m_valid = m_valid_reg;
assign m_data = m_data_reg;
assign count = count_reg;

always @* begin
	wr_ptr_next = wr_ptr_reg;
	rd_ptr_next = rd_ptr_reg;
	count_next = count_reg;
	m_valid_next = m_valid_reg;

	if (push)
		wr_ptr_next = wr_ptr_reg + 1'b1;
	if (load)
		rd_ptr_next = rd_ptr_reg + 1'b1;
	if (push && !pop)
		count_next = count_reg + 1'b1;
	else if (!push && pop)
		count_next = count_reg - 1'b1;
	if (load)
		m_valid_next = 1'b1;
	else if (pop)
		m_valid_next = 1'b0;
	s_ready_next = count_next != FULL;
end

always @(posedge clk) begin
	wr_ptr_reg <= wr_ptr_next;
	rd_ptr_reg <= rd_ptr_next;
	count_reg <= count_next;
	s_ready_reg <= s_ready_next;
	m_valid_reg <= m_valid_next;
	if (rst) begin
		wr_ptr_reg <= {(AW+1){1'b0}};
		rd_ptr_reg <= {(AW+1){1'b0}};
		count_reg <= {(AW+1){1'b0}};
		s_ready_reg <= 1'b0;
		m_valid_reg <= 1'b0;
	end
end

// Memory ports kept in their own block, without reset, so yosys infers RAM. The memory never
// holds more than DEPTH - m_valid words, so a write never hits the address being read.
always @(posedge clk) begin
	if (push)
		mem[wr_ptr_reg[AW-1:0]] <= s_data;
	if (load)
		m_data_reg <= mem[rd_ptr_reg[AW-1:0]];
end

`ifdef FORMAL
// Checked by hw/formal (yosys-smtbmc, BMC and k-induction), per parameter set.
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

// Occupancy bookkeeping: no overflow, flags agree with the count.
wire [AW:0] f_mem_fill = wr_ptr_reg - rd_ptr_reg;
always @(posedge clk) begin
	assert (f_mem_fill <= FULL);
	assert (count_reg <= FULL);
	assert (count_reg == f_mem_fill + {{AW{1'b0}}, m_valid_reg});
	if (f_past_valid && !$past(rst))
		assert (s_ready_reg == (count_reg != FULL));
	if (f_past_valid && $past(rst))
		assert (!m_valid && !s_ready && count == 0);
end

// The output keeps its side of the contract.
always @(posedge clk)
	if (f_past_valid && !$past(rst) && $past(m_valid && !m_ready)) begin
		assert (m_valid);
		assert ($stable(m_data));
	end

// Order, no loss, no duplication: follow one arbitrary word. When it is written, remember its
// data and how many words are ahead of it; every word read before it lowers that number; it
// must be the word read when the number is 0, with its data unchanged. Since the chosen word
// is arbitrary, the n-th word out is the n-th word in.
(* anyseq *) wire f_pick;
reg f_busy = 1'b0;
reg [WIDTH-1:0] f_data;
reg [AW:0] f_ahead;
reg [AW:0] f_ptr;
wire [AW:0] f_rel = f_ptr - rd_ptr_reg;
always @(posedge clk) begin
	if (rst) begin
		f_busy <= 1'b0;
	end else if (f_busy) begin
		if (pop) begin
			if (f_ahead == 0) begin
				assert (m_data == f_data);
				f_busy <= 1'b0;
			end
			f_ahead <= f_ahead - 1'b1;
		end
	end else if (push && f_pick) begin
		f_busy <= 1'b1;
		f_data <= s_data;
		f_ptr <= wr_ptr_reg;
		f_ahead <= count_reg - {{AW{1'b0}}, pop};
	end
end

// Where the followed word is: in memory at f_ptr, or in the output register.
wire [WIDTH-1:0] f_mem_word = mem[f_ptr[AW-1:0]];
always @(posedge clk) begin
	if (f_busy) begin
		assert (f_ahead < count_reg);
		if (f_ahead == 0 && m_valid_reg) begin
			assert (m_data_reg == f_data);
			assert (f_ptr == rd_ptr_reg - 1'b1);
		end else begin
			assert (f_rel < f_mem_fill);
			assert (f_ahead == f_rel + {{AW{1'b0}}, m_valid_reg});
			assert (f_mem_word == f_data);
		end
	end
end

// Reachability: the FIFO fills up and a word goes through.
always @(posedge clk) begin
	cover (!rst && count == FULL);
	cover (f_busy && pop && f_ahead == 0 && count_reg > 1);
end
`endif

endmodule

`resetall
