#!/bin/sh
# Instruction-count guard for rtipc's hot calls (CTest: perf_op_costs).
#
# Runs tests/perf/op_costs twice under valgrind's callgrind, takes each
# operation's instructions per call (Ir of its measured loop / calls, the
# loop's own few instructions included), checks that both runs counted
# exactly the same, prints a table and compares it with the checked-in
# baseline tests/perf/op_costs.baseline. Instruction counts do not depend on
# the machine's load, so unlike timings they can be asserted.
#
#   op_costs.sh [--update] [--threshold PCT] [--baseline FILE]
#               [--valgrind PATH] [--work DIR] OP_COSTS_PROGRAM
#
#   (default)        compare: fail when an operation costs more than PCT
#                    percent above its baseline figure; an operation more
#                    than PCT percent below it only prints a note suggesting
#                    to refresh the baseline.
#   --update         (re)write the baseline from this run instead.
#   --threshold PCT  default 10, or $OP_COSTS_THRESHOLD when set.
#   --baseline FILE  default op_costs.baseline next to this script.
#   --valgrind PATH  default: valgrind from PATH.
#   --work DIR       keep callgrind's dump files in DIR/run1 and DIR/run2
#                    (default: a temporary directory, removed at exit).
#
# The baseline belongs to the build it was recorded with: its header names
# the compiler, build type, architecture and C library (the counts include
# glibc's code), and this script skips (status 77) when the program was
# built otherwise. rtipc_cycles is compared only when the counter source
# (header "cycles") is the same: without an invariant TSC it reads
# CLOCK_MONOTONIC_RAW, a different code path.
#
# Refresh the baseline after an intended change, from the Release gcc build
# that `make check` uses:
#   make build
#   tests/perf/op_costs.sh --update build/release/tests/op_costs
#
# Exit status: 0 within the threshold (or baseline written); 1 a regression,
# counts that differ between the two runs, or a failed run; 2 usage error;
# 77 skipped (build differs from the baseline's).
set -u
export LC_ALL=C # sort/join collation and awk's decimal point

here=$(cd "$(dirname "$0")" && pwd)
update=no
threshold=${OP_COSTS_THRESHOLD:-10}
baseline=$here/op_costs.baseline
valgrind=valgrind
work=

usage() {
    echo "usage: op_costs.sh [--update] [--threshold PCT] [--baseline FILE] [--valgrind PATH] [--work DIR] OP_COSTS_PROGRAM"
}
usage_error() {
    echo "op_costs.sh: $*" >&2
    usage >&2
    exit 2
}
die() {
    echo "op_costs.sh: $*" >&2
    exit 1
}

while [ $# -gt 0 ]; do
    case $1 in
    -h | --help) sed -n '2,/^set -u/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
    --update) update=yes ;;
    --threshold | --baseline | --valgrind | --work)
        [ $# -ge 2 ] || usage_error "$1 needs a value"
        case $1 in
        --threshold) threshold=$2 ;;
        --baseline) baseline=$2 ;;
        --valgrind) valgrind=$2 ;;
        --work) work=$2 ;;
        esac
        shift ;;
    -*) usage_error "unknown option $1" ;;
    *) break ;;
    esac
    shift
