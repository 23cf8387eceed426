/* The Xtensa HAL's interrupt-request registers of the calling CPU. */
#ifndef RTIPC_STANDIN_XTENSA_HAL_H
#define RTIPC_STANDIN_XTENSA_HAL_H
void xthal_set_intset(unsigned mask);
void xthal_set_intclear(unsigned mask);
#endif
