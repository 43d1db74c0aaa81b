#!/bin/sh
# vkfluid GPU check: on a machine with a GPU, no network and no display, in
# one go (within about 8 minutes on an H100-class GPU):
#   1. configure (build-gpu/, Release, warnings as errors; an existing build
#      folder keeps its configuration) and build
#   2. vkfluid devices
#   3. the render paths: the dam break (pbf) with 1048576 particles at
#      1920x1080 on the compute and on the raster path (bench with --model,
#      and a captured frame of each compared by PSNR), and the height field's
#      surface and the 3D grid's volume ray march at 1920x1080
#   4. the SPH real-time sweep: the dam break with pbf, wcsph and dfsph (one
#      bench each, a third of the sweep's time each) at 65536, 262144, 1048576
#      and 4194304 particles, screen-space fluids at 1920x1080, and the
#      roofline model's predictions (--model)
#   5. the test suite without the tests that need a display (ctest -LE matrix,
#      minus test_viewer and test_replay)
# and writes bench/results/<device>-<date>-gpu-check.txt (the log: devices,
# every report with the predictions, the test summary and the failures'
# output, timings; written as it goes to ...-gpu-check.txt.partial, renamed at
# the end), <device>-<date>-sph-realtime-<solver>.{csv,json,svg,md} and
# <device>-<date>-render-{paths-compute,paths-raster,others}.json.
#
#   tools/gpu-check.sh [--help]
#
# Environment (for a trial run on a CPU device, e.g. lavapipe, with small
# sizes; the defaults are the GPU run):
#   VKFLUID_CHECK_SIZES    particle counts (default 65536,262144,1048576,4194304)
#   VKFLUID_CHECK_RENDER   render size (default 1920x1080)
#   VKFLUID_CHECK_FRAMES   timed frames per size (default 5; 2 warm-up frames first)
#   VKFLUID_CHECK_TESTS    ctest -R regex of the tests to run (default: all
#                          without a display); "none" skips the tests
#   VKFLUID_CHECK_DEVICE   bench --device INDEX|NAME (default: the first GPU)
#   VKFLUID_CHECK_BUILD    build folder (default build-gpu; an existing one, e.g.
#                          build, is built as it is configured)
#   VKFLUID_CHECK_PREBUILT 1: use the build folder as it is, without building
#                          (a build copied from a machine with the same Debian
#                          libraries and the same source path, for a machine
#                          without cmake or glslc)
#   VKFLUID_CHECK_PATHS_N  particles of the render-path step (default 1048576;
#                          0 skips the step)
#   VKFLUID_CHECK_JOBS     build and test jobs (default: nproc)
#   VKFLUID_CHECK_TEST_S   seconds the tests may take (default 150)
#   VKFLUID_CHECK_SWEEP_S  seconds the sweep may take (default 250)
#   VKFLUID_CHECK_PATHS_S  seconds the render-path step may take (default 90)
#   VKFLUID_CHECK_HEIGHT_N height field cells per side in step 3 (default 1024)
#   VKFLUID_CHECK_GRID3D_N 3D grid n in step 3 (default 128: n x 2n x n cells)
# Exit status: 0 when every step passed, 1 when a step failed (the results
# written so far are kept), 2 for a bad setting.
set -u
cd "$(dirname "$0")/.."

case "${1:-}" in
-h | --help)
    sed -n '2,48p' "$0" | sed 's/^# \{0,1\}//'
    exit 0
    ;;
"") ;;
*)
    echo "error: unknown argument '$1': tools/gpu-check.sh takes no arguments (see --help)" >&2
    exit 2
    ;;
esac

sizes=${VKFLUID_CHECK_SIZES:-65536,262144,1048576,4194304}
render=${VKFLUID_CHECK_RENDER:-1920x1080}
frames=${VKFLUID_CHECK_FRAMES:-5}
tests=${VKFLUID_CHECK_TESTS:-}
device=${VKFLUID_CHECK_DEVICE:-}
build=${VKFLUID_CHECK_BUILD:-build-gpu}
jobs=${VKFLUID_CHECK_JOBS:-$(nproc 2>/dev/null || echo 4)}
test_s=${VKFLUID_CHECK_TEST_S:-150}
sweep_s=${VKFLUID_CHECK_SWEEP_S:-250}
paths_s=${VKFLUID_CHECK_PATHS_S:-90}
paths_n=${VKFLUID_CHECK_PATHS_N:-1048576}
prebuilt=${VKFLUID_CHECK_PREBUILT:-0}
height_n=${VKFLUID_CHECK_HEIGHT_N:-1024}
grid3d_n=${VKFLUID_CHECK_GRID3D_N:-128}

bad() {
    echo "error: $1=$2: $3" >&2
    exit 2
}
echo "$sizes" | grep -Eq '^[1-9][0-9]*(,[1-9][0-9]*)*$' ||
    bad VKFLUID_CHECK_SIZES "$sizes" "give comma-separated particle counts, e.g. 4096,16384"
