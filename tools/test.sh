#!/usr/bin/env bash
# The test command: installs what is missing, builds, runs every test (GPU tests skip with
# exit 77 where no CUDA device is usable), then runs the CPU-path tests (core, element, fuzz
# corpus) again in an AddressSanitizer + UndefinedBehaviorSanitizer build. Ends with a line
# 'N passed, N failed, N skipped' over both runs.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash tools/bootstrap.sh || exit 1

meson test -C build --print-errorlogs --num-processes 2
status=$?

# Sanitized CPU build (detect_leaks=0: GLib and GStreamer keep type registrations until exit); the plugin loads in-process (no plugin scanner without ASan) from a fresh registry.
if [ ! -f build-asan/build.ninja ]; then
  meson setup build-asan -Dcuda=disabled -Dbench=disabled -Db_sanitize=address,undefined -Db_lundef=false >/dev/null || exit 1
fi
ninja -C build-asan >/dev/null || exit 1
rm -f build-asan/test-registry.bin
GST_REGISTRY_FORK=no ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  meson test -C build-asan --print-errorlogs --num-processes 2 --suite core --suite element --suite fuzz
asan_status=$?

python3 - build/meson-logs/testlog.json build-asan/meson-logs/testlog.json <<'PY'
import json, sys
counts = {"OK": 0, "FAIL": 0, "SKIP": 0}
for path in sys.argv[1:]:
    for line in open(path):
        r = json.loads(line)["result"]
        counts["OK" if r in ("OK", "EXPECTEDFAIL") else "SKIP" if r == "SKIP" else "FAIL"] += 1
print(f"{counts['OK']} passed, {counts['FAIL']} failed, {counts['SKIP']} skipped")
PY
[ $status -eq 0 ] && [ $asan_status -eq 0 ]
