#!/usr/bin/env bash
# Runs a command inside the Debian trixie root (GStreamer 1.26) made by tools/trixie-root.sh, in the
# checkout, which is bind-mounted at the same path so build-1.26/ holds valid paths on both sides.
# Also mounts /proc, /dev and (read-only) /usr/local/cuda. The mounts live in a private mount
# namespace (unshare), so they vanish with the command even if it is killed; the trap unmounts too.
# Usage: tools/trixie-run.sh COMMAND [ARGS...]   (CCL_TRIXIE_ROOT overrides the root's place)
set -euo pipefail
root=${CCL_TRIXIE_ROOT:-/var/cache/gst-ccl/trixie-root}
checkout=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
[ -x "$root/usr/bin/apt-get" ] || { echo "trixie-run: no trixie root at $root (run tools/trixie-root.sh)" >&2; exit 1; }
[ $# -gt 0 ] || set -- bash
[ "$(id -u)" -eq 0 ] || { echo "trixie-run: needs root (mounts, chroot); CCL_SKIP_126=1 skips the 1.26 target in tools/test.sh" >&2; exit 1; }

if [ -z "${CCL_TRIXIE_NS:-}" ]; then
  # re-run this script in a new mount namespace whose mounts do not propagate to the host
  CCL_TRIXIE_NS=1 exec unshare --mount --propagation private bash "${BASH_SOURCE[0]}" "$@"
fi

mounted=()
cleanup() { local i; for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -l "${mounted[i]}" 2>/dev/null || true; done; }
trap cleanup EXIT
bind() {  # bind SRC DEST [ro]
  mkdir -p "$2"
  mount --bind "$1" "$2"
  mounted+=("$2")
  [ "${3:-}" != ro ] || mount -o remount,bind,ro "$2"
}
mount -t proc proc "$root/proc" && mounted+=("$root/proc")
bind /dev "$root/dev"
bind /dev/pts "$root/dev/pts"
bind "$checkout" "$root$checkout"
[ ! -d /usr/local/cuda/ ] || bind "$(readlink -f /usr/local/cuda)" "$root/usr/local/cuda" ro
cp -L /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true  # apt inside needs name lookups

# a clean environment: the host's PATH/LD_LIBRARY_PATH etc. do not belong in the root
chroot "$root" /usr/bin/env -i HOME=/root TERM="${TERM:-dumb}" LANG=C.UTF-8 CI="${CI:-}" \
  PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  bash -c 'cd "$0" && exec "$@"' "$checkout" "$@"
