#!/bin/bash
# The two-hart RV32 target under QEMU (targets/qemu-virt-rv32, docs/rv32-virt.md):
#   bare      targets/qemu-virt-rv32/bare, no kernel: rtipc-rv32-fault must be
#             reported as a load access fault, rtipc-rv32-lockfree must move
#             its sequence-numbered items and mailbox versions between the
#             harts with nothing lost, duplicated, reordered or torn
#   freertos  targets/qemu-virt-rv32/freertos on the FreeRTOS SMP kernel
#             (FREERTOS_KERNEL_PATH) with the community RV32 SMP port
#             (FREERTOS_PORTS_PATH, default $FREERTOS_KERNEL_PATH/../FreeRTOS-Kernel-Community-Supported-Ports):
#             the boot firmware, the conformance suite, the cross-core stress
#             firmware, the spin-then-park firmware (its checks only: a
#             cross-core handoff caught spinning, none spinning on one core);
#             SKIPPED, saying so, without the kernel or the port
#
#   scripts/check-rv32.sh [bare] [freertos]      (default: both)
#
# RV32_STRESS_ITEMS (default 100000) sets the stress firmware's items each
# way per object. Every QEMU run is bounded by RV32_TIMEOUT seconds (default 600;
# the stress firmware took 40 s to 3 min here, depending on the host's load). Without
# -icount the emulated clock is the host's wall clock, so the conformance
# suite's timing checks can miss on a loaded host: a failed conformance run
# is run once more and fails only if it fails again (as CTEST_FLAGS does).
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
JOBS=${JOBS:-2}
T=${RV32_TIMEOUT:-600}
PARTS=${*:-bare freertos}
QEMU=(qemu-system-riscv32 -M virt,aclint=on -smp 2 -bios none -nographic)
TOOLCHAIN=$PWD/targets/qemu-virt-rv32/board/toolchain.cmake

say() { echo "check-rv32: $*"; }
failed=""
skipped=""

# run NAME ELF OUT: one bounded QEMU run; its exit status
run() {
    local rc=0 t0
    t0=$(date +%s)
    timeout "$T" "${QEMU[@]}" -kernel "$2" </dev/null >"$3" 2>&1 || rc=$?
    [ "$rc" -eq 124 ] && say "$1 timed out after ${T}s; output in $3"
    say "  $1: exit $rc ($(( $(date +%s) - t0 )) s)"
    return $rc
}

check_bare() {
    local dir=$BUILD/rv32-bare rc=0
    cmake -S targets/qemu-virt-rv32/bare -B "$dir" -DCMAKE_TOOLCHAIN_FILE="$TOOLCHAIN" >/dev/null &&
        cmake --build "$dir" -j"$JOBS" >/dev/null || return 1
    run rtipc-rv32-fault "$dir/rtipc-rv32-fault.elf" "$dir/fault.txt"
    rc=$?
    if [ $rc -ne 133 ] || ! grep -q '^FAULT: hart 0: exception 5 (load access fault) .*mtval=0xf0000000' "$dir/fault.txt" ||
        ! grep -q '^==== rtipc-rv32 exit 133 ====$' "$dir/fault.txt"; then
        cat "$dir/fault.txt"
        say "the fault was not reported as a load access fault at 0xf0000000 with exit 133"
        return 1
    fi
    rc=0
    run rtipc-rv32-lockfree "$dir/rtipc-rv32-lockfree.elf" "$dir/lockfree.txt" || rc=$?
    grep -E '^(spsc|mailbox)' "$dir/lockfree.txt" | grep -v ' ran ' | sed 's/^/    /'
    [ $rc -eq 0 ] && grep -q '^rtipc-rv32-lockfree: passed$' "$dir/lockfree.txt" ||
        { say "rtipc-rv32-lockfree failed; output in $dir/lockfree.txt"; return 1; }
}

