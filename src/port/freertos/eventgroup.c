/* Event groups on FreeRTOS: a kernel event group (xEventGroupCreateStatic)
 * inside rtipc's wrapper. rtipc's 24 bits are the kernel's low 24 bits (all a
 * 32-bit tick build has; a 64-bit tick build has more, which rtipc does not
 * use). */
#include <string.h>

#include "port_internal.h"
#ifdef ESP_PLATFORM
#include "freertos/event_groups.h"
#else
#include "event_groups.h"
#endif
#include "rtipc/eventgroup.h"
#include "common/checks.h"
#include "common/create.h"

struct rtipc__eventgroup {
    uint32_t flags;
    StaticEventGroup_t cb;
    EventGroupHandle_t handle;
    volatile uint32_t waiters;
    int64_t spin;
};

_Static_assert(sizeof(struct rtipc__eventgroup) <= sizeof(rtipc_eventgroup_static_t),
               "rtipc_eventgroup_static_t holds the FreeRTOS event group wrapper (raise RTIPC_EVENTGROUP_STATIC_SIZE)");
_Static_assert(_Alignof(struct rtipc__eventgroup) <= _Alignof(rtipc_eventgroup_static_t), "static block alignment");

static struct rtipc__eventgroup *get(const rtipc_eventgroup_t *handle)
{
    return rtipc__handle_get(handle, RTIPC__H_EVENTGROUP);
}
static bool bits_ok(uint32_t bits) { return rtipc__eventgroup_bits_ok(bits); }

static int init(struct rtipc__eventgroup *eg, uint32_t flags, rtipc_eventgroup_t **out)
{
    memset(eg, 0, sizeof *eg);
    eg->flags = flags;
    eg->spin = RTIPC_SPIN_DEFAULT;
    eg->handle = xEventGroupCreateStatic(&eg->cb);
    uintptr_t h = rtipc__open(eg, RTIPC__H_EVENTGROUP, NULL);
    if (h == 0) {
        vEventGroupDelete(eg->handle);
        return RTIPC_ENOMEM;
    }
    *out = (rtipc_eventgroup_t *)h;
    return RTIPC_OK;
}

int rtipc_eventgroup_create(rtipc_eventgroup_t **out)
{
    int rc;
    struct rtipc__eventgroup *eg = RTIPC__CREATE_ALLOC(out != NULL, struct rtipc__eventgroup, 0, &rc);
    if (!eg)
        return rc;
    rc = init(eg, RTIPC__DYNAMIC, out);
    if (rc != RTIPC_OK)
        rtipc__port_free(eg, _Alignof(struct rtipc__eventgroup));
    return rc;
}

int rtipc_eventgroup_create_static(rtipc_eventgroup_static_t *cb, rtipc_eventgroup_t **out)
{
    /* The kernel's creation enters a task-level critical section: not from
     * a handler on FreeRTOS (docs/porting.md). */
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    if (!out || !cb)
        return RTIPC_EINVAL;
    struct rtipc__eventgroup *eg = (struct rtipc__eventgroup *)(void *)cb;
    return init(eg, 0, out);
}

int rtipc_eventgroup_delete(rtipc_eventgroup_t *handle)
{
    struct rtipc__eventgroup *eg = get(handle);
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    if (!eg)
        return RTIPC_EINVAL;
    if (rtipc__waited_on(&eg->waiters))
        return RTIPC_EBUSY;
    /* From here on the handle is refused, before the memory goes. */
    rtipc__handle_close((uintptr_t)handle);
    vEventGroupDelete(eg->handle);
    if (eg->flags & RTIPC__DYNAMIC)
        rtipc__port_free(eg, _Alignof(struct rtipc__eventgroup));
    return RTIPC_OK;
}

int rtipc_eventgroup_set_bits(rtipc_eventgroup_t *handle, uint32_t bits, uint32_t *value)
{
    struct rtipc__eventgroup *eg = get(handle);
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    if (!eg || !bits_ok(bits))
        return RTIPC_EINVAL;
    EventBits_t v = xEventGroupSetBits(eg->handle, bits);
    if (value)
        *value = (uint32_t)v & RTIPC_EVENTGROUP_BITS_MASK;
    return RTIPC_OK;
}

int rtipc_eventgroup_clear_bits(rtipc_eventgroup_t *handle, uint32_t bits, uint32_t *previous)
{
    struct rtipc__eventgroup *eg = get(handle);
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    if (!eg || !bits_ok(bits))
        return RTIPC_EINVAL;
    EventBits_t v = xEventGroupClearBits(eg->handle, bits);
    if (previous)
        *previous = (uint32_t)v & RTIPC_EVENTGROUP_BITS_MASK;
    return RTIPC_OK;
}

int rtipc_eventgroup_get_bits(const rtipc_eventgroup_t *handle)
{
    struct rtipc__eventgroup *eg = get(handle);
    if (!eg)
        return RTIPC_EINVAL;
    return (int)(xEventGroupGetBitsFromISR(eg->handle) & RTIPC_EVENTGROUP_BITS_MASK);
}

