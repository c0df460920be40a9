#!/usr/bin/env bash
# NVR scale: N parallel chains `filesrc ! h264parse ! DECODER ! ... ! fakesink` in one gst-launch-1.0
# process per configuration and N, aggregate frames/s in steady state and the ratio to decode alone.
# Configurations: decode only; + cudaccl (GstCclMeta only) ! ccltracker; the default outputs with a
# queue between the elements. Steady state: every run is made twice, on the clip repeated R1 and R2
# times (concatenated byte-streams), t = gst-launch's "Execution ended after" (PLAYING to EOS), and
#   fps = N * frames * (R2 - R1) / (t2 - t1),
# so start-up, the first frames and the drain cancel out. Before timing, one chain of the R2 clip is
# counted frame by frame: the decoder must give every frame of the concatenation.
# Usage (repo root, GST_PLUGIN_PATH at the plugin): bench/streams/streams.sh [options]
#   --decoder NAME      H.264 decoder (nvh264dec; avdec_h264 or openh264dec to try it on a CPU)
#   --dec-caps CAPS     caps after the decoder (nvh264dec: video/x-raw(memory:CUDAMemory), so every
#                       configuration keeps the frames on the GPU; others: video/x-raw)
#   --ccl-props PROPS   more cudaccl properties, e.g. backend=cpu
#   --streams "N..."    (1 8 32 64)      --repeats "R1 R2"  (1 4)
#   --configs "..."     of decode meta queues analytics (all; analytics = queues + cclanalytics with
#                       examples/daylight_rules.json: a door line and a zone with dwell and overcrowding)
#   --clip FILE         (bench/streams/daylight-1080p.h264, made by make_clip.sh)
set -euo pipefail
decoder=nvh264dec dec_caps='' ccl_props='' streams="1 8 32 64" repeats="1 4" configs="decode meta queues analytics"
rules=examples/daylight_rules.json
clip=bench/streams/daylight-1080p.h264
while [ $# -gt 0 ]; do
  case "$1" in
    --decoder) decoder=$2 ;; --dec-caps) dec_caps=$2 ;; --ccl-props) ccl_props=$2 ;;
    --streams) streams=$2 ;; --repeats) repeats=$2 ;; --configs) configs=$2 ;; --clip) clip=$2 ;;
    *) echo "streams.sh: unknown option $1 (see the header of $0)" >&2; exit 2 ;;
  esac
  shift 2
done
[ -n "$dec_caps" ] || { [ "$decoder" = nvh264dec ] && dec_caps="video/x-raw(memory:CUDAMemory)" || dec_caps=video/x-raw; }
read -r r1 r2 <<< "$repeats"
[ "${r2:-0}" -gt "${r1:-0}" ] || { echo "streams.sh: --repeats needs R1 < R2, got '$repeats'" >&2; exit 2; }
[ -f "$clip" ] || { echo "streams.sh: no clip $clip (bench/streams/make_clip.sh makes it)" >&2; exit 2; }
for e in "$decoder" h264parse cudaccl ccltracker cclanalytics; do
  gst-inspect-1.0 "$e" > /dev/null 2>&1 || { echo "streams.sh: element $e not found (GST_PLUGIN_PATH?)" >&2; exit 2; }
done
# GstCclMeta only: the other outputs off (attach-analytics-meta exists on GStreamer >= 1.24 builds).
meta_only="attach-roi-meta=false"
gst-inspect-1.0 cudaccl 2>/dev/null | grep -q "attach-analytics-meta" && meta_only+=" attach-analytics-meta=false"
ccl="cudaccl foreground=motion open=1 min-area=50 $ccl_props"

for c in $configs; do
  case "$c" in decode | meta | queues | analytics) ;; *) echo "streams.sh: unknown configuration $c (decode, meta, queues, analytics)" >&2; exit 2 ;; esac
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for r in "$r1" "$r2"; do
  for _ in $(seq "$r"); do cat "$clip"; done > "$tmp/x$r.h264"
