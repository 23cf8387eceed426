# RTIPC_SANITIZE=address -> ASan + UBSan (every UB check fatal);
# RTIPC_SANITIZE=thread -> TSan. Applied to everything built in this tree.
if(RTIPC_SANITIZE STREQUAL "address")
    add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
    add_link_options(-fsanitize=address,undefined)
elseif(RTIPC_SANITIZE STREQUAL "thread")
    add_compile_options(-fsanitize=thread -fno-omit-frame-pointer)
    add_link_options(-fsanitize=thread)
elseif(NOT RTIPC_SANITIZE STREQUAL "")
    message(FATAL_ERROR "RTIPC_SANITIZE must be empty, 'address' or 'thread'")
endif()
