#!/usr/bin/env bash
# The test command: installs what is missing, builds, runs every test (GPU tests skip with
# exit 77 where no CUDA device is usable) and ends with a line 'N passed, N failed, N skipped'.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash tools/bootstrap.sh || exit 1
meson test -C build --print-errorlogs --num-processes 2
status=$?
python3 - build/meson-logs/testlog.json <<'PY'
import json, sys
counts = {"OK": 0, "FAIL": 0, "SKIP": 0}
for line in open(sys.argv[1]):
    r = json.loads(line)["result"]
    counts["OK" if r in ("OK", "EXPECTEDFAIL") else "SKIP" if r == "SKIP" else "FAIL"] += 1
print(f"{counts['OK']} passed, {counts['FAIL']} failed, {counts['SKIP']} skipped")
PY
exit $status