echo "$render" | grep -Eq '^[1-9][0-9]*x[1-9][0-9]*$' || bad VKFLUID_CHECK_RENDER "$render" "give WxH, e.g. 1920x1080"
echo "$frames" | grep -Eq '^[1-9][0-9]{0,3}$' || bad VKFLUID_CHECK_FRAMES "$frames" "give 1 to 9999 frames"
echo "$jobs" | grep -Eq '^[1-9][0-9]{0,2}$' || bad VKFLUID_CHECK_JOBS "$jobs" "give 1 to 999 jobs"
echo "$test_s" | grep -Eq '^[1-9][0-9]{0,4}$' || bad VKFLUID_CHECK_TEST_S "$test_s" "give 1 to 99999 seconds"
echo "$sweep_s" | grep -Eq '^[1-9][0-9]{0,4}$' || bad VKFLUID_CHECK_SWEEP_S "$sweep_s" "give 1 to 99999 seconds"
echo "$paths_s" | grep -Eq '^[1-9][0-9]{0,4}$' || bad VKFLUID_CHECK_PATHS_S "$paths_s" "give 1 to 99999 seconds"
echo "$paths_n" | grep -Eq '^(0|[1-9][0-9]{0,8})$' || bad VKFLUID_CHECK_PATHS_N "$paths_n" "give 0 to 999999999 particles"
echo "$height_n" | grep -Eq '^[1-9][0-9]{0,4}$' || bad VKFLUID_CHECK_HEIGHT_N "$height_n" "give 1 to 99999 cells"
echo "$grid3d_n" | grep -Eq '^[1-9][0-9]{0,3}$' || bad VKFLUID_CHECK_GRID3D_N "$grid3d_n" "give 1 to 9999 cells"
case "$prebuilt" in 0 | 1) ;; *) bad VKFLUID_CHECK_PREBUILT "$prebuilt" "give 0 or 1" ;; esac
if [ "$prebuilt" = 1 ]; then
    [ -x "$build/vkfluid" ] || bad VKFLUID_CHECK_PREBUILT 1 "$build/vkfluid is missing: build first or set VKFLUID_CHECK_BUILD"
fi
[ "$prebuilt" = 1 ] || for tool in cmake glslc; do
    command -v "$tool" >/dev/null 2>&1 || {
        echo "error: $tool is missing: install the packages tools/quickstart.sh lists (on a machine with a network)" >&2
        exit 2
    }
done

start=$(date +%s)
elapsed() { echo $(($(date +%s) - start)); }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
status=0
# the log: in a temporary file until the device is known, then in
# bench/results/<device>-<date>-gpu-check.txt.partial, which is renamed to
# .txt at the end (a run stopped from outside leaves the .partial)
log=$out/log
say() { echo "$*" | tee -a "$log"; }

say "== build ($build, $jobs jobs) at $(elapsed) s"
configured=true
if [ "$prebuilt" = 1 ]; then
    say "prebuilt: $build used as it is"
else
    if [ ! -f "$build/CMakeCache.txt" ]; then
        cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DVKFLUID_WERROR=ON >"$out/build.log" 2>&1 || configured=false
    fi
    if $configured && cmake --build "$build" -j "$jobs" >>"$out/build.log" 2>&1; then
        say "built in $(elapsed) s"
    else
        tail -n 30 "$out/build.log" >&2
        echo "error: the build failed (above: the end of its log)" >&2
        exit 1
    fi
fi
vkfluid=$build/vkfluid

say "== devices at $(elapsed) s"
"$vkfluid" devices >"$out/devices.txt" 2>&1 || status=1
cat "$out/devices.txt" | tee -a "$log"
# bench/results/<device>-<date>-*: the device the runs use (--device, else the default, marked *)
if [ -n "$device" ]; then
    name=$(sed -n "s/^[* ] $device: //p" "$out/devices.txt" | head -n 1)
    [ -n "$name" ] || name=$(sed -n 's/^[* ] [0-9]*: //p' "$out/devices.txt" | grep -i -F -- "$device" | head -n 1)
else
    name=$(sed -n 's/^\* [0-9]*: //p' "$out/devices.txt" | head -n 1)
fi
slug=$(printf '%s' "${name:-unknown}" | tr 'A-Z' 'a-z' | sed 's/[^a-z0-9]\{1,\}/-/g; s/^-//; s/-$//')
base="bench/results/$slug-$(date -u +%Y-%m-%d)"
cp "$log" "$base-gpu-check.txt.partial" && log=$base-gpu-check.txt.partial
written=""
# keep DIR/FILE as $base-NAME (whole or not at all); NAME's earlier copy goes first
keep() {
    rm -f "$base-$2"
    if [ -f "$1" ]; then
        cp "$1" "$base-$2.tmp" && mv "$base-$2.tmp" "$base-$2" && written="$written $base-$2"
    fi
}
with_device() { if [ -n "$device" ]; then echo --device "$device"; fi; }

