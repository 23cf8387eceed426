# The qemu-virt-rv32 board support as a static library, for any CMake project
# built with targets/qemu-virt-rv32/board/toolchain.cmake:
#   include(<rtipc>/targets/qemu-virt-rv32/board/board.cmake)
#   target_link_libraries(app PRIVATE -Wl,--whole-archive board_qemu_virt_rv32 -Wl,--no-whole-archive)
# Linked whole: the start-up and the trap table are reached only through the
# entry point and mtvec.
set(RTIPC_RV32_BOARD_DIR ${CMAKE_CURRENT_LIST_DIR})
add_library(board_qemu_virt_rv32 STATIC ${RTIPC_RV32_BOARD_DIR}/start.S ${RTIPC_RV32_BOARD_DIR}/board.c
            ${RTIPC_RV32_BOARD_DIR}/arch.c ${RTIPC_RV32_BOARD_DIR}/atomic.c
            ${RTIPC_RV32_BOARD_DIR}/../../common/board_print.c ${RTIPC_RV32_BOARD_DIR}/../../common/board_args.c)
target_include_directories(board_qemu_virt_rv32 PUBLIC ${RTIPC_RV32_BOARD_DIR} ${RTIPC_RV32_BOARD_DIR}/../../common)
target_compile_options(board_qemu_virt_rv32 PRIVATE
    $<$<COMPILE_LANGUAGE:C>:-Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes>)
target_link_options(board_qemu_virt_rv32 INTERFACE -T${RTIPC_RV32_BOARD_DIR}/qemu-virt-rv32.ld)
