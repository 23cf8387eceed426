# librtipc without a kernel, for the bare-metal targets (targets/mps2-an385/bare,
# targets/qemu-virt-rv32/bare): rtipc/config.h with the kernel-related values
# inert (only the non-blocking calls exist), and the static library
# rtipc_bare of the sources that need no kernel plus the no-kernel seam.
# scripts/mcu-size.sh sizes the same sources. Needs RTIPC_ROOT and
# RTIPC_WARNINGS.
#   include(${RTIPC_ROOT}/targets/common/rtipc_bare.cmake)
set(RTIPC_NOTIFY_SLOTS 3)
set(RTIPC_PRIORITY_LEVELS 32)
set(RTIPC_SPIN_NS_DEFAULT 0)
set(RTIPC_PORT bare)
set(RTIPC_PORT_IS_FREERTOS 0)
set(RTIPC_DIRECT 0)
foreach(_k QUEUE SEM MUTEX EVENTGROUP RINGBUF BYTEBUF)
    set(RTIPC_${_k}_STATIC_SIZE 0)
endforeach()
set(RTIPC_BYTEBUF_STORAGE_EXTRA 0)
configure_file(${RTIPC_ROOT}/include/rtipc/config.h.in ${CMAKE_CURRENT_BINARY_DIR}/include/rtipc/config.h @ONLY)

set(RTIPC_BARE_SOURCES
    ${RTIPC_ROOT}/src/common/error.c
    ${RTIPC_ROOT}/src/common/ringbuf_core.c
    ${RTIPC_ROOT}/src/common/spsc.c
    ${RTIPC_ROOT}/src/common/mailbox.c
    ${RTIPC_ROOT}/src/common/create.c
    ${RTIPC_ROOT}/src/common/handle.c
    ${RTIPC_ROOT}/src/port/bare/core_hooks.c
    ${RTIPC_ROOT}/src/port/bare/wake_none.c
    ${RTIPC_ROOT}/src/port/bare/lifecycle.c)
add_library(rtipc_bare STATIC ${RTIPC_BARE_SOURCES})
target_include_directories(rtipc_bare PUBLIC ${RTIPC_ROOT}/include ${CMAKE_CURRENT_BINARY_DIR}/include
                           PRIVATE ${RTIPC_ROOT}/src)
target_compile_options(rtipc_bare PRIVATE ${RTIPC_WARNINGS})
