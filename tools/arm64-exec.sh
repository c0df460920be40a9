#!/bin/sh
# meson's exe_wrapper for the aarch64 target (tools/test-arm64.sh): runs one arm64 program inside
# the arm64 root, in the same directory and environment (GST_PLUGIN_PATH etc. point into the
# checkout, which tools/arm64-run.sh has bind-mounted at the same path); binfmt runs it under qemu.
root=${CCL_ARM64_ROOT:-/var/cache/gst-ccl/bookworm-arm64-root}
exec chroot "$root" /bin/sh -c 'cd "$0" && exec "$@"' "$PWD" "$@"
