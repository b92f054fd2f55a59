#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Post-synthesis simulation: pisa_core synthesized by Yosys for a board (its core parameters
# from `p4lower --board BOARD --core-params`), written back as a netlist of the device's
# cells, and run in the STF harness (sim/tb/tb_pisa_harness.v) with Yosys's simulation
# models of those cells. The example's STF test must pass on the netlist exactly as on the
# RTL: that checks what synthesis made of the core, block RAMs included. The test is the
# router's board test (sim/board/ipv4_router-2port.stf, tables of -DTABLE_SIZE_DIVISOR=64),
# compiled for the board.
#   usage: run.sh BIN_DIR BOARD [OUT_DIR]
# Prints one PASS/FAIL line. Tools: yosys (synth_ecp5 or synth_ice40), iverilog.
set -u
bin=$(cd "$1" && pwd)
board=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
out=${3:-$top/build/postsynth/$board}
mkdir -p "$out"
name="postsynth/$board/ipv4_router"
fail() { echo "FAIL $name: $*"; exit 1; }

case $board in
colorlight-5a-75b) synth=synth_ecp5; cells=ecp5/cells_sim.v; defs= ;;
# the iCE40 models give ports default values, which Icarus does not parse
icebreaker|hx8k-breakout) synth=synth_ice40; cells=ice40/cells_sim.v; defs=-DNO_ICE40_DEFAULT_ASSIGNMENTS ;;
*) fail "no such board (colorlight-5a-75b, icebreaker, hx8k-breakout)" ;;
esac
datdir=$(dirname "$(command -v yosys)")/../share/yosys
[ -f "$datdir/$cells" ] || fail "no Yosys simulation models at $datdir/$cells"
# Some Yosys releases (0.23, Debian 12's) declare DP16KD, the ECP5 block RAM, without a body:
# the netlist's RAMs would read X and the core never load, so say so instead of hanging.
if [ "$synth" = synth_ecp5 ] &&
	! awk '/^module DP16KD/,/^endmodule/' "$datdir/$cells" | grep -q 'always'; then
	fail "$(yosys -V | cut -d' ' -f1-2)'s ECP5 models give DP16KD (block RAM) no behaviour; try BOARD=icebreaker"
fi
params=$("$bin/p4lower" --board "$board" --core-params) || fail "p4lower --core-params failed"
chparam=$(printf '%s\n' "$params" | sed 's/^\([A-Z_0-9]*\)=\(.*\)$/-set \1 \2/' | tr '\n' ' ')

rtl="$top/hw/rtl"
netlist="$out/pisa_core_netlist.v"
srcs="$rtl/pisa_core.v $rtl/pisa_ram.v $rtl/pisa_alu_seq.v"
# the netlist is rebuilt only when the core or the board's parameters changed
if [ ! -f "$netlist" ] || [ -n "$(find $srcs -newer "$netlist")" ] ||
	[ "$params" != "$(cat "$out/params" 2>/dev/null)" ]; then
	echo "# postsynth: $synth on pisa_core for $board (several minutes)" >&2
	yosys -q -l "$out/yosys.log" -p "read_verilog $srcs; chparam $chparam pisa_core;
		$synth -top pisa_core; write_verilog -noattr $netlist" >/dev/null 2>&1 ||
		{ rm -f "$netlist"; fail "yosys failed (see $out/yosys.log)"; }
	printf '%s\n' "$params" >"$out/params"
fi
echo "# postsynth: the router's test on the netlist (gate-level: slow)" >&2
iverilog -g2005 $defs -I"$top/sim/tb" -I"$(dirname "$datdir/$cells")" -o "$out/harness.vvp" "$top/sim/tb/tb_pisa_harness.v" \
	"$netlist" "$datdir/$cells" 2>"$out/iverilog.log" ||
	fail "iverilog failed on the netlist: $(head -n 3 "$out/iverilog.log" | tr '\n' ' ')"
"$bin/p4lower" --board "$board" -DTABLE_SIZE_DIVISOR=64 "$top/examples/ipv4_router/ipv4_router.p4" \
	-o "$out/router.pisa" >"$out/p4lower.log" 2>&1 || fail "p4lower: $(head -n 1 "$out/p4lower.log")"
start=$(date +%s)
PISA_RTL_TIMEOUT=3600 PISA_RTL_HARNESS="$out/harness.vvp" "$bin/pisa-stf" --target rtl --image "$out/router.pisa" \
	"$top/sim/board/ipv4_router-2port.stf" >"$out/stf.out" 2>&1
if grep -q '^PASS ' "$out/stf.out"; then
	echo "PASS $name (the netlist of $synth, $(($(date +%s) - start)) s)"
else
	fail "$(grep -m1 -v '^#' "$out/stf.out")"
fi
