# Prints, one per line, the sources the ESP32 app's component builds beside
# its main (RTIPC_BENCH_FREERTOS_FIRMWARE_SOURCES and RTIPC_BENCH_TARGET_ESPIDF of
# bench/sources.cmake).
#   cmake -DSRC=<rtipc> -P firmware_sources.cmake
include(${SRC}/bench/sources.cmake)
foreach(_f ${RTIPC_BENCH_FREERTOS_FIRMWARE_SOURCES} ${RTIPC_BENCH_TARGET_ESPIDF})
    message(NOTICE "${_f}")
endforeach()
