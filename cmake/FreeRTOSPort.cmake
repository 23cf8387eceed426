# rtipc for FreeRTOS (RTIPC_PORT=freertos): the portable core in src/common
# plus the port in src/port/freertos, built against the application's kernel.
#
# The application supplies the kernel exactly as FreeRTOS-Kernel's own CMake
# builds it: a `freertos_config` INTERFACE target giving FreeRTOSConfig.h, then
# add_subdirectory(<kernel>) which defines `freertos_kernel`; then
# add_subdirectory(<rtipc>). Tests and measurement programs need Linux and are
# not built. docs/porting.md walks through it.

if(NOT TARGET freertos_kernel)
    message(FATAL_ERROR
        "RTIPC_PORT=freertos: the target 'freertos_kernel' does not exist.\n"
        "Add the FreeRTOS kernel before rtipc, as FreeRTOS-Kernel's CMake expects:\n"
        "  add_library(freertos_config INTERFACE)  # with FreeRTOSConfig.h's directory\n"
        "  set(FREERTOS_PORT <your port> CACHE STRING \"\")\n"
        "  add_subdirectory(<FreeRTOS-Kernel> freertos_kernel)\n"
        "  add_subdirectory(<rtipc> rtipc)\n"
        "See docs/porting.md.")
endif()

include(${CMAKE_CURRENT_LIST_DIR}/FreeRTOSPortSources.cmake)
list(APPEND RTIPC_FREERTOS_SOURCES ${RTIPC_FREERTOS_RINGBUF_PORTABLE})

# How rtipc raises its interrupt (src/port/freertos/irq_port.h): a signal on
# the kernel's POSIX simulator; a spare NVIC line on Cortex-M (the kernel's
# GCC ARM_CM0/CM3/CM4F/CM7 ports; rtipcCONFIG_CORTEX_M_IRQ names the line);
# hart 0's ACLINT supervisor software interrupt with the community RV32 SMP
# port on QEMU's virt machine (rv32_virt, chosen by that target); none
# elsewhere (rtipc_irq_create then reports RTIPC_ENOTSUP).
if(FREERTOS_PORT STREQUAL "GCC_POSIX")
    set(_rtipc_irq_backend posix_sim)
elseif(FREERTOS_PORT MATCHES "^GCC_ARM_CM(0|3|4F|7)$")
    set(_rtipc_irq_backend cortex_m)
else()
    set(_rtipc_irq_backend none)
endif()
set(RTIPC_FREERTOS_IRQ_BACKEND ${_rtipc_irq_backend} CACHE STRING
    "Interrupt backend of the FreeRTOS port: posix_sim (GCC_POSIX simulator), cortex_m (NVIC), rv32_virt (ACLINT SSWI) or none")
set_property(CACHE RTIPC_FREERTOS_IRQ_BACKEND PROPERTY STRINGS posix_sim cortex_m rv32_virt none)
if(NOT RTIPC_FREERTOS_IRQ_BACKEND MATCHES "^(posix_sim|cortex_m|rv32_virt|none)$")
    message(FATAL_ERROR "RTIPC_FREERTOS_IRQ_BACKEND must be 'posix_sim', 'cortex_m', 'rv32_virt' or 'none'")
endif()
list(APPEND RTIPC_FREERTOS_SOURCES src/port/freertos/irq_${RTIPC_FREERTOS_IRQ_BACKEND}.c)

add_library(rtipc_static STATIC ${RTIPC_FREERTOS_SOURCES})
add_library(rtipc::rtipc ALIAS rtipc_static)
set_target_properties(rtipc_static PROPERTIES OUTPUT_NAME rtipc EXPORT_NAME rtipc)
target_include_directories(rtipc_static
    PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/include ${CMAKE_CURRENT_BINARY_DIR}/include
    # The internal headers, named from src/ ("common/handle.h").
    PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src)
target_compile_options(rtipc_static PRIVATE ${RTIPC_WARNINGS})
if(RTIPC_FREERTOS_IRQ_BACKEND STREQUAL "cortex_m")
    # Interrupt context is the processor's: IPSR, through the kernel's port.
    target_compile_definitions(rtipc_static PRIVATE RTIPC__CORTEX_M=1)
endif()
# The kernel (and through it freertos_config) is public: an application that
# links rtipc links the kernel it was built for.
target_link_libraries(rtipc_static PUBLIC freertos_kernel)
message(STATUS "rtipc: FreeRTOS port, interrupt backend ${RTIPC_FREERTOS_IRQ_BACKEND} (tests and bench are not built in this mode)")
