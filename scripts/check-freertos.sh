#!/bin/bash
# The checks that need a FreeRTOS kernel (make check-freertos; docs/porting.md).
# FREERTOS_KERNEL_PATH names a FreeRTOS-Kernel checkout; when it is not set,
# every check is skipped, with a message, and the script succeeds.
#
#   FREERTOS_KERNEL_PATH=/path/to/FreeRTOS-Kernel scripts/check-freertos.sh [--record]
#
# Checks (FREERTOS_CHECKS picks some of them; default "sim diff cm3"):
#   sim   targets/freertos-posix: rtipc_freertos_check, the FreeRTOS port's
#         own checks plus the conformance suite, on the POSIX simulator, and
#         sim_test_direct in a direct-mode build
#   diff  the differential suite (tests/differential, kernel V11 or later):
#         regenerate the kernel's output, fail if the recorded copy for this
#         kernel version is stale, compare the Linux runner with it
#   cm3   targets/mps2-an385/freertos under QEMU (mps2-an385): the conformance
#         firmware (compared on the target), the layer-cost firmware (its
#         instruction counts against tests/perf/layer_cost-cm3.baseline),
#         two runs of the bench firmware, and the layer-cost and bench
#         firmwares again in direct mode (RTIPC_FREERTOS_DIRECT)
#   rv32  targets/qemu-virt-rv32/freertos under QEMU (virt, two harts): the
#         FreeRTOS SMP kernel with the community RV32 SMP port
#         (FREERTOS_PORTS_PATH, default KERNEL/../FreeRTOS-Kernel-Community-Supported-Ports;
#         skipped, saying so, without it): boot, conformance, cross-core
#         stress (scripts/check-rv32.sh freertos). Not in the default list yet.
# --record writes the kernel's output to tests/differential/kernel-output/
# VERSION.txt instead of comparing it (after a change to the scenarios).
#
# BUILD (default build) holds the build directories, one per kernel version:
# BUILD/freertos-posix-VERSION, BUILD/freertos-diff-VERSION,
# BUILD/freertos-cm3-VERSION. The kernel checkout is only read.
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
JOBS=${JOBS:-2}
CHECKS=${FREERTOS_CHECKS:-sim diff cm3}
record=0
[ "${1:-}" = "--record" ] && record=1

say() { echo "check-freertos: $*"; }
# shellcheck source=scripts/direct-targets.sh
. scripts/direct-targets.sh

if [ -z "${FREERTOS_KERNEL_PATH:-}" ]; then
    say "FREERTOS_KERNEL_PATH is not set: SKIPPED every check that needs a FreeRTOS kernel:"
    say "  - the differential suite regenerated against a kernel (ctest's 'differential' test"
    say "    still compares the Linux port with the recorded V11.3.0 kernel output)"
    say "  - targets/freertos-posix: rtipc_freertos_check (the FreeRTOS port's checks and the"
    say "    conformance suite on the POSIX simulator)"
    say "  - targets/mps2-an385/freertos: the Cortex-M3 FreeRTOS conformance and bench firmwares under QEMU"
    say "Set FREERTOS_KERNEL_PATH=/path/to/FreeRTOS-Kernel to run them."
    exit 0
fi
kernel=$(cd "$FREERTOS_KERNEL_PATH" 2>/dev/null && pwd) || { say "FREERTOS_KERNEL_PATH=$FREERTOS_KERNEL_PATH: no such directory"; exit 1; }
if [ ! -f "$kernel/include/task.h" ]; then
    say "$kernel is not a FreeRTOS-Kernel checkout (no include/task.h)"
    exit 1
fi
version=$(sed -n 's/^#define[ \t]*tskKERNEL_VERSION_NUMBER[ \t]*"\(.*\)".*/\1/p' "$kernel/include/task.h")
major=$(sed -n 's/^#define[ \t]*tskKERNEL_VERSION_MAJOR[ \t]*\([0-9]*\).*/\1/p' "$kernel/include/task.h")
# A name usable in a path: V11.3.0, V11.1.0+ -> V11.1.0plus.
tag=$(printf '%s' "${version:-unknown}" | sed 's/+/plus/g; s/[^A-Za-z0-9._-]/_/g')
say "kernel $version at $kernel; checks: $CHECKS"

