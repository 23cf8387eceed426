#!/bin/sh
# Outputs survive failure. A good run writes every kind of output (--json,
# --csv, --vcd, --perfetto, --report); the same run on a full disk (the
# ENOSPC shim, preloaded) exits 1, names "No space left on device" for each
# file, leaves each previous file byte for byte as it was and no temporary
# behind. The same for `audit --json` and `report`; special files (/dev/full,
# /dev/null) are written in place, never replaced; make bench's text copy
# (scripts/keep-output.sh) is replaced only by a whole one.
#   bench_outputs.sh RTIPC_BENCH ENOSPC_SHIM SOURCE_DIR WORKDIR
set -u
bench=$1 shim=$2 src=$3 work=$4
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work"
mkdir -p "$work/out" "$work/log" || fail "cannot create $work"
out=$(cd "$work/out" && pwd -P) log=$work/log
one=$src/tests/bench/data/one-core.json
# The shim preloads before an ASan runtime that would otherwise insist on
# coming first.
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
export ASAN_OPTIONS
full() { LD_PRELOAD=$shim RTIPC_TEST_FULL_DIR=$out RTIPC_TEST_FULL_AFTER=${after:-0} "$@"; }
# no_temporaries: nothing but the outputs in $out.
no_temporaries() {
    left=$(find "$out" -name '.*' | head -3)
    [ -z "$left" ] || fail "temporary files left behind: $left"
}

# run: the same experiment, every output.
run() {
    "$@" "$bench" run queue-latency --quick --no-progress --samples 300 --trace-samples 20 \
        --json "$out/r.json" --csv "$out/r.csv" --vcd "$out/r.vcd" --perfetto "$out/r.trace.json" \
        --report "$out/rep" >"$log/run.txt" 2>"$log/run.err"
}
run || { cat "$log/run.err"; fail "the good run exited $?"; }
for f in r.json r.csv r.vcd r.trace.json rep/index.html; do
    [ -s "$out/$f" ] || fail "the good run wrote no $f"
    cp "$out/$f" "$log/$(echo "$f" | tr / _).before" || fail "cannot keep $f"
done
no_temporaries

# The disk fills up: at once, then part way through a file.
for after in 0 1000; do
    run full; status=$?
    [ "$status" -eq 1 ] || { cat "$log/run.err"; fail "a full disk (after $after bytes): exit $status, expected 1"; }
    for f in r.json r.csv r.vcd r.trace.json rep/index.html; do
        grep -qF "cannot write $out/$f: No space left on device" "$log/run.err" ||
            { cat "$log/run.err"; fail "no ENOSPC error named for $f (after $after bytes)"; }
        cmp -s "$out/$f" "$log/$(echo "$f" | tr / _).before" || fail "$f changed on a full disk (after $after bytes)"
    done
    no_temporaries
done

# audit --json and report on a full disk: exit 1, the previous file intact.
"$bench" audit "$one" --json "$out/a.json" >/dev/null 2>"$log/audit.err" || { cat "$log/audit.err"; fail "audit exited $?"; }
cp "$out/a.json" "$log/a.before"
after=100 full "$bench" audit "$one" --json "$out/a.json" >/dev/null 2>"$log/audit.err"; status=$?
[ "$status" -eq 1 ] || { cat "$log/audit.err"; fail "audit on a full disk exited $status, expected 1"; }
grep -qF "cannot write $out/a.json: No space left on device" "$log/audit.err" || { cat "$log/audit.err"; fail "audit: no ENOSPC"; }
cmp -s "$out/a.json" "$log/a.before" || fail "audit's a.json changed on a full disk"
full "$bench" report "$out/r.json" "$out/rep" >/dev/null 2>"$log/report.err"; status=$?
[ "$status" -eq 1 ] || { cat "$log/report.err"; fail "report on a full disk exited $status, expected 1"; }
grep -qF "cannot write $out/rep/index.html: No space left on device" "$log/report.err" ||
    { cat "$log/report.err"; fail "report: no ENOSPC"; }
cmp -s "$out/rep/index.html" "$log/rep_index.html.before" || fail "index.html changed on a full disk"
no_temporaries

