#!/bin/bash
# The ESP32 app (targets/esp32, docs/esp32.md) built with ESP-IDF and run on
# Espressif's QEMU, both cores, for each board:
#   esp32            the ESP32 (dual-core LX6), 4 MB flash, no PSRAM
#   esp32s3          an ESP32-S3 N8R8 (dual-core LX7, 8 MB flash, 8 MB octal
#                    PSRAM: targets/esp32/sdkconfig.n8r8), QEMU with -m 8M
#   esp32s3-nopsram  an ESP32-S3 with 4 MB flash and no PSRAM
# Steps:
#   1. the tools: ESP32_TOOLS names a folder laid out as ../shared/vendor/esp32
#      (each chip's xtensa toolchain and QEMU, esp-idf-v5.1.6 and the python
#      sources, each a .tar.xz); they are unpacked into $BUILD/esp32-tools
#      once, with a Python virtual environment over Debian's python3 that
#      gets esptool and esp-idf-kconfig offline
#   2. the app, built for the board's chip with the component found by its
#      name (components/rtipc; its sources build with -Werror), ESP-IDF's
#      warnings counted: any in rtipc's files fails the check
#   3. the run: the flash image under QEMU; stopped when the app prints
#      "rtipc-bench: exit status N", or after ESP32_TIMEOUT seconds (600)
#   4. the JSON between the console's markers, cut out by `rtipc-bench
#      capture`, must validate as rtipc-bench/1 with every experiment the
#      target runs, with the kernel's rows the claims read
#      (test_claim_rows --produced-kernel); `rtipc-bench audit` must give
#      claim 9 a verdict from the kernel's semaphore and notification;
#      isr-handoff's 10 kHz interrupt timer (a GPTimer) must fire above
#      twice the tick rate; queue-placement must have its PSRAM rows,
#      each queue's address checked, where the board has PSRAM (and the
#      console must show the PSRAM added to the heap), and say why not
#      where it has none; `rtipc-bench compare` must accept the run beside
#      the board's recorded one (docs/data/BOARD-qemu.json)
# Without ESP32_TOOLS it is SKIPPED, saying so (exit 0).
#
# The run is in instruction time (the vendored QEMUs' deterministic mode):
# the same app image gives the same figures on every run, however loaded the
# host is. When the app's inputs (rtipc's sources, the app, the toolchain,
# ESP-IDF, QEMU, the command line) are those of the recorded run
# (docs/data/BOARD-qemu.inputs), every row must equal the recorded run's
# exactly; compare's thresholds apply as well.
#
#   scripts/check-esp32.sh [--board NAME]... [--args "ARGS"] [--config NAME] [--direct] [--wall-clock] [--record]
#     --board       esp32, esp32s3 or esp32s3-nopsram; repeatable (default:
#                   all three)
#     --args        the app's command line (CONFIG_RTIPC_BENCH_ARGS; default
#                   "run --quick --no-progress --json -")
#     --config      the sdkconfig the app is built with:
#                     recommended   targets/esp32/sdkconfig.defaults, rtipc's
#                                   (the default; the recorded runs')
#                     idf-defaults  ESP-IDF's own defaults (1 notification
#                                   entry, 1 TLS pointer, 100 Hz tick, the task
#                                   watchdog on both idle tasks)
#                     arduino       ESP-IDF's defaults with the Arduino ESP32
#                                   core 3.0 values (targets/esp32/sdkconfig.arduino),
#                                   and the app leaves heap and tasks as a
#                                   sketch does (RTIPC_BENCH_ARDUINO_LIKE)
#                   The last two check the whole suite and its kernel rows;
#                   nothing is compared with a recorded run
#     --direct      rtipc in direct mode (menuconfig RTIPC_DIRECT; docs/porting.md)
#                   and round-trip alone (default ARGS "run --quick
#                   --no-progress --json - round-trip"): the layer's cost
#                   against tests/perf/layer_cost-BOARD-direct.baseline,
#                   every rtipc/kernel round-trip ratio at most 1.10x
#                   (scripts/direct-targets.sh), beside
#                   docs/data/BOARD-direct-qemu.json
#     --wall-clock  QEMU without instruction counting: its clocks follow the
#                   host's (rows emulated-wall-clock); nothing is compared
#                   with the recorded runs, which are in instruction time
#     --record      on a clean checkout, make this run the board's recorded
#                   one (docs/data/BOARD-qemu.json and .inputs)
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
JOBS=${JOBS:-2}
T=${ESP32_TIMEOUT:-600}
# Instruction time (the vendored QEMUs' deterministic mode, their README's
# "Deterministic runs"): one instruction is 2^shift ns of virtual time, both
# cores run in turns of the quantum, and no host timing enters.
ICOUNT_SHIFT=2
ICOUNT_QUANTUM=1000
ARGS=""
CONFIG=recommended
RECORD=0
DIRECT=0
BOARDS=()
usage="usage: check-esp32.sh [--board esp32|esp32s3|esp32s3-nopsram]... [--args ARGS] [--config recommended|idf-defaults|arduino] [--direct] [--wall-clock] [--record]"
while [ $# -gt 0 ]; do
    case $1 in
    --args | --board | --config)
        [ $# -ge 2 ] || { echo "check-esp32: $1 needs a value ($usage)" >&2; exit 2; }
        case $1 in --args) ARGS=$2 ;; --board) BOARDS+=("$2") ;; *) CONFIG=$2 ;; esac
        shift 2 ;;
    --direct) DIRECT=1; shift ;;
    --wall-clock) ICOUNT_SHIFT=-1; shift ;;
    --record) RECORD=1; shift ;;
    -h | --help) echo "$usage"; exit 0 ;;
    *) echo "check-esp32: unexpected argument '$1' ($usage)" >&2; exit 2 ;;
    esac
