/* The handle table (src/common/handle.h) seen from outside and inside: a
 * stale handle is refused after its very slot and memory went to a new
 * object of the same kind or of another one; slots are reused first in,
 * first out, and a slot's handle repeats only after 2^GEN_BITS - 1 reuses;
 * the table grows past its first chunk; a full table makes creation fail
 * with RTIPC_ENOMEM (the call leaving *out and memory as they were); an
 * interrupt handler's static creation never grows the table. */
#include <stdint.h>
#include <stdlib.h>

#include "../../src/common/handle.h"
#include "test_support.h"

static size_t baseline_open;

static void isr(void *arg) { (void)arg; }

static int setup(void **state)
{
    (void)state;
    /* The calling thread's own task handle (adopted on first use) stays. */
    (void)rtipc_task_current();
    baseline_open = rtipc__handle_open_count();
    return 0;
}

static void assert_no_handle_leaked(void) { assert_int_equal(rtipc__handle_open_count(), baseline_open); }

/* Open fillers (dynamic semaphores) until the next open takes the slot that
 * is `behind` places from the head of the free FIFO; returns how many, and
 * stores them in fill[]. */
static size_t fill_free_list(rtipc_sem_t **fill, size_t max, size_t behind)
{
    size_t n = rtipc__handle_free_count() - behind;
    assert_true(n <= max);
    for (size_t i = 0; i < n; ++i)
        assert_int_equal(rtipc_sem_create_binary(&fill[i]), RTIPC_OK);
    return n;
}

static void delete_fillers(rtipc_sem_t **fill, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        assert_int_equal(rtipc_sem_delete(fill[i]), RTIPC_OK);
}

#define MAX_FILL 4096

/* A static queue deleted; a new static queue in the same control block and
 * the same slot: only the generation tells the handles apart. */
