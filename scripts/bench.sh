#!/usr/bin/env bash
# make bench: pisa-model forwarding on one core, pcap in and out, 64-byte frames:
#   router: the IPv4 LPM router (tests/programs/router.pasm) with 1,000 routes
#   l2:     the L2 switch (tests/programs/l2.pasm) with its MAC table grown to 100,000 entries
# Each runs RUNS times (default 5); the median packets/s goes to stdout, ready for
# docs/performance.md. Then p4lower's compile time per example (median of RUNS).
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
exit $status
