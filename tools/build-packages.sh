#!/usr/bin/env bash
# Builds the Debian packages (debian/: gstreamer1.0-ccl, libgstcclmeta-1.0-1, libgstcclmeta-1.0-dev,
# gir1.2-gstccl-1.0) with `dpkg-buildpackage -b -us -uc` from a copy of the working tree, then runs
# lintian on them (errors fail; warnings are printed). bookworm (GStreamer 1.22) builds on this
# machine; trixie (1.26) inside the trixie root of tools/trixie-root.sh. The .deb files land in
# build-deb/DIST/. Usage: tools/build-packages.sh bookworm|trixie   (needs root to install build-deps)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
dist=${1:?usage: tools/build-packages.sh bookworm|trixie}
out=build-deb/$dist
rm -rf "$out"
mkdir -p "$out/src"
# the working tree as git sees it (tracked and new files, no build folders)
version=$(dpkg-parsechangelog -l debian/changelog -S Version)
src=$out/src/gst-ccl-$version
mkdir -p "$src"
git ls-files -z --cached --others --exclude-standard | xargs -0 -I{} sh -c '[ -e "{}" ] && echo "{}"' |
  tar -cf - -T - | tar -xf - -C "$src"

build='
  set -euo pipefail
  export DEBIAN_FRONTEND=noninteractive
  # the Build-Depends of debian/control, as apt would resolve them
  missing=$(cd "$1" && dpkg-checkbuilddeps 2>&1 | sed -n "s/.*Unmet build dependencies: //p")
  if [ -n "$missing" ]; then
    echo "build-packages: installing build dependencies: $missing"
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends $(echo "$missing" | sed "s/([^)]*)//g; s/|[^,]*//g; s/,/ /g") >/dev/null
  fi
  (cd "$1" && dpkg-buildpackage -b -us -uc > ../build.log 2>&1) || { tail -n 40 "$1/../build.log"; exit 1; }
  cd "$1/.."
  ls *.deb
  # errors fail the build; warnings and the rest are listed
  lintian --tag-display-limit 0 --fail-on error *.changes | tee lintian.log
'
start=$SECONDS
case $dist in
  bookworm)
    for tool in dpkg-buildpackage lintian dh; do command -v $tool >/dev/null || {
      apt-get update -qq; DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends dpkg-dev debhelper lintian >/dev/null; break; }; done
    bash -c "$build" _ "$src" ;;
  trixie)
    bash tools/trixie-root.sh
    bash tools/trixie-run.sh bash -c "$build" _ "$src" ;;
  *) echo "build-packages: unknown distribution $dist (bookworm or trixie)" >&2; exit 1 ;;
esac
mv "$out"/src/*.deb "$out"/
echo "build-packages: $dist packages in $out (built in $((SECONDS - start)) s)"
