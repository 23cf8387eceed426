/* What the FreeRTOS port's objects include: each part below serves one
 * thing, and a file that needs fewer includes only those.
 *
 * Every rtipc object of this port is a small wrapper around the FreeRTOS
 * object that implements it, created with the kernel's *Static API inside
 * rtipc's own memory (one pvPortMalloc block when created dynamically, the
 * caller's rtipc_*_static_t otherwise). */
#ifndef RTIPC_PORT_FREERTOS_INTERNAL_H
#define RTIPC_PORT_FREERTOS_INTERNAL_H

#include "kernel_compat.h"   /* the kernel's headers, version, configuration; ticks */
#include "isr.h"             /* interrupt context and critical sections */
#include "spin.h"            /* spin-then-park */
#include "task_internal.h"   /* the task descriptor and waiter accounting */
#include "object_internal.h" /* the wrapped kernel queue head, queue sets, handles */

#endif
