/* irq_espidf.c's cross-core request: an ESP-IDF IPC ISR callback, run on
 * the other CPU inside its high-priority interrupt (esp_ipc_isr_asm_call).
 * Such a callback is entered with CALLX0, so it has no register window of
 * its own: it may use a2-a4 only and must return with a0 intact (a C
 * function here would rotate the interrupted code's window). It sets the
 * running CPU's internal software interrupt 0 (CPU interrupt 7), which
 * that CPU takes as rtipc's vector once it is back below level 1. */
    .section .iram1, "ax"
    .global rtipc__espidf_raise_sw0
    .type   rtipc__espidf_raise_sw0, @function
    .align  4
rtipc__espidf_raise_sw0:
    movi    a3, (1 << 7)
    wsr     a3, INTSET
    rsync
    ret
    .size   rtipc__espidf_raise_sw0, . - rtipc__espidf_raise_sw0
