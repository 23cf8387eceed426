#!/bin/sh
# One reader for compare, audit and report (bench/results/read.h): each
# invalid file is refused by all three with status 2 and the same reason;
# a null, missing or non-finite figure makes a claim not testable, never a
# verdict ("nan", "xinf"); hostile inputs cost bounded time: 20,000 rows,
# a small file of huge histogram counts, /dev/zero, too many rows, each
# within 10 s (generous: the fixed reader needs well under one).
#   bench_input.sh RTIPC_BENCH DATA_DIR WORKDIR
set -u
bench=$1 data=$2 work=$3
base=$data/base.json one=$data/one-core.json
rm -rf "$work"
mkdir -p "$work" || { echo "FAIL: cannot create $work" >&2; exit 1; }
out=$work/out.txt err=$work/err.txt
fail() { echo "FAIL: $*" >&2; exit 1; }
# within SECONDS STATUS COMMAND...: the command exits STATUS within SECONDS.
within() {
    limit=$1 want=$2; shift 2
    start=$(date +%s)
    timeout "$((limit + 20))" "$@" >"$out" 2>"$err"; got=$?
    took=$(($(date +%s) - start))
    [ "$got" -eq "$want" ] || { tail -n 5 "$out" "$err"; fail "'$*' exited $got, expected $want"; }
    [ "$took" -le "$limit" ] || fail "'$*' took $took s (bound $limit s)"
}
derive() { # derive NAME FILE SED-SCRIPT: $work/NAME.json; the script must change FILE
    sed -e "$3" "$2" >"$work/$1.json" || fail "sed for $1"
    cmp -s "$2" "$work/$1.json" && fail "derive $1: the sed script changed nothing"
    return 0
}

# refused FILE REASON: compare, audit and report all exit 2 with one line
# "rtipc-bench CMD: FILE: REASON..." whose text after the command is the same.
refused() {
    file=$1 reason=$2
    "$bench" compare "$file" "$base" >/dev/null 2>"$work/c.err"; c=$?
    "$bench" audit "$file" >"$work/a.out" 2>"$work/a.err"; a=$?
    "$bench" report "$file" "$work/report" >/dev/null 2>"$work/r.err"; r=$?
    [ "$c" -eq 2 ] && [ "$a" -eq 2 ] && [ "$r" -eq 2 ] ||
        { cat "$work/c.err" "$work/a.err" "$work/r.err"; fail "$file: compare $c, audit $a, report $r (all must be 2)"; }
    for f in c a r; do
        [ "$(wc -l <"$work/$f.err")" -eq 1 ] || { cat "$work/$f.err"; fail "$file: not one line on stderr"; }
        sed 's/^rtipc-bench [a-z]*: //' "$work/$f.err" >"$work/$f.why"
    done
    cmp -s "$work/c.why" "$work/a.why" && cmp -s "$work/c.why" "$work/r.why" ||
        { cat "$work/c.err" "$work/a.err" "$work/r.err"; fail "$file: the three commands give different reasons"; }
    grep -qF -- "$file: $reason" "$work/c.why" || { cat "$work/c.err"; fail "$file: expected '$reason'"; }
    grep -q "claim audit" "$work/a.out" && fail "$file: an audit printed for a refused file"
    [ -e "$work/report/index.html" ] && fail "$file: a report written for a refused file"
    return 0
}

