# rtipc-bench's sources, grouped by what they need, for bench/CMakeLists.txt
# (Linux) and for builds on other ports (targets/freertos-posix builds the
# one-core suite on FreeRTOS's POSIX simulator).
#
#   RTIPC_BENCH_CORE_SOURCES        what every target runs, bare metal included:
#                                   the command line (list, help, run), the
#                                   harness's statistics, claim and target
#                                   audits, the results writer, the trace
#                                   recorder, the registry and the experiments
#                                   that need no kernel (C11 + stdio, no files,
#                                   no cJSON, nothing of rtipc that blocks)
#   RTIPC_BENCH_TASK_SOURCES        what a target with tasks adds: the handoff
#                                   and throughput drivers, the mechanism table
#                                   and rtipc's mechanisms
#   RTIPC_BENCH_RUN_SOURCES         CORE + TASK
#   RTIPC_BENCH_FILE_SOURCES        what a target with files adds (cli_files.c):
#                                   compare, report, audit, the reader of results
#                                   files, atomic output files, CSV, VCD, Perfetto
#                                   (POSIX files + cJSON)
#   RTIPC_BENCH_CONSOLE_SOURCES     instead, on a target without files
#                                   (cli_console.c): JSON on the console
#   RTIPC_BENCH_COMMON_SOURCES      RUN + FILE, for hosted targets
#   RTIPC_BENCH_FREERTOS_FIRMWARE_SOURCES  all a FreeRTOS firmware without files
#                                   builds beside its main
#   RTIPC_BENCH_BARE_FIRMWARE_SOURCES  all a bare-metal firmware builds beside
#                                   its main: CORE, the console, the bare seam
#                                   and the registry entries of what it lacks
#   RTIPC_BENCH_ONE_CORE_EXPERIMENTS experiments on the public rtipc API alone,
#                                   built for every target with tasks (those that
#                                   need two cores say so and are missing on one)
#   RTIPC_BENCH_HOST_MECHANISMS     the mechanisms built for Linux only (its
#                                   kernel primitives, the mutex-guarded queues
#                                   in C and C++, the lock-free libraries) and
#                                   the watchdog thread that releases them;
#                                   rtipc_bench_host_libraries(TARGET) links
#                                   what they need beyond headers
#   RTIPC_BENCH_HOST_EXPERIMENTS    the experiment built for Linux only (peers:
#                                   Linux's own primitives, pipes, eventfd,
#                                   POSIX mq, C++ libraries); the host
#                                   mechanisms included
#   RTIPC_BENCH_HOST_EXPERIMENTS_ABSENT  their registry entries and the host
#                                   mechanisms' table entries, with the reason,
#                                   for a target that does not build them
#                                   (instead of the list above)
#   RTIPC_BENCH_TARGET_LINUX        the target seam (target/target.h) on Linux
#   RTIPC_BENCH_TARGET_FREERTOS_SIM the seam on FreeRTOS's POSIX simulator
#   RTIPC_BENCH_TARGET_FREERTOS     the seam on FreeRTOS without a host OS
#   RTIPC_BENCH_TARGET_ESPIDF       what ESP-IDF adds to it (its clocks)
#   RTIPC_BENCH_TARGET_BARE         the seam without a kernel
#
# A hosted program takes the common sources, a firmware the run (bare metal:
# core) and console sources; then one RTIPC_BENCH_TARGET_* list and its
# experiments.
#
# rtipc_bench_version_header(TARGET [PATHS pathspec...]) gives TARGET the
# generated bench_version.h (version, commit, compiler and flags of the
# build); PATHS narrows the commit to the files TARGET is built from.
set(_rtipc_bench_dir ${CMAKE_CURRENT_LIST_DIR})

set(RTIPC_BENCH_CORE_SOURCES
    ${_rtipc_bench_dir}/cli.c
    ${_rtipc_bench_dir}/harness/stats.c
    ${_rtipc_bench_dir}/harness/record.c
    ${_rtipc_bench_dir}/harness/run_options.c
    ${_rtipc_bench_dir}/harness/timing.c
    ${_rtipc_bench_dir}/harness/env.c
    ${_rtipc_bench_dir}/harness/failure.c
    ${_rtipc_bench_dir}/results/run_output.c
    ${_rtipc_bench_dir}/harness/claims.c
    ${_rtipc_bench_dir}/harness/perf_targets.c
    ${_rtipc_bench_dir}/harness/args.c
    ${_rtipc_bench_dir}/results/json_writer.c
    ${_rtipc_bench_dir}/results/document.c
    ${_rtipc_bench_dir}/results/row_clock.c
    ${_rtipc_bench_dir}/results/strpool.c
    ${_rtipc_bench_dir}/results/published.c
    ${_rtipc_bench_dir}/trace/trace.c
    ${_rtipc_bench_dir}/experiments/registry.c
    ${_rtipc_bench_dir}/experiments/lockfree_cost.c)

