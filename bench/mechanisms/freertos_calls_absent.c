/* freertos_calls.h where rtipc does not run on FreeRTOS: every call fails
 * (the experiments ask only where bench_mech_kernel_built is true). */
#include "freertos_calls.h"

#include <stdio.h>

const bool bench_kcalls_built = false;

int bench_kq_create(size_t length, size_t item, bench_kq_t **q)
{
    (void)length, (void)item, (void)q;
    return -1;
}
size_t bench_kq_cb_size(void) { return 0; }
int bench_kq_create_static(size_t length, size_t item, void *storage, void *cb, bench_kq_t **q)
{
    (void)length, (void)item, (void)storage, (void)cb, (void)q;
    return -1;
}
void bench_kq_delete(bench_kq_t *q) { (void)q; }
int bench_kq_send(bench_kq_t *q, const void *item, int64_t wait_ns)
{
    (void)q, (void)item, (void)wait_ns;
    return -1;
}
int bench_kq_overwrite(bench_kq_t *q, const void *item)
{
    (void)q, (void)item;
    return -1;
}
int bench_kq_receive(bench_kq_t *q, void *item, int64_t wait_ns)
{
    (void)q, (void)item, (void)wait_ns;
    return -1;
}
int bench_kq_peek(bench_kq_t *q, void *item, int64_t wait_ns)
{
    (void)q, (void)item, (void)wait_ns;
    return -1;
}
int bench_kqs_create(size_t length, bench_kqs_t **set)
{
    (void)length, (void)set;
    return -1;
}
int bench_kqs_add(bench_kqs_t *set, bench_kq_t *q)
{
    (void)set, (void)q;
    return -1;
}
int bench_kqs_remove(bench_kqs_t *set, bench_kq_t *q)
{
    (void)set, (void)q;
    return -1;
}
void bench_kqs_delete(bench_kqs_t *set) { (void)set; }
int bench_kqs_select(bench_kqs_t *set, bench_kq_t *const *members, int n, int64_t wait_ns)
{
    (void)set, (void)members, (void)n, (void)wait_ns;
    return -2;
}
int bench_ksem_create(bench_ksem_t **s)
{
    (void)s;
    return -1;
}
void bench_ksem_delete(bench_ksem_t *s) { (void)s; }
int bench_ksem_give(bench_ksem_t *s)
{
    (void)s;
    return -1;
}
int bench_ksem_take(bench_ksem_t *s, int64_t wait_ns)
{
    (void)s, (void)wait_ns;
    return -1;
}
void bench_kdelay_ticks(unsigned n) { (void)n; }
size_t bench_kheap_free(void) { return 0; }
void *bench_kplace_alloc(int where, size_t size, char *why, size_t n)
{
    (void)where, (void)size;
    snprintf(why, n, "the FreeRTOS kernel's calls: rtipc runs on FreeRTOS only on the FreeRTOS targets");
    return NULL;
}
void bench_kplace_free(void *p) { (void)p; }
const char *bench_kplace_how(void) { return "none"; }
const char *bench_kplace_psram_how(void) { return "none"; }

/* No FreeRTOS: no kernel watchdog calls either. */
const bool bench_kwdt_espidf = false;
int bench_kwdt_add(void) { return -1; }
int bench_kwdt_reset(void) { return -1; }
int bench_kwdt_delete(void) { return -1; }
