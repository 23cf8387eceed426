/* Stress of a no-split ring buffer (harness and checks in ringbuf_stress.h). */
#include "ringbuf_stress.h"

RINGBUF_STRESS_PROGRAM("stress_ringbuf_nosplit", nosplit_many_producers_many_consumers,
                       RTIPC_RINGBUF_NOSPLIT, 2048, "no-split")