done

# The elements after the decoder, for configuration $1.
tail_of() {
  case "$1" in
    decode) echo "fakesink" ;;
    meta) echo "$ccl $meta_only ! ccltracker ! fakesink" ;;
    queues) echo "queue ! $ccl ! queue ! ccltracker ! queue ! fakesink" ;;
    analytics) echo "queue ! $ccl ! queue ! ccltracker ! cclanalytics rules-file=$rules ! queue ! fakesink" ;;
  esac
}

# Seconds from PLAYING to EOS of N chains of configuration $2 on the clip repeated $3 times.
run() {
  local n=$1 config=$2 r=$3 desc="" out
  for _ in $(seq "$n"); do
    desc+=" filesrc location=$tmp/x$r.h264 ! h264parse ! $decoder ! $dec_caps ! $(tail_of "$config")"
  done
  # shellcheck disable=SC2086  # the description is word-split into gst-launch arguments on purpose
  if ! out=$(timeout 300 gst-launch-1.0 $desc 2>&1); then
    echo "streams.sh: N=$n $config x$r failed:" >&2; echo "$out" | tail -5 >&2; exit 1
  fi
  echo "$out" | sed -n 's/^Execution ended after \([0-9]*\):\([0-9]*\):\([0-9.]*\)$/\1 \2 \3/p' |
    awk '{ printf "%.6f\n", $1 * 3600 + $2 * 60 + $3 }'
}

# Frames one chain gives on the clip repeated $1 times (fakesink's "chain" lines under -v).
count() {
  # shellcheck disable=SC2086
  timeout 300 gst-launch-1.0 -v filesrc location="$tmp/x$1.h264" ! h264parse ! "$decoder" ! $dec_caps ! \
    fakesink silent=false 2>&1 | grep -c "last-message = chain" || true
}
short=$(count "$r1")
long=$(count "$r2")
frames=$((short / r1))
if [ "$frames" -eq 0 ] || [ "$short" -ne $((frames * r1)) ] || [ "$long" -ne $((frames * r2)) ]; then
  echo "streams.sh: $r1 and $r2 copies of the clip decoded to $short and $long frames: the timing would be wrong" >&2
  exit 1
fi

echo "# $(date -u +%FT%TZ) $clip: $frames frames/chain, runs of x$r1 and x$r2; decoder $decoder ! $dec_caps"
echo "# meta:   $ccl $meta_only ! ccltracker"
echo "# queues: queue ! $ccl ! queue ! ccltracker ! queue"
echo "# analytics: queue ! $ccl ! queue ! ccltracker ! cclanalytics rules-file=$rules ! queue"
printf "%-4s" N
for c in $configs; do printf " %24s" "$c fps (ratio)"; done
echo
runs=''
for n in $streams; do
  printf "%-4s" "$n"
  base=
  for c in $configs; do
    t1=$(run "$n" "$c" "$r1")
    t2=$(run "$n" "$c" "$r2")
    fps=$(awk -v n="$n" -v f="$frames" -v a="$r1" -v b="$r2" -v t1="$t1" -v t2="$t2" \
          'BEGIN { d = t2 - t1; if (d <= 0) print "nan"; else printf "%.0f", n * f * (b - a) / d }')
    runs+="# N=$n $c: x$r1 ${t1}s, x$r2 ${t2}s -> $fps fps"$'\n'
    [ "$c" = decode ] && base=$fps
    if [ -n "$base" ] && [ "$c" != decode ] && [ "$fps" != nan ] && [ "$base" != nan ]; then
      printf " %24s" "$fps ($(awk -v a="$fps" -v b="$base" 'BEGIN { printf "%.2f", a / b }'))"
    else
      printf " %24s" "$fps"
    fi
  done
  echo
done
printf "%s" "$runs"  # the timings behind each figure
