# Reproducible identification of a firmware build, for the JSON it prints:
# the commit and its date, not the build time, so that two runs of one
# build print identical output. Sets, in the caller's scope:
#   RTIPC_BUILD_GIT      `git describe --always --dirty` of ROOT ("unknown" outside git)
#   RTIPC_BUILD_DATE     the commit's date, ISO 8601 UTC ("unknown" outside git)
#   RTIPC_BUILD_CFLAGS   CMAKE_C_FLAGS plus the build type's flags
#   RTIPC_BUILD_VERSION  the version in ROOT's CMakeLists.txt
#   rtipc_build_info(<rtipc root>)
function(rtipc_build_info root)
    execute_process(COMMAND git -C ${root} describe --always --dirty OUTPUT_VARIABLE _git
                    OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    execute_process(COMMAND ${CMAKE_COMMAND} -E env TZ=UTC
                            git -C ${root} log -1 --format=%cd --date=format-local:%Y-%m-%dT%H:%M:%SZ
                    OUTPUT_VARIABLE _date OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(NOT _git)
        set(_git unknown)
    endif()
    if(NOT _date)
        set(_date unknown)
    endif()
    string(TOUPPER "${CMAKE_BUILD_TYPE}" _bt)
    string(STRIP "${CMAKE_C_FLAGS} ${CMAKE_C_FLAGS_${_bt}}" _cflags)
    file(STRINGS "${root}/CMakeLists.txt" _proj REGEX "^project\\(rtipc VERSION [0-9.]+")
    string(REGEX REPLACE ".*VERSION ([0-9.]+).*" "\\1" _version "${_proj}")
    set(RTIPC_BUILD_GIT "${_git}" PARENT_SCOPE)
    set(RTIPC_BUILD_DATE "${_date}" PARENT_SCOPE)
    set(RTIPC_BUILD_CFLAGS "${_cflags}" PARENT_SCOPE)
    set(RTIPC_BUILD_VERSION "${_version}" PARENT_SCOPE)
endfunction()
