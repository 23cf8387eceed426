/* Allocation-failure injection for tests of ENOMEM paths.
 *
 * Outside sanitizer builds (the sanitizers own the allocator), this header
 * interposes malloc and calloc on glibc and fails them for the calling thread
 * while fail_alloc is set; CAN_FAIL_ALLOC says whether that is available.
 * Under a sanitizer the allocator is told to return NULL rather than abort,
 * so a test that provokes a failing allocation still sees the error.
 * A program that defines RTIPC_TEST_ALLOC_WRAP gets instead a counting
 * injector that works in every build (below).
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

#include "rtipc/config.h"

#if defined(RTIPC_TEST_UNDER_SANITIZER) && !defined(RTIPC_TEST_ALLOC_WRAP)
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "allocator_may_return_null=1"; }
const char *__tsan_default_options(void);
const char *__tsan_default_options(void) { return "allocator_may_return_null=1"; }
#endif

#if RTIPC_PORT_FREERTOS
/* On FreeRTOS every allocation, the kernel's and rtipc's, is pvPortMalloc:
 * a unit test built for the simulator is linked with
 * -Wl,--wrap=pvPortMalloc (targets/freertos-posix/CMakeLists.txt), and
 * set_fail_alloc(1) makes it fail for the calling task until
 * set_fail_alloc(0). */
#define CAN_FAIL_ALLOC 1
#include "FreeRTOS.h"
#include "task.h"

void *__real_pvPortMalloc(size_t size);
void *__wrap_pvPortMalloc(size_t size);

static TaskHandle_t _Atomic alloc_fail_task;

void *__wrap_pvPortMalloc(size_t size)
{
    /* From a handler there is no current task to compare: never failed. */
    if (alloc_fail_task != NULL && xTaskGetCurrentTaskHandle() == alloc_fail_task)
        return NULL;
    return __real_pvPortMalloc(size);
}

static inline void set_fail_alloc(int on) { alloc_fail_task = on ? xTaskGetCurrentTaskHandle() : NULL; }

#elif defined(RTIPC_TEST_ALLOC_WRAP)
/* Counting injection by link-time wrapping, for every build. A program that
 * defines RTIPC_TEST_ALLOC_WRAP before including this header must be linked
 * with -Wl,--wrap=malloc,--wrap=calloc,--wrap=aligned_alloc,
 * --wrap=posix_memalign,--wrap=free (tests/CMakeLists.txt, the fault tests).
 * The linker then sends the calls made by code linked statically into the
 * program (librtipc.a and the program's own sources) here, and from here to
 * the real allocator, which under a sanitizer is the sanitizer's (so ASan
 * still sees every block and LeakSanitizer still runs). Calls made inside
 * shared libraries (glibc's pthread_create, cmocka) are not seen.
 *
 * alloc_fail_nth(n) arms the calling thread: its n-th allocation from now
 * fails (returns NULL with errno ENOMEM) and disarms it; alloc_fail_nth(0)
 * disarms. alloc_live() counts blocks allocated through the wrappers and not
 * yet freed, for leak checks around a call. */
#define CAN_FAIL_ALLOC 1
#include <stdatomic.h>

void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_aligned_alloc(size_t align, size_t size);
int __real_posix_memalign(void **p, size_t align, size_t size);
void __real_free(void *p);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_aligned_alloc(size_t align, size_t size);
int __wrap_posix_memalign(void **p, size_t align, size_t size);
void __wrap_free(void *p);

static _Thread_local long alloc_countdown;
static _Atomic long alloc_live_blocks, alloc_attempts, alloc_injected;

static inline void alloc_fail_nth(long n) { alloc_countdown = n; }
static inline long alloc_live(void) { return atomic_load(&alloc_live_blocks); }
static inline long alloc_attempt_count(void) { return atomic_load(&alloc_attempts); }
static inline long alloc_injected_count(void) { return atomic_load(&alloc_injected); }

/* True when this allocation is the one to fail. */
static int alloc_should_fail(void)
{
    atomic_fetch_add(&alloc_attempts, 1);
    if (alloc_countdown > 0 && --alloc_countdown == 0) {
        atomic_fetch_add(&alloc_injected, 1);
        errno = ENOMEM;
        return 1;
    }
    return 0;
}

static void *alloc_counted(void *p)
{
    if (p)
        atomic_fetch_add(&alloc_live_blocks, 1);
    return p;
}

void *__wrap_malloc(size_t size) { return alloc_should_fail() ? NULL : alloc_counted(__real_malloc(size)); }
void *__wrap_calloc(size_t n, size_t size)
{
    return alloc_should_fail() ? NULL : alloc_counted(__real_calloc(n, size));
}
void *__wrap_aligned_alloc(size_t align, size_t size)
{
    return alloc_should_fail() ? NULL : alloc_counted(__real_aligned_alloc(align, size));
}
int __wrap_posix_memalign(void **p, size_t align, size_t size)
{
    if (alloc_should_fail())
        return ENOMEM;
    int rc = __real_posix_memalign(p, align, size);
    if (rc == 0)
        alloc_counted(*p);
    return rc;
}
void __wrap_free(void *p)
{
    if (p)
        atomic_fetch_sub(&alloc_live_blocks, 1);
    __real_free(p);
}

#elif !defined(RTIPC_TEST_UNDER_SANITIZER) && defined(__GLIBC__)
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
