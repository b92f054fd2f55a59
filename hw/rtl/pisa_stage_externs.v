// SPDX-License-Identifier: Apache-2.0
// pisa_stage_externs: a stage's register arrays and indexed counters (docs/rtl-core.md, "a
// table on a stage"), the state that pisa_action_unit's COUNT, REG_READ and REG_WRITE work on,
// bit-exact with pisa-model's model_count and model_exec:
//   COUNT     counter imm, index a (any index when the counter has one cell): its packets + 1
//             (kind PACKETS or BOTH), its bytes + b (kind BYTES or BOTH; the action unit gives
//             b as the PHV's packet_length);
//   REG_READ  the result is register imm [a], 0 when out of range;
//   REG_WRITE register imm [a] = b, cut to the register's width.
// An id past the configured ones, one of size 0, or an index not below the size does nothing.
// a and b arrive as the action unit reads them (right-aligned, zero above their width); with
// the instruction's SIGNED flag the model extends them first, so a negative index is out of
// range and a negative value written has ones above its width.
//
// The cells are one memory of 2^XA 64-bit words (a pisa_ram: block RAM): register id r's cells
// at cfg_reg_base[r] .., counter id c's at cfg_cnt_base[c] .., two words a cell (packets, then
// bytes). The configuration lays them out (what loads it keeps them inside the memory and
// apart) and holds while a PHV runs.
//
// x_start starts one instruction (x_op, x_imm, x_sgn, x_a, x_b and their widths hold until
// x_done); x_done is high for one clock with x_result. The control port (c_*) reads or writes
// one word by its address between instructions: c_ready is high when no instruction runs; a
// read answers c_rvalid with c_rdata two clocks later. Clocks an instruction: 5 out of range,
// 5 a REG_WRITE, 6 a REG_READ, 6 or 7 a COUNT.
`default_nettype none

module pisa_stage_externs #(
	parameter XA = 6,		// cell address bits: 2^XA words
	parameter NREGS = 4,		// register ids 0 .. NREGS - 1
	parameter NCOUNTERS = 4		// counter ids 0 .. NCOUNTERS - 1
) (
	input  wire                   clk,
	input  wire                   rst,

	input  wire [XA*NREGS-1:0]    cfg_reg_base,
	input  wire [(XA+1)*NREGS-1:0] cfg_reg_size,	// cells, 0 .. 2^XA (0: no such register)
	input  wire [7*NREGS-1:0]     cfg_reg_width,	// 1 .. 64
	input  wire [XA*NCOUNTERS-1:0] cfg_cnt_base,
	input  wire [(XA+1)*NCOUNTERS-1:0] cfg_cnt_size,	// cells (of two words each)
	input  wire [2*NCOUNTERS-1:0] cfg_cnt_kind,	// lib/pisa_image.h: 0 packets, 1 bytes, 2 both

	input  wire                   x_start,
	input  wire [7:0]             x_op,
	input  wire [15:0]            x_imm,
	input  wire                   x_sgn,
	input  wire [63:0]            x_a,
	input  wire [6:0]             x_a_width,
	input  wire [63:0]            x_b,
	input  wire [6:0]             x_b_width,
	output reg                    x_done,
	output reg  [63:0]            x_result,

	input  wire                   c_valid,
	output wire                   c_ready,
	input  wire                   c_write,
	input  wire [XA-1:0]          c_addr,
	input  wire [63:0]            c_wdata,
	output reg                    c_rvalid,
	output wire [63:0]            c_rdata
);

localparam [7:0] OP_COUNT = 8'd29, OP_REG_READ = 8'd30;
localparam [1:0] KIND_PACKETS = 2'd0, KIND_BYTES = 2'd1;
localparam [2:0] X_IDLE = 3'd0, X_CHECK = 3'd1, X_GO = 3'd2, X_USE = 3'd3, X_CTL = 3'd4,
	X_ID = 3'd5, X_CFG = 3'd6;

reg [2:0] state;
reg [XA-1:0] raddr, waddr, at;
reg we;
reg [63:0] wdata;
wire [63:0] rdata;
pisa_ram #(.WIDTH(64), .DEPTH(1 << XA)) u_cells (
	.clk(clk), .we(we), .waddr(waddr), .wdata(wdata), .raddr(raddr), .rdata(rdata)
);
assign c_rdata = rdata;
assign c_ready = state == X_IDLE && !x_start;

function [63:0] low_ones;	// the low n bits set, n = 0 .. 64
	input [6:0] n;
	low_ones = n[6] ? {64{1'b1}} : ~({64{1'b1}} << n[5:0]);
endfunction

function top_bit;	// v's bit w - 1 (its sign at width w), 0 when w is not 1 .. 64
	input [63:0] v;
	input [6:0] w;
	integer j;
	begin
		top_bit = 1'b0;
		for (j = 0; j < 64; j = j + 1)
			if ({25'd0, w} == j + 1)
				top_bit = v[j];
	end
endfunction

// The instruction, a step a clock (the id, its configuration, the cell; in one clock, the id's
// compare, the configuration's mux and the address's adder were the stage's longest path):
// X_ID registers the id and what the operands say alone, X_CFG the id's configuration.
wire is_count = x_op == OP_COUNT;
wire known = {16'd0, x_imm} < (is_count ? NCOUNTERS : NREGS);
reg [7:0] id;			// (0 past the ids: a select inside the configuration)
reg id_known, a_negative, a_high;
reg b_negative;			// b's sign when SIGNED, then ...
reg [63:0] b_extended;		// ... b sign-extended (its sign and its extension in one clock
				// were the stage's longest path)
reg [XA:0] size;
reg [XA-1:0] base;
reg [1:0] kind;
reg [63:0] width_mask;		// the register's width
wire one_cell = is_count && size == 1;
wire [XA-1:0] index = one_cell ? {XA{1'b0}} : x_a[XA-1:0];

reg ok, second;			// in range; a counter's bytes word
reg [63:0] reg_value;		// REG_WRITE's value
wire [XA-1:0] word_at = at + {{XA-1{1'b0}}, second};
always @(posedge clk) begin
	x_done <= 1'b0;
	c_rvalid <= 1'b0;
	we <= 1'b0;
	case (state)
	X_IDLE:
		if (x_start) begin
			state <= X_ID;
		end else if (c_valid) begin
			raddr <= c_addr;
			we <= c_write;
			waddr <= c_addr;
			wdata <= c_wdata;
			state <= c_write ? X_IDLE : X_CTL;
		end
	X_CTL: begin		// the control's word read; an instruction may start meanwhile
		c_rvalid <= 1'b1;
		state <= x_start ? X_ID : X_IDLE;
	end
	X_ID: begin
		id <= known ? x_imm[7:0] : 8'd0;
		id_known <= known;
		a_negative <= x_sgn && top_bit(x_a, x_a_width);
		a_high <= x_a[63:XA+1] != 0;
		b_negative <= x_sgn && top_bit(x_b, x_b_width);
		state <= X_CFG;
	end
	X_CFG: begin
		size <= !id_known ? {XA+1{1'b0}} : is_count ? cfg_cnt_size[(XA+1) * id +: XA+1] :
			cfg_reg_size[(XA+1) * id +: XA+1];
		base <= is_count ? cfg_cnt_base[XA * id +: XA] : cfg_reg_base[XA * id +: XA];
		kind <= cfg_cnt_kind[2 * id +: 2];
		width_mask <= low_ones(cfg_reg_width[7 * id +: 7]);
		b_extended <= b_negative ? x_b | ~low_ones(x_b_width) : x_b;
		state <= X_CHECK;
	end
	X_CHECK: begin		// where the cell is
		ok <= one_cell || !a_negative && !a_high && x_a[XA:0] < size;
		at <= base + (is_count ? index << 1 : index);
		reg_value <= b_extended & width_mask;
		second <= is_count && kind == KIND_BYTES;
		state <= X_GO;
	end
	X_GO: begin
		x_result <= 64'd0;
		raddr <= word_at;
		if (!ok || !is_count && x_op != OP_REG_READ) begin	// nothing, or a REG_WRITE
			we <= ok;
			waddr <= at;
			wdata <= reg_value;
			x_done <= 1'b1;
			state <= X_IDLE;
		end else begin
			state <= X_USE;
		end
	end
	default: begin		// X_USE: the cell's word read
		if (is_count) begin
			we <= 1'b1;
			waddr <= word_at;
			wdata <= rdata + (second ? x_b : 64'd1);
			if (!second && kind != KIND_PACKETS) begin	// BOTH: the bytes too
				second <= 1'b1;
				state <= X_GO;
			end else begin
				x_done <= 1'b1;
				state <= X_IDLE;
			end
		end else begin
			x_result <= rdata;
			x_done <= 1'b1;
			state <= X_IDLE;
		end
	end
	endcase
	if (rst) begin
		state <= X_IDLE;
		we <= 1'b0;
		x_done <= 1'b0;
		c_rvalid <= 1'b0;
	end
end

`ifdef FORMAL
// Checked by hw/formal (yosys-smtbmc, BMC and k-induction): an instruction started is done
// exactly once, within 8 clocks; the control port takes nothing while one runs, and answers a
// read two clocks after taking it, from the address it took. Assumed, the action unit's side:
// one instruction at a time, its operands held until done.
reg f_past_valid = 1'b0;
always @(posedge clk)
	f_past_valid <= 1'b1;

