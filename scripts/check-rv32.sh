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
#   bench     rtipc-bench's quick suite as the SMP firmware rtipc-rv32-bench
#             (same kernel and port; SKIPPED without them): the JSON between
#             the console's markers must validate with every experiment the
#             target runs, `rtipc-bench audit` must give claim 9 a verdict
#             from it, and `rtipc-bench compare` must accept it beside the
#             recorded full run (docs/data/freertos-rv32-smp.json); then,
#             in a direct-mode build (RTIPC_FREERTOS_DIRECT), the layer-cost
#             counts against tests/perf/layer_cost-rv32-direct.baseline and
#             round-trip, whose rtipc/kernel ratios must hold at 1.10x
#             (docs/data/freertos-rv32-smp-direct.json)
#
#   scripts/check-rv32.sh [bare] [freertos] [bench]      (default: all three)
#
# bench runs in instruction time when ESP32_TOOLS names the vendored ESP32
# tools (../shared/vendor/esp32): their qemu-system-riscv32 has a
# deterministic -icount mode (its README's "Deterministic runs"), in which
# the firmware's figures do not depend on the host's load; the firmware is
# built to say so (RTIPC_RV32_ICOUNT_SHIFT) and the recorded run
# (docs/data/freertos-rv32-smp.json) is such a run. Without them it runs on
# Debian's QEMU in the host's time, and is not compared with the recording.
#
# RV32_STRESS_ITEMS (default 500000) sets the stress firmware's items each
# way per object: 10^6 messages through every object, both directions at
# once. Every QEMU run is bounded by RV32_TIMEOUT seconds (default 600), the
# stress firmware by RV32_STRESS_TIMEOUT (default 1800: it took 100 s on a
# quiet host here, and a loaded host has made such runs 5 to 10 times
# slower). Without
# -icount the emulated clock is the host's wall clock, so the conformance
# suite's timing checks can miss on a loaded host: a failed conformance run
# is run once more and fails only if it fails again (as CTEST_FLAGS does).
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
JOBS=${JOBS:-2}
T=${RV32_TIMEOUT:-600}
PARTS=${*:-bare freertos bench}
QEMU=(qemu-system-riscv32 -M virt,aclint=on -smp 2 -bios none -nographic)
TOOLCHAIN=$PWD/targets/qemu-virt-rv32/board/toolchain.cmake

say() { echo "check-rv32: $*"; }
# shellcheck source=scripts/kernel-claims.sh
. scripts/kernel-claims.sh
# shellcheck source=scripts/direct-targets.sh
. scripts/direct-targets.sh
failed=""
skipped=""

# run NAME ELF OUT [SECONDS]: one bounded QEMU run; its exit status
run() {
    local rc=0 t0 limit=${4:-$T}
    t0=$(date +%s)
    timeout "$limit" "${QEMU[@]}" -kernel "$2" </dev/null >"$3" 2>&1 || rc=$?
    [ "$rc" -eq 124 ] && say "$1 timed out after ${limit}s; output in $3"
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
    local kernel ports
    kernel_and_ports freertos || return $?
    local dir=$BUILD/rv32-freertos rc
    configure_freertos || return 1
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
        run rtipc-rv32-stress "$dir/rtipc-rv32-stress.elf" "$dir/stress.txt" "${RV32_STRESS_TIMEOUT:-1800}"
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
    # The layer's cost in instructions (minstret), against its baseline: in
    # the vendored QEMU's deterministic mode only, where the two harts take
    # turns of fixed length and the counts repeat exactly (the other hart's
    # hold on the kernel's locks is part of them).
    local iq
    iq=$(icount_qemu) || { say "cannot unpack the vendored QEMU"; return 1; }
    if [ -z "$iq" ]; then
        say "  rtipc-rv32-layer-cost: SKIPPED without ESP32_TOOLS (the counts repeat only in the vendored QEMU's deterministic mode)"
        return 0
    fi
    rc=0
    QEMU_ICOUNT_DETERMINISTIC=1 QEMU_ICOUNT_RR_QUANTUM=$ICOUNT_QUANTUM QEMU_ICOUNT_PARALLEL=1 timeout "$T" \
        "$iq" "${QEMU[@]:1}" -icount shift=$ICOUNT_SHIFT,sleep=off -kernel "$dir/rtipc-rv32-layer-cost.elf" \
        </dev/null >"$dir/layer-cost.txt" 2>&1 || rc=$?
    say "  rtipc-rv32-layer-cost (-icount shift=$ICOUNT_SHIFT, turns of $ICOUNT_QUANTUM): exit $rc"
    [ $rc -eq 0 ] || { say "rtipc-rv32-layer-cost failed; output in $dir/layer-cost.txt"; return 1; }
    # 5%: the other hart's turns shift a little with the code's layout.
    tests/perf/layer_cost.sh --threshold 5 --baseline tests/perf/layer_cost-rv32.baseline "$dir/layer-cost.txt" | sed 's/^/    /'
    case ${PIPESTATUS[0]} in
    0) ;;
    77) say "  the layer's cost: not compared (another kernel or compiler than the baseline's)" ;;
    *) say "the layer's cost on RV32 regressed; output in $dir/layer-cost.txt"; return 1 ;;
    esac
}

