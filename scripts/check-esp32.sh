#!/bin/bash
# The ESP32 app (targets/esp32, docs/esp32.md) built with ESP-IDF and run on
# Espressif's QEMU, machine esp32, both cores:
#   1. the tools: ESP32_TOOLS names a folder laid out as ../shared/vendor/esp32
#      (the xtensa-esp32-elf toolchain, qemu-esp32, esp-idf-v5.1.6 and the
#      python sources, each a .tar.xz); they are unpacked into
#      $BUILD/esp32-tools once, with a Python virtual environment over
#      Debian's python3 that gets esptool and esp-idf-kconfig offline
#   2. the app, built for esp32 with the component found by its name
#      (components/rtipc; its sources build with -Werror), ESP-IDF's
#      warnings counted: any in rtipc's files fails the check
#   3. the run: the flash image under QEMU; stopped when the app prints
#      "rtipc-bench: exit status N", or after ESP32_TIMEOUT seconds (600)
#   4. the JSON between the console's markers, cut out by `rtipc-bench
#      capture`, must validate as rtipc-bench/1 with every experiment the
#      target runs, with the kernel's rows the claims read
#      (test_claim_rows --produced-kernel), `rtipc-bench audit` must give
#      claim 9 a verdict from the kernel's semaphore and notification, isr-handoff's
#      10 kHz interrupt timer (a GPTimer) must fire above twice the tick
#      rate, and `rtipc-bench
#      compare` must accept it beside the recorded run
#      (docs/data/esp32-qemu.json)
# Without ESP32_TOOLS it is SKIPPED, saying so (exit 0).
#
# The run is in instruction time (the vendored QEMU's deterministic mode):
# the same app image gives the same figures on every run, however loaded the
# host is. When the app's inputs (rtipc's sources, the app, the toolchain,
# ESP-IDF, QEMU, the command line) are those of the recorded run
# (docs/data/esp32-qemu.inputs), every row must equal the recorded run's
# exactly; compare's thresholds apply as well.
#
#   scripts/check-esp32.sh [--args "RTIPC-BENCH ARGS"] [--record]
#     --args    the app's command line (CONFIG_RTIPC_BENCH_ARGS; default
#               "run --quick --no-progress --json -")
#     --record  on a clean checkout, make this run the recorded one
#               (docs/data/esp32-qemu.json and .inputs)
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
JOBS=${JOBS:-2}
T=${ESP32_TIMEOUT:-600}
# Instruction time (the vendored QEMU's deterministic mode, its README's
# "Deterministic runs"): one instruction is 2^shift ns of virtual time, both
# cores run in turns of the quantum, and no host timing enters.
ICOUNT_SHIFT=2
ICOUNT_QUANTUM=1000
ARGS="run --quick --no-progress --json -"
RECORD=0
while [ $# -gt 0 ]; do
    case $1 in
    --args)
        [ $# -ge 2 ] || { echo "check-esp32: --args needs a value" >&2; exit 2; }
        ARGS=$2
        shift 2 ;;
    --record) RECORD=1; shift ;;
    *) echo "check-esp32: unexpected argument '$1' (usage: check-esp32.sh [--args ARGS] [--record])" >&2; exit 2 ;;
    esac
done
say() { echo "check-esp32: $*"; }

if [ -z "${ESP32_TOOLS:-}" ]; then
    say "SKIPPED: ESP32_TOOLS is not set (a folder laid out as ../shared/vendor/esp32: see its README.md)"
    exit 0
fi
V=$(cd "$ESP32_TOOLS" 2>/dev/null && pwd) || { say "ESP32_TOOLS=$ESP32_TOOLS: no such directory"; exit 1; }
for t in xtensa-esp32-elf qemu-esp32 esp-idf-v5.1.6 python; do
    [ -f "$V/$t.tar.xz" ] || { say "$V/$t.tar.xz is missing"; exit 1; }
done
# What ESP-IDF's build and Espressif's QEMU need from Debian.
scripts/install-deps.sh python3-venv python3-pyparsing python3-pyelftools python3-click python3-serial \
    python3-cryptography python3-yaml python3-kconfiglib python3-bitstring python3-ecdsa python3-intelhex \
    python3-argcomplete python3-wheel ninja-build libpixman-1-0 libfdt1 libgcrypt20 libglib2.0-0 libgnutls30 \
    libslirp0 libpng16-16 libzstd1 || exit 1

