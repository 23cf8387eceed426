/* Happens-before annotations for ThreadSanitizer where synchronisation goes
 * through the kernel (PI futex hand-over) and TSan cannot see it. Empty in
 * other builds. */
#ifndef RTIPC_POSIX_SANITIZER_H
#define RTIPC_POSIX_SANITIZER_H

#if defined(__SANITIZE_THREAD__)
#define RTIPC__TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define RTIPC__TSAN 1
#endif
#endif

#ifdef RTIPC__TSAN
void __tsan_acquire(void *addr);
void __tsan_release(void *addr);
#define RTIPC__TSAN_ACQUIRE(p) __tsan_acquire((void *)(p))
#define RTIPC__TSAN_RELEASE(p) __tsan_release((void *)(p))
#else
#define RTIPC__TSAN_ACQUIRE(p) ((void)(p))
#define RTIPC__TSAN_RELEASE(p) ((void)(p))
#endif

#endif
