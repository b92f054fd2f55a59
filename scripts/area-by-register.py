#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Where a flat netlist's logic goes: every LUT4 (a carry cell counts two) is shared out among
the registers and block-RAM inputs it feeds, through other logic but not through flip-flops.

    scripts/area-by-register.py NETLIST.json [PREFIX] [ROWS]

NETLIST.json: Yosys's JSON after synth_ecp5 or synth_ice40 (make bitstream leaves
build/boards/NAME/TOP.json). Prints the ROWS (default 40) registers with the most logic, as
LUT4 equivalents, with their names (a vector's bits together); PREFIX keeps only registers
whose names start with it (e.g. u_switch.u_core.). A LUT4 that feeds n registers counts 1/n
for each, so the column sums to the design's logic.
"""
import collections
import json
import re
import sys

# LUT4 equivalents of the logic cells; other cells (flip-flops, block RAM, I/O) end a cone
COST = {"LUT4": 1, "CCU2C": 2, "SB_LUT4": 1, "SB_CARRY": 0, "PFUMX": 0, "L6MUX21": 0}
SINKS = {"TRELLIS_FF", "DP16KD", "SB_RAM40_4K", "SB_RAM40_4KNR", "TRELLIS_DPR16X4"}


def main():
    if len(sys.argv) < 2 or len(sys.argv) > 4:
        sys.exit(__doc__.strip())
    prefix = sys.argv[2] if len(sys.argv) > 2 else ""
    rows = int(sys.argv[3]) if len(sys.argv) > 3 else 40
    with open(sys.argv[1]) as f:
        design = json.load(f)
    tops = [m for m in design["modules"].values() if m.get("attributes", {}).get("top")]
    if len(tops) != 1:
        sys.exit(f"{sys.argv[1]}: not a flat netlist with one top module")
    mod = tops[0]
    cells = mod["cells"]

    # a net bit's name: the shortest user name (Yosys's own names start with $)
    names = {}
    for name, net in mod["netnames"].items():
        if net.get("hide_name"):
            continue
        for bit in net["bits"]:
            if isinstance(bit, int) and (bit not in names or len(name) < len(names[bit])):
                names[bit] = name
    driver = {}
    for cname, cell in cells.items():
        for port, d in cell.get("port_directions", {}).items():
            if d == "output":
                for bit in cell["connections"][port]:
                    if isinstance(bit, int):
                        driver[bit] = cname

    def inputs(cell):
        return [b for p, d in cell["port_directions"].items() if d == "input"
                for b in cell["connections"][p] if isinstance(b, int)]

    def sink_name(cname, cell):
        if cell["type"] in ("TRELLIS_FF",) or cell["type"].startswith("SB_DFF"):
            q = cell["connections"]["Q"][0]
            return re.sub(r"\[\d+\]$", "", names.get(q, "(unnamed)"))
        return "block RAM inputs"

    feeds = collections.defaultdict(set)	# logic cell -> the sinks it feeds
    for cname, cell in cells.items():
        t = cell["type"]
        if t not in SINKS and not t.startswith("SB_DFF"):
            continue
        sink = sink_name(cname, cell)
        if prefix and not sink.startswith(prefix):
            continue
        seen, stack = set(), inputs(cell)
        while stack:
            d = driver.get(stack.pop())
            if d is None or d in seen or cells[d]["type"] not in COST:
                continue
            seen.add(d)
            feeds[d].add(sink)
            stack.extend(inputs(cells[d]))
    share = collections.defaultdict(float)
    total = 0
    for cname, sinks in feeds.items():
        cost = COST[cells[cname]["type"]]
        total += cost
        for s in sinks:
            share[s] += cost / len(sinks)
    print(f"{total} LUT4 equivalents feed the registers{' under ' + prefix if prefix else ''}")
    for s, v in sorted(share.items(), key=lambda x: -x[1])[:rows]:
        print(f"{v:8.0f}  {s}")


if __name__ == "__main__":
    main()
