#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Each board top's core sizes (its `parameter NAME = VALUE` lines for pisa_core) must be its
# profile's, as `p4lower --board NAME --core-params` prints them from lib/pisa_profile.c: the
# image an operator compiles for the board is laid out for exactly that core.
#   usage: check-params.sh P4LOWER
p4lower=$1
dir=$(cd "$(dirname "$0")" && pwd)
status=0
for mk in "$dir"/*/board.mk; do
	b=$(basename "$(dirname "$mk")")
	top=$(ls "$dir/$b"/pisa_top_*.v)
	want=$("$p4lower" --board "$b" --core-params) || { echo "FAIL board_params/$b: p4lower --core-params failed"; status=1; continue; }
	bad=$(printf '%s\n' "$want" | while IFS='=' read -r name value; do
		got=$(sed -n "s/^[[:space:]]*parameter $name = \([0-9]*\).*/\1/p" "$top")
		[ "$got" = "$value" ] || printf '%s %s, ' "$name" "${got:-missing} (profile: $value)"
	done)
	if [ -z "$bad" ]; then
		echo "PASS board_params/$b"
	else
		echo "FAIL board_params/$b: $(basename "$top"): ${bad%, }"
		status=1
	fi
done
exit $status