case $BUILD in /*) B=$BUILD ;; *) B=$PWD/$BUILD ;; esac
TOOLS=$B/esp32-tools
t0=$(date +%s)
# Unpacked again when a tarball is newer than the stamp.
stamp=$TOOLS/.unpacked
if [ ! -f "$stamp" ] || [ -n "$(find "$V" -name '*.tar.xz' -newer "$stamp")" ]; then
    rm -rf "$TOOLS" && mkdir -p "$TOOLS" || exit 1
    for t in xtensa-esp32-elf qemu-esp32 esp-idf-v5.1.6 python; do
        tar -C "$TOOLS" -xJf "$V/$t.tar.xz" || { say "cannot unpack $t.tar.xz"; exit 1; }
    done
    /usr/bin/python3 -m venv --system-site-packages "$TOOLS/venv" &&
        "$TOOLS/venv/bin/pip" install -q --no-index --no-deps --no-build-isolation \
            "$TOOLS/python/esp-idf-kconfig" "$TOOLS/python/esptool" || { say "cannot set up the Python tools"; exit 1; }
    touch "$stamp"
    say "  tools unpacked into $TOOLS ($(( $(date +%s) - t0 )) s)"
fi
export IDF_PATH=$TOOLS/esp-idf-v5.1.6 IDF_COMPONENT_MANAGER=0 IDF_SKIP_CHECK_SUBMODULES=1
# The tarball has no git history, from which ESP-IDF would take its version
# (it then describes the enclosing checkout: rtipc's commit); its build reads
# version.txt first.
[ -f "$IDF_PATH/version.txt" ] || echo v5.1.6 >"$IDF_PATH/version.txt"
# ESP-IDF accepts a toolchain whose version string is not Espressif's.
export IDF_MAINTAINER=1
export PATH=$TOOLS/xtensa-esp32-elf/bin:$TOOLS/venv/bin:$PATH

dir=$B/esp32-app
# A changed command line, sdkconfig.defaults or app option is a changed
# configuration (ESP-IDF applies the defaults only to a new sdkconfig):
# start afresh.
config="$ARGS qemu icount $ICOUNT_SHIFT $ICOUNT_QUANTUM $(cksum <targets/esp32/sdkconfig.defaults) $(cksum <targets/esp32/main/Kconfig.projbuild)"
if [ ! -f "$dir/rtipc-check.stamp" ] || [ "$(cat "$dir/rtipc-check.stamp")" != "$config" ]; then
    rm -rf "$dir"
fi
mkdir -p "$dir" && printf '%s' "$config" >"$dir/rtipc-check.stamp"
t0=$(date +%s)
sdkargs=$dir/sdkconfig.args
# The results say they come from the emulator (Kconfig.projbuild).
printf 'CONFIG_RTIPC_BENCH_ARGS="%s"\nCONFIG_RTIPC_BENCH_QEMU=y\nCONFIG_RTIPC_BENCH_QEMU_ICOUNT_SHIFT=%d\nCONFIG_RTIPC_BENCH_QEMU_ICOUNT_QUANTUM=%d\n' \
    "$ARGS" "$ICOUNT_SHIFT" "$ICOUNT_QUANTUM" >"$sdkargs"
cmake -G Ninja -S targets/esp32 -B "$dir" -DIDF_TARGET=esp32 -DPYTHON_DEPS_CHECKED=1 -DPYTHON="$TOOLS/venv/bin/python" \
    -DCOMPONENTS=main -DSDKCONFIG="$dir/sdkconfig" -DSDKCONFIG_DEFAULTS="$PWD/targets/esp32/sdkconfig.defaults;$sdkargs" \
    >"$dir/configure.log" 2>&1 || { tail -n 30 "$dir/configure.log"; say "configuring the app failed"; exit 1; }
ninja -C "$dir" -j"$JOBS" >"$dir/build.log" 2>&1 || {
    grep -E "error|Error" "$dir/build.log" | head -n 30; say "building the app failed; log in $dir/build.log"; exit 1; }
# rtipc's own files must build without a warning under ESP-IDF's flags too.
warnings=$(grep -E "^$PWD/(src|include|bench|targets)/.*warning:" "$dir/build.log" || true)
if [ -n "$warnings" ]; then
    echo "$warnings" | head -n 20
    say "rtipc's sources warn under ESP-IDF; log in $dir/build.log"
    exit 1
fi
(cd "$dir" && python -m esptool --chip esp32 merge_bin --fill-flash-size 4MB -o flash.bin @flash_args) \
    >"$dir/merge.log" 2>&1 || { cat "$dir/merge.log"; say "making the flash image failed"; exit 1; }
say "  app built ($(( $(date +%s) - t0 )) s; component 'rtipc' from components/rtipc)"

# QEMU does not exit by itself: watch the console for the app's last line.
# The timer groups' watchdogs stay emulated: ESP-IDF's task watchdog is one
# of them, and blocked-producer needs it to trip (the app turns the
# interrupt watchdog off instead, sdkconfig.defaults).
out=$dir/console.txt
t0=$(date +%s)
QEMU_ICOUNT_DETERMINISTIC=1 QEMU_ICOUNT_RR_QUANTUM=$ICOUNT_QUANTUM QEMU_ICOUNT_PARALLEL=1 \
    "$TOOLS/qemu-esp32/bin/qemu-system-xtensa" -nographic -machine esp32 -L "$TOOLS/qemu-esp32/share" \
    -drive file="$dir/flash.bin",if=mtd,format=raw,snapshot=on -no-reboot \
    -icount shift=$ICOUNT_SHIFT,sleep=off </dev/null >"$out" 2>&1 &
qemu=$!
status=""
while kill -0 "$qemu" 2>/dev/null; do
    status=$(sed -n 's/^rtipc-bench: exit status \([0-9]*\).*/\1/p' "$out" | head -n 1)
    [ -n "$status" ] && break
    if [ $(( $(date +%s) - t0 )) -ge "$T" ]; then
        say "no 'rtipc-bench: exit status' line after ${T}s; console in $out"
        break
    fi
    sleep 1