# A real device that is always full: written in place, the error named.
if [ -w /dev/full ]; then
    "$bench" audit "$one" --json /dev/full >/dev/null 2>"$log/devfull.err"; status=$?
    [ "$status" -eq 1 ] || fail "audit --json /dev/full exited $status, expected 1"
    grep -qF "cannot write /dev/full: No space left on device" "$log/devfull.err" || { cat "$log/devfull.err"; fail "/dev/full"; }
    [ -c /dev/full ] || fail "/dev/full is no longer a device"
fi
"$bench" audit "$one" --json /dev/null >/dev/null 2>"$log/devnull.err" || { cat "$log/devnull.err"; fail "audit --json /dev/null"; }
[ -c /dev/null ] || fail "/dev/null is no longer a device"

# keep-output.sh: replaced by a whole copy only.
keep=$src/scripts/keep-output.sh
txt=$out/latest.txt
echo "previous run" >"$txt"
bash "$keep" "$txt" sh -c 'echo "new run"; exit 1' >/dev/null; status=$?
[ "$status" -eq 1 ] || fail "keep-output.sh: exit $status, expected the command's 1"
[ "$(cat "$txt")" = "new run" ] || fail "keep-output.sh: a complete run (status 1) did not replace the file"
bash "$keep" "$txt" sh -c 'echo "half a run"; exit 2' >/dev/null 2>&1; status=$?
[ "$status" -eq 2 ] || fail "keep-output.sh: exit $status, expected 2"
[ "$(cat "$txt")" = "new run" ] || fail "keep-output.sh: a usage error replaced the file"
bash "$keep" "$txt" sh -c 'echo "killed"; kill -9 $$' >/dev/null 2>&1; status=$?
[ "$status" -eq 137 ] || fail "keep-output.sh: exit $status, expected 137 (SIGKILL)"
[ "$(cat "$txt")" = "new run" ] || fail "keep-output.sh: a killed run replaced the file"
# The copy itself fails (files limited to 1 KiB: tee gets EFBIG or SIGXFSZ).
(ulimit -f 1; bash "$keep" "$txt" sh -c 'head -c 100000 /dev/zero | tr "\0" x; exit 0' >/dev/null 2>&1); status=$?
[ "$status" -ne 0 ] || fail "keep-output.sh: a failed copy exited 0"
[ "$(cat "$txt")" = "new run" ] || fail "keep-output.sh: a failed copy replaced the file"
no_temporaries
grep -q 'scripts/keep-output.sh $(RESULTS)/latest.txt' "$src/Makefile" || fail "make bench does not write latest.txt through keep-output.sh"
# '-' is standard output (GNU convention): the JSON alone there, the
# tables on stderr, and no file named '-'; one output at most may take it,
# and never --report's folder.
(cd "$out" && "$bench" run queue-set --quick --no-progress --json - >"$log/stdout.json" 2>"$log/tables.txt") ||
    { cat "$log/tables.txt"; fail "run --json - failed"; }
{ head -n 2 "$log/stdout.json" | grep -q '"schema": "rtipc-bench/1"' && [ "$(head -c 1 "$log/stdout.json")" = "{" ] &&
    [ "$(tail -n 1 "$log/stdout.json")" = "}" ] && grep -q '"experiment": "queue-set"' "$log/stdout.json"; } ||
    fail "run --json - did not print the document alone on stdout"
"$bench" audit - <"$log/stdout.json" >/dev/null 2>"$log/audit.err" ||
    { cat "$log/audit.err"; fail "the document run --json - printed does not read back"; }
grep -q "^== queue-set" "$log/tables.txt" || fail "run --json - did not move the tables to stderr"
[ ! -e "$out/-" ] || fail "run --json - wrote a file named '-'"
(cd "$out" && "$bench" run queue-set --quick --csv - >"$log/stdout.csv" 2>/dev/null) || fail "run --csv - failed"
head -n 1 "$log/stdout.csv" | grep -q '^experiment,mechanism,variant,metric' || fail "run --csv - did not print CSV on stdout"
"$bench" run queue-set --quick --json - --csv - >/dev/null 2>"$log/both.err"; status=$?
[ "$status" -eq 2 ] && grep -q "both ask for standard output" "$log/both.err" || fail "two outputs on stdout: exit $status"
"$bench" run queue-set --quick --report - >/dev/null 2>"$log/rep.err"; status=$?
[ "$status" -eq 2 ] && grep -q "report writes a folder" "$log/rep.err" || fail "--report -: exit $status"
no_temporaries
echo "rtipc-bench outputs survive failure: ok"
