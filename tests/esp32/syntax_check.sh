#!/bin/sh
# The ESP32 app against the shared sources, on a machine without ESP-IDF:
# targets/esp32/main and every rtipc-bench source its component builds
# (RTIPC_BENCH_FREERTOS_FIRMWARE_SOURCES of bench/sources.cmake) compile with ESP_PLATFORM
# defined, rtipc's warnings and -Werror, gcc and clang, over the stand-ins
# of tests/esp32/stand-ins and the FreeRTOS kernel of FREERTOS_KERNEL_PATH
# (its POSIX port). So do the sources of rtipc's own ESP-IDF component
# (cmake/esp_idf_component.cmake: the FreeRTOS port with its ESP_PLATFORM
# code, the Task Watchdog Timer mapping included), with the kernel
# differences of stand-ins/kernel and a FreeRTOS-port rtipc/config.h sized
# for the host's kernel objects. Exit 77 (skipped) without a kernel.
#   syntax_check.sh SOURCE_DIR BUILD_INCLUDE_DIR
set -eu
src=$1 inc=$2
if [ -z "${FREERTOS_KERNEL_PATH:-}" ] || [ ! -f "$FREERTOS_KERNEL_PATH/include/task.h" ]; then
    echo "esp32 syntax check: SKIPPED (FREERTOS_KERNEL_PATH does not name a FreeRTOS-Kernel checkout)"
    exit 77
fi
k=$FREERTOS_KERNEL_PATH
b=$src/bench
# What targets/esp32/main/CMakeLists.txt registers: its main and the
# firmware list of bench/sources.cmake, read from CMake itself.
files="$src/targets/esp32/main/bench_main.c $(cmake -DSRC="$src" -P "$src/tests/esp32/firmware_sources.cmake" 2>&1)"
gen=$(mktemp -d)
trap 'rm -rf "$gen"' EXIT
printf '#define BENCH_RTIPC_VERSION "0.0"\n#define BENCH_GIT_COMMIT "check"\n#define BENCH_COMPILER "cc"\n#define BENCH_CFLAGS ""\n' >"$gen/bench_version.h"
# The component's sources and control-block sizes, as
# cmake/FreeRTOSPortSources.cmake gives them to the ESP-IDF component (the
# sizes of a 64-bit FreeRTOS build: these stand-ins are the host's kernel).
port=$(cmake -DPRINT=sources:espidf -P "$src/cmake/FreeRTOSPortSources.cmake" 2>&1 | grep '\.c$' | sed "s|^|$src/|")
[ -n "$port" ] || { echo "esp32 syntax check: no sources from $src/cmake/FreeRTOSPortSources.cmake"; exit 1; }
sizes=$(cmake -DPRINT=sizes:host64 -P "$src/cmake/FreeRTOSPortSources.cmake" 2>&1 | sed -n 's/^\(RTIPC_[A-Z_]*\) \([0-9]*\)$/-e s\/@\1@\/\2\//p' | tr '\n' ' ')
[ -n "$sizes" ] || { echo "esp32 syntax check: no sizes from $src/cmake/FreeRTOSPortSources.cmake"; exit 1; }
# rtipc/config.h of the FreeRTOS port: ESP-IDF's priorities and slots.
mkdir -p "$gen/port/rtipc"
# shellcheck disable=SC2086
sed -e 's/@RTIPC_NOTIFY_SLOTS@/3/; s/@RTIPC_PRIORITY_LEVELS@/25/; s/@RTIPC_SPIN_NS_DEFAULT@/20000/' \
    -e 's/@RTIPC_PORT@/freertos/; s/@RTIPC_PORT_IS_FREERTOS@/1/; s/@PROJECT_VERSION@/0.0/; s/@RTIPC_DIRECT@/0/' $sizes \
    "$src/include/rtipc/config.h.in" >"$gen/port/rtipc/config.h"
# ... and in direct mode (menuconfig's RTIPC_DIRECT: rtipc/freertos_direct.h).
mkdir -p "$gen/direct/rtipc"
sed 's/^#define RTIPC_DIRECT 0$/#define RTIPC_DIRECT 1/' "$gen/port/rtipc/config.h" >"$gen/direct/rtipc/config.h"
grep -q '^#define RTIPC_DIRECT 1$' "$gen/direct/rtipc/config.h" || { echo "esp32 syntax check: no RTIPC_DIRECT in config.h.in"; exit 1; }
status=0
for cc in gcc clang; do
    command -v $cc >/dev/null || continue
    for f in $files; do
        $cc -std=gnu11 -fsyntax-only -Wall -Wextra -Werror -DESP_PLATFORM -D_GNU_SOURCE \
            -I"$src/tests/esp32/stand-ins" -I"$src/targets/freertos-posix" -I"$k/include" \
            -I"$k/portable/ThirdParty/GCC/Posix" -I"$k/portable/ThirdParty/GCC/Posix/utils" \
            -I"$src/include" -I"$inc" -I"$b" -I"$gen" "$f" || { echo "esp32 syntax check ($cc): $f"; status=1; }
    done
    # The simulator's FreeRTOSConfig.h has one thread-local pointer: index 0
    # (ESP-IDF's default index 1 needs two, as menuconfig gives them).
    for f in $port; do
        $cc -std=gnu11 -fsyntax-only -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
            -DESP_PLATFORM -D_GNU_SOURCE -DrtipcCONFIG_TLS_INDEX=0 \
            -I"$src/tests/esp32/stand-ins/kernel" -I"$src/tests/esp32/stand-ins" -I"$src/targets/freertos-posix" \
            -I"$k/include" -I"$k/portable/ThirdParty/GCC/Posix" -I"$k/portable/ThirdParty/GCC/Posix/utils" \
            -I"$src/include" -I"$src/src" -I"$gen/port" "$f" || { echo "esp32 syntax check ($cc): $f"; status=1; }
    done
