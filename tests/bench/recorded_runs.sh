#!/bin/sh
# The recorded runs in docs/data stay what the docs say they are: each is
# valid rtipc-bench/1 JSON with its experiments, and `rtipc-bench audit`
# gives the verdicts docs/porting.md (FreeRTOS POSIX simulator) and
# docs/mcu.md (FreeRTOS on Cortex-M3), docs/rv32-virt.md (FreeRTOS SMP on
# two RV32 harts) and docs/esp32.md (ESP-IDF on the emulated ESP32 and
# ESP32-S3) print for them.
#   recorded_runs.sh RTIPC_BENCH VALIDATOR DOCS_DATA_DIR WORKDIR
set -u
bench=$1 validator=$2 data=$3 work=$4
mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }

# check FILE "VERDICTS" ID...: valid with the ids, audited to the verdicts.
check() {
    file=$data/$1 want=$2
    shift 2
    "$validator" "$file" "$@" >"$work/validate.txt" 2>&1 || { cat "$work/validate.txt"; fail "$file is not valid"; }
    "$bench" audit "$file" >"$work/audit.txt" 2>&1 || { cat "$work/audit.txt"; fail "audit of $file failed"; }
    got=$(sed -n 's/^[1-9]\. \[\([a-z-]*\)\].*/\1/p' "$work/audit.txt" | tr '\n' ' ')
    [ "$got" = "$want" ] || { cat "$work/audit.txt"; fail "$file: verdicts '$got', documented '$want'"; }
    echo "$file: valid, verdicts as documented"
}

check freertos-posix-sim.json \
    "does-not-hold does-not-hold does-not-hold does-not-hold holds not-testable holds holds not-testable " \
    queue-latency queue-placement isr-handoff byte-stream blocked-producer state-vs-event batching queue-set \
    footprint notify-vs-sem notify-modes
check freertos-cm3.json "$(tr '\n' ' ' <"$data/../../targets/mps2-an385/freertos/claim-verdicts.txt")" \
    queue-latency queue-placement isr-handoff blocked-producer state-vs-event batching queue-set footprint \
    notify-vs-sem notify-modes round-trip
check freertos-rv32-smp.json \
    "not-testable does-not-hold does-not-hold does-not-hold holds holds holds holds does-not-hold " \
    queue-latency queue-placement isr-handoff mechanism-compare byte-stream blocked-producer state-vs-event \
    core-placement batching queue-set footprint interference notify-vs-sem notify-modes round-trip lockfree-cost
# docs/esp32.md: the emulated ESP32 (ESP-IDF's SMP kernel, two cores), a
# quick run in instruction time; every
# experiment but peers (built for Linux only), the interrupt ones on rtipc's
# ESP-IDF interrupt backend; its rows say they come from the emulator.
check esp32-qemu.json \
    "not-testable does-not-hold does-not-hold does-not-hold holds holds holds holds does-not-hold " \
    queue-latency queue-placement isr-handoff mechanism-compare byte-stream blocked-producer state-vs-event \
    core-placement batching queue-set footprint interference notify-vs-sem notify-modes round-trip lockfree-cost
grep -q '"kernel":[[:space:]]*"FreeRTOS V10.4.3 (ESP-IDF v5.1.6), 2 core(s)"' "$data/esp32-qemu.json" ||
    fail "the ESP32 run does not name ESP-IDF's kernel, its version and two cores"
grep -q '"cpu_model":[[:space:]]*"emulated ESP32 (QEMU)' "$data/esp32-qemu.json" ||
    fail "the ESP32 run does not say it ran on the emulator"
# In instruction time (the vendored QEMU's deterministic mode), with the
# digest of the inputs check-esp32 compares it exactly under.
grep '"experiment": "queue-latency", "mechanism": "rtipc-queue", "variant": "cross-core"' "$data/esp32-qemu.json" |
    grep -q '"clock":[[:space:]]*"emulated-instructions"' ||
    fail "the ESP32 run's cross-core latency is not labelled emulated-instructions"
grep -q '"clock_source":[[:space:]]*"GPTimer at 40000000 Hz, one counter for both cores; QEMU icount 4 ns/instr' \
    "$data/esp32-qemu.json" || fail "the ESP32 run's clock does not say it counts instructions, 4 ns each"
grep -Eq '^[0-9a-f]{64}$' "$data/esp32-qemu.inputs" || fail "the ESP32 run has no digest of its inputs"
# An ESP-IDF build has no CMake build type: its flags end without "()".
for f in esp32-qemu esp32s3-qemu esp32s3-nopsram-qemu; do
    grep -q '"cflags": "[^"]*()"' "$data/$f.json" && fail "$f's cflags end in an empty build type '()'"
