/* Stress of a allow-split ring buffer (harness and checks in ringbuf_stress.h). */
#include "ringbuf_stress.h"

RINGBUF_STRESS_PROGRAM("stress_ringbuf_allowsplit", allowsplit_many_producers_many_consumers,
                       RTIPC_RINGBUF_ALLOWSPLIT, 2000, "allow-split")
