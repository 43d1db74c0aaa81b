#!/bin/sh
# The default dam break's real-time factor from two builds, interleaved.
#
#   bench/dam_break_rtf.sh OLD_VKFLUID NEW_VKFLUID [ROUNDS] [OUTDIR]
#
# Runs `bench --scene dam-break` at the scene's default size (31 250
# particles, foam on, no rendering) with OLD at the scene's own method and
# with NEW at the method in NEW_METHOD (default pbf; "scene" for the scene's
# own), in turns, ROUNDS times (default 2). Before each run it prints the
# 1-minute load average; after each, the simulation's real-time factor
# (simulated seconds per wall second, `rtf_sim` of bench.csv). At the end:
# the median of each and their ratio. FRAMES (default 3) timed frames after
# one warm-up frame a run. Each run's files stay in OUTDIR (default
# out/dam-break-rtf)/{old,new}-ROUND. Exits 1 when a run fails.
set -eu
if [ $# -lt 2 ]; then
    echo "usage: bench/dam_break_rtf.sh OLD_VKFLUID NEW_VKFLUID [ROUNDS] [OUTDIR]" >&2
    exit 2
fi
old=$1
new=$2
rounds=${3:-2}
out=${4:-out/dam-break-rtf}
method=${NEW_METHOD:-pbf}
frames=${FRAMES:-3}
case $rounds in '' | *[!0-9]*) echo "dam_break_rtf.sh: ROUNDS: $rounds is not a whole number; give 1 to 20" >&2; exit 2 ;; esac
if [ "$rounds" -lt 1 ] || [ "$rounds" -gt 20 ]; then
    echo "dam_break_rtf.sh: ROUNDS: $rounds is out of range; give 1 to 20" >&2
    exit 2
fi
for b in "$old" "$new"; do
    if [ ! -x "$b" ]; then
        echo "dam_break_rtf.sh: $b is not an executable vkfluid" >&2
        exit 2
    fi
done
case $method in
scene) new_args="--scene dam-break" ;;
wcsph | pbf | dfsph) new_args="--solver $method" ;;
*) echo "dam_break_rtf.sh: NEW_METHOD: $method is not one of scene, wcsph, pbf, dfsph" >&2; exit 2 ;;
esac
mkdir -p "$out"

# run LABEL ROUND VKFLUID ARGS...: one bench run; prints its rtf
run() {
    label=$1 round=$2 bin=$3
    shift 3
    dir="$out/$label-$round"
    load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo "?")
    if ! "$bin" bench "$@" --sizes 31250 --render none --frames "$frames" --warmup 1 --repeat 1 \
        --out "$dir" --force --quiet >"$dir.log" 2>&1; then
        echo "dam_break_rtf.sh: $label run $round failed: see $dir.log" >&2
        exit 1
    fi
    # rtf_sim is the third column from the end of bench.csv (the device name may hold commas)
    rtf=$(awk -F, 'NR == 2 { print $(NF - 2) }' "$dir/bench.csv")
    printf '%s round %s: load %s, rtf %s\n' "$label" "$round" "$load" "$rtf"
    echo "$rtf" >>"$out/$label.rtf"
}

rm -f "$out/old.rtf" "$out/new.rtf"
echo "old: $old (the scene's method); new: $new (method $method); $frames frames a run, $rounds rounds"
r=1
while [ "$r" -le "$rounds" ]; do
    run old "$r" "$old" --scene dam-break
    # shellcheck disable=SC2086 # new_args is two words
    run new "$r" "$new" $new_args
    r=$((r + 1))
done
median() { sort -g "$1" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
mo=$(median "$out/old.rtf")
mn=$(median "$out/new.rtf")
awk -v o="$mo" -v n="$mn" 'BEGIN { printf "median rtf: old %s, new %s; new / old %.2f\n", o, n, (o > 0 ? n / o : 0) }'
