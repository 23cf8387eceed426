#!/bin/sh
# The command-line contract (GNU): --help and --version to stdout with
# status 0, usage errors status 2 with a message on stderr, options before
# or after the operands, `--` ends the options, each option at most once,
# every number range-checked with the range in the message, outputs checked
# before a run starts; `help ID` for every listed experiment.
#   bench_cli.sh RTIPC_BENCH SOURCE_DIR WORKDIR
set -u
bench=$1 src=$2 work=$3
rm -rf "$work"
mkdir -p "$work" || { echo "FAIL: cannot create $work" >&2; exit 1; }
out=$work/out.txt err=$work/err.txt
fail() { echo "FAIL: $*" >&2; exit 1; }
expect() { # expect STATUS COMMAND...: stdout in $out, stderr in $err
    want=$1; shift
    "$@" >"$out" 2>"$err"; got=$?
    [ "$got" -eq "$want" ] || { cat "$out" "$err"; fail "'$*' exited $got, expected $want"; }
}
says() { # says TEXT: stderr holds TEXT (fixed string)
    grep -qF -- "$1" "$err" || { cat "$err"; fail "stderr lacks '$1'"; }
}
help_text=$("$bench" --help 2>/dev/null) || fail "--help did not exit 0"
echo "$help_text" | grep -q "usage: rtipc-bench" || fail "--help text not on stdout"
expect 2 "$bench"
expect 2 "$bench" frobnicate
expect 2 "$bench" run no-such-experiment
expect 2 "$bench" run --samples 0 queue-latency
expect 2 "$bench" run --samples abc queue-latency
expect 2 "$bench" run --cpus 0 queue-latency
expect 2 "$bench" run --cpus 0,9999 queue-latency
expect 2 "$bench" run --tick-hz 0 queue-latency
expect 2 "$bench" run --bogus
expect 2 "$bench" run queue-latency queue-latency
expect 2 "$bench" help no-such-experiment
says "neither an experiment nor a command"
# `help COMMAND` is that command's --help, on stdout.
for cmd in run compare report audit capture list; do
    expect 0 "$bench" help "$cmd"
    grep -q "^usage: rtipc-bench" "$out" || fail "'help $cmd' prints no usage"
done
expect 0 "$bench" help capture
grep -q "^usage: rtipc-bench capture" "$out" || fail "'help capture' is not capture's usage"
# An abbreviation that fits several options is ambiguous, not unknown.
expect 2 "$bench" run --s 5 queue-latency
says "option '--s' is ambiguous: --samples, --seed"
expect 0 "$bench" run --sam 200 --quick --no-progress queue-set
expect 0 "$bench" run --help
expect 0 "$bench" run queue-latency --help
n=0
for id in $("$bench" list | cut -d' ' -f1); do
    "$bench" help "$id" | grep -q "^$id: " || fail "help $id"
    n=$((n + 1))
done
[ "$n" -eq 17 ] || fail "list shows $n experiments, expected 17"