check_freertos() {
    if [ -z "${FREERTOS_KERNEL_PATH:-}" ]; then
        say "freertos: SKIPPED: FREERTOS_KERNEL_PATH is not set (the FreeRTOS SMP kernel, V11.1 or later)"
        return 77
    fi
    local kernel ports
    kernel=$(cd "$FREERTOS_KERNEL_PATH" 2>/dev/null && pwd) || { say "FREERTOS_KERNEL_PATH=$FREERTOS_KERNEL_PATH: no such directory"; return 1; }
    ports=${FREERTOS_PORTS_PATH:-$kernel/../FreeRTOS-Kernel-Community-Supported-Ports}
    if [ ! -f "$ports/GCC/RISC-V_RV32_SMP_QEMU_VIRT/port.c" ]; then
        say "freertos: SKIPPED: no community port GCC/RISC-V_RV32_SMP_QEMU_VIRT under $ports"
        say "  (set FREERTOS_PORTS_PATH to a FreeRTOS-Kernel-Community-Supported-Ports checkout)"
        return 77
    fi
    ports=$(cd "$ports" && pwd)
    local dir=$BUILD/rv32-freertos rc
    cmake -S targets/qemu-virt-rv32/freertos -B "$dir" -DCMAKE_TOOLCHAIN_FILE="$TOOLCHAIN" \
        -DFREERTOS_KERNEL_PATH="$kernel" -DFREERTOS_PORTS_PATH="$ports" \
        -DRV32_STRESS_ITEMS="${RV32_STRESS_ITEMS:-100000}" >/dev/null &&
        cmake --build "$dir" -j"$JOBS" >/dev/null || return 1
    run rtipc-rv32-boot "$dir/rtipc-rv32-boot.elf" "$dir/boot.txt"
    rc=$?
    grep -E '^(core|rtipc-rv32-boot:)' "$dir/boot.txt" | sed 's/^/    /'
    [ $rc -eq 0 ] || { say "rtipc-rv32-boot failed; output in $dir/boot.txt"; return 1; }
    local attempt
    for attempt in 1 2; do
        run "rtipc-rv32-conformance (attempt $attempt)" "$dir/rtipc-rv32-conformance.elf" "$dir/conformance.txt"
        rc=$?
        grep -E '^(conformance:|! |~ )' "$dir/conformance.txt" | sed 's/^/    /'
        [ $rc -eq 0 ] && break
        cp "$dir/conformance.txt" "$dir/conformance-$attempt.txt"
    done
    [ $rc -eq 0 ] || { say "rtipc-rv32-conformance failed twice; output in $dir/conformance-*.txt"; return 1; }
    if [ -f "$dir/rtipc-rv32-stress.elf" ]; then
        run rtipc-rv32-stress "$dir/rtipc-rv32-stress.elf" "$dir/stress.txt"
        rc=$?
        grep -E '^(stress|rtipc-rv32-stress:)' "$dir/stress.txt" | sed 's/^/    /'
        [ $rc -eq 0 ] || { say "rtipc-rv32-stress failed; output in $dir/stress.txt"; return 1; }
    fi
    if [ -f "$dir/rtipc-rv32-spin-check.elf" ]; then
        run rtipc-rv32-spin-check "$dir/rtipc-rv32-spin-check.elf" "$dir/spin-check.txt"
        rc=$?
        grep -E '^(spin check|rtipc-rv32-spin:)' "$dir/spin-check.txt" | sed 's/^/    /'
        [ $rc -eq 0 ] || { say "rtipc-rv32-spin-check failed; output in $dir/spin-check.txt"; return 1; }
    fi
}

t_all=$(date +%s)
for p in $PARTS; do
    case $p in
    bare | freertos)
        t0=$(date +%s)
        "check_$p"
        rc=$?
        if [ $rc -eq 0 ]; then
            say "$p: passed ($(( $(date +%s) - t0 )) s)"
        elif [ $rc -eq 77 ]; then
            skipped="$skipped $p"
        else
            say "$p: FAILED"
            failed="$failed $p"
        fi ;;
    *) say "unknown part '$p' (bare freertos)"; exit 2 ;;
    esac
done
say "done in $(( $(date +%s) - t_all )) s${skipped:+; skipped:$skipped}"
[ -z "$failed" ] || { say "FAILED:$failed"; exit 1; }
