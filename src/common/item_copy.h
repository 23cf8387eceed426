/* Copying one item of an object's fixed size. Items are mostly small (a
 * word, a pointer, a pair of them), and a memcpy of a size known only at run
 * time is a library call; a copy of a constant size is a load and a store. */
#ifndef RTIPC_COMMON_ITEM_COPY_H
#define RTIPC_COMMON_ITEM_COPY_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* One item of a common small size, copied with a constant-size copy; false
 * (nothing copied) for other sizes. */
static inline bool rtipc__copy_small(void *dst, const void *src, uint32_t size)
{
    switch (size) {
    case 1: memcpy(dst, src, 1); return true;
    case 2: memcpy(dst, src, 2); return true;
    case 4: memcpy(dst, src, 4); return true;
    case 8: memcpy(dst, src, 8); return true;
    case 16: memcpy(dst, src, 16); return true;
    default: return false;
    }
}

/* One item of any size. */
static inline void rtipc__copy_item(void *dst, const void *src, uint32_t size)
{
    if (!rtipc__copy_small(dst, src, size))
        memcpy(dst, src, size);
}

#endif