# The experiments rtipc-rv32-bench must have run (docs/rv32-virt.md): every
# one but peers, which is built for Linux only.
RV32_EXPERIMENTS="queue-latency queue-placement isr-handoff mechanism-compare byte-stream blocked-producer \
state-vs-event core-placement batching queue-set footprint interference notify-vs-sem notify-modes round-trip \
lockfree-cost"

# kernel_and_ports: sets kernel and ports, or returns 77 (skipped) / 1
kernel_and_ports() {
    if [ -z "${FREERTOS_KERNEL_PATH:-}" ]; then
        say "$1: SKIPPED: FREERTOS_KERNEL_PATH is not set (the FreeRTOS SMP kernel, V11.1 or later)"
        return 77
    fi
    kernel=$(cd "$FREERTOS_KERNEL_PATH" 2>/dev/null && pwd) || { say "FREERTOS_KERNEL_PATH=$FREERTOS_KERNEL_PATH: no such directory"; return 1; }
    ports=${FREERTOS_PORTS_PATH:-$kernel/../FreeRTOS-Kernel-Community-Supported-Ports}
    if [ ! -f "$ports/GCC/RISC-V_RV32_SMP_QEMU_VIRT/port.c" ]; then
        say "$1: SKIPPED: no community port GCC/RISC-V_RV32_SMP_QEMU_VIRT under $ports"
        say "  (set FREERTOS_PORTS_PATH to a FreeRTOS-Kernel-Community-Supported-Ports checkout)"
        return 77
    fi
    ports=$(cd "$ports" && pwd)
}

# configure_freertos: the SMP firmwares' build folder, configured and built
configure_freertos() {
    cmake -S targets/qemu-virt-rv32/freertos -B "$BUILD/rv32-freertos" -DCMAKE_TOOLCHAIN_FILE="$TOOLCHAIN" \
        -DFREERTOS_KERNEL_PATH="$kernel" -DFREERTOS_PORTS_PATH="$ports" \
        -DRV32_STRESS_ITEMS="${RV32_STRESS_ITEMS:-500000}" "$@" >/dev/null &&
        cmake --build "$BUILD/rv32-freertos" -j"$JOBS" >/dev/null
}

# The vendored QEMU with the deterministic mode, unpacked once into
# $BUILD/rv32-qemu; empty without ESP32_TOOLS.
icount_qemu() {
    local tar=${ESP32_TOOLS:-}/qemu-esp32.tar.xz dest=$BUILD/rv32-qemu
    [ -n "${ESP32_TOOLS:-}" ] && [ -f "$tar" ] || return 0
    if [ ! -x "$dest/qemu-esp32/bin/qemu-system-riscv32" ] || [ "$tar" -nt "$dest/.unpacked" ]; then
        rm -rf "$dest" && mkdir -p "$dest" && tar -C "$dest" -xJf "$tar" && touch "$dest/.unpacked" || return 1
    fi
    echo "$dest/qemu-esp32/bin/qemu-system-riscv32"
}

ICOUNT_SHIFT=2
ICOUNT_QUANTUM=1000

