#!/bin/sh
# rtipc-bench capture (bench/host/capture/capture.h): the JSON a board prints
# between the console markers, from a file, from standard input and from a
# pseudo-terminal standing for a serial device (pty_feed), is written
# whole and only when it is valid; every way a capture can fail leaves the
# output as it was, with one line saying why.
#   bench_capture.sh RTIPC_BENCH PTY_FEED DATA_DIR WORKDIR
set -u
bench=$1 feed=$2 data=$3 work=$4
mkdir -p "$work"
cd "$work" || exit 1
fail() { echo "FAIL: $*" >&2; exit 1; }
json=$data/esp32-qemu.json
[ -f "$json" ] || fail "no recorded run $json"
begin='==== rtipc-bench/1 JSON begin ===='
end='==== rtipc-bench/1 JSON end ===='

# A console as ESP-IDF prints it: log lines in colour, CR LF line ends, the
# document between the markers, the app's last line after it.
console() {
    printf 'ets Jun  8 2016 00:22:57\r\n\033[0;32mI (31) boot: ESP-IDF v5.1.6 2nd stage bootloader\033[0m\r\n'
    printf 'rtipc-bench 0.1.0\r\n%s\r\n' "$begin"
    sed 's/$/\r/' "$1"
    printf '%s\r\nrtipc-bench: exit status 0\r\n' "$end"
}
console "$json" >console.txt

# expect STATUS WHAT COMMAND...: the exit status and, for a failure, a line
# on stderr matching WHAT.
expect() {
    want=$1 what=$2
    shift 2
    "$@" >out.txt 2>err.txt
    got=$?
    [ "$got" -eq "$want" ] || { cat out.txt err.txt; fail "'$*' exited $got, not $want"; }
    [ -z "$what" ] || grep -q -- "$what" err.txt || { cat err.txt; fail "'$*' did not say '$what'"; }
}

# From a file and from standard input: the document exactly as printed.
expect 0 "" "$bench" capture console.txt file.json
cmp -s file.json "$json" || fail "the file capture differs from the printed document"
grep -q "[0-9][0-9]* result rows of 17 experiments" out.txt || { cat out.txt; fail "no summary line"; }
expect 0 "" sh -c "\"$bench\" capture - stdin.json <console.txt"
cmp -s stdin.json "$json" || fail "the stdin capture differs from the printed document"

# The capture is a results file like any other.
expect 0 "" "$bench" audit file.json
grep -q '^9\. \[does-not-hold\]' out.txt || { cat out.txt; fail "audit of the capture"; }
expect 0 "" "$bench" compare "$json" file.json
grep -q '^summary: 0 regressed' out.txt || { cat out.txt; fail "compare of the capture with its source"; }

# From a pseudo-terminal, in pieces, at a given speed; the terminal stays
# open after the end marker (a board goes on printing), so capture must stop
# at the marker by itself.
expect 0 "" "$feed" console.txt -- "$bench" capture --baud 921600 --no-progress @PTY@ pty.json
cmp -s pty.json "$json" || fail "the pseudo-terminal capture differs from the printed document"
# --echo copies the console to stdout.
expect 0 "" "$feed" console.txt -- "$bench" capture --echo @PTY@ echo.json
grep -q 'ESP-IDF v5.1.6 2nd stage bootloader' out.txt || fail "--echo did not copy the console"

# Failures: OUT.json keeps what it held.
keep() { printf 'kept\n' >kept.json; }
kept() { [ "$(cat kept.json)" = kept ] || fail "$1 changed OUT.json"; }
head -c 4000 console.txt >truncated.txt
keep
expect 1 "truncated capture: the input ended inside the JSON" "$bench" capture truncated.txt kept.json
kept "a truncated file"
keep
expect 1 "truncated capture" "$feed" --hangup truncated.txt -- "$bench" capture @PTY@ kept.json
kept "a terminal that hung up inside the JSON"
grep -q "JSON begin" err.txt && fail "a diagnostic of a truncated capture names the markers wrongly"
printf 'boot\r\nno document here\r\n' >noise.txt
keep
expect 1 "the input ended without the begin marker (2 lines read)" "$bench" capture noise.txt kept.json
kept "a console without a document"
{ printf '%s\n{"schema": "rtipc-bench/1", "env": {}, "resu\n' "$begin"; printf '==== rtipc-bench/1 JSON aborted ====\n'; } >aborted.txt
keep
expect 1 "could not finish its JSON" "$bench" capture aborted.txt kept.json
kept "an aborted document"
{ printf '%s\n{"schema": "something/2"}\n%s\n' "$begin" "$end"; } >invalid.txt
keep
expect 1 "not valid rtipc-bench/1" "$bench" capture invalid.txt kept.json
kept "a document of another schema"
# The time runs out: the terminal stays open and silent after a few lines.
printf 'boot\r\n%s\r\n{"schema":\r\n' "$begin" >slow.txt
keep
expect 1 "timed out after 1 s inside the JSON" "$feed" slow.txt -- "$bench" capture --timeout 1 @PTY@ kept.json
kept "a timeout"
keep
expect 1 "cannot open" "$bench" capture no-such-console.txt kept.json
kept "a missing source"
# One line is "1 line", not "1 lines".
printf 'boot\n' >one.txt
keep
expect 1 "the input ended without the begin marker (1 line read)" "$bench" capture one.txt kept.json
kept "a one-line console"
# --timeout covers the wait for a writer: a FIFO nobody opens for writing
# gives up after the timeout (it used to hang in open()), and one that a
# writer opens later is read as any source.
rm -f fifo && mkfifo fifo || fail "mkfifo"
keep
t0=$(date +%s)
expect 1 "timed out after 1 s without the begin marker (0 lines read)" timeout 20 "$bench" capture --timeout 1 fifo kept.json
[ $(( $(date +%s) - t0 )) -lt 10 ] || fail "capture --timeout 1 on a silent FIFO took more than 10 s"
kept "a FIFO without a writer"
(sleep 1; cat console.txt >fifo) &
expect 0 "" timeout 20 "$bench" capture --timeout 10 fifo fifo.json
wait
cmp -s fifo.json "$json" || fail "a capture from a FIFO is not the document"