failed=""
skipped=""
t_all=$(date +%s)
timed() { # name command...: run, report the time, remember a failure
    local name=$1 t0 rc
    shift
    t0=$(date +%s)
    "$@"
    rc=$?
    say "$name: $([ $rc -eq 0 ] && echo passed || echo FAILED) ($(( $(date +%s) - t0 )) s)"
    [ $rc -eq 0 ] || failed="$failed $name"
    return 0
}

# One simulator build's suite: rtipc_freertos_check, the unit tests of
# tests/unit built for the port (RTIPC_SIM_UNIT_TESTS), and rtipc-bench
# from the same experiment sources: every experiment listed (as many as the
# registry has), and a short run of three whose JSON must validate.
sim_suite() {  # DIR
    local dir=$1
    timeout 300 "$dir/rtipc_freertos_check" >"$dir/check.txt" 2>&1
    local rc=$?
    tail -n 3 "$dir/check.txt" 2>/dev/null | sed 's/^/  /'
    [ $rc -eq 0 ] || { say "rtipc_freertos_check failed (exit $rc); its output is in $dir/check.txt"; return 1; }
    local t
    for t in $(sed "s|^|$dir/|" "$dir/sim_unit_tests.txt" 2>/dev/null); do
        timeout 300 "$t" >"$t.txt" 2>&1 ||
            { grep -a -E "FAILED|ERROR|LINE" "$t.txt" | head -20; say "$(basename "$t") failed; output in $t.txt"; return 1; }
        say "  $(basename "$t"): $(grep -a -E '^\[  (PASSED|SKIPPED)  ?\] [0-9]' "$t.txt" | tr '\n' ' ')"
    done
    local n want
    n=$("$dir/rtipc-bench-freertos" list | grep -c '^[a-z]')
    want=$(grep -c '^    &exp_' bench/experiments/registry.c)
    [ "$n" -eq "$want" ] || { say "rtipc-bench-freertos lists $n experiments, not $want"; return 1; }
    timeout 300 "$dir/rtipc-bench-freertos" run --quick --no-progress --json "$dir/bench.json" footprint round-trip \
        lockfree-cost >"$dir/bench.txt" 2>&1 || { say "rtipc-bench-freertos failed; output in $dir/bench.txt"; return 1; }
    if [ -x "$BUILD/release/tests/validate_bench_json" ]; then
        "$BUILD/release/tests/validate_bench_json" "$dir/bench.json" footprint round-trip lockfree-cost | sed 's/^/  /' ||
            return 1
    fi
}

check_sim() {
    local dir=$BUILD/freertos-posix-$tag
    cmake -S targets/freertos-posix -B "$dir" -DFREERTOS_KERNEL_PATH="$kernel" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DRTIPC_EXAMPLE_BENCH=ON -DRTIPC_EXAMPLE_STOCK_CONFIG=OFF >/dev/null &&
        cmake --build "$dir" -j"$JOBS" >/dev/null || { say "building $dir failed"; return 1; }
    sim_suite "$dir" || return 1
    # The kernel's stock settings (RTIPC_EXAMPLE_STOCK_CONFIG, V11 kernels):
    # one notification index and no thread-local storage pointer, as
    # ESP-IDF's and Arduino's defaults have them. rtipc parks on a
    # semaphore and finds descriptors by task handle; the suite again.
    if [ "${major:-0}" -ge 11 ]; then
        local sdir=$BUILD/freertos-posix-stock-$tag
        cmake -S targets/freertos-posix -B "$sdir" -DFREERTOS_KERNEL_PATH="$kernel" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
            -DRTIPC_EXAMPLE_BENCH=ON -DRTIPC_EXAMPLE_STOCK_CONFIG=ON >/dev/null &&
            cmake --build "$sdir" -j"$JOBS" >/dev/null || { say "building $sdir failed"; return 1; }
        grep -q '^#define RTIPC_NOTIFY_SLOTS 1$' "$sdir/rtipc/include/rtipc/config.h" ||
            { say "the stock build's rtipc/config.h does not have one notification slot"; return 1; }
        say "  the kernel's stock settings (1 notification index, no TLS pointer):"
        sim_suite "$sdir" || return 1
    fi
    # Direct mode's in-line calls, every return path (tests/freertos/test_direct.c).
    local ddir=$BUILD/freertos-posix-direct-$tag
    cmake -S targets/freertos-posix -B "$ddir" -DFREERTOS_KERNEL_PATH="$kernel" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DRTIPC_EXAMPLE_BENCH=OFF -DRTIPC_FREERTOS_DIRECT=ON >/dev/null &&
        cmake --build "$ddir" -j"$JOBS" --target sim_test_direct >/dev/null || return 1
    timeout 300 "$ddir/sim_test_direct" >"$ddir/sim_test_direct.txt" 2>&1 ||
        { grep -a -E "FAILED|ERROR|LINE" "$ddir/sim_test_direct.txt" | head -20; say "sim_test_direct failed; output in $ddir/sim_test_direct.txt"; return 1; }
    say "  sim_test_direct (direct mode): $(grep -a -E '^\[  PASSED  \] [0-9]' "$ddir/sim_test_direct.txt")"
}

