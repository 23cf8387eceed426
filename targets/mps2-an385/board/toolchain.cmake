# CMake toolchain file for bare-metal Cortex-M3 with Debian's
# gcc-arm-none-eabi and newlib-nano (the mps2-an385 board under QEMU).
#   cmake -S targets/mps2-an385/bare -B build-mcu -DCMAKE_TOOLCHAIN_FILE=targets/mps2-an385/board/toolchain.cmake
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR arm)
set(CMAKE_C_COMPILER arm-none-eabi-gcc)
set(CMAKE_ASM_COMPILER arm-none-eabi-gcc)
set(CMAKE_AR arm-none-eabi-ar)
set(CMAKE_OBJCOPY arm-none-eabi-objcopy)
set(CMAKE_SIZE arm-none-eabi-size)
# No executable can run on the host: test the compiler with a static library.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

# -fdata-sections also places the vector table (board_vectors) in the section
# the linker script puts first.
set(RTIPC_MCU_ARCH_FLAGS "-mcpu=cortex-m3 -mthumb -ffunction-sections -fdata-sections")
set(CMAKE_C_FLAGS_INIT "${RTIPC_MCU_ARCH_FLAGS}")
set(CMAKE_ASM_FLAGS_INIT "${RTIPC_MCU_ARCH_FLAGS}")
set(CMAKE_EXE_LINKER_FLAGS_INIT "-mcpu=cortex-m3 -mthumb -nostartfiles --specs=nano.specs -Wl,--gc-sections")

set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
