#!/usr/bin/env bash
# ccl-bench-quality refuses bad input with exit code 2 and a sentence naming what is wrong: a
# missing folder, a folder without temporalROI.txt, a temporalROI past the frames, a bad --line,
# a bad --backend, a --boxes file it cannot write. Usage: bad_input.sh BENCH (meson passes the built binary).
set -u
bench=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
expect() {  # expect "what" "message part" args...
  local what=$1 want=$2
  shift 2
  local out rc
  out=$("$bench" "$@" 2>&1)
  rc=$?
  if [ $rc -ne 2 ] || ! grep -qF -- "$want" <<<"$out"; then
    echo "FAIL $what: rc=$rc, wanted '$want' in: $out"
    fails=$((fails + 1))
  else
    echo "ok   $what: $(grep -F -- "$want" <<<"$out" | head -n1)"
  fi
}
expect "missing folder" "no such folder: $tmp/none" "$tmp/none"
mkdir -p "$tmp/seq/input" "$tmp/seq/groundtruth"
expect "no temporalROI.txt" "no temporalROI.txt" "$tmp/seq"
echo "5" >"$tmp/seq/temporalROI.txt"
expect "malformed temporalROI.txt" "temporalROI.txt: expected two frame numbers" "$tmp/seq"
echo "1 3" >"$tmp/seq/temporalROI.txt"
expect "no frames" "has no in000001.jpg" "$tmp/seq"
: >"$tmp/seq/input/in000001.jpg"
expect "temporalROI past the frames" "ends at frame 3 but input/ has frames 1..1" "$tmp/seq"
expect "bad line" "bad --line 'videoconvert'" --line videoconvert "$tmp/seq"
expect "unknown property" "bad --line 'cudaccl nosuch=1'" --line "cudaccl nosuch=1" "$tmp/seq"
expect "bad backend" "--backend must be cpu, cuda or both" --backend gpu "$tmp/seq"
expect "no folder given" "no sequence folder given" --backend cpu
expect "--boxes without a file" "--boxes needs a value" "$tmp/seq" --boxes
expect "--boxes unwritable" "cannot write --boxes file '$tmp/none/boxes.txt'" --boxes "$tmp/none/boxes.txt" "$tmp/seq"
exit $((fails > 0))
