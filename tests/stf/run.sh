#!/usr/bin/env bash
# Runs pisa-stf itself and prints PASS/FAIL lines:
#  - options, --help and exit codes;
#  - each bad/*.stf must exit 2 with its first line's "# error: LINE: ..." as
#    "FILE.stf:LINE: ..." on stderr (these are syntax errors: no image needed);
#  - each e2e/*.stf runs on the image of progs/PROGRAM.pasm (first lines
#    "# program: PROGRAM" and "# want: PASS" | "# want: FAIL <message>" |
#    "# want: ERROR <start of the stderr line>").
# Every run must be free of sanitizer reports. Usage: run.sh BUILD/bin
set -u
bin=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
stf=$bin/pisa-stf
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0

pass() { echo "PASS stf-bin $1"; }
fail() { echo "FAIL stf-bin $1: $2"; status=1; }

# run WANT_RC ARGS...: runs pisa-stf, leaves rc, out (stdout), err (stderr)
run() {
	local want=$1
	shift
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	out=$(cat "$tmp/out")
	err=$(cat "$tmp/err")
	if grep -q 'Sanitizer\|runtime error' "$tmp/err"; then
		bad="sanitizer report: $(grep -m1 'Sanitizer\|runtime error' "$tmp/err")"
	elif [ "$rc" -ne "$want" ]; then
		bad="exit $rc, want $want (stdout '$out', stderr '$(head -n1 "$tmp/err")')"
	else
		bad=
	fi
}

check() {	# NAME: pass unless run set bad, or the extra condition $2 failed
	local name=$1 cond=${2:-true} why=${3:-}
	if [ -n "$bad" ]; then
		fail "$name" "$bad"
	elif ! eval "$cond"; then
		fail "$name" "$why"
	else
		pass "$name"
	fi
}

good=$here/good/mixed.stf

run 0 "$stf" --help
check "--help" '[[ "$out" == *"exit status"* && "$out" == *"--image IMAGE"* ]]' "help text incomplete"
run 2 "$stf"
check "no arguments exit 2" '[[ "$err" == *"expected PROG.p4 TEST.stf"* ]]' "stderr '$err'"
run 2 "$stf" --frob x.stf
check "unknown option exit 2" '[[ "$err" == *"unknown option '"'"'--frob'"'"'"* ]]' "stderr '$err'"
run 2 "$stf" --target rtl --rtl-harness "$tmp/no.vvp" --image x.pisa "$good"
check "--target rtl, no harness exit 2" '[[ "$err" == *"--rtl-harness $tmp/no.vvp: No such file"* ]]' "stderr '$err'"
run 2 "$stf" --target fpga --image x.pisa "$good"
check "--target fpga exit 2" '[[ "$err" == *"unknown target"* ]]' "stderr '$err'"
run 2 "$stf" --target board:nosuch --image x.pisa "$good"
check "--target board:nosuch exit 2" '[[ "$err" == *"no board simulation for it"* ]]' "stderr '$err'"
run 2 "$stf" --burst 10 --image x.pisa "$good"
check "--burst without a board exit 2" '[[ "$err" == *"--burst needs --target board:BOARD"* ]]' "stderr '$err'"
for n in 0 30001 12x; do
	run 2 "$stf" --burst "$n" --target board:icebreaker --image x.pisa "$good"
	check "--burst $n exit 2" '[[ "$err" == *"--burst $n: want 1 to 30000 frames a port"* ]]' "stderr '$err'"
done
run 2 "$stf" --image "$tmp/none.pisa" "$good"
check "missing image exit 2" '[[ "$err" == "pisa-stf: $tmp/none.pisa: "* ]]' "stderr '$err'"
head -c 300 /dev/urandom >"$tmp/garbage.pisa"
printf 'PISA' | cat - "$tmp/garbage.pisa" >"$tmp/garbage2.pisa"
run 2 "$stf" --image "$tmp/garbage2.pisa" "$good"
check "garbage image exit 2" '[[ "$err" == "pisa-stf: $tmp/garbage2.pisa: "* ]]' "stderr '$err'"
run 2 "$stf" --image "$tmp/none.pisa" "$tmp/none.stf"
check "missing stf exit 2" '[[ "$err" == *"none.stf: No such file"* ]]' "stderr '$err'"

# without p4lower next to it, pisa-stf must say so
mkdir -p "$tmp/alone"
cp "$stf" "$tmp/alone/pisa-stf"
run 2 "$tmp/alone/pisa-stf" prog.p4 "$good"
check "no p4lower" '[ "$err" = "pisa-stf: p4lower is not built yet; use --image" ]' "stderr '$err'"
if [ -x "$bin/p4lower" ]; then
	run 2 "$stf" "$tmp/none.p4" "$good"
	check "p4lower failure exit 2" '[[ "$err" == *"pisa-stf: p4lower failed on $tmp/none.p4"* ]]' "stderr '$err'"
fi

