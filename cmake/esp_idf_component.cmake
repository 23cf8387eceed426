# rtipc as an ESP-IDF component: the portable core plus the FreeRTOS port,
# built against ESP-IDF's kernel. Included from a component's CMakeLists.txt
# (components/rtipc, or the repository root), so idf_component_register
# runs in that component's scope; every path is made absolute from the
# repository root, which this file knows from where it lives.
get_filename_component(_rtipc_root "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
include("${_rtipc_root}/cmake/FreeRTOSPortSources.cmake")
set(_rtipc_esp_srcs ${RTIPC_FREERTOS_SOURCES} ${RTIPC_FREERTOS_ESPIDF_SOURCES})
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
    # The application's notification slots are the kernel's indexes: 3 and
    # rtipc's own parking index with 4 entries or more (the recommended
    # sdkconfig), one slot per entry below that (ESP-IDF's and Arduino's
    # default of 1), rtipc then parking on a semaphore (kernel_compat.h).
    if(NOT DEFINED RTIPC_NOTIFY_SLOTS AND CONFIG_FREERTOS_TASK_NOTIFICATION_ARRAY_ENTRIES
       AND CONFIG_FREERTOS_TASK_NOTIFICATION_ARRAY_ENTRIES LESS 4)
        set(RTIPC_NOTIFY_SLOTS ${CONFIG_FREERTOS_TASK_NOTIFICATION_ARRAY_ENTRIES})
    endif()
    foreach(_v NOTIFY_SLOTS:3 PRIORITY_LEVELS:25 SPIN_NS_DEFAULT:20000)
        string(REPLACE ":" ";" _kv "${_v}")
        list(GET _kv 0 _k)
        list(GET _kv 1 _d)
        if(NOT DEFINED RTIPC_${_k})
            set(RTIPC_${_k} ${_d})
        endif()
    endforeach()
    rtipc_freertos_static_sizes(espidf)
    # menuconfig's "Direct mode" (components/rtipc/Kconfig).
    if(CONFIG_RTIPC_DIRECT)
        set(RTIPC_DIRECT 1)
    else()
        set(RTIPC_DIRECT 0)
    endif()
    configure_file("${_rtipc_root}/include/rtipc/config.h.in" "${_rtipc_esp_gen}/rtipc/config.h" @ONLY)
endif()
list(TRANSFORM _rtipc_esp_srcs PREPEND "${_rtipc_root}/")
idf_component_register(SRCS ${_rtipc_esp_srcs}
                       INCLUDE_DIRS "${_rtipc_root}/include" "${_rtipc_esp_gen}"
                       # The internal headers, named from src/ ("common/handle.h").
                       PRIV_INCLUDE_DIRS "${_rtipc_root}/src"
                       REQUIRES freertos esp_ringbuf
                       # GPTimer, the interrupt timers' hardware (irq_espidf.c)
                       PRIV_REQUIRES driver)
if(NOT CMAKE_BUILD_EARLY_EXPANSION)
    # Warnings on, never errors: a user's newer compiler or own flags must
    # not stop their app's build on a warning in rtipc. rtipc's own gate is
    # scripts/check-esp32.sh, which fails on any warning in its sources.
    target_compile_options(${COMPONENT_LIB} PRIVATE -Wall -Wextra)
endif()