check_diff() {
    local dir=$BUILD/freertos-diff-$tag recorded=tests/differential/kernel-output/$tag.txt
    cmake -S tests/differential/kernel -B "$dir" -DFREERTOS_KERNEL_PATH="$kernel" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        >/dev/null && cmake --build "$dir" -j"$JOBS" >/dev/null || return 1
    "$dir/rtipc_diff_kernel" -o "$dir/kernel.txt" || { say "the kernel runner failed"; return 1; }
    if [ $record -eq 1 ]; then
        cp "$dir/kernel.txt" "$recorded" && say "recorded the kernel's output in $recorded"
        return
    fi
    local rc=0
    if [ -f "$recorded" ]; then
        if ! diff -u --label "recorded $recorded" --label "kernel $version now" <(grep -v '^#' "$recorded") \
                <(grep -v '^#' "$dir/kernel.txt") >"$dir/stale.diff"; then
            cat "$dir/stale.diff"
            say "$recorded is stale: the kernel's output changed (scenarios edited?);"
            say "  record it again with: FREERTOS_KERNEL_PATH=$kernel make record-kernel-output"
            rc=1
        else
            say "the recorded $recorded is up to date"
        fi
    else
        say "no recorded output for $version ($recorded); comparing with this run only"
    fi
    cmake -S . -B "$BUILD/release" -DCMAKE_BUILD_TYPE=Release -DRTIPC_WERROR=ON -DRTIPC_REQUIRE_DEPS=ON -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++ >/dev/null &&
        cmake --build "$BUILD/release" -j"$JOBS" --target rtipc_differential >/dev/null || return 1
    sh tests/differential/compare.sh --runner "$BUILD/release/tests/differential/rtipc_differential" \
        --table docs/porting.md "$dir/kernel.txt" "$dir/linux"
    local crc=$?
    if [ $crc -eq 77 ]; then
        say "the Linux runner cannot use SCHED_FIFO here: its comparison was SKIPPED"
        skipped="$skipped diff-linux"
    elif [ $crc -ne 0 ]; then
        rc=1
    fi
    return $rc
}

