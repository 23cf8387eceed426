/* The menuconfig values the app, the bench seam and the port read (an esp32
 * with both scope lines set and ESP-IDF's Task Watchdog Timer started at
 * boot, so that every branch compiles). */
#define CONFIG_IDF_TARGET "esp32"
#define CONFIG_ESP_DEFAULT_CPU_FREQ_MHZ 240
#define CONFIG_RTIPC_BENCH_ARGS "run --quick --no-progress --json -"
#define CONFIG_RTIPC_BENCH_GPIO_SEND 4
#define CONFIG_RTIPC_BENCH_GPIO_RECV 5
#define CONFIG_ESP_TASK_WDT_EN 1
#define CONFIG_ESP_TASK_WDT_INIT 1
#define CONFIG_ESP_TASK_WDT_TIMEOUT_S 5
#define CONFIG_ESP_TASK_WDT_CHECK_IDLE_TASK_CPU0 1
#define CONFIG_PTHREAD_TASK_STACK_SIZE_DEFAULT 3072
#define CONFIG_RTIPC_BENCH_QEMU 1
#define CONFIG_RTIPC_BENCH_QEMU_ICOUNT_SHIFT 2
#define CONFIG_RTIPC_BENCH_QEMU_ICOUNT_QUANTUM 1000
