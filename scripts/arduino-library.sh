#!/bin/bash
# Assembles rtipc's Arduino library (docs/arduino.md): OUTDIR/rtipc, the
# folder a user puts in their Arduino libraries folder, and
# OUTDIR/rtipc-arduino-VERSION.zip, the same folder for Sketch > Include
# Library > Add .ZIP Library. The library is for the ESP32 under the
# arduino-esp32 core 3.0.x (ESP-IDF 5.1), whose IDE compiles every .c, .cpp
# and .S under the library's src/ with src/ alone on the include path:
#   library.properties  arduino/library.properties, its version the project's
#   examples/           arduino/examples (RtipcBench, QueueLatency)
#   src/                one tree, in which every #include of the sources
#                       resolves as in the ESP-IDF build:
#     - include/'s headers (rtipc/queue.h is src/rtipc/queue.h);
#     - the sources of the ESP-IDF component (cmake/FreeRTOSPortSources.cmake,
#       `-DPRINT=sources:espidf`), under their src/-relative paths
#       (common/..., port/freertos/...), as its PRIV_INCLUDE_DIRS names them;
#     - rtipc-bench's sources of the ESP-IDF app (bench/sources.cmake:
#       RTIPC_BENCH_FREERTOS_FIRMWARE_SOURCES, RTIPC_BENCH_TARGET_ESPIDF,
#       RTIPC_BENCH_ESPIDF_MECHANISMS), under their bench/-relative paths
#       (cli.c, harness/..., target/...), as the app's INCLUDE_DIRS names them;
#     - the headers these include, followed from file to file (nothing else
#       of the repository: no other port, no host-only code);
#     - rtipc/config.h and bench_version.h, generated as the ESP-IDF build
#       generates them, with the values the Arduino core fixes;
#     - arduino/rtipc.h (the sketch's include), rtipc_bench.h, rtipc_bench.c.
# Two files of the three trees at one path of src/, or an #include that
# would find another file in the merged tree than in the repository (or a
# library file where it found ESP-IDF's), stop it with the names.
set -euo pipefail

usage="usage: arduino-library.sh [--no-zip] OUTDIR"
help() {
    cat <<EOF
$usage

Assembles rtipc's Arduino library for the ESP32 (arduino-esp32 core 3.0.x)
from this repository: OUTDIR/rtipc (library.properties, examples/, src/) and
OUTDIR/rtipc-arduino-VERSION.zip (the same folder, for Sketch > Include
Library > Add .ZIP Library). OUTDIR is created when missing; a previous
OUTDIR/rtipc and ZIP are replaced once the new ones are complete.

  --no-zip      assemble the folder only
  -h, --help    this text

Needs cmake, python3 and git (the source commit the results carry); the ZIP
is made with zip, or with python3's zipfile when zip is not installed.
Exit status: 0 assembled; 1 it could not be (a name clash, a missing tool or
file); 2 usage error. docs/arduino.md says how to install and use it.
EOF
}

zip_it=1
outdir=""
while [ $# -gt 0 ]; do
    case $1 in
    -h | --help) help; exit 0 ;;
    --no-zip) zip_it=0; shift ;;
    --) shift; break ;;
    -*) echo "arduino-library: unknown option '$1' ($usage)" >&2; exit 2 ;;
    *)
        [ -z "$outdir" ] || { echo "arduino-library: one OUTDIR only ($usage)" >&2; exit 2; }
        outdir=$1; shift ;;
    esac
