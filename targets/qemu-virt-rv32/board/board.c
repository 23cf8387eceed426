/* qemu-virt-rv32 board support: start-up in C, UART console and picolibc's
 * stdio, CLINT clock and software interrupts, trap table, exit, fault
 * reports (board.h). */
#include <picolibc.h> /* PICOLIBC_TLS, which picotls.h tests */
#include <picotls.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#include "board.h"
#include "board_print.h"

#define REG32(addr) (*(volatile uint32_t *)(uintptr_t)(addr))
#define REG8(addr) (*(volatile uint8_t *)(uintptr_t)(addr))

/* 16550 UART: transmit holding register, line status (bit 5: THR empty). */
#define UART_BASE 0x10000000u
#define UART_THR REG8(UART_BASE + 0u)
#define UART_LSR REG8(UART_BASE + 5u)

/* SiFive test device: 0x5555 passes, (code << 16) | 0x3333 fails with code. */
#define TEST_DEV REG32(0x00100000u)

#define CLINT_MSIP(hart) REG32(BOARD_CLINT_BASE + 4u * (hart))

/* Each secondary hart's thread-local block (the linker script's template
 * is hart 0's). */
#define BOARD_TLS_BYTES 512u

int main(void);
void board_primary_start(void);
void board_secondary_start(unsigned hart);
_Noreturn void _exit(int code);

extern uint32_t board_vectors[BOARD_TRAP_ENTRIES];
extern char __tls_base[];

static _Alignas(16) unsigned char hart_tls[BOARD_HARTS - 1][BOARD_TLS_BYTES];
static atomic_uint harts_up;

/* ---- console -------------------------------------------------------------- */

void board_putc(char c)
{
    while ((UART_LSR & 0x20u) == 0)
        ;
    UART_THR = (uint8_t)c;
}

void board_puts(const char *s)
{
    while (*s)
        board_putc(*s++);
}

static int stdio_put(char c, FILE *f)
{
    (void)f;
    board_putc(c);
    return (unsigned char)c;
}

static FILE board_stdio = FDEV_SETUP_STREAM(stdio_put, NULL, NULL, _FDEV_SETUP_WRITE);
FILE *const stdin = &board_stdio;
FILE *const stdout = &board_stdio;
FILE *const stderr = &board_stdio;

/* ---- clocks --------------------------------------------------------------- */

uint64_t board_mtime(void)
{
    /* Two 32-bit halves: read high, low, high again until no carry fell
     * between them. */
    uint32_t hi, lo;
    do {
        hi = REG32(BOARD_MTIME_ADDR + 4u);
        lo = REG32(BOARD_MTIME_ADDR);
    } while (hi != REG32(BOARD_MTIME_ADDR + 4u));
    return ((uint64_t)hi << 32) | lo;
}

#define READ_CSR64(lo_name, hi_name)                                        \
    do {                                                                    \
        uint32_t hi, lo, hi2;                                               \
        do {                                                                \
            __asm__ volatile("csrr %0, " hi_name : "=r"(hi));               \
            __asm__ volatile("csrr %0, " lo_name : "=r"(lo));               \
            __asm__ volatile("csrr %0, " hi_name : "=r"(hi2));              \
        } while (hi != hi2);                                                \
        return ((uint64_t)hi << 32) | lo;                                   \
    } while (0)

uint64_t board_cycles(void) { READ_CSR64("mcycle", "mcycleh"); }
uint64_t board_instret(void) { READ_CSR64("minstret", "minstreth"); }

void board_delay_us(uint32_t us)
{
    uint64_t end = board_mtime() + (uint64_t)us * (BOARD_MTIME_HZ / 1000000u);
    while (board_mtime() < end)
        ;
}

/* ---- software interrupts, masking ----------------------------------------- */

void board_ipi_send(unsigned hart) { CLINT_MSIP(hart) = 1u; }
void board_ipi_clear(void) { CLINT_MSIP(board_hart_id()) = 0u; }

uint32_t board_irq_save(void)
{
    uint32_t old;
    __asm__ volatile("csrrci %0, mstatus, 8" : "=r"(old)::"memory");
    return old & 8u;
}

void board_irq_restore(uint32_t saved)
{
    if (saved & 8u)
        __asm__ volatile("csrsi mstatus, 8" ::: "memory");
}

/* ---- trap table ----------------------------------------------------------- */

/* `jal x0, off`: the J-type immediate is bits 20 | 10:1 | 11 | 19:12. */
static uint32_t encode_jump(uintptr_t from, uintptr_t to)
{
    uint32_t off = (uint32_t)(to - from);
    return (((off >> 20) & 1u) << 31) | (((off >> 1) & 0x3ffu) << 21) | (((off >> 11) & 1u) << 20) |
           (((off >> 12) & 0xffu) << 12) | 0x6fu;
}

