#!/bin/sh
# `rtipc-bench audit` on recorded and hand-made runs: data/mcu.json (a
# bare-metal run, none of the claims' experiments) and data/one-core.json
# (hand-made rows in "instr" so that claims 2, 7 and 8 get known verdicts,
# and claim 9, a cross-core claim, none from same-core rows), variants derived from it with sed, and bad
# inputs (exit 2, one line on stderr naming the file).
#   bench_audit.sh RTIPC_BENCH VALIDATOR DATA_DIR WORKDIR
set -u
bench=$1 validator=$2 data=$3 work=$4
mcu=$data/mcu.json one=$data/one-core.json
mkdir -p "$work"
out=$work/out.txt err=$work/err.txt
fail() { echo "FAIL: $*" >&2; exit 1; }

# audit STATUS ARGS...: run audit, keep stdout/stderr, check the exit status.
audit() {
    want=$1; shift
    "$bench" audit "$@" >"$out" 2>"$err"; got=$?
    [ "$got" -eq "$want" ] || { cat "$out" "$err"; fail "audit $* exited $got, expected $want"; }
}
# verdicts: the nine printed verdicts, space-separated, in order.
verdicts() { sed -n 's/^[1-9]\. \[\([a-z-]*\)\].*/\1/p' "$out" | tr '\n' ' '; }
# json_verdicts FILE: the verdicts of a written file, in order.
json_verdicts() { grep -o '"verdict":[[:space:]]*"[a-z-]*"' "$1" | sed 's/.*"\([a-z-]*\)"$/\1/' | tr '\n' ' '; }
# evidence N TEXT: the evidence of claim N contains TEXT (fixed string).
evidence() {
    line=$(awk -v n="$1." '$1 == n { getline; getline; print }' "$out")
    case "$line" in
    *"$2"*) ;;
    *) cat "$out"; fail "claim $1's evidence lacks '$2': $line" ;;
    esac
}
# derive NAME SED-SCRIPT: $work/NAME.json from one-core.json; the script must change it.
derive() {
    sed -e "$2" "$one" >"$work/$1.json" || fail "sed for $1"
    cmp -s "$one" "$work/$1.json" && fail "derive $1: the sed script changed nothing"
    return 0
}

# The bare-metal run: the experiments the claims read are missing there (no
# tasks), so every claim is not testable; the file is written back valid
# with the audit's own claim texts.
claim_exps='"experiment": "(queue-placement|isr-handoff|mechanism-compare|blocked-producer|state-vs-event|core-placement|batching|queue-set|notify-vs-sem)", [^}]*"missing": true'
[ "$(grep -Ec "$claim_exps" "$mcu")" -eq 9 ] || fail "data/mcu.json: a claim's experiment is not missing: update this test"
rows=$(grep -o '"experiment": "' "$mcu" | wc -l)
audit 0 "$mcu" --json "$work/mcu.json"
[ "$(verdicts)" = "not-testable not-testable not-testable not-testable not-testable not-testable not-testable not-testable not-testable " ] ||
    { cat "$out"; fail "mcu.json: verdicts $(verdicts)"; }
grep -q "^claim audit of .*mcu.json: $rows result rows, tick 1 Hz$" "$out" || { cat "$out"; fail "mcu.json: header ($rows rows)"; }
grep -q "^== claim audit ==$" "$out" || fail "mcu.json: no claim audit heading"
[ ! -s "$err" ] || { cat "$err"; fail "mcu.json: unexpected stderr"; }
"$validator" "$work/mcu.json" lockfree-cost >/dev/null ||
    fail "audited mcu.json is not valid"
grep -q "Queue memory placed in slow external memory" "$work/mcu.json" || fail "mcu.json: claims not replaced"
grep -q "claim 1 of the Linux rtipc-bench audit" "$work/mcu.json" && fail "mcu.json: old claims kept"
grep -q '"cpu_model":[[:space:]]*"Cortex-M3, QEMU mps2-an385' "$work/mcu.json" || fail "mcu.json: env not kept"

