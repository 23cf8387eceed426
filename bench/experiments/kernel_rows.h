/* The kernel's twin of an rtipc mechanism in a handoff experiment, on a
 * FreeRTOS target (bench_mech_kernel_twin; never on Linux): its object is
 * made afresh for every handoff run and destroyed after it. A kernel
 * notification learns its consumer's handle at the first receive, and every
 * run's consumer is a new task: an object kept across runs would give to a
 * deleted task. For the queue and the semaphore a fresh object costs nothing
 * and keeps every kernel row alike. */
#ifndef BENCH_KERNEL_ROWS_H
#define BENCH_KERNEL_ROWS_H

#include "../harness/handoff_rounds.h"
#include "../mechanisms/mechanisms.h"
#include "../target/target.h"

/* One kernel case of handoff_measure_rounds: its start and stop hooks make
 * and destroy the object around each round, around the case's own hooks
 * (a load) when it has them, and write the object's operations into *ops
 * (the case's own, or the inner operations of a wrapper the case drives). */
typedef struct {
    const bench_mech_t *m;
    size_t depth;
    handoff_ops_t *ops;
    void *obj;                                   /* this round's object */
    int (*start)(bench_run_t *run, void *ctx);   /* the case's own hooks */
    void (*stop)(bench_run_t *run, void *ctx);
    void *ctx;
} kernel_round_t;

static inline int kernel_round_start(bench_run_t *run, void *arg)
{
    kernel_round_t *k = arg;
    if (!k->obj) {
        char why[160] = "";
        if (k->m->create(k->depth, &k->obj, why, sizeof why) != 0) {
            k->obj = NULL;
            return bench_fail(run, "%s: %s", k->m->name, why);
        }
    }
    bench_mech_handoff_ops(k->m, k->obj, k->ops);
    if (k->start && k->start(run, k->ctx) != 0) {
        k->m->destroy(k->obj);
        k->obj = NULL;
        return -1;
    }
    return 0;
}

static inline void kernel_round_stop(bench_run_t *run, void *arg)
{
    kernel_round_t *k = arg;
    if (k->stop)
        k->stop(run, k->ctx);
    if (k->obj)
        k->m->destroy(k->obj);
    k->obj = NULL;
}

/* Ready @p k for a case: 0, the first round's object made (the case's
 * start and stop are then kernel_round_start/stop with ctx k); 1 the kernel
 * object is absent here, recorded as a missing row (leave the case out);
 * -1 after bench_fail(). The caller sets k->start/stop/ctx to the case's own
 * hooks first, if any. */
static inline int kernel_round_init(bench_run_t *run, kernel_round_t *k, const bench_mech_t *m, size_t depth,
                                    handoff_ops_t *ops)
{
    k->m = m;
    k->depth = depth;
    k->ops = ops;
    k->obj = NULL;
    int rc = bench_mech_make(run, m, depth, &k->obj);
    if (rc == 0)
        bench_mech_handoff_ops(m, k->obj, ops);
    return rc;
}

/* After the rounds: an object left by a round that never ran. */
static inline void kernel_round_done(kernel_round_t *k)
{
    if (k->m && k->obj)
        k->m->destroy(k->obj);
    k->obj = NULL;
}

/* handoff_measure on a fresh object of @p m: the row, or NULL (missing:
 * recorded; or failed: bench_failed(run)). */
static inline const bench_result_t *kernel_measure(bench_run_t *run, const bench_mech_t *m, size_t depth,
                                                   const char *variant, const handoff_cfg_t *cfg)
{
    void *obj = NULL;
    if (bench_mech_make(run, m, depth, &obj) != 0)
        return NULL;
    handoff_ops_t ops;
    bench_mech_handoff_ops(m, obj, &ops);
    const bench_result_t *row = handoff_measure(run, m->name, variant, &ops, cfg);
    m->destroy(obj);
    return row;
}

/* Every case's samples are pooled until the rounds end: where the heap says
 * how much is free (an ESP32, with the kernel's cases beside rtipc's), they
 * take at most half of it, the rest left to the tasks and the rounds'
 * buffers. Cuts each case's samples to fit and notes it. */
static inline void kernel_rows_fit_heap(bench_run_t *run, handoff_case_t *cases, size_t n)
{
    bench_memory_t mem;
    bench_target_memory(&mem);
    if (mem.kind != BENCH_MEMORY_HEAP_FREE || mem.now_bytes <= 0 || n == 0)
        return;
    size_t cap = (size_t)mem.now_bytes / 2 / (n + 2) / sizeof(int64_t);
    bool cut = false;
    for (size_t c = 0; c < n; c++) {
        if (cases[c].cfg.samples > cap) {
            cases[c].cfg.samples = cap;
            cut = true;
        }
    }
    if (cut)
        bench_note(run, "samples: %zu per case, what half of the free heap (%lld KiB) holds for %zu cases", cap,
                   (long long)(mem.now_bytes >> 10), n);
}

#endif
