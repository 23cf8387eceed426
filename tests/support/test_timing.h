/* Timing checks shared by the unit tests that measure how long a blocking
 * call took (test_notify.c, test_task.c): one slack, one verdict. */
#ifndef RTIPC_TEST_TIMING_H
#define RTIPC_TEST_TIMING_H

#include <stdint.h>

#include "test_support.h"

#define MS (INT64_C(1000000))
/* Generous upper slack for timing checks on a noisy machine. */
#define SLACK (200 * MS)

/* Helpers of timing checks run at a high priority, so that SCHED_FIFO load
 * from other processes on the machine disturbs them less. */
#define TIMING_PRIO (RTIPC_PRIORITY_LEVELS - 2)

/* An elapsed time of at least `want`, and less than want + SLACK. */
#define assert_elapsed(elapsed, want)                                                                      \
    do {                                                                                                   \
        int64_t e_ = (elapsed), w_ = (want);                                                               \
        if (e_ < w_ || e_ >= w_ + SLACK)                                                                   \
            fail_msg("elapsed %lld us, expected [%lld, %lld) us", (long long)(e_ / 1000),                  \
                     (long long)(w_ / 1000), (long long)((w_ + SLACK) / 1000));                            \
    } while (0)

#endif
