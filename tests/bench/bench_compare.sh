#!/bin/sh
# `rtipc-bench compare` on hand-made files: data/base.json (a valid
# rtipc-bench/1 file) and variants derived from it with sed, one change each.
# Checks verdicts, exit statuses, the one-line errors, and the table layout.
#   bench_compare.sh RTIPC_BENCH VALIDATOR DATA_DIR WORKDIR
set -u
bench=$1 validator=$2 data=$3 work=$4
base=$data/base.json
mkdir -p "$work"
out=$work/out.txt err=$work/err.txt
fail() { echo "FAIL: $*" >&2; exit 1; }

# derive NAME SED-SCRIPT: $work/NAME.json from base.json; the script must change it.
derive() {
    sed -e "$2" "$base" >"$work/$1.json" || fail "sed for $1"
    cmp -s "$base" "$work/$1.json" && fail "derive $1: the sed script changed nothing"
    return 0
}
# run STATUS ARGS...: run compare, keep stdout/stderr, check the exit status.
run() {
    want=$1; shift
    "$bench" compare "$@" >"$out" 2>"$err"; got=$?
    [ "$got" -eq "$want" ] || { cat "$out" "$err"; fail "compare $* exited $got, expected $want"; }
}
# verdict EXPERIMENT MECHANISM VARIANT METRIC VERDICT: that row carries that verdict.
verdict() {
    line=$(awk -v e="$1" -v m="$2" -v v="$3" -v t="$4" '$1 == e && $2 == m && $3 == v && $4 == t' "$out")
    [ -n "$line" ] || { cat "$out"; fail "no row $1/$2/$3/$4"; }
    case "$line" in
    *"  $5" | *"  $5  "*) ;;
    *) cat "$out"; fail "row $1/$2/$3/$4 is not '$5': $line" ;;
    esac
}
summary() { # summary "N regressed, N improved, ...": the summary line says exactly that
    grep -qx "summary: $1" "$out" || { cat "$out"; fail "summary is not '$1'"; }
}
# The verdict column starts at the same offset as its header in every table.
aligned() {
    awk '/^experiment / { col = index($0, "verdict"); next }
         /^$/ || /^==/ || /^\*/ || /^summary/ { col = 0; next }
         col > 0 && substr($0, col) !~ /^(regressed|improved|same|info|only in base|only in new)( |$)/ {
             print "misaligned: " $0; bad = 1 }
         END { exit bad }' "$out" || fail "columns not aligned"
}
# one_line_error FILE: stderr is one line naming FILE.
one_line_error() {
    [ "$(wc -l <"$err")" -eq 1 ] || { cat "$err"; fail "expected one line on stderr"; }
    grep -qF "$1" "$err" || { cat "$err"; fail "the error does not name $1"; }
}

# The test data itself is a valid rtipc-bench/1 file.
"$validator" "$base" queue-latency mechanism-compare isr-handoff footprint notify-modes >/dev/null ||
    fail "data/base.json is not valid rtipc-bench/1"

# Identical files: nothing changes, no warning, units in the headers.
run 0 "$base" "$base"
summary "0 regressed, 0 improved, 7 same, 2 info, 0 only in base, 0 only in new"
[ -s "$err" ] && { cat "$err"; fail "identical files produced warnings"; }
for h in "base p50\[ns\]" "new p50\[ns\]" "base\[msg/s\]" "new\[count\]" "base\[B\]" "p99 new/base"; do
    grep -q "$h" "$out" || fail "no header '$h'"
done
aligned
verdict isr-handoff rtipc-queue yield offered info
verdict notify-modes rtipc-notify overwrite coalesced info

# A latency p50 30% up with the intervals apart: regressed, exit 1, the row named.
derive lat_up '/"variant": "cross-core",/s/"p50": 10000, "p90": 14000, "p99": 20000, "p999": null, "max": 40000, "stddev": 2500, "jitter": 32000, "p50_ci95": \[9900, 10100\]/"p50": 13000, "p90": 15000, "p99": 24000, "p999": null, "max": 40000, "stddev": 2500, "jitter": 32000, "p50_ci95": [12900, 13100]/'
run 1 "$base" "$work/lat_up.json"
verdict queue-latency rtipc-queue cross-core latency regressed
verdict queue-latency rtipc-queue same-core latency same
summary "1 regressed, 0 improved, 6 same, 2 info, 0 only in base, 0 only in new"
grep -q "regressed: queue-latency/rtipc-queue/cross-core/latency" "$err" || { cat "$err"; fail "stderr does not name the regressed row"; }
grep -q " 1\.300 .* 1\.200 " "$out" || { cat "$out"; fail "p50 and p99 ratios not shown"; }
aligned
# ... within a larger threshold it is the same; past a smaller one it is not.
run 0 --threshold 40 "$base" "$work/lat_up.json"
verdict queue-latency rtipc-queue cross-core latency same
run 1 "$base" "$work/lat_up.json" --threshold=25%
run 1 --threshold 0 "$base" "$work/lat_up.json"