# The hand-made one-core run in instructions.
"$validator" "$one" isr-handoff batching queue-set notify-vs-sem >/dev/null || fail "one-core.json is not valid"
audit 0 "$one" --json "$work/one.json"
expect="not-testable holds not-testable not-testable not-testable not-testable holds does-not-hold not-testable "
[ "$(verdicts)" = "$expect" ] || { cat "$out"; fail "one-core.json: verdicts $(verdicts)"; }
grep -q "^claim audit of .*one-core.json: 13 result rows, tick 1000 Hz$" "$out" || { cat "$out"; fail "one-core.json: header"; }
evidence 2 "no-yield handoff p50 1162 instr; no-yield throughput depth 1: 1000 msg/s (capped), depth 100: 1050 msg/s (capped)"
evidence 7 "100 x 1-byte items 5200 instr, 1 x 100-byte item 700 instr (x7.4)"
evidence 8 "queue-set 900 B, 3-tasks 800 B (-100 B)"
evidence 9 "one core in this run: the claim is about cross-core give->take"
grep -q " us[,;( ]" "$out" && { cat "$out"; fail "one-core.json: a figure in us from rows in instr"; }
# Written back: valid, the new verdicts and evidence, every other member kept.
"$validator" "$work/one.json" isr-handoff batching queue-set notify-vs-sem >/dev/null || fail "audited one-core.json is not valid"
[ "$(json_verdicts "$work/one.json")" = "$expect" ] || fail "written verdicts: $(json_verdicts "$work/one.json")"
grep -q "one core in this run" "$work/one.json" || fail "written evidence"
grep -q "a member rtipc-bench/1 does not define: the audit keeps it" "$work/one.json" || fail "unknown member dropped"
grep -q "no interrupt source on this target (test data)" "$work/one.json" || fail "missing row dropped"
# Auditing the written file again gives the same file.
audit 0 "$work/one.json" --json "$work/again.json"
cmp -s "$work/one.json" "$work/again.json" || fail "auditing the audited file changed it"

# The same rows in ns: the same verdicts (the rules do not depend on the
# unit), figures in microseconds as `run` prints them.
derive ns 's/"unit": "instr"/"unit": "ns"/'
audit 0 "$work/ns.json"
[ "$(verdicts)" = "$expect" ] || { cat "$out"; fail "ns: verdicts $(verdicts)"; }
evidence 2 "no-yield handoff p50 1.2 us;"
evidence 7 "100 x 1-byte items 5.20 us, 1 x 100-byte item 0.70 us (x7.4)"
evidence 7 "1 x 100-byte item 0.70 us"

# Two units in one pair: no ratio, not testable.
derive mixed '/"variant": "1x100B"/s/"unit": "instr"/"unit": "ns"/'
audit 0 "$work/mixed.json"
[ "$(verdicts)" = "not-testable holds not-testable not-testable not-testable not-testable not-testable does-not-hold not-testable " ] ||
    { cat "$out"; fail "mixed: verdicts $(verdicts)"; }
evidence 7 "in different units (instr, ns)"

# Cross-core rows present: they are audited, as on a two-core host.
derive cross 's/"variant": "same-core"/"variant": "cross-core"/'
audit 0 "$work/cross.json"
evidence 9 "cross-core give->take p50: rtipc-sem 1600 instr, rtipc-notify 400 instr: semaphore/notification x4.00"
[ "$(verdicts | cut -d' ' -f9)" = "holds" ] || { cat "$out"; fail "cross: claim 9 $(verdicts)"; }
grep -q "one core" "$out" && fail "cross: the one-core text with cross-core rows"
# The same rows as a FreeRTOS target names the kernel's: decided from them.
derive kernel 's/"variant": "same-core"/"variant": "cross-core"/;s/"mechanism": "rtipc-sem"/"mechanism": "kernel-sem"/;s/"mechanism": "rtipc-notify"/"mechanism": "kernel-notify"/'
audit 0 "$work/kernel.json"
evidence 9 "cross-core give->take p50: kernel-sem 1600 instr, kernel-notify 400 instr"
# A kernel row with rtipc's beside a missing one: never mixed, not testable.
derive kmixed 's/"variant": "same-core"/"variant": "cross-core"/;s/"mechanism": "rtipc-sem"/"mechanism": "kernel-sem"/'
audit 0 "$work/kmixed.json"
[ "$(verdicts | cut -d' ' -f9)" = "not-testable" ] || { cat "$out"; fail "kmixed: claim 9 $(verdicts)"; }
evidence 9 "has no row for kernel-notify"
# One cross-core row only: no fallback to same-core rows, not testable.
derive half '/"mechanism": "rtipc-sem"/s/"variant": "same-core"/"variant": "cross-core"/'
audit 0 "$work/half.json"
evidence 9 "has no row for rtipc-notify"
[ "$(verdicts | cut -d' ' -f9)" = "not-testable" ] || { cat "$out"; fail "half: claim 9 $(verdicts)"; }
# Notification only twice as fast: does not hold.
derive slow 's/"variant": "same-core"/"variant": "cross-core"/;/"mechanism": "rtipc-notify"/,/p50_ci95/{s/"p50": 400/"p50": 800/;s/"p50_ci95": \[399, 401\]/"p50_ci95": [799, 801]/;}'
audit 0 "$work/slow.json"
[ "$(verdicts | cut -d' ' -f9)" = "does-not-hold" ] || { cat "$out"; fail "slow: claim 9 $(verdicts)"; }
evidence 9 "semaphore/notification x2.00"
# Intervals of the median from the histogram when p50_ci95 is absent: apart
# for the batching rows, so claim 7 still holds.
derive hist 's/"p50_ci95": \[5190, 5210\]/"histogram": {"sub_bucket_bits": 4, "buckets": [[4864, 100], [5120, 800], [5632, 100]]}/;s/"p50_ci95": \[698, 702\]/"histogram": {"sub_bucket_bits": 4, "buckets": [[640, 100], [688, 800], [800, 100]]}/'
audit 0 "$work/hist.json"
[ "$(verdicts | cut -d' ' -f7)" = "holds" ] || { cat "$out"; fail "hist: claim 7 $(verdicts)"; }

