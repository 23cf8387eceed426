/* A firmware's command line split into argv, shared by rtipc's boards: each
 * board finds the line where its emulator leaves it (mps2-an385: semihosting;
 * qemu-virt-rv32: the device tree's /chosen/bootargs) and splits it here. */
#ifndef RTIPC_TARGETS_BOARD_ARGS_H
#define RTIPC_TARGETS_BOARD_ARGS_H

#include <stdbool.h>

/* Split @p line (NULL: there is none) at spaces into @p argv (room for
 * @p max_args + 1 pointers, NULL-terminated; the words live in a static
 * buffer of 512 bytes, a longer line is cut there). When @p names_program
 * the line's first word is the program's name and is dropped. argv[0] is
 * @p program; when the line has no other words, @p defaults are split the
 * same way instead. Returns argc. Call once, from one context. */
int board_args_split(const char *line, bool names_program, const char *program, const char *defaults, char **argv,
                     int max_args);

#endif
