#!/bin/sh
# rtipc-bench --vcd/--perfetto: a --quick run of queue-latency and isr-handoff
# with 50 traced messages per row; its VCD and trace-event files must pass the
# validators, hold exactly the bound of messages per latency row, and import
# into GTKWave's vcd2fst and sigrok's VCD reader when those are installed.
# Also the trace options' command-line contract.
#   bench_trace.sh RTIPC_BENCH VALIDATE_VCD VALIDATE_TRACE_EVENTS WORKDIR
set -eu
bench=$1 check_vcd=$2 check_events=$3 dir=$4
n=50
mkdir -p "$dir"
fail() { echo "FAIL: $*" >&2; exit 1; }

# Options: usage errors exit 2, an unwritable trace file exits 1.
st=0; "$bench" run --trace-samples 0 --vcd "$dir/x.vcd" queue-latency 2>/dev/null || st=$?
[ "$st" -eq 2 ] || fail "--trace-samples 0 exited $st, expected 2"
st=0; "$bench" run --trace-samples 10 queue-latency 2>/dev/null || st=$?
[ "$st" -eq 2 ] || fail "--trace-samples without --vcd/--perfetto exited $st, expected 2"
st=0; "$bench" run --vcd 2>/dev/null || st=$?
[ "$st" -eq 2 ] || fail "--vcd without a file exited $st, expected 2"
"$bench" --help | grep -q -- "--perfetto FILE" || fail "--help does not list --perfetto"
st=0; "$bench" run --quick --no-progress --samples 200 --trace-samples 5 --vcd /nonexistent-dir/x.vcd \
    queue-latency >/dev/null 2>"$dir/err.txt" || st=$?
[ "$st" -eq 1 ] || fail "an unwritable --vcd exited $st, expected 1"
grep -q "cannot write /nonexistent-dir/x.vcd" "$dir/err.txt" || fail "no reason given for the unwritable --vcd"

# The validators reject what they should (a validator that passes anything
# would make the checks below worthless).
vcd_head='$timescale 1 ns $end $scope module m $end $var wire 1 ! a $end $var real 64 " d $end $upscope $end $enddefinitions $end #0 $dumpvars 0! r0 " $end'
rejects() { # rejects VALIDATOR FILE CONTENT
    printf '%s\n' "$3" >"$2"
    if "$1" "$2" >/dev/null 2>&1; then fail "$(basename "$1") accepted: $3"; fi
}
printf '%s\n' "$vcd_head #5 1! r2 \"" >"$dir/good.vcd"
"$check_vcd" "$dir/good.vcd" >/dev/null || fail "validate_vcd rejected a valid file"
rejects "$check_vcd" "$dir/bad.vcd" "$vcd_head #5 1! #4 0!"
rejects "$check_vcd" "$dir/bad.vcd" "$vcd_head #5 1?"
rejects "$check_vcd" "$dir/bad.vcd" "$vcd_head #5 b10 !"
rejects "$check_vcd" "$dir/bad.vcd" "$vcd_head #5 1\""
rejects "$check_vcd" "$dir/bad.vcd" '$timescale 1 ns $end $scope module m $end $var wire 1 ! a $end $var wire 1 ! b $end $upscope $end $enddefinitions $end #0 $dumpvars 0! $end'
rejects "$check_vcd" "$dir/bad.vcd" '$timescale 1 ns $end $scope module m $end $var wire 1 ! a $end $enddefinitions $end #0 $dumpvars 0! $end'
rejects "$check_vcd" "$dir/bad.vcd" '$timescale 1 ns $end $scope module m $end $var wire 1 ! a $end $var wire 1 " b $end $upscope $end $enddefinitions $end #0 $dumpvars 0! $end'
ev='{"ph":"X","name":"a","pid":1,"tid":1,"ts":1.0,"dur":5.0}'
printf '%s\n' "{\"traceEvents\":[$ev,{\"ph\":\"s\",\"cat\":\"c\",\"name\":\"m\",\"id\":1,\"pid\":1,\"tid\":1,\"ts\":2},{\"ph\":\"f\",\"bp\":\"e\",\"cat\":\"c\",\"name\":\"m\",\"id\":1,\"pid\":1,\"tid\":1,\"ts\":3}]}" >"$dir/good.json"
"$check_events" "$dir/good.json" >/dev/null || fail "validate_trace_events rejected a valid file"
rejects "$check_events" "$dir/bad.json" "{\"traceEvents\":[$ev,{\"ph\":\"X\",\"name\":\"b\",\"pid\":1,\"tid\":1,\"ts\":3.0,\"dur\":5.0}]}"
rejects "$check_events" "$dir/bad.json" "{\"traceEvents\":[$ev,{\"ph\":\"f\",\"bp\":\"e\",\"id\":7,\"pid\":1,\"tid\":1,\"ts\":2}]}"
rejects "$check_events" "$dir/bad.json" "{\"traceEvents\":[{\"ph\":\"B\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1}]}"
rejects "$check_events" "$dir/bad.json" "{\"traceEvents\":[{\"ph\":\"C\",\"name\":\"q\",\"pid\":1,\"tid\":1,\"ts\":1,\"args\":{\"n\":\"x\"}}]}"
rejects "$check_events" "$dir/bad.json" "{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"ts\":1,\"dur\":1}]}"