static int waited(struct rtipc__eventgroup *eg, EventBits_t got, uint32_t want, bool all, uint32_t *value,
                  rtipc_timeout_t timeout)
{
    uint32_t g = (uint32_t)got & RTIPC_EVENTGROUP_BITS_MASK;
    if (value)
        *value = g;
    bool met = all ? (g & want) == want : (g & want) != 0;
    (void)eg;
    return met ? RTIPC_OK : rtipc__fail(timeout);
}

int rtipc_eventgroup_wait_bits(rtipc_eventgroup_t *handle, uint32_t bits, bool clear_on_exit, bool wait_all,
                               uint32_t *value, rtipc_timeout_t timeout)
{
    struct rtipc__eventgroup *eg = get(handle);
    if (value)
        *value = 0;
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    if (!eg || bits == 0 || !bits_ok(bits))
        return RTIPC_EINVAL;
    TickType_t ticks = rtipc__ticks(timeout);
    struct rtipc__task *waiter = ticks != 0 ? rtipc__wait_in(&eg->waiters) : NULL;
    /* The kernel returns the bits when the condition was met (before the
     * clearing) or when the wait gave up. */
    EventBits_t got = xEventGroupWaitBits(eg->handle, bits, clear_on_exit ? pdTRUE : pdFALSE,
                                          wait_all ? pdTRUE : pdFALSE, ticks);
    if (ticks != 0)
        rtipc__wait_out(waiter, &eg->waiters);
    return waited(eg, got, bits, wait_all, value, timeout);
}

int rtipc_eventgroup_sync(rtipc_eventgroup_t *handle, uint32_t set, uint32_t wait_for, uint32_t *value,
                          rtipc_timeout_t timeout)
{
    struct rtipc__eventgroup *eg = get(handle);
    if (value)
        *value = 0;
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    if (!eg || wait_for == 0 || !bits_ok(set) || !bits_ok(wait_for))
        return RTIPC_EINVAL;
    TickType_t ticks = rtipc__ticks(timeout);
    struct rtipc__task *waiter = ticks != 0 ? rtipc__wait_in(&eg->waiters) : NULL;
    EventBits_t got = xEventGroupSync(eg->handle, set, wait_for, ticks);
    if (ticks != 0)
        rtipc__wait_out(waiter, &eg->waiters);
    return waited(eg, got, wait_for, true, value, timeout);
}

/* From a handler the kernel defers the change to its timer service task
 * (xEventGroupSetBitsFromISR); from a task it is done at once. */
int rtipc_eventgroup_set_bits_from_isr(rtipc_eventgroup_t *handle, uint32_t bits, uint32_t *value, bool *woken)
{
    struct rtipc__eventgroup *eg = get(handle);
    if (!eg || !bits_ok(bits))
        return RTIPC_EINVAL;
    if (!rtipc__in_isr())
        return rtipc_eventgroup_set_bits(handle, bits, value);
#if configUSE_TIMERS == 1 && defined(INCLUDE_xTimerPendFunctionCall) && INCLUDE_xTimerPendFunctionCall == 1
    BaseType_t hp = pdFALSE;
    if (xEventGroupSetBitsFromISR(eg->handle, bits, &hp) != pdPASS)
        return RTIPC_EWOULDBLOCK; /* the timer command queue is full */
    rtipc__woken(hp, woken);
    if (value) /* the bits now, the deferred ones included */
        *value = ((uint32_t)xEventGroupGetBitsFromISR(eg->handle) | bits) & RTIPC_EVENTGROUP_BITS_MASK;
    return RTIPC_OK;
#else
    (void)value;
    (void)woken;
    return RTIPC_ENOTSUP; /* needs configUSE_TIMERS and INCLUDE_xTimerPendFunctionCall */
#endif
}

int rtipc_eventgroup_clear_bits_from_isr(rtipc_eventgroup_t *handle, uint32_t bits, uint32_t *previous)
{
    struct rtipc__eventgroup *eg = get(handle);
    if (!eg || !bits_ok(bits))
        return RTIPC_EINVAL;
    if (!rtipc__in_isr())
        return rtipc_eventgroup_clear_bits(handle, bits, previous);
#if configUSE_TIMERS == 1 && defined(INCLUDE_xTimerPendFunctionCall) && INCLUDE_xTimerPendFunctionCall == 1
    EventBits_t before = xEventGroupGetBitsFromISR(eg->handle);
    if (xEventGroupClearBitsFromISR(eg->handle, bits) != pdPASS)
        return RTIPC_EWOULDBLOCK;
    if (previous)
        *previous = (uint32_t)before & RTIPC_EVENTGROUP_BITS_MASK;
    return RTIPC_OK;
#else
    (void)previous;
    return RTIPC_ENOTSUP;
#endif
}

size_t rtipc_eventgroup_footprint(const rtipc_eventgroup_t *handle)
{
    struct rtipc__eventgroup *eg = get(handle);
    return handle == NULL || eg ? sizeof(struct rtipc__eventgroup) : 0;
}

int rtipc_eventgroup_set_spin(rtipc_eventgroup_t *handle, int64_t ns)
{
    struct rtipc__eventgroup *eg = get(handle);
    if (!eg || !rtipc__spin_ok(ns))
        return RTIPC_EINVAL;
    eg->spin = ns;
    return RTIPC_OK;
}
