#!/usr/bin/env bash
# Lets this x86-64 machine run arm64 programs, in a chroot too: qemu-user-static registered with
# binfmt_misc with the F flag (the kernel opens the emulator once, so it need not exist inside the
# arm64 root). Safe to run again; needs root. Used by tools/arm64-root.sh and tools/test-arm64.sh.
set -euo pipefail
reg=/proc/sys/fs/binfmt_misc
entry=$reg/qemu-aarch64
if [ -f "$entry" ] && grep -q '^flags: .*F' "$entry" && grep -q '^enabled' "$entry" &&
   [ -x "$(sed -n 's/^interpreter //p' "$entry")" ]; then
  exit 0
fi
[ "$(id -u)" -eq 0 ] || { echo "arm64-binfmt: registering qemu-aarch64 needs root" >&2; exit 1; }
[ -f "$reg/register" ] || mount -t binfmt_misc binfmt_misc "$reg"
qemu=/usr/bin/qemu-aarch64-static
if [ ! -x "$qemu" ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends qemu-user-static >/dev/null
fi
[ ! -f "$entry" ] || echo -1 > "$entry"  # one without F (qemu-user-binfmt's) cannot run in a chroot
# the ELF header of an aarch64 executable (EM_AARCH64 = 0xb7); P keeps argv[0], F pins the emulator
printf '%s' ":qemu-aarch64:M:0:\\x7f\\x45\\x4c\\x46\\x02\\x01\\x01\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x02\\x00\\xb7\\x00:\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\x00\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\xfe\\xff\\xff\\xff:$qemu:PF" > "$reg/register"
grep -q '^enabled' "$entry" || { echo "arm64-binfmt: qemu-aarch64 did not register" >&2; exit 1; }
