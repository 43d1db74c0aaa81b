#!/bin/sh
# Shows that two vkfluid binaries produce the same outputs: for every built-in
# scene, `run --export` (fields, particles, surface meshes) and `capture` of
# every view the scene's solver offers, compared byte for byte. summary.json
# and capture.json are compared with their wall-clock entries removed
# (wall_seconds, ms_per_frame, gpu_ms_per_frame, frame_wall_ms), which differ
# from run to run.
#
#   tools/same_outputs.sh OLD_VKFLUID NEW_VKFLUID [WORKDIR]
#
# Exits 0 when every output is identical, 1 when any differs (each difference
# is listed), 2 on bad usage. Set SCENES="smoke pool" to check only some.
set -eu

usage() { echo "usage: tools/same_outputs.sh OLD_VKFLUID NEW_VKFLUID [WORKDIR]" >&2; exit 2; }
[ $# -ge 2 ] && [ $# -le 3 ] || usage
old=$1 new=$2
for b in "$old" "$new"; do
  [ -x "$b" ] || { echo "same_outputs: $b is not an executable (build vkfluid first)" >&2; exit 2; }
done
work=${3:-$(mktemp -d "${TMPDIR:-/tmp}/vkfluid-same.XXXXXX")}
mkdir -p "$work"
command -v python3 >/dev/null || { echo "same_outputs: python3 is needed to compare the JSON files" >&2; exit 2; }

scenes=${SCENES:-$("$new" scenes | awk '{print $1}')}

# Frames per family: enough that every pass runs (sph scenes take hundreds of
# substeps per frame), small enough to finish in minutes on a CPU driver.
frames_for() {
  case $1 in
    sph) echo 1 ;;
    grid3d) echo 2 ;;
    *) echo 4 ;;
  esac
}

# Views of a family, from the capture help's "views" list.
views_for() {
  "$new" capture --help 2>&1 | sed -n '/^views/,/^renderer keys/p' |
    awk -v fam="$1" '$1 == fam && NF > 1 { for (i = 2; i <= NF; i++) { gsub(",", "", $i); print $i } }'
}

json_same() {
  python3 - "$1" "$2" <<'EOF'
import json, sys
DROP = {"wall_seconds", "ms_per_frame", "gpu_ms_per_frame", "frame_wall_ms"}
def clean(v):
    if isinstance(v, dict):
        return {k: clean(x) for k, x in v.items() if k not in DROP}
    if isinstance(v, list):
        return [clean(x) for x in v]
    return v
a, b = (clean(json.load(open(p))) for p in sys.argv[1:3])
sys.exit(0 if a == b else 1)
EOF
}

differ=0
compare_dirs() { # label dirA dirB
  label=$1 a=$2 b=$3
  la=$(cd "$a" && find . -type f | sort) lb=$(cd "$b" && find . -type f | sort)
  if [ "$la" != "$lb" ]; then
    echo "DIFFER $label: file lists differ"; differ=1; return
  fi
  n=0
  for f in $la; do
    n=$((n + 1))
    case $f in
      *.json) json_same "$a/$f" "$b/$f" || { echo "DIFFER $label: $f"; differ=1; } ;;
      *) cmp -s "$a/$f" "$b/$f" || { echo "DIFFER $label: $f"; differ=1; } ;;
    esac
  done
  echo "same   $label ($n files)"
}

for s in $scenes; do
  fam=$("$new" scenes | awk -v s="$s" '$1 == s {print $2}')
  [ -n "$fam" ] || { echo "same_outputs: unknown scene $s" >&2; exit 2; }
  fr=$(frames_for "$fam")
  for which in old new; do
    eval bin=\$$which
    rm -rf "$work/$which/$s"
    mkdir -p "$work/$which/$s"
    extra=
    [ "$fam" = sph ] && extra=--export-mesh
    "$bin" run "$s" --steps "$fr" --export "$work/$which/$s/run" $extra --quiet >/dev/null
  done
  compare_dirs "$s run" "$work/old/$s/run" "$work/new/$s/run"
  for v in $(views_for "$fam"); do
    for which in old new; do
      eval bin=\$$which
      "$bin" capture "$s" --frames "$fr" --size 160x90 --render "$v" \
        --out "$work/$which/$s/capture-$v" --quiet >/dev/null
    done
    compare_dirs "$s capture $v" "$work/old/$s/capture-$v" "$work/new/$s/capture-$v"
  done
done

if [ $differ -ne 0 ]; then
  echo "outputs differ (kept in $work)"
  exit 1
fi
echo "all outputs identical ($work)"
