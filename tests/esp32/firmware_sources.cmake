# Prints, one per line, the sources the ESP32 app's component builds beside
# its main (RTIPC_BENCH_FREERTOS_FIRMWARE_SOURCES and RTIPC_BENCH_TARGET_ESPIDF of
# bench/sources.cmake).
#   cmake -DSRC=<rtipc> -P firmware_sources.cmake
include(${SRC}/bench/sources.cmake)
# (The C ones of RTIPC_BENCH_ESPIDF_MECHANISMS: the check compiles C.)
set(_espidf_c ${RTIPC_BENCH_ESPIDF_MECHANISMS})
list(FILTER _espidf_c INCLUDE REGEX "\\.c$")
foreach(_f ${RTIPC_BENCH_FREERTOS_FIRMWARE_SOURCES} ${RTIPC_BENCH_TARGET_ESPIDF} ${_espidf_c})
    message(NOTICE "${_f}")
endforeach()
