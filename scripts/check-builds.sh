#!/bin/bash
# rtipc builds the ways its users build it (docs/design.md, "Dependencies"),
# each with the project's own gate, -Werror, on rtipc's sources:
#   lib       the library alone with a C compiler and CMake: tests and bench
#             off, no C++ compiler at hand (CXX names none); built twice,
#             the second time as a consumer builds it (no RTIPC_WERROR),
#             whose compile commands must hold no -Werror; then
#             examples/consumer with rtipc as its subproject (add_subdirectory),
#             and against `make install`'s stage after `make bench`
#   peers     rtipc-bench with RTIPC_BENCH_PEERS=OFF on a machine that has the
#             peer libraries: it builds, its bench tests pass, and every peer
#             says it was left out
#   clang     the whole tree with the newest clang Debian 12 packages
#             (clang-19), beside the gcc 12 of the other builds
#   scripts/check-builds.sh [lib] [peers] [clang]   (all three by default)
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
JOBS=${JOBS:-2}
PARTS=${*:-lib peers clang}
say() { echo "check-builds: $*"; }
failed=""

check_lib() {
    local dir=$BUILD/lib-alone
    rm -rf "$dir" "$dir-consumer" "$dir-subproject"
    CXX=/nonexistent/c++ cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DRTIPC_BUILD_TESTS=OFF \
        -DRTIPC_BUILD_BENCH=OFF -DRTIPC_WERROR=ON >"$dir.log" 2>&1 &&
        cmake --build "$dir" -j"$JOBS" >>"$dir.log" 2>&1 || { tail -n 20 "$dir.log"; say "the library alone does not build"; return 1; }
    grep -q "CMAKE_CXX_COMPILER" "$dir/CMakeCache.txt" &&
        grep -q "^CMAKE_CXX_COMPILER:.*=/nonexistent" "$dir/CMakeCache.txt" &&
        { say "the library alone looked for a C++ compiler"; return 1; }
    say "  the library alone: built with a C compiler only"
    # As a consumer builds it: warnings on, never -Werror.
    CXX=/nonexistent/c++ cmake -S . -B "$dir-consumer" -DCMAKE_BUILD_TYPE=Release -DRTIPC_BUILD_TESTS=OFF \
        -DRTIPC_BUILD_BENCH=OFF -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >"$dir.log" 2>&1 ||
        { tail -n 20 "$dir.log"; return 1; }
    grep -q -- "-Wall" "$dir-consumer/compile_commands.json" || { say "a consumer's build has no warnings on"; return 1; }
    if grep -q -- "-Werror" "$dir-consumer/compile_commands.json"; then
        say "a consumer's build of rtipc has -Werror"
        return 1
    fi
    say "  a consumer's build: -Wall, no -Werror"
    cmake -S examples/consumer -B "$dir-subproject" -DRTIPC_SOURCE_DIR="$PWD" >"$dir.log" 2>&1 &&
        cmake --build "$dir-subproject" -j"$JOBS" >>"$dir.log" 2>&1 &&
        "$dir-subproject/consumer_subproject" >>"$dir.log" 2>&1 || { tail -n 20 "$dir.log"; say "rtipc as a subproject failed"; return 1; }
    say "  examples/consumer with rtipc as its subproject: built and ran"
    # As the README says to install it: `make install` after `make bench`
    # (whose build tree has rtipc-bench but not the shared library), staged
    # with DESTDIR under PREFIX /usr, then the consumer built against the
    # stage through the CMake package and pkg-config.
    local stage=$PWD/$dir-stage tree=$dir-make
    rm -rf "$stage" "$tree" "$dir-installed"
    make --no-print-directory BUILD="$tree" bench BENCH_FLAGS="--quick --no-progress queue-set" \
        RESULTS="$tree/results" >"$dir.log" 2>&1 || { tail -n 20 "$dir.log"; say "make bench failed"; return 1; }
    make --no-print-directory BUILD="$tree" install PREFIX=/usr DESTDIR="$stage" >>"$dir.log" 2>&1 ||
        { tail -n 20 "$dir.log"; say "make install after make bench failed"; return 1; }
    [ -f "$stage/usr/include/rtipc/queue.h" ] && [ -n "$(find "$stage/usr" -name 'librtipc.so*' | head -n 1)" ] ||
        { say "make install staged no headers or no shared library"; return 1; }
    local libdir
    libdir=$(dirname "$(find "$stage/usr" -name 'librtipc.so*' | head -n 1)")
    PKG_CONFIG_PATH="$libdir/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$stage" \
        cmake -S examples/consumer -B "$dir-installed" -DCMAKE_PREFIX_PATH="$stage/usr" >>"$dir.log" 2>&1 &&
        cmake --build "$dir-installed" >>"$dir.log" 2>&1 &&
        LD_LIBRARY_PATH="$libdir" "$dir-installed/consumer_cmake" >>"$dir.log" 2>&1 &&
        LD_LIBRARY_PATH="$libdir" "$dir-installed/consumer_pkgconfig" >>"$dir.log" 2>&1 ||
        { tail -n 20 "$dir.log"; say "examples/consumer against make install's stage failed"; return 1; }
    say "  make install (PREFIX=/usr, DESTDIR) after make bench; examples/consumer built against it and ran"
    # The defaults on a machine with only the required packages: no C++
    # compiler, no pkg-config (so no cmocka), no cJSON: tests and bench are
    # left out, saying so, and the library builds.
    rm -rf "$dir-defaults"
    CXX=/nonexistent/c++ cmake -S . -B "$dir-defaults" -DCMAKE_DISABLE_FIND_PACKAGE_PkgConfig=ON \
        -DCMAKE_DISABLE_FIND_PACKAGE_cJSON=ON >"$dir.log" 2>&1 &&
        cmake --build "$dir-defaults" -j"$JOBS" >>"$dir.log" 2>&1 || { tail -n 20 "$dir.log"; say "the defaults do not build with the required packages only"; return 1; }
    grep -q "RTIPC_BUILD_TESTS: cmocka" "$dir.log" && grep -q "RTIPC_BUILD_BENCH: a C++17 compiler" "$dir.log" ||
        { cat "$dir.log"; say "the parts left out were not named"; return 1; }
    say "  defaults with only a C compiler and CMake: the library built, tests and bench left out, saying so"
}

