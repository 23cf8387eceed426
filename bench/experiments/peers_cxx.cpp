// The C++ peers of the `peers` experiment (see peers_cxx.h): written the way
// a C++ programmer would use them, the hot loops inlined in C++ so that the
// C side's call overhead is paid once per batch, not per item.
#include "peers_cxx.h"

#include <condition_variable>
#include <mutex>
#include <new>
#include <queue>

#if defined(__has_include)
#if __has_include(<boost/lockfree/spsc_queue.hpp>)
#include <boost/lockfree/spsc_queue.hpp>
#define PEERS_HAVE_BOOST 1
#endif
#endif

struct peers_stdq {
    explicit peers_stdq(size_t c) : cap(c) {}
    std::mutex m;
    std::condition_variable not_empty, not_full;
    std::queue<uint32_t> q;
    size_t cap;
};

namespace {

int stdq_push(peers_stdq *p, uint32_t v)
{
    try {
        {
            std::unique_lock<std::mutex> lk(p->m);
            p->not_full.wait(lk, [p] { return p->q.size() < p->cap; });
            p->q.push(v);
        }
        p->not_empty.notify_one();
        return 0;
    } catch (...) {
        return -1;
    }
}

int stdq_pop(peers_stdq *p, uint32_t *v)
{
    try {
        {
            std::unique_lock<std::mutex> lk(p->m);
            p->not_empty.wait(lk, [p] { return !p->q.empty(); });
            *v = p->q.front();
            p->q.pop();
        }
        p->not_full.notify_one();
        return 0;
    } catch (...) {
        return -1;
    }
}

} // namespace

#ifdef PEERS_HAVE_BOOST
struct peers_boost {
    explicit peers_boost(size_t c) : q(c) {}
    boost::lockfree::spsc_queue<uint32_t> q;
};
#else
struct peers_boost {
    int unused;
};
#endif

extern "C" {

peers_stdq_t *peers_stdq_create(size_t cap)
{
    if (cap == 0)
        return nullptr;
    return new (std::nothrow) peers_stdq(cap);
}

void peers_stdq_delete(peers_stdq_t *q)
{
    delete q;
}

int peers_stdq_push(peers_stdq_t *q, uint32_t v)
{
    return stdq_push(q, v);
}

int peers_stdq_pop(peers_stdq_t *q, uint32_t *v)
{
    return stdq_pop(q, v);
}

int peers_stdq_try_push(peers_stdq_t *q, uint32_t v)
{
    try {
        {
            std::lock_guard<std::mutex> lk(q->m);
            if (q->q.size() >= q->cap)
                return 1;
            q->q.push(v);
        }
        q->not_empty.notify_one();
        return 0;
    } catch (...) {
        return -1;
    }
}

int peers_stdq_try_pop(peers_stdq_t *q, uint32_t *v)
{
    try {
        {
            std::lock_guard<std::mutex> lk(q->m);
            if (q->q.empty())
                return 1;
            *v = q->q.front();
            q->q.pop();
        }
        q->not_full.notify_one();
        return 0;
    } catch (...) {
        return -1;
    }
}

int peers_stdq_pairs(peers_stdq_t *q, uint32_t seq, int pairs)
{
    for (int i = 0; i < pairs; i++) {
        uint32_t v = ~seq;
        if (stdq_push(q, seq + (uint32_t)i) != 0 || stdq_pop(q, &v) != 0 || v != seq + (uint32_t)i)
            return -1;
    }
    return 0;
}

bool peers_boost_available(void)
{
#ifdef PEERS_HAVE_BOOST
    return true;
#else
    return false;
#endif
}

peers_boost_t *peers_boost_create(size_t cap)
{
#ifdef PEERS_HAVE_BOOST
    if (cap == 0)
        return nullptr;
    try {
        return new peers_boost(cap);
    } catch (...) {
        return nullptr;
    }
#else
    (void)cap;
    return nullptr;
#endif
}

void peers_boost_delete(peers_boost_t *q)
{
    delete q;
}

#ifdef PEERS_HAVE_BOOST
bool peers_boost_push(peers_boost_t *q, uint32_t v)
{
    return q->q.push(v);
}

bool peers_boost_pop(peers_boost_t *q, uint32_t *v)
{
    return q->q.pop(*v);
}

int peers_boost_push_each(peers_boost_t *q, const uint32_t *items, int n)
{
    int k = 0;
    while (k < n && q->q.push(items[k]))
        k++;
    return k;
}

int peers_boost_pop_each(peers_boost_t *q, uint32_t *items, int n)
{
    int k = 0;
    while (k < n && q->q.pop(items[k]))
        k++;
    return k;
}

int peers_boost_push_bulk(peers_boost_t *q, const uint32_t *items, int n)
{
    return (int)q->q.push(items, (size_t)n);
}

int peers_boost_pop_bulk(peers_boost_t *q, uint32_t *items, int n)
{
    return (int)q->q.pop(items, (size_t)n);
}

int peers_boost_pairs(peers_boost_t *q, uint32_t seq, int pairs)
{
    for (int i = 0; i < pairs; i++) {
        uint32_t v = ~seq;
        if (!q->q.push(seq + (uint32_t)i) || !q->q.pop(v) || v != seq + (uint32_t)i)
            return -1;
    }
    return 0;
}
#else
bool peers_boost_push(peers_boost_t *, uint32_t) { return false; }
bool peers_boost_pop(peers_boost_t *, uint32_t *) { return false; }
int peers_boost_push_each(peers_boost_t *, const uint32_t *, int) { return 0; }
int peers_boost_pop_each(peers_boost_t *, uint32_t *, int) { return 0; }
int peers_boost_push_bulk(peers_boost_t *, const uint32_t *, int) { return 0; }
int peers_boost_pop_bulk(peers_boost_t *, uint32_t *, int) { return 0; }
int peers_boost_pairs(peers_boost_t *, uint32_t, int) { return -1; }
#endif

} // extern "C"
