// std-queue-mutex (locked_queues_cxx.h): a bounded std::queue behind a
// std::mutex and two condition variables, the waits and notifications
// written the way a C++ programmer writes them; the call-cost loop is
// inlined here so that the C side's call is paid once per batch.
#include "locked_queues_cxx.h"

#include <malloc.h>

#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <new>
#include <queue>

// ESP-IDF builds C++ without exceptions (its default; this toolchain's
// libgcc cannot link them on): an allocation failure aborts there, as
// libstdc++'s own containers do, and the handlers below are left out.
#if defined(__cpp_exceptions)
#define BQ_TRY try
#define BQ_CATCH_ALL catch (...)
#define BQ_BAD_ALLOC() throw std::bad_alloc()
#else
#define BQ_TRY if (true)
#define BQ_CATCH_ALL else
#define BQ_BAD_ALLOC() std::abort()
#endif

namespace {

template <class Q> struct bounded_queue {
    explicit bounded_queue(size_t c) : cap(c) {}
    std::mutex m;
    std::condition_variable not_empty, not_full;
    Q q;
    size_t cap;
};

// Live heap bytes of the counting allocator (usable sizes, so malloc's
// rounding is included).
std::atomic<size_t> counted_live{0};

template <class T> struct counting_alloc {
    using value_type = T;
    counting_alloc() = default;
    template <class U> counting_alloc(const counting_alloc<U> &) {}
    T *allocate(size_t n)
    {
        void *p = std::malloc(n * sizeof(T));
        if (!p)
            BQ_BAD_ALLOC();
        counted_live += malloc_usable_size(p);
        return static_cast<T *>(p);
    }
    void deallocate(T *p, size_t)
    {
        counted_live -= malloc_usable_size(p);
        std::free(p);
    }
    template <class U> bool operator==(const counting_alloc<U> &) const { return true; }
    template <class U> bool operator!=(const counting_alloc<U> &) const { return false; }
};

using counted_queue = bounded_queue<std::queue<uint32_t, std::deque<uint32_t, counting_alloc<uint32_t>>>>;

template <class P> int push(P *p, uint32_t v)
{
    BQ_TRY {
        {
            std::unique_lock<std::mutex> lk(p->m);
            p->not_full.wait(lk, [p] { return p->q.size() < p->cap; });
            p->q.push(v);
        }
        p->not_empty.notify_one();
        return 0;
    } BQ_CATCH_ALL {
        return -1;
    }
}

template <class P> int pop(P *p, uint32_t *v)
{
    BQ_TRY {
        {
            std::unique_lock<std::mutex> lk(p->m);
            p->not_empty.wait(lk, [p] { return !p->q.empty(); });
            *v = p->q.front();
            p->q.pop();
        }
        p->not_full.notify_one();
        return 0;
    } BQ_CATCH_ALL {
        return -1;
    }
}

} // namespace

struct bench_std_queue : bounded_queue<std::queue<uint32_t>> {
    using bounded_queue::bounded_queue;
};

extern "C" {

bench_std_queue_t *bench_std_queue_create(size_t cap)
{
    if (cap == 0)
        return nullptr;
    return new (std::nothrow) bench_std_queue(cap);
}

void bench_std_queue_delete(bench_std_queue_t *q)
{
    delete q;
}

int bench_std_queue_push(bench_std_queue_t *q, uint32_t v)
{
    return push(q, v);
}

int bench_std_queue_pop(bench_std_queue_t *q, uint32_t *v)
{
    return pop(q, v);
}

int bench_std_queue_try_push(bench_std_queue_t *q, uint32_t v)
{
    BQ_TRY {
        {
            std::lock_guard<std::mutex> lk(q->m);
            if (q->q.size() >= q->cap)
                return 1;
            q->q.push(v);
        }
        q->not_empty.notify_one();
        return 0;
    } BQ_CATCH_ALL {
        return -1;
    }
}

int bench_std_queue_try_pop(bench_std_queue_t *q, uint32_t *v)
{
    BQ_TRY {
        {
            std::lock_guard<std::mutex> lk(q->m);
            if (q->q.empty())
                return 1;
            *v = q->q.front();
            q->q.pop();
        }
        q->not_full.notify_one();
        return 0;
    } BQ_CATCH_ALL {
        return -1;
    }
}

int bench_std_queue_pairs(bench_std_queue_t *q, uint32_t seq, int pairs)
{
    for (int i = 0; i < pairs; i++) {
        uint32_t v = ~seq;
        if (push(q, seq + (uint32_t)i) != 0 || pop(q, &v) != 0 || v != seq + (uint32_t)i)
            return -1;
    }
    return 0;
}

int bench_std_queue_memory(const bench_std_queue_t *like, size_t items, size_t *control, size_t *heap)
{
    if (items > like->cap)
        return -1;
    // Only this function uses the counting type; it runs on one thread at a
    // time, so the counter's delta is this instance's.
    size_t before = counted_live.load();
    counted_queue *p = new (std::nothrow) counted_queue(like->cap);
    if (!p)
        return -1;
    int rc = 0;
    for (size_t i = 0; i < items && rc == 0; i++)
        rc = push(p, static_cast<uint32_t>(i));
    size_t live = counted_live.load() - before;
    for (size_t i = 0; i < items && rc == 0; i++) {
        uint32_t v;
        rc = pop(p, &v);
        if (rc == 0 && v != i)
            rc = -1;
    }
    delete p;
    *control = sizeof(bench_std_queue);
    *heap = live;
    return rc;
}

} // extern "C"
