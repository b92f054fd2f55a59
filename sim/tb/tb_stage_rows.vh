// SPDX-License-Identifier: Apache-2.0
// Shared by tb_pisa_stage_match and tb_pisa_stage (included inside the module after it
// declares clk and pisa_stage_match's row ports as registers: we_way, we_bucket, wt_index,
// wt_nbytes, w_row_valid, w_action, w_key, w_mask, w_data, we_valid, wt_valid, and the wires
// we_ready, wt_ready): one row written to the exact or the ternary unit, as a vector file gives
// it, held until the unit takes it.

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
