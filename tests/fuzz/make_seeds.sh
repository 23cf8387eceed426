#!/bin/sh
# Regenerate the seed corpora of tests/fuzz (README.md here):
#   corpus/api/      one small program per object type for fuzz_api
#   corpus/compare/  valid and malformed rtipc-bench/1 files for
#                    fuzz_compare_json, derived from tests/bench/data/base.json
# Usage: tests/fuzz/make_seeds.sh   (from anywhere; overwrites the seeds)
#
# fuzz_api programs are written in hex, one step per group: the first byte
# picks the object (0 queue, 1 semaphore, 2 mutex, 3 notification, 4 event
# group, 5 ring buffer, 6 stream buffer, 7 message buffer, 8 mailbox, 9 SPSC,
# 0a queue set, 0b wrong handle, 0c: run the next step in the interrupt
# handler); the next byte the slot, the next the operation, then its
# arguments in the order fuzz_api.c reads them. Running an input with
# FUZZ_API_TRACE=1 prints the steps it decodes to.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
api=$here/corpus/api
cmp=$here/corpus/compare
base=$here/../bench/data/base.json
mkdir -p "$api" "$cmp"
rm -f "$api"/* "$cmp"/*

# prog FILE HEX...: the bytes of the hex groups (spaces ignored).
prog() {
    f=$1
    shift
    echo "$*" | tr -d ' \n' | xxd -r -p >"$api/$f"
}

prog queue \
    000002030300 0000010141 00 0000020142 00 0000034301 0000044400 00000601 00 000008 \
    0000050100 000007 0000090145 00000b 00000c04 00000d 0c000001014600 \
    000101000200 0001090147 00010a0148 0001050100 0001050105 000100 0b0103 0b0100 000000
prog sem \
    010001000201 010001 010001 010001 01000201 01000300 010005 01000300 01000405 01000600 010007 \
    010102000000 01010200 0c01010300 0c010105 010100 010100000000 01010100 010100
prog mutex \
    0200000101 02000100 02000200 020004 020005 020004 02000100 020000 020004 020000 \
    0201010001 02010100 02010200 0c02010100 020104 02010601 020107 0b0004 020100
prog notify \
    0300000f000000010101 03010000000000020101 0300017856341203 0100 03000100000000040101 \
    03000000000000050100 03000400000000010100 0302 01ff000000010101 03030200000000 01 \
    03040000000000000100 030601000000 0001ff000000010f0000000100 03080200000000 00 \
    030900ffffffff010100 0c0302000000000001 0101 0c030400000000000100
prog eventgroup \
    04000001 0400010205 01 0400020003 01 0400030201 01 040005020c 01000100 040006020f 00010100 \
    04000702010203 0100 040001001f 01 04000802 0002 04000902 00 04010101 0c04010102 0101 \
    0c0401020201 01 0401000200 040000 0200
prog ringbuf \
    05000000003f 0500010900 4100 0500030500 42 0500040701 0043 0500060100 05000501 \
    0500080100 05000c01 05000d01 05000a0105 0100 05000e00 0500010d004400 0500010d004500 \
    05000801 00 05000c01 0500060100 05000c01 \
    05010101001f 0501010b005100 0501010b005200 0501080100 05010c01 05010c01 0501010b005300 \
    05010901 05010c01 05010c01 05010901 05010d01 \
    05020002000f 0502010900 6100 05020a010301 00 05020c01 0502010900 6200 0502060100 \
    05020c01 05020b0110 01 05020d01 0b0207
prog streambuf \
    0600000f0400 0600010900 4100 0600030900 42 0600040500 00 0600061300 06000711 \
    06000108004300 060008 06000900 06000a 06010107 0000 0601010300 4400 0c06010103 00 45 \
    06010400 0000 0c06010600 0000 0b0008 0b0011
prog msgbuf \
    0700001f00 0700010400 4100 0700030900 42 0700040200 00 0700052000 00 0700062000 \
    0700041f0005 070007 07000800 070009 0701010900 0701030300 43 0c07010105 004400 \
    0b0009 0b000a 0701000700
prog mailbox \
    0800000700 0141 08000101 42 0800020143 0800030101 08000400000100 08000400010100 \
    080006 08000700 0801010300 0044 0801010304 0044 08010101 45 0c0801040000010100 \
    0c08010301 01 080100 0b0015
prog spsc \
    090000020300 0900010100 41 0900010101 42 09000101020043 0900030100 0900030102 \
    0900030101 0900030103 00 0900050601 414243444546 0900070801 0900050301 474849 \
    09000900 09000a 090101000000 0901010100 4a 0c0901010102004b 0c0901030103 00 090100 0b0010
prog queueset \
    0a0000 0700 000002010100 0a000100 010001000100 0a000200 050000000 00f 0a000300 \
    0000010141 00 010001 0500010300 4200 0a00070100 0a00070100 0a0008 01 0a00070105 \
    0000050100 01000300 0500060100 05000c01 0a000400 0a000500 0a000600 0a000a00 \
    0a00090 0 0a0000
prog isr \
    0c000002030300 00000203030 0 0c0000034301 0c000008 0c000007 0c01000201 0c01000502 \
    0c020001 0c03020100000000010101 0c0400020101 0c050000000013 0c0800010101 0c09000100
prog wrong \
    000101000200 010102000000 020101000001 04010101 000100 010100 020100 040100 0200 \
    0b0000 0b0102 0b0203 0b0304 0b0005 0b0106 0b0207 0b0308 0b0009 0b010a 0b020b 0b030c \
    0b000d 0b010e 0b020f 0b0310 0b0011 0b0112

# compare: valid files, a pair, and one malformed variant per check.
cp "$base" "$cmp/valid-base.json"
# A pair (BASE NUL NEW): latencies up by half, a rate down: regressions.
{ cat "$base"; printf '\0'; sed -e 's/"p50": 10000,/"p50": 15000,/' -e 's/"value": 200000}/"value": 100000}/' "$base"; } \
    >"$cmp/pair-regressed"
# Histogram rows without a file interval (the bootstrap), value and missing rows.
small='{"schema": "rtipc-bench/1", "env": {"hostname": "h"}, "results": [
 {"experiment": "e", "mechanism": "m", "variant": "v", "metric": "latency", "unit": "ns", "n": 4, "p50": 10,
  "p99": 20, "p999": null, "histogram": {"sub_bucket_bits": 2, "buckets": [[8, 1], [10, 2], [20, 1]]}},
 {"experiment": "e", "mechanism": "m", "variant": "v", "metric": "throughput", "unit": "msg/s", "value": 5},
 {"experiment": "e", "mechanism": "x", "variant": "", "missing": true, "note": "n/a"}]}'
printf '%s\n' "$small" >"$cmp/valid-small.json"
{ printf '%s\n' "$small"; printf '\0'; printf '%s\n' "$small" | sed -e 's/\[10, 2\]/[16, 2]/' -e 's/"p50": 10,/"p50": 16,/'; } \
    >"$cmp/pair-histogram"
printf '%s' "$small" | sed 's/"value": 5}/"value": 5}, {"experiment": "e", "mechanism": "m", "variant": "v", "metric": "throughput", "unit": "msg\/s", "value": 6}/' \
    >"$cmp/duplicate-row.json"
: >"$cmp/bad-empty"
printf '{' >"$cmp/bad-truncated-brace"
head -c 2000 "$base" >"$cmp/bad-truncated.json"
printf '[]' >"$cmp/bad-top-array.json"
sed 's|"rtipc-bench/1"|"rtipc-bench/2"|' "$base" >"$cmp/bad-schema.json"
printf '{"schema": "rtipc-bench/1", "results": {}}' >"$cmp/bad-results-object.json"
printf '{"schema": "rtipc-bench/1", "env": [], "results": []}' >"$cmp/bad-env-array.json"
printf '%s' "$small" | sed 's/"unit": "ns", //' >"$cmp/bad-no-unit.json"
printf '%s' "$small" | sed 's/\[\[8, 1\], \[10, 2\]/[[10, 2], [8, 1]/' >"$cmp/bad-buckets-order.json"
printf '%s' "$small" | sed 's/"sub_bucket_bits": 2/"sub_bucket_bits": 31/' >"$cmp/bad-sub-bucket-bits.json"
printf '%s' "$small" | sed 's/"p99": 20,/"p99": "20", "p50_ci95": [12, 9],/' >"$cmp/bad-p99-string.json"
printf '%s' "$small" | sed 's/"p999": null,/"p999": null, "p50_ci95": [12, 9],/' >"$cmp/bad-ci-reversed.json"
printf '%s' "$small" | sed 's/"n": 4/"n": "4"/' >"$cmp/bad-n-string.json"
{ cat "$base"; printf '\0{"schema": "rtipc-bench/1"}'; } >"$cmp/pair-bad-new"
