#!/usr/bin/env bash
# Cross-builds the tracker core (kernels/tracker) and its tests (tests/tracker, and the bench
# scorer's tests in tests/tracking) for aarch64 with g++-aarch64-linux-gnu, against googletest
# built from /usr/src/googletest, and runs them under qemu-aarch64: the tracker is portable C++
# and its ids are the same on every CPU. Not part of tools/test.sh (CI time).
# Needs: apt-get install g++-aarch64-linux-gnu qemu-user libgtest-dev. Usage:
#   tools/test-tracker-aarch64.sh [OUT_DIR=build-aarch64]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
out=${1:-build-aarch64}
cxx=${CXX_AARCH64:-aarch64-linux-gnu-g++}
gtest=/usr/src/googletest/googletest
mkdir -p "$out"
flags=(-std=c++17 -O2 -Wall -Wextra -ffp-contract=off)
if [ ! -f "$out/libgtest.a" ]; then
  "$cxx" "${flags[@]}" -I"$gtest/include" -I"$gtest" -c "$gtest/src/gtest-all.cc" -o "$out/gtest-all.o"
  "$cxx" "${flags[@]}" -I"$gtest/include" -c "$gtest/src/gtest_main.cc" -o "$out/gtest_main.o"
  ar rcs "$out/libgtest.a" "$out/gtest-all.o" "$out/gtest_main.o"
fi
"$cxx" "${flags[@]}" -Ikernels -I"$gtest/include" tests/tracker/test_tracker.cpp kernels/tracker/*.cpp \
  "$out/libgtest.a" -lpthread -o "$out/ccl-test-tracker"
"$cxx" "${flags[@]}" -Ibench/tracking -I"$gtest/include" tests/tracking/test_mot_metrics.cpp bench/tracking/mot_metrics.cpp \
  "$out/libgtest.a" -lpthread -o "$out/ccl-test-mot-metrics"
file "$out/ccl-test-tracker"
for t in ccl-test-tracker ccl-test-mot-metrics; do
  qemu-aarch64 -L /usr/aarch64-linux-gnu "$out/$t"
done
