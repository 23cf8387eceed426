#!/bin/sh
# Installs the build tree into a scratch prefix, builds examples/consumer
# against it through find_package and pkg-config, and runs both programs.
set -eu
build=$1 src=$2 work=$3
rm -rf "$work"
cmake --install "$build" --prefix "$work/prefix" >/dev/null
cmake -S "$src/examples/consumer" -B "$work/consumer" -DCMAKE_PREFIX_PATH="$work/prefix" \
      -DCMAKE_BUILD_TYPE=Release >/dev/null
PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig:$work/prefix/lib/x86_64-linux-gnu/pkgconfig" \
    cmake -S "$src/examples/consumer" -B "$work/consumer" >/dev/null
cmake --build "$work/consumer" >/dev/null
# The shared library lives in the scratch prefix.
LD_LIBRARY_PATH="$work/prefix/lib:$work/prefix/lib/x86_64-linux-gnu" "$work/consumer/consumer_cmake"
LD_LIBRARY_PATH="$work/prefix/lib:$work/prefix/lib/x86_64-linux-gnu" "$work/consumer/consumer_pkgconfig"
