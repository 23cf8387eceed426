/* ESP-IDF's version string. */
#ifndef RTIPC_STANDIN_ESP_IDF_VERSION_H
#define RTIPC_STANDIN_ESP_IDF_VERSION_H
const char *esp_get_idf_version(void);
#endif
