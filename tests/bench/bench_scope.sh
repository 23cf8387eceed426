#!/bin/sh
# rtipc-bench scope (bench/host/scope/scope.h) on captures with known edges
# (scope_captures.py): every format gives back exactly the known latencies,
# to the sample; odd captures (glitches, a missing end, inverted idle
# levels, a capture that starts mid-pulse, 10^6 edges) are paired as the
# rules say and counted; rtipc-bench's own --vcd, converted by sigrok-cli
# into a session file, gives what the VCD gives; bad input exits 2 with one
# line and leaves OUT.json as it was; compare, audit and report take the
# result.
#   bench_scope.sh RTIPC_BENCH VALIDATE_BENCH_JSON WORKDIR
set -u
bench=$1 validate=$2 work=$3
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fail() { echo "FAIL: $*" >&2; exit 1; }
python3 "$here/scope_captures.py" "$work" --big || fail "scope_captures.py failed"

# same WHAT EXPECTED scope-args...: the pairs scope finds equal EXPECTED.
same() {
    what=$1 want=$2
    shift 2
    "$bench" scope "$@" out.json --latencies lat.txt >sum.txt 2>err.txt || { cat err.txt; fail "$what: scope exited $?"; }
    cmp -s lat.txt "$want" || { diff lat.txt "$want" | head; fail "$what: not the known latencies"; }
    "$validate" out.json >/dev/null || fail "$what: OUT.json is not valid rtipc-bench/1"
    echo "ok: $what"
}

# ---- every format, the same 100 pairs at 25 MHz ----
same "VCD" expected.txt --sample-rate 25M --start send --end recv clean.vcd
same "Saleae digital CSV" expected.txt --sample-rate 25M --start send --end recv clean-saleae.csv
same "Saleae binary, format 0" expected.txt --sample-rate 25M --start 0 --end 1 saleae-v0
same "Saleae binary, format 1 (its own rate)" expected.txt --start 0 --end 1 saleae-v1
same "oscilloscope CSV, Rigol layout, noisy volts" expected.txt --start CH1 --end CH2 clean-rigol.csv
if command -v sigrok-cli >/dev/null 2>&1; then
    sigrok-cli -I binary:samplerate=25000000:numchannels=2 -i clean.raw -o clean.sr || fail "sigrok-cli could not write clean.sr"
    same "sigrok session (.sr) through libsigrok" expected.txt --start 0 --end 1 clean.sr
    # libsigrok's own VCD: a 10 ns timescale, the 25 MHz rate in its comment.
    sigrok-cli -i clean.sr -O vcd -o fromsr.vcd || fail "sigrok-cli could not write a VCD"
    same "libsigrok's VCD (the rate from its comment)" expected.txt --start 0 --end 1 fromsr.vcd
else
    echo "SKIP: sigrok session files (no sigrok-cli: Debian sigrok-cli)"
fi
grep -q '"clock": "logic-analyzer"' out.json || fail "the row's clock is not logic-analyzer"
grep -q '"clock_hz": 25000000,' out.json || fail "env.clock_hz is not the sample rate"
grep -q 'resolution 40 ns' out.json || fail "the row does not say its resolution"

# ---- odd captures ----
same "glitches dropped (--glitch 80ns)" expected.txt --glitch 80ns --sample-rate 25M --start send --end recv glitch.vcd
"$bench" scope --sample-rate 25M --start send --end recv glitch.vcd out.json >sum.txt 2>&1 || fail "glitch.vcd without --glitch"
grep -q "5 ends without a start, 0 starts without an end within 0.1 s, 10 overlapping starts" sum.txt ||
    { cat sum.txt; fail "glitches left in are not counted as unpaired edges"; }
echo "ok: glitches left in are counted, not paired"
same "a missing end, --max-latency below the send period" expected-missing.txt --max-latency 11us --sample-rate 25M \
    --start send --end recv missing.vcd
grep -q "1 starts without an end" sum.txt || fail "the start without an end is not counted"
same "a missing end, the starts around it left unpaired" expected-missing-run.txt --sample-rate 25M --start send \
    --end recv missing.vcd
grep -q "2 overlapping starts (1 ends after them)" sum.txt || fail "the overlapping starts are not counted"
same "inverted idle levels (falling edges)" expected.txt --start-edge falling --end-edge falling --sample-rate 25M \
    --start send --end recv inverted.vcd
"$bench" scope --sample-rate 25M --start send --end recv inverted.vcd out.json >/dev/null 2>err.txt
grep -q "line send rests high, so its pulses are low: --start-edge falling" err.txt ||
    fail "rising edges of a line that rests high are not warned about"
same "a capture that starts mid-pulse" expected-midpulse.txt --sample-rate 25M --start send --end recv midpulse.vcd
grep -q "1 ends without a start" sum.txt || fail "the end of the cut pulse is not counted"
same "10^6 edges" expected-big.txt --sample-rate 25M --start send --end recv big.vcd
grep -q '"p999": 10000,' out.json || fail "10^6 edges: no p99.9"
# A window of the capture: 100 us to 500 us after its first sample (at
# 25 MHz, samples 2500 to 12500: starts and ends both inside).
awk 'NR == 1 || ($1 >= 2500 && $2 <= 12500)' expected.txt >expected-window.txt
same "a window (--from, --to)" expected-window.txt --from 100us --to 500us --sample-rate 25M --start send --end recv \
    clean.vcd
