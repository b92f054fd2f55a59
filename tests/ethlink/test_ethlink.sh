#!/usr/bin/env bash
# test_ethlink.sh BIN COSIM: the control link over Ethernet management frames.
#  - pisad --transport eth:IF refuses what it cannot use, with a clear message: an unknown
#    interface, a malformed board address, and (run as an unprivileged user) no CAP_NET_RAW;
#  - as root with ip netns: a veth pair in a private network namespace; the co-simulated board
#    of sim/cosim/tb_cosim_eth.v (pisa_ctl_eth in front of pisa_switch, PHY "byte") on one end,
#    pisad --transport eth:IF on the other. pisad reports the Verilog HELLO_REPLY, a program
#    loads through pisa_loader, its commands file fills the RTL tables, a packet-out is routed
#    and counted by the RTL; a pisad with the board's address (eth:IF,MAC) loads and writes
#    too; with another board's address it finds no switch.
# Prints PASS/FAIL lines (the namespace part is reported as one FAIL with the reason if it
# cannot run: root and ip netns are needed); exits 1 if any failed. KEEP=1 keeps the logs.
set -u
BIN=$(cd "$1" && pwd)
COSIM=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
T=$(mktemp -d /tmp/pisa-ethlink-test.XXXXXX)
chmod 755 "$T"
cd "$T" || exit 1
NS=pisaeth$$
pids=()
fails=0

