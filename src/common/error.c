#include "rtipc/error.h"
#include <stddef.h>

const char *rtipc_strerror(int code)
{
    switch (code) {
    case RTIPC_OK:          return "success";
    case RTIPC_EINVAL:      return "invalid argument";
    case RTIPC_EWOULDBLOCK: return "operation would block";
    case RTIPC_ETIMEDOUT:   return "timed out";
    case RTIPC_ENOMEM:      return "out of memory";
    case RTIPC_ECONTEXT:    return "not allowed in this context";
    case RTIPC_EOVERFLOW:   return "count already at maximum";
    case RTIPC_EPERM:       return "caller does not hold the mutex";
    case RTIPC_EDEADLOCK:   return "operation would deadlock";
    case RTIPC_ENOTSUP:     return "not supported by this object or port";
    case RTIPC_EPENDING:    return "a notification is already pending";
    case RTIPC_EBUSY:       return "object in use";
    case RTIPC_ESYSTEM:     return "operating system refused a resource";
    default:                return "unknown rtipc error";
    }
}

const char *rtipc_error_name(int code)
{
    switch (code) {
    case RTIPC_OK:          return "RTIPC_OK";
    case RTIPC_EINVAL:      return "RTIPC_EINVAL";
    case RTIPC_EWOULDBLOCK: return "RTIPC_EWOULDBLOCK";
    case RTIPC_ETIMEDOUT:   return "RTIPC_ETIMEDOUT";
    case RTIPC_ENOMEM:      return "RTIPC_ENOMEM";
    case RTIPC_ECONTEXT:    return "RTIPC_ECONTEXT";
    case RTIPC_EOVERFLOW:   return "RTIPC_EOVERFLOW";
    case RTIPC_EPERM:       return "RTIPC_EPERM";
    case RTIPC_EDEADLOCK:   return "RTIPC_EDEADLOCK";
    case RTIPC_ENOTSUP:     return "RTIPC_ENOTSUP";
    case RTIPC_EPENDING:    return "RTIPC_EPENDING";
    case RTIPC_EBUSY:       return "RTIPC_EBUSY";
    case RTIPC_ESYSTEM:     return "RTIPC_ESYSTEM";
    default:                return NULL;
    }
}