check_cm3() {
    local dir=$BUILD/freertos-cm3-$tag
    cmake -S targets/mps2-an385/freertos -B "$dir" -DCMAKE_TOOLCHAIN_FILE="$PWD/targets/mps2-an385/board/toolchain.cmake" \
        -DFREERTOS_KERNEL_PATH="$kernel" >/dev/null && cmake --build "$dir" -j"$JOBS" >/dev/null || return 1
    local rc=0
    timeout "${MCU_TIMEOUT:-120}" qemu-system-arm -M mps2-an385 -nographic -kernel "$dir/rtipc-cm3-conformance.elf" \
        -icount shift=0,sleep=off -semihosting-config enable=on,target=native </dev/null >"$dir/conformance.txt" 2>&1 || rc=$?
    grep '^conformance:' "$dir/conformance.txt" | sed 's/^/  /'
    if [ $rc -ne 0 ]; then
        grep '^!' "$dir/conformance.txt" | head -20
        say "the Cortex-M3 conformance firmware failed (QEMU exit $rc); output in $dir/conformance.txt"
        return 1
    fi
    # The layer's cost in exact instruction counts, against its baseline.
    timeout "${MCU_TIMEOUT:-120}" qemu-system-arm -M mps2-an385 -nographic -kernel "$dir/rtipc-cm3-layer-cost.elf" \
        -icount shift=0,sleep=off -semihosting-config enable=on,target=native </dev/null >"$dir/layer-cost.txt" 2>&1 || rc=$?
    if [ $rc -eq 0 ]; then
        tests/perf/layer_cost.sh --baseline tests/perf/layer_cost-cm3.baseline "$dir/layer-cost.txt" | sed 's/^/  /'
        case ${PIPESTATUS[0]} in
        0) ;;
        77) say "  the layer's cost: not compared (another kernel or compiler than the baseline's)" ;;
        *) rc=1 ;;
        esac
    fi
    if [ $rc -ne 0 ]; then
        say "the Cortex-M3 layer-cost firmware failed or its counts regressed; output in $dir/layer-cost.txt"
        return 1
    fi
    cmake -S . -B "$BUILD/release" -DCMAKE_BUILD_TYPE=Release -DRTIPC_WERROR=ON -DRTIPC_REQUIRE_DEPS=ON -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++ >/dev/null &&
        cmake --build "$BUILD/release" -j"$JOBS" --target validate_bench_json rtipc-bench test_claim_rows >/dev/null ||
        return 1
    # rtipc-bench's own experiments, the ones that run on one core with
    # what this port has (docs/mcu.md); the others are listed as missing.
    MCU_EXPERIMENTS="queue-latency queue-placement isr-handoff mechanism-compare byte-stream blocked-producer state-vs-event batching queue-set \
footprint notify-vs-sem notify-modes round-trip lockfree-cost" \
        scripts/mcu-run.sh "$dir/rtipc-cm3-freertos-bench.elf" "$dir/bench.json" \
        "$BUILD/release/tests/validate_bench_json" "$BUILD/release/bench/rtipc-bench" >"$dir/bench.txt" 2>&1
    rc=$?
    tail -n 2 "$dir/bench.txt" | sed 's/^/  /'
    if [ $rc -eq 0 ]; then
        # The kernel's own objects measured beside rtipc's: the claims' rows.
        "$BUILD/release/tests/test_claim_rows" --produced-kernel "$dir/bench.json" | sed 's/^/  /'
        [ "${PIPESTATUS[0]}" -eq 0 ] || { say "the Cortex-M3 run lacks kernel rows the claims read"; rc=1; }
    fi
    if [ $rc -eq 0 ]; then
        # The host's audit of the firmware's rows: the verdicts docs/mcu.md gives.
        "$BUILD/release/bench/rtipc-bench" audit "$dir/bench.json" >"$dir/audit.txt" 2>&1 || rc=1
        local got want
        got=$(sed -n 's/^[1-9]\. \[\([a-z-]*\)\].*/\1/p' "$dir/audit.txt" | tr '\n' ' ')
        want=$(tr '\n' ' ' <targets/mps2-an385/freertos/claim-verdicts.txt)
        if [ "$got" != "$want" ]; then
            say "claim verdicts on the Cortex-M3: '$got', docs/mcu.md: '$want' (audit in $dir/audit.txt)"
            rc=1
        else
            say "  claim verdicts as docs/mcu.md gives them: $got"
        fi
    fi
    [ $rc -eq 0 ] || { say "the Cortex-M3 bench firmware failed; output in $dir/bench.txt"; return 1; }
    check_cm3_direct
}

