#!/usr/bin/env bash
# Runs every folder's tests (built with SAN=1) and counts their PASS/FAIL lines.
# Each test prints lines "PASS <name>" or "FAIL <name>: <why>".
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
for d in lib model stf tests examples hw; do
	[ -f "$top/$d/Makefile" ] || continue
	make --no-print-directory -C "$top/$d" SAN=1 test 2>&1 | tee -a "$log"
	rc=${PIPESTATUS[0]}
	if [ "$rc" -ne 0 ]; then
		echo "FAIL make -C $d test: exited $rc" | tee -a "$log"
		status=1
	fi
done
passed=$(grep -c '^PASS ' "$log")
failed=$(grep -c '^FAIL ' "$log")
echo
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ] && [ $status -eq 0 ]
