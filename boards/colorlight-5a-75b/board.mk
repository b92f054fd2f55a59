# SPDX-License-Identifier: Apache-2.0
# Colorlight 5A-75B v8.0: what boards/Makefile needs to build its bitstream.
PROFILE := colorlight-5a-75b
FAMILY := ecp5
DEVICE := 25k
PACKAGE := CABGA256
SPEED := 6
CONSTRAINTS := colorlight-5a-75b.lpf
TOP ?= pisa_top_colorlight
SRCS := pisa_top_colorlight.v pisa_bridge_colorlight.v
# The 25 MHz clock (from PHY 1); the PLL runs its VCO at 625 MHz (ecppll -i 25 -o 125: CLKI_DIV 1,
# CLKFB_DIV 5, CLKOP_DIV 5 for the RGMII 125 MHz) and gives the core VCO / n, n chosen for
# CORE_MHZ (125, 104.2, 89.3, 78.1, 69.4, 62.5 ... 39.06, 36.76 ...). The defaults are the fastest
# each top meets today (docs/performance.md, "Boards"): 36.8 for the switch top (its core: 41.25 MHz;
# 38.30 missed 39.06 on the netlist of 2026-12-06 evening), 104.2
# for the bring-up bridge (its port mux and demux: 122.6 MHz).
OSC_MHZ := 25
PLL_VCO_MHZ := 625
CORE_MHZ ?= $(if $(filter pisa_bridge_colorlight,$(TOP)),104.2,36.8)
# Other clocks to meet: the RGMII transmit clock and the PHYs' receive clocks.
CLOCKS := gtx_clk=125 rgmii_rx_clk[0]=125 rgmii_rx_clk[1]=125
