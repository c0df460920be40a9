#!/usr/bin/env bash
# Tests the Debian packages as a user gets them: builds them (tools/build-packages.sh DIST: lintian
# errors fail), then installs them with apt-get into a clean root (an overlay on a cached minimal
# debootstrap root of DIST, so each run starts clean and the cache is never written) and checks:
# gst-inspect-1.0 finds every element of the plugin, the README's demo pipeline prints its
# components, the C example builds with `pkg-config gstreamer-ccl-1.0` and reads GstCclMeta, and the
# Python example reads the same through the installed typelib. Results, one line per check, in
# build-deb/DIST/testlog.json (meson's format: tools/test.sh counts them). Needs root.
# Usage: tools/test-packages.sh bookworm|trixie   (CCL_PKGTEST_ROOT_DIR: where the roots are cached)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source tools/debian-root-lib.sh
dist=${1:?usage: tools/test-packages.sh bookworm|trixie}
out=build-deb/$dist
log=$out/testlog.json
mirror=${CCL_PKGTEST_MIRROR:-http://deb.debian.org/debian}
base=${CCL_PKGTEST_ROOT_DIR:-/var/cache/gst-ccl}/pkgtest-$dist-root
[ "$(id -u)" -eq 0 ] || { echo "test-packages: needs root (debootstrap, mounts, chroot)" >&2; exit 1; }
result() {  # result NAME OK|FAIL
  mkdir -p "$out"
  printf '{"name": "packages-%s:%s", "result": "%s"}\n' "$dist" "$1" "$2" >> "$log"
}
rm -f "$log"
start=$SECONDS
bash tools/build-packages.sh "$dist" || { result build FAIL; exit 1; }
result build OK
echo "test-packages: $dist packages built and linted in $((SECONDS - start)) s"

# The cached clean root: debootstrap minbase, then what a user of the packages has (gst-launch,
# the base and good plugins, PyGObject, a C compiler) and the packages' larger dependencies, so a
# run downloads little; apt-get still resolves every dependency of the .deb files.
packages=(gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good python3-gi
  gir1.2-gst-plugins-base-1.0 gcc libc6-dev pkg-config libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev
  libgstreamer-plugins-bad1.0-0 libjson-glib-1.0-0)
want=$(root_want "${packages[@]}")
if ! root_ready "$base" "$want"; then
  root_lock "$base"
  t=$SECONDS
  make_root() { debootstrap --variant=minbase "$dist" "$1" "$mirror"; }
  [ -x "$base/usr/bin/apt-get" ] || echo "test-packages: debootstrap $dist into $base (once per machine)"
  root_debootstrap "$base" "$base.log" make_root || { result root FAIL; exit 1; }
  cp -L /etc/resolv.conf "$base/etc/resolv.conf"
  unshare --mount --propagation private bash -c '
    mount -t proc proc "$0/proc" && mount --bind /dev "$0/dev" && mount --bind /dev/pts "$0/dev/pts"
    chroot "$0" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive bash -c "
      printf \"path-exclude=/usr/share/man/*\npath-exclude=/usr/share/doc/*\npath-include=/usr/share/doc/*/copyright\n\" > /etc/dpkg/dpkg.cfg.d/01-nodoc
      apt-get update -qq && apt-get install -y -qq --no-install-recommends $* >/dev/null && apt-get clean"' "$base" "${packages[@]}" ||
    { result root FAIL; exit 1; }
  root_stamp "$base" "$want"
  echo "test-packages: clean $dist root ready in $((SECONDS - t)) s"
  exec 9>&-
fi

# One run: an overlay (upper layer in a temporary folder) on the cached root, the .deb files and
# the examples bind-mounted read-only; the checks print 'RESULT name OK|FAIL' lines.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/upper" "$tmp/work" "$tmp/root" "$tmp/debs"
cp "$out"/*.deb "$tmp/debs/"
rm -f "$tmp"/debs/*-dbgsym_*.deb
t=$SECONDS
unshare --mount --propagation private bash -euo pipefail -c '
  tmp=$0 base=$1 src=$2
  mount -t overlay overlay -o "lowerdir=$base,upperdir=$tmp/upper,workdir=$tmp/work" "$tmp/root"
  mount -t proc proc "$tmp/root/proc"
  mount --bind /dev "$tmp/root/dev"
  mkdir -p "$tmp/root/debs" "$tmp/root/src"
  mount --bind "$tmp/debs" "$tmp/root/debs"
  mount --bind "$src" "$tmp/root/src" && mount -o remount,bind,ro "$tmp/root/src"
  cp -L /etc/resolv.conf "$tmp/root/etc/resolv.conf"
  chroot "$tmp/root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
    DEBIAN_FRONTEND=noninteractive bash /src/tools/package-checks.sh' "$tmp" "$base" "$PWD" 2>&1 | tee "$tmp/checks.log"
while read -r _ name res; do result "$name" "$res"; done < <(grep '^RESULT ' "$tmp/checks.log")
grep -q '^RESULT ' "$tmp/checks.log" || result checks FAIL
echo "test-packages: $dist packages installed and checked in $((SECONDS - t)) s"
! grep -q '"result": "FAIL"' "$log"