done
if [ $# -gt 0 ]; then
    if [ -n "$outdir" ] || [ $# -gt 1 ]; then
        echo "arduino-library: one OUTDIR only ($usage)" >&2
        exit 2
    fi
    outdir=$1
fi
[ -n "$outdir" ] || { echo "arduino-library: OUTDIR is missing ($usage)" >&2; exit 2; }

say() { echo "arduino-library: $*"; }
fail() { echo "arduino-library: $*" >&2; exit 1; }
for tool in cmake python3; do
    command -v "$tool" >/dev/null || fail "$tool is not installed (scripts/install-deps.sh $tool)"
done
mkdir -p -- "$outdir" || fail "cannot create $outdir"
out=$(cd -- "$outdir" && pwd)
cd "$(dirname "$0")/.."
root=$PWD

version=$(sed -n 's/^project(rtipc VERSION \([0-9][0-9.]*\).*/\1/p' CMakeLists.txt)
[ -n "$version" ] || fail "no 'project(rtipc VERSION x.y.z)' in CMakeLists.txt"

# The kernel's notification entries under the Arduino core: RTIPC_NOTIFY_SLOTS
# follows them as the ESP-IDF component's rule has it (3 slots with 4 entries
# or more, so that rtipc parks on the last; one slot per entry below that,
# and rtipc parks on a semaphore).
arduino_sdkconfig=targets/esp32/sdkconfig.arduino
entries=$(sed -n 's/^CONFIG_FREERTOS_TASK_NOTIFICATION_ARRAY_ENTRIES=\([0-9][0-9]*\)$/\1/p' "$arduino_sdkconfig")
[ -n "$entries" ] || fail "$arduino_sdkconfig does not set CONFIG_FREERTOS_TASK_NOTIFICATION_ARRAY_ENTRIES"
if [ "$entries" -ge 4 ]; then slots=3; else slots=$entries; fi
# The component's other defaults (cmake/esp_idf_component.cmake): ESP-IDF's
# configMAX_PRIORITIES and the spin budget.
component=cmake/esp_idf_component.cmake
levels=$(grep -o 'PRIORITY_LEVELS:[0-9][0-9]*' "$component" | head -n 1 | cut -d: -f2)
spin=$(grep -o 'SPIN_NS_DEFAULT:[0-9][0-9]*' "$component" | head -n 1 | cut -d: -f2)
if [ -z "$levels" ] || [ -z "$spin" ]; then
    fail "no PRIORITY_LEVELS:N and SPIN_NS_DEFAULT:N defaults in $component"
fi

tmp=$(mktemp -d)
stage=$out/.rtipc.partial.$$
trap 'rm -rf "$tmp" "$stage"' EXIT

# The lists, from the CMake files that give them to the ESP-IDF build.
cmake -DPRINT=sources:espidf -P cmake/FreeRTOSPortSources.cmake >"$tmp/rtipc-sources" 2>&1 ||
    fail "cmake/FreeRTOSPortSources.cmake: $(cat "$tmp/rtipc-sources")"
cat >"$tmp/bench-sources.cmake" <<'EOF'
include("${ROOT}/bench/sources.cmake")
foreach(_f ${RTIPC_BENCH_FREERTOS_FIRMWARE_SOURCES} ${RTIPC_BENCH_TARGET_ESPIDF} ${RTIPC_BENCH_ESPIDF_MECHANISMS})
    file(RELATIVE_PATH _r "${ROOT}" "${_f}")
    message(NOTICE "${_r}")
endforeach()
EOF
cmake -DROOT="$root" -P "$tmp/bench-sources.cmake" >"$tmp/bench-sources" 2>&1 ||
    fail "bench/sources.cmake: $(cat "$tmp/bench-sources")"

# rtipc/config.h as cmake/esp_idf_component.cmake configures it, from
# include/rtipc/config.h.in, with the ESP-IDF control-block sizes.
mkdir -p "$tmp/gen/rtipc"
cat >"$tmp/config.cmake" <<'EOF'
include("${ROOT}/cmake/FreeRTOSPortSources.cmake")
set(RTIPC_PORT freertos)
set(RTIPC_PORT_IS_FREERTOS 1)
set(RTIPC_DIRECT 0)
set(PROJECT_VERSION "${VERSION}")
rtipc_freertos_static_sizes(espidf)
configure_file("${ROOT}/include/rtipc/config.h.in" "${OUT}.in" @ONLY)
file(READ "${OUT}.in" _text)
file(WRITE "${OUT}" "/* rtipc/config.h of the Arduino library (scripts/arduino-library.sh): the
 * ESP-IDF component's values for the arduino-esp32 core 3.0.x, whose kernel
 * is built with CONFIG_FREERTOS_TASK_NOTIFICATION_ARRAY_ENTRIES=${ENTRIES}
 * (targets/esp32/sdkconfig.arduino); not in direct mode. */
${_text}")
file(REMOVE "${OUT}.in")
EOF
cmake -DROOT="$root" -DOUT="$tmp/gen/rtipc/config.h" -DVERSION="$version" -DENTRIES="$entries" \
    -DRTIPC_NOTIFY_SLOTS="$slots" -DRTIPC_PRIORITY_LEVELS="$levels" -DRTIPC_SPIN_NS_DEFAULT="$spin" \
    -P "$tmp/config.cmake" >"$tmp/config.log" 2>&1 || fail "rtipc/config.h: $(cat "$tmp/config.log")"
if grep -q '@[A-Z_]*@' "$tmp/gen/rtipc/config.h"; then
    fail "rtipc/config.h: unset values: $(grep -o '@[A-Z_]*@' "$tmp/gen/rtipc/config.h" | sort -u | tr '\n' ' ')"
fi

# bench_version.h as cmake/BenchVersion.cmake writes it, its commit that of
# the files the library is built from. The compiler is the IDE's, known only
# when it compiles: GCC's own version string then.
paths="src|:(exclude)src/port/posix|:(exclude)src/port/bare|include|bench|:(exclude)bench/host|arduino|cmake"
paths="$paths|CMakeLists.txt|scripts/arduino-library.sh|$arduino_sdkconfig"
cmake -DSRC="$root" -DOUT="$tmp/gen/bench_version.h" -DVERSION="$version" "-DPATHS=$paths" \
    -DCOMPILER=GNU "-DCFLAGS=the Arduino IDE's (arduino-esp32 core)" -P cmake/BenchVersion.cmake \
    >"$tmp/version.log" 2>&1 || fail "bench_version.h: $(cat "$tmp/version.log")"
sed -i 's/^#define BENCH_COMPILER .*/#define BENCH_COMPILER "GNU " __VERSION__/' "$tmp/gen/bench_version.h"
grep -q '^#define BENCH_GIT_COMMIT ' "$tmp/gen/bench_version.h" || fail "bench_version.h has no BENCH_GIT_COMMIT"

# src/: the sources, the headers they reach, the generated files and the
# sketch's own, each checked against the others.
mkdir -p "$stage/src"
python3 - "$root" "$stage/src" "$tmp/rtipc-sources" "$tmp/bench-sources" "$tmp/gen" <<'PY'
import os, re, shutil, sys

root, dest, rtipc_list, bench_list, gen = sys.argv[1:6]
TREES = ("include", "src", "bench")
# The roots a file's #include "x" searches in the ESP-IDF build, after its
# own folder: the component's (include, then src: INCLUDE_DIRS and
# PRIV_INCLUDE_DIRS), the app's (bench: its INCLUDE_DIRS; include through
# REQUIRES rtipc). The library's own files are written for src/ alone.
ROOTS = {"include": ("include", "src"), "src": ("include", "src"), "bench": ("bench", "include"),
         "arduino": ("arduino", "include", "bench")}
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
SOURCE = (".c", ".cpp", ".S")
problems = []

def read_list(path):
    with open(path) as f:
        return [l.strip() for l in f if l.strip()]

def tree_of(rel):
    return rel.split("/", 1)[0]

def lib_path(rel):  # repository path -> path in src/
    return rel.split("/", 1)[1]

def exists(rel):
    return os.path.isfile(os.path.join(root, rel))

generated = {"rtipc/config.h": os.path.join(gen, "rtipc/config.h"),
             "bench_version.h": os.path.join(gen, "bench_version.h")}
# The library's own sources and headers (arduino/*.h, *.c, ...), at src/'s root.
ARDUINO = sorted("arduino/" + n for n in os.listdir(os.path.join(root, "arduino")) if n.endswith(SOURCE + (".h",)))

def resolve_repo(rel, name):
    """What `#include "name"` in repository file rel finds in the ESP-IDF
    build: ('repo', path), ('gen', name) or ('outside', None)."""
    here = os.path.normpath(os.path.join(os.path.dirname(rel), name))
    if not here.startswith("..") and exists(here):
        return ("repo", here)
    hits = [t + "/" + name for t in ROOTS[tree_of(rel)] if exists(t + "/" + name)]
    if len(hits) > 1:
        problems.append("%s includes \"%s\", which is %s: one path in src/" % (rel, name, " and ".join(hits)))
    if hits:
        return ("repo", os.path.normpath(hits[0]))
    if name in generated:
        return ("gen", name)
    return ("outside", None)

# Two files of the three trees at one path of src/, whether the library
# takes them or not: one name would mean two files.
seen = {}
for t in TREES:
    for d, dirs, names in os.walk(os.path.join(root, t)):
        rel_d = os.path.relpath(d, root)
        dirs[:] = [x for x in dirs if os.path.join(rel_d, x) not in
                   ("src/port/posix", "src/port/bare", "bench/host", "bench/probes")]
        for n in names:
            if n.endswith(SOURCE + (".h",)):
                rel = os.path.join(rel_d, n)
                other = seen.setdefault(lib_path(rel), rel)
                if other != rel:
                    problems.append("%s and %s are both src/%s" % (other, rel, lib_path(rel)))

# The sources, then every header they reach.
sources = read_list(rtipc_list) + read_list(bench_list)
for s in ARDUINO:
    if not exists(s):
        problems.append("%s does not exist" % s)
for s in sources:
    if not exists(s):
        problems.append("listed source %s does not exist" % s)
    if tree_of(s) not in ("src", "bench"):
        problems.append("listed source %s is outside src/ and bench/" % s)
todo, copied, includes = sources + ARDUINO, set(), {}
while todo:
    rel = todo.pop()
    if rel in copied or not exists(rel):
        continue
    copied.add(rel)
    names = []
    with open(os.path.join(root, rel), errors="replace") as f:
        for line in f:
            m = INCLUDE.match(line)
            if m:
                names.append(m.group(1))
    includes[rel] = names
    for name in names:
        kind, target = resolve_repo(rel, name)
        if kind == "repo":
            if tree_of(target) not in ROOTS:
                problems.append("%s includes %s, which the library does not hold" % (rel, target))
            else:
                todo.append(target)

# The library's files by their path in src/: one file a path.
files = {}
def place(path, origin):
    if path in files and files[path] != origin:
        problems.append("src/%s would be both %s and %s" % (path, files[path], origin))
    files[path] = origin
for rel in sorted(copied):
    place(lib_path(rel), rel)
for name, path in generated.items():
    place(name, "generated " + name)
for path, origin in files.items():
    if origin.startswith("src/port/") and not origin.startswith("src/port/freertos/"):
        problems.append("%s is another port's file" % origin)

# In src/, an #include "x" looks beside the including file, then in src/:
# it must find what it found in the repository, and nothing of the library
# where it found a header of ESP-IDF or the compiler.
def resolve_lib(path, name):
    here = os.path.normpath(os.path.join(os.path.dirname(path), name))
    if not here.startswith("..") and here in files:
        return here
    return os.path.normpath(name) if os.path.normpath(name) in files else None
for rel, names in sorted(includes.items()):
    for name in names:
        kind, target = resolve_repo(rel, name)
        want = lib_path(target) if kind == "repo" else (name if kind == "gen" else None)
        got = resolve_lib(lib_path(rel), name)
        if got != want:
            problems.append("%s: #include \"%s\" would find %s in src/, not %s" %
                            (rel, name, got and "src/" + got, want and "src/" + want or "a header outside the library"))

if problems:
    for p in sorted(set(problems)):
        print("arduino-library: " + p, file=sys.stderr)
    sys.exit(1)
for path, origin in sorted(files.items()):
    src = generated[path] if origin.startswith("generated ") else os.path.join(root, origin)
    os.makedirs(os.path.dirname(os.path.join(dest, path)), exist_ok=True)
    shutil.copyfile(src, os.path.join(dest, path))
n = {k: sum(1 for o in files.values() if tree_of(o) == k) for k in ROOTS}
print("arduino-library:   src/: %d files (%d of include/, %d of src/, %d of bench/, %d of arduino/, 2 generated); "
      "%d to compile" % (len(files), n["include"], n["src"], n["bench"], n["arduino"],
                         sum(1 for p in files if p.endswith(SOURCE))))
PY

# library.properties and the examples.
# The project's address is its checkout's remote where that is a web
# address; without one the url line is left out (the IDE does not need it).
url=$({ git remote get-url origin 2>/dev/null || true; } | sed -n 's|^\(https\?://[^ ]*\)$|\1|p; s|^git@\([^:]*\):\(.*\)$|https://\1/\2|p' | sed 's|\.git$||')
sed -e "s/@VERSION@/$version/" arduino/library.properties |
    if [ -n "$url" ]; then sed "s|@URL@|$url|"; else grep -v '^url=@URL@$'; fi >"$stage/library.properties"
grep -q "^version=$version\$" "$stage/library.properties" || fail "arduino/library.properties has no version=@VERSION@ line"
cp -R arduino/examples "$stage/examples"
rm -rf "$out/rtipc"
mv "$stage" "$out/rtipc"
say "$out/rtipc: rtipc $version for arduino-esp32 3.0.x (RTIPC_NOTIFY_SLOTS $slots, the kernel's notification entries $entries)"

[ $zip_it -eq 1 ] || exit 0
zip=rtipc-arduino-$version.zip
rm -f "$out/.$zip.partial"
if command -v zip >/dev/null; then
    (cd "$out" && find rtipc -print | LC_ALL=C sort | zip -qX ".$zip.partial" -@) || fail "zip failed"
else
    python3 - "$out" "$zip" <<'PY' || fail "python3's zipfile failed"
import os, sys, zipfile
out, name = sys.argv[1:3]
with zipfile.ZipFile(os.path.join(out, "." + name + ".partial"), "w", zipfile.ZIP_DEFLATED) as z:
    for d, dirs, files in os.walk(os.path.join(out, "rtipc")):
        dirs.sort()
        for f in sorted(files):
            path = os.path.join(d, f)
            z.write(path, os.path.relpath(path, out))
PY
fi
mv "$out/.$zip.partial" "$out/$zip"
say "$out/$zip"
