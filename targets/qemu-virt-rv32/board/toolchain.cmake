# CMake toolchain file for QEMU's `virt` RISC-V machine as an RV32IMAC
# microcontroller: Debian's gcc-riscv64-unknown-elf (its rv32imac/ilp32
# multilib) and picolibc-riscv64-unknown-elf.
#   cmake -S targets/qemu-virt-rv32/bare -B build-rv32 -DCMAKE_TOOLCHAIN_FILE=targets/qemu-virt-rv32/board/toolchain.cmake
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR riscv32)
set(CMAKE_C_COMPILER riscv64-unknown-elf-gcc)
set(CMAKE_ASM_COMPILER riscv64-unknown-elf-gcc)
set(CMAKE_AR riscv64-unknown-elf-ar)
set(CMAKE_OBJCOPY riscv64-unknown-elf-objcopy)
set(CMAKE_SIZE riscv64-unknown-elf-size)
# No executable can run on the host: test the compiler with a static library.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

# ISA spec 2.2, in which rv32imac includes the CSR and fence.i instructions:
# spelling them out (rv32imac_zicsr_zifencei) would miss Debian's rv32imac
# multilib and link the rv64 libraries. medany so
# that code at 0x80000000 is reachable with auipc. picolibc's specs give
# its headers and libraries; the board brings its own start-up and script.
set(RTIPC_RV32_ARCH_FLAGS "-march=rv32imac -misa-spec=2.2 -mabi=ilp32 -mcmodel=medany --specs=picolibc.specs")
set(CMAKE_C_FLAGS_INIT "${RTIPC_RV32_ARCH_FLAGS} -ffunction-sections -fdata-sections")
set(CMAKE_ASM_FLAGS_INIT "${RTIPC_RV32_ARCH_FLAGS}")
# The link line repeats the compile flags (the specs included), so only the
# linker's own options go here.
set(CMAKE_EXE_LINKER_FLAGS_INIT "-nostartfiles -Wl,--gc-sections")

set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
