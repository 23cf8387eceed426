/* Stress of a byte buffer ring buffer (harness and checks in ringbuf_stress.h). */
#include "ringbuf_stress.h"

RINGBUF_STRESS_PROGRAM("stress_ringbuf_bytebuf", bytebuf_many_producers_many_consumers,
                       RTIPC_RINGBUF_BYTEBUF, 1021, "byte buffer")