# What compare refused and audit or report took before.
echo '{"schema": "rtipc-bench/1"}' >"$work/schema-only.json"
refused "$work/schema-only.json" '"results" is missing'
derive n0 "$one" 's/"n": 1000, "min": 650/"n": 0, "min": 650/'
refused "$work/n0.json" 'results[7]: "n" is not a count >= 1'
derive nneg "$one" 's/"n": 1000, "min": 650/"n": -3, "min": 650/'
refused "$work/nneg.json" 'results[7]: "n" is not a count >= 1'
derive nfrac "$one" 's/"n": 1000, "min": 650/"n": 2.5, "min": 650/'
refused "$work/nfrac.json" 'results[7]: "n" is not a count >= 1'
derive nstr "$one" 's/"n": 1000, "min": 650/"n": "many", "min": 650/'
refused "$work/nstr.json" 'results[7]: "n" is not a count >= 1'
derive minstr "$one" 's/"n": 1000, "min": 650/"n": 1000, "min": "low"/'
refused "$work/minstr.json" 'results[7]: "min" is neither a number nor null'
derive noval "$one" 's/"metric": "memory", "unit": "B", "value": 900/"metric": "memory", "unit": "B"/'
refused "$work/noval.json" 'results[8] has neither "n" nor a "value"'
derive badci "$one" 's/"p50_ci95": \[698, 702\]/"p50_ci95": [702, 698]/'
refused "$work/badci.json" 'results[7]: p50_ci95 is not [lo, hi]'
derive badhist "$one" 's/"p50_ci95": \[698, 702\]/"histogram": {"sub_bucket_bits": 4, "buckets": [[700, 5], [690, 5]]}/'
refused "$work/badhist.json" 'results[7]: histogram buckets are not in increasing order'
derive badexp "$one" 's/"experiments": \[/"experiments": [7, /'
refused "$work/badexp.json" 'experiments[0] is not an object with a string "id"'
derive badclaims "$one" 's/"claims": \[/"claims": ["none", /'
refused "$work/badclaims.json" 'claims[0] is not an object'
echo '{"schema": "something-else/1", "results": []}' >"$work/foreign.json"
refused "$work/foreign.json" 'schema is "something-else/1"'
echo 'not json' >"$work/broken.json"
refused "$work/broken.json" 'not JSON'
: >"$work/empty.json"
refused "$work/empty.json" 'empty file'
refused "$work/no-such.json" 'cannot read: No such file or directory'
printf '{"schema": "rtipc-bench/1", "results": []}\0garbage' >"$work/nul.json"
refused "$work/nul.json" 'holds a NUL byte at offset 42'
# What the schema and JSON refuse and the reader took before: a tick rate
# that is no rate (claim 2 then said "no usable rows"), a \u0000 that cut a
# string, bytes that are not UTF-8, a leading zero, a name given twice in
# one object (the first one was read), and nesting too deep (said as a
# syntax error).
for t in 0 -0 0.5 1e999 -1000 2e6; do
    derive tick "$one" "s/\"tick_hz\": 1000/\"tick_hz\": $t/"
    refused "$work/tick.json" 'env.tick_hz is not a rate in Hz'
done
derive nulesc "$one" 's/"kernel": "none"/"kernel": "no\\u0000ne"/'
refused "$work/nulesc.json" 'a \u0000 (NUL) inside a string'
derive latin1 "$one" 's/"kernel": "none"/"kernel": "n\xe9ne"/'
refused "$work/latin1.json" 'not UTF-8 at byte'
derive lead0 "$one" 's/"n": 1000, "min": 650/"n": 01000, "min": 650/'
refused "$work/lead0.json" 'a number with a leading zero'
derive twice "$one" 's/"schema": "rtipc-bench\/1"/"schema": "rtipc-bench\/1", "schema": "other\/9"/'
refused "$work/twice.json" 'an object names "schema" twice'
{ printf '{"schema": "rtipc-bench/1", "results": [], "x": '; i=0; while [ $i -lt 600 ]; do printf '['; i=$((i + 1)); done
  i=0; while [ $i -lt 600 ]; do printf ']'; i=$((i + 1)); done; printf '}\n'; } >"$work/deep.json"
refused "$work/deep.json" 'nested deeper than 512 levels'
# Numbers JSON allows stay accepted: fractions and exponents with zeros.
derive zeros "$one" 's/"p50_ci95": \[698, 702\]/"p50_ci95": [698.05, 7.02e+02]/'
"$bench" audit "$work/zeros.json" >/dev/null 2>"$err" || { cat "$err"; fail "a fraction or exponent with zeros was refused"; }