initial assume (rst);

reg f_busy = 1'b0;		// an instruction started and not yet done
reg [3:0] f_clocks = 4'd0;	// ... for this many clocks
always @(posedge clk) begin
	if (rst || x_done) begin
		f_busy <= 1'b0;
		f_clocks <= 4'd0;
	end else if (x_start || f_busy) begin
		f_busy <= 1'b1;
		f_clocks <= f_clocks + 1'b1;
	end
end
always @(*)
	if (rst || f_busy)
		assume (!x_start);
always @(posedge clk)
	if (f_past_valid && f_busy && $past(x_start || f_busy))
		assume ($stable({x_op, x_imm, x_sgn, x_a, x_a_width, x_b, x_b_width}));

always @(*)
	if (!rst) begin
		if (x_done)
			assert (f_busy && state == X_IDLE);
		if (f_busy && !x_done)
			assert (!c_ready && state != X_IDLE && state != X_CTL);
		if (!f_busy)
			assert ((state == X_IDLE || state == X_CTL) && f_clocks == 4'd0);
		// the clocks each step is reached in: done by the 8th
		if (x_done)
			assert (f_clocks <= 4'd8);
		if (f_busy && !x_done)
			case (state)
			X_ID: assert (f_clocks == 4'd1);
			X_CFG: assert (f_clocks == 4'd2);
			X_CHECK: assert (f_clocks == 4'd3);
			X_GO: assert (f_clocks == 4'd4 || f_clocks == 4'd6 && second);
			X_USE: assert (f_clocks == 4'd5 || f_clocks == 4'd7 && second);
			default: ;
			endcase
	end
always @(posedge clk)
	if (f_past_valid && !$past(rst)) begin
		// a read taken is answered two clocks on, from its address
		assert ((state == X_CTL) == $past(c_valid && c_ready && !c_write));
		if (state == X_CTL)
			assert (raddr == $past(c_addr));
		if (!rst)
			assert (c_rvalid == (f_past_valid && $past(state == X_CTL)));
	end

always @(posedge clk) begin
	cover (x_done && x_op == OP_REG_READ && x_result != 64'd0);
	cover (x_done && is_count && second);
	cover (c_rvalid && c_rdata != 64'd0);
end
`endif

endmodule

`resetall