done
[ ${#BOARDS[@]} -gt 0 ] || BOARDS=(esp32 esp32s3 esp32s3-nopsram)
if [ -z "$ARGS" ]; then
    ARGS="run --quick --no-progress --json -"
    [ $DIRECT -eq 0 ] || ARGS="$ARGS round-trip"
fi
# Direct mode's builds, baselines and recorded runs are apart from the
# default mode's.
MODE=""
[ $DIRECT -eq 0 ] || MODE=-direct
for b in "${BOARDS[@]}"; do
    case $b in esp32 | esp32s3 | esp32s3-nopsram) ;; *) echo "check-esp32: unknown board '$b' ($usage)" >&2; exit 2 ;; esac
done
case $CONFIG in recommended | idf-defaults | arduino) ;; *) echo "check-esp32: unknown configuration '$CONFIG' ($usage)" >&2; exit 2 ;; esac
# Another configuration's builds are apart from the recommended one's.
CFG=""
[ "$CONFIG" = recommended ] || CFG=-$CONFIG
if [ $RECORD -eq 1 ] && [ "$CONFIG" != recommended ]; then
    echo "check-esp32: --record is for the recommended configuration (the recorded runs')" >&2
    exit 2
fi
if [ $RECORD -eq 1 ] && [ $ICOUNT_SHIFT -lt 0 ]; then
    echo "check-esp32: --record needs instruction time (the recorded runs are deterministic): drop --wall-clock" >&2
    exit 2
fi
say() { echo "check-esp32: $*"; }
# shellcheck source=scripts/kernel-claims.sh
. scripts/kernel-claims.sh
# shellcheck source=scripts/direct-targets.sh
. scripts/direct-targets.sh
# shellcheck source=scripts/esp32-tools.sh
. scripts/esp32-tools.sh

if [ -z "${ESP32_TOOLS:-}" ]; then
    say "SKIPPED: ESP32_TOOLS is not set (a folder laid out as ../shared/vendor/esp32: see its README.md)"
    exit 0
fi
V=$(cd "$ESP32_TOOLS" 2>/dev/null && pwd) || { say "ESP32_TOOLS=$ESP32_TOOLS: no such directory"; exit 1; }
# The tarballs the boards asked for need: each chip's toolchain and QEMU.
tarballs="esp-idf-v5.1.6 python"
for b in "${BOARDS[@]}"; do
    c=${b%%-*}
    case " $tarballs " in *" xtensa-$c-elf "*) ;; *) tarballs="$tarballs xtensa-$c-elf qemu-$c" ;; esac
