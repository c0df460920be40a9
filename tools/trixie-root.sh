#!/usr/bin/env bash
# Makes (once) the Debian trixie root that the GStreamer 1.26 target builds and tests in:
# debootstrap --variant=minbase from Debian's mirror, then trixie's GStreamer dev packages, meson,
# a compiler, PyGObject, GObject introspection and Debian's packaging tools. It lives outside the clone
# (CCL_TRIXIE_ROOT, default /var/cache/gst-ccl/trixie-root) so a machine makes it only once; a
# stamp with the hash of the package list says it is complete (a changed list installs the rest).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source tools/debian-root-lib.sh
root=${CCL_TRIXIE_ROOT:-/var/cache/gst-ccl/trixie-root}
mirror=${CCL_TRIXIE_MIRROR:-http://deb.debian.org/debian}

packages=(meson ninja-build pkg-config g++ libglib2.0-dev
  libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev libgstreamer-plugins-bad1.0-dev
  gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good gstreamer1.0-plugins-bad
  libgtest-dev python3-gi gir1.2-gstreamer-1.0 gir1.2-gst-plugins-base-1.0
  gobject-introspection libgirepository1.0-dev libjson-glib-dev
  dpkg-dev debhelper lintian)  # the trixie Debian packages (tools/build-packages.sh trixie)
want=$(root_want "${packages[@]}")
root_ready "$root" "$want" && exit 0
[ "$(id -u)" -eq 0 ] || { echo "trixie-root: making $root needs root (debootstrap, chroot); CCL_SKIP_126=1 skips the 1.26 target" >&2; exit 1; }
root_lock "$root"
root_ready "$root" "$want" && exit 0

start=$SECONDS
make_root() { debootstrap --variant=minbase trixie "$1" "$mirror"; }
[ -x "$root/usr/bin/apt-get" ] || echo "trixie-root: debootstrap trixie into $root (a few minutes, once per machine)"
root_debootstrap "$root" "$(dirname "$root")/debootstrap.log" make_root ||
  { echo "trixie-root: debootstrap failed (is $mirror reachable?)" >&2; exit 1; }
echo "trixie-root: installing ${#packages[@]} packages in $root"
CCL_TRIXIE_ROOT=$root bash tools/trixie-run.sh bash -c '
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq --no-install-recommends "$@" >/dev/null && apt-get clean' _ "${packages[@]}"
root_stamp "$root" "$want"
echo "trixie-root: ready in $((SECONDS - start)) s"
