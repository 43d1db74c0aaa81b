#!/bin/sh
# vkfluid quick start: installs what is missing (Debian 12), configures,
# builds, then runs the main job (no argument) or the test suite ("test").
# Idempotent, and fast when nothing changed.
#
#   tools/quickstart.sh        build, then the viewer (with a display) or a
#                              headless capture of the default scene to out/
#   tools/quickstart.sh test   build, then the whole test suite with ctest on
#                              lavapipe, then the driver matrix (lavapipe
#                              128-bit, SwiftShader, min-desktop limits)
#
# Environment: CI=true turns warnings into errors and adds the ASan/UBSan
# build's test run; VKFLUID_SANITIZE_TESTS=1 adds that run outside CI too;
# VKFLUID_NO_INSTALL=1 skips the package check.
set -eu
cd "$(dirname "$0")/.."
mode=${1:-main}
case "$mode" in
main | test) ;;
*)
    echo "error: unknown mode '$mode': use tools/quickstart.sh or tools/quickstart.sh test" >&2
    exit 2
    ;;
esac

packages="cmake make gcc g++ pkg-config glslc libvulkan-dev libvulkan-volk-dev mesa-vulkan-drivers
vulkan-validationlayers libglfw3-dev libstb-dev libcjson-dev zlib1g-dev libvkfft-dev glslang-dev xvfb xauth clang
libclang-rt-14-dev"
# SwiftShader (a second CPU Vulkan driver) for the driver matrix: test mode only
if [ "$mode" = test ]; then packages="$packages chromium-common dpkg-dev"; fi

missing=""
if [ "${VKFLUID_NO_INSTALL:-0}" != 1 ]; then
    for p in $packages; do
        if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
            missing="$missing $p"
        fi
    done
fi
if [ -n "$missing" ]; then
    echo "quickstart: installing:$missing" >&2
    if [ "$(id -u)" -eq 0 ]; then
        sudo=""
    elif command -v sudo >/dev/null 2>&1; then
        sudo="sudo"
    else
        echo "error: missing packages:$missing: run as root or install sudo" >&2
        exit 2
    fi
    if ! { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null; }; then
        echo "error: could not install:$missing (apt-get failed; the driver matrix needs chromium-common for SwiftShader)" >&2
        exit 1
    fi
fi

jobs=$(nproc 2>/dev/null || echo 2)
werror=OFF
if [ "${CI:-}" = true ]; then werror=ON; fi

configure() { # dir, extra cmake args
    dir=$1
    shift
    want="$*"
    stamp="$dir/.quickstart-args"
    if [ ! -f "$dir/CMakeCache.txt" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
        cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
        echo "$want" >"$stamp"
    fi
    if ! cmake --build "$dir" -j "$jobs" >"$dir/build.log" 2>&1; then
        cat "$dir/build.log" >&2
        echo "error: the build in $dir failed (log above, also in $dir/build.log)" >&2
        exit 1
    fi
    grep -E 'warning:|error:' "$dir/build.log" >&2 || true
}

# the SwiftShader ICD file of chromium-common, for the driver matrix (its path
# is part of the configuration, so installing it later reconfigures)
icd=""
for d in /usr/lib/chromium /usr/lib64/chromium /usr/lib/x86_64-linux-gnu/chromium; do
    if [ -f "$d/vk_swiftshader_icd.json" ]; then icd="$d/vk_swiftshader_icd.json" && break; fi
done
if [ "$mode" = test ] && [ -z "$icd" ]; then
    echo "error: SwiftShader's vk_swiftshader_icd.json is missing: install chromium-common (apt-get install chromium-common)" >&2
    exit 1
fi
if [ -n "$icd" ]; then
    configure build -DVKFLUID_WERROR=$werror -DVF_SWIFTSHADER_ICD="$icd"
else
    configure build -DVKFLUID_WERROR=$werror
fi

# The machine factor for the tests' time limits (tests/tests.cmake): how
# many runnable processes share each core now (the 1-minute load average)
# with the 2 tests ctest runs at once, at least 1 and at most 8, in percent.
timeout_percent() {
    awk -v n="$jobs" '{ f = ($1 + 2) / n; if (f < 1) f = 1; if (f > 8) f = 8; printf "%d\n", f * 100 }' /proc/loadavg 2>/dev/null ||
        echo 100
}

if [ "$mode" = test ]; then
    export VKFLUID_VALIDATION=1
    status=0
    percent=$(timeout_percent)
    echo "quickstart: test time limits at ${percent}% (load average $(cut -d' ' -f1 /proc/loadavg 2>/dev/null) on $jobs cores)" >&2
    cmake -S . -B build -DVF_TEST_TIMEOUT_PERCENT="$percent" >/dev/null
    ctest --test-dir build --output-on-failure -j 2 -LE matrix || status=$?
    echo "quickstart: the driver matrix: lavapipe 128-bit, SwiftShader, lavapipe with min-desktop limits (ctest -L matrix)" >&2
    start=$(date +%s)
    ctest --test-dir build --output-on-failure -j 2 -L matrix || status=$?
    echo "quickstart: the driver matrix took $(($(date +%s) - start)) s" >&2
    if [ "${CI:-}" = true ] || [ "${VKFLUID_SANITIZE_TESTS:-0}" = 1 ]; then
        # the lighter set: the long physics runs left to the plain suite,
        # each test's environment from tests/tests.cmake (VF_TEST_ENV: no
        # validation layer, one lavapipe worker, test_drivers at one step per
        # scene); leaks are errors, but for the named ones inside the Vulkan
        # drivers
        echo "quickstart: the test suite again under AddressSanitizer, LeakSanitizer and UndefinedBehaviorSanitizer" >&2
        configure build-asan -DVKFLUID_WERROR=$werror -DVKFLUID_SANITIZE=ON
        cmake -S . -B build-asan -DVF_TEST_TIMEOUT_PERCENT="$(timeout_percent)" >/dev/null
        ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
            LSAN_OPTIONS="suppressions=$(pwd)/tools/lsan.supp:print_suppressions=0" \
            UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
            ctest --test-dir build-asan --output-on-failure -j 2 -LE 'matrix|sanitizer-light' || status=$?
    fi
    exit $status
fi

# The main job: the viewer with a display, else a headless capture of the
# default scene (about 40 s on lavapipe with 2 cores, well under a second on a GPU).
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && [ -x build/vkfluid-view ]; then
    exec build/vkfluid view
fi
build/vkfluid devices
build/vkfluid capture smoke --frames 24 --every 4 --size 640x360 --out out/smoke --force
echo "quickstart: no display, so the default scene was captured headless: frames in out/smoke/ (frame_*.png, capture.json)"
