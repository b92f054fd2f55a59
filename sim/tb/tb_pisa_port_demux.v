// SPDX-License-Identifier: Apache-2.0
// tb_pisa_port_demux: self-checking test of pisa_port_demux. A randomly idle source sends packets
// (1 to 40 bytes) to random ports, about a quarter of them to ports that do not exist here
// (below PORT_BASE, just past the last output, far away); after a packet's first beat the source
// changes s_port at random (the demux must hold the first beat's). Each output is randomly not
// ready. Checked: every output receives exactly the packets for its port, whole and in order;
// no other packet reaches any output; drops counts the packets to missing ports; every output
// keeps the stream contract; with every output always ready the stream moves a byte a cycle.
// Runs for N = 1 .. 4 and two port bases.
`default_nettype none

module tb_pisa_port_demux_case #(
	parameter N = 2,
	parameter PORT_BASE = 0,
	parameter NPKT = 300,
	parameter SEED = 1
) (
	output reg done,
	output reg [31:0] errors
);
reg clk = 1'b0, rst = 1'b1;
always #5 clk = ~clk;

reg [15:0] s_port = 16'd0;
reg [7:0] s_data = 8'd0;
reg s_last = 1'b0, s_valid = 1'b0;
wire s_ready;
wire [7:0] m_data;
wire [N-1:0] m_last, m_valid;
reg [N-1:0] m_ready = {N{1'b0}};
wire [31:0] drops;

pisa_port_demux #(.N(N), .PORT_BASE(PORT_BASE)) dut (
	.clk(clk), .rst(rst),
	.s_port(s_port), .s_data(s_data), .s_last(s_last), .s_valid(s_valid), .s_ready(s_ready),
	.m_data(m_data), .m_last(m_last), .m_valid(m_valid), .m_ready(m_ready), .drops(drops)
);

integer seed = SEED;
task fail(input [8 * 80 - 1:0] what);
	begin
		errors = errors + 1;
		if (errors < 10)
			$display("%m: %0s", what);
	end
endtask

integer plen [0:NPKT-1];
integer pport [0:NPKT-1];
integer exp_drops = 0, fast_bytes = 0;
function [7:0] pbyte(input integer p, input integer k);
	pbyte = p[7:0] ^ {k[4:0], 3'b000} ^ (k >> 5);
endfunction

// ---- the source ----
integer sp = 0, sk = 0, p_valid = 70;
reg all_ready = 1'b0;
always @(posedge clk) begin
	if (!rst) begin
		if (s_valid && s_ready) begin
			if (s_last) begin
				sp = sp + 1;
				sk = 0;
			end else begin
				sk = sk + 1;
			end
		end
		if (!s_valid || s_ready) begin
			if (sp < NPKT && (all_ready || ($random(seed) & 32'h7f) % 100 < p_valid)) begin
				s_valid <= 1'b1;
				s_data <= pbyte(sp, sk);
				s_last <= sk + 1 == plen[sp];
				s_port <= sk == 0 ? pport[sp] : $random(seed);
			end else begin
				s_valid <= 1'b0;
				s_data <= 8'hxx;
				s_last <= 1'bx;
				s_port <= 16'hxxxx;
			end
		end
	end
end

// ---- the outputs ----
integer op [0:N-1];     // index of the packet the output is receiving or expects next
integer ok [0:N-1];     // its next byte
reg [N-1:0] held = {N{1'b0}};
reg [8:0] held_v [0:N-1];
integer i, q, got = 0, cyc = 0;

// The next packet for output i at or after packet p.
function integer next_for(input integer i, input integer p);
	integer r;
	begin
		r = p;
		while (r < NPKT && pport[r] != PORT_BASE + i)
			r = r + 1;
		next_for = r;
	end
endfunction

always @(posedge clk) begin
	if (!rst && !done) begin
		cyc = cyc + 1;
		for (i = 0; i < N; i = i + 1) begin
			if (held[i] && (!m_valid[i] || {m_last[i], m_data} !== held_v[i]))
				fail("an output changed while not ready");
			if (m_valid[i] && m_ready[i]) begin
				q = op[i];
				if (q >= NPKT || m_data !== pbyte(q, ok[i]) ||
						m_last[i] !== (ok[i] + 1 == plen[q])) begin
					fail("wrong byte on an output, or last misplaced");
					$display("%m: output %0d packet %0d byte %0d: %h", i, q, ok[i], m_data);
				end
				ok[i] = ok[i] + 1;
				if (m_last[i]) begin
					ok[i] = 0;
					op[i] = next_for(i, q + 1);
					got = got + 1;
				end
			end
			held[i] = m_valid[i] && !m_ready[i];
			held_v[i] = {m_last[i], m_data};
		end
		m_ready <= all_ready ? {N{1'b1}} : $random(seed);
	end
end

integer k, n_good, t0;
initial begin
	done = 1'b0;
	errors = 0;
	n_good = 0;
	for (k = 0; k < NPKT; k = k + 1) begin
		plen[k] = 1 + ($random(seed) & 32'hffff) % 40;
		case (($random(seed) & 32'hff) % 12)
		0: pport[k] = PORT_BASE - 1;          // below (wraps for PORT_BASE 0)
		1: pport[k] = PORT_BASE + N;          // just past the last output
		2: pport[k] = 255;                    // the CPU port: not an output here
		default: pport[k] = PORT_BASE + ($random(seed) & 32'hff) % N;
		endcase
		pport[k] = pport[k] & 16'hffff;
		if (pport[k] < PORT_BASE || pport[k] >= PORT_BASE + N)
			exp_drops = exp_drops + 1;
		else
			n_good = n_good + 1;
		if (k >= NPKT / 2)
			fast_bytes = fast_bytes + plen[k];
	end
	for (i = 0; i < N; i = i + 1) begin
		op[i] = next_for(i, 0);
		ok[i] = 0;
	end
	repeat (3) @(posedge clk);
	rst <= 1'b0;
	wait (sp >= NPKT / 2 || cyc > 100000);
	// the second half with every output ready and the source always valid
	@(posedge clk);
	all_ready = 1'b1;
	t0 = cyc;
	wait (sp == NPKT || cyc > 100000);
	if (cyc - t0 > fast_bytes + 4) begin
		fail("slower than a byte a cycle with every output ready");
		$display("%m: %0d cycles for %0d bytes", cyc - t0, fast_bytes);
	end
	repeat (4) @(posedge clk);
	if (got != n_good)
		fail("not every packet for an existing port came out");
	if (drops != exp_drops) begin
		fail("drops wrong");
		$display("%m: drops %0d, expected %0d", drops, exp_drops);
	end
	done = 1'b1;
end
endmodule

module tb_pisa_port_demux;
wire [4:0] done;
wire [31:0] e0, e1, e2, e3, e4;
tb_pisa_port_demux_case #(.N(1), .SEED(11)) c0 (.done(done[0]), .errors(e0));
tb_pisa_port_demux_case #(.N(2), .SEED(12)) c1 (.done(done[1]), .errors(e1));
tb_pisa_port_demux_case #(.N(3), .PORT_BASE(4), .SEED(13)) c2 (.done(done[2]), .errors(e2));
tb_pisa_port_demux_case #(.N(4), .SEED(14)) c3 (.done(done[3]), .errors(e3));
tb_pisa_port_demux_case #(.N(4), .PORT_BASE(1), .SEED(15)) c4 (.done(done[4]), .errors(e4));
initial begin
	wait (&done);
	if (e0 + e1 + e2 + e3 + e4 == 0)
		$display("PASSED tb_pisa_port_demux");
	else
		$display("FAILED tb_pisa_port_demux: %0d errors (see messages above)",
			e0 + e1 + e2 + e3 + e4);
	$finish;
end
endmodule

`resetall
