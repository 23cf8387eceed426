/* The two kernel locks of the FreeRTOS RV32 SMP port's arch_* layer
 * (arch/spinlock.h). Unused, and dropped by --gc-sections, without a kernel. */
#include "arch/spinlock.h"

arch_spinlock_t arch_task_lock;
arch_spinlock_t arch_isr_lock;
