#!/usr/bin/env bash
# Golden tests of p4lower (front end, and the back end's --dump image). Prints one PASS/FAIL line per check.
#   ok/NAME.p4   must pass the front end; --dump checked = ok/NAME.checked,
#                --dump ast = ok/NAME.ast (and ok/NAME.tokens where that file exists);
#                if the back end compiles it, --dump image = ok/NAME.image
#   err/NAME.p4  must fail with exit 1 and stderr = err/NAME.err
#   corpus/      replayed through the fuzz target, then mutated (fixed seed)
# PISA_REGEN=1 rewrites the golden files instead of comparing.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
p4l=${P4LOWER:-$top/build/bin/p4lower}
fuzz=${P4LOWER_FUZZ:-$top/build/bin/p4lower-fuzz}
regen=${PISA_REGEN:-0}
fails=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$here"

pass() { echo "PASS p4lower/$1"; }
fail() { echo "FAIL p4lower/$1: $2"; fails=$((fails + 1)); }

# golden NAME FILE GOLDEN: compare (or regenerate)
golden() {
	if [ "$regen" = 1 ]; then
		cp "$2" "$3"
		pass "$1 (regenerated)"
	elif [ ! -f "$3" ]; then
		fail "$1" "no golden file $3 (run with PISA_REGEN=1)"
	elif cmp -s "$2" "$3"; then
		pass "$1"
	else
		fail "$1" "output differs from $3: $(diff "$3" "$2" | head -5 | tr '\n' ' ')"
	fi
}