done
[ $# -eq 1 ] || usage_error "expected one OP_COSTS_PROGRAM"
program=$1
echo "$threshold" | grep -Eq '^[0-9]+([.][0-9]+)?$' || usage_error "--threshold wants a percentage, got '$threshold'"

[ -x "$program" ] || die "$program is not an executable"
command -v "$valgrind" >/dev/null 2>&1 || die "valgrind not found ($valgrind); Debian package valgrind"

if [ -n "$work" ]; then
    rm -rf "$work/run1" "$work/run2"
    mkdir -p "$work" || die "cannot create $work"
else
    work=$(mktemp -d "${TMPDIR:-/tmp}/op_costs.XXXXXX") || die "cannot create a temporary directory"
    trap 'rm -rf "$work"' EXIT
fi

# Value of header KEY in a "key: value" file (baseline lines start with "# ").
header_value() { # header_value KEY FILE
    sed -n "s/^\(# \)\{0,1\}$1: //p" "$2" | head -n 1
}

"$program" --describe >"$work/describe" || die "$program --describe failed"
if [ "$update" = no ]; then
    [ -r "$baseline" ] || die "no baseline $baseline; record one with --update"
    for key in compiler build arch libc; do
        want=$(header_value "$key" "$baseline")
        got=$(header_value "$key" "$work/describe")
        if [ "$want" != "$got" ]; then
            echo "SKIP: the baseline was recorded with $key '$want', this program was built with '$got';"
            echo "      instruction counts are comparable only within one toolchain and build type."
            exit 77
        fi
    done
fi

# run_once DIR: one callgrind run, its dumps in DIR; writes DIR/costs with
# lines "NAME IR CALLS". Collection is off except inside the measured loops,
# and then only for the thread that switched it on. LD_BIND_NOW resolves
# every symbol at start-up, so no count can include the dynamic linker's lazy
# binding (the program's warm-up would see to that too).
run_once() {
    mkdir -p "$1"
    if ! LD_BIND_NOW=1 "$valgrind" --tool=callgrind --collect-atstart=no --dump-instr=no --dump-line=no \
        --callgrind-out-file="$1/callgrind.out" "$program" >"$1/stdout" 2>"$1/stderr"; then
        cat "$1/stderr" >&2
        die "the callgrind run of $program failed"
    fi
    # Each client-request dump names its operation in its "desc: Trigger"
    # line; "totals:" holds its Ir (the only event collected).
    set -- "$1" "$1"/callgrind.out.*
    [ -e "$2" ] || die "callgrind wrote no dumps in $1 (was the program built with valgrind/callgrind.h?)"
    for dump in "$1"/callgrind.out.*; do
        awk '/^desc: Trigger: Client Request: / { name = $5 }
             /^totals: / { ir = $2 }
             END { if (name != "") print name, ir }' "$dump"
    done | sort >"$1/dumped"
    awk '$1 == "op" { print $2, $3 }' "$1/stdout" | sort >"$1/ops"
    [ -s "$1/ops" ] || die "$program reported no operations"
    join "$1/dumped" "$1/ops" >"$1/costs"
    matched=$(wc -l <"$1/costs")
    if [ "$matched" -ne "$(wc -l <"$1/ops")" ] || [ "$matched" -ne "$(wc -l <"$1/dumped")" ]; then
        die "the dumps in $1 do not match the operations $program reported"
    fi
}

run_once "$work/run1"
run_once "$work/run2"
if ! cmp -s "$work/run1/costs" "$work/run2/costs"; then
    echo "op_costs.sh: two runs counted different instructions (name, Ir, calls):" >&2
    diff "$work/run1/costs" "$work/run2/costs" >&2
    die "the counts are not repeatable"
fi
cycles=$(header_value cycles "$work/run1/stdout")

# Per-operation figures with one decimal, in the program's order.
awk '$1 == "op" { print $2 }' "$work/run1/stdout" >"$work/order"
awk 'NR == FNR { ir[$1] = $2; calls[$1] = $3; next }
     { printf "%s %.1f\n", $1, ir[$1] / calls[$1] }' "$work/run1/costs" "$work/order" >"$work/per_op"

if [ "$update" = yes ]; then
    {
        echo "# rtipc instructions per operation (callgrind Ir per call, loop included)."
        echo "# Written by tests/perf/op_costs.sh --update; checked by the perf_op_costs test."
        sed "s/^cycles: .*/cycles: $cycles/; s/^/# /" "$work/describe"
        cat "$work/per_op"
    } >"$baseline.tmp" || die "cannot write $baseline.tmp"
    mv "$baseline.tmp" "$baseline" || die "cannot write $baseline"
    printf '%-30s %12s\n' operation instructions
    awk '{ printf "%-30s %12.1f\n", $1, $2 }' "$work/per_op"
    echo "baseline written: $baseline"
    exit 0
fi

base_cycles=$(header_value cycles "$baseline")
grep -v '^#' "$baseline" | awk 'NF == 2' >"$work/baseline" || true
[ -s "$work/baseline" ] || die "$baseline holds no figures; record them with --update"
echo "instructions per operation; baseline $(header_value compiler "$baseline"), threshold ${threshold}%"
awk -v threshold="$threshold" -v same_cycles="$([ "$cycles" = "$base_cycles" ] && echo 1 || echo 0)" \
    -v cycles="$cycles" -v base_cycles="$base_cycles" '
    NR == FNR { base[$1] = $2; next }
    FNR == 1 { printf "%-30s %10s %10s %8s\n", "operation", "baseline", "now", "change" }
    {
        name = $1; now = $2; seen[name] = 1
        if (!(name in base)) {
            printf "%-30s %10s %10.1f %8s  new: not in the baseline\n", name, "-", now, "-"
            notes = notes "\n  " name ": not in the baseline; add it with --update"
            next
        }
        change = (now - base[name]) * 100 / base[name]
        flag = ""
        if (name == "rtipc_cycles" && !same_cycles) {
            flag = "  not compared: counter " cycles ", baseline " base_cycles
        } else if (change > threshold) {
            flag = "  REGRESSION"
            offenders = offenders sprintf("\n  %s: %.1f -> %.1f instructions (%+.1f%%)", name, base[name], now, change)
        } else if (change < -threshold) {
            flag = "  cheaper"
            notes = notes sprintf("\n  %s: %.1f -> %.1f (%+.1f%%); refresh the baseline with --update", name, base[name], now, change)
        }
        printf "%-30s %10.1f %10.1f %+7.1f%%%s\n", name, base[name], now, change, flag
    }
    END {
        for (name in base)
            if (!(name in seen))
                offenders = offenders "\n  " name ": in the baseline but no longer measured"
        if (notes != "") print "note:" notes
        if (offenders != "") { print "FAIL (threshold " threshold "%):" offenders; exit 1 }
        print "ok: no operation above the baseline by more than " threshold "%"
    }' "$work/baseline" "$work/per_op"
