# SPDX-License-Identifier: Apache-2.0
# iCEBreaker: what boards/Makefile needs to build its bitstream.
PROFILE := icebreaker
FAMILY := ice40
DEVICE := up5k
PACKAGE := sg48
CONSTRAINTS := icebreaker.pcf
TOP ?= pisa_top_icebreaker
SRCS := pisa_top_icebreaker.v pisa_bridge_icebreaker.v
# The 12 MHz oscillator, and the core clock the PLL makes from it (icepll picks the nearest it
# can; lower it if the core misses timing).
OSC_MHZ := 12
CORE_MHZ ?= 30
# Other clocks to meet: each PMOD's RMII REF_CLK.
CLOCKS := rmii_ref_clk[0]=50 rmii_ref_clk[1]=50
