#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs STF tests on the RTL (pisa-stf --target rtl, the Icarus harness over pisa_core) and
# prints PASS/FAIL lines: every example's own test, the end-to-end STF tests that pass on
# pisa-model (tests/stf/e2e, "# want: PASS") and the p4lower STF tests.
# An example that the core cannot run yet is listed in sim/rtl-unsupported.txt with the start
# of the reason pisa-stf gives; it is reported as a "#" line (not counted), and its refusal
# must still say exactly that, so the list stays true.
# usage: stf-rtl.sh BIN_DIR HARNESS.vvp
set -u
bin=$(cd "$1" && pwd)
harness=$2
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
export PISA_RTL_HARNESS=$harness

unsupported() {	# NAME: the listed reason, or nothing
	sed -n "s/^$1: //p" "$top/sim/rtl-unsupported.txt"
}

# one NAME ARGS...: runs pisa-stf --target rtl ARGS
one() {
	local name=$1 why
	shift
	"$bin/pisa-stf" --target rtl "$@" >"$tmp/out" 2>"$tmp/err"
	why=$(unsupported "$name")
	if grep -q 'Sanitizer\|runtime error' "$tmp/err"; then
		echo "FAIL rtl/$name: sanitizer report: $(grep -m1 'Sanitizer\|runtime error' "$tmp/err")"
		status=1
	elif [ -n "$why" ]; then
		if grep -qF "$why" "$tmp/err"; then
			echo "# rtl/$name: not run on the RTL: $why"
		else
			echo "FAIL rtl/$name: listed in sim/rtl-unsupported.txt, but pisa-stf said: $(head -n1 "$tmp/out" "$tmp/err" | grep -v '^==>' | grep . | head -n1)"
			status=1
		fi
	elif grep -q '^PASS ' "$tmp/out"; then
		echo "PASS rtl/$name"
	else
		echo "FAIL rtl/$name: $(cat "$tmp/out" "$tmp/err" | grep . | head -n1)"
		status=1
	fi
}

for d in "$top"/examples/*/; do
	n=$(basename "$d")
	[ -f "$d/$n.stf" ] || continue
	one "$n" "$d/$n.p4" "$d/$n.stf"
done
for s in "$top"/tests/p4lower/stf/*.stf; do
	n=$(basename "$s" .stf)
	one "p4lower-$n" "${s%.stf}.p4" "$s"
done
"$bin/pisa-asm" "$top/tests/stf/progs/stfprog.pasm" -o "$tmp/stfprog.pisa" 2>"$tmp/asm.err" || {
	echo "FAIL rtl/e2e: pisa-asm failed: $(head -n1 "$tmp/asm.err")"
	exit 1
}
for s in $(grep -l '^# want: PASS' "$top"/tests/stf/e2e/*.stf); do
	one "e2e-$(basename "$s" .stf)" --image "$tmp/stfprog.pisa" "$s"
done
exit $status