check_bench() {
    local kernel ports rc=0 iq
    kernel_and_ports bench || return $?
    iq=$(icount_qemu) || { say "cannot unpack the vendored QEMU"; return 1; }
    local shift=-1
    [ -n "$iq" ] && shift=$ICOUNT_SHIFT
    configure_freertos -DRTIPC_RV32_ICOUNT_SHIFT=$shift || return 1
    local dir=$BUILD/rv32-freertos host=$BUILD/release
    cmake -S . -B "$host" -DCMAKE_BUILD_TYPE=Release -DRTIPC_WERROR=ON -DRTIPC_REQUIRE_DEPS=ON -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++ >/dev/null &&
        cmake --build "$host" -j"$JOBS" --target validate_bench_json rtipc-bench test_claim_rows >/dev/null || return 1
    local args="run --quick --no-progress --json -"
    rc=0
    t0=$(date +%s)
    if [ -n "$iq" ]; then
        QEMU_ICOUNT_DETERMINISTIC=1 QEMU_ICOUNT_RR_QUANTUM=$ICOUNT_QUANTUM QEMU_ICOUNT_PARALLEL=1 timeout "$T" \
            "$iq" "${QEMU[@]:1}" -icount shift=$ICOUNT_SHIFT,sleep=off -kernel "$dir/rtipc-rv32-bench.elf" \
            -append "$args" </dev/null >"$dir/bench.txt" 2>&1 || rc=$?
        say "  rtipc-rv32-bench $args (-icount shift=$ICOUNT_SHIFT, turns of $ICOUNT_QUANTUM): exit $rc ($(( $(date +%s) - t0 )) s)"
    else
        timeout "$T" "${QEMU[@]}" -kernel "$dir/rtipc-rv32-bench.elf" -append "$args" </dev/null >"$dir/bench.txt" 2>&1 || rc=$?
        say "  rtipc-rv32-bench $args (the host's time: no ESP32_TOOLS): exit $rc ($(( $(date +%s) - t0 )) s)"
    fi
    [ $rc -eq 0 ] || { tail -n 20 "$dir/bench.txt"; say "rtipc-rv32-bench failed; output in $dir/bench.txt"; return 1; }
    sed -n '/^==== rtipc-bench\/1 JSON begin ====$/,/^==== rtipc-bench\/1 JSON end ====$/p' "$dir/bench.txt" |
        sed '1d;$d' >"$dir/bench.json"
    [ -s "$dir/bench.json" ] || { say "rtipc-rv32-bench printed no JSON; output in $dir/bench.txt"; return 1; }
    # shellcheck disable=SC2086
    "$host/tests/validate_bench_json" "$dir/bench.json" $RV32_EXPERIMENTS | sed 's/^/    /' ||
        { say "the firmware's JSON is not valid rtipc-bench/1 with every experiment"; return 1; }
    # The kernel's own objects beside rtipc's, claim 9 decided from them
    # (scripts/kernel-claims.sh).
    kernel_claims "$host" "$dir/bench.json" "$dir" "the FreeRTOS SMP kernel" || return 1
    # compare exits 0 (nothing regressed) or 1 (something did: a quick run
    # beside a full one); 2 means it refused a file. The recorded run is in
    # instruction time: a run in the host's time is not set beside it.
    [ -n "$iq" ] || { say "  not compared with the recorded run (instruction time) without ESP32_TOOLS"; return 0; }
    rc=0
    "$host/bench/rtipc-bench" compare docs/data/freertos-rv32-smp.json "$dir/bench.json" >"$dir/compare.txt" 2>&1 || rc=$?
    grep '^summary:' "$dir/compare.txt" | sed 's/^/    /'
    [ $rc -le 1 ] || { cat "$dir/compare.txt"; say "rtipc-bench compare refused the firmware's JSON"; return 1; }
    check_direct "$iq" "$host"
}

