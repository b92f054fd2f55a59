// SPDX-License-Identifier: Apache-2.0
// tb_pisa_action_unit: pisa_action_unit against the PHVs pisa-model's model_exec leaves
// (tests/stage/gen_action_vectors, ACTION_VECTORS; its header gives the format). Each case puts
// its instructions at a random place in the instruction memory and its PHV in the PHV memory
// (both read like a pisa_ram port: the word at the address register, the clock after), offers
// the action after a random delay, holds m_ready low for a random while once the unit is done
// (m_exit and m_extern must hold), and compares every PHV word, m_exit and m_extern. A second
// pass runs the cases again with no delays and counts the unit's clocks per instruction, and
// for the first three cases (examples/ipv4_router's actions) each.
// Prints PASSED TB_NAME (N actions, I instructions, C clocks ...) or FAILED.
`default_nettype none

`ifndef TB_NAME
`define TB_NAME "tb_pisa_action_unit"
`endif
`ifndef ACTION_VECTORS
`define ACTION_VECTORS "build/sim/stage/pisa_action_unit.hex"
`endif
`ifndef PHV_BYTES
`define PHV_BYTES 256
`endif
`ifndef DATA_BYTES
`define DATA_BYTES 8
`endif

module tb_pisa_action_unit;

localparam PHV_BYTES = `PHV_BYTES, DATA_BYTES = `DATA_BYTES;
localparam PW = $clog2(PHV_BYTES / 8), PWORDS = PHV_BYTES / 8, DW = (DATA_BYTES + 7) / 8;
localparam IA = 8, MAX_WORDS = 1 << 20;

reg clk = 1'b0;
always #5 clk = !clk;
reg rst = 1'b1;

reg [IA-1:0] s_insn = 0;
reg [15:0] s_ninsns = 0;
reg [8*DATA_BYTES-1:0] s_data = 0;
reg s_valid = 1'b0;
wire s_ready;
wire [IA-1:0] insn_raddr;
wire [PW-1:0] phv_raddr, phv_waddr;
wire [63:0] phv_rdata, phv_wdata;
wire phv_we;
wire m_exit, m_extern, m_valid;
reg m_ready = 1'b0;

reg [255:0] imem [0:(1 << IA) - 1];
reg [63:0] phv [0:PWORDS-1];
assign phv_rdata = phv[phv_raddr];
always @(posedge clk)
	if (phv_we)
		phv[phv_waddr] <= phv_wdata;

pisa_action_unit #(.PHV_BYTES(PHV_BYTES), .DATA_BYTES(DATA_BYTES), .IA(IA)) dut (
	.clk(clk), .rst(rst),
	.s_insn(s_insn), .s_ninsns(s_ninsns), .s_data(s_data), .s_valid(s_valid), .s_ready(s_ready),
	.insn_raddr(insn_raddr), .insn_rdata(imem[insn_raddr]),
	.phv_raddr(phv_raddr), .phv_rdata(phv_rdata),
	.phv_we(phv_we), .phv_waddr(phv_waddr), .phv_wdata(phv_wdata),
	.x_done(1'b0), .x_result(64'd0),	// without EXTERNS the unit reports them
	.m_exit(m_exit), .m_extern(m_extern), .m_valid(m_valid), .m_ready(m_ready)
);

reg [63:0] vec [0:MAX_WORDS-1];
integer pos, n, i, j, pass, errors, cases, insns, changed, exits, externs, clocks, t0, wait_for;
integer seed, fd, nwords;
integer router_clocks [0:2];	// the first cases: examples/ipv4_router's actions
reg [63:0] hdr;
reg [63:0] expect_phv [0:PWORDS-1];
reg want_exit, want_extern, differs;

task fail;
	input [8*80-1:0] why;
	begin
		$display("FAILED %0s: %0s", `TB_NAME, why);
		$finish;
	end
endtask