set(RTIPC_BENCH_TASK_SOURCES
    ${_rtipc_bench_dir}/harness/handoff.c
    ${_rtipc_bench_dir}/harness/handoff_rounds.c
    ${_rtipc_bench_dir}/harness/throughput.c
    ${_rtipc_bench_dir}/trace/trace_overhead.c
    ${_rtipc_bench_dir}/mechanisms/mechanisms.c
    ${_rtipc_bench_dir}/mechanisms/rtipc.c)

set(RTIPC_BENCH_RUN_SOURCES ${RTIPC_BENCH_CORE_SOURCES} ${RTIPC_BENCH_TASK_SOURCES})

set(RTIPC_BENCH_FILE_SOURCES
    ${_rtipc_bench_dir}/cli_files.c
    ${_rtipc_bench_dir}/harness/util.c
    ${_rtipc_bench_dir}/results/read.c
    ${_rtipc_bench_dir}/results/bootstrap.c
    ${_rtipc_bench_dir}/results/outfile.c
    ${_rtipc_bench_dir}/results/run_files.c
    ${_rtipc_bench_dir}/host/compare/compare.c
    ${_rtipc_bench_dir}/host/audit/audit.c
    ${_rtipc_bench_dir}/host/capture/capture.c
    ${_rtipc_bench_dir}/host/scope/scope.c
    ${_rtipc_bench_dir}/host/scope/lines.c
    ${_rtipc_bench_dir}/host/scope/pairing.c
    ${_rtipc_bench_dir}/host/scope/read.c
    ${_rtipc_bench_dir}/host/scope/read_vcd.c
    ${_rtipc_bench_dir}/host/scope/read_saleae.c
    ${_rtipc_bench_dir}/host/scope/read_csv.c
    ${_rtipc_bench_dir}/host/scope/read_sigrok.c
    ${_rtipc_bench_dir}/host/report/html.c
    ${_rtipc_bench_dir}/host/report/plot.c
    ${_rtipc_bench_dir}/host/trace_export/trace_vcd.c
    ${_rtipc_bench_dir}/host/trace_export/trace_perfetto.c)

set(RTIPC_BENCH_CONSOLE_SOURCES ${_rtipc_bench_dir}/cli_console.c)

set(RTIPC_BENCH_COMMON_SOURCES ${RTIPC_BENCH_RUN_SOURCES} ${RTIPC_BENCH_FILE_SOURCES})

set(RTIPC_BENCH_ONE_CORE_EXPERIMENTS
    ${_rtipc_bench_dir}/experiments/queue_latency.c
    ${_rtipc_bench_dir}/experiments/queue_placement.c
    ${_rtipc_bench_dir}/experiments/isr_handoff.c
    ${_rtipc_bench_dir}/experiments/byte_stream.c
    ${_rtipc_bench_dir}/experiments/blocked_producer.c
    ${_rtipc_bench_dir}/experiments/state_vs_event.c
    ${_rtipc_bench_dir}/experiments/batching.c
    ${_rtipc_bench_dir}/experiments/queue_set.c
    ${_rtipc_bench_dir}/experiments/footprint.c
    ${_rtipc_bench_dir}/experiments/notify_vs_sem.c
    ${_rtipc_bench_dir}/experiments/notify_modes.c
    ${_rtipc_bench_dir}/experiments/core_placement.c
    ${_rtipc_bench_dir}/experiments/round_trip.c
    ${_rtipc_bench_dir}/experiments/mechanism_compare.c
    ${_rtipc_bench_dir}/experiments/interference.c)

# The FreeRTOS kernel's own calls, measured beside rtipc's (round-trip):
# on a FreeRTOS target the mechanisms, elsewhere the reason they are missing.
set(RTIPC_BENCH_KERNEL_MECHANISMS ${_rtipc_bench_dir}/mechanisms/freertos_kernel.c
    ${_rtipc_bench_dir}/mechanisms/freertos_calls.c
    ${_rtipc_bench_dir}/mechanisms/freertos_bytes.c
    ${_rtipc_bench_dir}/mechanisms/freertos_isr_notify.c)
