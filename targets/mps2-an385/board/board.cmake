# The mps2-an385 board support as a static library, for any CMake project
# built with targets/mps2-an385/board/toolchain.cmake (targets/mps2-an385/bare, targets/mps2-an385/freertos):
#   include(<rtipc>/targets/mps2-an385/board/board.cmake)
#   target_link_libraries(app PRIVATE -Wl,--whole-archive board_mps2_an385 -Wl,--no-whole-archive)
# Linked whole: its handlers are reached only through the vector table.
set(RTIPC_BOARD_DIR ${CMAKE_CURRENT_LIST_DIR})
add_library(board_mps2_an385 STATIC ${RTIPC_BOARD_DIR}/startup.c ${RTIPC_BOARD_DIR}/board.c
            ${RTIPC_BOARD_DIR}/board_asm.S ${RTIPC_BOARD_DIR}/atomic64.c
            ${RTIPC_BOARD_DIR}/../../common/board_print.c ${RTIPC_BOARD_DIR}/../../common/board_args.c)
target_include_directories(board_mps2_an385 PUBLIC ${RTIPC_BOARD_DIR} ${RTIPC_BOARD_DIR}/../../common)
target_compile_options(board_mps2_an385 PRIVATE
    $<$<COMPILE_LANGUAGE:C>:-Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes>)
target_link_options(board_mps2_an385 INTERFACE -T${RTIPC_BOARD_DIR}/mps2-an385.ld)