# Bad inputs: exit 2, one line on stderr naming the file, no audit printed.
bad() {
    msg=$1 file=$2
    audit 2 "$file"
    [ "$(wc -l <"$err")" -eq 1 ] || { cat "$err"; fail "$file: not one line on stderr"; }
    grep -q "^rtipc-bench audit: $file: $msg" "$err" || { cat "$err"; fail "$file: expected '$msg'"; }
    grep -q "claim audit" "$out" && fail "$file: an audit printed for a bad input"
    return 0
}
bad "cannot read" "$work/no-such-file.json"
bad "cannot read" "$work"
: >"$work/empty.json"
bad "empty file" "$work/empty.json"
echo "results: none" >"$work/text.json"
bad "not JSON" "$work/text.json"
head -c 900 "$one" >"$work/truncated.json"
bad "not JSON" "$work/truncated.json"
derive schema 's|"rtipc-bench/1"|"rtipc-bench/2"|'
bad 'schema is "rtipc-bench/2"' "$work/schema.json"
echo '[1, 2]' >"$work/array.json"
bad "not an rtipc-bench/1 file" "$work/array.json"
derive noresults 's/"results": \[/"rows": [/'
bad '"results" is missing' "$work/noresults.json"
derive badrow 's/"experiment": "batching", "mechanism": "rtipc-queue", "variant": "1x100B"/"experiment": "batching", "mechanism": 7, "variant": "1x100B"/'
bad 'results\[7\] lacks the string "mechanism"' "$work/badrow.json"
derive badn 's/"n": 1000, "min": 650/"n": "many", "min": 650/'
bad 'results\[7\]: "n" is not a count' "$work/badn.json"
derive badtick 's/"tick_hz": 1000/"tick_hz": "fast"/'
bad "env.tick_hz is not a rate" "$work/badtick.json"

# Usage errors: exit 2; an output that cannot be written: exit 1.
audit 2
audit 2 "$one" "$mcu"
audit 2 "$one" --bogus
audit 2 "$one" --json
audit 0 --help
grep -q "^usage: rtipc-bench audit FILE.json \[--json OUT.json\]" "$out" || fail "audit --help"
"$bench" --help | grep -q "rtipc-bench audit RESULTS.json" || fail "the usage text lacks audit"
audit 1 "$one" --json "$work/no-such-dir/out.json"
grep -q "cannot write $work/no-such-dir/out.json" "$err" || { cat "$err"; fail "no write error"; }
# '-' (GNU convention): FILE.json from standard input; OUT.json to standard
# output, the document alone there and the audit's text on stderr. Neither
# writes a file named '-'.
cd "$work" || fail "cd $work"
rm -f ./-
"$bench" audit - <"$one" >"$out" 2>"$err" || { cat "$err"; fail "audit - (standard input)"; }
grep -q "^claim audit of standard input: " "$out" || { cat "$out"; fail "audit - does not name standard input"; }
[ "$(verdicts)" = "$expect" ] || fail "audit - gave other verdicts than the file: $(verdicts)"
"$bench" audit "$one" --json - >"$work/stdout.json" 2>"$err" || { cat "$err"; fail "audit --json -"; }
"$validator" "$work/stdout.json" >/dev/null || fail "audit --json - did not print a valid document alone on stdout"
grep -q "^claim audit of " "$err" || fail "audit --json -: the audit's text is not on stderr"
[ ! -e ./- ] || fail "audit wrote a file named '-'"
echo "bench audit: ok"
