# Sourced by the checks of two-core FreeRTOS targets (check-rv32.sh,
# check-esp32.sh), after their own say():
#   kernel_claims HOST_BUILD JSON DIR KERNEL
# The run measured the kernel's own objects beside rtipc's (the rows the
# claim audit decides from, test_claim_rows --produced-kernel), `rtipc-bench
# audit` accepts it (its text in DIR/audit.txt), and claim 9 has a verdict
# from the kernel's xSemaphoreGive against xTaskNotifyGive. KERNEL names the
# kernel in what it says. 0, or 1 after saying why.
kernel_claims() {
    local host=$1 json=$2 dir=$3 kernel=$4 v9
    "$host/tests/test_claim_rows" --produced-kernel "$json" | sed 's/^/    /'
    [ "${PIPESTATUS[0]}" -eq 0 ] || { say "$json lacks kernel rows the claims read"; return 1; }
    "$host/bench/rtipc-bench" audit "$json" >"$dir/audit.txt" 2>&1 ||
        { cat "$dir/audit.txt"; say "rtipc-bench audit refused $json"; return 1; }
    v9=$(sed -n 's/^9\. \[\([a-z-]*\)\].*/\1/p' "$dir/audit.txt")
    grep -A2 '^9\. ' "$dir/audit.txt" | sed 's/^/    /'
    case $v9 in
    holds | does-not-hold)
        grep -A2 '^9\. ' "$dir/audit.txt" | grep -q "kernel-sem .*kernel-notify" ||
            { say "claim 9 was not decided from xSemaphoreGive against xTaskNotifyGive"; return 1; }
        say "  claim 9 on $kernel, from the kernel's rows: $v9" ;;
    *) say "claim 9 got no verdict on $kernel ('$v9'; audit in $dir/audit.txt)"; return 1 ;;
    esac
}
