/* ESP-IDF's version string. */
#ifndef RTIPC_STANDIN_ESP_IDF_VERSION_H
#define RTIPC_STANDIN_ESP_IDF_VERSION_H
const char *esp_get_idf_version(void);
#define ESP_IDF_VERSION_MAJOR 5
#define ESP_IDF_VERSION_MINOR 1
#define ESP_IDF_VERSION_PATCH 6
#endif
