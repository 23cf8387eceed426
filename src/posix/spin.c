#include "spin.h"

#include "rtipc/config.h"
#include "rtipc/time.h"

_Atomic int64_t rtipc__spin_ns = RTIPC_SPIN_NS_DEFAULT;

bool rtipc__spin_until(_Atomic uint32_t *flag, int64_t deadline)
{
    int64_t budget = atomic_load_explicit(&rtipc__spin_ns, memory_order_relaxed);
    if (budget <= 0)
        return false;
    int64_t end = rtipc_time_ns() + budget;
    if (deadline >= 0 && deadline < end)
        end = deadline;
    do {
        for (int i = 0; i < 32; ++i) {
            /* Acquire: pairs with the waker's release store of the flag. */
            if (atomic_load_explicit(flag, memory_order_acquire))
                return true;
            rtipc__cpu_relax();
        }
    } while (rtipc_time_ns() < end);
    return false;
}
