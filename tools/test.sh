#!/usr/bin/env bash
# The test command: installs what is missing, builds, runs every test (GPU tests skip with
# exit 77 where no CUDA device is usable), then runs the CPU-path tests (core, element, fuzz
# corpus, reliability) again in an AddressSanitizer + UndefinedBehaviorSanitizer build, and the
# element and reliability tests under valgrind memcheck, then the CPU-path suites on GStreamer 1.26
# in a Debian trixie root (tools/test-126.sh; CCL_SKIP_126=1 skips that outside CI), the CPU suites
# on aarch64 (tools/test-arm64.sh; CCL_SKIP_ARM64=1) and the Debian packages of bookworm and trixie
# (tools/test-packages.sh; CCL_SKIP_PACKAGES=1). Ends with a line 'N passed, N failed, N skipped'
# over the meson runs of all targets.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash tools/bootstrap.sh --test || exit 1

t=$SECONDS
meson test -C build --print-errorlogs --num-processes 2
status=$?
echo "main meson run: done in $((SECONDS - t)) s (exit $status)"  # each stage's time, to keep CI under an hour

# Sanitized CPU build (detect_leaks=0: GLib and GStreamer keep type registrations until exit); the plugin loads in-process (no plugin scanner without ASan) from a fresh registry.
if [ ! -f build-asan/build.ninja ]; then
  # no typelib here: g-ir-scanner's dump program does not run under the sanitizers
  meson setup build-asan -Dcuda=disabled -Dbench=disabled -Dintrospection=disabled -Db_sanitize=address,undefined -Db_lundef=false >/dev/null || exit 1
fi
[ "$(meson introspect --buildoptions build-asan | python3 -c 'import json,sys; print([o["value"] for o in json.load(sys.stdin) if o["name"] == "introspection"])')" = "['disabled']" ] ||
  meson configure build-asan -Dintrospection=disabled >/dev/null  # a build-asan made before the option
t=$SECONDS
ninja -C build-asan >/dev/null || exit 1
rm -f build-asan/test-registry.bin
GST_REGISTRY_FORK=no ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  meson test -C build-asan --print-errorlogs --num-processes 2 --suite core --suite element --suite fuzz --suite reliability
asan_status=$?
echo "sanitized build and run: done in $((SECONDS - t)) s (exit $asan_status)"

# valgrind memcheck (bootstrap installs it) on the element tests (invalid accesses, uninitialised values)
# and the reliability tests (also definite leaks), reusing the first run's registry so no plugin is
# scanned under valgrind; the 16384x16384 frame and most NULL-PLAYING-NULL cycles are left to the
# runs above.
vg_status=0
if command -v valgrind >/dev/null; then
  t=$SECONDS
  vg="valgrind -q --error-exitcode=1 --suppressions=/usr/share/glib-2.0/valgrind/glib.supp --suppressions=tests/reliability/valgrind.supp"
  export GST_REGISTRY_FORK=no GST_PLUGIN_PATH=$PWD/build/gst GST_REGISTRY=$PWD/build/test-registry.bin CCL_UNDER_VALGRIND=1
  $vg --leak-check=no build/tests/element/ccl-test-element --gtest_brief=1 \
    > build/meson-logs/valgrind-element.log 2>&1 || vg_status=1
  CCL_LIFECYCLE_CYCLES=100 $vg --leak-check=full --show-leak-kinds=definite --errors-for-leak-kinds=definite \
    build/tests/reliability/ccl-test-reliability --gtest_brief=1 --gtest_filter=-BadInput.Largest16384x16384 \
    > build/meson-logs/valgrind-reliability.log 2>&1 || vg_status=1
  unset GST_REGISTRY_FORK GST_PLUGIN_PATH GST_REGISTRY CCL_UNDER_VALGRIND
  echo "valgrind runs: done in $((SECONDS - t)) s (exit $vg_status)"
  [ $vg_status -eq 0 ] || tail -n 40 build/meson-logs/valgrind-element.log build/meson-logs/valgrind-reliability.log
fi

# The further targets, each required in CI; elsewhere its CCL_SKIP_* variable (=1) leaves it out:
# GStreamer 1.26 in a Debian trixie root (tools/test-126.sh), aarch64 (a cross build tested under
# qemu in a Debian arm64 root, tools/test-arm64.sh) and the Debian packages of bookworm and trixie
# installed in clean roots (tools/test-packages.sh). Their results (meson's testlog.json format)
# count in the closing line; one that fails before writing any counts as one failed test.
extra_status=0 extra_failed=0 extra_logs=()
target() {  # target TITLE SKIP_VARIABLE LOG COMMAND...
  local title=$1 skip=$2 log=$3 rc=0 t=$SECONDS
  shift 3
  if [ "${!skip:-0}" = 1 ] && [ "${CI:-}" != true ]; then
    echo "$title: skipped ($skip=1)"
    return
  fi
  echo "$title:"
  rm -f "$log"  # a stale log must not count as this run's results
  "$@" || rc=$?
  echo "$title: done in $((SECONDS - t)) s (exit $rc)"
  [ $rc -eq 0 ] || extra_status=1
  if [ -s "$log" ]; then
    extra_logs+=("$log")
  else
    extra_failed=$((extra_failed + 1))
    echo "$title: FAILED before its tests ran (see above; $skip=1 skips it outside CI)"
  fi
}
target "GStreamer 1.26 target (Debian trixie root, tools/test-126.sh)" CCL_SKIP_126 build-1.26/meson-logs/testlog.json \
  bash tools/test-126.sh
target "aarch64 target (cross build, tests under qemu in a Debian arm64 root, tools/test-arm64.sh)" CCL_SKIP_ARM64 \
  build-arm64/meson-logs/testlog.json bash tools/test-arm64.sh
for dist in bookworm trixie; do
  target "Debian packages for $dist (tools/test-packages.sh $dist)" CCL_SKIP_PACKAGES build-deb/$dist/testlog.json \
    bash tools/test-packages.sh $dist
done

if command -v valgrind >/dev/null; then
  [ $vg_status -eq 0 ] && echo "valgrind memcheck: clean" || echo "valgrind memcheck: FAILED (build/meson-logs/valgrind-*.log)"
fi
# the closing line counts the meson tests of all runs (1.22, 1.22 sanitized, the further targets),
# the valgrind run as one test and each further target that failed before its tests as one
vg_result=$(command -v valgrind >/dev/null && { [ $vg_status -eq 0 ] && echo OK || echo FAIL; } || echo SKIP)
python3 - "$vg_result" "$extra_failed" build/meson-logs/testlog.json build-asan/meson-logs/testlog.json "${extra_logs[@]}" <<'PY'
import json, sys
counts = {"OK": 0, "FAIL": int(sys.argv[2]), "SKIP": 0}
counts[sys.argv[1]] += 1
for path in sys.argv[3:]:
    for line in open(path):
        r = json.loads(line)["result"]
        counts["OK" if r in ("OK", "EXPECTEDFAIL") else "SKIP" if r == "SKIP" else "FAIL"] += 1
print(f"{counts['OK']} passed, {counts['FAIL']} failed, {counts['SKIP']} skipped")
PY
[ $status -eq 0 ] && [ $asan_status -eq 0 ] && [ $vg_status -eq 0 ] && [ $extra_status -eq 0 ]
