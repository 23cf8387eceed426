/* The first steps of every dynamic create, on every port and for every
 * object, in the order the headers give their errors: RTIPC_ECONTEXT from
 * an interrupt handler, then RTIPC_EINVAL for bad arguments, then
 * RTIPC_ENOMEM when there is no memory. One place, so that no port can
 * refuse an input another accepts, or report another error first. */
#ifndef RTIPC_COMMON_CREATE_H
#define RTIPC_COMMON_CREATE_H

#include <stdbool.h>
#include <stddef.h>

#include "port.h"

/* The new object's block (@p bytes aligned to @p align, for
 * rtipc__port_free), with *rc RTIPC_OK; or NULL with *rc the error.
 * @p args_ok is the object's argument check, the output pointer's included. */
void *rtipc__create_alloc(bool args_ok, size_t bytes, size_t align, int *rc);

/* rtipc__create_alloc for a control block of @p type followed by @p extra
 * bytes. @p extra is evaluated only when @p args_ok holds, so it may rely
 * on the checks (no overflow); @p args_ok is evaluated twice: a pure check. */
#define RTIPC__CREATE_ALLOC(args_ok, type, extra, rc)                                                              \
    ((type *)rtipc__create_alloc((args_ok), (args_ok) ? sizeof(type) + (extra) : 0, _Alignof(type), (rc)))

#endif
