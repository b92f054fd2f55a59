#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Compiles every example for every board with -DTABLE_SIZE_DIVISOR=64 and checks the
# outcome against examples/boards.txt: 'fits' must compile, 'no REASON' must exit 2
# (does not fit) with REASON in the message. Run from the repository root after `make`.
# --regen rewrites boards.txt from what p4lower does now (review the diff).
P4LOWER=${P4LOWER:-build/bin/p4lower}
list=examples/boards.txt
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0

compile() {	# EXAMPLE BOARD: exit status of p4lower, message in $work/err
	"$P4LOWER" "examples/$1/$1.p4" -DTABLE_SIZE_DIVISOR=64 --board "$2" \
		-o "$work/$1.$2.pisa" >/dev/null 2>"$work/err"
}

if [ "${1:-}" = --regen ]; then
	sed -n '/^#/p' "$list" > "$work/new"
	for dir in examples/*/; do
		e=$(basename "$dir")
		[ "$e" = tools ] && continue
		for b in icebreaker hx8k-breakout colorlight-5a-75b; do
			if compile "$e" "$b"; then
				echo "$e $b fits"
			else
				echo "$e $b no $(sed -e 's/.*does not fit board [^:]*: //' -e 's/; it fits.*//' "$work/err")"
			fi
		done
	done >> "$work/new"
	cp "$work/new" "$list"
	exit 0
fi

grep -v '^#' "$list" | while read -r e b verdict reason; do
	compile "$e" "$b"
	rc=$?
	if [ "$verdict" = fits ]; then
		if [ $rc -eq 0 ]; then
			echo "PASS board_fit $e on $b"
		else
			echo "FAIL board_fit $e on $b: exit $rc: $(head -n 1 "$work/err")"
		fi
	elif [ $rc -eq 2 ] && grep -qF -- "$reason" "$work/err"; then
		echo "PASS board_fit $e on $b refused ($reason)"
	else
		echo "FAIL board_fit $e on $b: expected exit 2 with '$reason', got exit $rc: $(head -n 1 "$work/err")"
	fi
done | tee "$work/out"
! grep -q '^FAIL' "$work/out"
