#!/usr/bin/env bash
# test_cosim.sh BIN COSIM: pisad against the co-simulated board (sim/cosim: tb_cosim.vvp and
# pisa_vpi.vpi in COSIM): every protocol byte crosses the Verilog UART, frame decoder and
# pisa_link_ctrl, every image byte pisa_loader, every table write and packet pisa_core.
# Checks that pisad reports the HELLO_REPLY the Verilog sent; that a program loads, takes
# its commands file, and routes and counts a packet-out in the RTL; that the board refuses
# an image the core cannot run and keeps the running one; that pisad reconnects when the
# simulation is killed and started again and restores the program and entries; that a
# packet to the CPU port and a digest reach pisactl listen; and the co-simulation's own error
# messages. Prints PASS/FAIL lines; exits 1 if any failed.
# KEEP=1 keeps the temporary folder (logs of the simulations and pisad).
set -u
BIN=$(cd "$1" && pwd)
COSIM=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
T=$(mktemp -d /tmp/pisa-cosim-test.XXXXXX)
cd "$T" || exit 1
pids=()
fails=0

cleanup() {
	local p
	for p in "${pids[@]}"; do
		kill -TERM "$p" 2>/dev/null
	done
	sleep 0.2
	for p in "${pids[@]}"; do
		kill -KILL "$p" 2>/dev/null
	done
	for p in "${pids[@]}"; do
		{ wait "$p"; } 2>/dev/null
	done
	[ -n "${KEEP:-}" ] && echo "cosim: kept $T" || rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

pass() { echo "PASS cosim/$1"; }
fail() { echo "FAIL cosim/$1: $2"; fails=$((fails + 1)); }
check() {	# NAME COMMAND...: PASS if the command succeeds
	local name=$1
	shift
	if "$@"; then pass "$name"; else fail "$name" "${WHY:-check failed}"; fi
	WHY=
}
has() { grep -q -- "$2" "$1"; }
oneline() { tr '\n' ' ' <"$1" | head -c 300; }

wait_for() {	# COMMAND [TENTHS]: up to TENTHS / 10 s (default 10 s)
	local i
	for i in $(seq "${2:-100}"); do
		eval "$1" >/dev/null 2>&1 && return 0
		sleep 0.1
	done
	return 1
}

stop() {	# PID: TERM, then KILL if it does not go within 3 s
	local i
	kill -TERM "$1" 2>/dev/null
	for i in $(seq 30); do
		kill -0 "$1" 2>/dev/null || break
		sleep 0.1
	done
	kill -0 "$1" 2>/dev/null && kill -KILL "$1" 2>/dev/null
	{ wait "$1"; } 2>/dev/null
}

SW=$T/sw.sock
CTLS=$T/ctl.sock
CTL() { "$BIN/pisactl" --socket "$CTLS" "$@"; }
# What tb_cosim's parameters put into HELLO_REPLY (the sim profile of lib/pisa_profile.c as
# pisa-model announces it, max payload 128), as pisactl status prints it.
HELLO="switch: connected (board sim, version 1.0, 511 ports, cpu port 255, 32 stages, window 16, max payload 128)"
WHY=

start_sim() {	# LOG: the co-simulation serving $SW; its pid in SIM
	vvp -n -M "$COSIM" -m pisa_vpi "$COSIM/tb_cosim.vvp" "+sock=$SW" >"$1" 2>&1 &
	SIM=$!
	pids+=("$SIM")
	wait_for "grep -q 'pisa_vpi: listening on $SW' '$1'"
}

# ---- the co-simulation's own errors: a message and the end, no crash, no hang ----
timeout 20 vvp -n -M "$COSIM" -m pisa_vpi "$COSIM/tb_cosim.vvp" >"$T/e1.log" 2>&1
rc=$?
WHY="exit $rc: $(oneline "$T/e1.log")"
check no_sock_plusarg_refused test "$rc" -eq 1 -a -n "$(grep 'run with +sock=PATH' "$T/e1.log")"
: >"$T/plain-file"
timeout 20 vvp -n -M "$COSIM" -m pisa_vpi "$COSIM/tb_cosim.vvp" "+sock=$T/plain-file" >"$T/e2.log" 2>&1
rc=$?
WHY="exit $rc: $(oneline "$T/e2.log")"
check sock_path_not_a_socket_refused test "$rc" -eq 1 -a -n "$(grep 'exists and is not a socket' "$T/e2.log")" \
	-a -f "$T/plain-file"
# bad arguments of the VPI functions, in a small design of their own
cat >"$T/bad_args.v" <<'EOF'
module bad_args;
integer r;
initial begin
	r = $pisa_sock_putc(65);	// before $pisa_sock_open
	r = $pisa_sock_open("/tmp/x", 0);
	r = $pisa_sock_open("");
end
endmodule
EOF
cat >"$T/bad_count.v" <<'EOF'
module bad_count;
integer r;
initial r = $pisa_sock_putc(1, 2);
endmodule
EOF
cat >"$T/bad_byte.v" <<EOF
module bad_byte;
integer r;
initial begin
	r = \$pisa_sock_open("$T/bb.sock");
	r = \$pisa_sock_putc(300);
	\$display("bad_byte: still running");
end
endmodule
EOF
bad_ok=1
bad_why=
for v in bad_args bad_count bad_byte; do
	if ! iverilog -g2005 -o "$T/$v.vvp" "$T/$v.v" 2>"$T/$v.log"; then
		bad_ok=0
		bad_why="$bad_why $v: iverilog: $(oneline "$T/$v.log")"
		continue
	fi
	timeout 20 vvp -n -M "$COSIM" -m pisa_vpi "$T/$v.vvp" >"$T/$v.log" 2>&1
	rc=$?
	if [ "$rc" -ne 1 ]; then
		bad_ok=0
		bad_why="$bad_why $v: exit $rc"
	fi
done
has "$T/bad_args.log" 'pisa_vpi: error: \$pisa_sock_putc before \$pisa_sock_open' ||
	{ bad_ok=0; bad_why="$bad_why bad_args: $(oneline "$T/bad_args.log")"; }
has "$T/bad_count.log" 'pisa_vpi: error: \$pisa_sock_putc takes 1 argument' ||
	{ bad_ok=0; bad_why="$bad_why bad_count: $(oneline "$T/bad_count.log")"; }
{ has "$T/bad_byte.log" 'pisa_vpi: error: \$pisa_sock_putc: 300 is not a byte' &&
	! has "$T/bad_byte.log" 'still running' && [ ! -e "$T/bb.sock" ]; } ||
	{ bad_ok=0; bad_why="$bad_why bad_byte: $(oneline "$T/bad_byte.log")"; }
WHY="$bad_why"
check vpi_bad_arguments_refused test "$bad_ok" -eq 1

# ---- the board, and pisad on it ----
start_sim "$T/sim1.log"
rc=$?
WHY="$(oneline "$T/sim1.log")"
check cosim_listens test "$rc" -eq 0
"$BIN/pisad" --board sim --transport "sim:$SW" --socket "$CTLS" --foreground --log-level info \
	--link-timeout 2000 2>"$T/pisad.log" &
PISAD=$!
pids+=("$PISAD")
wait_for "test -S $CTLS || ! kill -0 $PISAD" 150
WHY="$(oneline "$T/pisad.log")"
check pisad_starts_on_cosim test -S "$CTLS"
# everything below needs pisad
[ -S "$CTLS" ] || { fail rest "skipped: pisad did not start on the co-simulated board"; exit 1; }
CTL status >"$T/status1" 2>&1
WHY="$(oneline "$T/status1")"
check status_shows_verilog_hello_reply has "$T/status1" "$HELLO"
WHY="$(oneline "$T/pisad.log")"
check pisad_log_connected has "$T/pisad.log" "board sim, version 1.0, 511 ports, cpu port 255, running no image"
WHY="$(oneline "$T/sim1.log")"
check cosim_accepted_pisad has "$T/sim1.log" "pisa_vpi: connection 1 accepted"

# ---- a load: the image crosses the link and pisa_loader; tables, counters, packet-out ----
"$BIN/p4lower" "$top/examples/ipv4_router/ipv4_router.p4" -o "$T/router.pisa" 2>"$T/p4l.err"
WHY="$(oneline "$T/p4l.err")"
check p4lower_router test -s "$T/router.pisa"
CTL load "$T/router.pisa" >"$T/load.out" 2>"$T/load.err"
rc=$?
WHY="exit $rc: $(oneline "$T/load.err") $(oneline "$T/load.out")"
check load_through_verilog_loader test "$rc" -eq 0 -a \
	-n "$(grep "Loaded program 'ipv4_router'" "$T/load.out")"
CTL <"$top/examples/ipv4_router/ipv4_router-commands.txt" >"$T/cmds.out" 2>&1
WHY="$(oneline "$T/cmds.out")"
check commands_file_into_rtl_tables test "$(grep -c 'Entry has been added' "$T/cmds.out")" -eq 6
CTL table_dump MyIngress.ipv4_lpm >"$T/dump.out" 2>&1
WHY="$(oneline "$T/dump.out")"
check table_dump has "$T/dump.out" "0a000200/24"
# packet-out on port 1 to 10.0.2.2 (the STF test's first packet): the RTL routes it (entry 1,
# 10.0.2.0/24) to port 2, which has no interface here, and counts it
CTL packet-out 1 02000000ff0102000000010108004500002b00014000401123bf0a0001010a00020204d2162e00179ec66f70656e7069736120726f75746572 \
	>"$T/po.out" 2>"$T/po.err"
rc=$?
CTL counter_read MyIngress.route_stats 1 >"$T/cnt.out" 2>&1
WHY="exit $rc: $(oneline "$T/po.err") $(oneline "$T/cnt.out")"
check packet_out_routed_and_counted_by_rtl test "$rc" -eq 0 -a \
	-n "$(grep 'route_stats\[1\]= (57 bytes, 1 packets)' "$T/cnt.out")"
# an image the core cannot run: the board's loader refuses it at IMAGE_COMMIT, with the
# reason the image carries (HWCONF status), and the running program stays
"$BIN/p4lower" "$here/recirculate.p4" -o "$T/rc.pisa" 2>"$T/p4l2.err"
CTL load "$T/rc.pisa" >"$T/load2.out" 2>"$T/load2.err"
rc=$?
WHY="exit $rc: $(oneline "$T/load2.err")"
check unsupported_image_refused_by_board test "$rc" -eq 1 -a \
	-n "$(grep 'IMAGE_COMMIT: invalid argument (the RTL core cannot run it: .*recirculate' "$T/load2.err")"
CTL status >"$T/status2" 2>&1
WHY="$(oneline "$T/status2")"
check pisad_up_after_refusal eval 'kill -0 $PISAD 2>/dev/null && has "$T/status2" "$HELLO" &&
	has "$T/status2" "program: ipv4_router" && has "$T/status2" "connects: 1, link errors: 0"'
CTL counter_read MyIngress.route_stats 1 >"$T/cnt2.out" 2>&1
WHY="$(oneline "$T/cnt2.out")"
check refused_image_left_running_one has "$T/cnt2.out" "(57 bytes, 1 packets)"
# the co-simulated switch has no MACs: the core answers a READ of their counters (kind 4)
# FAILED, INVAL, and the session goes on
CTL port-counters 0 >"$T/pc.out" 2>"$T/pc.err"
rc=$?
CTL counter_read MyIngress.route_stats 1 >"$T/cnt3.out" 2>&1
WHY="exit $rc: $(oneline "$T/pc.err") $(oneline "$T/pc.out") $(oneline "$T/cnt3.out")"
check port_counters_refused_without_macs test "$rc" -eq 1 -a \
	-n "$(grep 'the switch has no MAC counters (pisa-model' "$T/pc.err")" -a \
	-n "$(grep '(57 bytes, 1 packets)' "$T/cnt3.out")"
WHY="$(grep warning "$T/sim1.log" | head -n 3 | tr '\n' ' ')"
check cosim_uart_clean eval '! has "$T/sim1.log" "tb_cosim: warning"'

# ---- the board dies and comes back: pisad reconnects ----
kill -KILL "$SIM"
{ wait "$SIM"; } 2>/dev/null	# (without the shell's "Killed" line)
wait_for "CTL status | grep -q 'switch: not connected'" 50
CTL status >"$T/status3" 2>&1
WHY="$(oneline "$T/status3")"
check pisad_notices_lost_board eval 'kill -0 $PISAD 2>/dev/null && has "$T/status3" "switch: not connected"'
CTL packet-out 1 0011 >/dev/null 2>"$T/po2.err"
rc=$?
WHY="exit $rc: $(oneline "$T/po2.err")"
check command_while_board_away_fails test "$rc" -eq 1 -a -n "$(grep 'not connected' "$T/po2.err")"
# the killed simulation left its socket file: the new one replaces it
WHY="no stale socket file to replace"
check killed_cosim_left_socket test -S "$SW"
start_sim "$T/sim2.log"
rc=$?
WHY="$(oneline "$T/sim2.log")"
check cosim_restarts_on_stale_socket test "$rc" -eq 0
wait_for "CTL status | grep -q 'switch: connected'" 100
CTL status >"$T/status4" 2>&1
WHY="$(oneline "$T/status4") $(tail -n 3 "$T/pisad.log" | tr '\n' ' ')"
check pisad_reconnects has "$T/status4" "$HELLO"
WHY="$(oneline "$T/status4")"
# every link lost is followed by one connect: 2 connects after the kill, or more when a slow
# (loaded) simulation made pisad give up on the new board once more and reconnect again
counts=$(sed -n 's/.*connects: \([0-9]*\), link errors: \([0-9]*\).*/\1 \2/p' "$T/status4")
connects=${counts% *} link_errors=${counts#* }
check pisad_counts_reconnect test -n "$counts" -a "${connects:-0}" -ge 2 -a \
	"${connects:-0}" -eq $((${link_errors:-0} + 1))
# pisad restored the program and its entries on the new board by itself
wait_for "CTL status | grep -q 'restores: 1'" 300
CTL table_dump MyIngress.ipv4_lpm >"$T/dump2.out" 2>&1
WHY="$(oneline "$T/dump2.out") $(tail -n 3 "$T/pisad.log" | tr '\n' ' ')"
check restored_after_reconnect has "$T/dump2.out" "0a000200/24"

# ---- the switch's own messages: PACKET_IN (a packet to the CPU port), DIGEST ----
listen() {	# OUT: pisactl listen in the background, its pid in LISTEN
	CTL listen >"$1" 2>&1 &
	LISTEN=$!
	pids+=("$LISTEN")
	wait_for "grep -q 'Listening' '$1'" 50
}
"$BIN/p4lower" "$here/to_cpu.p4" -o "$T/cpu.pisa" 2>/dev/null
CTL load "$T/cpu.pisa" >/dev/null 2>"$T/load3.err"
listen "$T/listen1.out"
link_count() {	# WHAT: pisad's count of packet-ins or digests received
	CTL status | sed -n "s/.* \([0-9]*\) $1,.*/\1/p"
}
pins_before=$(link_count packet-ins)
CTL packet-out 1 41424344 >/dev/null 2>"$T/po3.err"
pins_after=$(link_count packet-ins)
wait_for "grep -q 'packet-in' '$T/listen1.out'" 100
WHY="$(oneline "$T/load3.err") $(oneline "$T/po3.err") $(oneline "$T/listen1.out")"
check packet_in_from_rtl has "$T/listen1.out" "packet-in port 255 len 4: 42424344"
# the board ACKs a PACKET_OUT only after the packet ran and its PACKET_IN went out
WHY="packet-ins before the packet-out ${pins_before:-?}, when it returned ${pins_after:-?}"
check packet_in_before_packet_out_ack test -n "$pins_before" -a \
	"${pins_after:-0}" -eq $((pins_before + 1))
stop "$LISTEN"
"$BIN/p4lower" "$top/examples/l2_switch/l2_switch.p4" -o "$T/l2.pisa" 2>/dev/null
CTL load "$T/l2.pisa" >/dev/null 2>"$T/load4.err"
CTL <"$top/examples/l2_switch/l2_switch-commands.txt" >/dev/null 2>&1
listen "$T/listen2.out"
# an unknown source MAC on port 1: the switch learns it through a digest (srcAddr, port)
# (digests are best effort; once in CI one did not arrive, cause not found: a second packet
# is sent if the first one's digest is not there within 15 s, and the log says so)
for try in 1 2; do
	CTL packet-out 1 ffffffffffff02000000aa0108004500001c0001000040110000000000000000000000000000000000 \
		>/dev/null 2>"$T/po4.err"
	wait_for "grep -q 'digest' '$T/listen2.out'" 150 && break
	echo "# cosim: no digest after packet-out $try"
done
WHY="$(oneline "$T/load4.err") $(oneline "$T/po4.err") $(oneline "$T/listen2.out") pisad: $(tail -n 4 "$T/pisad.log" | tr '\n' ' ')"
check digest_from_rtl has "$T/listen2.out" "digest id 0 len 8: 02000000aa010080"
stop "$LISTEN"

# ---- stopping: pisad on SIGTERM, the co-simulation removes its socket ----
stop "$PISAD"
WHY="pisad's socket left behind"
check pisad_stops test ! -e "$CTLS"
wait_for "grep -q 'connection closed' '$T/sim2.log'" 30
WHY="$(oneline "$T/sim2.log")"
check cosim_back_to_listening has "$T/sim2.log" "connection closed (the peer closed it); listening on $SW again"
# a new pisad finds the board running: HELLO_REPLY names the program it runs
"$BIN/pisad" --board sim --transport "sim:$SW" --socket "$CTLS" --foreground --log-level info \
	--link-timeout 2000 2>"$T/pisad2.log" &
PISAD=$!
pids+=("$PISAD")
# (its socket is up before the board answers: wait for the connection itself)
wait_for "grep -q 'connected to the switch' '$T/pisad2.log' || ! kill -0 $PISAD" 150
WHY="$(oneline "$T/pisad2.log")"
check hello_names_running_program has "$T/pisad2.log" "cpu port 255, running l2_switch"
stop "$PISAD"
stop "$SIM"
WHY="socket file left behind"
check cosim_stop_removes_socket test ! -e "$SW"

[ "$fails" -eq 0 ]
