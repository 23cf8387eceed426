// boost-spsc (lockfree_cxx.h): written the way a C++ programmer uses it,
// the per-item and call-cost loops inlined in C++ so that the C side's call
// is paid once per batch, not per item.
#include "lockfree_cxx.h"

#include "peers_wanted.h"

#include <new>

#if defined(BENCH_PEERS_LOOKED_FOR)
#if defined(BENCH_LOOK_BOOST) && __has_include(<boost/lockfree/spsc_queue.hpp>)
#include <boost/lockfree/spsc_queue.hpp>
#define BENCH_HAVE_BOOST 1
#endif
#endif

#ifdef BENCH_HAVE_BOOST
struct bench_boost_spsc {
    explicit bench_boost_spsc(size_t c) : q(c) {}
    boost::lockfree::spsc_queue<uint32_t> q;
};
#else
struct bench_boost_spsc {
    int unused;
};
#endif

extern "C" {

bool bench_boost_spsc_available(void)
{
#ifdef BENCH_HAVE_BOOST
    return true;
#else
    return false;
#endif
}

bench_boost_spsc_t *bench_boost_spsc_create(size_t cap)
{
#ifdef BENCH_HAVE_BOOST
    if (cap == 0)
        return nullptr;
    try {
        return new bench_boost_spsc(cap);
    } catch (...) {
        return nullptr;
    }
#else
    (void)cap;
    return nullptr;
#endif
}

void bench_boost_spsc_delete(bench_boost_spsc_t *q)
{
    delete q;
}

#ifdef BENCH_HAVE_BOOST
bool bench_boost_spsc_push(bench_boost_spsc_t *q, uint32_t v)
{
    return q->q.push(v);
}

bool bench_boost_spsc_pop(bench_boost_spsc_t *q, uint32_t *v)
{
    return q->q.pop(*v);
}

int bench_boost_spsc_push_each(bench_boost_spsc_t *q, const uint32_t *items, int n)
{
    int k = 0;
    while (k < n && q->q.push(items[k]))
        k++;
    return k;
}

int bench_boost_spsc_pop_each(bench_boost_spsc_t *q, uint32_t *items, int n)
{
    int k = 0;
    while (k < n && q->q.pop(items[k]))
        k++;
    return k;
}

int bench_boost_spsc_push_bulk(bench_boost_spsc_t *q, const uint32_t *items, int n)
{
    return (int)q->q.push(items, (size_t)n);
}

int bench_boost_spsc_pop_bulk(bench_boost_spsc_t *q, uint32_t *items, int n)
{
    return (int)q->q.pop(items, (size_t)n);
}

int bench_boost_spsc_pairs(bench_boost_spsc_t *q, uint32_t seq, int pairs)
{
    for (int i = 0; i < pairs; i++) {
        uint32_t v = ~seq;
        if (!q->q.push(seq + (uint32_t)i) || !q->q.pop(v) || v != seq + (uint32_t)i)
            return -1;
    }
    return 0;
}
#else
bool bench_boost_spsc_push(bench_boost_spsc_t *, uint32_t) { return false; }
bool bench_boost_spsc_pop(bench_boost_spsc_t *, uint32_t *) { return false; }
int bench_boost_spsc_push_each(bench_boost_spsc_t *, const uint32_t *, int) { return 0; }
int bench_boost_spsc_pop_each(bench_boost_spsc_t *, uint32_t *, int) { return 0; }
int bench_boost_spsc_push_bulk(bench_boost_spsc_t *, const uint32_t *, int) { return 0; }
int bench_boost_spsc_pop_bulk(bench_boost_spsc_t *, uint32_t *, int) { return 0; }
int bench_boost_spsc_pairs(bench_boost_spsc_t *, uint32_t, int) { return -1; }
#endif

} // extern "C"
