# Sourced by the checks of FreeRTOS targets (check-freertos.sh,
# check-rv32.sh, check-esp32.sh), after their own say():
#   direct_targets JSON
# A run of a direct-mode build (RTIPC_FREERTOS_DIRECT; docs/porting.md,
# "Direct mode") holds issue 42's targets: round-trip's nine target-ratio
# rows (rtipc's queue, semaphore and notification over the kernel's own
# call: two tasks, one task, from a handler) are all there and each says
# "holds" (at most 1.10x). Prints them; 0, or 1 after saying which missed.
direct_targets() {
    python3 - "$1" <<'EOF'
import json, sys
rows = [r for r in json.load(open(sys.argv[1]))["results"]
        if r.get("experiment") == "round-trip" and r.get("metric") == "target-ratio"]
bad = 0
for r in rows:
    note = r.get("note", "")
    print("    %s" % note)
    bad += not note.endswith(": holds")
if len(rows) != 9:
    print("    %d of round-trip's 9 target-ratio rows" % len(rows))
    bad += 1
sys.exit(1 if bad else 0)
EOF
    local rc=$?
    [ $rc -eq 0 ] && say "  direct mode: every rtipc/kernel round-trip ratio is at most 1.10x" ||
        say "direct mode: a round-trip ratio is over 1.10x or missing ($1)"
    return $rc
}
