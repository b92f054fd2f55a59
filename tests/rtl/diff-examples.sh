#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# rtl_diff over every example that the core runs (sim/rtl-unsupported.txt lists the others),
# compiled with p4lower; SEED and N (packets) from the environment.
# usage: diff-examples.sh BIN_DIR HARNESS.vvp
set -u
bin=$1 harness=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
for d in "$top"/examples/*/; do
	n=$(basename "$d")
	[ -f "$d/$n.stf" ] || continue
	if grep -q "^$n: " "$top/sim/rtl-unsupported.txt"; then
		echo "# rtl-diff/$n: not run: $(sed -n "s/^$n: //p" "$top/sim/rtl-unsupported.txt")"
		continue
	fi
	if ! "$bin/p4lower" "$d/$n.p4" -o "$tmp/$n.pisa" >"$tmp/p4lower.log" 2>&1; then
		echo "FAIL rtl-diff/$n: p4lower: $(head -n1 "$tmp/p4lower.log")"
		status=1
		continue
	fi
	"$bin/rtl_diff" --seed "$SEED" --packets "$N" --name "$n" "$harness" "$tmp/$n.pisa" \
		"$d/$n.stf" || status=1
done
exit $status