cleanup() {
	local p
	for p in "${pids[@]}"; do
		kill -TERM "$p" 2>/dev/null
	done
	sleep 0.2
	for p in "${pids[@]}"; do
		kill -KILL "$p" 2>/dev/null
	done
	for p in "${pids[@]}"; do
		{ wait "$p"; } 2>/dev/null
	done
	ip netns del "$NS" 2>/dev/null
	[ -n "${KEEP:-}" ] && echo "ethlink: kept $T" || rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

pass() { echo "PASS ethlink/$1"; }
fail() { echo "FAIL ethlink/$1: $2"; fails=$((fails + 1)); }
check() {	# NAME COMMAND...: PASS if the command succeeds
	local name=$1
	shift
	if "$@"; then pass "$name"; else fail "$name" "${WHY:-check failed}"; fi
	WHY=
}
has() { grep -q -- "$2" "$1"; }
oneline() { tr '\n' ' ' <"$1" | head -c 300; }
wait_for() {	# COMMAND [TENTHS]: up to TENTHS / 10 s (default 10 s)
	local i
	for i in $(seq "${2:-100}"); do
		eval "$1" >/dev/null 2>&1 && return 0
		sleep 0.1
	done
	return 1
}
stop() {	# PID: TERM, then KILL if it does not go within 3 s
	local i
	kill -TERM "$1" 2>/dev/null
	for i in $(seq 30); do
		kill -0 "$1" 2>/dev/null || break
		sleep 0.1
	done
	kill -0 "$1" 2>/dev/null && kill -KILL "$1" 2>/dev/null
	{ wait "$1"; } 2>/dev/null
}
WHY=

# ---- what pisad refuses ----
timeout 20 "$BIN/pisad" --board sim --transport eth:nosuch0 --socket "$T/e1.sock" --foreground \
	2>"$T/e1.log"
rc=$?
WHY="exit $rc: $(oneline "$T/e1.log")"
check unknown_interface_refused test "$rc" -eq 1 -a \
	-n "$(grep "eth:nosuch0: no network interface named 'nosuch0'" "$T/e1.log")"
timeout 20 "$BIN/pisad" --board sim --transport eth:lo,02:00:zz --socket "$T/e2.sock" \
	--foreground 2>"$T/e2.log"
rc=$?
WHY="exit $rc: $(oneline "$T/e2.log")"
check bad_board_address_refused test "$rc" -eq 3 -a \
	-n "$(grep "'02:00:zz' is not a MAC address (aa:bb:cc:dd:ee:ff)" "$T/e2.log")"
# without CAP_NET_RAW: as nobody when root, else as whoever runs the test
mkdir -m 1777 "$T/any"
if [ "$(id -u)" -eq 0 ]; then
	asuser="setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all"
else
	asuser=
fi
timeout 20 $asuser "$BIN/pisad" --board sim --transport eth:lo --socket "$T/any/e3.sock" \
	--foreground 2>"$T/e3.log"
rc=$?
WHY="exit $rc: $(oneline "$T/e3.log")"
check no_cap_net_raw_refused test "$rc" -eq 1 -a -n "$(grep 'raw Ethernet frames need CAP_NET_RAW' "$T/e3.log")"

# ---- pisad over Ethernet to the co-simulated board ----
if [ "$(id -u)" -ne 0 ] || ! ip netns add "$NS" 2>"$T/ns.err"; then
	fail over_ethernet "not run: needs root and ip netns ($(oneline "$T/ns.err"))"
	exit 1
fi
IN() { exec ip netns exec "$NS" "$@"; }	# (in a subshell: its pid is the program's)
ip -n "$NS" link add vh type veth peer name vs &&
	ip -n "$NS" link set vh up && ip -n "$NS" link set vs up || {
	fail over_ethernet "cannot make a veth pair in $NS"; exit 1; }
ip netns exec "$NS" sysctl -q -w net.ipv6.conf.all.disable_ipv6=1 2>/dev/null	# no IPv6 chatter
MAC=02:50:49:53:41:01
CTLS=$T/ctl.sock
CTL() { "$BIN/pisactl" --socket "$CTLS" "$@"; }
HELLO="switch: connected (board sim, version 1.0, 511 ports, cpu port 255, 32 stages, window 16, max payload 1024)"

(IN vvp -n -M "$COSIM" -m pisa_vpi "$COSIM/tb_cosim_eth.vvp" +port0=vs >"$T/sim.log" 2>&1) &
SIM=$!
pids+=("$SIM")
wait_for "grep -q 'managed over Ethernet' '$T/sim.log'"
WHY="$(oneline "$T/sim.log")"
check cosim_on_veth has "$T/sim.log" "tb_cosim_eth: board sim managed over Ethernet on port 0 (vs)"

start_pisad() {	# TRANSPORT LOG: pisad in the namespace; its pid in PISAD
	(IN "$BIN/pisad" --board sim --transport "$1" --socket "$CTLS" --foreground \
		--log-level info --link-timeout 2000 2>"$2") &
	PISAD=$!
	pids+=("$PISAD")
	wait_for "test -S $CTLS || ! kill -0 $PISAD" 300
}
start_pisad eth:vh "$T/pisad1.log"
WHY="$(oneline "$T/pisad1.log")"
check pisad_starts_over_ethernet test -S "$CTLS"
[ -S "$CTLS" ] || { fail rest "skipped: pisad did not start"; exit 1; }
CTL status >"$T/status1" 2>&1
WHY="$(oneline "$T/status1")"
check status_shows_verilog_hello_reply eval 'has "$T/status1" "$HELLO" &&
	has "$T/status1" "transport: eth:vh (broadcast, EtherType 0x88b5)"'

"$BIN/p4lower" "$top/examples/ipv4_router/ipv4_router.p4" -o "$T/router.pisa" 2>"$T/p4l.err"
CTL load "$T/router.pisa" >"$T/load.out" 2>"$T/load.err"
rc=$?
WHY="exit $rc: $(oneline "$T/load.err") $(oneline "$T/load.out")"
check load_over_ethernet test "$rc" -eq 0 -a -n "$(grep "Loaded program 'ipv4_router'" "$T/load.out")"
CTL <"$top/examples/ipv4_router/ipv4_router-commands.txt" >"$T/cmds.out" 2>&1
WHY="$(oneline "$T/cmds.out")"
check commands_file_over_ethernet test "$(grep -c 'Entry has been added' "$T/cmds.out")" -eq 6
CTL table_dump MyIngress.ipv4_lpm >"$T/dump.out" 2>&1
WHY="$(oneline "$T/dump.out")"
check table_dump_over_ethernet has "$T/dump.out" "0a000200/24"
# a packet-out to 10.0.2.2 (the STF test's first packet): routed by the RTL to port 2, counted
CTL packet-out 1 02000000ff0102000000010108004500002b00014000401123bf0a0001010a00020204d2162e00179ec66f70656e7069736120726f75746572 \
	>"$T/po.out" 2>"$T/po.err"
rc=$?
CTL counter_read MyIngress.route_stats 1 >"$T/cnt.out" 2>&1
WHY="exit $rc: $(oneline "$T/po.err") $(oneline "$T/cnt.out")"
check packet_out_routed_and_counted test "$rc" -eq 0 -a \
	-n "$(grep 'route_stats\[1\]= (57 bytes, 1 packets)' "$T/cnt.out")"
stop "$PISAD"

# the board's own address (a new pisad: a new session, its own program and entries)
start_pisad "eth:vh,$MAC" "$T/pisad2.log"
CTL status >"$T/status2" 2>&1
CTL load "$T/router.pisa" >"$T/load2.out" 2>&1
CTL table_add ipv4_lpm set_nhop 10.0.9.0/24 '=>' 02:00:00:00:09:09 2 >"$T/add2.out" 2>&1
CTL table_dump MyIngress.ipv4_lpm >"$T/dump2.out" 2>&1
WHY="$(oneline "$T/status2") $(oneline "$T/load2.out") $(oneline "$T/dump2.out")"
check unicast_to_board_mac eval 'has "$T/status2" "$HELLO" && has "$T/status2" "board $MAC" &&
	has "$T/dump2.out" "0a000900/24"'
stop "$PISAD"

# another board's address: nobody answers, pisad says so and gives up
timeout 60 ip netns exec "$NS" "$BIN/pisad" --board sim --transport eth:vh,02:50:49:53:41:99 \
	--socket "$T/e4.sock" --foreground --link-timeout 100 2>"$T/e4.log"
rc=$?
WHY="exit $rc: $(oneline "$T/e4.log")"
check other_board_mac_no_switch test "$rc" -eq 1 -a -n "$(grep 'no reply from the switch' "$T/e4.log")"

WHY="$(oneline "$T/sim.log")"
check cosim_clean eval '! grep -q "error\|warning" "$T/sim.log"'
[ "$fails" -eq 0 ]
