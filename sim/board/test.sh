#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The board-level simulation's tests: examples/ipv4_router compiled for each board
# (-DTABLE_SIZE_DIVISOR=64, as examples/boards.txt) runs its board variant of the STF test on
# pisa-stf --target board:NAME (the image and the table writes through the top's UART pins,
# the packets through its PHY pins). One PASS/FAIL line per board and test.
# The example's own STF test cannot run on a board unchanged: it routes to port 3 (the
# iCEBreaker has ports 0 and 1) and writes three port_mac entries into a table of one at this
# divisor; ipv4_router-2port.stf and -4port.stf are the same cases on the ports a board has.
# The last test on each board (the one with all its ports) ends with pisa-stf --burst $BURST
# (default 40, more than any board's RX buffers hold): every port gets that many copies of a
# frame at once, back to back at line rate; every frame must be accounted for by its MAC and
# each one that reached the switch must come out as it did alone; the MACs' counters, read by
# the testbench and over the control link (READ kind 4), must agree. Its rate line is shown.
# On the iCEBreaker, test_pisad.sh then runs pisad and pisactl port-counters against the top.
# usage: [BURST=N] test.sh BIN_DIR SIM_DIR BOARD...
set -u
burst_n=${BURST:-40}
bin=$1 sim=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PISA_BOARD_SIM=$sim
status=0

for board in "$@"; do
	tests=ipv4_router-2port all_ports=ipv4_router-2port
	[ "$board" = hx8k-breakout ] && tests="ipv4_router-2port ipv4_router-4port" all_ports=ipv4_router-4port
	if ! "$bin/p4lower" "$top/examples/ipv4_router/ipv4_router.p4" -DTABLE_SIZE_DIVISOR=64 \
		--board "$board" -o "$tmp/router.$board.pisa" >"$tmp/p4lower.err" 2>&1; then
		echo "FAIL board/$board: p4lower: $(head -n1 "$tmp/p4lower.err")"
		status=1
		continue
	fi
	for t in $tests; do
		burst=() what=
		if [ "$t" = "$all_ports" ]; then
			burst=(--burst "$burst_n")
			what=" and a burst of $burst_n frames a port"
		fi
		start=$(date +%s)
		"$bin/pisa-stf" --target "board:$board" --image "$tmp/router.$board.pisa" \
			"${burst[@]}" "$here/$t.stf" >"$tmp/out" 2>"$tmp/err"
		secs=$(($(date +%s) - start))
		if grep -q 'Sanitizer\|runtime error' "$tmp/err"; then
			echo "FAIL board/$board/$t: sanitizer report: $(grep -m1 'Sanitizer\|runtime error' "$tmp/err")"
			status=1
		elif grep -q '^PASS ' "$tmp/out"; then
			echo "PASS board/$board/$t$what (${secs} s)"
			grep '^burst' "$tmp/out" | sed 's/^/    /'
		else
			echo "FAIL board/$board/$t$what: $(grep -v '^burst' "$tmp/out" | cat - "$tmp/err" |
				grep . | head -n1)"
			grep '^burst' "$tmp/out" | sed 's/^/    /'
			status=1
		fi
	done
	# pisad and pisactl port-counters on one board (the others' tops share the code)
	if [ "$board" = icebreaker ]; then
		"$here/test_pisad.sh" "$bin" "$sim" "$board" "$tmp/router.$board.pisa" || status=1
	fi
done
exit $status