done
kill "$qemu" 2>/dev/null
wait "$qemu" 2>/dev/null
say "  app under QEMU (esp32, 2 cores, -icount shift=$ICOUNT_SHIFT, turns of $ICOUNT_QUANTUM) '$ARGS': exit status ${status:-none} ($(( $(date +%s) - t0 )) s)"
[ "$status" = 0 ] || { tail -n 30 "$out"; say "the app failed; console in $out"; exit 1; }
case $ARGS in *--json*) ;; *) say "passed (no --json in the command line: nothing to validate)"; exit 0 ;; esac

host=$BUILD/release
cmake -S . -B "$host" -DCMAKE_BUILD_TYPE=Release -DRTIPC_WERROR=ON -DRTIPC_REQUIRE_DEPS=ON -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++ >/dev/null &&
    cmake --build "$host" -j"$JOBS" --target validate_bench_json rtipc-bench test_claim_rows >/dev/null || exit 1
json=$dir/bench.json
# Cut out of the console as a board's would be (docs/esp32.md).
"$host/bench/rtipc-bench" capture --no-progress "$out" "$json" | sed 's/^/    /'
[ "${PIPESTATUS[0]}" -eq 0 ] || { say "no valid JSON in the app's console ($out)"; exit 1; }
# The experiments the app runs on ESP-IDF must be in the file with their
# rows (the interrupt ones on rtipc's ESP-IDF backend, irq_espidf.c). Peers
# need Linux: it must say so in its notes, never vanish.
experiments="queue-latency queue-placement byte-stream blocked-producer state-vs-event core-placement batching \
queue-set footprint notify-vs-sem round-trip lockfree-cost isr-handoff mechanism-compare interference notify-modes"
not_here="peers"
# shellcheck disable=SC2086
"$host/tests/validate_bench_json" "$json" $experiments | sed 's/^/    /' ||
    { say "the app's JSON is not valid rtipc-bench/1 with every experiment it runs"; exit 1; }
for e in $not_here; do
    grep -q "{\"id\": \"$e\", [^}]*\"notes\": \"not run on this target: " "$json" ||
        { say "experiment $e is neither measured nor reported as not run on this target"; exit 1; }
done
say "  not run on this target (their notes say why): $not_here"
# Every experiment measured the kernel's (and ESP-IDF's) own objects beside
# rtipc's: the rows the claim audit decides from.
"$host/tests/test_claim_rows" --produced-kernel "$json" | sed 's/^/    /'
[ "${PIPESTATUS[0]}" -eq 0 ] || { say "the app's JSON lacks kernel rows the claims read"; exit 1; }
"$host/bench/rtipc-bench" audit "$json" >"$dir/audit.txt" 2>&1 ||
    { cat "$dir/audit.txt"; say "rtipc-bench audit refused the app's JSON"; exit 1; }
v9=$(sed -n 's/^9\. \[\([a-z-]*\)\].*/\1/p' "$dir/audit.txt")
grep -A2 '^9\. ' "$dir/audit.txt" | sed 's/^/    /'
case $v9 in
holds | does-not-hold)
    grep -A2 '^9\. ' "$dir/audit.txt" | grep -q "kernel-sem .*kernel-notify" ||
        { say "claim 9 was not decided from xSemaphoreGive against xTaskNotifyGive"; exit 1; }
    say "  claim 9 on ESP-IDF's SMP kernel (emulated ESP32), from the kernel's rows: $v9" ;;
