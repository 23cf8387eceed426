#!/bin/sh
# How rtipc-bench scope's cost grows with a capture's edges (a benchmark,
# not a test: times on a shared machine vary). Makes VCD captures of 10^4,
# 10^5 and 10^6 edges (tests/bench/scope_captures.py --pulses) and prints,
# for each, the best of three wall times and the time per edge beyond the
# fixed cost of a run (start-up, libsigrok's initialisation, writing the
# JSON: the time of a 40-edge capture); a linear cost shows as a flat time
# per edge.
#   bench/probes/scope_scaling.sh RTIPC_BENCH [WORKDIR]
set -eu
bench=$1
work=${2:-$(mktemp -d "${TMPDIR:-/tmp}/scope_scaling.XXXXXX")}
here=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$work"
printf '%10s %12s %14s\n' edges seconds ns/edge
fixed=
for pulses in 10 2500 25000 250000; do
    python3 "$here/tests/bench/scope_captures.py" "$work" --pulses $pulses
    best=
    for _ in 1 2 3; do
        t0=$(date +%s.%N)
        "$bench" scope --sample-rate 25M --start send --end recv "$work/pulses-$pulses.vcd" "$work/out.json" >/dev/null
        t=$(echo "$(date +%s.%N) - $t0" | bc -l)
        if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then best=$t; fi
    done
    edges=$((pulses * 4))
    if [ -z "$fixed" ]; then
        fixed=$best
        printf '%10d %12.3f %14s\n' $edges "$best" "(fixed cost)"
        continue
    fi
    printf '%10d %12.3f %14.1f\n' $edges "$best" "$(echo "($best - $fixed) * 1000000000 / $edges" | bc -l)"
done
