#!/usr/bin/env bash
# Makes (once) the Debian bookworm arm64 root that the aarch64 target cross-builds against (it is
# the sysroot: headers, .pc files and arm64 libraries) and runs its tests in (binfmt + qemu):
# `debootstrap --arch=arm64 --foreign` on the host, the second stage and apt-get inside it under
# qemu-user-static. No compiler or meson inside: the host's aarch64-linux-gnu-g++ builds.
# It lives outside the clone (CCL_ARM64_ROOT, default /var/cache/gst-ccl/bookworm-arm64-root) so a
# machine makes it only once; a stamp with the hash of the package list says it is complete.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source tools/debian-root-lib.sh
root=${CCL_ARM64_ROOT:-/var/cache/gst-ccl/bookworm-arm64-root}
mirror=${CCL_ARM64_MIRROR:-http://deb.debian.org/debian}

# what the build links (the sysroot) and what the tests load at run time (plugins, gst tools)
packages=(libc6-dev libstdc++-12-dev libglib2.0-dev
  libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev libjson-glib-dev libgtest-dev
  gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good gstreamer1.0-plugins-bad)
want=$(root_want "${packages[@]}")
bash tools/arm64-binfmt.sh  # also on a machine that has the root: binfmt does not survive a reboot
root_ready "$root" "$want" && exit 0
[ "$(id -u)" -eq 0 ] || { echo "arm64-root: making $root needs root (debootstrap, chroot); CCL_SKIP_ARM64=1 skips the aarch64 target" >&2; exit 1; }
root_lock "$root"
root_ready "$root" "$want" && exit 0

start=$SECONDS
# the first stage on the host, the second inside the root under qemu-user
make_root() {
  debootstrap --arch=arm64 --foreign --variant=minbase bookworm "$1" "$mirror" &&
    chroot "$1" /debootstrap/debootstrap --second-stage
}
[ -x "$root/usr/bin/apt-get" ] ||
  echo "arm64-root: debootstrap bookworm arm64 into $root (several minutes under emulation, once per machine)"
root_debootstrap "$root" "$(dirname "$root")/debootstrap-arm64.log" make_root ||
  { echo "arm64-root: debootstrap failed (is $mirror reachable? binfmt?)" >&2; exit 1; }
echo "arm64-root: installing ${#packages[@]} packages in $root (under emulation)"
CCL_ARM64_ROOT=$root bash tools/arm64-run.sh --chroot bash -c '
  export DEBIAN_FRONTEND=noninteractive
  # no manual pages or docs in a root that only builds and tests
  printf "path-exclude=/usr/share/man/*\npath-exclude=/usr/share/doc/*\npath-include=/usr/share/doc/*/copyright\n" > /etc/dpkg/dpkg.cfg.d/01-nodoc
  apt-get update -qq && apt-get install -y -qq --no-install-recommends "$@" >/dev/null && apt-get clean' _ "${packages[@]}"
root_stamp "$root" "$want"
echo "arm64-root: ready in $((SECONDS - start)) s"
