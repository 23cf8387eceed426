#!/bin/sh
# The ESP32 app against the shared sources, on a machine without ESP-IDF:
# targets/esp32/main and every rtipc-bench source its component builds
# (the lists of bench/sources.cmake it names) compile with ESP_PLATFORM
# defined, rtipc's warnings and -Werror, gcc and clang, over the stand-ins
# of tests/esp32/stand-ins and the FreeRTOS kernel of FREERTOS_KERNEL_PATH
# (its POSIX port). Exit 77 (skipped) without a kernel.
#   syntax_check.sh SOURCE_DIR BUILD_INCLUDE_DIR
set -eu
src=$1 inc=$2
if [ -z "${FREERTOS_KERNEL_PATH:-}" ] || [ ! -f "$FREERTOS_KERNEL_PATH/include/task.h" ]; then
    echo "esp32 syntax check: SKIPPED (FREERTOS_KERNEL_PATH does not name a FreeRTOS-Kernel checkout)"
    exit 77
fi
k=$FREERTOS_KERNEL_PATH
b=$src/bench
# What targets/esp32/main/CMakeLists.txt registers: its main, the run and
# console sources, the FreeRTOS seam, the experiments, the kernel's calls,
# the mechanism table with rtipc's mechanisms and the Linux ones' absent
# entries.
files="$src/targets/esp32/main/bench_main.c
$b/cli.c $b/cli_console.c $b/harness/stats.c $b/harness/results.c $b/harness/env.c $b/harness/handoff.c
$b/harness/handoff_rounds.c $b/harness/throughput.c $b/harness/perf_targets.c
$b/harness/failure.c $b/harness/report.c $b/harness/claims.c $b/harness/args.c $b/results/json_writer.c
$b/results/document.c $b/results/row_clock.c $b/trace/trace.c $b/trace/trace_overhead.c
$b/target/target.c $b/target/clock.c $b/target/console.c $b/target/rtipc_targets.c $b/target/freertos.c
$b/mechanisms/freertos_kernel.c $b/mechanisms/round_trip_rtipc.c $b/mechanisms/mechanisms.c $b/mechanisms/rtipc.c
$b/mechanisms/absent.c $b/experiments/linux_only.c
$(ls "$b"/experiments/*.c | grep -v -e mechanism_compare -e interference -e peers -e linux_only)"
# The component's list must not have grown past this one unseen.
for f in $(sed -n 's|^ *\${_rtipc_bench_dir}/\([a-z_/]*\.c\)$|\1|p' "$b/sources.cmake"); do
    case "$f" in experiments/mechanism_compare.c|experiments/interference.c|experiments/peers.c|harness/util.c|cli_files.c|results/read.c|results/bootstrap.c|results/outfile.c|compare/*|audit/*|report/*|trace/trace_vcd.c|trace/trace_perfetto.c|target/host.c|target/linux.c|target/bare.c|mechanisms/freertos_kernel_absent.c|mechanisms/posix.c|mechanisms/locked_queues.c|mechanisms/lockfree.c|harness/watchdog.c) continue ;; esac
    case " $(echo $files) " in
    *" $b/$f "*) ;;
    *) echo "esp32 syntax check: $f is in bench/sources.cmake but not checked"; exit 1 ;;
    esac
done
gen=$(mktemp -d)
trap 'rm -rf "$gen"' EXIT
printf '#define BENCH_RTIPC_VERSION "0.0"\n#define BENCH_GIT_COMMIT "check"\n#define BENCH_COMPILER "cc"\n#define BENCH_CFLAGS ""\n' >"$gen/bench_version.h"
status=0
for cc in gcc clang; do
    command -v $cc >/dev/null || continue
    for f in $files; do
        $cc -std=gnu11 -fsyntax-only -Wall -Wextra -Werror -DESP_PLATFORM -D_GNU_SOURCE \
            -I"$src/tests/esp32/stand-ins" -I"$src/targets/freertos-posix" -I"$k/include" \
            -I"$k/portable/ThirdParty/GCC/Posix" -I"$k/portable/ThirdParty/GCC/Posix/utils" \
            -I"$src/include" -I"$inc" -I"$b" -I"$gen" "$f" || { echo "esp32 syntax check ($cc): $f"; status=1; }
    done
done
[ $status -eq 0 ] && echo "esp32 syntax check: $(echo "$files" | wc -w) sources, gcc and clang: ok"
exit $status