# Direct mode (docs/porting.md): the conformance suite, the layer-cost
# firmware against its own baseline and round-trip alone, whose rtipc/kernel ratios must all hold at
# 1.10x, from a build with RTIPC_FREERTOS_DIRECT. Instruction time only.
check_direct() {
    local iq=$1 host=$2 dir=$BUILD/rv32-freertos-direct rc=0
    [ -n "$iq" ] || { say "  direct mode: SKIPPED without ESP32_TOOLS (its counts need the deterministic mode)"; return 0; }
    cmake -S targets/qemu-virt-rv32/freertos -B "$dir" -DCMAKE_TOOLCHAIN_FILE="$TOOLCHAIN" \
        -DFREERTOS_KERNEL_PATH="$kernel" -DFREERTOS_PORTS_PATH="$ports" -DRTIPC_RV32_ICOUNT_SHIFT=$ICOUNT_SHIFT \
        -DRTIPC_FREERTOS_DIRECT=ON >/dev/null &&
        cmake --build "$dir" -j"$JOBS" --target rtipc-rv32-conformance rtipc-rv32-layer-cost rtipc-rv32-bench \
            >/dev/null || return 1
    # The conformance suite: the SMP kernel's deviations and the two
    # refusals direct mode gives up, as in check_freertos (two attempts).
    local attempt
    for attempt in 1 2; do
        rc=0
        run "direct mode's rtipc-rv32-conformance (attempt $attempt)" "$dir/rtipc-rv32-conformance.elf" \
            "$dir/conformance.txt" || rc=$?
        grep -E '^(conformance:|! )' "$dir/conformance.txt" | sed 's/^/    /'
        [ $rc -eq 0 ] && break
    done
    [ $rc -eq 0 ] || { say "direct mode's rtipc-rv32-conformance failed twice; output in $dir/conformance.txt"; return 1; }
    QEMU_ICOUNT_DETERMINISTIC=1 QEMU_ICOUNT_RR_QUANTUM=$ICOUNT_QUANTUM QEMU_ICOUNT_PARALLEL=1 timeout "$T" \
        "$iq" "${QEMU[@]:1}" -icount shift=$ICOUNT_SHIFT,sleep=off -kernel "$dir/rtipc-rv32-layer-cost.elf" \
        </dev/null >"$dir/layer-cost.txt" 2>&1 || rc=$?
    [ $rc -eq 0 ] || { say "direct mode's rtipc-rv32-layer-cost failed; output in $dir/layer-cost.txt"; return 1; }
    say "  direct mode's layer cost:"
    tests/perf/layer_cost.sh --threshold 5 --baseline tests/perf/layer_cost-rv32-direct.baseline "$dir/layer-cost.txt" |
        sed 's/^/    /'
    case ${PIPESTATUS[0]} in
    0 | 77) ;;
    *) say "direct mode's layer cost on RV32 regressed; output in $dir/layer-cost.txt"; return 1 ;;
    esac
    QEMU_ICOUNT_DETERMINISTIC=1 QEMU_ICOUNT_RR_QUANTUM=$ICOUNT_QUANTUM QEMU_ICOUNT_PARALLEL=1 timeout "$T" \
        "$iq" "${QEMU[@]:1}" -icount shift=$ICOUNT_SHIFT,sleep=off -kernel "$dir/rtipc-rv32-bench.elf" \
        -append "run --quick --no-progress --json - round-trip" </dev/null >"$dir/bench.txt" 2>&1 || rc=$?
    sed -n '/^==== rtipc-bench\/1 JSON begin ====$/,/^==== rtipc-bench\/1 JSON end ====$/p' "$dir/bench.txt" |
        sed '1d;$d' >"$dir/bench.json"
    [ $rc -eq 0 ] && [ -s "$dir/bench.json" ] || { say "direct mode's round-trip failed; output in $dir/bench.txt"; return 1; }
    direct_targets "$dir/bench.json" || return 1
    "$host/bench/rtipc-bench" compare docs/data/freertos-rv32-smp-direct.json "$dir/bench.json" >"$dir/compare.txt" 2>&1
    rc=$?
    grep '^summary:' "$dir/compare.txt" | sed 's/^/    /'
    [ $rc -le 1 ] || { cat "$dir/compare.txt"; say "rtipc-bench compare refused direct mode's JSON"; return 1; }
}

t_all=$(date +%s)
for p in $PARTS; do
    case $p in
    bare | freertos | bench)
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
    *) say "unknown part '$p' (bare freertos bench)"; exit 2 ;;
    esac
done
say "done in $(( $(date +%s) - t_all )) s${skipped:+; skipped:$skipped}"
[ -z "$failed" ] || { say "FAILED:$failed"; exit 1; }
