#!/bin/sh
# The bare-metal bench's JSON (data/mcu.json, a recorded `make mcu` run,
# docs/mcu.md): distributions in "instr" are valid rtipc-bench/1, another
# unit is not, and `rtipc-bench compare` ranks instruction counts like
# latencies (lower is better).
#   mcu_bench_json.sh RTIPC_BENCH VALIDATOR DATA_DIR WORKDIR
set -u
bench=$1 validator=$2 data=$3 work=$4
mcu=$data/mcu.json
mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }

grep -q '"unit": "instr", "n": 2000' "$mcu" || fail "data/mcu.json has no instr distribution"
"$validator" "$mcu" lockfree-cost ||
    fail "the recorded bare-metal run is not valid"

# A distribution in an unknown unit is rejected.
sed 's/"unit": "instr"/"unit": "cycles"/' "$mcu" >"$work/cycles.json"
if "$validator" "$work/cycles.json" 2>"$work/cycles.err"; then fail "a distribution in cycles validated"; fi
grep -q "distribution unit is neither ns nor instr" "$work/cycles.err" || fail "no unit complaint"

# Two identical runs: compare accepts them (exit 0), nothing regressed.
"$bench" compare "$mcu" "$mcu" >"$work/same.txt" || fail "compare of identical runs did not exit 0"
grep -q "^summary: 0 regressed, 0 improved" "$work/same.txt" || { cat "$work/same.txt"; fail "identical runs differ"; }
grep -q "base p50\[instr\]" "$work/same.txt" || fail "no instr table"

# Twice the instructions on one row: a regression (exit 1) on that row.
awk '/"variant": "1-item", "metric": "push\+pop"/ {
         gsub(/"p50": [0-9.]+/, "\"p50\": 400"); gsub(/"p50_ci95": \[[0-9.]+, [0-9.]+\]/, "\"p50_ci95\": [400, 400]")
         gsub(/"p90": [0-9.]+/, "\"p90\": 400"); gsub(/"p99": [0-9.]+/, "\"p99\": 400")
         gsub(/"max": [0-9.]+/, "\"max\": 400") }
     { print }' "$mcu" >"$work/slower.json"
cmp -s "$mcu" "$work/slower.json" && fail "the slower file is unchanged"
"$validator" "$work/slower.json" >/dev/null || fail "the slower file is not valid"
"$bench" compare "$mcu" "$work/slower.json" >"$work/slower.txt"; rc=$?
[ "$rc" -eq 1 ] || { cat "$work/slower.txt"; fail "a doubled instruction count exited $rc, not 1"; }
grep -E "^lockfree-cost +rtipc-spsc +1-item +push\+pop .*regressed" "$work/slower.txt" >/dev/null ||
    { cat "$work/slower.txt"; fail "the doubled row is not marked regressed"; }
echo "mcu bench JSON: ok"
