#!/usr/bin/env bash
# make demo: for now (until p4lower, the RTL and pisad exist) it runs the hand-assembled
# programs in tests/programs through pisa-model with their STF tests, printing every
# command, every packet in and out, and the model's trace of what each packet did.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
bin="$top/build/bin"
progs="$top/build/programs"
make --no-print-directory -C "$top/tests/programs" all >/dev/null || { echo "demo: assembling tests/programs failed" >&2; exit 1; }
status=0
for stf in "$top"/tests/programs/*.stf; do
	name=$(basename "$stf" .stf)
	img="$progs/$name.pisa"
	[ -f "$img" ] || continue	# an STF test of another program's image (e.g. router_wrong)
	echo "=================================================================="
	echo "== $name: $(head -n 1 "$top/tests/programs/$name.pasm" | sed 's/^[#; ]*//')"
	echo "=================================================================="
	"$bin/pisa-stf" --verbose --image "$img" "$stf" 2>&1 || status=1
	echo
done
exit $status