for f in ok/*.p4; do
	n=$(basename "$f" .p4)
	for stage in checked ast tokens; do
		[ "$stage" = tokens ] && [ ! -f "ok/$n.tokens" ] && [ "$regen" != 1 -o "$n" != basic_ipv4 ] && continue
		"$p4l" "$f" --dump "$stage" > "$tmp/out" 2> "$tmp/err"
		rc=$?
		if [ $rc -ne 0 ]; then
			fail "ok/$n --dump $stage" "exit $rc: $(head -3 "$tmp/err" | tr '\n' ' ')"
			continue
		fi
		golden "ok/$n --dump $stage" "$tmp/out" "ok/$n.$stage"
	done
	# without --dump: the back end runs; it compiles the program (0) or names an
	# unsupported construct (1), and never crashes
	"$p4l" "$f" -o "$tmp/out.pisa" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	if [ $rc -eq 0 ] || { [ $rc -eq 1 ] && grep -q "error: " "$tmp/err"; }; then
		pass "ok/$n back end exit $rc"
	else
		fail "ok/$n back end" "exit $rc: $(head -2 "$tmp/err" | tr '\n' ' ')"
	fi
	# what the back end made of it (PHV layout, parser states, tables, actions)
	if [ $rc -eq 0 ]; then
		if "$p4l" "$f" --dump image > "$tmp/out" 2> "$tmp/err"; then
			golden "ok/$n --dump image" "$tmp/out" "ok/$n.image"
		else
			fail "ok/$n --dump image" "$(head -2 "$tmp/err" | tr '\n' ' ')"
		fi
	fi
done

for f in err/*.p4; do
	n=$(basename "$f" .p4)
	"$p4l" "$f" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	if [ $rc -ne 1 ]; then
		fail "err/$n" "exit $rc, expected 1"
		continue
	fi
	golden "err/$n" "$tmp/err" "err/$n.err"
done

# command line
check_rc() {	# NAME EXPECTED-RC CMD...
	local name=$1 want=$2
	shift 2
	"$@" > "$tmp/out" 2> "$tmp/err"
	local rc=$?
	if [ $rc -eq "$want" ]; then pass "cli $name"; else fail "cli $name" "exit $rc, expected $want"; fi
}
check_rc "--help" 0 "$p4l" --help
grep -q "does not fit the board" "$tmp/out" && pass "cli --help documents exit 2" || fail "cli --help documents exit 2" "missing"
check_rc "no program" 3 "$p4l"
check_rc "unknown option" 3 "$p4l" --frobnicate ok/basic_ipv4.p4
check_rc "unknown board" 3 "$p4l" --board nosuch ok/basic_ipv4.p4
check_rc "unknown dump stage" 3 "$p4l" --dump nosuch ok/basic_ipv4.p4
check_rc "missing file" 1 "$p4l" no/such/file.p4
check_rc "board and -o accepted" 0 "$p4l" ok/basic_ipv4.p4 -o "$tmp/x.pisa" --board sim
check_rc "fit error on a small board" 2 "$p4l" ok/basic_ipv4.p4 -o "$tmp/x.pisa" --board icebreaker

# -I and -D reach cpp
mkdir -p "$tmp/inc"
printf 'const bit<8> FROM_INCLUDE = 7;\n' > "$tmp/inc/extra.p4"
cat > "$tmp/defs.p4" <<'P4'
#include <v1model.p4>
#include "extra.p4"
const bit<8> FROM_D = VAL;
#ifdef FLAG
const bit<8> HAS_FLAG = 1;
#endif
P4
"$p4l" "$tmp/defs.p4" -I "$tmp/inc" -DVAL=42 -D FLAG --dump ast > "$tmp/out" 2> "$tmp/err"
if grep -q "FROM_INCLUDE" "$tmp/out" && grep -q "int_lit 42" "$tmp/out" && grep -q HAS_FLAG "$tmp/out"; then
	pass "cli -I and -D passed to cpp"
else
	fail "cli -I and -D passed to cpp" "$(head -3 "$tmp/err" | tr '\n' ' ')"
fi

# speed: the optimised binary must compile each program in well under 100 ms
fast=$top/build/bin/p4lower
[ -x "$fast" ] || fast=$p4l
for f in ok/*.p4; do
	n=$(basename "$f" .p4)
	# best of three, so a busy machine does not fail the check
	ms=100000
	for try in 1 2 3; do
		start=$(date +%s%N)
		"$fast" "$f" --dump checked > /dev/null 2>&1
		t=$((($(date +%s%N) - start) / 1000000))
		[ $t -lt $ms ] && ms=$t
	done
	if [ $ms -lt 100 ]; then pass "speed ok/$n (${ms} ms)"; else fail "speed ok/$n" "${ms} ms"; fi
done

# semantics: small programs with STF tests, compiled and run on pisa-model (stf-model/:
# constructs the RTL core refuses, so that sim/stf-rtl.sh, which runs stf/ on the RTL, skips them)
stf=${PISA_STF:-$top/build/bin/pisa-stf}
for f in stf/*.p4 stf-model/*.p4; do
	n=$(basename "$f" .p4)
	# a first line "// stf-args: ..." gives pisa-stf options (a board profile)
	args=$(sed -n '1s|^// stf-args: ||p' "$f")
	# shellcheck disable=SC2086
	if out=$("$stf" $args "$f" "${f%.p4}.stf" 2>&1) && [ "${out%% *}" = PASS ]; then
		pass "${f%.p4}"
	else
		fail "${f%.p4}" "$(echo "$out" | head -3 | tr '\n' ' ')"
	fi
done

# fuzz: replay the corpus, then bounded random mutations with a fixed seed
if [ "$regen" = 1 ]; then
	for f in ok/*.p4; do
		P4LOWER_INCLUDE=../../p4include "$p4l" -E "$f" > "corpus/$(basename "$f")"
	done
fi
if "$fuzz" corpus > "$tmp/out" 2>&1; then pass "fuzz corpus replay"; else fail "fuzz corpus replay" "$(tail -3 "$tmp/out" | tr '\n' ' ')"; fi
if "$fuzz" -m "${P4LOWER_FUZZ_MUTATIONS:-60}" -s 1 corpus > "$tmp/out" 2>&1; then
	pass "fuzz mutations ($(cat "$tmp/out"))"
else
	fail "fuzz mutations" "$(tail -3 "$tmp/out" | tr '\n' ' ')"
fi

[ $fails -eq 0 ]
