#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# pisad against a board's switch top in the board-level simulation, as a user runs it against
# the board: the control link through the top's UART pins. Loads IMAGE (examples/ipv4_router
# for that board), adds a route to port 1, sends a packet-out on port 0 that the router sends
# out of port 1, and reads the MACs' counters with pisactl port-counters: port 1's MAC sent
# one 64-byte frame, port 0's nothing; a port the board does not have is refused.
# usage: test_pisad.sh BIN_DIR SIM_DIR BOARD IMAGE   (prints PASS/FAIL lines; exit 1 on a FAIL)
set -u
bin=$1 sim=$2 board=$3 image=$4
tmp=$(mktemp -d)
pids=()
cleanup() {
	local p
	for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null; done
	for p in "${pids[@]}"; do { wait "$p"; } 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT
status=0
fail() { echo "FAIL board/$board/pisad: $1"; status=1; }
ctl() { "$bin/pisactl" --socket "$tmp/pisad.sock" "$@"; }

vvp -n -M "$sim" -m pisa_vpi -m pisa_vpi_pkt "$sim/tb_board_$board.vvp" +sock="$tmp/ctl" \
	+pkt="$tmp/pkt" >"$tmp/sim.log" 2>&1 &
pids+=($!)
for _ in $(seq 600); do [ -S "$tmp/ctl" ] && break; sleep 0.1; done
"$bin/pisad" --board "$board" --transport "sim:$tmp/ctl" --socket "$tmp/pisad.sock" \
	--link-timeout 5000 --foreground >"$tmp/pisad.log" 2>&1 &
pids+=($!)
for _ in $(seq 600); do ctl status 2>/dev/null | grep -q "switch: connected" && break; sleep 0.1; done

# the packet: the STF test's first one, to 10.0.2.2 (57 bytes; the MAC pads it to 60 + FCS)
pkt=02000000ff010200000001010800
pkt+=4500002b00014000401123bf0a0001010a00020204d2162e00179ec66f70656e7069736120726f75746572
if ! ctl load "$image" >"$tmp/out" 2>&1 ||
	! ctl table_add ipv4_lpm set_nhop 10.0.2.0/24 '=>' 02:00:00:00:02:02 1 >>"$tmp/out" 2>&1 ||
	! ctl table_add port_mac set_smac 1 '=>' 02:00:00:00:ff:02 >>"$tmp/out" 2>&1 ||
	! ctl packet-out 0 "$pkt" >>"$tmp/out" 2>&1; then
	fail "setting up: $(tail -n 1 "$tmp/out") $(tail -n 1 "$tmp/pisad.log")"
	exit 1
fi
# port rx_frames rx_bytes rx_fcs rx_runts rx_giants rx_drops tx_frames tx_bytes tx_drops;
# the frame leaves port 1's MAC some simulated microseconds after the packet-out's ACK
for _ in $(seq 100); do
	ctl port-counters >"$tmp/pc" 2>&1
	grep -qx ' *1 *0 *0 *0 *0 *0 *0 *0 *0 *0' "$tmp/pc" || break
	sleep 0.2
done
if grep -qx ' *0 *0 *0 *0 *0 *0 *0 *0 *0 *0' "$tmp/pc" &&
	grep -qx ' *1 *0 *0 *0 *0 *0 *0 *1 *64 *0' "$tmp/pc" &&
	grep -q "16 bits wide" "$tmp/pc"; then
	echo "PASS board/$board/pisad: pisactl port-counters reads the MACs over the UART"
else
	fail "pisactl port-counters printed: $(tr '\n' '|' <"$tmp/pc")"
fi
ctl port-counters 2 >"$tmp/pc2" 2>&1
if [ $? -eq 0 ] || ! grep -q "port 2 has no MAC (the switch has 2 ports)" "$tmp/pc2"; then
	fail "port-counters 2 on a board with ports 0 and 1: $(tr '\n' '|' <"$tmp/pc2")"
else
	echo "PASS board/$board/pisad: port-counters of a port the board lacks is refused"
fi
if grep -q 'Sanitizer\|runtime error' "$tmp/pisad.log"; then
	fail "sanitizer report from pisad: $(grep -m1 'Sanitizer\|runtime error' "$tmp/pisad.log")"
fi
exit $status
