# The FreeRTOS port's sources and control-block sizes, in one place for the
# two ways it is built: RTIPC_PORT=freertos (cmake/FreeRTOSPort.cmake) and
# the ESP-IDF component (cmake/esp_idf_component.cmake). Paths are relative
# to the repository root. Also read by `cmake -P` (tests/esp32), so nothing
# here needs a project.

set(RTIPC_FREERTOS_SOURCES
    src/common/error.c
    src/common/spsc.c
    src/common/mailbox.c
    src/common/create.c
    src/common/task_lookup.c
    src/common/handle.c
    src/port/freertos/core_hooks.c
    src/port/freertos/irq.c
    src/port/freertos/time.c
    src/port/freertos/tick.c
    src/port/freertos/task.c
    src/port/freertos/spin.c
    src/port/freertos/queue.c
    src/port/freertos/sem.c
    src/port/freertos/mutex.c
    src/port/freertos/notify.c
    src/port/freertos/eventgroup.c
    src/port/freertos/streambuf.c
    src/port/freertos/msgbuf.c
    src/port/freertos/queueset.c
    src/port/freertos/mailbox_wait.c
    src/port/freertos/spsc_wait.c
    src/port/freertos/wdt.c)
# Ring buffers: rtipc's portable layout on every kernel but ESP-IDF's,
# whose own ring buffer (esp_ringbuf) serves there.
set(RTIPC_FREERTOS_RINGBUF_PORTABLE
    src/common/ringbuf_core.c
    src/common/ringbuf.c
    src/port/freertos/ringbuf.c)
# What ESP-IDF adds: its ring buffer, and interrupts raised through its
# interrupt allocator. (Elsewhere cmake/FreeRTOSPort.cmake picks one
# irq_<backend>.c.)
set(RTIPC_FREERTOS_ESPIDF_SOURCES
    src/port/freertos/ringbuf_espidf.c
    src/port/freertos/irq_espidf.c
    src/port/freertos/irq_espidf_raise.S)

# rtipc_freertos_static_sizes(KIND): sets RTIPC_<OBJECT>_STATIC_SIZE and
# RTIPC_BYTEBUF_STORAGE_EXTRA in the caller's scope, in bytes, for the
# control blocks (rtipc_*_static_t) that embed the kernel's objects:
#   host64  a 64-bit kernel (the POSIX simulator)
#   mcu32   a 32-bit kernel without spinlocks (Cortex-M, RV32)
#   espidf  ESP-IDF's 32-bit SMP kernel, whose objects carry a spinlock
# The port's _Static_asserts check that each fits. A value the caller set
# already (a cache entry, a -D) is kept.
function(rtipc_freertos_static_sizes kind)
    if(kind STREQUAL "host64")
        set(_q 208)
        set(_eg 96)
        set(_rb 320)
        set(_bb 160)
    elseif(kind STREQUAL "mcu32")
        set(_q 128)
        set(_eg 64)
        set(_rb 192)
        set(_bb 96)
    elseif(kind STREQUAL "espidf")
        set(_q 160)
        set(_eg 96)
        set(_rb 256)
        set(_bb 96)
    else()
        message(FATAL_ERROR "rtipc_freertos_static_sizes: KIND is host64, mcu32 or espidf, not '${kind}'")
    endif()
    foreach(_v QUEUE:${_q} SEM:${_q} MUTEX:${_q} EVENTGROUP:${_eg} RINGBUF:${_rb} BYTEBUF:${_bb})
        string(REPLACE ":" ";" _kv "${_v}")
        list(GET _kv 0 _k)
        list(GET _kv 1 _d)
        if(NOT DEFINED RTIPC_${_k}_STATIC_SIZE)
            set(RTIPC_${_k}_STATIC_SIZE ${_d} PARENT_SCOPE)
        endif()
    endforeach()
    # The stream and message buffers' storage holds one byte more than their
    # capacity on FreeRTOS (the kernel's buffers keep one free).
    set(RTIPC_BYTEBUF_STORAGE_EXTRA 1 PARENT_SCOPE)
endfunction()

# With -DPRINT=sizes:KIND or -DPRINT=sources:espidf under `cmake -P`: the
# values, one "NAME VALUE" or one path per line (tests/esp32/syntax_check.sh).
if(CMAKE_SCRIPT_MODE_FILE STREQUAL CMAKE_CURRENT_LIST_FILE AND DEFINED PRINT)
    if(PRINT MATCHES "^sizes:(.*)$")
        rtipc_freertos_static_sizes(${CMAKE_MATCH_1})
        foreach(_k QUEUE SEM MUTEX EVENTGROUP RINGBUF BYTEBUF)
            message(NOTICE "RTIPC_${_k}_STATIC_SIZE ${RTIPC_${_k}_STATIC_SIZE}")
        endforeach()
        message(NOTICE "RTIPC_BYTEBUF_STORAGE_EXTRA ${RTIPC_BYTEBUF_STORAGE_EXTRA}")
    elseif(PRINT STREQUAL "sources:espidf")
        foreach(_f ${RTIPC_FREERTOS_SOURCES} ${RTIPC_FREERTOS_ESPIDF_SOURCES})
            message(NOTICE "${_f}")
        endforeach()
    endif()
endif()