set(RTIPC_BENCH_KERNEL_MECHANISMS_ABSENT ${_rtipc_bench_dir}/mechanisms/freertos_kernel_absent.c
    ${_rtipc_bench_dir}/mechanisms/freertos_calls_absent.c
    ${_rtipc_bench_dir}/mechanisms/freertos_bytes_absent.c
    ${_rtipc_bench_dir}/mechanisms/freertos_isr_notify_absent.c)

set(RTIPC_BENCH_HOST_MECHANISMS
    ${_rtipc_bench_dir}/mechanisms/posix.c
    ${_rtipc_bench_dir}/mechanisms/locked_queues.c
    ${_rtipc_bench_dir}/mechanisms/locked_queues_cxx.cpp
    ${_rtipc_bench_dir}/mechanisms/std_queue.c
    ${_rtipc_bench_dir}/mechanisms/lockfree.c
    ${_rtipc_bench_dir}/mechanisms/lockfree_cxx.cpp
    ${_rtipc_bench_dir}/mechanisms/queue_peers.c
    ${_rtipc_bench_dir}/mechanisms/queue_peers_cxx.cpp
    ${_rtipc_bench_dir}/harness/watchdog.c)

set(RTIPC_BENCH_HOST_EXPERIMENTS
    ${_rtipc_bench_dir}/experiments/peers.c
    ${RTIPC_BENCH_HOST_MECHANISMS})

# The published std::queue + std::mutex + std::condition_variable, which the
# ESP32 app builds too (ESP-IDF's C++ runs them on its pthreads).
set(RTIPC_BENCH_ESPIDF_MECHANISMS ${_rtipc_bench_dir}/mechanisms/std_queue.c
    ${_rtipc_bench_dir}/mechanisms/locked_queues_cxx.cpp)

set(RTIPC_BENCH_HOST_EXPERIMENTS_ABSENT
    ${_rtipc_bench_dir}/experiments/linux_only.c
    ${_rtipc_bench_dir}/mechanisms/absent.c)

# The parts of the seam every target shares, then one per platform.
set(_rtipc_bench_target_shared
    ${_rtipc_bench_dir}/target/target.c
    ${_rtipc_bench_dir}/target/clock.c
    ${_rtipc_bench_dir}/target/console_sink.c)
set(RTIPC_BENCH_TARGET_LINUX ${_rtipc_bench_target_shared}
    ${_rtipc_bench_dir}/target/rtipc_targets.c
    ${_rtipc_bench_dir}/target/host.c
    ${_rtipc_bench_dir}/target/linux.c)
set(RTIPC_BENCH_TARGET_FREERTOS_SIM ${_rtipc_bench_target_shared}
    ${_rtipc_bench_dir}/target/rtipc_targets.c
    ${_rtipc_bench_dir}/target/host.c
    ${_rtipc_bench_dir}/target/freertos.c
    ${_rtipc_bench_dir}/target/freertos_tasks.c)
set(RTIPC_BENCH_TARGET_FREERTOS ${_rtipc_bench_target_shared}
    ${_rtipc_bench_dir}/target/rtipc_targets.c
    ${_rtipc_bench_dir}/target/freertos.c
    ${_rtipc_bench_dir}/target/freertos_tasks.c)
# What an ESP-IDF app adds to the FreeRTOS seam: its clocks.
set(RTIPC_BENCH_TARGET_ESPIDF ${_rtipc_bench_dir}/target/espidf_clock.c)
set(RTIPC_BENCH_TARGET_BARE ${_rtipc_bench_target_shared}
    ${_rtipc_bench_dir}/target/bare.c)

# Everything a FreeRTOS firmware without files builds beside its main (the
# Cortex-M3 firmware, the ESP32 app; tests/esp32 compiles the same list).
set(RTIPC_BENCH_FREERTOS_FIRMWARE_SOURCES ${RTIPC_BENCH_RUN_SOURCES} ${RTIPC_BENCH_CONSOLE_SOURCES}
    ${RTIPC_BENCH_TARGET_FREERTOS} ${RTIPC_BENCH_ONE_CORE_EXPERIMENTS} ${RTIPC_BENCH_KERNEL_MECHANISMS}
    ${RTIPC_BENCH_HOST_EXPERIMENTS_ABSENT})