rm -f "$dir/t.vcd" "$dir/t.json"
status=0
"$bench" run --quick --no-progress --trace-samples $n --vcd "$dir/t.vcd" --perfetto "$dir/t.json" \
    --json "$dir/t.bench.json" queue-latency isr-handoff >"$dir/t.txt" || status=$?
cat "$dir/t.txt"
[ "$status" -eq 0 ] || fail "rtipc-bench exited with $status"
grep -q "^note: trace overhead (queue-latency" "$dir/t.txt" || fail "no trace-overhead note"
grep -q "^trace: [0-9]* events recorded, 0 dropped" "$dir/t.txt" || fail "no event count, or events dropped"
grep -q '"metric":[[:space:]]*"trace-overhead-p50"' "$dir/t.bench.json" || fail "no trace-overhead-p50 row in the JSON"
grep -q '"metric":[[:space:]]*"trace-overhead-p99"' "$dir/t.bench.json" || fail "no trace-overhead-p99 row in the JSON"

# The VCD: valid, and every closed-loop latency row toggles `received` once
# per traced message: exactly the bound.
"$check_vcd" "$dir/t.vcd" --list >"$dir/vars.txt"
head -1 "$dir/vars.txt"
for var in queue_latency.rtipc_queue.cross_core.r1_received queue_latency.rtipc_queue.same_core.r2_received \
           isr_handoff.rtipc_queue.yield.r4_received isr_handoff.rtipc_queue.no_yield.r5_received \
           isr_handoff.rtipc_queue.no_yield_kernel_call.r6_received; do
    got=$(awk -v v="$var" '$1 == v { print $2 }' "$dir/vars.txt")
    [ "$got" = "$n" ] || fail "$var changed ${got:-never}, expected $n (one toggle per traced message)"
done
grep -q "^isr_handoff.rtipc_queue.yield.r4_core0_in_interrupt [1-9]" "$dir/vars.txt" ||
    fail "the yield row shows no interrupt on core 0"
grep -q "^queue_latency.rtipc_queue.cross_core.r1_depth [1-9]" "$dir/vars.txt" ||
    fail "the cross-core row shows no queue depth change"

# The trace events: valid, named rows, one flow per traced message at least
# in the six closed-loop latency rows.
"$check_events" "$dir/t.json" | tee "$dir/events.txt"
flows=$(sed -n 's/.* \([0-9]*\) flows.*/\1/p' "$dir/events.txt")
[ "${flows:-0}" -ge $((6 * n)) ] || fail "only ${flows:-0} flows, expected at least $((6 * n))"
grep -q '"queue-latency / rtipc-queue / cross-core"' "$dir/t.json" || fail "no process for the cross-core row"
grep -q '"isr-handoff / rtipc-queue / yield"' "$dir/t.json" || fail "no process for the yield row"

# Real readers, when installed (gtkwave and sigrok-cli are not build deps).
if command -v vcd2fst >/dev/null 2>&1; then
    rm -f "$dir/t.fst"
    vcd2fst "$dir/t.vcd" "$dir/t.fst" >"$dir/vcd2fst.txt" 2>&1 || { cat "$dir/vcd2fst.txt"; fail "vcd2fst failed"; }
    [ -s "$dir/t.fst" ] || fail "vcd2fst wrote no FST"
    echo "vcd2fst: converted"
else
    echo "vcd2fst not installed (Debian package gtkwave): GTKWave conversion check skipped"
fi
if command -v sigrok-cli >/dev/null 2>&1; then
    # PulseView's reader must get through the whole file: its last time
    # stamp is ours.
    sigrok-cli -I vcd -i "$dir/t.vcd" -O vcd -o "$dir/sigrok.vcd" 2>"$dir/sigrok.txt" ||
        { cat "$dir/sigrok.txt"; fail "sigrok-cli could not read the VCD"; }
    ours=$(grep '^#' "$dir/t.vcd" | tail -1 | cut -c2- | cut -d' ' -f1)
    theirs=$(grep '^#' "$dir/sigrok.vcd" | tail -1 | cut -c2- | cut -d' ' -f1)
    [ "$ours" = "$theirs" ] || fail "sigrok read up to time ${theirs:-?}, the file ends at $ours"
    echo "sigrok-cli: read to the end ($ours ns)"
else
    echo "sigrok-cli not installed: PulseView import check skipped"
fi
echo "rtipc-bench trace: ok"
