# SPDX-License-Identifier: Apache-2.0
# iCE40-HX8K Breakout Board: what boards/Makefile needs to build its bitstream.
PROFILE := hx8k-breakout
FAMILY := ice40
DEVICE := hx8k
PACKAGE := ct256
CONSTRAINTS := hx8k-breakout.pcf
TOP ?= pisa_top_hx8k
SRCS := pisa_top_hx8k.v pisa_bridge_hx8k.v
# The 12 MHz oscillator, and the core clock the PLL makes from it (icepll picks the nearest it
# can; lower it if the core misses timing).
OSC_MHZ := 12
CORE_MHZ ?= 48
# Other clocks to meet: the shared RMII REF_CLK.
CLOCKS := rmii_ref_clk=50
