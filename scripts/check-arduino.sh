#!/bin/bash
# rtipc's Arduino library (scripts/arduino-library.sh, docs/arduino.md)
# compiled the way the Arduino IDE compiles it with the arduino-esp32 core
# 3.0.x (ESP-IDF 5.1) for an "ESP32 Dev Module", without the IDE or the core:
#   1. the tools: ESP32_TOOLS names a folder laid out as ../shared/vendor/esp32;
#      the xtensa-esp32-elf toolchain, ESP-IDF v5.1.6 and the Python tools are
#      unpacked into $BUILD/esp32-tools as scripts/check-esp32.sh does (and
#      shared with it)
#   2. the flags: ESP-IDF's CMake step for targets/esp32 with the Arduino
#      core's kernel settings (targets/esp32/sdkconfig.arduino) and the
#      compiler settings of the core's ESP-IDF libraries (-Os,
#      -Wwrite-strings, C++ exceptions, -fstack-protector); from its
#      compile_commands.json, the app component's command for a C, a C++ and
#      (rtipc's) an assembly file: their -m, -f, -W, -O, -g and -std flags,
#      without -Werror, and ESP-IDF's include directories with
#      build/config (sdkconfig.h). Nothing is built with ESP-IDF.
#   3. the library, assembled by scripts/arduino-library.sh into
#      $BUILD/arduino-check/lib/rtipc
#   4. as the IDE does: every .c, .cpp and .S under its src/, recursively,
#      with ESP-IDF's include directories first and the library's src/
#      alone after them, -DESP_PLATFORM -DARDUINO=10819
#      -DARDUINO_ARCH_ESP32 and no other definition, no -Werror; then each
#      example sketch (.ino) as C++ with `#include <Arduino.h>` put before
#      it, over tests/arduino/stand-ins/Arduino.h (declarations only: the
#      core itself is not here)
#   5. every warning printed, and counted: the check fails on an error, and
#      on a warning unless --allow-warnings; a library header that one of
#      ESP-IDF's include directories would shadow fails it too
# Without ESP32_TOOLS it is SKIPPED, saying so (exit 0).
#
#   scripts/check-arduino.sh [--sdkconfig FILE] [--allow-warnings]
#     --sdkconfig       the kernel's settings under the core (default
#                       targets/esp32/sdkconfig.arduino)
#     --allow-warnings  report warnings without failing on them
set -uo pipefail
caller=$PWD
cd "$(dirname "$0")/.." || exit 1
BUILD=${BUILD:-build}
JOBS=${JOBS:-2}
SDKCONFIG_ARDUINO=$PWD/targets/esp32/sdkconfig.arduino
ALLOW_WARNINGS=0
usage="usage: check-arduino.sh [--sdkconfig FILE] [--allow-warnings]"
while [ $# -gt 0 ]; do
    case $1 in
    --sdkconfig)
        [ $# -ge 2 ] || { echo "check-arduino: $1 needs a value ($usage)" >&2; exit 2; }
        case $2 in /*) SDKCONFIG_ARDUINO=$2 ;; *) SDKCONFIG_ARDUINO=$caller/$2 ;; esac
        shift 2 ;;
    --allow-warnings) ALLOW_WARNINGS=1; shift ;;
    -h | --help)
        cat <<EOF
$usage

Compiles rtipc's Arduino library (scripts/arduino-library.sh) as the Arduino
IDE does with the arduino-esp32 core 3.0.x: every .c, .cpp and .S of its
src/, and its example sketches over tests/arduino/stand-ins/Arduino.h, with
the xtensa-esp32-elf toolchain and ESP-IDF's flags and include directories
from ESP-IDF's CMake step on the core's settings. ESP32_TOOLS names a folder
laid out as ../shared/vendor/esp32; without it the check is skipped (exit 0).

  --sdkconfig FILE  the kernel's settings under the core (default
                    targets/esp32/sdkconfig.arduino)
  --allow-warnings  report warnings without failing on them
  -h, --help        this text

Environment: ESP32_TOOLS, BUILD (default build; the check uses
BUILD/arduino-check and BUILD/esp32-tools), JOBS (default 2).
Exit status: 0 passed or skipped; 1 an error, a warning or a shadowed header;
2 usage error.
EOF
        exit 0 ;;
    *) echo "check-arduino: unexpected argument '$1' ($usage)" >&2; exit 2 ;;
    esac
done
[ -f "$SDKCONFIG_ARDUINO" ] || { echo "check-arduino: no such file: $SDKCONFIG_ARDUINO" >&2; exit 2; }
say() { echo "check-arduino: $*"; }
# shellcheck source=scripts/esp32-tools.sh
. scripts/esp32-tools.sh
T0=$(date +%s)

if [ -z "${ESP32_TOOLS:-}" ]; then
    say "SKIPPED: ESP32_TOOLS is not set (a folder laid out as ../shared/vendor/esp32: see its README.md)"
    exit 0
fi
V=$(cd "$ESP32_TOOLS" 2>/dev/null && pwd) || { say "ESP32_TOOLS=$ESP32_TOOLS: no such directory"; exit 1; }
tarballs="xtensa-esp32-elf esp-idf-v5.1.6 python"
for t in $tarballs; do
    [ -f "$V/$t.tar.xz" ] || { say "$V/$t.tar.xz is missing (its README.md says what it holds)"; exit 1; }
done
# What ESP-IDF's CMake step imports, from Debian; zip for the library's ZIP.
scripts/install-deps.sh python3-venv python3-pyparsing python3-pyelftools python3-click python3-serial \
    python3-cryptography python3-yaml python3-kconfiglib python3-bitstring python3-ecdsa python3-intelhex \
    python3-argcomplete python3-wheel ninja-build cmake zip || exit 1

case $BUILD in /*) B=$BUILD ;; *) B=$PWD/$BUILD ;; esac
TOOLS=$B/esp32-tools
# Shared with scripts/check-esp32.sh: one unpacked copy serves both.
# shellcheck disable=SC2086 # one tarball a word
esp32_tools "$V" "$TOOLS" $tarballs || exit 1
export PATH=$TOOLS/xtensa-esp32-elf/bin:$TOOLS/venv/bin:$PATH

D=$B/arduino-check
rm -rf "$D"
mkdir -p "$D/idf" "$D/obj" || exit 1

# 2. The flags: ESP-IDF's CMake step with the core's kernel settings and
# the compiler settings its ESP-IDF libraries are built with, whose flags
# the IDE passes on to sketches and libraries (CMake alone: it writes
# compile_commands.json).
cat >"$D/sdkconfig.compiler" <<'EOF'
# The arduino-esp32 3.0.x libraries' compiler settings: -Os,
# -Wwrite-strings, C++ exceptions, -fstack-protector.
CONFIG_COMPILER_OPTIMIZATION_SIZE=y
CONFIG_COMPILER_WARN_WRITE_STRINGS=y
CONFIG_COMPILER_CXX_EXCEPTIONS=y
CONFIG_COMPILER_STACK_CHECK_MODE_NORM=y
EOF
defaults="$SDKCONFIG_ARDUINO;$D/sdkconfig.compiler"
t0=$(date +%s)
cmake -G Ninja -S targets/esp32 -B "$D/idf" -DIDF_TARGET=esp32 -DPYTHON_DEPS_CHECKED=1 \
    -DPYTHON="$TOOLS/venv/bin/python" -DCOMPONENTS=main -DSDKCONFIG="$D/idf/sdkconfig" \
    -DSDKCONFIG_DEFAULTS="$defaults" >"$D/configure.log" 2>&1 ||
    { tail -n 30 "$D/configure.log"; say "ESP-IDF's CMake step failed; log in $D/configure.log"; exit 1; }
[ -f "$D/idf/compile_commands.json" ] || { say "ESP-IDF's CMake step wrote no compile_commands.json"; exit 1; }
say "ESP-IDF v5.1.6 configured for esp32 with ${SDKCONFIG_ARDUINO#"$PWD"/} and the core's compiler settings ($(( $(date +%s) - t0 )) s):"
grep -E '^CONFIG_(FREERTOS_HZ|FREERTOS_TASK_NOTIFICATION_ARRAY_ENTRIES|FREERTOS_THREAD_LOCAL_STORAGE_POINTERS|ESP_TASK_WDT_CHECK_IDLE_TASK_CPU[01]|COMPILER_OPTIMIZATION_SIZE|COMPILER_WARN_WRITE_STRINGS|COMPILER_CXX_EXCEPTIONS|COMPILER_STACK_CHECK_MODE_NORM)=' \
    "$D/idf/sdkconfig" | sed 's/^/    /'

# 3. The library, as a user gets it.
scripts/arduino-library.sh --no-zip "$D/lib" | sed 's/^/  /'
[ "${PIPESTATUS[0]}" -eq 0 ] || { say "assembling the library failed"; exit 1; }
LIB=$D/lib/rtipc

# 4. and 5., in one program: the flags taken from the commands, the shadow
# check, the compilations (JOBS at a time) and their warnings.
python3 - "$D" "$LIB" "$IDF_PATH" "$PWD" "$JOBS" "$ALLOW_WARNINGS" <<'PY'
import concurrent.futures, json, os, re, shlex, subprocess, sys

d, lib, idf, repo, jobs, allow_warnings = sys.argv[1:7]
jobs, allow_warnings = int(jobs), allow_warnings == "1"
src = os.path.join(lib, "src")
config_dir = os.path.join(d, "idf", "config")
commands = json.load(open(os.path.join(d, "idf", "compile_commands.json")))
# What the core passes beside ESP-IDF's flags: these three definitions only.
CORE_DEFINES = ["-DESP_PLATFORM", "-DARDUINO=10819", "-DARDUINO_ARCH_ESP32"]

def command_for(component, suffix):
    for c in commands:
        if c["file"].endswith(suffix) and ("__idf_%s.dir" % component) in c["command"]:
            return c
    sys.exit("check-arduino: no %s file of component %s in compile_commands.json" % (suffix, component))

dropped = set()
def split_command(c):
    """(compiler, flags, include dirs) of one compile command."""
    words = shlex.split(c["command"])
    compiler, flags, includes, i = words[0], [], [], 1
    while i < len(words):
        w = words[i]
        if w in ("-o", "-c"):
            i += 2
            continue
        if w == "-I" or w.startswith("-I"):
            path = words[i + 1] if w == "-I" else w[2:]
            i += 2 if w == "-I" else 1
            path = os.path.normpath(path)
            # ESP-IDF's own directories and sdkconfig.h's; never rtipc's
            # trees (include, src, bench, the app, their generated files).
            if path.startswith(idf + os.sep) or path == config_dir:
                includes.append(path)
            else:
                dropped.add("-I" + path)
            continue
        i += 1
        if w.startswith("-D"):
            if w not in CORE_DEFINES:
                dropped.add(w)  # the core's three are passed to every file
        elif w.startswith("-Werror") or w.startswith("-Wno-error"):
            dropped.add(w)
        elif re.match(r"-f(diagnostics-color|file-prefix-map|debug-prefix-map|macro-prefix-map)", w):
            dropped.add(w.split("=")[0] + "=...")  # the app's output and reproducibility settings
        elif re.match(r"-(m|f|W|O|g|std=)", w):
            flags.append(w)
        else:
            dropped.add(w)
    return compiler, flags, includes

langs = {}
for lang, component, suffix in (("c", "main", "bench/cli.c"), ("c++", "main", "locked_queues_cxx.cpp"),
                                ("asm", "rtipc", "irq_espidf_raise.S")):
    langs[lang] = split_command(command_for(component, suffix))
# One include path for all, as the IDE has one: the app component's, which
# reaches every component the library calls (freertos, esp_timer, driver,
# esp_ringbuf, pthread, esp_psram, ...).
includes = langs["c"][2]
out = open(os.path.join(d, "flags.txt"), "w")
for lang, (compiler, flags, _) in langs.items():
    print("check-arduino: %-4s %s %s" % (lang, os.path.basename(compiler), " ".join(flags)))
    print("%s: %s %s" % (lang, compiler, " ".join(flags)), file=out)
print("check-arduino: defines %s; include path: %d directories of ESP-IDF and its build/config, "
      "then the library's src/ (all in %s/flags.txt)" % (" ".join(CORE_DEFINES), len(includes), d))
print("check-arduino: dropped from ESP-IDF's commands: %s" %
      " ".join(sorted(w for w in dropped if not w.startswith("-I"))))
print("includes: " + " ".join(includes), file=out)
out.close()

# An #include "x" that the library resolves from its src/ root, but that one
# of ESP-IDF's directories (searched first, as the IDE orders them) holds
# too, would find ESP-IDF's header.
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
shadowed = []
for dirpath, _, files in os.walk(src):
    for f in files:
        with open(os.path.join(dirpath, f), errors="replace") as fh:
            for line in fh:
                m = INCLUDE.match(line)
                if not m:
                    continue
                quote, name = m.groups()
                if quote == '"' and os.path.isfile(os.path.join(dirpath, name)):
                    continue  # found beside the including file, before any -I
                if not os.path.isfile(os.path.join(src, name)):
                    continue
                for inc in includes:
                    if os.path.isfile(os.path.join(inc, name)):
                        shadowed.append("%s: \"%s\" is also %s" %
                                        (os.path.relpath(os.path.join(dirpath, f), lib), name, os.path.join(inc, name)))
for s in shadowed:
    print("check-arduino: shadowed: " + s)

# The compilations: the library's sources, then the sketches.
SUFFIX = {".c": "c", ".cpp": "c++", ".S": "asm"}
jobs_list = []
for dirpath, dirs, files in os.walk(src):
    dirs.sort()
    for f in sorted(files):
        ext = os.path.splitext(f)[1]
        if ext in SUFFIX:
            jobs_list.append((os.path.join(dirpath, f), SUFFIX[ext], []))
stand_ins = os.path.join(repo, "tests", "arduino", "stand-ins")
sketch_dir = os.path.join(d, "sketches")
os.makedirs(sketch_dir, exist_ok=True)
examples = os.path.join(lib, "examples")
sketches = 0
for name in sorted(os.listdir(examples)):
    ino = os.path.join(examples, name, name + ".ino")
    if not os.path.isfile(ino):
        continue
    # The IDE's preprocessing, reduced to what these sketches need: the
    # core's header first, the sketch's own lines numbered as in its file.
    cpp = os.path.join(sketch_dir, name + ".ino.cpp")
    with open(cpp, "w") as fh:
        fh.write('#include <Arduino.h>\n#line 1 "%s"\n' % ino)
        fh.write(open(ino).read())
    jobs_list.append((cpp, "c++", ["-I" + stand_ins]))
    sketches += 1

def compile_one(job):
    path, lang, extra = job
    compiler, flags, _ = langs[lang]
    obj = os.path.join(d, "obj", os.path.relpath(path, d).replace(os.sep, "__") + ".o")
    argv = ([compiler] + flags + CORE_DEFINES + ["-I" + i for i in includes] + extra + ["-I" + src] +
            ["-c", path, "-o", obj])
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return path, p.returncode, p.stdout

warnings, failed, counts = [], [], {}
for path, lang, extra in jobs_list:
    if not extra:
        counts[lang] = counts.get(lang, 0) + 1
with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
    for path, rc, text in pool.map(compile_one, jobs_list):
        if text:
            sys.stdout.write(text)
        warnings += [l for l in text.splitlines() if ": warning: " in l]
        if rc != 0:
            failed.append(os.path.relpath(path, d))
library = len(jobs_list) - sketches
print("check-arduino: compiled %d library files (%s) and %d sketches: %d warnings, %d failed" %
      (library, ", ".join("%d %s" % (n, l) for l, n in sorted(counts.items())), sketches, len(warnings), len(failed)))
for f in failed:
    print("check-arduino: FAILED to compile " + f)
# Each warning once more, with the repository file it comes from (one file
# a path: scripts/arduino-library.sh refuses clashes).
def origin(line):
    path = line.split(":", 1)[0]
    rel = os.path.relpath(path, src)
    if rel.startswith(".."):
        return None
    for tree in ("include", "src", "bench", "arduino"):
        if os.path.isfile(os.path.join(repo, tree, rel)):
            return os.path.join(tree, rel)
    return "generated"
if warnings:
    print("check-arduino: the warnings:")
for w in warnings:
    o = origin(w)
    print("    " + w + (" [%s]" % o if o else ""))
bad = failed or shadowed or (warnings and not allow_warnings)
sys.exit(1 if bad else 0)
PY
status=$?
if [ $status -ne 0 ]; then
    say "FAILED ($(( $(date +%s) - T0 )) s)"
    exit 1
fi
say "passed ($(( $(date +%s) - T0 )) s)"
