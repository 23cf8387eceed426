#!/bin/sh
# Model-check rtipc's lock-free protocols with spin (tests/model/README.md).
#
#   tests/model/run.sh [--full] [WORKDIR]
#
# Every model is checked exhaustively in each configuration listed below and
# must pass: errors: 0, and a complete search (no "search depth too small",
# no truncation). Every mutant (a deliberately broken copy of the protocol,
# chosen with a -D macro) must FAIL: that shows the check can see the bug
# the protocol guards against. One line per run: outcome, states stored,
# depth reached, memory, time and the bounds.
#
# --full adds the larger configurations (about 1 GiB of memory, a minute).
# WORKDIR (default: a temporary directory) keeps the generated verifiers and
# the outputs; the trail of a failing run is there too.
#
# Exit status: 0 all as expected, 1 a model failed or a mutant passed,
# 77 spin or a C compiler is missing (the test is skipped).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
full=0
if [ "${1:-}" = "--full" ]; then
    full=1
    shift
fi
if ! command -v spin >/dev/null 2>&1; then
    echo "model: spin is not installed (Debian package spin); skipped"
    exit 77
fi
CC=${CC:-cc}
if ! command -v "$CC" >/dev/null 2>&1; then
    echo "model: no C compiler ($CC); skipped"
    exit 77