done
for t in $tarballs; do
    [ -f "$V/$t.tar.xz" ] || { say "$V/$t.tar.xz is missing (its README.md lists what each chip needs)"; exit 1; }
done
# What ESP-IDF's build and Espressif's QEMUs need from Debian.
scripts/install-deps.sh python3-venv python3-pyparsing python3-pyelftools python3-click python3-serial \
    python3-cryptography python3-yaml python3-kconfiglib python3-bitstring python3-ecdsa python3-intelhex \
    python3-argcomplete python3-wheel ninja-build libpixman-1-0 libfdt1 libgcrypt20 libglib2.0-0 libgnutls30 \
    libslirp0 libpng16-16 libzstd1 libgmp10 libmpfr6 libmpc3 || exit 1

case $BUILD in /*) B=$BUILD ;; *) B=$PWD/$BUILD ;; esac
TOOLS=$B/esp32-tools
# shellcheck disable=SC2086 # one tarball a word
esp32_tools "$V" "$TOOLS" $tarballs || exit 1
PATH0=$PATH

# The host's rtipc-bench and the checkers read what the app prints.
host=$BUILD/release
cmake -S . -B "$host" -DCMAKE_BUILD_TYPE=Release -DRTIPC_WERROR=ON -DRTIPC_REQUIRE_DEPS=ON -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++ >/dev/null &&
    cmake --build "$host" -j"$JOBS" --target validate_bench_json rtipc-bench test_claim_rows >/dev/null || exit 1

# What the figures depend on: rtipc's and the app's files as checked out,
# whether the checkout is clean (the version string's length), the tools and
# the run's settings. The results files and the docs are not among them.
# The files the image is built from, as git pathspecs (the list the app's
# own source commit reads).
mapfile -t srcs < <(grep -v '^#' targets/esp32/app-sources.txt)
inputs() {  # BOARD CHIP
    {
        git ls-files -z -- "${srcs[@]}" | xargs -0 sha256sum
        # The source commit the app prints (cmake/BenchVersion.cmake).
        git log -1 --format=%H -- "${srcs[@]}"
        [ -z "$(git status --porcelain --untracked-files=no -- "${srcs[@]}")" ] && echo clean || echo dirty
        for t in "xtensa-$2-elf" "qemu-$2" esp-idf-v5.1.6 python; do sha256sum <"$V/$t.tar.xz"; done
        # The ESP32 is the default board: its digest has no board line.
        [ "$1" = esp32 ] || echo "board $1"
        echo "$ARGS icount $ICOUNT_SHIFT $ICOUNT_QUANTUM"
        [ $DIRECT -eq 0 ] || echo "direct mode"
    } | sha256sum | cut -d' ' -f1
}

# Every experiment the app runs on ESP-IDF must be in the file with its rows
# (the interrupt ones on rtipc's ESP-IDF backend, irq_espidf.c). Peers need
# Linux: it must say so in its notes, never vanish.
experiments="queue-latency queue-placement byte-stream blocked-producer state-vs-event core-placement batching \
queue-set footprint notify-vs-sem round-trip lockfree-cost isr-handoff mechanism-compare interference notify-modes"
not_here="peers"

# The whole suite's checks of check_board's run (its json, dir, chip, psram,
# host): every experiment there, the kernel's rows and claim 9, the
# placements and the hardware timer.
suite_checks() {
    # shellcheck disable=SC2086
    "$host/tests/validate_bench_json" "$json" $experiments | sed 's/^/    /' ||
        { say "the app's JSON is not valid rtipc-bench/1 with every experiment it runs"; return 1; }
    local e
    for e in $not_here; do
        grep -q "{\"id\": \"$e\", [^}]*\"notes\": \"not run on this target: " "$json" ||
            { say "experiment $e is neither measured nor reported as not run on this target"; return 1; }
    done
    say "  not run on this target (their notes say why): $not_here"
    # The kernel's (and ESP-IDF's) own objects beside rtipc's, claim 9
    # decided from them (scripts/kernel-claims.sh).
    kernel_claims "$host" "$json" "$dir" "ESP-IDF's SMP kernel (emulated $chip)" || return 1
    # queue-placement places the kernel's queue and rtipc's where an ESP-IDF
    # user does, each address checked: PSRAM rows where the board has it,
    # the reason where it has none; claim 1 needs a board's clock.
    python3 - "$json" "$psram" <<'PY' | sed 's/^/    /'
import json, sys
d, psram = json.load(open(sys.argv[1])), sys.argv[2] == "1"
rows = [r for r in d["results"] if r.get("experiment") == "queue-placement"]
bad = []
for m in ("kernel-queue", "rtipc-queue"):
    warm = [r for r in rows if r["mechanism"] == m and r.get("variant") == "warm" and r.get("metric") == "latency"]
    if not warm or "esp_ptr_internal checked" not in warm[0].get("note", ""):
        bad.append("%s/warm: no row, or its internal RAM unchecked" % m)
    if psram:
        ps = [r for r in rows if r["mechanism"] == m and r.get("variant") == "psram" and r.get("metric") == "latency"]
        if not ps or "esp_ptr_external_ram checked" not in ps[0].get("note", ""):
            bad.append("%s/psram: no row, or its PSRAM address unchecked" % m)
        else:
            print("%s/psram latency p50 %.3f us (%s; n=%d)" % (m, ps[0]["p50"] / 1000, ps[0]["note"], ps[0]["n"]))
    else:
        gone = [r for r in rows if r.get("missing") and r["mechanism"] == m + "/psram"]
        if not gone or "no PSRAM" not in gone[0].get("note", ""):
            bad.append("%s/psram: neither measured nor missing with its reason" % m)
        else:
            print("%s/psram missing: %s" % (m, gone[0]["note"]))
c1 = [c for c in d.get("claims", []) if c["id"] == 1]
if not c1 or c1[0]["verdict"] != "not-testable" or "emulator's clock" not in c1[0]["evidence"]:
    bad.append("claim 1 is not 'not testable' for the emulator's reason: %s" % (c1[0] if c1 else "absent"))
else:
    print("claim 1: not-testable: " + c1[0]["evidence"])
for b in bad:
    print("FAILED: " + b)
sys.exit(1 if bad else 0)
PY
    [ "${PIPESTATUS[0]}" -eq 0 ] || { say "queue-placement's placements are not as an ESP-IDF user makes them"; return 1; }
    # rtipc's interrupt timers run on GPTimers here (irq_espidf.c):
    # isr-handoff's 10 kHz timer must raise its source well above the 1 kHz
    # tick, which a timer that followed the tick, or lost its alarms, could
    # not.
    local rate
    rate=$(python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
print(max([int(r["value"]) for r in d["results"] if r.get("experiment") == "isr-handoff"
           and r.get("metric") == "offered" and r.get("variant", "").endswith("depth=100")] or [0]))' "$json") ||
        { say "cannot read isr-handoff's rows from $json"; return 1; }
    [ "$rate" -gt 2000 ] ||
        { say "isr-handoff's timer raised its source $rate times/s (10000 asked, 1000 Hz tick): hardware timers not in use"; return 1; }
    say "  isr-handoff's 10 kHz hardware timer: $rate interrupts/s at depth 100"
}

check_board() {  # BOARD
    local board=$1 chip=${1%%-*} flash=4MB psram=0 qemu_mem=() defaults=$PWD/targets/esp32/sdkconfig.defaults
    case $CONFIG in
    idf-defaults) defaults="" ;;
    arduino) defaults=$PWD/targets/esp32/sdkconfig.arduino ;;
    esac
    if [ "$board" = esp32s3 ]; then
        # An N8R8 module, as report 1's board: 8 MB flash, 8 MB octal PSRAM.
        flash=8MB psram=1 defaults="${defaults:+$defaults;}$PWD/targets/esp32/sdkconfig.n8r8"
        # shellcheck disable=SC2054 # one QEMU option value, commas and all
        qemu_mem=(-m 8M -global driver=ssi_psram,property=is_octal,value=true)
    fi
    local name="$board (QEMU machine $chip${qemu_mem[*]:+, 8 MB octal PSRAM}; $CONFIG sdkconfig)"
    say "board $name"
    export PATH=$TOOLS/xtensa-$chip-elf/bin:$TOOLS/venv/bin:$PATH0
    local dir=$B/$board$MODE$CFG-app
    # A changed command line, sdkconfig file or app option is a changed
    # configuration (ESP-IDF applies the defaults only to a new sdkconfig):
    # start afresh.
    local config
    config="$board$MODE$CFG $ARGS qemu icount $ICOUNT_SHIFT $ICOUNT_QUANTUM $(cat targets/esp32/sdkconfig.* targets/esp32/main/Kconfig.projbuild | cksum)"
    if [ ! -f "$dir/rtipc-check.stamp" ] || [ "$(cat "$dir/rtipc-check.stamp")" != "$config" ]; then
        rm -rf "$dir"
    fi
    mkdir -p "$dir" && printf '%s' "$config" >"$dir/rtipc-check.stamp"
    local t0
    t0=$(date +%s)
    local sdkargs=$dir/sdkconfig.args
    # The results say they come from the emulator (Kconfig.projbuild).
    printf 'CONFIG_RTIPC_BENCH_ARGS="%s"\nCONFIG_RTIPC_BENCH_QEMU=y\nCONFIG_RTIPC_BENCH_QEMU_ICOUNT_SHIFT=%d\n' \
        "$ARGS" "$ICOUNT_SHIFT" >"$sdkargs"
    # Under instruction counting, the layer's cost too (tests/perf/layer_cost.h).
    [ "$ICOUNT_SHIFT" -lt 0 ] ||
        printf 'CONFIG_RTIPC_BENCH_QEMU_ICOUNT_QUANTUM=%d\n' "$ICOUNT_QUANTUM" >>"$sdkargs"
    # (The layer's cost is counted, and compared with its baseline, on the
    # recommended configuration.)
    [ "$ICOUNT_SHIFT" -lt 0 ] || [ -n "$CFG" ] || echo 'CONFIG_RTIPC_BENCH_LAYER_COST=y' >>"$sdkargs"
    [ "$CONFIG" != arduino ] || echo 'CONFIG_RTIPC_BENCH_ARDUINO_LIKE=y' >>"$sdkargs"
    [ $DIRECT -eq 0 ] || echo 'CONFIG_RTIPC_DIRECT=y' >>"$sdkargs"
    cmake -G Ninja -S targets/esp32 -B "$dir" -DIDF_TARGET="$chip" -DPYTHON_DEPS_CHECKED=1 -DPYTHON="$TOOLS/venv/bin/python" \
        -DCOMPONENTS=main -DSDKCONFIG="$dir/sdkconfig" -DSDKCONFIG_DEFAULTS="${defaults:+$defaults;}$sdkargs" \
        >"$dir/configure.log" 2>&1 || { tail -n 30 "$dir/configure.log"; say "configuring the app failed"; return 1; }
    # The offline build names the component without its manifest, which
    # ESP-IDF would warn about with its component manager off.
    if grep -q 'idf_component.yml" file was found' "$dir/configure.log"; then
        say "ESP-IDF warned that rtipc's idf_component.yml is ignored; log in $dir/configure.log"
        return 1
    fi
    ninja -C "$dir" -j"$JOBS" >"$dir/build.log" 2>&1 || {
        grep -E "error|Error" "$dir/build.log" | head -n 30; say "building the app failed; log in $dir/build.log"; return 1; }
    # rtipc's own files must build without a warning under ESP-IDF's flags too.
    local warnings
    warnings=$(grep -E "^$PWD/(src|include|bench|targets)/.*warning:" "$dir/build.log" || true)
    if [ -n "$warnings" ]; then
        echo "$warnings" | head -n 20
        say "rtipc's sources warn under ESP-IDF ($chip); log in $dir/build.log"
        return 1
    fi
    grep -q "^CONFIG_IDF_TARGET=\"$chip\"" "$dir/sdkconfig" || { say "the app was not configured for $chip"; return 1; }
    if [ -n "$CFG" ]; then
        # The stock settings rtipc must fit, as configured.
        local want="CONFIG_FREERTOS_TASK_NOTIFICATION_ARRAY_ENTRIES=1 CONFIG_FREERTOS_THREAD_LOCAL_STORAGE_POINTERS=1
            CONFIG_ESP_TASK_WDT_CHECK_IDLE_TASK_CPU0=y CONFIG_ESP_TASK_WDT_CHECK_IDLE_TASK_CPU1=y" w
        if [ "$CONFIG" = arduino ]; then want="$want CONFIG_FREERTOS_HZ=1000"; else want="$want CONFIG_FREERTOS_HZ=100"; fi
        for w in $want; do
            grep -qx "$w" "$dir/sdkconfig" || { say "the $CONFIG configuration does not have $w"; return 1; }
        done
        say "  configured: $(echo "$want" | tr -s ' \n' ' ')"
    fi
    if [ $DIRECT -eq 1 ]; then
        grep -q "^CONFIG_RTIPC_DIRECT=y" "$dir/sdkconfig" || { say "the app was not configured in direct mode"; return 1; }
    fi
    (cd "$dir" && python -m esptool --chip "$chip" merge_bin --fill-flash-size "$flash" -o flash.bin @flash_args) \
        >"$dir/merge.log" 2>&1 || { cat "$dir/merge.log"; say "making the flash image failed"; return 1; }
    say "  app built for $chip ($(( $(date +%s) - t0 )) s; component 'rtipc' from components/rtipc)"

    # QEMU does not exit by itself: watch the console for the app's last
    # line. The timer groups' watchdogs stay emulated: ESP-IDF's task
    # watchdog is one of them, and blocked-producer needs it to trip (the app
    # turns the interrupt watchdog off instead, sdkconfig.defaults).
    local out=$dir/console.txt icount=() mode="QEMU's wall clock (the host's time)" vars=()
    if [ "$ICOUNT_SHIFT" -ge 0 ]; then
        icount=(-icount "shift=$ICOUNT_SHIFT,sleep=off")
        vars=(QEMU_ICOUNT_DETERMINISTIC=1 QEMU_ICOUNT_RR_QUANTUM="$ICOUNT_QUANTUM" QEMU_ICOUNT_PARALLEL=1)
        mode="-icount shift=$ICOUNT_SHIFT, turns of $ICOUNT_QUANTUM"
    fi
    t0=$(date +%s)
    env "${vars[@]}" \
        "$TOOLS/qemu-$chip/bin/qemu-system-xtensa" -nographic -machine "$chip" -L "$TOOLS/qemu-$chip/share" \
        "${qemu_mem[@]}" -drive file="$dir/flash.bin",if=mtd,format=raw,snapshot=on -no-reboot \
        "${icount[@]}" </dev/null >"$out" 2>&1 &
    local qemu=$! status=""
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
    say "  app under QEMU ($chip, 2 cores, $mode) '$ARGS': exit status ${status:-none} ($(( $(date +%s) - t0 )) s)"
    [ "$status" = 0 ] || { tail -n 30 "$out"; say "the app failed; console in $out"; return 1; }
    if [ $psram -eq 1 ]; then
        # ESP-IDF found the module's PSRAM and gave it to the heap.
        grep -E "esp_psram: (Found|Adding pool)" "$out" | sed 's/\x1b\[[0-9;]*m//g; s/^/    /'
        grep -q "esp_psram: Adding pool of 8192K of PSRAM memory to heap allocator" "$out" ||
            { say "the console does not show 8 MB of PSRAM added to the heap; console in $out"; return 1; }
    fi
    if [ "$ICOUNT_SHIFT" -ge 0 ] && [ -z "$CFG" ]; then
        # The layer's cost, counted before the run, against the board's
        # baseline (written with --record).
        local lc_base=tests/perf/layer_cost-$board$MODE.baseline lc_rc=0
        if [ $RECORD -eq 1 ]; then
            tests/perf/layer_cost.sh --update --baseline "$lc_base" "$out" | sed 's/^/    /'
            lc_rc=${PIPESTATUS[0]}
        else
            tests/perf/layer_cost.sh --baseline "$lc_base" "$out" | sed 's/^/    /'
            lc_rc=${PIPESTATUS[0]}
            [ $lc_rc -ne 77 ] || { say "  the layer's cost: not compared (another kernel or compiler than $lc_base's)"; lc_rc=0; }
        fi
        [ $lc_rc -eq 0 ] || { say "the layer's cost on $board failed or regressed; console in $out"; return 1; }
    fi
    # A board does not page: its console says so, not "memory locked".
    grep -q "; memory not paged;" "$out" || { say "the console does not say the board's memory is not paged"; return 1; }
    case $ARGS in *--json*) ;; *) say "  $board passed (no --json in the command line: nothing to validate)"; return 0 ;; esac

    local json=$dir/bench.json
    # Cut out of the console as a board's would be (docs/esp32.md).
    "$host/bench/rtipc-bench" capture --no-progress "$out" "$json" | sed 's/^/    /'
    [ "${PIPESTATUS[0]}" -eq 0 ] || { say "no valid JSON in the app's console ($out)"; return 1; }
    if [ $DIRECT -eq 1 ]; then
        "$host/tests/validate_bench_json" "$json" round-trip | sed 's/^/    /' ||
            { say "the app's JSON is not valid rtipc-bench/1 with round-trip"; return 1; }
        direct_targets "$json" || return 1
    else
        suite_checks || return 1
    fi

    local recorded=docs/data/$board$MODE-qemu.json digest
    if [ "$CONFIG" = arduino ]; then
        grep -a "Arduino-like" "$out" | sed 's/^/    /'
        grep -q "the runner was raised from priority 1" "$json" ||
            { say "interference did not raise the priority-1 runner above its load"; return 1; }
    fi
    if [ -n "$CFG" ]; then
        say "  $board passed ($CONFIG configuration: the recorded runs are the recommended one's)"
        return 0
    fi
    if [ "$ICOUNT_SHIFT" -lt 0 ]; then
        say "  $board passed (wall clock: the recorded run, in instruction time, is not compared)"
        return 0
    fi
    digest=$(inputs "$board" "$chip")
    if [ $RECORD -eq 1 ]; then
        [ -z "$(git status --porcelain --untracked-files=no -- "${srcs[@]}")" ] ||
            { say "--record needs a clean checkout of rtipc's and the app's files (git status)"; return 1; }
        cp "$json" "$recorded" && echo "$digest" >"${recorded%.json}.inputs" ||
            { say "cannot write $recorded"; return 1; }
        say "  recorded: $recorded and ${recorded%.json}.inputs"
        return 0
    fi
    if [ -f "$recorded" ] && [ "$digest" = "$(cat "${recorded%.json}.inputs" 2>/dev/null)" ]; then
        # The same inputs make the same image, byte for byte (a reproducible
        # build, wherever it is checked out): the same figures, row for row,
        # and the same verdicts. A difference is a change of behaviour.
        python3 - "$recorded" "$json" <<'PY' || { say "the run differs from the recorded one with the same inputs"; return 1; }
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
        say "  the app's inputs differ from $recorded's: compared with thresholds, not exactly"
    fi
    # compare exits 0 (nothing regressed) or 1 (something did); 2 means it
    # refused a file.
    if [ -f "$recorded" ]; then
        local rc=0
        "$host/bench/rtipc-bench" compare "$recorded" "$json" >"$dir/compare.txt" 2>&1 || rc=$?
        grep '^summary:' "$dir/compare.txt" | sed 's/^/    /'
        [ $rc -le 1 ] || { cat "$dir/compare.txt"; say "rtipc-bench compare refused the app's JSON"; return 1; }
    else
        say "  no recorded run for $board ($recorded)"
    fi
    say "  $board passed"
}

failed=""
for b in "${BOARDS[@]}"; do
    check_board "$b" || failed="$failed $b"
done
[ -z "$failed" ] || { say "FAILED:$failed"; exit 1; }
say "passed (${BOARDS[*]})"
