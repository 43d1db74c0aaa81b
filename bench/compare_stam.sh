#!/bin/sh
# Runs the single-threaded C Stam 2003 baseline (bench/stam_baseline.c) and
# vkfluid interleaved at 128^2, 256^2 and 512^2: vkfluid at the settings
# closest to the baseline (bench/stam_closest.json) and at the smoke scene's
# defaults. Prints steps per second (vkfluid: substeps per second of
# `vkfluid bench`, simulation only), the decimal digits of divergence each
# projection removes, and their product (digits per second), with the
# machine's load before each group. Read the ratios, not the times, on a
# shared machine.
#
# usage: bench/compare_stam.sh [BUILD_DIR [REPEATS [SIZES]]]
#   BUILD_DIR  where vkfluid was built (default build)
#   REPEATS    interleaved repeats per size (default 2)
#   SIZES      cells per side (default "128 256 512")
set -eu
build=${1:-build}
reps=${2:-2}
sizes=${3:-"128 256 512"}
here=$(dirname "$0")
vk="$build/vkfluid"
[ -x "$vk" ] || { echo "compare_stam.sh: no $vk: build vkfluid first (or give BUILD_DIR)" >&2; exit 2; }
cc -O2 -std=c11 -o "$build/stam_baseline" "$here/stam_baseline.c" -lm
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# the JSON value of KEY (first occurrence) in FILE
jv() { python3 -c 'import json,sys
d=json.load(open(sys.argv[1]))
def find(o,k):
    if isinstance(o,dict):
        if k in o: return o[k]
        for v in o.values():
            r=find(v,k)
            if r is not None: return r
    if isinstance(o,list):
        for v in o:
            r=find(v,k)
            if r is not None: return r
    return None
print(find(d,sys.argv[2]))' "$1" "$2"; }

# vkfluid: substeps/s from bench, digits of divergence per projection from run
vkf() { # label n frames [--scene FILE]
    label=$1 n=$2 frames=$3
    shift 3
    if [ $# -gt 0 ]; then
        "$vk" bench --scene "$2" --sizes "$n" --render none --frames "$frames" --warmup 1 --repeat 1 --out "$tmp/b" --force --quiet >/dev/null
        "$vk" run --scene "$2" --set n="$n" --steps 2 --export "$tmp/r" --force --quiet >/dev/null
    else
        "$vk" bench --solver grid --sizes "$n" --render none --frames "$frames" --warmup 1 --repeat 1 --out "$tmp/b" --force --quiet >/dev/null
        "$vk" run smoke --set n="$n" --steps 2 --export "$tmp/r" --force --quiet >/dev/null
    fi
    sps=$(jv "$tmp/b/bench.json" steps_per_second)
    before=$(jv "$tmp/r/summary.json" divergence_before_projection_rms)
    after=$(jv "$tmp/r/summary.json" final_divergence_l2)
    python3 -c 'import math,sys
sps,b,a=map(float,sys.argv[2:5])
d=math.log10(b/a) if a>0 and b>0 else 0.0
print("%-9s n=%s steps_per_s=%.3f div_before_rms=%.4g div_after_rms=%.4g digits_per_step=%.3f digits_per_s=%.3f"%(sys.argv[1],sys.argv[5],sps,b,a,d,d*sps))' "$label" "$sps" "$before" "$after" "$n"
}

echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(nproc) cores; $(uname -sr)"
for n in $sizes; do
    case $n in
        128) bsteps=40 frames=3 ;;
        256) bsteps=12 frames=2 ;;
        *) bsteps=4 frames=1 ;;
    esac
    r=1
    while [ "$r" -le "$reps" ]; do
        echo "# n=$n repeat $r, load: $(cut -d' ' -f1-3 /proc/loadavg)"
        "$build/stam_baseline" "$n" "$bsteps"
        vkf closest "$n" "$frames" --scene "$here/stam_closest.json"
        vkf defaults "$n" "$frames"
        r=$((r + 1))
    done
done
