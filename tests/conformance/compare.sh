#!/bin/sh
# Run the conformance program and compare its lines with expected.txt.
#   compare.sh [--allow-skip] PROGRAM EXPECTED WORKDIR
# Lines starting with '#' are commentary and are not compared, except
# "# skip KEY... (reason)": the expected lines of those keys (KEY.* is a
# prefix) are left out of the comparison. Exit 0 when the lines match,
# 1 on any difference (the diff is printed) or if the program failed,
# 77 when they match but scenarios were skipped (0 with --allow-skip).
allow_skip=0
if [ "$1" = "--allow-skip" ]; then
    allow_skip=1
    shift
fi
prog=$1
expected=$2
work=$3
mkdir -p "$work" || exit 1
out=$work/output.txt

"$prog" >"$out" 2>"$work/stderr.txt"
status=$?
cat "$out"
cat "$work/stderr.txt" >&2
if [ "$status" -ne 0 ] && [ "$status" -ne 1 ]; then
    echo "conformance: the program ended with status $status" >&2
    exit 1
fi

# Keys skipped by the run, one per line.
sed -n 's/^# skip \([^(]*\)(.*$/\1/p' "$out" | tr ' ' '\n' | sed '/^$/d' >"$work/skipped.txt"

# Expected lines without the skipped keys; observed lines without comments.
awk -v skipfile="$work/skipped.txt" '
    BEGIN { while ((getline k < skipfile) > 0) skip[k] = 1 }
    /^#/ || /^$/ { next }
    {
        key = $0; sub(/:.*/, "", key)
        if (key in skip) next
        for (k in skip)
            if (k ~ /\.\*$/ && index(key, substr(k, 1, length(k) - 1)) == 1) next
        print
    }' "$expected" >"$work/expected.filtered"
grep -v '^#' "$out" >"$work/observed.txt"

if ! diff -u "$work/expected.filtered" "$work/observed.txt" >"$work/diff.txt"; then
    echo "conformance: output differs from $expected:" >&2
    cat "$work/diff.txt" >&2
    exit 1
fi
if [ "$status" -ne 0 ]; then
    echo "conformance: the lines match expected.txt but the program counted failed checks" >&2
    exit 1
fi
lines=$(wc -l <"$work/observed.txt")
skipped=$(wc -l <"$work/skipped.txt")
if [ "$skipped" -gt 0 ]; then
    echo "conformance: $lines lines match; $skipped ordered scenario keys skipped:" $(cat "$work/skipped.txt")
    [ "$allow_skip" -eq 1 ] && exit 0
    exit 77
fi
echo "conformance: all $lines lines match expected.txt"
exit 0
