// std::queue + std::mutex + std::condition_variable, as a C programmer on
// ESP-IDF/Arduino would write it: lock, push, unlock, notify one.
#include "std_queue_peer.h"

#include <malloc.h>

#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <new>
#include <queue>

namespace {

template <class Q> struct basic_peer {
    std::mutex m;
    std::condition_variable cv;
    Q q;
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
            throw std::bad_alloc();
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

using counted_peer = basic_peer<std::queue<uint32_t, std::deque<uint32_t, counting_alloc<uint32_t>>>>;

template <class P> int peer_send(P *p, uint32_t item)
{
    try {
        {
            std::lock_guard<std::mutex> lk(p->m);
            p->q.push(item);
        }
        p->cv.notify_one();
        return 0;
    } catch (...) {
        return -1;
    }
}

template <class P> int peer_receive(P *p, uint32_t *item)
{
    try {
        std::unique_lock<std::mutex> lk(p->m);
        p->cv.wait(lk, [p] { return !p->q.empty(); });
        *item = p->q.front();
        p->q.pop();
        return 0;
    } catch (...) {
        return -1;
    }
}

} // namespace

struct std_queue_peer : basic_peer<std::queue<uint32_t>> {};

extern "C" {

std_queue_peer_t *std_queue_peer_create(void)
{
    return new (std::nothrow) std_queue_peer();
}

void std_queue_peer_delete(std_queue_peer_t *p)
{
    delete p;
}

int std_queue_peer_send(std_queue_peer_t *p, uint32_t item)
{
    return peer_send(p, item);
}

int std_queue_peer_receive(std_queue_peer_t *p, uint32_t *item)
{
    return peer_receive(p, item);
}

int std_queue_peer_memory(size_t items, size_t *control, size_t *heap)
{
    // Only this function uses the counting type; it runs on one thread at a
    // time, so the counter's delta is this instance's.
    size_t before = counted_live.load();
    counted_peer *p = new (std::nothrow) counted_peer();
    if (!p)
        return -1;
    int rc = 0;
    for (size_t i = 0; i < items && rc == 0; i++)
        rc = peer_send(p, static_cast<uint32_t>(i));
    size_t live = counted_live.load() - before;
    for (size_t i = 0; i < items && rc == 0; i++) {
        uint32_t v;
        rc = peer_receive(p, &v);
        if (rc == 0 && v != i)
            rc = -1;
    }
    delete p;
    *control = sizeof(std_queue_peer);
    *heap = live;
    return rc;
}

} // extern "C"
