#!/usr/bin/env bash
# Runs a command with the checkout, /proc and /dev bind-mounted into the Debian arm64 root made by
# tools/arm64-root.sh, in a private mount namespace (the mounts vanish with the command). With
# --chroot the command runs inside the root (arm64 programs, under qemu via binfmt, in a clean
# environment); without, it runs on the host, where tools/arm64-exec.sh (meson's exe_wrapper)
# enters the root for each arm64 test program.
# Usage: tools/arm64-run.sh [--chroot] COMMAND [ARGS...]   (CCL_ARM64_ROOT overrides the root's place)
set -euo pipefail
root=${CCL_ARM64_ROOT:-/var/cache/gst-ccl/bookworm-arm64-root}
checkout=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
inside=0
[ "${1:-}" != --chroot ] || { inside=1; shift; }
[ $# -gt 0 ] || set -- bash
[ -x "$root/usr/bin/apt-get" ] || { echo "arm64-run: no arm64 root at $root (run tools/arm64-root.sh)" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "arm64-run: needs root (mounts, chroot); CCL_SKIP_ARM64=1 skips the aarch64 target in tools/test.sh" >&2; exit 1; }

if [ -z "${CCL_ARM64_NS:-}" ]; then
  # re-run this script in a new mount namespace whose mounts do not propagate to the host
  CCL_ARM64_NS=1 CCL_ARM64_ROOT=$root exec unshare --mount --propagation private bash "${BASH_SOURCE[0]}" \
    $([ $inside = 0 ] || echo --chroot) "$@"
fi

mounted=()
cleanup() { local i; for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -l "${mounted[i]}" 2>/dev/null || true; done; }
trap cleanup EXIT
bind() {  # bind SRC DEST
  mkdir -p "$2"
  mount --bind "$1" "$2"
  mounted+=("$2")
}
mount -t proc proc "$root/proc" && mounted+=("$root/proc")
bind /dev "$root/dev"
bind /dev/pts "$root/dev/pts"
bind "$checkout" "$root$checkout"
cp -L /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true  # apt inside needs name lookups

if [ $inside = 1 ]; then
  chroot "$root" /usr/bin/env -i HOME=/root TERM="${TERM:-dumb}" LANG=C.UTF-8 \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    bash -c 'cd "$0" && exec "$@"' "$checkout" "$@"
else
  CCL_ARM64_ROOT=$root "$@"
fi
