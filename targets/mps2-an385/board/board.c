/* mps2-an385 board support: UART console and newlib's system calls, TIMER0
 * clock and its calibration, NVIC helpers, exit (board.h). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "board.h"
#include "board_args.h"
#include "board_print.h"

/* board_asm.S */
void board_spin_turns(uint32_t n);
uint32_t board_semihost(uint32_t op, uint32_t arg);

/* The newlib system calls below have no prototypes in a public header. */
int _write(int fd, const char *buf, int len);
int _read(int fd, char *buf, int len);
int _close(int fd);
int _fstat(int fd, struct stat *st);
int _isatty(int fd);
int _lseek(int fd, int offset, int whence);
void *_sbrk(ptrdiff_t incr);
int _kill(int pid, int sig);
int _getpid(void);
_Noreturn void _exit(int code);
_Noreturn void board_exit_unflushed(int code);

#define REG(addr) (*(volatile uint32_t *)(uintptr_t)(addr))

/* CMSDK APB UART0 */
#define UART0_BASE 0x40004000u
#define UART_DATA REG(UART0_BASE + 0x00u)
#define UART_STATE REG(UART0_BASE + 0x04u) /* bit 0: TX buffer full */
#define UART_CTRL REG(UART0_BASE + 0x08u)  /* bit 0: TX enable */
#define UART_BAUDDIV REG(UART0_BASE + 0x10u)

/* CMSDK APB TIMER0 */
#define TIMER0_BASE 0x40000000u
#define TIMER_CTRL REG(TIMER0_BASE + 0x00u) /* bit 0: enable */
#define TIMER_VALUE REG(TIMER0_BASE + 0x04u)
#define TIMER_RELOAD REG(TIMER0_BASE + 0x08u)

/* NVIC (Cortex-M3 system control space) */
#define NVIC_ISER(n) REG(0xE000E100u + 4u * (n))
#define NVIC_ICER(n) REG(0xE000E180u + 4u * (n))
#define NVIC_ISPR(n) REG(0xE000E200u + 4u * (n))
#define NVIC_ICPR(n) REG(0xE000E280u + 4u * (n))
#define NVIC_IPR_BYTE(irq) (*(volatile uint8_t *)(uintptr_t)(0xE000E400u + (irq)))

/* Semihosting */
#define SYS_EXIT 0x18u
#define ADP_STOPPED_APPLICATION_EXIT 0x20026u
#define ADP_STOPPED_INTERNAL_ERROR 0x20024u

/* board_stamp_end's loop: ldr, adds, cmp, beq. */
#define STAMP_SPIN_INSTR 4u

static double instr_per_count;
static bool stamp_exact;
static uint32_t stamp_anomalies;

void board_init(void)
{
    UART_BAUDDIV = 16;
    UART_CTRL = 1u;
    TIMER_CTRL = 0;
    TIMER_RELOAD = 0xffffffffu;
    TIMER_VALUE = 0xffffffffu;
    TIMER_CTRL = 1u;
}

void board_putc(char c)
{
    while (UART_STATE & 1u)
        ;
    UART_DATA = (uint32_t)(unsigned char)c;
}

void board_puts(const char *s)
{
    while (*s)
        board_putc(*s++);
}

uint32_t board_timer_now(void) { return TIMER_VALUE; }

uint64_t board_counter(void)
{
    static uint32_t last;
    static uint64_t total;
    static bool started;
    uint32_t saved = board_irq_save();
    uint32_t now = TIMER_VALUE;
    if (!started) {
        last = now;
        started = true;
    }
    total += (uint32_t)(last - now); /* a down-counter: elapsed counts */
    last = now;
    uint64_t t = total;
    board_irq_restore(saved);
    return t;
}

#define SYS_GET_CMDLINE 0x15u

int board_command_line(char *buf, unsigned len)
{
    struct {
        char *buf;
        unsigned len;
    } block = {buf, len};
    if (len == 0 || board_semihost(SYS_GET_CMDLINE, (uint32_t)(uintptr_t)&block) != 0)
        return -1;
    buf[block.len < len ? block.len : len - 1] = '\0';
    return (int)block.len;
}

int board_args(const char *program, const char *defaults, char **argv, int max_args)
{
    static char line[512];
    /* QEMU passes the image's name (or the first arg=) as the program, then
     * the rest. */
    bool have = board_command_line(line, sizeof line) > 0;
    return board_args_split(have ? line : NULL, true, program, defaults, argv, max_args);
}

double board_instr_per_count(void) { return instr_per_count; }

/* SysTick (ARMv7-M system timer) registers. */
#define SYST_CSR (*(volatile uint32_t *)0xE000E010u)
#define SYST_RVR (*(volatile uint32_t *)0xE000E014u)
#define SYST_CVR (*(volatile uint32_t *)0xE000E018u)

uint32_t board_systick_hz(void)
{
    /* Free-run SysTick on the processor clock, without its interrupt, for
     * 250000 TIMER0 counts (10 ms at BOARD_CPU_HZ), then leave it stopped. */
    uint32_t saved = board_irq_save();
    SYST_CSR = 0;
    SYST_RVR = 0x00FFFFFFu;
    SYST_CVR = 0;
    SYST_CSR = 5u; /* enable, processor clock, no interrupt */
    uint32_t t0 = board_timer_now(), s0 = SYST_CVR;
    while (t0 - board_timer_now() < 250000u)
        ;
    uint32_t s1 = SYST_CVR;
    SYST_CSR = 0;
    board_irq_restore(saved);
    uint32_t ticks = (s0 - s1) & 0x00FFFFFFu;
    return (uint32_t)((uint64_t)ticks * BOARD_CPU_HZ / 250000u);
}