# Everything a bare-metal firmware (no kernel, no files) builds beside its
# main: the experiments that need tasks and the Linux-only ones are registry
# entries that say why.
set(RTIPC_BENCH_BARE_FIRMWARE_SOURCES ${RTIPC_BENCH_CORE_SOURCES} ${RTIPC_BENCH_CONSOLE_SOURCES}
    ${RTIPC_BENCH_TARGET_BARE} ${_rtipc_bench_dir}/experiments/needs_tasks.c
    ${_rtipc_bench_dir}/experiments/linux_only.c)

# The optional peer libraries of the host mechanisms: userspace RCU's
# cds_wfcq (mechanisms/queue_peers.c) calls into liburcu-common, the others
# are headers found by the sources themselves; without one the mechanism is
# absent, saying so. RTIPC_BENCH_PEERS=OFF leaves them all out, installed
# or not.
function(rtipc_bench_host_libraries target)
    if(DEFINED RTIPC_BENCH_PEERS AND NOT RTIPC_BENCH_PEERS)
        target_compile_definitions(${target} PRIVATE BENCH_NO_PEERS=1)
        return()
    endif()
    find_library(RTIPC_BENCH_URCU_COMMON urcu-common)
    if(RTIPC_BENCH_URCU_COMMON)
        target_link_libraries(${target} PRIVATE ${RTIPC_BENCH_URCU_COMMON})
        target_compile_definitions(${target} PRIVATE BENCH_HAVE_URCU=1)
    endif()
endfunction()

# libsigrok, which `rtipc-bench scope` reads sigrok session files (.sr)
# with: found through pkg-config, RTIPC_BENCH_SIGROK set when it is. Without
# it scope reads every other format and says why it refuses a .sr file.
# Sets RTIPC_BENCH_SIGROK_FOUND in the caller's scope.
function(rtipc_bench_capture_readers target)
    find_package(PkgConfig QUIET)
    if(PkgConfig_FOUND)
        pkg_check_modules(RTIPC_SIGROK QUIET IMPORTED_TARGET libsigrok)
    endif()
    if(RTIPC_SIGROK_FOUND)
        target_link_libraries(${target} PRIVATE PkgConfig::RTIPC_SIGROK)
        target_compile_definitions(${target} PRIVATE RTIPC_BENCH_SIGROK=1)
    endif()
    set(RTIPC_BENCH_SIGROK_FOUND ${RTIPC_SIGROK_FOUND} PARENT_SCOPE)
endfunction()

function(rtipc_bench_version_header target)
    cmake_parse_arguments(_v "" "" "PATHS" ${ARGN})
    string(REPLACE ";" "|" _v_paths "${_v_PATHS}")
    string(TOUPPER "${CMAKE_BUILD_TYPE}" _bt)
    # The flags, single-spaced, and the build type where there is one (an
    # ESP-IDF build has none: no "()").
    set(_flags "${CMAKE_C_FLAGS} ${CMAKE_C_FLAGS_${_bt}}")
    if(CMAKE_BUILD_TYPE)
        string(APPEND _flags " (${CMAKE_BUILD_TYPE})")
    endif()
    string(REGEX REPLACE "[ ]+" " " _flags "${_flags}")
    string(STRIP "${_flags}" _flags)
    set(_out ${CMAKE_CURRENT_BINARY_DIR}/${target}-generated/bench_version.h)
    get_filename_component(_root ${_rtipc_bench_dir}/.. ABSOLUTE)
    file(STRINGS ${_root}/CMakeLists.txt _proj REGEX "^project\\(rtipc VERSION")
    string(REGEX REPLACE ".*VERSION ([0-9.]+).*" "\\1" _version "${_proj}")
    add_custom_target(${target}-version
        COMMAND ${CMAKE_COMMAND} -DSRC=${_root} -DOUT=${_out}
                -DVERSION=${_version} "-DPATHS=${_v_paths}"
                "-DCOMPILER=${CMAKE_C_COMPILER_ID} ${CMAKE_C_COMPILER_VERSION}"
                "-DCFLAGS=${_flags}"
                -P ${_root}/cmake/BenchVersion.cmake
        BYPRODUCTS ${_out}
        COMMENT "rtipc-bench: recording the source commit" VERBATIM)
    add_dependencies(${target} ${target}-version)
    target_include_directories(${target} PRIVATE ${CMAKE_CURRENT_BINARY_DIR}/${target}-generated)
endfunction()
