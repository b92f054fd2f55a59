#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# One formal proof with yosys + yosys-smtbmc (z3): BMC from reset, then k-induction, then
# cover (every cover statement must be reachable), at the same depth.
# usage: prove.sh OUTDIR NAME TOP DEPTH[:COVER_DEPTH] "PARAM=VALUE ..." FILE.v...
# Prints "PASS formal/NAME" or "FAIL formal/NAME: why"; the logs, the smt2 and any
# counterexample trace (NAME.*.vcd) stay in OUTDIR. Exit status 0 only on PASS.
# The default mode is "bmc induction cover"; FORMAL_MODES overrides it (e.g. "bmc").
set -u
out=$1 name=$2 top=$3 depth=${4%%:*} cdepth=${4#*:} params=$5
shift 5
mkdir -p "$out"
log=$out/$name.log
: >"$log"

chparam=
for p in $params; do
	v=${p#*=}
	# Numbers (42, 32'h1EDC6F41) go as they are, anything else is a string parameter.
	case $v in
	*[!0-9]*) case $v in *"'"*) ;; *) v="\"$v\"" ;; esac ;;
	esac
	chparam="$chparam -set ${p%%=*} $v"
done
# one chparam for all: each call elaborates the module again (a minute for pisa_core)
[ -n "$chparam" ] && chparam="chparam$chparam $top;"

# A submodule's assumptions about its inputs are its parent's obligations: they become
# assertions, so that a proof never rests on what it should show.
if ! yosys -q -l "$out/$name.yosys.log" -p "read_verilog -formal -DFORMAL $*; $chparam prep -top $top; chformal -assume -assume2assert A:top %n; write_smt2 -wires $out/$name.smt2" >>"$log" 2>&1; then
	echo "FAIL formal/$name: yosys failed, see $out/$name.yosys.log"
	exit 1
fi

for mode in ${FORMAL_MODES:-bmc induction cover}; do
	case $mode in
	bmc) flags=; t=$depth ;;
	induction) flags=-i; t=$depth ;;
	cover) flags="-c"; t=$cdepth ;;
	*) echo "FAIL formal/$name: unknown mode $mode"; exit 1 ;;
	esac
	# --unroll: z3 gets plain variables per step, not functions of an uninterpreted state
	# sort, which it solves far faster (minutes to seconds for the control-link proofs)
	if ! yosys-smtbmc -s z3 --presat --unroll $flags -t "$t" --dump-vcd "$out/$name.$mode.vcd" \
		"$out/$name.smt2" >"$out/$name.$mode.log" 2>&1; then
		why=$(grep -m1 -E "Assert failed|Unreached cover|[Ee]rror" "$out/$name.$mode.log" | sed "s/^## *[0-9:]* *//")
		echo "FAIL formal/$name: $mode depth $t: ${why:-see log} (see $out/$name.$mode.log)"
		exit 1
	fi
	rm -f "$out/$name.$mode.vcd"
done
echo "PASS formal/$name"