*) say "claim 9 got no verdict from the emulated ESP32 ('$v9'; audit in $dir/audit.txt)"; exit 1 ;;
esac
# rtipc's interrupt timers run on GPTimers here (irq_espidf.c): isr-handoff's
# 10 kHz timer must raise its source well above the 1 kHz tick, which a
# timer that followed the tick, or lost its alarms, could not.
rate=$(python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
print(max([int(r["value"]) for r in d["results"] if r.get("experiment") == "isr-handoff"
           and r.get("metric") == "offered" and r.get("variant", "").endswith("depth=100")] or [0]))' "$json") ||
    { say "cannot read isr-handoff's rows from $json"; exit 1; }
[ "$rate" -gt 2000 ] ||
    { say "isr-handoff's timer raised its source $rate times/s (10000 asked, 1000 Hz tick): hardware timers not in use"; exit 1; }
say "  isr-handoff's 10 kHz hardware timer: $rate interrupts/s at depth 100"
# What the figures depend on: rtipc's and the app's files as checked out,
# whether the checkout is clean (the version string's length), the tools and
# the run's settings. The results files and the docs are not among them.
inputs() {
    {
        git ls-files -z -- src include bench targets/esp32 components cmake CMakeLists.txt | xargs -0 sha256sum
        # The source commit the app prints (cmake/BenchVersion.cmake).
        git log -1 --format=%H -- src include bench targets components cmake CMakeLists.txt
        [ -z "$(git status --porcelain --untracked-files=no -- src include bench targets components cmake CMakeLists.txt)" ] &&
            echo clean || echo dirty
        for t in xtensa-esp32-elf qemu-esp32 esp-idf-v5.1.6 python; do sha256sum <"$V/$t.tar.xz"; done
        echo "$ARGS icount $ICOUNT_SHIFT $ICOUNT_QUANTUM"
    } | sha256sum | cut -d' ' -f1
}
digest=$(inputs)
recorded=docs/data/esp32-qemu.json
if [ $RECORD -eq 1 ]; then
    [ -z "$(git status --porcelain --untracked-files=no -- src include bench targets components cmake CMakeLists.txt)" ] ||
        { say "--record needs a clean checkout of rtipc's and the app's files (git status)"; exit 1; }
    cp "$json" "$recorded" && echo "$digest" >"${recorded%.json}.inputs" ||
        { say "cannot write $recorded"; exit 1; }
    say "recorded: $recorded and ${recorded%.json}.inputs"
elif [ -f "$recorded" ] && [ "$digest" = "$(cat "${recorded%.json}.inputs" 2>/dev/null)" ]; then
    # The same inputs make the same image, byte for byte (a reproducible
    # build, wherever it is checked out): the same figures, row for row,
    # and the same verdicts. A difference is a change of behaviour.
    python3 - "$recorded" "$json" <<'PY' || { say "the run differs from the recorded one with the same inputs"; exit 1; }
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for key in ("results", "claims"):
    if a.get(key) != b.get(key):
        for i, (x, y) in enumerate(zip(a.get(key, []), b.get(key, []))):
            if x != y:
                print("    %s[%d]: recorded %s\n    %s[%d]: now      %s" % (key, i, json.dumps(x)[:300], key, i, json.dumps(y)[:300]))
                break
        else:
            print("    %s: %d recorded, %d now" % (key, len(a.get(key, [])), len(b.get(key, []))))
        sys.exit(1)
skip = {"git_commit", "started_utc", "hostname"}
for k in sorted(set(a["env"]) | set(b["env"])):
    if k not in skip and a["env"].get(k) != b["env"].get(k):
        print("    env.%s: recorded %r, now %r" % (k, a["env"].get(k), b["env"].get(k)))
        sys.exit(1)
print("    %d rows and %d claim verdicts equal the recorded run's exactly" % (len(b["results"]), len(b["claims"])))
PY
else
    say "  the app's inputs differ from the recorded run's: compared with thresholds, not exactly"
fi
# compare exits 0 (nothing regressed) or 1 (something did); 2 means it
# refused a file.
if [ $RECORD -eq 0 ]; then
    if [ -f "$recorded" ]; then
        rc=0
        "$host/bench/rtipc-bench" compare "$recorded" "$json" >"$dir/compare.txt" 2>&1 || rc=$?
        grep '^summary:' "$dir/compare.txt" | sed 's/^/    /'
        [ $rc -le 1 ] || { cat "$dir/compare.txt"; say "rtipc-bench compare refused the app's JSON"; exit 1; }
    fi
fi
say "passed"