# 30% up, but the intervals overlap: same (noise), exit 0.
derive lat_noisy '/open-loop-5kHz/s/"p50": 50000, "p90": 80000, "p99": 120000, "p999": null, "max": 300000, "stddev": 20000, "jitter": 280000, "p50_ci95": \[40000, 70000\]/"p50": 65000, "p90": 90000, "p99": 130000, "p999": null, "max": 300000, "stddev": 20000, "jitter": 280000, "p50_ci95": [55000, 85000]/'
run 0 "$base" "$work/lat_noisy.json"
verdict queue-latency rtipc-queue cross-core/open-loop-5kHz latency same
grep -q "intervals overlap" "$out" || fail "the overlap is not explained"

# A 5% change is within the default threshold even with the intervals apart.
derive lat_small '/"variant": "same-core",/s/"p50": 3000, "p90": 3500, "p99": 6000, "p999": null, "max": 9000, "stddev": 400, "jitter": 6500, "p50_ci95": \[2950, 3050\]/"p50": 3150, "p90": 3500, "p99": 6000, "p999": null, "max": 9000, "stddev": 400, "jitter": 6500, "p50_ci95": [3140, 3160]/'
run 0 "$base" "$work/lat_small.json"
verdict queue-latency rtipc-queue same-core latency same

# Throughput 30% down: regressed (higher is better for msg/s), exit 1.
derive tput_down '/"metric": "throughput"/s/"value": 200000/"value": 140000/'
run 1 "$base" "$work/tput_down.json"
verdict isr-handoff rtipc-queue yield throughput regressed
grep -q "regressed: isr-handoff/rtipc-queue/yield/throughput" "$err" || fail "stderr does not name the throughput row"

# Improvements: lower latency, higher throughput, smaller footprint; exit 0.
derive better '/"variant": "cross-core",/s/"p50": 10000, \(.*\)"p50_ci95": \[9900, 10100\]/"p50": 7000, \1"p50_ci95": [6900, 7100]/
/"metric": "throughput"/s/"value": 200000/"value": 260000/
/"metric": "bytes"/s/"value": 456/"value": 400/'
run 0 "$base" "$work/better.json"
verdict queue-latency rtipc-queue cross-core latency improved
verdict isr-handoff rtipc-queue yield throughput improved
verdict footprint rtipc-queue len=100,item=4 bytes improved
summary "0 regressed, 3 improved, 4 same, 2 info, 0 only in base, 0 only in new"

# Lower is better for drops by name; informational metrics never regress.
derive drops '/"metric": "dropped"/s/"value": 0/"value": 5/
/"metric": "coalesced"/s/"value": 12/"value": 40/
/"metric": "offered"/s/"value": 250000/"value": 100000/'
run 1 "$base" "$work/drops.json"
verdict isr-handoff rtipc-queue yield dropped regressed
verdict notify-modes rtipc-notify overwrite coalesced info
verdict isr-handoff rtipc-queue yield offered info

# No p50_ci95: the bootstrap interval from the histogram decides (marked *).
derive boot_up '/"metric": "send-overhead"/s/"min": 40, "mean": 52, "p50": 48, "p90": 64, "p99": 96, "p999": null, "max": 300, "stddev": 12, "jitter": 260, "histogram": {"sub_bucket_bits": 4, "buckets": \[\[40, 200\], \[44, 500\], \[48, 600\], \[52, 300\], \[64, 300\], \[96, 80\], \[288, 20\]\]}/"min": 60, "mean": 78, "p50": 72, "p90": 96, "p99": 144, "p999": null, "max": 450, "stddev": 18, "jitter": 390, "histogram": {"sub_bucket_bits": 4, "buckets": [[60, 200], [68, 500], [72, 600], [76, 300], [96, 300], [144, 80], [448, 20]]}/'
run 1 "$base" "$work/boot_up.json"
verdict mechanism-compare rtipc-spsc item=4 send-overhead regressed
grep -q "48\.\.50\*" "$out" || { cat "$out"; fail "no bootstrap interval shown for the base row"; }
grep -q "^\* bootstrap interval" "$out" || fail "no bootstrap footnote"
# ... and with neither p50_ci95 nor histogram a change cannot be told from noise.
derive boot_none '/"metric": "send-overhead"/s/"p50": 48, \(.*\), "histogram": {.*}}/"p50": 72, \1}/'
run 0 "$base" "$work/boot_none.json"
verdict mechanism-compare rtipc-spsc item=4 send-overhead same
grep -q "new has no interval" "$out" || { cat "$out"; fail "the missing interval is not explained"; }