# OUT.json '-' is standard output: the document alone there, the result
# line on stderr; with a standard input source, `capture - -` is a filter.
rm -f ./-
"$bench" capture - - <console.txt >stdout.json 2>err.txt || { cat err.txt; fail "capture - -"; }
cmp -s stdout.json "$json" || fail "capture - - did not print the document alone on stdout"
grep -q "standard input: .* written to standard output" err.txt || { cat err.txt; fail "capture - -: no result line on stderr"; }
[ ! -e ./- ] || fail "capture wrote a file named '-'"
expect 2 "--echo and OUT.json '-' both ask for standard output" "$bench" capture --echo console.txt -

# Markers as consoles mangle them: trailing blanks, idf.py monitor's
# colours around them, an ESP-IDF log prefix before them.
{ printf 'boot\r\n\033[0;32mI (5) app: %s   \033[0m\r\n' "$begin"; sed 's/$/\r/' "$json"; printf '%s \t\r\n' "$end"; } >mangled.txt
expect 0 "" "$bench" capture mangled.txt mangled.json
cmp -s mangled.json "$json" || fail "markers with colours, a log prefix or trailing blanks were not taken"
# A line close to a marker, and no document: the reason says where it was.
printf 'boot\n=== rtipc-bench/1 JSON begin ===\nmore\n' >near.txt
keep
expect 1 "saw a line like the begin marker at line 2" "$bench" capture near.txt kept.json
kept "a console with a near-marker"
# A log line that interrupts the document is left out, and counted.
{ printf '%s\n' "$begin"; head -n 20 "$json"; printf '\033[0;33mW (1234) task_wdt: something\033[0m\n'; printf 'I (1235) app: plain log line\n'
  tail -n +21 "$json"; printf '%s\n' "$end"; } >interrupted.txt
expect 0 "" "$bench" capture interrupted.txt interrupted.json
cmp -s interrupted.json "$json" || fail "log lines inside the document were not left out"
grep -q "2 log lines inside it left out" out.txt || { cat out.txt; fail "the skipped log lines are not counted"; }
# A saved log whose aborted document is followed by a complete one: the
# complete one is taken.
{ printf '%s\n{"schema": "rtipc-bench/1", "resu\n==== rtipc-bench/1 JSON aborted ====\nreboot\n' "$begin"; console "$json"; } >abort-then-ok.txt
expect 0 "looking for another document" "$bench" capture abort-then-ok.txt abort-then-ok.json
cmp -s abort-then-ok.json "$json" || fail "after an aborted document the complete one was not taken"

# A board that restarted while printing: the second document is the one.
{ printf '%s\n{"schema": "rtipc-bench/1", "res\n' "$begin"; console "$json"; } >restart.txt
expect 0 "the board restarted" "$bench" capture restart.txt restart.json
cmp -s restart.json "$json" || fail "after a restart the capture is not the second document"

# Usage: GNU conventions.
expect 0 "" "$bench" capture --help
grep -q '^usage: rtipc-bench capture \[options\] SOURCE OUT.json' out.txt || fail "--help is not on stdout"
expect 0 "" "$bench" capture --version
expect 2 "wants a source and an output file" "$bench" capture console.txt
expect 2 "--baud '12345' is not one of the speeds" "$bench" capture --baud 12345 console.txt x.json
expect 2 "--timeout 'soon' is not a number" "$bench" capture console.txt x.json --timeout soon
expect 2 "is the source itself" "$bench" capture console.txt console.txt
expect 2 "" "$bench" capture --no-such-option console.txt x.json
# Options after the operands and '--' work.
expect 0 "" "$bench" capture console.txt after.json --no-progress
expect 0 "" "$bench" capture --no-progress -- console.txt dashes.json
[ -f x.json ] && fail "a usage error wrote OUT.json"
echo "bench capture: ok"
