#!/usr/bin/env bash
# make bench: pisa-model forwarding on one core, pcap in and out, 64-byte frames:
#   router: the IPv4 LPM router (tests/programs/router.pasm) with 1,000 routes
#   l2:     the L2 switch (tests/programs/l2.pasm) with its MAC table grown to 100,000 entries
# Each runs RUNS times (default 5); the median packets/s goes to stdout, ready for
# docs/performance.md. Then p4lower's compile time per example (median of RUNS).
# Then table capacity per board, the control link (entries a second, image loads) and each
# board in simulation at line rate (a burst of BOARD_BURST frames into every port: sim/board).
# --smoke: a tiny run that checks the pipeline works (used by make test).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$top/build}
bin=$build/bin
gen=$build/tests/bench/bench_gen
runs=${RUNS:-5}
routes=1000 macs=100000 packets=${PACKETS:-1000000}
smoke=0
if [ "${1:-}" = "--smoke" ]; then
	smoke=1 runs=1 routes=10 macs=50 packets=200
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

make --no-print-directory -C "$top/tests/programs" BUILD="$build" all >/dev/null || exit 1
make --no-print-directory -C "$top/tests/bench" BUILD="$build" all >/dev/null || exit 1
# the L2 program with room for the big table: 4 ways of 2^15 buckets
sed -e 's/^\(\s*\)size 256;/\1size 131072;/' -e 's/^\(\s*\)ways 2;/\1ways 4;/' \
	"$top/tests/programs/l2.pasm" > "$work/l2_big.pasm"
"$bin/pisa-asm" "$work/l2_big.pasm" -o "$work/l2_big.pisa" || exit 1

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# bench NAME IMAGE KIND N: prints "NAME pps=... tx=..." and checks every packet left
bench() {
	local name=$1 img=$2 kind=$3 n=$4 i pps tx all=""
	"$gen" "$kind" "$n" "$work/$name.cmds" "$work/$name.pcap" "$packets" || return 1
	for i in $(seq "$runs"); do
		out=$("$bin/pisa-model" "$img" --commands "$work/$name.cmds" \
			--port "0=pcap:$work/$name.pcap,$work/$name.out0.pcap" \
			$(for p in 1 2 3 4 5 6 7; do echo "--port $p=pcap:,$work/$name.out$p.pcap"; done) \
			--stats) || { echo "FAIL bench $name: pisa-model failed"; return 1; }
		pps=$(awk '$1 == "pcap_pps" { print $2 }' <<<"$out")
		tx=$(awk '$1 == "tx_packets" { print $2 }' <<<"$out")
		if [ "$tx" != "$packets" ]; then
			echo "FAIL bench $name: $tx of $packets packets forwarded"
			return 1
		fi
		all+="$pps"$'\n'
	done
	echo "$name: $(printf '%s' "$all" | median) packets/s (median of $runs runs, $packets packets, $n entries)"
}

status=0
r1=$(bench router "$build/programs/router.pisa" routes "$routes") || status=1
r2=$(bench l2 "$work/l2_big.pisa" macs "$macs") || status=1
if [ $smoke -eq 1 ]; then
	[ $status -eq 0 ] && echo "PASS bench pipeline (router and l2 at tiny size)" ||
		echo "FAIL bench pipeline: $r1 $r2"
	exit 0
fi
echo "$r1"
echo "$r2"

