#!/usr/bin/env bash
# The aarch64 target: makes the Debian bookworm arm64 root once (tools/arm64-root.sh), cross-builds
# the whole project for arm64 into ./build-arm64 with the host's aarch64-linux-gnu-g++ against that
# root (the sysroot; CPU backend, tracker, every element, -Dcuda=disabled), then runs the CPU suites
# with each arm64 test program run inside the root under qemu-user (binfmt): core, tracker,
# quality, fuzz, element, reliability, examples. The tests are the same as on x86-64, so their
# expected values hold on both. No typelib (g-ir-scanner cannot run a cross-built dump program),
# so the Python examples are left to x86-64; the install test builds natively, left out too.
# Results: build-arm64/meson-logs/testlog.json. Needs root (debootstrap, binfmt, chroot, mounts).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=${CCL_ARM64_ROOT:-/var/cache/gst-ccl/bookworm-arm64-root}
rm -f build-arm64/meson-logs/testlog.json  # a stale log must not count as this run's results
bash tools/arm64-root.sh
if ! command -v aarch64-linux-gnu-g++ >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends g++-aarch64-linux-gnu >/dev/null
fi

# the cross file names this checkout and the root, so it is written here, not kept in git
cross=build-arm64.ini
cat > "$cross.new" <<INI
[binaries]
c = 'aarch64-linux-gnu-gcc'
cpp = 'aarch64-linux-gnu-g++'
ar = 'aarch64-linux-gnu-ar'
strip = 'aarch64-linux-gnu-strip'
pkgconfig = 'pkg-config'
exe_wrapper = ['$PWD/tools/arm64-exec.sh']
# the overlay example tests run the arm64 gst-launch-1.0 of the root
gst-launch-1.0 = ['$PWD/tools/arm64-exec.sh', '/usr/bin/gst-launch-1.0']

[properties]
sys_root = '$root'
pkg_config_libdir = ['$root/usr/lib/aarch64-linux-gnu/pkgconfig', '$root/usr/share/pkgconfig']

[built-in options]
c_args = ['--sysroot=$root']
cpp_args = ['--sysroot=$root']
c_link_args = ['--sysroot=$root']
cpp_link_args = ['--sysroot=$root']

[host_machine]
system = 'linux'
cpu_family = 'aarch64'
cpu = 'aarch64'
endian = 'little'
INI
if ! cmp -s "$cross.new" "$cross"; then mv "$cross.new" "$cross"; rm -rf build-arm64; else rm "$cross.new"; fi
# meson's sanity check and the tests run arm64 programs of the build folder in the root: all
# inside tools/arm64-run.sh, which mounts the checkout there
status=0
bash tools/arm64-run.sh bash -euo pipefail -c '
  start=$SECONDS
  [ -f build-arm64/build.ninja ] ||
    meson setup build-arm64 --cross-file "$0" -Dcuda=disabled -Dbench=disabled -Dintrospection=disabled | tail -n 12
  ninja -C build-arm64 >/dev/null
  echo "aarch64 target: cross build in $((SECONDS - start)) s"
  file -L build-arm64/gst/libgstccl.so | sed "s/, BuildID.*//"
  start=$SECONDS
  status=0
  # emulation runs the tests about 10 times slower: a longer timeout, and the hard-scene quality
  # scores (HardSceneQuality.*, about 55 s each under qemu, 6 minutes in all) are left to x86-64,
  # where the same code paths run the same tests (DaylightScene.* and HardScenes.* run here too)
  GTEST_FILTER=${CCL_ARM64_GTEST_FILTER--HardSceneQuality.*} \
  meson test -C build-arm64 --no-rebuild --print-errorlogs --num-processes 2 --timeout-multiplier 3 \
    --suite core --suite tracker --suite quality --suite fuzz --suite element --suite reliability --suite examples ||
    status=$?
  echo "aarch64 target: tests under qemu in $((SECONDS - start)) s"
  exit $status' "$cross" || status=$?
exit $status
