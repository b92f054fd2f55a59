// SPDX-License-Identifier: Apache-2.0
// board_line_out.vh: a behavioural PHY's transmit side for port g (included in a generate loop
// over g, after board_pins.vh): it collects what the port's TX pins send, preamble and SFD
// included, into ob[0 .. nb-1] and calls the includer's task tx_frame (in the same scope) when
// TX_EN / TX_CTL drops; tx_good says whether that frame has its SFD and a good FCS.
reg [7:0] ob [0:65535];
integer nb, nd = 0;
reg in_frame = 1'b0;

// 7 x 55, D5, the frame, its FCS: the SFD in place and the CRC over frame and FCS the residue
function tx_good(input integer n);
	integer k;
	reg [31:0] c;
	begin
		c = 32'hFFFFFFFF;
		for (k = 8; k < n; k = k + 1)
			c = crc_byte(c, ob[k]);
		tx_good = ob[7] === 8'hD5 && ~c == 32'h2144DF1C;
	end
endfunction
`ifdef BOARD_COLORLIGHT
// a byte per TXC cycle: low nibble and TX_CTL a quarter period after TXC rises, the high nibble
// a quarter period after it falls
reg [3:0] lo;
reg ctl;
always begin
	@(posedge tx_clk_pin[g]);
	#2;
	lo = txd[4 * g +: 4];
	ctl = tx_en[g];
	@(negedge tx_clk_pin[g]);
	#2;
	if (ctl) begin
		in_frame = 1'b1;
		if (nd < 65536)
			ob[nd] = {txd[4 * g +: 4], lo};
		nd = nd + 1;
	end else if (in_frame) begin
		in_frame = 1'b0;
		nb = nd < 65536 ? nd : 65536;
		nd = 0;
		tx_frame;
	end
end
`else
reg [7:0] sr;
always @(posedge ref_clk) begin
	if (tx_en[g]) begin
		in_frame = 1'b1;
		sr = {txd[2 * g +: 2], sr[7:2]};
		if (nd % 4 == 3 && nd / 4 < 65536)
			ob[nd / 4] = sr;
		nd = nd + 1;
	end else if (in_frame) begin
		in_frame = 1'b0;
		nb = nd / 4 < 65536 ? nd / 4 : 65536;
		nd = 0;
		tx_frame;
	end
end
`endif
