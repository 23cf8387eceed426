#!/bin/bash
# Run the libFuzzer harnesses of tests/fuzz (README.md here).
#
#   tests/fuzz/run.sh SECONDS [HARNESS...]
#
# HARNESS: fuzz_api, fuzz_compare_json (or api, compare); all by default.
# For each harness, in order:
#   1. replay: every checked-in input of tests/fuzz/corpus/NAME runs once (a
#      regression check: a crash found earlier and added there stays fixed);
#   2. fuzz for SECONDS on a scratch corpus, BUILD/corpus-NAME, seeded with a
#      copy of the checked-in corpus (which is never written to).
# A crash, leak, timeout or model mismatch leaves its input in
# BUILD/artifacts/ and makes the script exit 1 after the other harnesses ran.
# The full libFuzzer output is in BUILD/logs/NAME.log.
#
# Environment:
#   FUZZ_BUILD_DIR    the RTIPC_FUZZ=ON build (default: build/fuzz)
#   FUZZ_KEEP_CORPUS  1: keep BUILD/corpus-NAME from earlier runs and add to
#                     it (make fuzz); otherwise it starts from the seeds
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
[ $# -ge 1 ] && [[ $1 =~ ^[0-9]+$ ]] || { echo "usage: $0 SECONDS [HARNESS...]" >&2; exit 2; }
seconds=$1
shift
build=${FUZZ_BUILD_DIR:-$root/build/fuzz}
build=$(cd "$build" 2>/dev/null && pwd) || { echo "run.sh: no build directory ${FUZZ_BUILD_DIR:-build/fuzz}" >&2; exit 2; }
harnesses=("$@")
[ ${#harnesses[@]} -gt 0 ] || harnesses=(fuzz_api fuzz_compare_json)

mkdir -p "$build/artifacts" "$build/logs"
status=0
summary=()
for h in "${harnesses[@]}"; do
    case $h in
    api | fuzz_api) bin=fuzz_api name=api
        # The longest useful program: MAX_STEPS steps of a few bytes each.
        flags=(-max_len=4096) ;;
    compare | fuzz_compare_json) bin=fuzz_compare_json name=compare
        # Two rtipc-bench/1 files of a few KB; compare.c prints one line per
        # invalid file on stderr, which -close_fd_mask=2 silences (the
        # harness and the sanitizers report on their own copy of stderr).
        flags=(-max_len=16384 -close_fd_mask=2 -dict="$here/compare.dict") ;;
    *) echo "run.sh: unknown harness '$h'" >&2; exit 2 ;;
    esac
    exe=$build/tests/fuzz/$bin
    [ -x "$exe" ] || { echo "run.sh: $exe not built (configure with -DRTIPC_FUZZ=ON)" >&2; exit 2; }
    seeds=$here/corpus/$name
    corpus=$build/corpus-$name
    log=$build/logs/$name.log
    common=(-timeout=10 -rss_limit_mb=2048 -artifact_prefix="$build/artifacts/$name-")

    echo "== $bin: replaying $(ls "$seeds" | wc -l) checked-in inputs"
    if ! "$exe" "${common[@]}" "${flags[@]}" "$seeds"/* >"$build/logs/$name-replay.log" 2>&1; then
        echo "FAIL: $bin crashed on a checked-in input (log: $build/logs/$name-replay.log)"
        grep -E "^(fuzz_|SUMMARY|==[0-9]+==ERROR)|Running: " "$build/logs/$name-replay.log" | tail -5
        status=1
        summary+=("$bin: REPLAY FAILED")
        continue
    fi

    [ "${FUZZ_KEEP_CORPUS:-0}" = 1 ] || rm -rf "$corpus"
    mkdir -p "$corpus"
    cp -n "$seeds"/* "$corpus"/
    before=$(ls "$corpus" | wc -l)
    echo "== $bin: fuzzing for ${seconds}s on $corpus ($before inputs)"
    "$exe" "${common[@]}" "${flags[@]}" -max_total_time="$seconds" -print_final_stats=1 "$corpus" >"$log" 2>&1
    rc=$?
    after=$(ls "$corpus" | wc -l)
    getstat() { sed -n "s/^stat::$1: *//p" "$log" | tail -1; }
    last=$(grep -E "^#[0-9]+" "$log" | tail -1)
    cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
    ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
    line="$bin: $(getstat number_of_executed_units) executions, $(getstat average_exec_per_sec) exec/s, cov $cov, ft $ft, corpus $before -> $after (+$((after - before)) new), peak RSS $(getstat peak_rss_mb) MB"
    if [ $rc -ne 0 ]; then
        status=1
        line="$line, FAILED (exit $rc)"
        echo "FAIL: $bin (log: $log)"
        grep -E "^(fuzz_|SUMMARY|==[0-9]+==ERROR)|Test unit written|ERROR: libFuzzer" "$log" | tail -6
    fi
    echo "$line"
    summary+=("$line")
done

echo "== summary"
printf '%s\n' "${summary[@]}"
if [ $status -ne 0 ]; then
    echo "artefacts: $build/artifacts"
    ls -l "$build/artifacts"
fi
exit $status
