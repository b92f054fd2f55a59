// SPDX-License-Identifier: Apache-2.0
// LINK_SET names the gen_frames file set ("link" or "short").
// Shared by tb_pisa_link_ctrl and tb_pisa_ctl_link (included inside a case module that
// declares the DUT's ports, the memories and SEED/P_VALID/P_READY): the byte source, the
// consumer of commands and requests with gen_frames' stub rules, the reply checker.

integer seed = SEED;
integer n_in, n_cmd, n_req, n_rep, sent = 0, got_cmd = 0, got_req = 0, got_rep = 0;
integer req_i = 0, delay = 0, wait_cycles = 0;
integer staged = 0;
reg [7:0] req_bytes [0:15];
reg rsp_due = 1'b0;
reg cmd_stalled = 1'b0, req_stalled = 1'b0, m_stalled = 1'b0;
reg [111:0] cmd_held;
reg [39:0] req_held;
reg [8:0] m_held;
reg [31:0] w;

task fail(input [8 * 64 - 1:0] what);
	begin
		errors = errors + 1;
		if (errors < 10)
			$display("%m: %0s (cmd %0d req %0d reply byte %0d)", what, got_cmd, got_req, got_rep);
	end
endtask

wire [111:0] cmd_word = {3'd0, cmd_last, cmd_kind, cmd_id, cmd_index, cmd_flag, cmd_len, cmd_data};
wire [39:0] req_word = {3'd0, req_last, req_type, req_len, 4'd0, req_data};

always @(posedge clk) begin
	if (!rst) begin
		if (cmd_stalled && (!cmd_valid || cmd_word !== cmd_held))
			fail("command changed while stalled");
		if (req_stalled && (!req_valid || req_word !== req_held))
			fail("request changed while stalled");
		if (m_stalled && (!m_valid || {m_last, m_data} !== m_held))
			fail("reply byte changed while stalled");
		// commands
		if (cmd_valid && cmd_ready) begin
			if (got_cmd >= n_cmd || cmd_word !== cmd_mem[got_cmd]) begin
				fail("command differs");
				$display("%m: got %h, expected %h", cmd_word, cmd_mem[got_cmd]);
			end
			got_cmd = got_cmd + 1;
			if (cmd_last) begin
				rsp_due = 1'b1;
				rsp_err <= cmd_id == 16'h0BAD ? 8'd6 : 8'd0;
				rsp_a <= {16'h5A5A, cmd_id, cmd_index};
				rsp_b <= ~{16'h5A5A, cmd_id, cmd_index};
				delay = ($random(seed) & 32'h7) * (P_READY < 100);
			end
		end
		// requests
		if (req_valid && req_ready) begin
			if (got_req >= n_req || req_word !== req_mem[got_req]) begin
				fail("request differs");
				$display("%m: got %h, expected %h", req_word, req_mem[got_req]);
			end
			got_req = got_req + 1;
			if (req_i < 16)
				req_bytes[req_i] = req_data;
			req_i = req_i + 1;
			if (req_last) begin
				rsp_due = 1'b1;
				rsp_err <= 8'd0;
				rsp_a <= 64'd0;
				rsp_b <= 64'd0;
				delay = ($random(seed) & 32'h7) * (P_READY < 100);
				w = {req_bytes[3], req_bytes[2], req_bytes[1], req_bytes[0]};
				if (req_type == 8'h06 && {req_bytes[1], req_bytes[0]} == 16'h0BAD)
					rsp_err <= 8'd6;
				if (req_type == 8'h02) begin
					if (w == 0)
						staged = 0;
					if (w != staged)
						rsp_err <= 8'd6;
					else
						staged = staged + req_len - 4;
				end
				if (req_type == 8'h03 && w != staged)
					rsp_err <= 8'd6;
				req_i = 0;
			end
		end
		// answers, after a random delay, held until taken
		if (rsp_valid && rsp_ready)
			rsp_valid <= 1'b0;
		if (rsp_due && !(rsp_valid && !rsp_ready)) begin
			if (delay == 0) begin
				rsp_valid <= 1'b1;
				rsp_due = 1'b0;
			end else begin
				delay = delay - 1;
			end
		end
		// reply bytes
		if (m_valid && m_ready) begin
			if (got_rep >= n_rep || m_data !== rep_mem[got_rep]) begin
				fail("reply byte differs");
				$display("%m: got %h, expected %h", m_data, rep_mem[got_rep]);
			end
			got_rep = got_rep + 1;
		end
		cmd_stalled = cmd_valid && !cmd_ready;
		cmd_held = cmd_word;
		req_stalled = req_valid && !req_ready;
		req_held = req_word;
		m_stalled = m_valid && !m_ready;
		m_held = {m_last, m_data};
		cmd_ready <= ($random(seed) & 32'h7f) % 100 < P_READY;
		req_ready <= ($random(seed) & 32'h7f) % 100 < P_READY;
		m_ready <= ($random(seed) & 32'h7f) % 100 < P_READY;
	end
end

task load_files;
	begin
		$readmemh({`HWLINK_DIR, "/", `LINK_SET, "_meta.hex"}, meta, 0, 6);
		n_in = meta[0];
		n_cmd = meta[1];
		n_req = meta[2];
		n_rep = meta[3];
		image_len = meta[4];
		image_crc = meta[5];
		$readmemh({`HWLINK_DIR, "/", `LINK_SET, "_in.hex"}, in_mem, 0, n_in - 1);
		$readmemh({`HWLINK_DIR, "/", `LINK_SET, "_cmd.hex"}, cmd_mem, 0, n_cmd - 1);
		$readmemh({`HWLINK_DIR, "/", `LINK_SET, "_req.hex"}, req_mem, 0, n_req - 1);
		$readmemh({`HWLINK_DIR, "/", `LINK_SET, "_reply.hex"}, rep_mem, 0, n_rep - 1);
	end
endtask

// After the last byte went in: everything expected came out, and nothing more.
task finish_check;
	begin
		while ((got_rep < n_rep || got_cmd < n_cmd || got_req < n_req) && wait_cycles < 2000000) begin
			@(posedge clk);
			wait_cycles = wait_cycles + 1;
		end
		repeat (2000) @(posedge clk);
		if (got_rep != n_rep || got_cmd != n_cmd || got_req != n_req) begin
			fail("output count differs");
			$display("%m: replies %0d/%0d commands %0d/%0d requests %0d/%0d", got_rep, n_rep,
				got_cmd, n_cmd, got_req, n_req);
		end
	end
endtask
