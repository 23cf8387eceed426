/**
 * @file rtipc.h
 * @brief All of rtipc in one include.
 */
#ifndef RTIPC_RTIPC_H
#define RTIPC_RTIPC_H

#include "rtipc/config.h"
#include "rtipc/error.h"
#include "rtipc/eventgroup.h"
#include "rtipc/irq.h"
#include "rtipc/msgbuf.h"
#include "rtipc/mailbox.h"
#include "rtipc/mutex.h"
#include "rtipc/notify.h"
#include "rtipc/queue.h"
#include "rtipc/queueset.h"
#include "rtipc/ringbuf.h"
#include "rtipc/sem.h"
#include "rtipc/spin.h"
#include "rtipc/streambuf.h"
#include "rtipc/spsc.h"
#include "rtipc/task.h"
#include "rtipc/tick.h"
#include "rtipc/time.h"
#include "rtipc/wdt.h"

#endif
