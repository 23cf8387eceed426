/* Interrupt backend for the kernel's POSIX simulator (FREERTOS_PORT
 * GCC_POSIX); see irq_port.h.
 *
 * The simulator's tick interrupt is a signal (SIGALRM) that its timer thread
 * sends to the thread of the running task; the handler runs with every
 * signal blocked, and the kernel's critical sections and a suspended task's
 * thread block every signal too. rtipc's vector is the same thing on another
 * signal (SIGUSR2 unless FreeRTOSConfig.h sets rtipcCONFIG_SIM_IRQ_SIGNAL):
 * a handler installed with every signal blocked, so rtipc's handlers and the
 * tick never preempt each other, and the FromISR calls and
 * portYIELD_FROM_ISR are valid in it exactly as in the tick.
 *
 * Pending is pthread_kill(pthread_self()): sent by the running task to its
 * own thread, the signal is delivered before pthread_kill returns when the
 * task has interrupts enabled (like an NVIC pending bit set with interrupts
 * enabled), or when it leaves its critical section otherwise. Sent from an
 * interrupt (signals blocked), it is delivered when that handler returns,
 * unless the vector already ran the handler in its loop. Before the scheduler
 * runs there is no task thread to interrupt: the pending flag waits for the
 * first tick (rtipc_freertos_tick_hook). The simulator has one core: sources
 * on core 0 only.
 *
 * portYIELD_FROM_ISR is the simulator's vPortYield: it switches threads
 * inside this signal handler, as the tick does. Leaving its critical section
 * unblocks signals before the handler returns, so a signal that arrived while
 * the handler ran (a tick, another trigger) is taken at that point, on top
 * of this handler's frame, before the interrupted task resumes: the
 * simulator's form of tail-chaining. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <pthread.h>
#include <signal.h>

#include "irq_port.h"
#include "port_internal.h"

#ifndef rtipcCONFIG_SIM_IRQ_SIGNAL
#define rtipcCONFIG_SIM_IRQ_SIGNAL SIGUSR2
#endif

static void vector(int sig)
{
    (void)sig;
    int saved_errno = errno;
    /* Only a task's thread ever has this signal unblocked. */
    if (xTaskGetSchedulerState() != taskSCHEDULER_NOT_STARTED && rtipc__irq_service())
        portYIELD_FROM_ISR(pdTRUE);
    errno = saved_errno;
}

static volatile bool installed;

unsigned rtipc__irq_hw_cores(void) { return 1u; }

int rtipc__irq_hw_init(unsigned core)
{
    (void)core; /* 0 */
    if (installed)
        return RTIPC_OK;
    struct sigaction sa;
    sa.sa_handler = vector;
    sa.sa_flags = 0;
    sigfillset(&sa.sa_mask);
    if (sigaction(rtipcCONFIG_SIM_IRQ_SIGNAL, &sa, NULL) != 0)
        return RTIPC_ESYSTEM;
    installed = true;
    return RTIPC_OK;
}

void rtipc__irq_hw_pend(unsigned core)
{
    (void)core; /* 0 */
    if (xTaskGetSchedulerState() == taskSCHEDULER_NOT_STARTED)
        return;
    (void)pthread_kill(pthread_self(), rtipcCONFIG_SIM_IRQ_SIGNAL);
}