initial begin
	seed = 31;
	fd = $fopen(`ACTION_VECTORS, "r");
	if (fd == 0)
		fail("cannot open the vectors");
	nwords = 0;
	while ($fscanf(fd, "%h", vec[nwords]) == 1) begin
		nwords = nwords + 1;
		if (nwords == MAX_WORDS)
			fail("too many vector words");
	end
	$fclose(fd);
	if (nwords == 0 || vec[nwords - 1] != 64'd0 || vec[0] == 64'd0)
		fail("no vectors, or no end word");
	errors = 0;
	repeat (3) @(posedge clk);
	rst <= 1'b0;
	for (pass = 0; pass < 2; pass = pass + 1) begin
		pos = 0;
		cases = 0;
		insns = 0;
		changed = 0;
		exits = 0;
		externs = 0;
		clocks = 0;
		while (vec[pos] != 64'd0) begin
			hdr = vec[pos];
			n = hdr[63:48];
			want_exit = hdr[40];
			want_extern = hdr[32];
			pos = pos + 1;
			s_insn = pass == 0 ? $random(seed) : 0;
			for (i = 0; i < n; i = i + 1)
				imem[(s_insn + i) % (1 << IA)] = {vec[pos + 4 * i], vec[pos + 4 * i + 1],
					vec[pos + 4 * i + 2], vec[pos + 4 * i + 3]};
			pos = pos + 4 * n;
			for (i = 0; i < DATA_BYTES; i = i + 1)
				s_data[8 * (DATA_BYTES - 1 - i) +: 8] = vec[pos + i / 8][8 * (7 - i % 8) +: 8];
			pos = pos + DW;
			differs = 1'b0;
			for (i = 0; i < PWORDS; i = i + 1) begin
				phv[i] = vec[pos + i];
				expect_phv[i] = vec[pos + PWORDS + i];
				if (phv[i] != expect_phv[i])
					differs = 1'b1;
			end
			pos = pos + 2 * PWORDS;
			if (differs)
				changed = changed + 1;
			if (want_exit)
				exits = exits + 1;
			if (want_extern)
				externs = externs + 1;
			s_ninsns = n;
			if (pass == 0)
				repeat ($unsigned($random(seed)) % 4) @(posedge clk);
			#1 s_valid = 1'b1;
			@(posedge clk);
			while (!s_ready)
				@(posedge clk);
			t0 = $time;
			#1 s_valid = 1'b0;
			s_insn = ~s_insn;	// what the unit took must not matter after the start
			s_data = ~s_data;
			wait_for = 0;
			while (!m_valid) begin
				@(posedge clk);
				wait_for = wait_for + 1;
				if (wait_for > 200 * n + 100)
					fail("an action never ended");
			end
			clocks = clocks + ($time - t0) / 10;
			if (pass == 1 && cases < 3)
				router_clocks[cases] = ($time - t0) / 10;
			if (pass == 0) begin
				// the result must hold while the sink is not ready
				repeat ($unsigned($random(seed)) % 3) begin
					#1 if (!m_valid || m_exit !== want_exit || m_extern !== want_extern)
						fail("the result changed while m_ready was low");
					@(posedge clk);
				end
			end
			#1 if (m_exit !== want_exit || m_extern !== want_extern) begin
				$display("case %0d: m_exit %b m_extern %b, want %b %b", cases, m_exit,
					m_extern, want_exit, want_extern);
				errors = errors + 1;
			end
			m_ready = 1'b1;
			@(posedge clk);
			#1 m_ready = 1'b0;
			for (i = 0; i < PWORDS; i = i + 1)
				if (phv[i] !== expect_phv[i]) begin
					if (errors < 10)
						$display("case %0d (%0d insns): PHV word %0d %h, want %h",
							cases, n, i, phv[i], expect_phv[i]);
					errors = errors + 1;
				end
			cases = cases + 1;
			insns = insns + n;
		end
		if (errors != 0) begin
			$display("FAILED %0s: %0d wrong PHV words or flags", `TB_NAME, errors);
			$finish;
		end
	end
	// the vectors must exercise what the unit does
	if (changed < cases / 2 || exits == 0 || externs == 0)
		fail("the vectors change too few PHVs, or none exits or runs an extern");
	$display("PASSED %0s (%0d actions, %0d instructions, %0d changed PHVs, %0d exits, %0d externs; %0d clocks back to back, %0d.%0d a listed instruction; ipv4_router's set_nhop (3 instructions) %0d clocks, its gateway (5) %0d, set_smac (1) %0d)",
		`TB_NAME, cases, insns, changed, exits, externs, clocks, clocks / insns,
		(clocks * 10 / insns) % 10, router_clocks[0], router_clocks[1], router_clocks[2]);
	$finish;
end

endmodule

`resetall
