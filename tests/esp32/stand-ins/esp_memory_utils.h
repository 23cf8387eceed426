/* Stand-in: ESP-IDF's address-range checks (syntax checks only). */
#pragma once
#include <stdbool.h>

bool esp_ptr_external_ram(const void *p);
bool esp_ptr_internal(const void *p);
