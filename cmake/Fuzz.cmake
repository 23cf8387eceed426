# RTIPC_FUZZ=ON: the libFuzzer harnesses of tests/fuzz (clang only). Every
# target of the tree, the library included, is compiled with coverage
# feedback for libFuzzer (-fsanitize=fuzzer-no-link) and ASan + UBSan (every
# UB check fatal); the harnesses link libFuzzer's main with -fsanitize=fuzzer.
if(RTIPC_FUZZ)
    if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
        message(FATAL_ERROR "RTIPC_FUZZ=ON needs clang (libFuzzer), not ${CMAKE_C_COMPILER_ID}: "
                            "configure with -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++")
    endif()
    if(NOT RTIPC_SANITIZE STREQUAL "")
        message(FATAL_ERROR "RTIPC_FUZZ=ON brings its own sanitizers: leave RTIPC_SANITIZE empty")
    endif()
    add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all
                        -fno-omit-frame-pointer -g)
    add_link_options(-fsanitize=address,undefined)
endif()