bool board_stamp_exact(void) { return stamp_exact; }

uint32_t board_stamp_anomalies(void) { return stamp_anomalies; }

int64_t board_stamp_instr(board_stamp_t start, board_stamp_t end)
{
    /* Whole counts from the change start waited for to the change end
     * waited for, less the turns end spent waiting for it. */
    uint32_t counts = start.value - end.value;
    int64_t instr;
    if (stamp_exact) {
        instr = (int64_t)counts * BOARD_STAMP_PERIOD - (int64_t)end.spins * STAMP_SPIN_INSTR;
        /* The start's poll saw its change d = 2 - phase instructions late,
         * which puts the start point d later; the end's poll saw its
         * change e = 3 - phase late, which puts the end point e later. */
        if (start.phase <= 2 && end.phase <= 3)
            instr += (int64_t)(3 - end.phase) - (int64_t)(2 - start.phase);
        else
            stamp_anomalies++;
        return instr;
    }
    double approx = (double)counts * instr_per_count - (double)end.spins * STAMP_SPIN_INSTR;
    return (int64_t)(approx + (approx >= 0 ? 0.5 : -0.5));
}

double board_calibrate(void)
{
    /* BOARD_CALIB_INSTR instructions of a 2-instruction loop between two
     * stamps; the stamps' own few instructions are negligible next to it. */
    stamp_exact = false;
    board_stamp_t start = board_stamp_start();
    board_spin_turns(BOARD_CALIB_INSTR / 2u);
    board_stamp_t end = board_stamp_end();
    uint32_t counts = start.value - end.value;
    instr_per_count = ((double)BOARD_CALIB_INSTR + (double)end.spins * STAMP_SPIN_INSTR) / (double)counts;
    double off = instr_per_count - BOARD_STAMP_PERIOD;
    stamp_exact = off > -0.01 && off < 0.01;
    return instr_per_count;
}

void board_nvic_enable(unsigned irq) { NVIC_ISER(irq / 32u) = 1u << (irq % 32u); }
void board_nvic_disable(unsigned irq) { NVIC_ICER(irq / 32u) = 1u << (irq % 32u); }
void board_nvic_pend(unsigned irq) { NVIC_ISPR(irq / 32u) = 1u << (irq % 32u); }
void board_nvic_unpend(unsigned irq) { NVIC_ICPR(irq / 32u) = 1u << (irq % 32u); }
void board_nvic_set_priority(unsigned irq, uint8_t priority) { NVIC_IPR_BYTE(irq) = priority; }

_Noreturn void board_exit_unflushed(int code)
{
    board_puts("\n" BOARD_EXIT_MARKER " ");
    board_put_int(code);
    board_puts(" ====\n");
    board_semihost(SYS_EXIT, code == 0 ? ADP_STOPPED_APPLICATION_EXIT : ADP_STOPPED_INTERNAL_ERROR);
    for (;;) /* no semihosting: stay here; the marker tells a watcher */
        ;
}

_Noreturn void board_exit(int code)
{
    fflush(stdout);
    fflush(stderr);
    board_exit_unflushed(code);
}

/* ---- newlib system calls ------------------------------------------------- */

int _write(int fd, const char *buf, int len)
{
    if (fd != 1 && fd != 2) {
        errno = EBADF;
        return -1;
    }
    for (int i = 0; i < len; i++)
        board_putc(buf[i]); /* "\n" as is: the console is captured, not a terminal */
    return len;
}

int _read(int fd, char *buf, int len)
{
    (void)fd;
    (void)buf;
    (void)len;
    return 0; /* no input: end of file */
}

int _close(int fd)
{
    (void)fd;
    return -1;
}

int _fstat(int fd, struct stat *st)
{
    (void)fd;
    st->st_mode = S_IFCHR;
    return 0;
}

int _isatty(int fd) { return fd >= 0 && fd <= 2; }

int _lseek(int fd, int offset, int whence)
{
    (void)fd;
    (void)offset;
    (void)whence;
    return 0;
}

extern char __heap_start[], __stack_limit[];

void *_sbrk(ptrdiff_t incr)
{
    static char *brk = __heap_start;
    if (incr > __stack_limit - brk || incr < __heap_start - brk) {
        errno = ENOMEM;
        return (void *)-1;
    }
    char *old = brk;
    brk += incr;
    return old;
}

int _kill(int pid, int sig)
{
    (void)pid;
    (void)sig;
    errno = EINVAL;
    return -1;
}

int _getpid(void) { return 1; }

/* newlib-nano's aligned_alloc calls posix_memalign, which nano's allocator
 * lacks; its memalign does the work. */
void *memalign(size_t align, size_t size);
int posix_memalign(void **out, size_t align, size_t size);
int posix_memalign(void **out, size_t align, size_t size)
{
    if (align < sizeof(void *) || (align & (align - 1)) != 0)
        return EINVAL;
    void *p = memalign(align, size);
    if (!p)
        return ENOMEM;
    *out = p;
    return 0;
}

_Noreturn void _exit(int code) { board_exit_unflushed(code); }
