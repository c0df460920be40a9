# Sourced by the scripts that keep a cached Debian root outside the clone (trixie-root.sh,
# arm64-root.sh, test-packages.sh). A root is complete when its stamp holds the hash of its package
# list (a changed list installs the rest); it is made under a lock, so two clones testing at once
# on one machine make it once.

# The hash of the package list "$@", as a complete root's stamp holds it.
root_want() { printf '%s\n' "$@" | sha256sum | cut -d' ' -f1; }

# root_ready ROOT WANT: true when ROOT's stamp says WANT.
root_ready() { [ "$(cat "$1/.gst-ccl-stamp" 2>/dev/null)" = "$2" ]; }

# root_stamp ROOT WANT: marks ROOT complete.
root_stamp() { echo "$2" > "$1/.gst-ccl-stamp"; }

# root_lock ROOT: holds ROOT's lock on file descriptor 9 until the script ends (or closes 9).
root_lock() {
  mkdir -p "$(dirname "$1")"
  exec 9>"$1.lock"
  flock 9
}

# root_debootstrap ROOT LOG MAKE: unless ROOT has apt-get already, runs MAKE (a command or function
# given the folder to fill) into ROOT.partial with its output in LOG, then moves it to ROOT. A
# debootstrap cut short leaves a root that cannot be resumed: each try starts from nothing.
root_debootstrap() {
  local root=$1 log=$2 make=$3
  [ ! -x "$root/usr/bin/apt-get" ] || return 0
  command -v debootstrap >/dev/null || {
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >/dev/null; }
  rm -rf "$root.partial"
  "$make" "$root.partial" > "$log" 2>&1 || { tail -n 20 "$log" >&2; return 1; }
  mv "$root.partial" "$root"
}