# Nulls and non-finite figures: never a verdict, never "nan" or "inf".
no_nan() { ! grep -Eiq '(^|[^a-z])(nan|inf)([^a-z]|$)' "$out" || { cat "$out"; fail "$1: a nan or inf in the audit"; }; }
claim() { sed -n "s/^$1\. \[\([a-z-]*\)\].*/\1/p" "$out"; }
derive tnull "$one" '/"variant": "no-yield\/depth=1", "metric": "throughput"/s/"value": 1000/"value": null/'
within 10 0 "$bench" audit "$work/tnull.json"
[ "$(claim 2)" = "not-testable" ] || { cat "$out"; fail "a null throughput: claim 2 is $(claim 2)"; }
no_nan tnull
derive ynull "$one" '/"variant": "yield\/depth=1", "metric": "throughput"/s/"value": 18000/"value": null/'
within 10 0 "$bench" audit "$work/ynull.json"
[ "$(claim 2)" = "holds" ] || { cat "$out"; fail "a null optional figure changed claim 2 to $(claim 2)"; }
grep -q "with yield depth 1: missing" "$out" || { cat "$out"; fail "the null figure is not shown as missing"; }
no_nan ynull
derive zero "$one" 's/"p50": 5200,/"p50": 0,/;s/\[5190, 5210\]/[0, 0]/;s/"p50": 700,/"p50": 0,/;s/\[698, 702\]/[0, 0]/'
within 10 0 "$bench" audit "$work/zero.json"
[ "$(claim 7)" = "not-testable" ] || { cat "$out"; fail "0/0: claim 7 is $(claim 7)"; }
grep -q "is 0: no ratio" "$out" || { cat "$out"; fail "0/0 not explained"; }
no_nan zero
derive huge "$one" 's/"p50": 400, "p90": 430/"p50": 1e999, "p90": 430/'
within 10 0 "$bench" audit "$work/huge.json"
[ "$(claim 9)" = "not-testable" ] || { cat "$out"; fail "a non-finite p50: claim 9 is $(claim 9)"; }
no_nan huge
within 10 0 "$bench" compare "$one" "$work/huge.json"
grep -q "no p50 in new" "$out" || { cat "$out"; fail "compare: a non-finite p50 is not 'no p50'"; }
within 10 0 "$bench" report "$work/huge.json" "$work/huge-report"
[ -s "$work/huge-report/index.html" ] || fail "no report of a file with a non-finite p50"
derive cinull "$one" 's/"p50_ci95": \[399, 401\]/"p50_ci95": null/'
within 10 0 "$bench" audit "$work/cinull.json"
[ "$(claim 9)" = "not-testable" ] || { cat "$out"; fail "no interval: claim 9 is $(claim 9)"; }

# Hostile inputs: bounded time, and the limit named.
rows() { # rows N: N value rows, each its own unit, with long common prefixes
    awk -v n="$1" 'BEGIN {
        printf "{\"schema\": \"rtipc-bench/1\", \"results\": [\n"
        for (i = 0; i < n; i++)
            printf "%s{\"experiment\": \"experiment-with-a-long-common-prefix\", \"mechanism\": \"mechanism-with-a-long-common-prefix\", \"variant\": \"variant-with-a-long-common-prefix-%d\", \"metric\": \"metric\", \"unit\": \"u%d\", \"value\": %d}\n", i ? "," : "", i, i, i + 1
        print "]}" }'
}
rows 20000 >"$work/rows.json"
within 10 0 "$bench" compare "$work/rows.json" "$work/rows.json"
grep -q "^summary: 0 regressed, 0 improved, 0 same, 20000 info" "$out" || { tail -n 3 "$out"; fail "20,000 rows: wrong summary"; }
within 10 0 "$bench" audit "$work/rows.json"
within 10 0 "$bench" report "$work/rows.json" "$work/rows-report"
# 3,000 distributions in one experiment: the tail chart draws the first 64
# and says how many more the table holds (gnuplot's time grew with every
# curve: about 90 s for these).
awk 'BEGIN { printf "{\"schema\": \"rtipc-bench/1\", \"results\": [\n"
    for (i = 0; i < 3000; i++)
        printf "%s{\"experiment\": \"big\", \"mechanism\": \"m\", \"variant\": \"v%d\", \"metric\": \"latency\", \"unit\": \"ns\", \"n\": 100, \"min\": 1000, \"mean\": 1500, \"p50\": 1500, \"p90\": 1900, \"p99\": 1990, \"p999\": null, \"max\": 2000, \"stddev\": 100, \"p50_ci95\": [1490, 1510], \"histogram\": {\"sub_bucket_bits\": 4, \"buckets\": [[1000, 50], [%d, 50]]}}\n", i ? "," : "", i, 1100 + i
    print "]}" }' >"$work/dists.json"
