/* What every experiment file includes: the calls an experiment makes
 * (harness/experiment.h), the handoff driver and the first-failure record
 * it shares with its tasks, the row names, and rtipc's objects with their
 * handoff adapters (mechanisms/rtipc.h). An experiment that drives the
 * peers too includes mechanisms/mechanisms.h. */
#ifndef BENCH_EXPERIMENTS_H
#define BENCH_EXPERIMENTS_H

#include "../harness/experiment.h"
#include "../harness/failure.h"
#include "../harness/handoff.h"
#include "../mechanisms/rtipc.h"
#include "../names.h"
#include "rtipc/rtipc.h"

#endif
