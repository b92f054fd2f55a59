#!/usr/bin/env bash
# cli.sh PISACTL: the command line of pisactl flash without hardware: usage
# errors, bad files, no FT2232H, the ECP5 board with and without
# openFPGALoader (a stand-in on PATH), --help. PASS/FAIL lines; exit 1 if any failed.
set -u
CTL=$1
T=$(mktemp -d /tmp/pisa-flash-cli.XXXXXX)
trap 'rm -rf "$T"' EXIT
fails=0
pass() { echo "PASS flash/cli_$1"; }
fail() { echo "FAIL flash/cli_$1: $2"; fails=$((fails + 1)); }
# expect NAME CODE NEEDLE-IN-STDERR-OR-STDOUT CMD...
expect() {
	local name=$1 code=$2 needle=$3 rc
	shift 3
	"$@" >"$T/out" 2>"$T/err"
	rc=$?
	if [ "$rc" -ne "$code" ]; then
		fail "$name" "exit $rc, want $code: $(head -c 300 "$T/err")"
	elif [ -n "$needle" ] && ! grep -q -- "$needle" "$T/out" "$T/err"; then
		fail "$name" "output does not say '$needle': $(head -c 300 "$T/err")"
	else
		pass "$name"
	fi
}

printf '\377\000\000\377\176\252\231\176rest of a bitstream' >"$T/top.bin"
: >"$T/empty.bin"
mkdir "$T/bin" "$T/nobin"

expect no_bitstream_usage 3 "no BITSTREAM" "$CTL" flash
expect unknown_option_usage 3 "unknown option '--bogus'" "$CTL" flash "$T/top.bin" --bogus
expect unknown_board_usage 3 "unknown board 'nexys'" "$CTL" flash "$T/top.bin" --board nexys
expect board_needs_value 3 "needs a value" "$CTL" flash "$T/top.bin" --board
expect two_files_usage 3 "one BITSTREAM only" "$CTL" flash "$T/top.bin" "$T/top.bin"
expect missing_file 4 "No such file" "$CTL" flash "$T/missing.bin"
expect empty_file 4 "empty" "$CTL" flash "$T/empty.bin"
expect directory_not_a_file 4 "" "$CTL" flash "$T"
expect no_ft2232h_with_serial 2 "no FT2232H 0403:6010 with serial PISA-NO-SUCH" \
	"$CTL" flash "$T/top.bin" --board icebreaker --device PISA-NO-SUCH
expect no_ft2232h_hx8k 2 "no FT2232H" \
	"$CTL" flash "$T/top.bin" --board=hx8k-breakout --device=PISA-NO-SUCH
expect socket_option_before_flash 2 "no FT2232H" \
	"$CTL" --socket "$T/none.sock" flash "$T/top.bin" --device PISA-NO-SUCH
expect ecp5_without_openfpgaloader 2 "apt-get install openfpgaloader" \
	env PATH="$T/nobin" "$CTL" flash "$T/top.bin" --board colorlight-5a-75b

# a stand-in openFPGALoader that records its arguments
cat >"$T/bin/openFPGALoader" <<EOS
#!/bin/sh
echo "\$@" >"$T/ofl.args"
exit \${OFL_EXIT:-0}
EOS
chmod +x "$T/bin/openFPGALoader"
expect ecp5_runs_openfpgaloader 0 "wrote and verified" \
	env PATH="$T/bin:/usr/bin:/bin" "$CTL" flash "$T/top.bin" --board colorlight-5a-75b \
	--device FT123 --cable ft232
want="-b colorlight -c ft232 --ftdi-serial FT123 -f --verify $T/top.bin"
if [ "$(cat "$T/ofl.args" 2>/dev/null)" = "$want" ]; then
	pass ecp5_openfpgaloader_arguments
else
	fail ecp5_openfpgaloader_arguments "got '$(cat "$T/ofl.args" 2>/dev/null)', want '$want'"
fi
expect ecp5_openfpgaloader_fails 1 "openFPGALoader failed (exit 3)" \
	env OFL_EXIT=3 PATH="$T/bin:/usr/bin:/bin" "$CTL" flash "$T/top.bin" \
	--board colorlight-5a-75b
expect ecp5_empty_file_not_run 4 "empty" \
	env PATH="$T/bin:/usr/bin:/bin" "$CTL" flash "$T/empty.bin" --board colorlight-5a-75b
expect cable_only_for_ecp5 3 "--cable is for the ECP5" "$CTL" flash "$T/top.bin" --cable ft232

# from a commands file, a failing flash line fails the file but the rest runs
printf 'flash %s --device PISA-NO-SUCH\n' "$T/top.bin" >"$T/cmds.txt"
"$CTL" --socket "$T/none.sock" <"$T/cmds.txt" >"$T/out" 2>"$T/err"
rc=$?
if [ "$rc" -eq 1 ] && grep -q "line 1 failed" "$T/err"; then
	pass flash_in_commands_file
else
	fail flash_in_commands_file "exit $rc: $(head -c 300 "$T/err")"
fi

"$CTL" --help >"$T/out"
if grep -q "7  timeout: the flash stayed busy" "$T/out" && grep -q "6  verify failed" "$T/out" &&
	grep -q "2  no device" "$T/out"; then
	pass help_documents_flash_exit_codes
else
	fail help_documents_flash_exit_codes "pisactl --help lacks the flash exit codes"
fi
expect flash_help 0 "Exit codes of flash" "$CTL" flash --help
[ "$fails" -eq 0 ]
