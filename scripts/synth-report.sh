#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# make synth-report: each board's switch top through Yosys with its blocks kept apart
# (make -C boards blocks: pisa_core, pisa_loader, pisa_ctl_link, pisa_ctl_eth, pisa_eth_ports),
# and the Fmax of every clock from that board's last `make bitstream` (its nextpnr log), into
# docs/performance.md between the "synth-report" markers. Yosys only, so it runs in minutes
# (the core takes most of them); the bitstreams themselves are not rebuilt.
# usage: synth-report.sh [BOARD...]   (default: every board; the others keep their paragraph,
# and so does a board whose synthesis fails)
set -u
# (the whole script is one block, read before it runs: editing the file during a long build
# cannot change what this run does)
{
top=$(cd "$(dirname "$0")/.." && pwd)
doc=$top/docs/performance.md
begin='<!-- synth-report: written by make synth-report -->'
end='<!-- /synth-report -->'
grep -qxF "$begin" "$doc" && grep -qxF "$end" "$doc" ||
	{ echo "synth-report: $doc has no synth-report markers" >&2; exit 1; }
all=$(make -s -C "$top/boards" boards)
boards=${*:-$all}
for b in $boards; do
	echo "$all" | grep -qxF "$b" || { echo "synth-report: no board '$b' (boards: $(echo $all))" >&2; exit 1; }
done
out=$(mktemp)
trap 'rm -f "$out" "$out.doc"' EXIT

# A board's paragraph as the document has it now (from its "**BOARD**" line to the next board's).
old_paragraph() {
	awk -v b="$begin" -v e="$end" -v head="**$1**" '
		$0 == b { in_sec = 1; next }
		$0 == e { in_sec = 0 }
		in_sec && /^\*\*/ { on = index($0, head) == 1 }
		in_sec && on { l[++n] = $0 }
		END { while (n > 0 && l[n] == "") n--; for (i = 1; i <= n; i++) print l[i]; if (n) print "" }' "$doc"
}

{
	echo "Written by \`make synth-report\` (Yosys). Each block is"
	echo "synthesized as its own module (no optimization across its edges), so the sum is a little"
	echo "above the flat build's. LUT RAM: TRELLIS_DPR16X4 (16 x 4 bits each, ECP5). nextpnr's"
	echo "TRELLIS_COMB counts a LUT4 as one and a CCU2C carry as two."
	echo
} >"$out"
status=0
# every board: a new paragraph for those asked for, the old one for the others and for a board
# whose synthesis failed (nothing measured before is lost)
for b in $all; do
	if ! echo "$boards" | grep -qwF "$b"; then
		old_paragraph "$b" >>"$out"
		continue
	fi
	echo "synth-report: $b ..." >&2
	start=$(date +%s)
	if ! res=$(make -s --no-print-directory -C "$top/boards" blocks BOARD="$b" 2>&1); then
		echo "synth-report: $b: $(echo "$res" | grep -m1 '^FAIL' || echo "$res" | tail -n 1) (its old figures stay)" >&2
		old_paragraph "$b" >>"$out"
		status=1
		continue
	fi
	clock=$(echo "$res" | sed -n 's/^bitstream\/[^:]*: core clock \(.*\)/\1/p')
	{
		echo "**$b** (measured $(date -u +%Y-%m-%d) with Yosys $(yosys -V | awk '{print $2}') in $(($(date +%s) - start)) s; core clock $clock)"
		echo
		echo "| block | LUT4 | carry | LUT RAM | FF | block RAM |"
		echo "|---|---|---|---|---|---|"
		echo "$res" | grep '^|'
		log=$(ls -t "$top/build/boards/$b/"pisa_top_*.nextpnr.log 2>/dev/null | head -n 1)
		echo
		if [ -n "$log" ]; then
			echo "Fmax from the last \`make bitstream BOARD=$b\` ($(date -u -r "$log" +%Y-%m-%d)):"
			"$top/boards/nextpnr-fmax.sh" "$log" |
				sed "s/.*clock *'\([^']*\)': */- \1: /; s/\\\$glbnet\\$//; s/\\\$TRELLIS_IO_IN//"
		else
			echo "No bitstream built here for $b: no Fmax."
		fi
		echo
	} >>"$out"
done

awk -v b="$begin" -v e="$end" -v f="$out" '
	$0 == b { print; while ((getline l < f) > 0) print l; skip = 1; next }
	$0 == e { skip = 0 }
	!skip' "$doc" >"$out.doc" && cat "$out.doc" >"$doc"
echo "synth-report: written to docs/performance.md" >&2
exit $status
}
