/* ESP-IDF's error type and the codes rtipc's port tells apart. */
#ifndef RTIPC_STANDIN_ESP_ERR_H
#define RTIPC_STANDIN_ESP_ERR_H
#include <stdint.h>
typedef int esp_err_t;
#define ESP_OK 0
#define ESP_FAIL (-1)
#define ESP_ERR_NO_MEM 0x101
#define ESP_ERR_INVALID_ARG 0x102
#define ESP_ERR_INVALID_STATE 0x103
#define ESP_ERR_NOT_FOUND 0x105
#endif