# p4lower: whole compile (cpp, front end, back end, image and reports) per example,
# median of RUNS runs, in ms
all=""
for dir in "$top"/examples/*/; do
	e=$(basename "$dir")
	[ -f "$dir$e.p4" ] || continue
	for i in $(seq "$runs"); do
		t0=$(date +%s%N)
		"$bin/p4lower" "$dir$e.p4" -o "$work/$e.pisa" >/dev/null 2>&1 || {
			echo "FAIL bench p4lower $e: does not compile"; status=1; break; }
		echo $((($(date +%s%N) - t0) / 1000)) >>"$work/$e.us"
	done
	ms=$(median <"$work/$e.us" | awk '{ printf "%.1f", $1 / 1000 }')
	all+="$ms"$'\n'
	printf 'p4lower %-15s %6s ms\n' "$e" "$ms"
done
echo "p4lower median over the examples: $(printf '%s' "$all" | median) ms (median of $runs runs each)"

# table capacity per board: the most entries p4lower places of tests/bench/capacity.p4's exact
# table (48-bit key) beside TERN_N ternary entries (32-bit key), and of the ternary table alone
# (bisection: capacity only grows with room). Goals: 4,096 + 256 on the Colorlight, 512 + 32
# on the HX8K.
cap_fits() {	# BOARD EXACT_N TERN_N
	"$bin/p4lower" "$top/tests/bench/capacity.p4" --board "$1" -DEXACT_N="$2" -DTERN_N="$3" \
		-o "$work/capacity.pisa" >/dev/null 2>&1
}
cap_max() {	# BOARD exact|ternary OTHER_N: the largest N that fits (0: none)
	local lo=0 hi=65536 mid
	while [ $((hi - lo)) -gt 1 ]; do
		mid=$(((lo + hi) / 2))
		if [ "$2" = exact ]; then cap_fits "$1" "$mid" "$3"; else cap_fits "$1" "$3" "$mid"; fi &&
			lo=$mid || hi=$mid
	done
	echo "$lo"
}
for b in icebreaker:32 hx8k-breakout:32 colorlight-5a-75b:256; do
	board=${b%%:*} tern=${b#*:}
	printf 'capacity %-18s exact %5d beside %d ternary; ternary alone %4d\n' "$board" \
		"$(cap_max "$board" exact "$tern")" "$tern" "$(cap_max "$board" ternary 1)"
done

# ---- the control link: table entries a second and image loads at a board's link speed ----
# pisad --transport sim: <-> link_pace (every byte at RATE bytes/s each way, 1 ms latency:
# the FT2232H's latency timer) <-> pisa-model --control; HELLO_REPLY says the board's max
# payload and window. LINK_ENTRIES table_add lines (1,000 /24 routes into ipv4_lpm) from a
# commands file (pisactl sends ahead, pisad batches); the fraction is the link's raw byte rate
# used: bytes host -> switch during the entries / (seconds * RATE). Then each example's image
# loaded (pisactl load), median of RUNS.
pace=$build/tests/bench/link_pace
link_entries=${LINK_ENTRIES:-1000}
p4dir=$work/p4
mkdir -p "$p4dir"
for dir in "$top"/examples/*/; do
	e=$(basename "$dir")
	[ -f "$dir$e.p4" ] && "$bin/p4lower" "$dir$e.p4" -o "$p4dir/$e.pisa" >/dev/null 2>&1
done
awk -v n="$link_entries" 'BEGIN { for (i = 0; i < n; i++)
	printf "table_add ipv4_lpm set_nhop 10.%d.%d.0/24 => 02:00:00:00:01:01 1\n", i / 256 % 256, i % 256 }' \
	>"$work/routes.txt"
