#!/bin/sh
# Compare the differential suite's output of rtipc's Linux runner with the
# real kernel's (tests/differential/README.md).
#
#   compare.sh [--table DOC] KERNEL.txt RTIPC.txt
#   compare.sh --runner PROG [--table DOC] KERNEL.txt WORKDIR [-- RUNNER-ARGS...]
#
# With --runner, PROG is run first (its output goes to WORKDIR/rtipc.txt,
# with RUNNER-ARGS, e.g. --scenario 'mutex.*'); its exit status 77 (it cannot
# run here) is passed on. Only the scenarios present in the rtipc output are
# compared, so a run of one scenario compares that one.
#
# DOC (docs/porting.md) holds the table of intended differences: rows
# "| `scenario` | `kernel line` | `rtipc line` | why |" under the header
# "| scenario | kernel line | rtipc line | why |". In the named scenario the
# rtipc line stands for the kernel line; a kernel line "(none)" means the
# rtipc line has no counterpart on the kernel. Every row must be used (both lines
# present) whenever its scenario was run, so the table cannot go stale.
# Exit 0 when the outputs agree, 1 otherwise (a unified diff is printed).
set -u
runner=
table=
while [ $# -gt 0 ]; do
    case $1 in
    --runner) runner=$2; shift 2 ;;
    --table) table=$2; shift 2 ;;
    --help|-h) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    --) shift; break ;;
    -*) echo "compare.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
    esac
done
if [ $# -lt 2 ]; then
    echo "usage: compare.sh [--runner PROG] [--table DOC] KERNEL.txt RTIPC.txt|WORKDIR [-- RUNNER-ARGS...]" >&2
    exit 2
fi
kernel=$1
second=$2
shift 2
[ "${1:-}" = "--" ] && shift

if [ -n "$runner" ]; then
    work=$second
    mkdir -p "$work" || exit 1
    rtipc=$work/rtipc.txt
    rm -f "$rtipc"
    start=$(date +%s)
    "$runner" -o "$rtipc" "$@"
    rc=$?
    if [ "$rc" -eq 77 ]; then
        exit 77
    fi
    echo "differential: the Linux runner took $(( $(date +%s) - start )) s (exit $rc)"
    [ -f "$rtipc" ] || { echo "differential: the runner wrote no output" >&2; exit 1; }
else
    rtipc=$second
    work=$(mktemp -d) || exit 1
    trap 'rm -rf "$work"' EXIT
fi
[ -r "$kernel" ] || { echo "differential: cannot read $kernel" >&2; exit 1; }

# The table, as scenario<TAB>kernel line<TAB>rtipc line.
: >"$work/table.tsv"
if [ -n "$table" ]; then
    awk '
        /^\| scenario \| kernel line \| rtipc line \| why \|/ { on = 1; next }
        on && /^\|[- |]+\|$/ { next }
        on && !/^\|/ { on = 0 }
        on {
            line = $0
            sub(/^\| */, "", line)
            n = split(line, cell, / \| /)
            if (n < 4) { print "bad row: " $0 > "/dev/stderr"; bad = 1; next }
            for (i = 1; i <= 3; ++i) {
                c = cell[i]
                sub(/^ *`/, "", c); sub(/` *$/, "", c)
                cell[i] = c
            }
            print cell[1] "\t" cell[2] "\t" cell[3]
            ++rows
        }
        END { if (bad) exit 1; if (!rows) { print "no intended-difference table found" > "/dev/stderr"; exit 1 } }
    ' "$table" >"$work/table.tsv" || { echo "differential: cannot read the table of $table" >&2; exit 1; }
fi

# Scenarios of this run, and the kernel's lines for them.
grep '^== ' "$rtipc" | sed 's/^== //' >"$work/scenarios.txt"
awk 'FNR == NR { want[$0] = 1; next }
     /^#/ || /^$/ { next }
     /^== / { keep = (substr($0, 4) in want) }
     keep' "$work/scenarios.txt" "$kernel" >"$work/kernel.sel"
grep -v '^#' "$rtipc" | sed '/^$/d' >"$work/rtipc.raw"

# Apply the table: in each row's scenario, its rtipc line reads as its
# kernel line. Rows of scenarios not run are left aside; used rows are counted.
awk -F '\t' -v usedfile="$work/used.txt" '
    FILENAME == ARGV[1] { scen[NR] = $1; kline[NR] = $2; rline[NR] = $3; rows = NR; next }
    FILENAME == ARGV[2] { ran[$0] = 1; next }
    FILENAME == ARGV[3] {
        if (substr($0, 1, 3) == "== ") cur = substr($0, 4)
        for (i = 1; i <= rows; ++i) if (scen[i] == cur && (kline[i] == $0 || kline[i] == "(none)")) kseen[i] = 1
        next
    }
    {
        if (substr($0, 1, 3) == "== ") cur = substr($0, 4)
        out = $0
        for (i = 1; i <= rows; ++i)
            if (scen[i] == cur && rline[i] == $0) { out = kline[i]; rseen[i] = 1; break }
        if (out != "(none)") print out
    }
    END {
        for (i = 1; i <= rows; ++i) {
            if (!(scen[i] in ran)) continue
            if (!kseen[i] || !rseen[i])
                printf "%s\t%s\t%s\n", scen[i],
                       !kseen[i] && !rseen[i] ? "neither line found" : !kseen[i] ? "kernel line not found" : "rtipc line not found",
                       kline[i] " | " rline[i] > usedfile
        }
    }' "$work/table.tsv" "$work/scenarios.txt" "$work/kernel.sel" "$work/rtipc.raw" >"$work/rtipc.norm"

status=0
nscen=$(wc -l <"$work/scenarios.txt")
if ! diff -u --label "kernel ($kernel)" --label "rtipc ($rtipc, intended differences applied)" \
        "$work/kernel.sel" "$work/rtipc.norm" >"$work/diff.txt"; then
    cat "$work/diff.txt"
    # The scenarios whose lines differ.
    awk 'function flush() { if (name != "") { if (file == 1) k[name] = block; else r[name] = block }; name = "" }
         FNR == 1 { flush(); ++file }
         /^== / { flush(); name = substr($0, 4); block = ""; next }
         { block = block "\n" $0 }
         END { flush()
               for (n in r) if (!(n in k) || k[n] != r[n]) print n
               for (n in k) if (!(n in r)) print n }' "$work/kernel.sel" "$work/rtipc.norm" |
        sort >"$work/differ.txt"
    ndiff=$(wc -l <"$work/differ.txt")
    echo "differential: $ndiff of $nscen scenarios differ from the kernel:" $(cat "$work/differ.txt") >&2
    status=1
fi
if [ -s "$work/used.txt" ]; then
    echo "differential: intended-difference rows of $table that this run did not match:" >&2
    awk -F '\t' '{ printf "  %s: %s (row: %s)\n", $1, $2, $3 }' "$work/used.txt" >&2
    status=1
fi
if [ "$status" -eq 0 ]; then
    rows=$(awk -F '\t' 'FNR == NR { ran[$0] = 1; next } ($1 in ran)' "$work/scenarios.txt" "$work/table.tsv" | wc -l)
    echo "differential: all $nscen scenarios agree with the kernel ($rows intended differences applied)"
fi
exit $status
