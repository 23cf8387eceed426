/**
 * @file port_freertos.h
 * @brief FreeRTOS port only: marking interrupt context for rtipc.
 *
 * FreeRTOS has no portable "am I in an interrupt?" call. rtipc treats the
 * caller as a handler when the application's rtipcCONFIG_IN_INTERRUPT() hook
 * (FreeRTOSConfig.h) says so, or between these two calls. A handler that
 * calls rtipc brackets its body with them when the port has no such hook.
 * Not available in the Linux build. See docs/porting.md.
 */
#ifndef RTIPC_PORT_FREERTOS_H
#define RTIPC_PORT_FREERTOS_H

#ifdef __cplusplus
extern "C" {
#endif

/** Enter interrupt context (nests). Context: interrupt. Never blocks. */
void rtipc_freertos_isr_enter(void);

/** Leave interrupt context. Context: interrupt. Never blocks. */
void rtipc_freertos_isr_exit(void);

#ifdef __cplusplus
}
#endif
#endif