now_ms() { echo $(($(date +%s%N) / 1000000)); }
link_bench() {	# NAME RATE MAX_PAYLOAD WINDOW: one line of results
	local name=$1 rate=$2 maxp=$3 win=$4 d=$work/link.$1 t0 t1 b0 b1 i e ms all
	mkdir -p "$d"
	"$bin/pisa-model" "$p4dir/ipv4_router.pisa" --control "$d/m.sock" >"$d/model.log" 2>&1 &
	local model=$!
	for i in $(seq 50); do [ -S "$d/m.sock" ] && break; sleep 0.1; done
	"$pace" "$d/p.sock" "$d/m.sock" "$rate" --latency-us 1000 --max-payload "$maxp" \
		--window "$win" >"$d/pace.out" 2>&1 &
	local pc=$!
	for i in $(seq 50); do [ -S "$d/p.sock" ] && break; sleep 0.1; done
	"$bin/pisad" --board sim --transport "sim:$d/p.sock" --socket "$d/c.sock" --foreground \
		2>"$d/pisad.log" &
	local pd=$!
	for i in $(seq 100); do [ -S "$d/c.sock" ] && break; sleep 0.1; done
	if ! "$bin/pisactl" --socket "$d/c.sock" load "$p4dir/ipv4_router.pisa" >/dev/null 2>&1; then
		echo "FAIL bench link $name: pisad did not load the router ($(tail -n 1 "$d/pisad.log"))"
		kill "$pd" "$pc" "$model" 2>/dev/null
		return 1
	fi
	kill -USR1 "$pc"; sleep 0.2
	b0=$(awk 'END { print $2 }' "$d/pace.out")
	t0=$(now_ms)
	"$bin/pisactl" --socket "$d/c.sock" <"$work/routes.txt" >"$d/routes.out" 2>&1
	t1=$(now_ms)
	kill -USR1 "$pc"; sleep 0.2
	b1=$(awk 'END { print $2 }' "$d/pace.out")
	if [ "$(grep -c 'Entry has been added' "$d/routes.out")" -ne "$link_entries" ]; then
		echo "FAIL bench link $name: not every entry was added ($(grep -v 'Entry has' "$d/routes.out" | head -n 1))"
		kill "$pd" "$pc" "$model" 2>/dev/null
		return 1
	fi
	awk -v n="$link_entries" -v ms=$((t1 - t0)) -v b=$((b1 - b0)) -v r="$rate" -v name="$name" \
		'BEGIN { printf "link %-28s %7.0f entries/s  %5.1f bytes/entry  %3.0f%% of %d bytes/s\n",
		name, n * 1000 / ms, b / n, 100 * b / (ms / 1000) / r, r }'
	# image loads
	all=""
	for img in "$p4dir"/*.pisa; do
		e=$(basename "$img" .pisa)
		: >"$d/$e.ms"
		for i in $(seq "$runs"); do
			t0=$(now_ms)
			"$bin/pisactl" --socket "$d/c.sock" load "$img" >/dev/null 2>&1 || {
				echo "FAIL bench link $name: load $e"; break; }
			echo $(($(now_ms) - t0)) >>"$d/$e.ms"
		done
		ms=$(median <"$d/$e.ms")
		all+="$e $(stat -c %s "$img") $ms"$'\n'
	done
	printf '%s' "$all" | awk -v name="$name" '{ printf "link %-28s load %-15s %6d bytes %6d ms\n", name, $1, $2, $3 }'
	kill "$pd" "$pc" "$model" 2>/dev/null
	wait "$pd" "$pc" "$model" 2>/dev/null
	return 0
}
if [ -x "$pace" ]; then
	link_bench "uart-3M-1KiB-w16" 300000 1024 16 || status=1
	link_bench "uart-12M-1KiB-w16" 1200000 1024 16 || status=1
	link_bench "spi-6MHz-1KiB-w16" 750000 1024 16 || status=1
	link_bench "uart-3M-256B-w8" 300000 256 8 || status=1
	# the host's own ceiling: pisactl, pisad and pisa-model with a link that is never full
	link_bench "host-only-100MB/s-1KiB-w16" 100000000 1024 16 || status=1
else
	echo "FAIL bench link: $pace not built (make -C tests/bench)"
	status=1
fi

# ---- each board's switch top in Icarus: BOARD_BURST (200) 64-byte frames into every port at
# once, back to back at line rate (sim/board/test.sh, pisa-stf --burst): offered and forwarded
# rates, core cycles a packet, MAC drops
make --no-print-directory -C "$top/sim/board" BURST="${BOARD_BURST:-200}" bench || status=1
exit $status
