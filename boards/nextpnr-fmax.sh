#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The last timing report in a nextpnr log, one "Max frequency for clock ..." line a clock
# (nextpnr reports after placement and again after routing), without the "Info: " prefix.
# Used by bitstream.sh (the PASS/FAIL verdict) and scripts/synth-report.sh.
# usage: nextpnr-fmax.sh LOG
set -u
lines=$(grep -E "Max frequency for clock" "$1") || exit 0
nclk=$(echo "$lines" | sed "s/.*clock *'\([^']*\)'.*/\1/" | sort -u | wc -l)
echo "$lines" | tail -n "$nclk" | sed 's/^[A-Za-z]*: *//'
