/**
 * @file error.h
 * @brief rtipc error codes.
 *
 * Every rtipc call that can fail returns 0 on success or exactly one of the
 * negative codes below. Each code has one meaning across the whole API.
 */
#ifndef RTIPC_ERROR_H
#define RTIPC_ERROR_H

#ifdef __cplusplus
extern "C" {
#endif

/** Error codes. All are negative; 0 (RTIPC_OK) means success. */
enum rtipc_error {
    RTIPC_OK = 0,
    /** An argument is invalid: NULL handle or buffer, zero or oversized
     *  length, index or priority out of range, or a handle that is not a
     *  live object of the expected type. A handle is an entry of rtipc's
     *  handle table, not an address (docs/design.md, "Handles"): the handle
     *  of an object or interrupt source that was deleted, or of a task that
     *  was joined or deleted, is refused with this code by every call, also
     *  once its memory holds a new object; it is never acted on and nothing
     *  is read through it. So are a handle of another kind and a value that
     *  never was a handle. Every port's handles are table entries. */
    RTIPC_EINVAL = -1,
    /** The call was made with timeout RTIPC_NO_WAIT (or from an interrupt
     *  handler) and could not complete without blocking. */
    RTIPC_EWOULDBLOCK = -2,
    /** The call blocked and its timeout expired before it could complete. */
    RTIPC_ETIMEDOUT = -3,
    /** Memory could not be allocated for a dynamically created object, or
     *  every handle is in use: the handle table holds 1,048,576 handles on
     *  64-bit targets and 2,048 on 32-bit ones (32 in a build without a heap,
     *  and an interrupt handler never grows it). The failed call leaves *out
     *  unchanged and keeps no memory. */
    RTIPC_ENOMEM = -4,
    /** The call is not allowed in the calling context (a blocking or
     *  task-only call made from an interrupt handler). */
    RTIPC_ECONTEXT = -5,
    /** A semaphore is already at its maximum count (give failed). */
    RTIPC_EOVERFLOW = -6,
    /** The caller does not hold the mutex it tried to release. */
    RTIPC_EPERM = -7,
    /** The operation would deadlock: taking a non-recursive mutex the caller
     *  already holds, or a task joining itself. */
    RTIPC_EDEADLOCK = -8,
    /** The operation is not supported by this object's configuration
     *  (overwrite on a queue longer than one item), or not by the port
     *  rtipc was built for (docs/porting.md lists what the FreeRTOS port
     *  does not support). */
    RTIPC_ENOTSUP = -9,
    /** A notification value is still pending and the action was
     *  "no overwrite", so the value was left unchanged. */
    RTIPC_EPENDING = -10,
    /** The object is in use: it has waiting tasks, or another task is
     *  already inside a single-writer/single-reader call. */
    RTIPC_EBUSY = -11,
    /** The operating system refused a resource (thread creation, scheduling
     *  attribute); the object was not created. */
    RTIPC_ESYSTEM = -12,
};

/**
 * Human-readable text for an rtipc error code.
 * Context: any (task or interrupt). Never blocks. Thread-safe.
 * @return a static string; unknown codes give "unknown rtipc error".
 */
const char *rtipc_strerror(int code);

/**
 * The name of an rtipc error code as written in this header ("RTIPC_EINVAL",
 * "RTIPC_OK" for 0), for logs and test output that must not depend on the
 * wording of rtipc_strerror.
 * Context: any (task or interrupt). Never blocks. Thread-safe.
 * @return a static string; unknown codes give NULL.
 */
const char *rtipc_error_name(int code);

#ifdef __cplusplus
}
#endif
#endif
