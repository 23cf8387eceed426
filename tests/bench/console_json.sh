#!/bin/sh
# A firmware's console document (bench/results/console.c), as the host
# driver prints it with console noise around (synthetic experiments): extracted between the markers exactly as docs/porting.md says, it
# must be valid rtipc-bench/1 with its three experiments run and measured.
#   console_json.sh HOST_DRIVER VALIDATOR OUTDIR
set -eu
drv=$1 val=$2 out=$3
mkdir -p "$out"
"$drv" 2000 > "$out/console.log"
sed -n '/^==== rtipc-bench\/1 JSON begin ====$/,/^==== rtipc-bench\/1 JSON end ====$/p' "$out/console.log" |
    sed '1d;$d' > "$out/esp32.json"
test -s "$out/esp32.json"
if grep -q 'main_task' "$out/esp32.json"; then echo "console noise inside the JSON"; exit 1; fi
"$val" "$out/esp32.json" esp-queue-roundtrip notify-vs-sem esp-isr-handoff
# The short series (50 samples) must carry null p90/p99/p999 and a number p50.
grep -q '"variant": "no-yield", "metric": "latency", "unit": "ns", "n": 50, .*"p50": [0-9][0-9.]*, "p90": null, "p99": null, "p999": null' \
    "$out/esp32.json"
# A failed experiment carries its status and reason, and the validator
# rejects it when asked for it.
grep -q '"id": "esp-failed", "summary": "an experiment that failed", "status": "failed", "failure": "operation timed out"' \
    "$out/esp32.json"
if "$val" "$out/esp32.json" esp-failed 2>/dev/null; then echo "a failed experiment validated"; exit 1; fi
echo "console JSON: ok"
