#!/bin/sh
# Runs every rtipc-bench experiment in --quick mode, then validates the JSON
# against the rtipc-bench/1 contract, naming every experiment `list` knows so
# that one that did not run, failed or produced nothing fails the test, and
# checks that the run holds every row the claim audit reads
# (test_claim_rows --produced).
#   bench_quick.sh RTIPC_BENCH VALIDATOR WORKDIR CLAIM_ROWS
set -eu
bench=$1 validator=$2 dir=$3 claim_rows=$4
mkdir -p "$dir"
ids=$("$bench" list | cut -d' ' -f1)
[ -n "$ids" ] || { echo "rtipc-bench list printed nothing" >&2; exit 1; }
status=0
"$bench" run --quick --no-progress --json "$dir/quick.json" --csv "$dir/quick.csv" >"$dir/quick.txt" || status=$?
cat "$dir/quick.txt"
# shellcheck disable=SC2086
"$validator" "$dir/quick.json" $ids
[ "$status" -eq 0 ] || { echo "rtipc-bench exited with $status" >&2; exit 1; }
"$claim_rows" --produced "$dir/quick.json"
