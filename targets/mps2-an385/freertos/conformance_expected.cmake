# Writes conformance_expected.h: tests/conformance/expected.txt as one C
# string, for the Cortex-M3 conformance firmware.
#   cmake -DIN=expected.txt -DOUT=conformance_expected.h -P conformance_expected.cmake
file(STRINGS ${IN} _lines)
set(_body "")
foreach(_l IN LISTS _lines)
    string(REPLACE "\\" "\\\\" _l "${_l}")
    string(REPLACE "\"" "\\\"" _l "${_l}")
    string(APPEND _body "    \"${_l}\\n\"\n")
endforeach()
file(WRITE ${OUT}.tmp "/* Generated from ${IN} by conformance_expected.cmake. */\nstatic const char conformance_expected[] =\n${_body}    \"\";\n")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUT}.tmp)
