#!/bin/bash
# keep-output.sh FILE COMMAND [ARG...]
#
# Runs COMMAND with its standard output shown as usual and copied into FILE,
# the way `COMMAND | tee FILE` would, except that FILE is replaced only by a
# whole copy: the copy goes to a temporary file next to FILE, which is
# renamed over FILE when COMMAND ended by itself with status 0 or 1 (for
# rtipc-bench and rtipc-soak: a complete run, whose failures are part of its
# record) and the copy was written in full. Otherwise (a usage error, a
# crash, a signal, a full disk) the temporary is removed and a previous FILE
# is left as it was.
#
# Exit status: COMMAND's, or the copy's when only the copy failed (make bench
# then fails too).
set -u
if [ $# -lt 2 ]; then
    echo "usage: keep-output.sh FILE COMMAND [ARG...]" >&2
    exit 2
fi
file=$1
shift
tmp=$(dirname -- "$file")/.$(basename -- "$file").$$.tmp
"$@" | tee -- "$tmp"
status=("${PIPESTATUS[@]}")
cmd=${status[0]} copy=${status[1]}
if [ "$copy" -eq 0 ] && [ "$cmd" -le 1 ]; then
    sync -- "$tmp" 2>/dev/null  # on the disk before the rename (best effort)
    mv -f -- "$tmp" "$file" && exit "$cmd"
fi
rm -f -- "$tmp"
[ "$copy" -ne 0 ] && echo "keep-output.sh: $file not replaced: its copy failed (tee status $copy)" >&2
[ "$cmd" -gt 1 ] && echo "keep-output.sh: $file not replaced: the command exited $cmd" >&2
[ "$cmd" -ne 0 ] && exit "$cmd"
exit 1