void board_trap_install(unsigned cause, void (*entry)(void))
{
    if (cause >= BOARD_TRAP_ENTRIES)
        return;
    uintptr_t slot = (uintptr_t)&board_vectors[cause];
    intptr_t dist = (intptr_t)((uintptr_t)entry - slot);
    if (dist >= (1 << 20) || dist < -(1 << 20)) {
        board_puts("board_trap_install: handler out of jump range\n");
        board_exit(2);
    }
    __atomic_store_n(&board_vectors[cause], encode_jump(slot, (uintptr_t)entry), __ATOMIC_RELEASE);
    /* This hart's fetches see the new entry after fence.i; QEMU keeps every
     * hart's fetches coherent with stores to code (a hart of real silicon
     * would need its own fence.i before taking that trap). */
    __asm__ volatile("fence rw, rw\n\tfence.i" ::: "memory");
}

/* ---- start-up ------------------------------------------------------------- */

void board_primary_start(void)
{
    _set_tls(__tls_base);
    if (_tls_size() > BOARD_TLS_BYTES) {
        board_puts("board: thread-local data larger than BOARD_TLS_BYTES\n");
        board_exit(2);
    }
    for (unsigned h = 1; h < BOARD_HARTS; h++) {
        _init_tls(hart_tls[h - 1]);
        __asm__ volatile("fence rw, rw" ::: "memory");
        board_ipi_send(h);
    }
    /* Wait for the others to run before main(): a port's first software
     * interrupt to them must not merge with this release. */
    uint64_t give_up = board_mtime() + BOARD_MTIME_HZ; /* 1 s */
    while (atomic_load(&harts_up) != BOARD_HARTS - 1u) {
        if (board_mtime() > give_up) {
            printf("board: only %u of %u harts started (run QEMU with -smp %u)\n", atomic_load(&harts_up) + 1u,
                   (unsigned)BOARD_HARTS, (unsigned)BOARD_HARTS);
            board_exit(2);
        }
    }
    board_exit(main());
}

void board_secondary_start(unsigned hart)
{
    board_ipi_clear();
    _set_tls(hart_tls[hart - 1]);
    atomic_fetch_add(&harts_up, 1u);
    board_hart_main(hart);
    for (;;)
        __asm__ volatile("wfi");
}

__attribute__((weak)) void board_hart_main(unsigned hart)
{
    (void)hart;
    __asm__ volatile("csrs mie, %0\n\tcsrsi mstatus, 8" ::"r"(8u) : "memory");
    for (;;)
        __asm__ volatile("wfi");
}

/* ---- exit and fault reports ----------------------------------------------- */

_Noreturn void board_exit(int code)
{
    fflush(stdout);
    board_puts("\n" BOARD_EXIT_MARKER " ");
    board_put_int(code);
    board_puts(" ====\n");
    uint32_t status = code == 0 ? 0x5555u : ((uint32_t)(code > 0 && code <= 0xffff ? code : 1) << 16) | 0x3333u;
    TEST_DEV = status;
    for (;;) /* not reached under QEMU */
        __asm__ volatile("wfi");
}

_Noreturn void _exit(int code) { board_exit(code); }

/* picolibc's raise() (abort, a failed assert) signals "this process". */
int getpid(void);
int kill(int pid, int sig);
int getpid(void) { return 1; }
int kill(int pid, int sig)
{
    (void)pid;
    board_puts("\nboard: signal ");
    board_put_dec((uint32_t)sig);
    board_puts(" raised (abort)\n");
    board_exit(128 + (sig & 0x7f));
}

static const char *cause_name(uint32_t mcause)
{
    static const char *const exceptions[16] = {
        "instruction address misaligned", "instruction access fault", "illegal instruction", "breakpoint",
        "load address misaligned", "load access fault", "store/AMO address misaligned", "store/AMO access fault",
        "ecall from U-mode", "ecall from S-mode", "reserved", "ecall from M-mode", "instruction page fault",
        "load page fault", "reserved", "store/AMO page fault"};
    static const char *const interrupts[16] = {
        "reserved", "S software", "reserved", "M software", "reserved", "S timer", "reserved", "M timer",
        "reserved", "S external", "reserved", "M external", "reserved", "reserved", "reserved", "reserved"};
    uint32_t code = mcause & 0x7fffffffu;
    if (code >= 16)
        return "unknown";
    return (mcause & 0x80000000u) ? interrupts[code] : exceptions[code];
}

_Noreturn void board_trap_report(uint32_t mcause, uint32_t mepc, uint32_t mtval, uint32_t sp)
{
    bool irq = (mcause & 0x80000000u) != 0;
    board_puts("\nFAULT: hart ");
    board_put_dec(board_hart_id());
    board_puts(irq ? ": unhandled interrupt " : ": exception ");
    board_put_dec(mcause & 0x7fffffffu);
    board_puts(" (");
    board_puts(cause_name(mcause));
    board_puts(") mcause=");
    board_put_hex(mcause);
    board_puts(" mepc=");
    board_put_hex(mepc);
    board_puts(" mtval=");
    board_put_hex(mtval);
    board_puts(" sp=");
    board_put_hex(sp);
    board_puts("\n");
    board_exit((irq ? 0xc0 : 0x80) + (int)(mcause & 0x3fu));
}
