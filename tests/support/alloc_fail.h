/* Allocation-failure injection for tests of ENOMEM paths.
 *
 * Outside sanitizer builds (the sanitizers own the allocator), this header
 * interposes malloc and calloc on glibc and fails them for the calling thread
 * while fail_alloc is set; CAN_FAIL_ALLOC says whether that is available.
 * Under a sanitizer the allocator is told to return NULL rather than abort,
 * so a test that provokes a failing allocation still sees the error.
 * It defines functions: include it in exactly one source of a test program. */
#ifndef RTIPC_TEST_ALLOC_FAIL_H
#define RTIPC_TEST_ALLOC_FAIL_H

#include <errno.h>
#include <stddef.h>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define RTIPC_TEST_UNDER_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define RTIPC_TEST_UNDER_SANITIZER 1
#endif
#endif

#ifdef RTIPC_TEST_UNDER_SANITIZER
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "allocator_may_return_null=1"; }
const char *__tsan_default_options(void);
const char *__tsan_default_options(void) { return "allocator_may_return_null=1"; }
#endif

#if !defined(RTIPC_TEST_UNDER_SANITIZER) && defined(__GLIBC__)
#define CAN_FAIL_ALLOC 1
static _Thread_local int fail_alloc;
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);

void *malloc(size_t size)
{
    if (fail_alloc) {
        errno = ENOMEM;
        return NULL;
    }
    return __libc_malloc(size);
}

void *calloc(size_t n, size_t size)
{
    if (fail_alloc) {
        errno = ENOMEM;
        return NULL;
    }
    return __libc_calloc(n, size);
}

static inline void set_fail_alloc(int on) { fail_alloc = on; }
#else
#define CAN_FAIL_ALLOC 0
#endif

#endif
