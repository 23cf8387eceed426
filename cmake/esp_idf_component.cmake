# rtipc as an ESP-IDF component: the portable core plus the FreeRTOS port,
# built against ESP-IDF's kernel. Included from a component's CMakeLists.txt
# (components/rtipc, or the repository root), so idf_component_register
# runs in that component's scope; every path is made absolute from the
# repository root, which this file knows from where it lives.
get_filename_component(_rtipc_root "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
# Ring buffers are ESP-IDF's own here (esp_ringbuf, ringbuf_espidf.c),
# instead of the portable layout the other FreeRTOS kernels use.
set(_rtipc_esp_srcs
    src/common/error.c src/common/spsc.c src/common/mailbox.c src/common/create.c src/common/task_lookup.c
    src/common/handle.c src/port/freertos/core_hooks.c src/port/freertos/irq.c src/port/freertos/time.c src/port/freertos/tick.c
    src/port/freertos/task.c src/port/freertos/spin.c src/port/freertos/queue.c
    src/port/freertos/sem.c src/port/freertos/mutex.c src/port/freertos/notify.c
    src/port/freertos/eventgroup.c src/port/freertos/streambuf.c src/port/freertos/msgbuf.c
    src/port/freertos/queueset.c src/port/freertos/mailbox_wait.c src/port/freertos/spsc_wait.c
    src/port/freertos/ringbuf_espidf.c src/port/freertos/wdt.c
    src/port/freertos/irq_espidf.c src/port/freertos/irq_espidf_raise.S)
set(_rtipc_esp_gen "${CMAKE_CURRENT_BINARY_DIR}/rtipc_config")
if(NOT CMAKE_BUILD_EARLY_EXPANSION)
    # rtipc/config.h as the FreeRTOS port path generates it, with ESP-IDF's
    # values: configMAX_PRIORITIES is 25 there; the control blocks are
    # sized for a 32-bit target whose kernel objects carry a spinlock
    # (the port's _Static_asserts check that they fit).
    file(STRINGS "${_rtipc_root}/CMakeLists.txt" _rtipc_proj REGEX "^project\\(rtipc VERSION [0-9.]+")
    string(REGEX REPLACE ".*VERSION ([0-9.]+).*" "\\1" PROJECT_VERSION "${_rtipc_proj}")
    set(RTIPC_PORT freertos)
    set(RTIPC_PORT_IS_FREERTOS 1)
    foreach(_v NOTIFY_SLOTS:3 PRIORITY_LEVELS:25 SPIN_NS_DEFAULT:20000 QUEUE_STATIC_SIZE:160
               SEM_STATIC_SIZE:160 MUTEX_STATIC_SIZE:160 EVENTGROUP_STATIC_SIZE:96 RINGBUF_STATIC_SIZE:256
               BYTEBUF_STATIC_SIZE:96 BYTEBUF_STORAGE_EXTRA:1)
        string(REPLACE ":" ";" _kv "${_v}")
        list(GET _kv 0 _k)
        list(GET _kv 1 _d)
        if(NOT DEFINED RTIPC_${_k})
            set(RTIPC_${_k} ${_d})
        endif()
    endforeach()
    configure_file("${_rtipc_root}/include/rtipc/config.h.in" "${_rtipc_esp_gen}/rtipc/config.h" @ONLY)
endif()
list(TRANSFORM _rtipc_esp_srcs PREPEND "${_rtipc_root}/")
idf_component_register(SRCS ${_rtipc_esp_srcs}
                       INCLUDE_DIRS "${_rtipc_root}/include" "${_rtipc_esp_gen}"
                       REQUIRES freertos esp_ringbuf
                       # GPTimer, the interrupt timers' hardware (irq_espidf.c)
                       PRIV_REQUIRES driver)
if(NOT CMAKE_BUILD_EARLY_EXPANSION)
    # Warnings on, never errors: a user's newer compiler or own flags must
    # not stop their app's build on a warning in rtipc. rtipc's own gate is
    # scripts/check-esp32.sh, which fails on any warning in its sources.
    target_compile_options(${COMPONENT_LIB} PRIVATE -Wall -Wextra)
endif()
