/* qemu-virt-rv32 board support: start-up in C, UART console and picolibc's
 * stdio, CLINT clock and software interrupts, trap table, exit, fault
 * reports (board.h). */
#include <picolibc.h> /* PICOLIBC_TLS, which picotls.h tests */
#include <picotls.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "board.h"
#include "board_args.h"
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
void board_primary_start(unsigned hart, const void *fdt);
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

/* The three standard streams are the UART console, which a person may be
 * watching (rtipc-bench shows progress there unless told --no-progress). */
int isatty(int fd);
int isatty(int fd) { return fd >= 0 && fd <= 2; }

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

/* ---- command line: the device tree's /chosen/bootargs --------------------- */

/* QEMU's reset code hands hart 0 the device tree's address in a1; the tree
 * lies in RAM near its top, where nothing of the board's is until a heap
 * grows there, so it is read before main(). */
static const void *boot_fdt;

#define FDT_MAGIC 0xd00dfeedu
#define FDT_BEGIN_NODE 1u
#define FDT_END_NODE 2u
#define FDT_PROP 3u
#define FDT_NOP 4u

static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* The flattened tree's structure block is a sequence of big-endian tokens;
 * bootargs is a property of the node "chosen", a child of the root. Every
 * offset is checked against the tree's own size, so a missing or damaged
 * tree only means "no command line". */
static const char *fdt_bootargs(const unsigned char *fdt)
{
    uintptr_t at = (uintptr_t)fdt;
    if (!fdt || at < 0x80000000u || (at & 3u) != 0 || be32(fdt) != FDT_MAGIC)
        return NULL;
    uint32_t total = be32(fdt + 4), off_struct = be32(fdt + 8), off_strings = be32(fdt + 12);
    if (total > 0x100000u || off_struct >= total || off_strings >= total)
        return NULL;
    uint32_t pos = off_struct;
    int depth = 0;
    bool in_chosen = false;
    while (pos + 4u <= total) {
        uint32_t token = be32(fdt + pos);
        pos += 4u;
        if (token == FDT_BEGIN_NODE) {
            const char *name = (const char *)fdt + pos;
            size_t len = 0;
            while (pos + len < total && name[len] != '\0')
                len++;
            depth++;
            in_chosen = depth == 2 && len == 6 && memcmp(name, "chosen", 6) == 0;
            pos += ((uint32_t)len + 4u) & ~3u;
        } else if (token == FDT_END_NODE) {
            if (depth-- == 2)
                in_chosen = false;
        } else if (token == FDT_PROP) {
            if (pos + 8u > total)
                return NULL;
            uint32_t len = be32(fdt + pos), nameoff = be32(fdt + pos + 4u);
            const unsigned char *value = fdt + pos + 8u;
            pos += 8u + ((len + 3u) & ~3u);
            if (pos > total || off_strings + nameoff >= total)
                return NULL;
            if (in_chosen && strcmp((const char *)fdt + off_strings + nameoff, "bootargs") == 0 && len > 0 &&
                value[len - 1] == '\0')
                return (const char *)value;
        } else if (token != FDT_NOP) {
            return NULL; /* FDT_END or damage */
        }
    }
    return NULL;
}

const char *board_command_line(void) { return fdt_bootargs(boot_fdt); }

int board_args(const char *program, const char *defaults, char **argv, int max_args)
{
    return board_args_split(board_command_line(), false, program, defaults, argv, max_args);
}

/* ---- start-up ------------------------------------------------------------- */

void board_primary_start(unsigned hart, const void *fdt)
{
    (void)hart;
    boot_fdt = fdt;
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
