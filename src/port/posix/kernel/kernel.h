/* What the POSIX port's objects (src/port/posix/objects) may use of its
 * kernel: the task descriptor and its run state, wait lists and parking,
 * spinning, locks, and the interrupt-context helpers. Objects include this
 * header alone, never one of the kernel's own files, so that the kernel's
 * inner layout can change without touching them. The kernel never calls an
 * object: an object that must act when a task ends registers a hook
 * (task_internal.h, rtipc__task_end_hook_add). */
#ifndef RTIPC_POSIX_KERNEL_H
#define RTIPC_POSIX_KERNEL_H

#include "cpu.h"
#include "irq_internal.h"
#include "lock.h"
#include "spin.h"
#include "task_internal.h"
#include "wait.h"

#endif