done
# docs/esp32.md, "ESP32-S3": the emulated ESP32-S3, an N8R8 module (8 MB
# of octal PSRAM) and one without PSRAM, quick runs in instruction time,
# the shared clock SYSTIMER's; queue-placement with each queue's storage
# placed and checked where an ESP-IDF user places it, claim 1 not testable
# on the emulator's clock, claim 4 not testable (no working watchdog).
s3_experiments="queue-latency queue-placement isr-handoff mechanism-compare byte-stream blocked-producer \
state-vs-event core-placement batching queue-set footprint interference notify-vs-sem notify-modes round-trip lockfree-cost"
for f in esp32s3-qemu esp32s3-nopsram-qemu; do
    # shellcheck disable=SC2086
    check $f.json "not-testable does-not-hold does-not-hold not-testable holds holds holds holds does-not-hold " \
        $s3_experiments
    grep -q '"kernel":[[:space:]]*"FreeRTOS V10.4.3 (ESP-IDF v5.1.6), 2 core(s)"' "$data/$f.json" ||
        fail "$f does not name ESP-IDF's kernel, its version and two cores"
    grep -q '"clock_source":[[:space:]]*"SYSTIMER at 16000000 Hz, one counter for both cores; QEMU icount 4 ns/instr' \
        "$data/$f.json" || fail "$f's clock is not SYSTIMER counting instructions, 4 ns each"
    grep -Eq '^[0-9a-f]{64}$' "$data/$f.inputs" || fail "$f has no digest of its inputs"
    grep '"id": 1, ' "$data/$f.json" | grep -q "measured on an emulator's clock" ||
        fail "$f: claim 1 is not refused for the emulator's clock"
    # QEMU 9.2's esp32s3 never fires the task watchdog: claim 4 says so.
    grep '"id": 4, ' "$data/$f.json" | grep -q "the watchdog did not fire in this run" ||
        fail "$f: claim 4 is not refused for the watchdog that never fired"
done
grep -q '"cpu_model":[[:space:]]*"emulated ESP32 (QEMU): esp32s3, 240 MHz configured, 8 MB PSRAM"' \
    "$data/esp32s3-qemu.json" || fail "the ESP32-S3 N8R8 run does not name its chip and PSRAM"
for m in kernel-queue rtipc-queue; do
    grep "\"experiment\": \"queue-placement\", \"mechanism\": \"$m\", \"variant\": \"psram\", \"metric\": \"latency\"" \
        "$data/esp32s3-qemu.json" | grep -q 'esp_ptr_external_ram checked' ||
        fail "the ESP32-S3 N8R8 run has no $m row in PSRAM, its address checked"
    grep -q "\"mechanism\": \"$m/psram\", [^}]*\"missing\": true" "$data/esp32s3-nopsram-qemu.json" ||
        fail "the ESP32-S3 run without PSRAM does not record $m/psram as missing"
done
grep -q '"cpu_model":[[:space:]]*"emulated ESP32 (QEMU): esp32s3, 240 MHz configured"' \
    "$data/esp32s3-nopsram-qemu.json" || fail "the ESP32-S3 run without PSRAM does not name its chip"
grep -q '"kernel":[[:space:]]*"FreeRTOS V[0-9.+]* (community GCC RISC-V_RV32_SMP_QEMU_VIRT, heap 4, configNUMBER_OF_CORES 2), 2 core(s)"' \
    "$data/freertos-rv32-smp.json" || fail "the RV32 SMP run does not name its kernel and two cores"
# A full run in instruction time (the vendored QEMU's deterministic mode):
# cross-core spans on the shared mtime, same-core ones on each hart's own
# mcycle, both counting instructions (docs/rv32-virt.md, "Clock").
grep -q '"quick":[[:space:]]*false' "$data/freertos-rv32-smp.json" || fail "the RV32 SMP run is a quick one"
row() { grep "\"experiment\": \"$1\", \"mechanism\": \"$2\", \"variant\": \"$3\", \"metric\": \"$4\"" "$data/freertos-rv32-smp.json"; }
row queue-latency rtipc-queue cross-core latency | grep -q '"clock":[[:space:]]*"emulated-instructions"' ||
    fail "the RV32 SMP run's cross-core latency is not labelled emulated-instructions"
row queue-latency rtipc-queue same-core latency | grep -q '"clock":[[:space:]]*"emulated-instructions"' ||
    fail "the RV32 SMP run's same-core latency is not labelled emulated-instructions"
grep -q '"core_clock_provenance":[[:space:]]*"emulated-instructions"' "$data/freertos-rv32-smp.json" ||
    fail "the RV32 SMP run does not describe its core clock"
grep -q '"kernel":[[:space:]]*"FreeRTOS V[0-9.+]*, POSIX simulator' "$data/freertos-posix-sim.json" ||
    fail "the simulator run does not name its kernel"
grep -q '"kernel":[[:space:]]*"FreeRTOS V[0-9.+]* (GCC ARM_CM3, heap 4), 1 core(s)"' "$data/freertos-cm3.json" ||
    fail "the Cortex-M3 run does not name its kernel"
grep -q '"cpu_model":[[:space:]]*"Cortex-M3, QEMU mps2-an385' "$data/freertos-cm3.json" ||
    fail "the Cortex-M3 run does not name its target"
grep -q '"clock":[[:space:]]*"emulated-instructions"' "$data/freertos-cm3.json" ||
    fail "the Cortex-M3 run is not in emulated instructions"
exit 0
