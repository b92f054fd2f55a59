#!/usr/bin/env bash
# make demo: the IPv4 router of examples/ in the Verilog pipeline, end to end, no board.
#  1. p4lower compiles examples/ipv4_router; pisa_core in Icarus (sim/cosim, the simulated
#     board) is started with its ports 1 and 2 on veth pairs into two network namespaces;
#  2. pisad connects to the simulated board's control link (every byte through the Verilog
#     UART, frame decoder and image loader); pisactl loads the program and its commands file;
#  3. h1 (10.0.1.1) pings h2 (10.0.2.2) through the pipeline; the route counters are read
#     back from the RTL, and the STF test shows what each of its packets did (pisa-model's
#     trace) and that the RTL sends the same bytes.
# Without root (network namespaces) it says so and runs the STF test on the RTL only.
# It cleans up what it made, whatever happens.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
bin=$top/build/bin
cosim=$top/build/cosim
ex=$top/examples/ipv4_router
tag=pd$$
work=$(mktemp -d /tmp/pisa-demo.XXXXXX)
pids=()
status=0

say() { printf '\n== %s\n' "$*"; }
cleanup() {
	local p
	for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null; done
	sleep 0.3
	for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null; { wait "$p"; } 2>/dev/null; done
	ip netns del "${tag}h1" 2>/dev/null
	ip netns del "${tag}h2" 2>/dev/null
	ip link del "${tag}s1" 2>/dev/null
	ip link del "${tag}s2" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

make --no-print-directory -C "$top/sim/cosim" all >/dev/null || { echo "demo: building sim/cosim failed" >&2; exit 1; }
make --no-print-directory -C "$top/hw" harness >/dev/null || { echo "demo: building the harness failed" >&2; exit 1; }

say "p4lower: examples/ipv4_router/ipv4_router.p4"
"$bin/p4lower" "$ex/ipv4_router.p4" -o "$work/router.pisa" || exit 1
sed -n '1,/^$/p' "$work/router.layout.txt"

netns_ok() {
	[ "$(id -u)" -eq 0 ] && command -v ip >/dev/null && command -v ping >/dev/null &&
		ip netns add "${tag}probe" 2>/dev/null && ip netns del "${tag}probe"
}

if netns_ok; then
	say "two hosts in network namespaces, on the switch's ports 1 and 2"
	for i in 1 2; do
		ip netns add "${tag}h$i" && ip link add "${tag}s$i" type veth peer name "${tag}h$i" &&
			ip link set "${tag}h$i" netns "${tag}h$i" &&
			sysctl -qw "net.ipv6.conf.${tag}s$i.disable_ipv6=1" && ip link set "${tag}s$i" up ||
			{ echo "demo: cannot make the veth pair $i" >&2; exit 1; }
		ip netns exec "${tag}h$i" sh -e -c "
			sysctl -qw net.ipv6.conf.all.disable_ipv6=1
			ip link set lo up
			ip link set ${tag}h$i address 02:00:00:00:0$i:0$i
			ip addr add 10.0.$i.$i/24 dev ${tag}h$i
			ip link set ${tag}h$i up
			ip route add default via 10.0.$i.254
			ip neigh add 10.0.$i.254 lladdr 02:00:00:00:ff:0$i dev ${tag}h$i" ||
			{ echo "demo: cannot set up host $i" >&2; exit 1; }
		echo "h$i: 10.0.$i.$i, MAC 02:00:00:00:0$i:0$i, gateway 10.0.$i.254 (the switch's port $i MAC 02:00:00:00:ff:0$i)"
	done

	say "the simulated board: pisa_switch (control link, loader, pisa_core) in Icarus"
	vvp -n -M "$cosim" -m pisa_vpi "$cosim/tb_cosim.vvp" +sock="$work/board.sock" \
		+port1="${tag}s1" +port2="${tag}s2" >"$work/board.log" 2>&1 &
	pids+=($!)
	for i in $(seq 100); do [ -S "$work/board.sock" ] && break; sleep 0.1; done
	grep -v '^pisa_vpi: listening' "$work/board.log"
	"$bin/pisad" --board sim --transport "sim:$work/board.sock" --socket "$work/pisad.sock" \
		--link-timeout 2000 --foreground >"$work/pisad.log" 2>&1 &
	pids+=($!)
	ctl() { "$bin/pisactl" --socket "$work/pisad.sock" "$@"; }
	for i in $(seq 100); do ctl status >/dev/null 2>&1 && break; sleep 0.1; done
	ctl status | sed -n '3p'

	say "pisactl load, then the commands file (every byte through the Verilog UART)"
	start=$(date +%s.%N)
	ctl load "$work/router.pisa" || { cat "$work/pisad.log"; exit 1; }
	ctl <"$ex/ipv4_router-commands.txt" >"$work/cmds.out" 2>&1
	echo "$(grep -c 'Entry has been added' "$work/cmds.out") entries added, $(grep -c 'Setting default' "$work/cmds.out") default set"
	echo "($(awk "BEGIN { printf \"%.1f\", $(date +%s.%N) - $start }") s)"

	say "h1 pings h2 through the Verilog pipeline"
	if ip netns exec "${tag}h1" ping -c 3 -W 5 10.0.2.2; then
		echo "demo: ping through pisa_core: OK"
	else
		echo "demo: FAIL: no reply through pisa_core"
		status=1
	fi

	say "route counters, read back from the RTL (direct counter of MyIngress.ipv4_lpm)"
	for i in 0 1 2; do ctl counter_read MyIngress.route_stats "$i" | grep -v 'direct counter'; done
	ctl status | grep -E '^(link|connects)'
else
	say "network namespaces need root (and ip, ping): no ping; the STF test on the RTL instead"
fi

say "what each packet of the router's STF test does (pisa-model's trace)"
"$bin/pisa-stf" --verbose "$ex/ipv4_router.p4" "$ex/ipv4_router.stf" 2>&1 |
	grep -E '^(stf: line .* in port|  |stf: out)' | head -n 60
say "the same STF test on the RTL (pisa_core in Icarus): the same bytes must come out"
"$bin/pisa-stf" --target rtl "$ex/ipv4_router.p4" "$ex/ipv4_router.stf" || status=1
exit $status