fi
if [ $# -ge 1 ]; then
    work=$1
    mkdir -p "$work"
else
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
fi

DEPTH=100000
failures=0
runs=0

# check NAME MODEL EXPECT MODE DEFINES
#   EXPECT pass|fail; MODE safety (assertions, invalid end states) or
#   ltl:NAME (acceptance cycles of the formula NAME under weak fairness).
check() {
    name=$1 model=$2 expect=$3 mode=$4 defines=$5
    dir=$work/$name
    rm -rf "$dir"
    mkdir -p "$dir"
    cp "$here"/*.pml "$dir/" # the model and what it includes
    runs=$((runs + 1))
    # shellcheck disable=SC2086
    if ! (cd "$dir" && spin $defines -a "$model" >spin.out 2>&1); then
        echo "FAIL $name: spin could not generate the verifier (see $dir/spin.out)"
        failures=$((failures + 1))
        return
    fi
    case $mode in
    safety) cflags="-DSAFETY -DNOCLAIM" pflags="" ;;
    ltl:*) cflags="" pflags="-a -f -N ${mode#ltl:}" ;;
    esac
    # shellcheck disable=SC2086
    if ! (cd "$dir" && $CC -O2 -w $cflags -o pan pan.c >cc.out 2>&1); then
        echo "FAIL $name: the verifier did not compile (see $dir/cc.out)"
        failures=$((failures + 1))
        return
    fi
    # shellcheck disable=SC2086
    (cd "$dir" && ./pan -m$DEPTH $pflags >pan.out 2>&1) || true
    out=$dir/pan.out
    errors=$(sed -n 's/.*errors: \([0-9][0-9]*\).*/\1/p' "$out" | tail -n 1)
    states=$(sed -n 's/^ *\([0-9.e+]*\) states, stored.*/\1/p' "$out" | tail -n 1)
    depth=$(sed -n 's/.*depth reached \([0-9]*\).*/\1/p' "$out" | tail -n 1)
    mem=$(sed -n 's/^ *\([0-9.]*\)[[:space:]]*total actual memory usage.*/\1/p' "$out" | tail -n 1)
    secs=$(sed -n 's/^pan: elapsed time \([0-9.e+-]*\) seconds.*/\1/p' "$out" | tail -n 1)
    what=$(grep -m 1 -E '^pan:[0-9]+: ' "$out" | sed 's/^pan:[0-9]*: //; s/ (at depth.*//' || true)
    incomplete=""
    if grep -q -E 'search depth too small|max search depth too small|reached -DMEMLIM|out of memory|aborted' "$out"; then
        incomplete=yes
    fi
    stats="states=${states:-?} depth=${depth:-?} mem=${mem:-?}MB time=${secs:-?}s [${defines:-defaults}; $mode]"
    if [ -z "$errors" ]; then
        echo "FAIL $name: no verdict from pan (see $out)"
        failures=$((failures + 1))
    elif [ "$expect" = pass ]; then
        if [ "$errors" = 0 ] && [ -z "$incomplete" ]; then
            echo "pass $name: complete search, errors: 0, $stats"
        else
            echo "FAIL $name: errors: $errors${incomplete:+, search incomplete}: $what; $stats (trail in $dir)"
            failures=$((failures + 1))
        fi
    else
        if [ "$errors" != 0 ]; then
            echo "pass $name (mutant caught): $what; $stats"
        else
            echo "FAIL $name: the mutant passed; the model does not see this bug; $stats"
            failures=$((failures + 1))
        fi
    fi
}

# ---- SPSC ring indices (spsc.pml) ------------------------------------------
check spsc spsc.pml pass safety "-DCAP=2 -DIDXBITS=3 -DITEMS=5 -DSIZE_CALLS=2"
check spsc-cap4 spsc.pml pass safety "-DCAP=4 -DIDXBITS=3 -DITEMS=5 -DSIZE_CALLS=1"
for m in MUT_PUBLISH_FIRST MUT_HEAD_EARLY MUT_SIZE_TAIL_FIRST MUT_NO_REFRESH; do
    check "spsc-$m" spsc.pml fail safety "-D$m"
done
[ $full = 1 ] && check spsc-cap4-full spsc.pml pass safety "-DCAP=4 -DIDXBITS=3 -DITEMS=6 -DSIZE_CALLS=2"

# ---- SPSC blocking push/pop: sleeping flags over park/unpark (spsc_block.pml)
check spsc-block spsc_block.pml pass safety "-DTIMED -DCAP=1 -DITEMS=3 -DSPURIOUS=1"
check spsc-block-cap2 spsc_block.pml pass safety "-DTIMED -DCAP=2 -DITEMS=4 -DSPURIOUS=1"
check spsc-block-live spsc_block.pml pass ltl:alldone "-DTIMED -DCAP=1 -DITEMS=3 -DSPURIOUS=1"
check spsc-block-MUT_FLAG_AFTER spsc_block.pml fail safety "-DTIMED -DMUT_FLAG_AFTER"
check spsc-block-MUT_NO_PEER_CHECK spsc_block.pml fail safety "-DTIMED -DMUT_NO_PEER_CHECK"
check spsc-block-MUT_RAISE_ABANDONED spsc_block.pml fail safety "-DTIMED -DMUT_RAISE_ABANDONED"

# ---- mailbox versions (mailbox.pml) ------------------------------------------
check mailbox mailbox.pml pass safety "-DWORDS=2 -DWRITERS=1 -DWRITES=3 -DREADERS=2 -DREADS=2"
check mailbox-live mailbox.pml pass ltl:done "-DWORDS=2 -DWRITERS=1 -DWRITES=3 -DREADERS=2 -DREADS=2"
check mailbox-2writers mailbox.pml pass safety "-DWORDS=2 -DWRITERS=2 -DWRITES=2 -DREADERS=1 -DREADS=2"
for m in MUT_NO_RECHECK MUT_LOOSE_RECHECK MUT_SAME_COPY; do
    check "mailbox-$m" mailbox.pml fail safety "-D$m"
done

# ---- park/unpark and the blocking loop (park.pml) ------------------------------
check park park.pml pass safety "-DQLEN=1 -DSPURIOUS=1"
check park-live park.pml pass ltl:alldone "-DQLEN=1 -DSPURIOUS=1"
check park-delete park.pml pass safety "-DDELETE -DQLEN=1 -DSPURIOUS=0"
for m in MUT_CHECK_BEFORE_BUMP MUT_STORE_ANNOUNCE MUT_SEEN_AFTER_CHECK; do
    check "park-$m" park.pml fail safety "-D$m"
done
check park-MUT_NO_PASS_ON park.pml fail safety "-DDELETE -DSPURIOUS=0 -DMUT_NO_PASS_ON"
[ $full = 1 ] && check park-delete-full park.pml pass safety "-DDELETE -DQLEN=1 -DSPURIOUS=1"

if [ $failures -ne 0 ]; then
    echo "model: $failures of $runs runs not as expected"
    exit 1
fi
echo "model: all $runs runs as expected (models pass, mutants fail)"
