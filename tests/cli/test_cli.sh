#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# test_cli.sh PISA_MODEL CLI_TOOL: tests of the pisa-model command line.
# Prints one PASS/FAIL line per check; exits 1 if any failed.
set -u
model=$1
tool=$2
tmp=$(mktemp -d)
bgpid=
veths=
status=0

cleanup() {
	[ -n "$bgpid" ] && kill "$bgpid" 2>/dev/null && wait "$bgpid" 2>/dev/null
	for v in $veths; do ip link del "$v" 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT

pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: $2"; status=1; }
# check NAME CONDITION-EXIT-CODE WHY
check() { if [ "$2" -eq 0 ]; then pass "$1"; else fail "$1" "$3"; fi; }

if [ ! -x "$model" ] || [ ! -x "$tool" ]; then
	fail cli_binaries "missing $model or $tool"
	exit 1
fi

"$tool" mkimage "$tmp/l2.pisa" sim || fail cli_fixture "mkimage"
"$tool" mkimage "$tmp/ice.pisa" icebreaker || fail cli_fixture "mkimage icebreaker"
# port 1: three packets, port 2: two, interleaved in time
"$tool" mkpcap "$tmp/in1.pcap" 1000000:0a:11 1200000:0a:13 1400000:0b:15
"$tool" mkpcap "$tmp/in2.pcap" 1100000:0a:12 1300000:0c:14

# ---- help and usage ----
out=$("$model" --help); rc=$?
echo "$out" | grep -q 'N=pcap:IN,OUT' && echo "$out" | grep -q -- '--control PATH' &&
	echo "$out" | grep -q '^  3  usage error' && echo "$out" | grep -q '^  1  bad image'
check cli_help $(( rc != 0 || $? )) "rc $rc or text incomplete"

"$model" >/dev/null 2>"$tmp/err"; rc=$?
check cli_usage_no_image $(( rc != 3 )) "rc $rc"
"$model" "$tmp/l2.pisa" --port x 2>"$tmp/err"; rc=$?
grep -qx "pisa-model: --port: 'x': expected N=pcap:IN,OUT or N=if:NAME" "$tmp/err"
check cli_usage_bad_port $(( rc != 3 || $? )) "rc $rc: $(head -1 "$tmp/err")"
"$model" "$tmp/l2.pisa" --port 1=pcap:a,b --port 1=pcap:c,d 2>"$tmp/err"; rc=$?
check cli_usage_port_twice $(( rc != 3 )) "rc $rc"
"$model" "$tmp/l2.pisa" --port 511=pcap:a,b 2>"$tmp/err"; rc=$?
check cli_usage_port_range $(( rc != 3 )) "rc $rc"
"$model" "$tmp/l2.pisa" --bogus 2>"$tmp/err"; rc=$?
grep -q "unknown option '--bogus'" "$tmp/err"
check cli_usage_unknown_option $(( rc != 3 || $? )) "rc $rc"

# ---- bad image and input ----
printf 'not an image at all' >"$tmp/bad.pisa"
"$model" "$tmp/bad.pisa" 2>"$tmp/err"; rc=$?
grep -q "^pisa-model: $tmp/bad.pisa: ." "$tmp/err"
check cli_bad_image $(( rc != 1 || $? )) "rc $rc: $(head -1 "$tmp/err")"
"$model" "$tmp/missing.pisa" 2>"$tmp/err"; rc=$?
grep -q "^pisa-model: $tmp/missing.pisa: ." "$tmp/err"
check cli_missing_image $(( rc != 1 || $? )) "rc $rc: $(head -1 "$tmp/err")"
"$model" "$tmp/l2.pisa" --port "1=pcap:$tmp/bad.pisa,$tmp/o.pcap" 2>"$tmp/err"; rc=$?
grep -q "^pisa-model: $tmp/bad.pisa: " "$tmp/err"
check cli_bad_pcap $(( rc != 1 || $? )) "rc $rc: $(head -1 "$tmp/err")"
"$model" "$tmp/l2.pisa" --port "1=pcap:$tmp/in1.pcap,$tmp/nodir/o.pcap" 2>"$tmp/err"; rc=$?
check cli_bad_output $(( rc != 2 )) "rc $rc: $(head -1 "$tmp/err")"

# ---- pcap forwarding: both inputs merge in time order onto port 3 ----
"$model" "$tmp/l2.pisa" --port "1=pcap:$tmp/in1.pcap," --port "2=pcap:$tmp/in2.pcap,$tmp/out2.pcap" \
	--port "3=pcap:,$tmp/out3.pcap" --stats >"$tmp/stats" 2>"$tmp/err"; rc=$?
check cli_pcap_run $(( rc != 0 )) "rc $rc: $(head -1 "$tmp/err")"
"$tool" dump "$tmp/out3.pcap" >"$tmp/dump3"
want="1000000 64 0a 11
1100000 64 0a 12
1200000 64 0a 13
1300000 64 0c 14
1400000 64 0b 15"
[ "$(cat "$tmp/dump3")" = "$want" ]
check cli_pcap_merge_order $? "got: $(tr '\n' '|' <"$tmp/dump3")"
"$tool" dump "$tmp/out2.pcap" >"$tmp/dump2"
[ ! -s "$tmp/dump2" ]
check cli_pcap_empty_output $? "port 2 got $(wc -l <"$tmp/dump2") packets"
grep -qx 'rx_packets 5' "$tmp/stats" && grep -qx 'tx_packets 5' "$tmp/stats" &&
	grep -qx 'port3_tx 5' "$tmp/stats" && grep -qx 'port1_rx 3' "$tmp/stats"
check cli_stats $? "$(tr '\n' '|' <"$tmp/stats")"
[ ! -s "$tmp/err" ]
check cli_quiet_without_trace $? "stderr: $(head -1 "$tmp/err")"

# packets to a port with no wire and no control client are counted
"$model" "$tmp/l2.pisa" --port "1=pcap:$tmp/in1.pcap" --stats >"$tmp/stats" 2>/dev/null; rc=$?
grep -qx 'unattached 3' "$tmp/stats"
check cli_unattached $(( rc != 0 || $? )) "$(tr '\n' '|' <"$tmp/stats")"

"$model" "$tmp/l2.pisa" --port "1=pcap:$tmp/in1.pcap,$tmp/o1.pcap" --trace 2>"$tmp/trace"; rc=$?
[ "$rc" -eq 0 ] && [ "$(wc -l <"$tmp/trace")" -ge 3 ]
check cli_trace $? "rc $rc, $(wc -l <"$tmp/trace") trace lines"

# ---- control socket ----
sock=$tmp/ctl.sock
"$model" "$tmp/l2.pisa" --control "$sock" --port "2=pcap:,$tmp/c2.pcap" --stats \
	>"$tmp/cstats" 2>"$tmp/cerr" &
bgpid=$!
for _ in $(seq 100); do [ -S "$sock" ] && break; sleep 0.05; done
[ "$(stat -c %a "$sock" 2>/dev/null)" = 660 ]
check cli_control_socket_mode $? "mode $(stat -c %a "$sock" 2>/dev/null)"
"$tool" ctl "$sock" "$tmp/l2.pisa" "$tmp/ice.pisa" || status=1
"$tool" ctl2 "$sock" || status=1
kill -TERM "$bgpid"; wait "$bgpid"; rc=$?; bgpid=
check cli_control_sigterm_exit $(( rc != 0 )) "rc $rc: $(head -1 "$tmp/cerr")"
[ ! -e "$sock" ]
check cli_control_socket_removed $? "$sock still there"
"$tool" dump "$tmp/c2.pcap" | cut -d' ' -f2- >"$tmp/dumpc"
[ "$(cat "$tmp/dumpc")" = "64 0a 52
64 0a 54" ]
check cli_control_packets_on_pcap $? "got: $(tr '\n' '|' <"$tmp/dumpc")"
grep -qx 'port2_tx 2' "$tmp/cstats"
check cli_control_stats $? "$(tr '\n' '|' <"$tmp/cstats")"

# ---- interfaces (needs root for veth pairs; skipped otherwise) ----
ip link del pmA0 2>/dev/null; ip link del pmB0 2>/dev/null
if ip link add pmA0 type veth peer name pmA1 2>/dev/null; then
	veths="pmA0"
	if ip link add pmB0 type veth peer name pmB1 2>/dev/null; then
		veths="pmA0 pmB0"
		for v in pmA0 pmA1 pmB0 pmB1; do ip link set "$v" up; done
		"$model" "$tmp/l2.pisa" --port 1=if:pmA0 --port 3=if:pmB0 --stats \
			>"$tmp/istats" 2>"$tmp/ierr" &
		bgpid=$!
		"$tool" ifpair pmA1 pmB1 || status=1
		kill -INT "$bgpid"; wait "$bgpid"; rc=$?; bgpid=
		grep -q '^port3_tx [1-9]' "$tmp/istats"
		check cli_if_sigint_stats $(( rc != 0 || $? )) "rc $rc: $(head -1 "$tmp/ierr")"
	fi
else
	echo "# SKIP cli_if_forward: cannot create veth interfaces (needs root)"
fi
"$model" "$tmp/l2.pisa" --port 1=if:no-such-if0 2>"$tmp/err"; rc=$?
grep -q "no-such-if0: no such interface" "$tmp/err"
check cli_if_missing $(( rc != 2 || $? )) "rc $rc: $(head -1 "$tmp/err")"

exit $status