done
# Direct mode: the app (whose calls become the kernel's, in line) and the
# component, with gcc.
for f in $files; do
    gcc -std=gnu11 -fsyntax-only -Wall -Wextra -Werror -DESP_PLATFORM -D_GNU_SOURCE \
        -I"$src/tests/esp32/stand-ins" -I"$src/targets/freertos-posix" -I"$k/include" \
        -I"$k/portable/ThirdParty/GCC/Posix" -I"$k/portable/ThirdParty/GCC/Posix/utils" \
        -I"$src/include" -I"$gen/direct" -I"$b" -I"$gen" "$f" || { echo "esp32 syntax check (direct mode): $f"; status=1; }
done
for f in $port; do
    gcc -std=gnu11 -fsyntax-only -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
        -DESP_PLATFORM -D_GNU_SOURCE -DrtipcCONFIG_TLS_INDEX=0 \
        -I"$src/tests/esp32/stand-ins/kernel" -I"$src/tests/esp32/stand-ins" -I"$src/targets/freertos-posix" \
        -I"$k/include" -I"$k/portable/ThirdParty/GCC/Posix" -I"$k/portable/ThirdParty/GCC/Posix/utils" \
        -I"$src/include" -I"$src/src" -I"$gen/direct" "$f" || { echo "esp32 syntax check (direct mode): $f"; status=1; }
done
# ESP-IDF's and Arduino's stock configuration (one notification index, one
# thread-local pointer, the pthread layer's): the component builds on it,
# with one notification slot (the component's CMake derives it from
# menuconfig), parking on a semaphore and descriptors found by task handle.
mkdir -p "$gen/stock/rtipc"
sed 's/^#define RTIPC_NOTIFY_SLOTS 3$/#define RTIPC_NOTIFY_SLOTS 1/' "$gen/port/rtipc/config.h" >"$gen/stock/rtipc/config.h"
grep -q '^#define RTIPC_NOTIFY_SLOTS 1$' "$gen/stock/rtipc/config.h" || { echo "esp32 syntax check: no RTIPC_NOTIFY_SLOTS in config.h.in"; exit 1; }
stock_defs="-DCONFIG_FREERTOS_THREAD_LOCAL_STORAGE_POINTERS=1 -DconfigNUM_THREAD_LOCAL_STORAGE_POINTERS=1
    -DCONFIG_FREERTOS_TASK_NOTIFICATION_ARRAY_ENTRIES=1 -DconfigTASK_NOTIFICATION_ARRAY_ENTRIES=1"
for f in $port; do
    # shellcheck disable=SC2086
    gcc -std=gnu11 -fsyntax-only -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
        -DESP_PLATFORM -D_GNU_SOURCE $stock_defs \
        -I"$src/tests/esp32/stand-ins/kernel" -I"$src/tests/esp32/stand-ins" -I"$src/targets/freertos-posix" \
        -I"$k/include" -I"$k/portable/ThirdParty/GCC/Posix" -I"$k/portable/ThirdParty/GCC/Posix/utils" \
        -I"$src/include" -I"$src/src" -I"$gen/stock" "$f" || { echo "esp32 syntax check (stock configuration): $f"; status=1; }
done
# A TLS index asked for that the configuration does not give is one
# message naming the menuconfig option; so is a notification array smaller
# than the slots.
first=$src/src/port/freertos/queue.c
# shellcheck disable=SC2086
errs=$(gcc -std=gnu11 -fsyntax-only -DESP_PLATFORM -D_GNU_SOURCE -DrtipcCONFIG_TLS_INDEX=1 $stock_defs \
    -I"$src/tests/esp32/stand-ins/kernel" -I"$src/tests/esp32/stand-ins" -I"$src/targets/freertos-posix" \
    -I"$k/include" -I"$k/portable/ThirdParty/GCC/Posix" -I"$k/portable/ThirdParty/GCC/Posix/utils" \
    -I"$src/include" -I"$src/src" -I"$gen/port" "$first" 2>&1 | grep 'error: #error' || true)
if [ "$(echo "$errs" | grep -c .)" -ne 2 ] ||
    ! echo "$errs" | grep -q 'rtipcCONFIG_TLS_INDEX names a thread-local storage pointer that CONFIG_FREERTOS_THREAD_LOCAL_STORAGE_POINTERS does not give' ||
    ! echo "$errs" | grep -q 'configTASK_NOTIFICATION_ARRAY_ENTRIES >= RTIPC_NOTIFY_SLOTS'; then
    echo "$errs"
    echo "esp32 syntax check: a configuration that cannot give what rtipc was built for does not give one error per setting"
    status=1
fi
[ $status -eq 0 ] && echo "esp32 syntax check: $(echo "$files" | wc -w) sources of the app and $(echo "$port" | wc -w) of the component, gcc and clang, in direct mode and on the stock configuration: ok"
exit $status
