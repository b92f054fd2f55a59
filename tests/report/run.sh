#!/usr/bin/env bash
# Compiles a few examples and checks the three reports p4lower writes beside each image:
# exact golden text (P4Info and layout are deterministic), the SVG parses as XML with one
# rect per table cell it claims, and the P4Info is self-consistent (check_p4info.py).
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
p4lower=${P4LOWER:-$top/build/bin/p4lower}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# program:board[:divisor]: each compiled for the profile named (with -DTABLE_SIZE_DIVISOR);
# ipv4_router with 256 routes on the colorlight-5a-75b splits its LPM table over 4 stages
cases="ipv4_router:sim l2_switch:sim acl:sim ecmp:sim ecmp_selector:sim ipv4_router:colorlight-5a-75b:4"
for c in $cases; do
	ex=${c%%:*} board=${c#*:} div=1
	case $board in *:*) div=${board#*:} board=${board%%:*} ;; esac
	name=$ex.$board
	if ! "$p4lower" "$top/examples/$ex/$ex.p4" --board "$board" -DTABLE_SIZE_DIVISOR="$div" \
		-o "$work/$name.pisa" 2>"$work/$name.err"; then
		echo "FAIL report $name: p4lower failed: $(head -3 "$work/$name.err")"
		continue
	fi
	for kind in p4info.txtpb layout.txt layout.svg; do
		got=$work/$name.$kind want=$here/golden/$name.$kind
		if [ ! -s "$got" ]; then
			echo "FAIL report $name $kind: not written"
			continue
		fi
		if [ "${PISA_REGEN:-0}" = 1 ]; then
			cp "$got" "$want"
			echo "PASS report $name $kind (regenerated)"
		elif [ ! -f "$want" ]; then
			echo "FAIL report $name $kind: no golden file (PISA_REGEN=1 make test writes it)"
		elif diff -u "$want" "$got" >"$work/diff"; then
			echo "PASS report $name $kind"
		else
			echo "FAIL report $name $kind: differs from golden:"
			head -20 "$work/diff"
		fi
	done
	if out=$(python3 "$here/check_reports.py" "$work/$name.p4info.txtpb" "$work/$name.layout.svg" 2>&1); then
		echo "PASS report $name consistency ($out)"
	else
		echo "FAIL report $name consistency: $out"
	fi
done

# A report that cannot be written is an error (exit 1) that names the file.
mkdir -p "$work/d.layout.txt"
"$p4lower" "$top/examples/ipv4_router/ipv4_router.p4" -o "$work/d.pisa" 2>"$work/d.err"
rc=$?
if [ $rc -eq 0 ]; then
	echo "FAIL report blocked path: p4lower succeeded though d.layout.txt is a directory"
elif grep -q "d.layout.txt" "$work/d.err"; then
	echo "PASS report blocked path (exit $rc, names the file)"
else
	echo "FAIL report blocked path: $(cat "$work/d.err")"
fi