if command -v gnuplot >/dev/null 2>&1; then
    within 60 0 "$bench" report "$work/dists.json" "$work/dists-report"
    grep -q "Only the first 64 rows are drawn: 2936 more distribution rows of this experiment are in its table" \
        "$work/dists-report/index.html" || fail "the tail chart of 3,000 rows does not say it drew 64"
else
    echo "note: gnuplot not installed: the bound on charted rows is not checked"
fi
awk 'BEGIN { printf "{\"schema\": \"rtipc-bench/1\", \"results\": [\n"
             for (i = 0; i < 100001; i++)
                 printf "%s{\"experiment\":\"e\",\"mechanism\":\"m\",\"variant\":\"%d\",\"metric\":\"x\",\"unit\":\"u\",\"value\":1}\n", i ? "," : "", i
             print "]}" }' >"$work/too-many.json"
[ "$(wc -c <"$work/too-many.json")" -lt 16000000 ] || fail "too-many.json is over the size limit"
within 10 2 "$bench" compare "$work/too-many.json" "$base"
grep -q "more than 100000 rows" "$err" || { cat "$err"; fail "too many rows: the limit is not named"; }
# Huge histogram counts in a few kilobytes: the bootstrap budget applies.
awk 'BEGIN {
    printf "{\"schema\": \"rtipc-bench/1\", \"results\": [\n"
    for (i = 0; i < 30; i++)
        printf "%s{\"experiment\": \"e\", \"mechanism\": \"m%d\", \"variant\": \"\", \"metric\": \"latency\", \"unit\": \"ns\", \"n\": 9000000000000000, \"p50\": 5, \"histogram\": {\"sub_bucket_bits\": 4, \"buckets\": [[4, 4000000000000000], [5, 5000000000000000]]}}\n", i ? "," : "", i
    print "]}" }' >"$work/counts.json"
[ "$(wc -c <"$work/counts.json")" -lt 8000 ] || fail "counts.json is not small"
within 10 0 "$bench" compare "$work/counts.json" "$work/counts.json"
grep -q "the bootstrap budget of 5e7 draws per file was spent" "$err" || { cat "$err"; fail "compare: the bootstrap limit is not named"; }
within 10 0 "$bench" audit "$work/counts.json"
grep -q "the bootstrap budget of 5e7 draws per file was spent" "$err" || { cat "$err"; fail "audit: the bootstrap limit is not named"; }
sed 's/"p50": 5,/"p50": 50,/' "$work/counts.json" >"$work/counts-up.json"
within 10 0 "$bench" compare "$work/counts.json" "$work/counts-up.json"
grep -q "has no interval (the bootstrap budget of 5e7 draws per file was spent)" "$out" ||
    { cat "$out"; fail "compare: a row past the budget does not say why it has no interval"; }
# /dev/zero: read up to the limit, then refused.
for cmd in "compare /dev/zero $base" "audit /dev/zero" "report /dev/zero $work/zero-report"; do
    # shellcheck disable=SC2086
    within 10 2 "$bench" $cmd
    grep -q "/dev/zero: larger than 16 MiB, the most a results file may hold" "$err" ||
        { cat "$err"; fail "$cmd: the size limit is not named"; }
done
# A FIFO nobody writes to: each command gives up after --timeout (it used
# to block in open() for ever), and reads one whose writer comes in time.
rm -f "$work/fifo" && mkfifo "$work/fifo" || fail "mkfifo"
for cmd in "compare --timeout 1 $work/fifo $base" "audit --timeout 1 $work/fifo" \
           "report --timeout 1 $work/fifo $work/fifo-report"; do
    # shellcheck disable=SC2086
    within 10 2 "$bench" $cmd
    grep -q "fifo: nothing to read within 1 s (a FIFO nobody writes to?); --timeout sets the wait" "$err" ||
        { cat "$err"; fail "$cmd: the wait is not named"; }
done
(sleep 1; cat "$one" >"$work/fifo") &
within 10 0 "$bench" audit --timeout 10 "$work/fifo"
wait
grep -q "claim audit" "$out" || { cat "$out" "$err"; fail "audit of a FIFO whose writer came in time"; }
"$bench" audit --timeout x "$one" >/dev/null 2>&1; [ $? -eq 2 ] || fail "audit --timeout x: not a usage error"
echo "rtipc-bench input: ok"
