// SPDX-License-Identifier: Apache-2.0
// board_line_in.vh: a behavioural PHY's receive side for port g (included in a generate loop
// over g, after board_pins.vh): line_byte puts one byte time on the port's pins, line_frame a
// frame from fb (preamble, SFD, the bytes, the 12-byte gap).
`ifdef BOARD_COLORLIGHT
// One byte time on the RGMII pins: the low nibble and RX_DV a quarter period before RXC rises,
// the high nibble (RX_ER = 0) a quarter period before it falls.
task line_byte(input [7:0] b, input dv);
	begin
		@(negedge rx_clk[g]);
		#2;
		rxd[4 * g +: 4] = b[3:0];
		rx_ctl[g] = dv;
		@(posedge rx_clk[g]);
		#2;
		rxd[4 * g +: 4] = b[7:4];
	end
endtask
`else
// One byte time on the RMII pins: four dibits, low first, CRS_DV = dv.
task line_byte(input [7:0] b, input dv);
	integer d;
	begin
		for (d = 0; d < 4; d = d + 1) begin
			@(posedge ref_clk);
			rxd[2 * g +: 2] <= b[2 * d +: 2];
			crs_dv[g] <= dv;
		end
	end
endtask
`endif

reg [7:0] fb [0:65535 + 4];    // the frame line_frame sends: its bytes and FCS

task line_frame(input integer n);
	integer j;
	begin
		for (j = 0; j < 7; j = j + 1)
			line_byte(8'h55, 1'b1);
		line_byte(8'hD5, 1'b1);
		for (j = 0; j < n; j = j + 1)
			line_byte(fb[j], 1'b1);
		for (j = 0; j < 12; j = j + 1)
			line_byte(8'h00, 1'b0);
	end
endtask
