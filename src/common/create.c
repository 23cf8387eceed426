/* The first steps of every dynamic create (create.h). */
#include "create.h"

#include "rtipc/error.h"

void *rtipc__create_alloc(bool args_ok, size_t bytes, size_t align, int *rc)
{
    if (rtipc__port_in_interrupt()) {
        *rc = RTIPC_ECONTEXT;
        return NULL;
    }
    if (!args_ok) {
        *rc = RTIPC_EINVAL;
        return NULL;
    }
    void *block = rtipc__port_alloc(bytes, align);
    *rc = block ? RTIPC_OK : RTIPC_ENOMEM;
    return block;
}