# --version: the project version of CMakeLists.txt, on stdout, status 0, from
# every command.
version=$(sed -n 's/^project(rtipc VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")
[ -n "$version" ] || fail "no version in CMakeLists.txt"
for cmd in "" run compare audit report list help; do
    # shellcheck disable=SC2086
    expect 0 "$bench" $cmd --version
    grep -qx "rtipc-bench (rtipc) $version" "$out" || { cat "$out"; fail "'$cmd --version' does not print $version"; }
done
# --help from every command, on stdout.
for cmd in run compare audit report list help; do
    expect 0 "$bench" $cmd --help
    grep -q "^usage: rtipc-bench" "$out" || fail "'$cmd --help' prints no usage on stdout"
done
expect 0 "$bench" run --help queue-latency
grep -q "^queue-latency: " "$out" || fail "run --help ID does not show the experiment"
expect 2 "$bench" --bogus
expect 2 "$bench" list extra
expect 2 "$bench" help
expect 2 "$bench" report only-one-operand

# Numbers out of range or malformed: status 2, the range in the message.
range() { # range OPTION VALUE TEXT
    expect 2 "$bench" run "$1" "$2" queue-latency
    says "$3"
}
for v in 1e-300 0 0.001 3601 nan inf -1 0x10 "" " 1" 1s; do
    range --duration "$v" "from 0.01 to 3600"
done
for v in 0 50000001 -1 " 5" +5 abc 1e3 99999999999999999999999; do
    range --samples "$v" "from 1 to 50000000"
done
for v in -1 10000001 x; do range --warmup "$v" "from 0 to 10000000"; done
for v in -1 " -5" 18446744073709551616 1.5; do range --seed "$v" "from 0 to 18446744073709551615"; done
for v in 0 100001 -5; do range --tick-hz "$v" "from 1 to 100000"; done
for v in 0 100001; do expect 2 "$bench" run --vcd "$work/t.vcd" --trace-samples "$v" queue-latency; says "from 1 to 100000"; done
for v in 0 0, ,1 0,1,2 -1,0 " 0,1" 0,9999; do range --cpus "$v" "each from 0 to"; done
expect 2 "$bench" run --samples
says "wants a value"

# Options after the experiment ids, and `--`.
expect 0 "$bench" run queue-latency --quick --no-progress --samples 200
grep -q "^== queue-latency" "$out" || fail "options after an experiment id: no queue-latency table"
expect 0 "$bench" run --no-progress --samples 200 -- queue-latency
expect 2 "$bench" run -- --quick
says "unknown experiment '--quick'"

# Each option at most once: never a silent drop.
expect 2 "$bench" run --json "$work/a.json" --json "$work/b.json" queue-latency
says "--json given twice"
expect 2 "$bench" run --samples 5 --samples=6 queue-latency
says "--samples given twice"
expect 2 "$bench" audit "$src/tests/bench/data/one-core.json" --json "$work/a.json" --json "$work/b.json"
says "--json given twice"
expect 2 "$bench" compare --threshold 5 --threshold 6 "$src/tests/bench/data/base.json" "$src/tests/bench/data/base.json"
says "--threshold given twice"

# Outputs that name one file, or an input: usage errors, before anything runs.
expect 2 "$bench" run --json "$work/x" --csv "$work/x" queue-latency
says "name the same file"
[ -s "$out" ] && fail "a run started with two outputs naming one file"
expect 2 "$bench" run --json "$work/x" --vcd "$work/../$(basename "$work")/x" queue-latency
says "name the same file"
expect 2 "$bench" run --json "$work/rep/index.html" --report "$work/rep" queue-latency
says "name the same file"
ln -sf x "$work/link"
: >"$work/x"
expect 2 "$bench" run --csv "$work/x" --perfetto "$work/link" queue-latency
says "name the same file"
cp "$src/tests/bench/data/one-core.json" "$work/in.json"
expect 2 "$bench" audit "$work/in.json" --json "$work/in.json"
says "would overwrite the results file"
expect 2 "$bench" audit "$work/in.json" --json "$work/./in.json"
cmp -s "$work/in.json" "$src/tests/bench/data/one-core.json" || fail "audit X --json X changed X"
mkdir -p "$work/rep"
cp "$work/in.json" "$work/rep/index.html"
expect 2 "$bench" report "$work/rep/index.html" "$work/rep"
says "would overwrite the results file"

# An output that cannot be written is found before the run: status 1, the
# reason, nothing on stdout (no experiment ran).
expect 1 "$bench" run --quick --no-progress --samples 200 --json /nonexistent-dir/x.json queue-latency
says "cannot write /nonexistent-dir/x.json: /nonexistent-dir: No such file or directory"
[ -s "$out" ] && { cat "$out"; fail "the run started although its output could not be written"; }
expect 1 "$bench" run --quick --no-progress --csv "$work/x/sub.csv" queue-latency
says "Not a directory"
[ -s "$out" ] && fail "the run started although --csv could not be written"
expect 1 "$bench" run --quick --no-progress --report "$work/x/rep" queue-latency
[ -s "$out" ] && fail "the run started although --report could not be written"
expect 1 "$bench" run --quick --no-progress --json "$work" queue-latency
says "Is a directory"
# One core (--cpus 0,0): no experiment records a cross-core row (both tasks
# share the core whatever the placement); a note says "one core here".
for id in queue-latency core-placement notify-vs-sem; do
    expect 0 "$bench" run --cpus 0,0 --quick --no-progress --samples 200 --json "$work/one.json" "$id"
    grep -q '"variant": "cross' "$work/one.json" && fail "$id: a cross-core row with one core"
    grep -q '"variant": "same-core' "$work/one.json" || fail "$id: no same-core row with one core"
    grep -q "one core here" "$out" || fail "$id: no one-core note"
done
echo "rtipc-bench command line: ok"
