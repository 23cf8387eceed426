#!/bin/sh
# Instruction-count guard for rtipc's layer over a FreeRTOS kernel: reads
# what a layer-cost firmware printed (tests/perf/layer_cost.h; built per
# target, run by scripts/check-freertos.sh and scripts/check-rv32.sh) and
# compares it with the target's checked-in baseline
# (tests/perf/layer_cost-TARGET.baseline).
#
#   layer_cost.sh [--update] [--threshold PCT] --baseline FILE OUTPUT
#
#   (default)        compare: fail when one of rtipc's calls costs more than
#                    PCT percent above its baseline figure, or an operation
#                    of the baseline is missing; one more than PCT percent
#                    below only prints a note suggesting to refresh it.
#   --update         (re)write the baseline from OUTPUT instead.
#   --threshold PCT  default 2, or $LAYER_COST_THRESHOLD when set: the counts
#                    are exact, so only a change of the code moves them.
#   --baseline FILE  the target's baseline.
#
# Each line of the table also gives rtipc's count over the kernel's for the
# same work, and flags those above issue 42's 1.10x. The baseline belongs to
# the kernel and compiler it was recorded with (its header, from the
# firmware's "layer-cost build" line); with another, the script skips
# (status 77).
#
# Refresh after an intended change, e.g. on the Cortex-M3:
#   FREERTOS_CHECKS=cm3 scripts/check-freertos.sh
#   tests/perf/layer_cost.sh --update --baseline tests/perf/layer_cost-cm3.baseline \
#       build/freertos-cm3-V11.3.0/layer-cost.txt
#
# Exit status: 0 within the threshold (or baseline written); 1 a
# regression, a missing operation or unreadable output; 2 usage error; 77
# skipped (another kernel or compiler than the baseline's).
set -u
export LC_ALL=C

update=no
threshold=${LAYER_COST_THRESHOLD:-2}
baseline=
target_ratio=1.10

usage() { echo "usage: layer_cost.sh [--update] [--threshold PCT] --baseline FILE OUTPUT"; }
usage_error() {
    echo "layer_cost.sh: $*" >&2
    usage >&2
    exit 2
}
die() {
    echo "layer_cost.sh: $*" >&2
    exit 1
}

while [ $# -gt 0 ]; do
    case $1 in
    -h | --help) sed -n '2,/^set -u/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
    --version) echo "layer_cost.sh (rtipc)"; exit 0 ;;
    --update) update=yes ;;
    --threshold | --baseline)
        [ $# -ge 2 ] || usage_error "$1 needs a value"
        case $1 in
        --threshold) threshold=$2 ;;
        --baseline) baseline=$2 ;;
        esac
        shift ;;
    --) shift; break ;;
    -*) usage_error "unknown option $1" ;;
    *) break ;;
    esac
    shift
done
[ $# -eq 1 ] || usage_error "expected one OUTPUT (what the layer-cost firmware printed)"
[ -n "$baseline" ] || usage_error "--baseline FILE is required"
output=$1
echo "$threshold" | grep -Eq '^[0-9]+([.][0-9]+)?$' || usage_error "--threshold wants a percentage, got '$threshold'"
[ -r "$output" ] || die "cannot read $output"
grep -q '^layer-cost done' "$output" || die "$output does not end its measurement ('layer-cost done' missing)"

work=$(mktemp -d "${TMPDIR:-/tmp}/layer_cost.XXXXXX") || die "cannot create a temporary directory"
trap 'rm -rf "$work"' EXIT

# "layer-cost OP rtipc R kernel K ratio X" -> "OP R K"
awk '$1 == "layer-cost" && $3 == "rtipc" && $5 == "kernel" { print $2, $4, $6 }' "$output" | tr -d '\r' >"$work/now"
[ -s "$work/now" ] || die "$output holds no layer-cost lines"
build=$(sed -n 's/^layer-cost build: //p' "$output" | tr -d '\r' | head -n 1)
[ -n "$build" ] || die "$output has no 'layer-cost build:' line"

if [ "$update" = yes ]; then
    {
        echo "# rtipc's layer over the kernel: instructions per call (rtipc, kernel's own), loop included."
        echo "# Written by tests/perf/layer_cost.sh --update from a layer-cost firmware's output."
        echo "# build: $build"
        cat "$work/now"
    } >"$baseline.tmp" || die "cannot write $baseline.tmp"
    mv "$baseline.tmp" "$baseline" || die "cannot write $baseline"
    echo "baseline written: $baseline"
    exit 0
fi

[ -r "$baseline" ] || die "no baseline $baseline; record one with --update"
want=$(sed -n 's/^# build: //p' "$baseline" | head -n 1)
if [ "$want" != "$build" ]; then
    echo "SKIP: the baseline was recorded with '$want', this firmware was built with '$build';"
    echo "      instruction counts are comparable only within one kernel and compiler."
    exit 77
fi
grep -v '^#' "$baseline" | awk 'NF == 3' >"$work/base"
[ -s "$work/base" ] || die "$baseline holds no figures; record them with --update"

echo "instructions per call; baseline $build, threshold ${threshold}%, target rtipc/kernel <= $target_ratio"
awk -v threshold="$threshold" -v target="$target_ratio" '
    NR == FNR { base[$1] = $2; order[++n] = $1; next }
    { now[$1] = $2; kern[$1] = $3 }
    END {
        printf "%-24s %9s %9s %8s %9s %7s\n", "operation", "baseline", "rtipc", "change", "kernel", "ratio"
        bad = 0
        for (i = 1; i <= n; i++) {
            name = order[i]
            if (!(name in now)) {
                printf "%-24s %9.1f %9s  MISSING from the output\n", name, base[name], "-"
                bad = 1
                continue
            }
            change = (now[name] - base[name]) * 100 / base[name]
            ratio = kern[name] > 0 ? now[name] / kern[name] : 0
            flag = ""
            if (change > threshold) { flag = "  REGRESSION"; bad = 1 }
            else if (change < -threshold) flag = "  cheaper: refresh the baseline with --update"
            if (ratio > target) flag = flag "  (over " target "x)"
            printf "%-24s %9.1f %9.1f %+7.1f%% %9.1f %7.3f%s\n", name, base[name], now[name], change, kern[name], ratio, flag
        }
        for (name in now) if (!(name in base))
            printf "%-24s %9s %9.1f  new: not in the baseline; add it with --update\n", name, "-", now[name]
        exit bad
    }' "$work/base" "$work/now"
rc=$?
[ $rc -eq 0 ] || echo "layer_cost.sh: rtipc's calls cost more than the baseline allows (or one is missing)" >&2
exit $rc