check_peers() {
    local dir=$BUILD/peers-off
    cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DRTIPC_BENCH_PEERS=OFF -DRTIPC_WERROR=ON -DRTIPC_REQUIRE_DEPS=ON \
        -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++ >"$dir.log" 2>&1 &&
        cmake --build "$dir" -j"$JOBS" >>"$dir.log" 2>&1 || { grep -E "error" "$dir.log" | head -20; say "rtipc-bench does not build without its peers"; return 1; }
    (cd "$dir" && ctest -R "test_mechanisms|bench_quick|bench_cli" --output-on-failure) >>"$dir.log" 2>&1 ||
        { tail -n 30 "$dir.log"; say "the bench tests fail without the peers"; return 1; }
    local out
    out=$("$dir/bench/rtipc-bench" help peers 2>&1; "$dir/bench/rtipc-bench" run --quick --no-progress \
        --samples 200 peers 2>&1 | grep '^missing:') || true
    local n
    n=$(echo "$out" | grep -c "left out of this build (RTIPC_BENCH_PEERS=OFF)")
    [ "$n" -ge 7 ] || { echo "$out"; say "only $n peers say they were left out (7 expected)"; return 1; }
    say "  without the peers: built, bench tests pass, $n peers say they were left out"
    # Each peer alone: the peers' sources compile, -Werror, with only that
    # one's headers looked for (BENCH_ONLY_PEER), in C and C++.
    local p f flags inc="-Ibench -Iinclude -I$dir/include"
    for p in CK BOOST ATOMIC_QUEUE RWQ CQ URCU; do
        for f in bench/mechanisms/lockfree.c bench/mechanisms/queue_peers.c; do
            gcc -std=c11 -fsyntax-only -Wall -Wextra -Werror -D_GNU_SOURCE -DBENCH_HAVE_URCU=1 -DBENCH_ONLY_PEER_$p=1 \
                $inc "$f" || { say "$f does not build with only the $p peer"; return 1; }
        done
        for f in bench/mechanisms/lockfree_cxx.cpp bench/mechanisms/queue_peers_cxx.cpp; do
            g++ -std=c++17 -fsyntax-only -Wall -Wextra -Werror -DBENCH_ONLY_PEER_$p=1 $inc "$f" ||
                { say "$f does not build with only the $p peer"; return 1; }
        done
    done
    say "  each peer alone (CK BOOST ATOMIC_QUEUE RWQ CQ URCU): the peers' sources compile with -Werror"
}

check_clang() {
    local dir=$BUILD/clang-newest cc=clang-19 cxx=clang++-19
    scripts/install-deps.sh clang-19 || return 1
    cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DRTIPC_WERROR=ON -DRTIPC_REQUIRE_DEPS=ON -DCMAKE_C_COMPILER=$cc \
        -DCMAKE_CXX_COMPILER=$cxx >"$dir.log" 2>&1 &&
        cmake --build "$dir" -j"$JOBS" >>"$dir.log" 2>&1 || { grep -E "error" "$dir.log" | head -20; say "the tree does not build with $cc"; return 1; }
    say "  the whole tree with $($cc --version | head -n 1)"
}

for p in $PARTS; do
    case $p in
    lib | peers | clang)
        t0=$(date +%s)
        if "check_$p"; then say "$p: passed ($(( $(date +%s) - t0 )) s)"; else say "$p: FAILED"; failed="$failed $p"; fi ;;
    *) say "unknown part '$p' (lib peers clang)"; exit 2 ;;
    esac
done
[ -z "$failed" ] || { say "FAILED:$failed"; exit 1; }
say "passed"
