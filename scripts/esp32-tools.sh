# shellcheck shell=bash
# The vendored ESP32 tools (a folder laid out as ../shared/vendor/esp32)
# made ready for a check; sourced by check-esp32.sh and check-arduino.sh,
# which share one unpacked copy.
#   esp32_tools V TOOLS TARBALL...
# unpacks each V/TARBALL.tar.xz into TOOLS again when it is newer than its
# stamp, sets up a Python virtual environment over Debian's python3 with
# esptool and esp-idf-kconfig (offline), and exports IDF_PATH with the
# settings ESP-IDF's build needs here. It speaks through the caller's
# say(); 1 on a failure, said.
esp32_tools() {
    local v=$1 tools=$2 t stamp t0 venv_new=0
    shift 2
    mkdir -p "$tools" || return 1
    for t in "$@"; do
        stamp=$tools/.unpacked-$t
        [ -f "$stamp" ] && [ ! "$v/$t.tar.xz" -nt "$stamp" ] && continue
        t0=$(date +%s)
        rm -rf "${tools:?}/$t" "$stamp"
        tar -C "$tools" -xJf "$v/$t.tar.xz" || { say "cannot unpack $t.tar.xz"; return 1; }
        touch "$stamp"
        [ "$t" = python ] && venv_new=1
        say "  $t unpacked into $tools ($(( $(date +%s) - t0 )) s)"
    done
    if [ $venv_new -eq 1 ] || [ ! -x "$tools/venv/bin/python" ]; then
        rm -rf "$tools/venv"
        /usr/bin/python3 -m venv --system-site-packages "$tools/venv" &&
            "$tools/venv/bin/pip" install -q --no-index --no-deps --no-build-isolation \
                "$tools/python/esp-idf-kconfig" "$tools/python/esptool" || { say "cannot set up the Python tools"; return 1; }
    fi
    export IDF_PATH=$tools/esp-idf-v5.1.6 IDF_COMPONENT_MANAGER=0 IDF_SKIP_CHECK_SUBMODULES=1
    # The tarball has no git history, from which ESP-IDF would take its
    # version (it then describes the enclosing checkout: rtipc's commit);
    # its build reads version.txt first.
    [ -f "$IDF_PATH/version.txt" ] || echo v5.1.6 >"$IDF_PATH/version.txt"
    # ESP-IDF accepts a toolchain whose version string is not Espressif's.
    export IDF_MAINTAINER=1
}
