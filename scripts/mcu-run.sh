#!/bin/sh
# Runs a Cortex-M3 rtipc-bench firmware (rtipc-cm3-bare-bench by default)
# under QEMU twice and checks the runs (docs/mcu.md):
# each exits 0 through semihosting, their console output is byte-identical,
# the JSON between the markers validates, and `rtipc-bench compare` accepts
# the two (exit 0). Prints the human tables; the JSON goes to OUT. With
# FAULT_ELF (targets/mps2-an385/bare/fault_check.c), also checks that an unhandled fault is
# reported on the UART and ends QEMU with a failure.
#   scripts/mcu-run.sh ELF OUT.json VALIDATOR RTIPC_BENCH [FAULT_ELF]
# MCU_EXPERIMENTS (space-separated ids) overrides the experiments the JSON
# must contain; MCU_TIMEOUT the seconds allowed per QEMU run.
set -eu
elf=$1 json=$2 validator=$3 bench=$4 fault_elf=${5:-}
timeout_s=${MCU_TIMEOUT:-120}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "mcu: $*" >&2; exit 1; }

for run in 1 2; do
    rc=0
    timeout "$timeout_s" qemu-system-arm -M mps2-an385 -nographic -kernel "$elf" \
        -icount shift=0,sleep=off -semihosting-config enable=on,target=native </dev/null >"$work/run$run.txt" || rc=$?
    if [ "$rc" -ne 0 ]; then
        cat "$work/run$run.txt"
        [ "$rc" -eq 124 ] && fail "run $run timed out after ${timeout_s}s"
        fail "run $run: QEMU exited $rc"
    fi
    grep -q '^==== rtipc-mcu exit 0 ====$' "$work/run$run.txt" || fail "run $run: no exit marker"
    sed -n '/^==== rtipc-bench\/1 JSON begin ====$/,/^==== rtipc-bench\/1 JSON end ====$/p' "$work/run$run.txt" |
        sed '1d;$d' >"$work/run$run.json"
    test -s "$work/run$run.json" || fail "run $run printed no JSON"
done
cmp -s "$work/run1.txt" "$work/run2.txt" || { diff "$work/run1.txt" "$work/run2.txt" | head -20; fail "the two runs differ"; }
sed '/^==== rtipc-bench\/1 JSON begin ====$/,$d' "$work/run1.txt"
# The experiments the firmware must have run (the bare-metal one measures
# those that need no kernel; the FreeRTOS firmware names its own: docs/mcu.md).
"$validator" "$work/run1.json" ${MCU_EXPERIMENTS:-lockfree-cost}
"$bench" compare "$work/run1.json" "$work/run2.json" >"$work/compare.txt" ||
    { cat "$work/compare.txt"; fail "rtipc-bench compare rejected two identical runs"; }
grep '^summary:' "$work/compare.txt"
if [ -n "$fault_elf" ]; then
    rc=0
    timeout "$timeout_s" qemu-system-arm -M mps2-an385 -nographic -kernel "$fault_elf" \
        -icount shift=0,sleep=off -semihosting-config enable=on,target=native </dev/null >"$work/fault.txt" || rc=$?
    [ "$rc" -eq 1 ] || { cat "$work/fault.txt"; fail "the faulting firmware exited $rc, not 1"; }
    grep -q '^FAULT: unhandled exception 5 (BusFault) .*BFAR=0xf0000000' "$work/fault.txt" &&
        grep -q '^==== rtipc-mcu exit 133 ====$' "$work/fault.txt" ||
        { cat "$work/fault.txt"; fail "the fault was not reported as a BusFault at 0xf0000000"; }
    echo "mcu: an unhandled BusFault is reported and fails the run"
fi
mkdir -p "$(dirname "$json")"
cp "$work/run1.json" "$json"
echo "mcu: two runs byte-identical, JSON valid and compared; $json"
