#!/bin/sh
# The layer-cost guard (layer_cost.sh) on made-up firmware outputs: a count
# within the threshold passes, one above it fails, a missing operation
# fails, another build skips, output without its end line is refused, and
# --update writes a baseline the next compare accepts.
#
#   layer_cost_guard_test.sh WORKDIR
set -u
here=$(cd "$(dirname "$0")" && pwd)
guard=$here/layer_cost.sh
work=${1:?usage: layer_cost_guard_test.sh WORKDIR}
rm -rf "$work" && mkdir -p "$work" || exit 1
failures=0

output() { # output FILE BUILD SEND_COUNT [extra lines]
    {
        echo "layer-cost build: $2"
        echo "layer-cost queue-send rtipc $3 kernel 100.0 ratio 1.000"
        echo "layer-cost sem-give rtipc 50.0 kernel 45.0 ratio 1.111"
        echo "layer-cost done"
    } >"$1"
}
expect() { # expect STATUS WHAT COMMAND...
    want=$1 what=$2
    shift 2
    "$@" >"$work/last.txt" 2>&1
    got=$?
    if [ "$got" -ne "$want" ]; then
        echo "FAIL: $what: status $got, wanted $want"
        sed 's/^/    /' "$work/last.txt"
        failures=$((failures + 1))
    else
        echo "ok: $what"
    fi
}

output "$work/base.txt" "kernel X, compiler Y" 110.0
expect 0 "--update writes the baseline" "$guard" --update --baseline "$work/base" "$work/base.txt"
grep -q '^queue-send 110.0 100.0$' "$work/base" || { echo "FAIL: the baseline lacks queue-send"; failures=$((failures + 1)); }
expect 0 "the same counts pass" "$guard" --baseline "$work/base" "$work/base.txt"
output "$work/within.txt" "kernel X, compiler Y" 112.0
expect 0 "+1.8% passes at 2%" "$guard" --baseline "$work/base" "$work/within.txt"
output "$work/over.txt" "kernel X, compiler Y" 113.0
expect 1 "+2.7% fails at 2%" "$guard" --baseline "$work/base" "$work/over.txt"
grep -q 'queue-send .*REGRESSION' "$work/last.txt" || { echo "FAIL: the regression is not named"; failures=$((failures + 1)); }
expect 0 "+2.7% passes at 5%" "$guard" --threshold 5 --baseline "$work/base" "$work/over.txt"
grep -v 'sem-give' "$work/base.txt" >"$work/missing.txt"
expect 1 "a missing operation fails" "$guard" --baseline "$work/base" "$work/missing.txt"
output "$work/other.txt" "kernel Z, compiler Y" 200.0
expect 77 "another build skips" "$guard" --baseline "$work/base" "$work/other.txt"
grep -v 'done' "$work/base.txt" >"$work/cut.txt"
expect 1 "an output without its end is refused" "$guard" --baseline "$work/base" "$work/cut.txt"
expect 2 "no baseline option is a usage error" "$guard" "$work/base.txt"
expect 0 "--help" "$guard" --help
[ $failures -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "layer-cost guard: all cases passed"
