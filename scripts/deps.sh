#!/usr/bin/env bash
# Installs what OpenPISA needs on a Debian machine: Debian packages through
# apt-get when run as root (otherwise prints the exact apt-get line and fails),
# and PyPI tools (listed in scripts/requirements.txt) into a project-local venv
# at .venv/. Does nothing when everything is there already.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)

# build: gcc make; examples' test generator: python3; model: libpcap; pisactl: readline;
# hardware: iverilog verilator yosys (+ yosys-smtbmc, z3 for proofs); host link: libftdi1 libusb;
# make demo: iproute2 and ping for the hosts in network namespaces; make bitstream: nextpnr-ice40
# and fpga-icestorm for the iCE40 boards, python3-venv for the ECP5 tools' venv.
packages=(gcc make libc6-dev python3 libpcap-dev libreadline-dev iverilog verilator yosys z3 libftdi1-dev libusb-1.0-0-dev iproute2 iputils-ping nextpnr-ice40 fpga-icestorm python3-venv)

missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	if [ "$(id -u)" -eq 0 ]; then
		echo "deps: installing ${missing[*]}"
		export DEBIAN_FRONTEND=noninteractive
		apt-get update -qq && apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null ||
			{ echo "deps: apt-get install failed" >&2; exit 1; }
	else
		echo "deps: missing Debian packages; run as root:" >&2
		echo "  apt-get update && apt-get install -y ${missing[*]}" >&2
		exit 1
	fi
fi

req="$top/scripts/requirements.txt"
if [ -s "$req" ] && grep -qv '^\s*#' "$req"; then
	if [ ! -x "$top/.venv/bin/python" ]; then
		python3 -m venv "$top/.venv" || { echo "deps: python3 -m venv failed (apt-get install python3-venv)" >&2; exit 1; }
	fi
	if ! cmp -s "$req" "$top/.venv/requirements.installed"; then
		echo "deps: installing PyPI tools into .venv"
		"$top/.venv/bin/pip" install -q -r "$req" && cp "$req" "$top/.venv/requirements.installed" ||
			{ echo "deps: pip install failed" >&2; exit 1; }
	fi
fi
exit 0
