#!/usr/bin/env bash
# The checks of tools/test-packages.sh, run inside the clean root (the .deb files in /debs, the
# checkout read-only in /src): installs the packages with apt-get, then prints 'RESULT NAME OK|FAIL'
# per check. Expected values are the README's: five elements; the demo scene has components.
set -uo pipefail
check() {  # check NAME COMMAND...: runs it, prints its result line
  local name=$1; shift
  echo "--- $name"
  if "$@"; then echo "RESULT $name OK"; else echo "RESULT $name FAIL"; fi
}
install_debs() {
  apt-get install -y -qq --no-install-recommends /debs/*.deb >/tmp/apt.log 2>&1 || { cat /tmp/apt.log; return 1; }
  dpkg-query -W gstreamer1.0-ccl libgstcclmeta-1.0-1 libgstcclmeta-1.0-dev gir1.2-gstccl-1.0
}
elements() {  # every element of the plugin, and no other
  local e features
  for e in cudaccl ccltracker ccloverlay cclblobsrc cclanalytics; do
    gst-inspect-1.0 "$e" >/dev/null || { echo "gst-inspect-1.0 does not find $e"; return 1; }
  done
  features=$(gst-inspect-1.0 ccl | grep -E '^ *\+-- [0-9]+ elements')
  echo "gst-inspect-1.0 ccl: $features"
  echo "$features" | grep -q -- '+-- 5 elements'
}
demo() {  # the README's first pipeline (tools/demo.sh), its components printed
  gst-launch-1.0 -m cclblobsrc num-buffers=1 ! cudaccl threshold=128 post-messages=true ! \
    videoconvert ! video/x-raw,format=RGBA ! ccloverlay ! pngenc ! filesink location=/tmp/demo.png \
    > /tmp/demo.log 2>&1 || { cat /tmp/demo.log; return 1; }
  python3 /src/tools/print-components.py < /tmp/demo.log | tee /tmp/demo.txt
  grep -qE '^frame 1 .*: [1-9][0-9]* components reported' /tmp/demo.txt &&
    [ "$(head -c 4 /tmp/demo.png | tail -c 3)" = PNG ]
}
example_c() {  # built with nothing but the installed pkg-config file, as an application would
  gcc /src/examples/read_ccl_meta.c -o /tmp/read_ccl_meta $(pkg-config --cflags --libs gstreamer-ccl-1.0) &&
    /tmp/read_ccl_meta "cclblobsrc num-buffers=3 ! cudaccl threshold=128 ! videoconvert ! ccloverlay ! fakesink name=sink" |
    tee /tmp/example-c.txt && grep -q '^  label ' /tmp/example-c.txt
}
example_python() {  # the installed typelib: the Python example prints what the C example prints
  python3 /src/examples/compare_examples.py /tmp/read_ccl_meta /usr/bin/python3 /src/examples/read_ccl.py \
    "cclblobsrc num-buffers=2 ! cudaccl threshold=128 post-messages=true ! fakesink name=sink"
}
check install install_debs
check elements elements
check demo demo
check example-c example_c
check example-python example_python
