/* ESP-IDF's IPC ISR: an assembly callback run on the other CPU in its
 * high-priority interrupt. */
#ifndef RTIPC_STANDIN_ESP_IPC_ISR_H
#define RTIPC_STANDIN_ESP_IPC_ISR_H
typedef void (*esp_ipc_isr_func_t)(void *arg);
void esp_ipc_isr_asm_call(esp_ipc_isr_func_t func, void *arg);
#endif
