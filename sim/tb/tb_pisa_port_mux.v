// SPDX-License-Identifier: Apache-2.0
// tb_pisa_port_mux: self-checking test of pisa_port_mux. Every input is a randomly idle source of
// packets (1 to 40 bytes, each byte naming its input, packet and position); the sink is randomly
// not ready. Checked: every packet comes out whole, in order per input, tagged with its port,
// never interleaved with another; m_* keeps the stream contract; an input with a packet waiting
// is granted after at most one packet of each other input; and with all inputs always busy and
// the sink always ready, each packet costs its length plus one cycle. Runs for N = 1 .. 4 and two
// port bases.
`default_nettype none

module tb_pisa_port_mux_case #(
	parameter N = 2,
	parameter PORT_BASE = 0,
	parameter NPKT = 60,       // packets per input
	parameter SEED = 1
) (
	output reg done,
	output reg [31:0] errors
);
reg clk = 1'b0, rst = 1'b1;
always #5 clk = ~clk;

reg [8*N-1:0] s_data;
reg [N-1:0] s_last, s_valid;
wire [N-1:0] s_ready;
wire [8:0] m_port;
wire [7:0] m_data;
wire m_last, m_valid;
reg m_ready = 1'b0;

pisa_port_mux #(.N(N), .PORT_BASE(PORT_BASE)) dut (
	.clk(clk), .rst(rst),
	.s_data(s_data), .s_last(s_last), .s_valid(s_valid), .s_ready(s_ready),
	.m_port(m_port), .m_data(m_data), .m_last(m_last), .m_valid(m_valid), .m_ready(m_ready)
);

integer seed = SEED;
task fail(input [8 * 80 - 1:0] what);
	begin
		errors = errors + 1;
		if (errors < 10)
			$display("%m: %0s", what);
	end
endtask

// Packet p of input i: length len_of(i, p); byte k = {i[1:0], p[2:0], k[2:0]} ^ k[10:3].
integer plen [0:4*256-1];
function [7:0] pbyte(input integer i, input integer p, input integer k);
	pbyte = {i[1:0], p[2:0], k[2:0]} ^ (k >> 3);
endfunction

// ---- sources ----
integer sp [0:N-1];     // packet being sent
integer sk [0:N-1];     // its next byte
integer p_valid = 70;
reg all_busy = 1'b0;    // phase 2: every source always valid, the sink always ready
integer i, j;
always @(posedge clk) begin
	if (rst) begin
		s_valid <= {N{1'b0}};
		for (i = 0; i < N; i = i + 1) begin
			sp[i] = 0;
			sk[i] = 0;
		end
	end else begin
		for (i = 0; i < N; i = i + 1) begin
			if (s_valid[i] && s_ready[i]) begin
				if (s_last[i]) begin
					sp[i] = sp[i] + 1;
					sk[i] = 0;
				end else begin
					sk[i] = sk[i] + 1;
				end
			end
			if (!s_valid[i] || s_ready[i]) begin
				if (sp[i] < NPKT && (all_busy || ($random(seed) & 32'h7f) % 100 < p_valid)) begin
					s_valid[i] <= 1'b1;
					s_data[8 * i +: 8] <= pbyte(i, sp[i], sk[i]);
					s_last[i] <= sk[i] + 1 == plen[i * 256 + sp[i]];
				end else begin
					s_valid[i] <= 1'b0;
					s_data[8 * i +: 8] <= 8'hxx;
					s_last[i] <= 1'bx;
				end
			end
		end
	end
end

// ---- sink ----
integer rp [0:N-1];     // next packet expected from each input
integer rk = 0, cur = -1, got = 0;
reg held = 1'b0;
reg [17:0] held_v;
integer wait_n [0:N-1]; // packets of others completed while input i waited
integer cyc = 0, t_start = 0;
always @(posedge clk) begin
	if (!rst && !done) begin
		cyc = cyc + 1;
		if (held && (!m_valid || {m_port, m_data, m_last} !== held_v))
			fail("m_* changed while not ready");
		if (m_valid && m_ready) begin
			i = m_port - PORT_BASE;
			if (i < 0 || i >= N) begin
				fail("m_port out of range");
			end else begin
				if (cur >= 0 && cur != i)
					fail("packets interleaved");
				cur = i;
				if (rp[i] >= NPKT || m_data !== pbyte(i, rp[i], rk) ||
						m_last !== (rk + 1 == plen[i * 256 + rp[i]]))
					fail("wrong byte, or last in the wrong place");
				rk = rk + 1;
				if (m_last) begin
					for (j = 0; j < N; j = j + 1)
						if (j != i && s_valid[j]) begin
							wait_n[j] = wait_n[j] + 1;
							if (wait_n[j] > N - 1)
								fail("an input waited for more than one packet of each other");
						end
					wait_n[i] = 0;
					rp[i] = rp[i] + 1;
					rk = 0;
					cur = -1;
					got = got + 1;
				end
			end
		end
		for (j = 0; j < N; j = j + 1)
			if (!s_valid[j])
				wait_n[j] = 0;
		held = m_valid && !m_ready;
		held_v = {m_port, m_data, m_last};
		m_ready <= all_busy || ($random(seed) & 3) != 0;
	end
end

integer k, tot_bytes, phase2_bytes;
initial begin
	done = 1'b0;
	errors = 0;
	tot_bytes = 0;
	phase2_bytes = 0;
	for (i = 0; i < N; i = i + 1) begin
		rp[i] = 0;
		wait_n[i] = 0;
		for (k = 0; k < NPKT; k = k + 1) begin
			plen[i * 256 + k] = 1 + ($random(seed) & 32'hffff) % 40;
			if (k >= NPKT / 2)
				phase2_bytes = phase2_bytes + plen[i * 256 + k];
		end
	end
	repeat (3) @(posedge clk);
	rst <= 1'b0;
	// phase 1: random sources and sink, until half the packets are through
	wait (got >= N * NPKT / 2 || cyc > 100000);
	// phase 2: the rest with every source busy and the sink always ready (sources may still be
	// mid-packet from phase 1: start counting once each input is on a packet boundary)
	@(posedge clk);
	all_busy = 1'b1;
	t_start = cyc;
	wait (got == N * NPKT || cyc > 200000);
	@(posedge clk);
	if (got != N * NPKT)
		fail("not every packet came out");
	// every packet costs its length plus one cycle (the grant), give or take the phase change
	if (cyc - t_start > phase2_bytes + N * NPKT / 2 + 2 * N + 4) begin
		fail("slower than a byte a cycle plus one cycle per packet");
		$display("%m: %0d cycles for %0d bytes in %0d packets", cyc - t_start, phase2_bytes,
			N * NPKT / 2);
	end
	done = 1'b1;
end
endmodule

module tb_pisa_port_mux;
wire [4:0] done;
wire [31:0] e0, e1, e2, e3, e4;
tb_pisa_port_mux_case #(.N(1), .SEED(1)) c0 (.done(done[0]), .errors(e0));
tb_pisa_port_mux_case #(.N(2), .SEED(2)) c1 (.done(done[1]), .errors(e1));
tb_pisa_port_mux_case #(.N(3), .PORT_BASE(5), .SEED(3)) c2 (.done(done[2]), .errors(e2));
tb_pisa_port_mux_case #(.N(4), .SEED(4)) c3 (.done(done[3]), .errors(e3));
tb_pisa_port_mux_case #(.N(4), .PORT_BASE(1), .NPKT(200), .SEED(5)) c4 (.done(done[4]), .errors(e4));
initial begin
	wait (&done);
	if (e0 + e1 + e2 + e3 + e4 == 0)
		$display("PASSED tb_pisa_port_mux");
	else
		$display("FAILED tb_pisa_port_mux: %0d errors (see messages above)", e0 + e1 + e2 + e3 + e4);
	$finish;
end
endmodule

`resetall
