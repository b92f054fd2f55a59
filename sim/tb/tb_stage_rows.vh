// SPDX-License-Identifier: Apache-2.0
// Shared by tb_pisa_stage_match and tb_pisa_stage (included inside the module after it
// declares clk, WAY_W, WAY_BITS, IDX_W, NB_W, KEY_BYTES and DATA_BYTES, and before it connects
// the rows' ports): the registers that drive pisa_stage_match's row ports (w_row_valid,
// w_action, w_key and w_data for both units) and, with the module's wires we_ready and
// wt_ready, the tasks that write one row to the exact or the ternary unit, as a vector file
// gives it, held until the unit takes it.

reg [WAY_W-1:0] we_way = 0;
reg [WAY_BITS-1:0] we_bucket = 0;
reg [IDX_W-1:0] wt_index = 0;
reg [NB_W-1:0] wt_nbytes = 0;
reg w_row_valid = 1'b0;
reg [15:0] w_action = 16'd0;
reg [8*KEY_BYTES-1:0] w_key = 0, w_mask = 0;
reg [8*DATA_BYTES-1:0] w_data = 0;
reg we_valid = 1'b0, wt_valid = 1'b0;

task write_exact_row(input [63:0] way, input [63:0] bucket, input [63:0] valid,
	input [63:0] action, input [63:0] key, input [63:0] data);
	begin
		we_way <= way[WAY_W-1:0];
		we_bucket <= bucket[WAY_BITS-1:0];
		w_row_valid <= valid[0];
		w_action <= action[15:0];
		w_key <= key[8*KEY_BYTES-1:0];
		w_data <= data[8*DATA_BYTES-1:0];
		we_valid <= 1'b1;
		@(posedge clk);
		while (!we_ready)
			@(posedge clk);
		we_valid <= 1'b0;
	end
endtask

task write_ternary_row(input [63:0] index, input [63:0] nbytes, input [63:0] valid,
	input [63:0] action, input [63:0] value, input [63:0] mask, input [63:0] data);
	begin
		wt_index <= index[IDX_W-1:0];
		wt_nbytes <= nbytes[NB_W-1:0];
		w_row_valid <= valid[0];
		w_action <= action[15:0];
		w_key <= value[8*KEY_BYTES-1:0];
		w_mask <= mask[8*KEY_BYTES-1:0];
		w_data <= data[8*DATA_BYTES-1:0];
		wt_valid <= 1'b1;
		@(posedge clk);
		while (!wt_ready)
			@(posedge clk);
		wt_valid <= 1'b0;
	end
endtask