static void a_stale_handle_is_refused_when_its_slot_and_memory_hold_a_new_queue(void **state)
{
    (void)state;
    static rtipc_sem_t *fill[MAX_FILL];
    rtipc_queue_static_t cb;
    int storage[4], v = 1;
    rtipc_queue_t *a = NULL, *b = NULL;
    assert_int_equal(rtipc_queue_create_static(4, sizeof(int), storage, &cb, &a), RTIPC_OK);
    assert_int_equal(rtipc_queue_send(a, &v, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(rtipc_queue_delete(a), RTIPC_OK);
    size_t n = fill_free_list(fill, MAX_FILL, 1); /* a's slot is last in the FIFO */
    assert_int_equal(rtipc_queue_create_static(4, sizeof(int), storage, &cb, &b), RTIPC_OK);
    assert_int_equal(rtipc__handle_index((uintptr_t)b), rtipc__handle_index((uintptr_t)a));
    assert_ptr_equal(rtipc__handle_get(b, RTIPC__H_QUEUE), (void *)&cb);
    assert_ptr_not_equal(a, b);
    assert_int_equal(rtipc_queue_messages_waiting(a), RTIPC_EINVAL);
    assert_int_equal(rtipc_queue_send(a, &v, RTIPC_NO_WAIT), RTIPC_EINVAL);
    assert_int_equal(rtipc_queue_delete(a), RTIPC_EINVAL);
    assert_int_equal(rtipc_queue_messages_waiting(b), 0); /* a's send reached nobody */
    assert_int_equal(rtipc_queue_send(b, &v, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(rtipc_queue_messages_waiting(b), 1);
    assert_int_equal(rtipc_queue_delete(b), RTIPC_OK);
    delete_fillers(fill, n);
    assert_no_handle_leaked();
}

/* The same with an object of another kind in the slot and the memory. */
static void a_stale_handle_is_refused_when_its_slot_and_memory_hold_another_kind(void **state)
{
    (void)state;
    static rtipc_sem_t *fill[MAX_FILL];
    union {
        rtipc_mailbox_static_t x;
        rtipc_spsc_static_t p;
    } cb;
    static _Alignas(8) unsigned char storage[64];
    rtipc_mailbox_t *a = NULL;
    rtipc_spsc_t *b = NULL;
    uint64_t v = 3;
    assert_int_equal(rtipc_mailbox_create_static(8, &v, storage, &cb.x, &a), RTIPC_OK);
    assert_int_equal(rtipc_mailbox_delete(a), RTIPC_OK);
    size_t n = fill_free_list(fill, MAX_FILL, 1);
    assert_int_equal(rtipc_spsc_create_static(4, sizeof(uint64_t), storage, &cb.p, &b), RTIPC_OK);
    assert_int_equal(rtipc__handle_index((uintptr_t)b), rtipc__handle_index((uintptr_t)a));
    assert_int_equal(rtipc_mailbox_read(a, &v, NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_mailbox_write(a, &v), RTIPC_EINVAL);
    assert_int_equal(rtipc_spsc_size((rtipc_spsc_t *)(void *)a), RTIPC_EINVAL);   /* a was never a ring */
    assert_int_equal(rtipc_mailbox_read((rtipc_mailbox_t *)(void *)b, &v, NULL), RTIPC_EINVAL); /* nor b a mailbox */
    assert_int_equal(rtipc_spsc_try_push(b, &v), RTIPC_OK);
    assert_int_equal(rtipc_spsc_size(b), 1);
    assert_int_equal(rtipc_spsc_delete(b), RTIPC_OK);
    delete_fillers(fill, n);
    assert_no_handle_leaked();
}

/* Closed slots come back oldest first. */
static void closed_slots_are_reused_first_in_first_out(void **state)
{
    (void)state;
    static rtipc_sem_t *fill[MAX_FILL];
    rtipc_sem_t *s[3], *again[3];
    for (int i = 0; i < 3; ++i)
        assert_int_equal(rtipc_sem_create_binary(&s[i]), RTIPC_OK);
    for (int i = 0; i < 3; ++i)
        assert_int_equal(rtipc_sem_delete(s[i]), RTIPC_OK);
    size_t n = fill_free_list(fill, MAX_FILL, 3);
    for (int i = 0; i < 3; ++i) {
        assert_int_equal(rtipc_sem_create_binary(&again[i]), RTIPC_OK);
        assert_int_equal(rtipc__handle_index((uintptr_t)again[i]), rtipc__handle_index((uintptr_t)s[i]));
        assert_int_equal(rtipc_sem_count(s[i]), RTIPC_EINVAL);
    }
    for (int i = 0; i < 3; ++i)
        assert_int_equal(rtipc_sem_delete(again[i]), RTIPC_OK);
    delete_fillers(fill, n);
    assert_no_handle_leaked();
}

/* On the FreeRTOS simulator the handle lock is a critical section, two
 * signal-mask system calls: the 2^24 - 1 reuses of a 64-bit host's slot take
 * minutes. There the walk covers the first and the last SKIP_AFTER or so
 * generations and moves the closed slot's generation over the middle ones,
 * under the handle lock as handle.c does. */
#define SKIP_AFTER 4096u

static void skip_generations(uint32_t index, uint32_t n, uint32_t *reuses)
{
    rtipc__port_handle_lock();
    rtipc__handle_slot_t *s = &rtipc__handle_chunks[index >> RTIPC__HANDLE_CHUNK_SHIFT][index & (RTIPC__HANDLE_CHUNK - 1)];
    uint32_t gen = s->gen;
    if (gen + n <= RTIPC__HANDLE_GEN_MASK) /* never across generation 0 */
        s->gen = gen + n;
    rtipc__port_handle_unlock();
    assert_true(gen + n <= RTIPC__HANDLE_GEN_MASK);
    *reuses += n;
}

/* The documented limit: one slot reused over and over gives back the same
 * handle value only after 2^GEN_BITS - 1 reuses (generation 0 is skipped). */
static void a_slots_handle_repeats_only_after_every_generation(void **state)
{
    (void)state;
    static rtipc_sem_t *fill[MAX_FILL];
    static int dummy;
    size_t n = fill_free_list(fill, MAX_FILL, 0); /* free FIFO empty: one slot cycles */
    uintptr_t first = rtipc__handle_open(&dummy, RTIPC__H_SEM);
    assert_true(first != 0);
    uintptr_t h = first;
    uint32_t reuses = 0;
    do {
        rtipc__handle_close(h);
        if (RTIPC_PORT_FREERTOS && reuses == SKIP_AFTER && RTIPC__HANDLE_GEN_MASK > 3 * SKIP_AFTER)
            skip_generations(rtipc__handle_index(first), RTIPC__HANDLE_GEN_MASK - 2 * SKIP_AFTER, &reuses);
        h = rtipc__handle_open(&dummy, RTIPC__H_SEM);
        assert_int_equal(rtipc__handle_index(h), rtipc__handle_index(first));
        ++reuses;
    } while (h != first && reuses <= RTIPC__HANDLE_GEN_MASK);
    assert_int_equal(reuses, RTIPC__HANDLE_GEN_MASK);
    rtipc__handle_close(h);
    delete_fillers(fill, n);
    assert_no_handle_leaked();
}

/* More handles than the first chunk holds: the table grows, and every
 * handle keeps naming its own object. */
static void the_table_grows_past_its_first_chunk(void **state)
{
    (void)state;
    enum { N = 3 * RTIPC__HANDLE_CHUNK };
    static rtipc_sem_t *s[N];
    for (unsigned i = 0; i < N; ++i)
        assert_int_equal(rtipc_sem_create_counting(N, i, &s[i]), RTIPC_OK);
    assert_true(rtipc__handle_capacity() >= N);
    for (unsigned i = 0; i < N; ++i)
        assert_int_equal(rtipc_sem_count(s[i]), (int)i);
    for (unsigned i = 0; i < N; ++i)
        assert_int_equal(rtipc_sem_delete(s[i]), RTIPC_OK);
    for (unsigned i = 0; i < N; ++i)
        assert_int_equal(rtipc_sem_count(s[i]), RTIPC_EINVAL);
    assert_no_handle_leaked();
}

/* Every slot of the table open: each creation fails with RTIPC_ENOMEM,
 * leaves *out as it was and keeps no memory; once a handle closes, creation
 * works again. */
static void a_full_table_makes_creation_fail_with_enomem(void **state)
{
    (void)state;
    static int dummy;
    size_t max = (size_t)RTIPC__HANDLE_MAX_CHUNKS * RTIPC__HANDLE_CHUNK - rtipc__handle_open_count();
    uintptr_t *held = malloc(max * sizeof *held);
    assert_non_null(held);
    size_t room = 0;
    while (room < max && (held[room] = rtipc__handle_open(&dummy, RTIPC__H_SEM)) != 0)
        ++room;
    /* On Linux every slot opens. On FreeRTOS the kernel heap may run out
     * first (a 64-bit simulator's full table is 24 MiB, configTOTAL_HEAP_SIZE
     * 4): then the table is full as far as it can grow, the case this test is
     * about, and the heap stays spent (chunks are never freed: the last test). */
    if (RTIPC_PORT_FREERTOS)
        assert_true(room >= RTIPC__HANDLE_CHUNK);
    else
        assert_int_equal(room, max);
    assert_int_equal(rtipc__handle_open(&dummy, RTIPC__H_SEM), 0);
    rtipc_queue_t *q = (rtipc_queue_t *)&dummy;
    rtipc_sem_t *s = (rtipc_sem_t *)&dummy;
    rtipc_spsc_t *p = (rtipc_spsc_t *)&dummy;
    rtipc_irq_t *irq = (rtipc_irq_t *)&dummy;
    rtipc_queueset_t *set = (rtipc_queueset_t *)&dummy;
    rtipc_queue_static_t qcb;
    int qstore[2];
    static rtipc_spsc_static_t pcb;
    static int pstore[4];
    assert_int_equal(rtipc_queue_create(2, sizeof(int), &q), RTIPC_ENOMEM);
    assert_int_equal(rtipc_queue_create_static(2, sizeof(int), qstore, &qcb, &q), RTIPC_ENOMEM);
    assert_int_equal(rtipc_sem_create_binary(&s), RTIPC_ENOMEM);
    assert_int_equal(rtipc_spsc_create(4, sizeof(int), &p), RTIPC_ENOMEM);
    assert_int_equal(rtipc_spsc_create_static(4, sizeof(int), pstore, &pcb, &p), RTIPC_ENOMEM);
    assert_int_equal(rtipc_irq_create(0, isr, NULL, &irq), RTIPC_ENOMEM);
    assert_int_equal(rtipc_queueset_create(2, &set), RTIPC_ENOMEM);
    assert_ptr_equal(q, &dummy);
    assert_ptr_equal(s, &dummy);
    assert_ptr_equal(p, &dummy);
    assert_ptr_equal(irq, &dummy);
    assert_ptr_equal(set, &dummy);
    /* One slot back: one creation fits (a static one, which needs no heap).
     * A queue set needs two on Linux (FreeRTOS's is one kernel object). */
    rtipc__handle_close(held[--room]);
    if (!RTIPC_PORT_FREERTOS) {
        assert_int_equal(rtipc_queueset_create(2, &set), RTIPC_ENOMEM);
        assert_ptr_equal(set, &dummy);
    }
    assert_int_equal(rtipc_spsc_create_static(4, sizeof(int), pstore, &pcb, &p), RTIPC_OK);
    int v = 7;
    assert_int_equal(rtipc_spsc_try_push(p, &v), RTIPC_OK);
    assert_int_equal(rtipc_spsc_delete(p), RTIPC_OK);
    for (size_t i = 0; i < room; ++i)
        rtipc__handle_close(held[i]);
    free(held);
    assert_no_handle_leaked();
}

/* A handler may create a static object (it allocates nothing), so the
 * table does not grow there: with every installed slot open the creation
 * fails with RTIPC_ENOMEM; from a task it grows the table and succeeds. */
static void a_handler_never_grows_the_table(void **state)
{
    (void)state;
    static int dummy;
    /* Start from a fresh chunk boundary: fill what the installed chunks
     * hold, so that the next open would need a new chunk. */
    size_t room = rtipc__handle_capacity() - rtipc__handle_open_count();
    uintptr_t *held = malloc((room + 1) * sizeof *held);
    assert_non_null(held);
    for (size_t i = 0; i < room; ++i)
        held[i] = rtipc__handle_open(&dummy, RTIPC__H_SEM);
    size_t capacity = rtipc__handle_capacity();
    assert_int_equal(rtipc__handle_open_count(), capacity);
    /* An SPSC ring: its static creation is for handlers on every port (the
     * FreeRTOS kernel's own objects refuse handler-context creation). */
    static rtipc_spsc_static_t cb;
    static int store[4];
    rtipc_spsc_t *p = NULL;
    int rc = create_spsc_static_in_interrupt(4, sizeof(int), store, &cb, &p);
    assert_int_equal(rc, RTIPC_ENOMEM);
    assert_null(p);
    assert_int_equal(rtipc__handle_capacity(), capacity);
    assert_int_equal(rtipc_spsc_create_static(4, sizeof(int), store, &cb, &p), RTIPC_OK);
    assert_true(rtipc__handle_capacity() > capacity);
    assert_int_equal(rtipc_spsc_delete(p), RTIPC_OK);
    for (size_t i = 0; i < room; ++i)
        rtipc__handle_close(held[i]);
    free(held);
    assert_no_handle_leaked();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(a_stale_handle_is_refused_when_its_slot_and_memory_hold_a_new_queue, setup),
        cmocka_unit_test_setup(a_stale_handle_is_refused_when_its_slot_and_memory_hold_another_kind, setup),
        cmocka_unit_test_setup(closed_slots_are_reused_first_in_first_out, setup),
        cmocka_unit_test_setup(a_slots_handle_repeats_only_after_every_generation, setup),
        cmocka_unit_test_setup(the_table_grows_past_its_first_chunk, setup),
        cmocka_unit_test_setup(a_handler_never_grows_the_table, setup),
        cmocka_unit_test_setup(a_full_table_makes_creation_fail_with_enomem, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
