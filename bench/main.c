/* rtipc-bench on Linux: the command line (cli.c) from the process's main
 * thread. */
#include "cli.h"

int main(int argc, char **argv) { return bench_cli(argc, argv); }