cd "$here/bad" || exit 1
for f in *.stf; do
	want=$(sed -n '1s/^# error: //p' "$f")
	run 2 "$stf" --image "$tmp/none.pisa" "$f"
	check "bad/$f" '[ "$(head -n1 "$tmp/err")" = "$f:$want" ]' \
		"got '$(head -n1 "$tmp/err")', want '$f:$want'"
done

# the RTL target with a file that is not a harness: a clear error, no hang
if "$bin/pisa-asm" "$here/progs/stfprog.pasm" -o "$tmp/rtlprog.pisa" 2>/dev/null; then
	echo 'not a vvp file' >"$tmp/bad.vvp"
	run 2 "$stf" --target rtl --rtl-harness "$tmp/bad.vvp" --image "$tmp/rtlprog.pisa" "$good"
	check "--target rtl, bad harness exit 2" '[[ "$err" == *"did not start"* ]]' "stderr '$err'"
fi

# end-to-end: images from progs/*.pasm
cd "$here/e2e" || exit 1
for p in "$here"/progs/*.pasm; do
	name=$(basename "$p" .pasm)
	if ! "$bin/pisa-asm" "$p" -o "$tmp/$name.pisa" 2>"$tmp/asm.err"; then
		fail "assemble progs/$name.pasm" "$(head -n1 "$tmp/asm.err") (its e2e tests are skipped)"
		skip="${skip:-} $name"
	fi
done
for f in *.stf; do
	prog=$(sed -n 's/^# program: //p' "$f" | head -n1)
	want=$(sed -n 's/^# want: //p' "$f" | head -n1)
	t=$(basename "$f" .stf)
	if [[ " ${skip:-} " == *" $prog "* ]]; then
		continue
	elif [ ! -f "$tmp/$prog.pisa" ]; then
		fail "e2e/$f" "no image for program '$prog'"
		continue
	fi
	case $want in
	PASS)
		run 0 "$stf" --image "$tmp/$prog.pisa" "$f"
		check "e2e/$f" '[ "$out" = "PASS $t" ]' "stdout '$out'"
		;;
	FAIL*)
		run 1 "$stf" --image "$tmp/$prog.pisa" "$f"
		check "e2e/$f" '[ "$out" = "FAIL $t: ${want#FAIL }" ]' "got '$out', want 'FAIL $t: ${want#FAIL }'"
		;;
	ERROR*)
		run 2 "$stf" --image "$tmp/$prog.pisa" "$f"
		check "e2e/$f" '[[ "$(head -n1 "$tmp/err")" == "$f:${want#ERROR }"* ]]' \
			"got '$(head -n1 "$tmp/err")', want '$f:${want#ERROR }...'"
		;;
	*)
		fail "e2e/$f" "no '# want:' line"
		;;
	esac
done
# --verbose prints commands, packets and the trace to stderr, and still one stdout line
[ -f "$tmp/stfprog.pisa" ] || exit $status
run 0 "$stf" -v --image "$tmp/stfprog.pisa" basic.stf
check "--verbose" '[ "$out" = "PASS basic" ] && [[ "$err" == *"stf: line "*"table_add "* ]] && [[ "$err" == *"stf: out port 2"* ]]' "stdout '$out', stderr '$(head -c 300 "$tmp/err")'"
run 0 "$stf" --board sim --image "$tmp/stfprog.pisa" basic.stf
check "--board sim with a sim image" '[ "$out" = "PASS basic" ]' "stdout '$out'"
# compile mode through a stand-in p4lower that records its arguments and
# "compiles" by copying the stfprog image
mkdir -p "$tmp/fake"
cp "$stf" "$tmp/fake/pisa-stf"
cat >"$tmp/fake/p4lower" <<FAKE
#!/bin/sh
echo "\$@" >"$tmp/fake/args"
while [ \$# -gt 0 ]; do [ "\$1" = -o ] && cp "$tmp/stfprog.pisa" "\$2"; shift; done
FAKE
chmod +x "$tmp/fake/p4lower"
run 0 "$tmp/fake/pisa-stf" --board sim -I inc1 -Iinc2 prog.p4 basic.stf
check "compile mode (stand-in p4lower)" '[ "$out" = "PASS basic" ] && [[ "$(cat "$tmp/fake/args")" == "prog.p4 --board sim -I inc1 -I inc2 -o /tmp/"*"/prog.pisa" ]]' "stdout '$out', p4lower args '$(cat "$tmp/fake/args" 2>/dev/null)'"
printf '#!/bin/sh\necho "prog.p4:1:1: error: nope" >&2\nexit 1\n' >"$tmp/fake/p4lower"
run 2 "$tmp/fake/pisa-stf" prog.p4 basic.stf
check "compile error exit 2" '[ -z "$out" ] && [[ "$err" == *"pisa-stf: p4lower failed on prog.p4 (exit 1)"* ]]' "stdout '$out', stderr '$err'"
run 2 "$stf" --board icebreaker --image "$tmp/stfprog.pisa" basic.stf
check "--board mismatch exit 2" '[[ "$err" == *"was built for board '"'"'sim'"'"', not '"'"'icebreaker'"'"'"* ]]' "stderr '$err'"
exit $status
