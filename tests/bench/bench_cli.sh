#!/bin/sh
# The command-line contract: --help to stdout with status 0, usage errors
# status 2 with a message on stderr, `help ID` for every listed experiment.
#   bench_cli.sh RTIPC_BENCH
set -u
bench=$1
fail() { echo "FAIL: $*" >&2; exit 1; }
expect() { # expect STATUS COMMAND...
    want=$1; shift
    "$@" >/tmp/rtipc-bench-cli.$$ 2>&1; got=$?
    [ "$got" -eq "$want" ] || { cat /tmp/rtipc-bench-cli.$$; rm -f /tmp/rtipc-bench-cli.$$; fail "'$*' exited $got, expected $want"; }
    rm -f /tmp/rtipc-bench-cli.$$
}
out=$("$bench" --help 2>/dev/null) || fail "--help did not exit 0"
echo "$out" | grep -q "usage: rtipc-bench" || fail "--help text not on stdout"
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
expect 0 "$bench" run --help
expect 0 "$bench" run queue-latency --help
n=0
for id in $("$bench" list | cut -d' ' -f1); do
    "$bench" help "$id" | grep -q "^$id: " || fail "help $id"
    n=$((n + 1))
done
[ "$n" -eq 15 ] || fail "list shows $n experiments, expected 15"
# An unwritable JSON path is a runtime failure (1), reported on stderr.
expect 1 "$bench" run --quick --no-progress --samples 200 --json /nonexistent-dir/x.json queue-latency
echo "rtipc-bench command line: ok"
