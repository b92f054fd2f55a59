#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Checks every example without the compiler back end: the program passes
# p4lower's front end (--dump checked), the folder has its four files, and
# the .stf is what mkstf.py generates. Run from the repository root after
# `make`. Prints PASS/FAIL lines; exits 1 on any failure.
P4LOWER=${P4LOWER:-build/bin/p4lower}
status=0
for dir in examples/*/; do
	name=$(basename "$dir")
	[ "$name" = tools ] && continue
	missing=
	for f in "$name.p4" "$name.stf" "$name-commands.txt" README.md; do
		[ -f "$dir$f" ] || missing="$missing $f"
	done
	if [ -n "$missing" ]; then
		echo "FAIL example_$name: missing$missing"
		status=1
		continue
	fi
	if ! err=$("$P4LOWER" "$dir$name.p4" --dump checked 2>&1 >/dev/null); then
		echo "FAIL example_$name: p4lower: $(echo "$err" | head -n 1)"
		status=1
		continue
	fi
	if ! python3 examples/tools/mkstf.py --check "$name" 2>/dev/null; then
		echo "FAIL example_$name: $name.stf differs from examples/tools/mkstf.py's output"
		status=1
		continue
	fi
	echo "PASS example_$name"
done
exit $status
