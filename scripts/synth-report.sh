#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# make synth-report: each board's switch top through Yosys with its blocks kept apart
# (make -C boards blocks: pisa_core, pisa_loader, pisa_ctl_link, pisa_ctl_eth, pisa_eth_ports),
# and the Fmax of every clock from that board's last `make bitstream` (its nextpnr log), into
# docs/performance.md between the "synth-report" markers. Yosys only, so it runs in minutes
# (the core takes most of them); the bitstreams themselves are not rebuilt.
# usage: synth-report.sh [BOARD...]   (default: every board)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
doc=$top/docs/performance.md
begin='<!-- synth-report: written by make synth-report -->'
end='<!-- /synth-report -->'
grep -qxF "$begin" "$doc" && grep -qxF "$end" "$doc" ||
	{ echo "synth-report: $doc has no synth-report markers" >&2; exit 1; }
boards=${*:-$(make -s -C "$top/boards" boards)}
out=$(mktemp)
trap 'rm -f "$out" "$out.doc"' EXIT

{
	echo "Measured $(date -u +%Y-%m-%d) with \`make synth-report\` (Yosys $(yosys -V | awk '{print $2}')). Each block is"
	echo "synthesized as its own module (no optimization across its edges), so the sum is a little"
	echo "above the flat build's. LUT RAM: TRELLIS_DPR16X4 (16 x 4 bits each, ECP5). nextpnr's"
	echo "TRELLIS_COMB counts a LUT4 as one and a CCU2C carry as two."
} >"$out"
status=0
for b in $boards; do
	echo "synth-report: $b ..." >&2
	start=$(date +%s)
	if ! res=$(make -s --no-print-directory -C "$top/boards" blocks BOARD="$b" 2>&1); then
		echo "synth-report: $b: $(echo "$res" | tail -n 1)" >&2
		status=1
		continue
	fi
	clock=$(echo "$res" | sed -n 's/^bitstream\/[^:]*: core clock \(.*\)/\1/p')
	{
		echo
		echo "**$b** (core clock $clock; Yosys $(($(date +%s) - start)) s)"
		echo
		echo "| block | LUT4 | carry | LUT RAM | FF | block RAM |"
		echo "|---|---|---|---|---|---|"
		echo "$res" | grep '^|'
		log=$(ls -t "$top/build/boards/$b/"pisa_top_*.nextpnr.log 2>/dev/null | head -n 1)
		if [ -n "$log" ]; then
			echo
			echo "Fmax from the last \`make bitstream BOARD=$b\` ($(date -u -r "$log" +%Y-%m-%d)):"
			"$top/boards/nextpnr-fmax.sh" "$log" |
				sed "s/.*clock *'\([^']*\)': */- \1: /; s/\\\$glbnet\\$//; s/\\\$TRELLIS_IO_IN//"
		else
			echo
			echo "No bitstream built here for $b: no Fmax."
		fi
	} >>"$out"
done

awk -v b="$begin" -v e="$end" -v f="$out" '
	$0 == b { print; while ((getline l < f) > 0) print l; skip = 1; next }
	$0 == e { skip = 0 }
	!skip' "$doc" >"$out.doc" && cat "$out.doc" >"$doc"
echo "synth-report: written to docs/performance.md" >&2
exit $status