# Rows in one file only are listed as such; they are not regressions.
derive fewer '/"metric": "bytes"/d
s/"mechanism": "rtipc-notify"/"mechanism": "rtipc-notify-v2"/'
run 0 "$base" "$work/fewer.json"
verdict footprint rtipc-queue len=100,item=4 bytes "only in base"
verdict notify-modes rtipc-notify overwrite coalesced "only in base"
verdict notify-modes rtipc-notify-v2 overwrite coalesced "only in new"
summary "0 regressed, 0 improved, 6 same, 1 info, 2 only in base, 1 only in new"
run 0 "$work/fewer.json" "$base"
summary "0 regressed, 0 improved, 6 same, 1 info, 1 only in base, 2 only in new"
aligned

derive no_missing '/"missing": true/d'
run 0 "$base" "$work/no_missing.json"
grep -q "^mechanism-compare  *freertos-queue  *-  *only in base  *missing: FreeRTOS" "$out" ||
    { cat "$out"; fail "a mechanism missing on one side only is not listed"; }

# Environments that differ: a warning per field on stderr, not a failure.
derive other_env 's/"cpu_model": "Example CPU @ 2.0GHz"/"cpu_model": "Other CPU"/
s/"tick_hz": 1000/"tick_hz": 100/
s/"quick": false/"quick": true/'
run 0 "$base" "$work/other_env.json"
for f in cpu_model tick_hz quick; do
    grep -q "warning: env.$f differs" "$err" || { cat "$err"; fail "no warning for env.$f"; }
done
[ "$(grep -c warning "$err")" -eq 3 ] || { cat "$err"; fail "warnings for fields that did not change"; }

# Unreadable or invalid input: status 2 and one line naming the file.
printf 'this is not JSON\n' >"$work/garbage.json"
# Rows of different clocks: refused (exit 2, one line naming both clocks and
# the way out) unless --allow-mixed-clocks; then compared, with a warning.
# A file without row clocks takes its clock from env.clock_source.
derive os_clock 's/"clock_source": "tsc"/"clock_source": "clock_monotonic_raw"/'
run 2 "$base" "$work/os_clock.json"; one_line_error "$work/os_clock.json"
grep -q 'host-tsc in .*os-clock in .*--allow-mixed-clocks compares them anyway' "$err" || { cat "$err"; fail "mixed clocks: no reason"; }
run 0 --allow-mixed-clocks "$base" "$work/os_clock.json"
grep -q 'warning: .*different clocks.*compared anyway' "$err" || { cat "$err"; fail "mixed clocks allowed: no warning"; }
summary "0 regressed, 0 improved, 7 same, 2 info, 0 only in base, 0 only in new"
# A row's own clock wins over env's; sizes and counts carry none.
derive row_clock '/"variant": "cross-core",/s/"p50_ci95"/"clock": "emulated-instructions", "p50_ci95"/'
run 2 "$base" "$work/row_clock.json"
grep -q 'emulated-instructions' "$err" || { cat "$err"; fail "a row's clock was not used"; }
derive bad_clock '/"variant": "cross-core",/s/"p50_ci95"/"clock": "sundial", "p50_ci95"/'
run 2 "$base" "$work/bad_clock.json"; one_line_error "$work/bad_clock.json"
grep -q '"clock" is not one of the clock names' "$err" || { cat "$err"; fail "an unknown clock was accepted"; }

