#!/usr/bin/env bash
# test_host.sh BIN PROGRAMS HOSTTOOL: pisad and pisactl end to end against
# pisa-model (the router of tests/programs/router.pasm): load, a commands file,
# table_dump, packets in and out (pcap and packet-in), the switch killed and
# restarted (pisad restores image and entries), error cases, bad frames on the
# socket, FTDI transports without a device, the model: transport.
# Prints PASS/FAIL lines; exits 1 if any failed.
set -u
BIN=$(cd "$1" && pwd)
PROGS=$(cd "$2" && pwd)
TOOL=$3
here=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d /tmp/pisa-host-test.XXXXXX)
cd "$T" || exit 1
pids=()
fails=0

cleanup() {
	local p
	# TERM first: a pisad stops the pisa-model it started
	for p in "${pids[@]}"; do
		kill -TERM "$p" 2>/dev/null
	done
	sleep 0.2
	for p in "${pids[@]}"; do
		kill -KILL "$p" 2>/dev/null
	done
	for p in "${pids[@]}"; do
		wait "$p" 2>/dev/null
	done
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

pass() { echo "PASS host/$1"; }
fail() { echo "FAIL host/$1: $2"; fails=$((fails + 1)); }
# check NAME COND-COMMAND... : PASS if the command succeeds
check() {
	local name=$1
	shift
	if "$@"; then pass "$name"; else fail "$name" "${WHY:-check failed}"; fi
	WHY=
}
has() { grep -q -- "$2" "$1"; }

export PISAD_SOCKET=$T/pisad.sock
CTL=$BIN/pisactl
ROUTER=$PROGS/router.pisa
WHY=

# hex of the router's packets (tests/programs/router.stf)
IN1="0000000000aa0000000000bb08004500001800010000 4011a719c0a800010a090909deadbeef"
OUT1="0000000001010000000000aa080045000018000100003f11a819c0a800010a090909deadbeef"
IN2="0000000000aa0000000000bb08004500001800020000 3611b120c0a800010a010909deadbeef"
OUT2="0000000002020000000000aa080045000018000200003511b220c0a800010a010909deadbeef"
IN3="0000000000aa0000000000bb08004500001800030000 2c11c21fc0a800010a010209deadbeef"
OUT3="0000000003030000000000aa080045000018000300002b11c31fc0a800010a010209deadbeef"
IN4="0000000000aa0000000000bb08004500001800040000 2211cc24c0a800010a010203deadbeef"
OUT4="0000000004040000000000aa080045000018000400002111cd24c0a800010a010203deadbeef"

start_model() {	# SOCKET TAG: ports 1..3 on pcap files TAG-pN.pcap, port 4 unattached
	"$BIN/pisa-model" "$ROUTER" --control "$1" --port "1=pcap:,$T/$2-p1.pcap" \
		--port "2=pcap:,$T/$2-p2.pcap" --port "3=pcap:,$T/$2-p3.pcap" 2>>"$T/model.log" &
	MODEL=$!
	pids+=("$MODEL")
	wait_for "test -S $1"
}

wait_for() {	# COMMAND: up to 5 s
	local i
	for i in $(seq 100); do
		eval "$1" >/dev/null 2>&1 && return 0
		sleep 0.05
	done
	return 1
}

stop() {	# PID: TERM, then KILL if it does not go within 3 s
	local i
	kill -TERM "$1" 2>/dev/null
	for i in $(seq 60); do
		kill -0 "$1" 2>/dev/null || break
		sleep 0.05
	done
	kill -0 "$1" 2>/dev/null && { echo "FAIL host/stop: pid $1 ignored SIGTERM"; fails=$((fails + 1)); kill -KILL "$1"; }
	wait "$1" 2>/dev/null
}

stop_model() {
	stop "$MODEL"
}

send_packets() {
	local rc=0
	"$CTL" packet-out 5 $IN1 >/dev/null || rc=1
	"$CTL" packet-out 5 $IN2 >/dev/null || rc=1
	"$CTL" packet-out 5 $IN3 >/dev/null || rc=1
	"$CTL" packet-out 5 $IN4 >/dev/null || rc=1
	return $rc
}

pcaps_ok() {	# TAG
	[ "$("$TOOL" pcap "$T/$1-p1.pcap")" = "$OUT1" ] &&
		[ "$("$TOOL" pcap "$T/$1-p2.pcap")" = "$OUT2" ] &&
		[ "$("$TOOL" pcap "$T/$1-p3.pcap")" = "$OUT3" ]
}

# ---- pisactl without pisad ----
"$CTL" status >"$T/out" 2>"$T/err"
rc=$?
WHY="exit $rc, $(head -c 200 "$T/err")"
check pisactl_no_pisad_exit_2 test "$rc" -eq 2 -a -s "$T/err"
"$CTL" --bogus >/dev/null 2>&1
rc=$?
WHY="exit $rc"
check pisactl_usage_exit_3 test "$rc" -eq 3
# pisactl flash has its own tests: tests/flash
"$CTL" --help >"$T/out"
check pisactl_help_documents_exit_codes has "$T/out" "2  cannot reach pisad"

# ---- start the switch and pisad ----
start_model "$T/sw.sock" a || fail model_start "pisa-model did not listen"
"$BIN/pisad" --board sim --transport "sim:$T/sw.sock" --foreground --log-level info \
	2>"$T/pisad.log" &
PISAD=$!
pids+=("$PISAD")
wait_for "test -S $PISAD_SOCKET" || fail pisad_start "no socket: $(tail -n 3 "$T/pisad.log")"
mode=$(stat -c %a "$PISAD_SOCKET" 2>/dev/null)
WHY="mode $mode"
check pisad_socket_mode_0660 test "$mode" = 660

"$CTL" status >"$T/out" 2>&1
WHY="$(head -n 4 "$T/out")"
check status_connected has "$T/out" "switch: connected (board sim"
"$CTL" table_num_entries ipv4_lpm >"$T/out" 2>"$T/err"
rc=$?
WHY="exit $rc: $(cat "$T/err")"
check command_before_load_fails test "$rc" -eq 1 -a -n "$(grep 'no program loaded' "$T/err")"

"$CTL" load "$ROUTER" >"$T/out" 2>"$T/err"
rc=$?
WHY="exit $rc: $(cat "$T/err")"
check load_router test "$rc" -eq 0 -a -n "$(grep "Loaded program 'router'" "$T/out")"

# ---- a commands file, as simple_switch_CLI takes it ----
cat >"$T/s1-commands.txt" <<'EOF'
# routes of router.stf, BMv2 syntax
table_set_default MyIngress.ipv4_lpm MyIngress.drop

table_add MyIngress.ipv4_lpm MyIngress.ipv4_forward 10.0.0.0/8 => 00:00:00:00:01:01 1
table_add ipv4_lpm ipv4_forward 10.1.0.0/16 => 00:00:00:00:02:02 2
   table_add ipv4_lpm ipv4_forward 10.1.2.0/24 => 00:00:00:00:03:03 3
table_add ipv4_lpm ipv4_forward 10.1.2.3/32 => 00:00:00:00:04:04 4
EOF
"$CTL" <"$T/s1-commands.txt" >"$T/out" 2>"$T/err"
rc=$?
n=$(grep -c "Entry has been added with handle" "$T/out")
WHY="exit $rc, $n entries: $(head -c 300 "$T/err")"
check commands_file test "$rc" -eq 0 -a "$n" -eq 4
"$CTL" table_num_entries ipv4_lpm >"$T/out" 2>&1
WHY="$(cat "$T/out")"
check table_num_entries_4 has "$T/out" "4"
"$CTL" table_dump ipv4_lpm >"$T/dump1" 2>&1
WHY="$(head -c 400 "$T/dump1")"
check table_dump_keys eval 'has "$T/dump1" "0a000000/8" && has "$T/dump1" "0a010203/32" &&
	has "$T/dump1" "000000000404"'

# ---- errors ----
"$CTL" table_add nosuch_table ipv4_forward 10.0.0.0/8 '=>' 00:00:00:00:01:01 1 >/dev/null 2>"$T/err"
rc=$?
WHY="exit $rc: $(cat "$T/err")"
check error_unknown_table test "$rc" -eq 1 -a -n "$(grep nosuch_table "$T/err")"
"$CTL" table_add ipv4_lpm ipv4_forward 10.9.0.0/16 '=>' 00:00:00:00:01:01 999 >/dev/null 2>"$T/err"
rc=$?
WHY="exit $rc: $(cat "$T/err")"
check error_value_out_of_range test "$rc" -eq 1 -a -s "$T/err"
"$CTL" table_add ipv4_lpm ipv4_forward 10.9.0.0/99 '=>' 00:00:00:00:01:01 1 >/dev/null 2>"$T/err"
rc=$?
WHY="exit $rc: $(cat "$T/err")"
check error_bad_prefix test "$rc" -eq 1 -a -s "$T/err"
"$CTL" frobnicate >/dev/null 2>"$T/err"
rc=$?
WHY="exit $rc: $(cat "$T/err")"
check error_unknown_command test "$rc" -eq 1 -a -s "$T/err"
# pisa-model has no MACs: port-counters says so; a port that is not a number is named
"$CTL" port-counters >"$T/out" 2>"$T/err"
rc=$?
WHY="exit $rc: $(cat "$T/err")"
check port_counters_model_has_no_macs test "$rc" -eq 1 -a \
	-n "$(grep 'the switch has no MAC counters (pisa-model' "$T/err")"
"$CTL" port-counters 1 x2 >"$T/out" 2>"$T/err"
rc=$?
WHY="exit $rc: $(cat "$T/err")"
check port_counters_bad_port test "$rc" -eq 1 -a -n "$(grep "bad port 'x2'" "$T/err")"
printf 'table_add ipv4_lpm ipv4_forward 10.7.0.0/16 => 00:00:00:00:07:07 1\nbogus_command 1\ntable_add ipv4_lpm nosuch 1.2.3.4/32 =>\ntable_add ipv4_lpm ipv4_forward 10.8.0.0/16 => 00:00:00:00:08:08 1\n' \
	>"$T/bad.txt"
"$CTL" <"$T/bad.txt" >"$T/out" 2>"$T/err"
rc=$?
WHY="exit $rc: $(cat "$T/err")"
check commands_file_errors_named_and_continue eval '[ $rc -eq 1 ] && has "$T/err" "line 2" &&
	has "$T/err" "line 3" && ! has "$T/err" "line 1 " && [ $(grep -c "Entry has been added" "$T/out") -eq 2 ]'
"$CTL" table_delete ipv4_lpm 4 >/dev/null 2>&1 && "$CTL" table_delete ipv4_lpm 5 >/dev/null 2>&1
WHY="could not delete the two extra entries"
check table_delete test $? -eq 0
"$CTL" table_num_entries ipv4_lpm >"$T/out" 2>&1
WHY="$(cat "$T/out")"
check table_num_entries_back_to_4 has "$T/out" "4"
# an image for another board is refused before it reaches the switch
sed 's/^program "router";/program "router";\nboard "icebreaker";/' "$here/../programs/router.pasm" \
	>"$T/ice.pasm"
if "$BIN/pisa-asm" "$T/ice.pasm" -o "$T/ice.pisa" 2>"$T/err"; then
	"$CTL" load "$T/ice.pisa" >/dev/null 2>"$T/err"
	rc=$?
	WHY="exit $rc: $(cat "$T/err")"
	check load_wrong_board_refused test "$rc" -eq 1 -a -n "$(grep "board 'icebreaker'" "$T/err")"
else
	fail load_wrong_board_refused "pisa-asm: $(head -c 200 "$T/err")"
fi
head -c 300 "$ROUTER" >"$T/trunc.pisa"
"$CTL" load "$T/trunc.pisa" >/dev/null 2>"$T/err"
rc=$?
WHY="exit $rc: $(cat "$T/err")"
check load_truncated_image_refused test "$rc" -eq 1 -a -n "$(grep 'not a valid image' "$T/err")"
"$CTL" load "$T/no-such-file.pisa" >/dev/null 2>"$T/err"
rc=$?
WHY="exit $rc"
check load_missing_file test "$rc" -eq 1
"$CTL" table_num_entries ipv4_lpm >"$T/out" 2>&1
WHY="$(cat "$T/out")"
check refused_loads_keep_program has "$T/out" "4"

# ---- bad frames on pisad's socket: answered or dropped, pisad stays up ----
bad_ok=1
# too long, zero, truncated, unknown type, header only, load without a name,
# a NUL in a command, a command with too few arguments, 16 MiB announced then EOF
for hex in ffffffff00 00000000 0500000043616263 0200000058aa 03000000 070000004c6e6f6e756c6c \
	0400000043610062 0b000000437461626c655f64756d70 00000001 000000ff; do
	"$TOOL" poke "$PISAD_SOCKET" "$hex" >/dev/null 2>&1 || bad_ok=0
	kill -0 "$PISAD" 2>/dev/null || { bad_ok=0; break; }
done
"$CTL" status >/dev/null 2>&1 || bad_ok=0
WHY="pisad died or stopped answering"
check bad_frames_survived test "$bad_ok" -eq 1

# ---- packets: pcap ports and packet-in to a listener ----
"$CTL" listen >"$T/listen.out" 2>"$T/listen.err" &
LISTEN=$!
pids+=("$LISTEN")
wait_for "grep -q Listening $T/listen.out"
send_packets
WHY="packet-out failed"
check packet_out test $? -eq 0
wait_for "grep -q 'packet-in port 4' $T/listen.out"
WHY="$(head -c 300 "$T/listen.out")"
check listen_packet_in has "$T/listen.out" "packet-in port 4 len 38: $OUT4"
stop "$LISTEN"

# ---- the switch dies and comes back: pisad restores it ----
stop_model
WHY="p1: $("$TOOL" pcap "$T/a-p1.pcap") p2: $("$TOOL" pcap "$T/a-p2.pcap")"
check pcap_out_routed pcaps_ok a
"$CTL" status >"$T/out" 2>&1
WHY="$(grep switch: "$T/out")"
check status_not_connected has "$T/out" "switch: not connected"
"$CTL" table_add ipv4_lpm ipv4_forward 10.5.0.0/16 '=>' 00:00:00:00:05:05 1 >/dev/null 2>"$T/err"
rc=$?
WHY="exit $rc: $(cat "$T/err")"
check write_while_disconnected_fails test "$rc" -eq 1 -a -s "$T/err"
start_model "$T/sw.sock" b || fail model_restart "pisa-model did not listen"
wait_for "\"$CTL\" status | grep -q 'restores: 1'"
"$CTL" status >"$T/out" 2>&1
WHY="$(cat "$T/out")"
check pisad_restored has "$T/out" "restores: 1"
check pisad_logged_restore has "$T/pisad.log" "restored the switch"
"$CTL" table_dump ipv4_lpm >"$T/dump2" 2>&1
WHY="$(diff "$T/dump1" "$T/dump2" | head -c 300)"
check table_dump_after_restore cmp -s "$T/dump1" "$T/dump2"
send_packets
stop_model
WHY="p1: $("$TOOL" pcap "$T/b-p1.pcap")"
check packets_after_restore pcaps_ok b

# ---- a switch of another board is refused ----
start_model "$T/sw2.sock" c || fail model_start2 "pisa-model did not listen"
timeout 10 "$BIN/pisad" --board icebreaker --transport "sim:$T/sw2.sock" --socket "$T/p2.sock" \
	--foreground 2>"$T/err"
rc=$?
WHY="exit $rc: $(cat "$T/err")"
check pisad_wrong_board_refused test "$rc" -eq 1 -a -n "$(grep "reports board profile 'sim'" "$T/err")"
stop_model

# ---- pisad with no switch, no USB device: clean failures ----
for tr in uart spi "sim:$T/nothing.sock"; do
	timeout 10 "$BIN/pisad" --board icebreaker --transport "$tr" --socket "$T/p3.sock" \
		--foreground 2>"$T/err"
	rc=$?
	WHY="exit $rc: $(cat "$T/err")"
	check "pisad_no_switch_${tr%%:*}" test "$rc" -eq 1 -a -s "$T/err"
done
check pisad_sim_names_socket has "$T/err" "cannot connect to the switch at $T/nothing.sock"
timeout 10 "$BIN/pisad" --board icebreaker --transport uart --socket "$T/p3.sock" --foreground 2>"$T/err"
check pisad_uart_message has "$T/err" "no FT2232H 0403:6010"
timeout 10 "$BIN/pisad" --board nosuch --transport uart --socket "$T/p3.sock" --foreground 2>"$T/err"
rc=$?
WHY="exit $rc"
check pisad_bad_board_usage test "$rc" -eq 3
timeout 10 "$BIN/pisad" --board sim --transport uart --link-timeout 5 --socket "$T/p3.sock" --foreground 2>"$T/err"
rc=$?
WHY="exit $rc: $(head -n1 "$T/err")"
check pisad_bad_link_timeout_usage eval '[ "$rc" -eq 3 ] && has "$T/err" "link-timeout: not a number of ms (10 .. 60000): 5"'

# ---- the model: transport: pisad runs pisa-model itself ----
stop "$PISAD"
WHY="socket left behind"
check pisad_stop_removes_socket test ! -e "$PISAD_SOCKET"
ndirs=$(ls -d /tmp/pisad-model-* 2>/dev/null | wc -l)
"$BIN/pisad" --board sim --transport "model:$ROUTER" --foreground 2>"$T/pisad2.log" &
PISAD=$!
pids+=("$PISAD")
wait_for "test -S $PISAD_SOCKET"
"$CTL" table_add ipv4_lpm ipv4_forward 10.1.2.3/32 '=>' 00:00:00:00:04:04 4 >/dev/null 2>"$T/err"
rc=$?
WHY="exit $rc: $(cat "$T/err") $(tail -n 3 "$T/pisad2.log")"
check model_transport_table_add test "$rc" -eq 0
"$CTL" listen >"$T/listen2.out" 2>&1 &
LISTEN=$!
pids+=("$LISTEN")
wait_for "grep -q Listening $T/listen2.out"
"$CTL" packet-out 5 $IN4 >/dev/null 2>&1
wait_for "grep -q 'packet-in port 4' $T/listen2.out"
WHY="$(head -c 300 "$T/listen2.out")"
check model_transport_packet_in has "$T/listen2.out" "$OUT4"
stop "$LISTEN"
stop "$PISAD"
WHY="$(ls -d /tmp/pisad-model-* 2>/dev/null | head -3)"
check model_transport_cleans_up test "$(ls -d /tmp/pisad-model-* 2>/dev/null | wc -l)" -le "$ndirs"

# ---- daemon mode (no --foreground): the parent returns once the daemon serves ----
# (with a compiled P4 program, whose gateways and code blocks the control plane must not show)
DSOCK=$T/daemon.sock
"$BIN/p4lower" "$here/../../examples/ipv4_router/ipv4_router.p4" -o "$T/p4router.pisa" 2>"$T/p4l.err"
WHY="$(cat "$T/p4l.err")"
check p4lower_router_for_daemon test -s "$T/p4router.pisa"
timeout 20 "$BIN/pisad" --board sim --transport "model:$T/p4router.pisa" --socket "$DSOCK" 2>"$T/daemon.err"
rc=$?
DPID=$(pgrep -f -- "--socket $DSOCK" | head -n 1)
[ -n "$DPID" ] && pids+=("$DPID")
WHY="exit $rc: $(cat "$T/daemon.err")"
check pisad_daemon_starts test "$rc" -eq 0 -a -S "$DSOCK" -a -n "$DPID"
"$CTL" --socket "$DSOCK" switch_info >"$T/daemon.info" 2>&1
rc=$?
WHY="exit $rc: $(head -c 300 "$T/daemon.info")"
check pisad_daemon_serves test "$rc" -eq 0
"$CTL" --socket "$DSOCK" show_tables >"$T/daemon.tables" 2>&1
WHY="$(cat "$T/daemon.tables")"
check show_tables_only_p4_tables test "$(grep -c 'MyIngress.ipv4_lpm\|MyEgress.port_mac' "$T/daemon.tables")" -eq 2 \
	-a "$(grep -c '\$' "$T/daemon.tables")" -eq 0
WHY="the daemon kept a terminal: $(ps -o tty= -p "${DPID:-1}")"
check pisad_daemon_detached test "$(ps -o tty= -p "${DPID:-1}" | tr -d ' ')" = "?"
[ -n "$DPID" ] && stop "$DPID"
WHY="socket left behind by the daemon"
check pisad_daemon_stop_removes_socket test ! -e "$DSOCK"
# a start that fails is reported by the parent, with pisad's error and its exit code
timeout 20 "$BIN/pisad" --board sim --transport "sim:$T/nobody.sock" --socket "$T/d2.sock" \
	2>"$T/daemon2.err"
rc=$?
WHY="exit $rc: $(cat "$T/daemon2.err")"
check pisad_daemon_failed_start test "$rc" -eq 1 -a -s "$T/daemon2.err"

[ "$fails" -eq 0 ]
