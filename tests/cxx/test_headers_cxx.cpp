// The public headers as a C++ program includes them (an Arduino sketch, a
// C++ application): all of rtipc/rtipc.h compiles as C++17 without a
// warning (g++ and clang++ read the timeouts' compound literals as C does),
// the static control blocks keep their alignment, and a queue made in one
// of them works through the C calls.
#include "rtipc/rtipc.h"

#include <cstdio>

static_assert(alignof(rtipc_queue_static_t) >= 8, "the queue's control block lost its alignment");
static_assert(alignof(rtipc_spsc_static_t) >= 64, "the SPSC ring's control block lost its alignment");

int main()
{
    static rtipc_queue_static_t storage;
    static unsigned char items[4 * sizeof(int)];
    rtipc_queue_t *q = nullptr;
    int rc = rtipc_queue_create_static(4, sizeof(int), items, &storage, &q);
    int in = 42, out = 0;
    if (rc == RTIPC_OK)
        rc = rtipc_queue_send(q, &in, RTIPC_NO_WAIT);
    if (rc == RTIPC_OK)
        rc = rtipc_queue_receive(q, &out, RTIPC_NO_WAIT);
    if (q && rtipc_queue_delete(q) != RTIPC_OK && rc == RTIPC_OK)
        rc = RTIPC_ESYSTEM;
    if (rc != RTIPC_OK || out != 42) {
        std::printf("test_headers_cxx: %s, received %d\n", rtipc_strerror(rc), out);
        return 1;
    }
    std::printf("test_headers_cxx: rtipc/rtipc.h compiles as C++; a static queue sent and received 42\n");
    return 0;
}