same "order pairing" expected.txt --pair order --sample-rate 25M --start send --end recv clean.vcd
"$bench" scope --pair order --sample-rate 25M --start send --end recv missing.vcd out.json >/dev/null 2>err.txt
[ $? -eq 2 ] && grep -q "needs one end per start: 100 start and 99 end edges" err.txt ||
    fail "order pairing with an end missing is not refused"
echo "ok: order pairing refuses unequal counts"
"$bench" scope --sample-rate 25M --start send --end recv clean.vcd out.json >/dev/null 2>&1
grep -q 'p99.9 needs 10000, p99 1000, so p99 and p99.9 are absent (not padded)' out.json ||
    fail "a short capture does not say which percentiles are absent"
echo "ok: a short capture says which percentiles it lacks"

# '-' is standard output, and then only the pairs go there.
"$bench" scope --sample-rate 25M --start send --end recv clean.vcd out.json --latencies - >stdout.txt 2>/dev/null ||
    fail "--latencies -"
cmp -s stdout.txt expected.txt || fail "--latencies - printed more than the pairs on stdout"
echo "ok: --latencies - prints the pairs alone"

# The ESP32 app's sdkconfig names the experiment the board ran.
printf 'CONFIG_RTIPC_BENCH_GPIO_SEND=18\nCONFIG_RTIPC_BENCH_ARGS="run --samples 2000 --json - notify-vs-sem"\n' >sdkconfig
"$bench" scope --sdkconfig sdkconfig --sample-rate 25M --start send --end recv clean.vcd out.json >/dev/null ||
    fail "--sdkconfig"
grep -q '"experiment": "notify-vs-sem", "mechanism": "kernel-queue"' out.json || fail "--sdkconfig did not name the row"
echo "ok: --sdkconfig names the experiment"

# ---- rtipc-bench's own --vcd, and the same through sigrok-cli ----
"$bench" run --quick --no-progress queue-latency --vcd own.vcd >/dev/null 2>&1 || fail "run --vcd failed"
"$bench" scope --start r1_send_in_flight --end r1_received --end-edge both own.vcd own.json --latencies own-vcd.txt \
    >/dev/null || fail "scope on rtipc-bench's own VCD"
if command -v sigrok-cli >/dev/null 2>&1; then
    sigrok-cli -I vcd -i own.vcd -o own.sr || fail "sigrok-cli could not convert own.vcd"
    "$bench" scope --start r1_send_in_flight --end r1_received --end-edge both own.sr own-sr.json \
        --latencies own-sr.txt >/dev/null || fail "scope on the converted session"
    cmp -s own-vcd.txt own-sr.txt || fail "the session file sigrok-cli made from --vcd gives other pairs"
    echo "ok: rtipc-bench --vcd and its sigrok session give the same $(grep -vc '^#' own-vcd.txt) pairs"
fi

# ---- the other commands take the result ----
"$bench" audit own.json >/dev/null || fail "audit refused scope's output"
"$bench" compare own.json own.json >/dev/null || fail "compare refused scope's output"
"$bench" report own.json report >/dev/null 2>&1 || fail "report refused scope's output"
[ -s report/index.html ] || fail "report wrote no page"
echo "ok: audit, compare and report take it"

# ---- bad input: one line, status 2, OUT.json as it was ----
printf '{"kept": true}\n' >kept.json
bad() { # bad WHAT PATTERN scope-args...
    what=$1 pattern=$2
    shift 2
    cp kept.json out.json
    "$bench" scope "$@" out.json >/dev/null 2>err.txt
    rc=$?
    [ $rc -eq 2 ] || fail "$what: exit $rc, not 2"
    [ "$(wc -l <err.txt)" -eq 1 ] || { cat err.txt; fail "$what: not one line on stderr"; }
    grep -q -- "$pattern" err.txt || { cat err.txt; fail "$what: the reason does not say '$pattern'"; }
    cmp -s out.json kept.json || fail "$what: OUT.json was changed"
    echo "ok: $what"
}
head -c 2000 clean.vcd >cut.vcd
bad "a VCD cut mid-line" "truncated" --start send --end recv cut.vcd
head -c 150 clean.vcd >cut2.vcd && echo >>cut2.vcd
bad "a VCD cut in its declarations" "truncated" --start send --end recv cut2.vcd
mkdir -p corrupt && cp saleae-v1/digital_0.bin corrupt/ && head -c 60 saleae-v1/digital_1.bin >corrupt/digital_1.bin
bad "a Saleae export with a short file" "truncated" --start 0 --end 1 corrupt
bad "a foreign file" "not a capture" --start send --end recv /bin/true
bad "a zip that is not a sigrok session" "not a sigrok session" --start 0 --end 1 foreign.sr
bad "a missing line" "no end line 'nope'" --start send --end nope clean.vcd
bad "no edge at all" "no pair: 0 rising edges" --start send --end recv flat.vcd
bad "one line for both" "name one line" --start send --end send clean.vcd
cp kept.json out.json
"$bench" scope --start send out.json 2>err.txt; [ $? -eq 2 ] || fail "a usage error does not exit 2"
"$bench" scope --help | grep -q "usage: rtipc-bench scope" || fail "scope --help is not on stdout"
echo "ok: usage errors"
echo "bench_scope: all cases passed"