run 2 "$base" "$work/garbage.json"; one_line_error "$work/garbage.json"
grep -q "not JSON" "$err" || fail "garbage not reported as not JSON"
: >"$work/empty.json"
run 2 "$work/empty.json" "$base"; one_line_error "$work/empty.json"
head -c 500 "$base" >"$work/truncated.json"
run 2 "$base" "$work/truncated.json"; one_line_error "$work/truncated.json"
run 2 "$base" "$work/no-such-file.json"; one_line_error "$work/no-such-file.json"
run 2 "$base" "$work"; one_line_error "$work"
derive schema2 's|"schema": "rtipc-bench/1"|"schema": "rtipc-bench/2"|'
run 2 "$base" "$work/schema2.json"; one_line_error "$work/schema2.json"
grep -q "rtipc-bench/2" "$err" || fail "wrong schema not named"
derive noschema 's|"schema": "rtipc-bench/1",||'
run 2 "$work/noschema.json" "$base"; one_line_error "$work/noschema.json"
derive results_obj 's|"results": \[|"results": "none", "rows": [|'
run 2 "$base" "$work/results_obj.json"; one_line_error "$work/results_obj.json"
grep -q '"results" is not an array' "$err" || { cat "$err"; fail "results not an array not reported"; }
derive no_results 's|"results": \[|"rows": [|'
run 2 "$base" "$work/no_results.json"; one_line_error "$work/no_results.json"
derive no_metric '/"metric": "throughput"/s/"metric": "throughput", //'
run 2 "$base" "$work/no_metric.json"; one_line_error "$work/no_metric.json"
grep -q 'results\[5\] lacks the string "metric"' "$err" || { cat "$err"; fail "the row without metric not named"; }
derive no_value '/"metric": "bytes"/s/, "value": 456//'
run 2 "$base" "$work/no_value.json"; one_line_error "$work/no_value.json"
derive bad_ci '/"variant": "cross-core",/s/"p50_ci95": \[9900, 10100\]/"p50_ci95": [9900]/'
run 2 "$base" "$work/bad_ci.json"; one_line_error "$work/bad_ci.json"

# A comparison that cannot be written is a failure (1), not a success.
if [ -w /dev/full ]; then
    "$bench" compare "$base" "$base" >/dev/full 2>"$err"; got=$?
    [ "$got" -eq 1 ] || fail "compare to a full device exited $got, expected 1"
    grep -q "writing to stdout failed" "$err" || { cat "$err"; fail "the failed write is not reported"; }
fi

# Usage errors: status 2; --help: the usage on stdout, status 0.
run 2
run 2 "$base"
run 2 "$base" "$base" "$base"
for t in abc -5 10x nan inf "" 1001 " 5"; do
    run 2 --threshold "$t" "$base" "$base"
    grep -q -- "--threshold" "$err" || fail "--threshold '$t' not explained"
done
run 2 "$base" "$base" --threshold
run 2 --bogus "$base" "$base"
run 0 --help
grep -q "usage: rtipc-bench compare" "$out" || fail "compare --help not on stdout"
# --help names every clock a row may carry (bench/target/clock.c).
for clock in host-tsc os-clock mcu-cycles emulated-instructions emulated-wall-clock emulated-core-cycles logic-analyzer; do
    grep -q -- "$clock" "$out" || fail "compare --help does not name the clock $clock"
done
"$bench" --help | grep -q "rtipc-bench compare BASE.json NEW.json" || fail "rtipc-bench --help does not list compare"

# Names from a file reach the terminal escaped: a mechanism name holding
# ESC ] 0 ; ... BEL (set the title) and ESC [ 31 m (red) prints as \x1b...,
# never as the bytes.
derive hostile 's/"mechanism": "rtipc-queue"/"mechanism": "rtipc\\u001b]0;pwned\\u0007\\u001b[31m-queue"/'
run 0 "$work/hostile.json" "$work/hostile.json"
grep -q "$(printf '\033')" "$out" "$err" && fail "compare printed a control byte from a file's names"
grep -q 'rtipc\\x1b\]0;pwned\\x07\\x1b\[31m-queue' "$out" || { cat "$out"; fail "compare did not escape the hostile name"; }

# '-' is standard input, for one of the two files.
"$bench" compare - "$base" <"$base" >"$out" 2>"$err"; got=$?
[ "$got" -eq 0 ] || { cat "$err"; fail "compare - BASE (stdin) exited $got"; }
grep -q "^summary: 0 regressed, 0 improved" "$out" || { cat "$out"; fail "compare - BASE did not read stdin"; }
run 2 - -
grep -q "both standard input" "$err" || fail "compare - - not explained"

echo "rtipc-bench compare: ok"