# Direct mode (docs/porting.md): the same firmwares built with
# RTIPC_FREERTOS_DIRECT; the conformance suite (two listed deviations),
# its layer-cost counts against their own baseline,
# and one bench run (deterministic: compared with the recorded one) whose
# round-trip ratios must all hold at 1.10x.
check_cm3_direct() {
    local dir=$BUILD/freertos-cm3-direct-$tag rc=0
    cmake -S targets/mps2-an385/freertos -B "$dir" -DCMAKE_TOOLCHAIN_FILE="$PWD/targets/mps2-an385/board/toolchain.cmake" \
        -DFREERTOS_KERNEL_PATH="$kernel" -DRTIPC_FREERTOS_DIRECT=ON >/dev/null &&
        cmake --build "$dir" -j"$JOBS" --target rtipc-cm3-conformance rtipc-cm3-layer-cost rtipc-cm3-freertos-bench \
            >/dev/null || return 1
    # The conformance suite, against the same expected lines: only the two
    # refusals direct mode gives up are its listed deviations.
    timeout "${MCU_TIMEOUT:-120}" qemu-system-arm -M mps2-an385 -nographic -kernel "$dir/rtipc-cm3-conformance.elf" \
        -icount shift=0,sleep=off -semihosting-config enable=on,target=native </dev/null >"$dir/conformance.txt" 2>&1 || rc=$?
    grep '^conformance:' "$dir/conformance.txt" | sed 's/^/  direct mode /'
    [ $rc -eq 0 ] || { grep '^!' "$dir/conformance.txt" | head -20; say "the direct-mode conformance firmware failed; output in $dir/conformance.txt"; return 1; }
    timeout "${MCU_TIMEOUT:-120}" qemu-system-arm -M mps2-an385 -nographic -kernel "$dir/rtipc-cm3-layer-cost.elf" \
        -icount shift=0,sleep=off -semihosting-config enable=on,target=native </dev/null >"$dir/layer-cost.txt" 2>&1 || rc=$?
    if [ $rc -eq 0 ]; then
        say "  direct mode's layer cost:"
        tests/perf/layer_cost.sh --baseline tests/perf/layer_cost-cm3-direct.baseline "$dir/layer-cost.txt" | sed 's/^/  /'
        case ${PIPESTATUS[0]} in
        0 | 77) ;;
        *) rc=1 ;;
        esac
    fi
    [ $rc -eq 0 ] || { say "the direct-mode layer-cost firmware failed or regressed; output in $dir/layer-cost.txt"; return 1; }
    timeout "${MCU_TIMEOUT:-120}" qemu-system-arm -M mps2-an385 -nographic -kernel "$dir/rtipc-cm3-freertos-bench.elf" \
        -icount shift=0,sleep=off -semihosting-config enable=on,target=native </dev/null >"$dir/bench.txt" 2>&1 || rc=$?
    sed -n '/^==== rtipc-bench\/1 JSON begin ====$/,/^==== rtipc-bench\/1 JSON end ====$/p' "$dir/bench.txt" |
        sed '1d;$d' >"$dir/bench.json"
    [ $rc -eq 0 ] && [ -s "$dir/bench.json" ] || { say "the direct-mode bench firmware failed; output in $dir/bench.txt"; return 1; }
    direct_targets "$dir/bench.json" || return 1
    # The recorded direct-mode run (docs/data) is this run, instruction for
    # instruction, while the sources it was recorded from stand.
    "$BUILD/release/bench/rtipc-bench" compare docs/data/freertos-cm3-direct.json "$dir/bench.json" >"$dir/compare.txt" 2>&1
    rc=$?
    grep '^summary:' "$dir/compare.txt" | sed 's/^/  /'
    [ $rc -le 1 ] || { cat "$dir/compare.txt"; say "rtipc-bench compare refused the direct-mode run"; return 1; }
}

for c in $CHECKS; do
    case $c in
    sim) [ $record -eq 1 ] || timed "sim (rtipc_freertos_check on the POSIX simulator)" check_sim ;;
    diff)
        if [ "${major:-0}" -lt 11 ]; then
            say "diff: SKIPPED: the differential suite's kernel runner needs V11 or later (uxTaskBasePriorityGet), not $version"
            skipped="$skipped diff"
        else
            timed "diff (the differential suite against $version)" check_diff
        fi ;;
    cm3) [ $record -eq 1 ] || timed "cm3 (Cortex-M3 FreeRTOS firmwares under QEMU)" check_cm3 ;;
    rv32) [ $record -eq 1 ] || timed "rv32 (two-core RV32 FreeRTOS SMP firmwares under QEMU)" \
        env BUILD="$BUILD" JOBS="$JOBS" FREERTOS_KERNEL_PATH="$kernel" scripts/check-rv32.sh freertos ;;
    *) say "unknown check '$c' in FREERTOS_CHECKS (sim diff cm3 rv32)"; exit 2 ;;
    esac
done
say "done in $(( $(date +%s) - t_all )) s${skipped:+; skipped:$skipped}"
if [ -n "$failed" ]; then
    say "FAILED:$failed"
    exit 1
fi
exit 0