# 1. the render paths, first: short, and independent of the solvers' speed
# (pbf: 2 substeps a frame), with the other families' renders at that size
if [ "$paths_n" != 0 ]; then
    say "== render paths at $(elapsed) s: dam break (pbf) with $paths_n particles at $render"
    pend=$(($(date +%s) + paths_s))
    left() { r=$((pend - $(date +%s))); if [ $r -gt 0 ]; then echo $r; else echo 1; fi; }
    for p in compute raster; do
        say "-- bench, $p path"
        timeout "$(left)" "$vkfluid" bench --solver pbf --sizes "$paths_n" --render "$render" --frames 3 \
            --warmup 1 --repeat 1 --render-path $p --model bench/models --out "$out/paths-$p" --force \
            $(with_device) >"$out/paths-$p.txt" 2>&1 || status=1
        grep -v '^bench \[' "$out/paths-$p.txt" >>"$log"
        keep "$out/paths-$p/bench.json" "render-paths-$p.json"
        timeout "$(left)" "$vkfluid" capture dam-break --set method=pbf --set "particles=$paths_n" \
            --size "$render" --frames 2 --render-path $p --out "$out/cap-$p" --force --quiet \
            $(with_device) >>"$log" 2>&1 || status=1
    done
    last=$(ls "$out/cap-compute" 2>/dev/null | grep '^frame_.*\.png$' | tail -n 1)
    if [ -n "$last" ] && [ -f "$out/cap-raster/$last" ]; then
        say "-- compare $last: compute path against raster path"
        "$vkfluid" compare "$out/cap-compute/$last" "$out/cap-raster/$last" 2>&1 | tee -a "$log"
    else
        say "the captures of the two paths are missing"
        status=1
    fi
    say "-- height $height_n (surface) and grid3d $grid3d_n (volume ray march) at $render"
    timeout "$(left)" "$vkfluid" bench --solver height,grid3d --sizes "height=$height_n" --sizes "grid3d=$grid3d_n" \
        --render "$render" --frames 3 --warmup 1 --repeat 1 --out "$out/others" --force \
        $(with_device) >"$out/others.txt" 2>&1 || status=1
    grep -v '^bench \[' "$out/others.txt" >>"$log"
    keep "$out/others/bench.json" "render-others.json"
fi

# 2. the sweep, one bench per solver (pbf, the real-time one, first), each
# with a third of the time, so that a slow solver leaves the others' results
for solver in pbf wcsph dfsph; do
    say "== sweep at $(elapsed) s: $solver at $sizes, render $render, $frames frames"
    timeout "$((sweep_s / 3))" "$vkfluid" bench --solver $solver --sizes "$sizes" --render "$render" \
        --frames "$frames" --warmup 2 --repeat 1 --model bench/models --out "$out/bench-$solver" --force \
        $(with_device) >"$out/bench-$solver.txt" 2>"$out/bench-$solver.err"
    rc=$?
    if [ $rc -eq 124 ]; then say "$solver: stopped after $((sweep_s / 3)) s (VKFLUID_CHECK_SWEEP_S / 3)"; fi
    if [ $rc -ne 0 ]; then
        status=1
        grep -v '^bench \[' "$out/bench-$solver.err" | tail -n 5 | tee -a "$log" >&2
        grep '^bench \[' "$out/bench-$solver.err" | tail -n 1 | tr '\r' '\n' | tail -n 1 | tee -a "$log"
    fi
    cat "$out/bench-$solver.txt" >>"$log"
    for ext in csv json svg md; do
        src="$out/bench-$solver/bench.$ext"
        [ "$ext" = md ] && src="$out/bench-$solver/table.md"
        keep "$src" "sph-realtime-$solver.$ext"
    done
done

# 3. the tests, last: those still running at the limit are stopped
if [ "$tests" != none ]; then
    say "== tests without a display at $(elapsed) s"
    if [ -n "$tests" ]; then
        set -- -R "$tests"
    else
        set -- -E '^(test_viewer|test_replay)$'
    fi
    timeout "$test_s" ctest --test-dir "$build" -LE matrix "$@" -j "$jobs" --output-on-failure \
        >"$out/tests.log" 2>&1
    rc=$?
    if [ $rc -eq 124 ]; then say "the tests were stopped after $test_s s (VKFLUID_CHECK_TEST_S)"; fi
    if [ $rc -ne 0 ]; then
        status=1
        grep -E 'tests passed|Test +#|Total Test time|\*\*\*' "$out/tests.log" | tee -a "$log"
        say "-- the failures' output"
        cat "$out/tests.log" >>"$log"
    else
        grep -E 'tests passed|Test +#|Total Test time|\*\*\*' "$out/tests.log" | tee -a "$log"
    fi
fi

say "== done in $(elapsed) s, status $status"
mv "$log" "$base-gpu-check.txt"
echo "wrote$written $base-gpu-check.txt"
exit $status
