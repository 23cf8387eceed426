#!/bin/sh
# Code size of librtipc on a Cortex-M3: compiles every librtipc source that
# needs no kernel (src/common/*.c and the no-kernel seam src/port/bare/*.c) with
# arm-none-eabi-gcc at -Os and at -O2, and prints arm-none-eabi-size of each
# object as a table; writes the same figures to OUTDIR/mcu-size.csv and
# OUTDIR/mcu-size.json for the docs (docs/mcu.md).
#
#   scripts/mcu-size.sh [OUTDIR]
#
# OUTDIR defaults to results. The FreeRTOS port needs a kernel's headers: its
# objects are sized by the Cortex-M3 FreeRTOS firmware's own build
# (targets/mps2-an385/freertos, code_size.cmake).
set -eu
cd "$(dirname "$0")/.."
out=${1:-results}
CC=${CC_ARM:-arm-none-eabi-gcc}
SIZE=${SIZE_ARM:-arm-none-eabi-size}
command -v "$CC" >/dev/null || { echo "mcu-size: $CC not found (make deps installs it)" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/include/rtipc" "$out"
# rtipc/config.h as the bare-metal build generates it (targets/common/rtipc_bare.cmake).
version=$(sed -n 's/^project(rtipc VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
sed -e 's/@RTIPC_NOTIFY_SLOTS@/3/' -e 's/@RTIPC_PRIORITY_LEVELS@/32/' -e 's/@RTIPC_SPIN_NS_DEFAULT@/0/' \
    -e 's/@RTIPC_PORT@/bare/' -e 's/@RTIPC_PORT_IS_FREERTOS@/0/' -e "s/@RTIPC_DIRECT@/0/" -e 's/@RTIPC_[A-Z]*_STATIC_SIZE@/0/' -e 's/@RTIPC_BYTEBUF_STORAGE_EXTRA@/0/' \
    -e "s/@PROJECT_VERSION@/$version/" include/rtipc/config.h.in >"$work/include/rtipc/config.h"

flags="-mcpu=cortex-m3 -mthumb -std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
       -ffunction-sections -fdata-sections -Iinclude -Isrc -I$work/include"
sources="$(ls src/common/*.c src/port/bare/*.c)"

csv=$out/mcu-size.csv
echo "object,opt,text,data,bss,total" >"$csv"
# row OBJECT-LABEL OPT FILE.o: one line of arm-none-eabi-size (Berkeley format)
row() {
    "$SIZE" "$3" | awk -v name="$1" -v opt="$2" 'NR == 2 { printf "%s,%s,%d,%d,%d,%d\n", name, opt, $1, $2, $3, $4 }' >>"$csv"
}
for opt in -Os -O2; do
    for src in $sources; do
        obj=$work/$(echo "$src" | tr / _)$opt.o
        # shellcheck disable=SC2086
        "$CC" $flags "$opt" -c "$src" -o "$obj"
        row "$src" "$opt" "$obj"
    done
done

# Table: one row per object, -Os and -O2 side by side; totals.
awk -F, 'NR > 1 {
        key = $1; if (!(key in seen)) { seen[key] = 1; order[++n] = key }
        t[key, $2] = $3; d[key, $2] = $4; b[key, $2] = $5
        sum_t[$2] += $3; sum_d[$2] += $4; sum_b[$2] += $5
    }
    END {
        printf "%-28s %21s   %21s\n", "", "-Os", "-O2"
        printf "%-28s %6s %6s %6s   %6s %6s %6s\n", "object", "text", "data", "bss", "text", "data", "bss"
        for (i = 1; i <= n; i++) {
            k = order[i]
            printf "%-28s %6d %6d %6d   %6d %6d %6d\n", k, t[k, "-Os"], d[k, "-Os"], b[k, "-Os"],
                   t[k, "-O2"], d[k, "-O2"], b[k, "-O2"]
        }
        printf "%-28s %6d %6d %6d   %6d %6d %6d\n", "total (kernel-free sources)", sum_t["-Os"], sum_d["-Os"],
               sum_b["-Os"], sum_t["-O2"], sum_d["-O2"], sum_b["-O2"]
    }' "$csv"

compiler=$("$CC" --version | head -n 1)
awk -F, -v cc="$compiler" 'BEGIN { printf "{\"target\": \"Cortex-M3 (-mcpu=cortex-m3 -mthumb)\", \"compiler\": \"%s\",\n \"objects\": [", cc }
    NR > 1 { printf "%s\n  {\"object\": \"%s\", \"opt\": \"%s\", \"text\": %d, \"data\": %d, \"bss\": %d, \"total\": %d}",
             (NR > 2 ? "," : ""), $1, $2, $3, $4, $5, $6 }
    END { print "]}" }' "$csv" >"$out/mcu-size.json"
echo "(bytes; arm-none-eabi-size of each object; $csv, $out/mcu-size.json)"
