/* The menuconfig values the app and the bench seam read (an esp32 with both
 * scope lines set, so that every branch compiles). */
#define CONFIG_IDF_TARGET "esp32"
#define CONFIG_ESP_DEFAULT_CPU_FREQ_MHZ 240
#define CONFIG_RTIPC_BENCH_ARGS "run --quick --no-progress --json -"
#define CONFIG_RTIPC_BENCH_GPIO_SEND 4
#define CONFIG_RTIPC_BENCH_GPIO_RECV 5
