#!/bin/sh
# Soaks: each solver family runs for a fixed wall-clock time with periodic
# state checks, all in parallel, and the results go to
# bench/results/soak-DRIVER-DATE.md.
#
# usage: bench/soak.sh [SECONDS]        (default 1800)
# environment:
#   VK_DRIVER_FILES  the Vulkan driver's ICD json to soak (default: the loader's
#                    choice, see vkfluid devices)
#   VKFLUID          the binary (default build/vkfluid)
#   SOAK_DIR         where the runs export (default out/soak)
# Run from the source folder. Exit 0 when every run ended without a failed
# check, 1 otherwise.
set -u
secs=${1:-1800}
bin=${VKFLUID:-build/vkfluid}
dir=${SOAK_DIR:-out/soak}
[ -x "$bin" ] || { echo "error: $bin not found: build first (cmake --build build)" >&2; exit 2; }
line=$("$bin" devices --json 2>/dev/null | grep '"default": true' | head -n 1)
driver=$(printf '%s' "$line" | sed -n 's/.*"driver": *"\([^"]*\)".*/\1/p')
device=$(printf '%s' "$line" | sed -n 's/.*"name": *"\([^"]*\)".*/\1/p')
[ -n "$driver" ] || driver=unknown
date=$(date -u +%Y-%m-%d)
slug=$(printf '%s' "$driver" | tr 'A-Z' 'a-z' | tr -c 'a-z0-9\n' '-')
report=bench/results/soak-$slug-$date.md
mkdir -p "$dir" bench/results

# name | arguments (the scene, its size, the check interval)
set -- \
    "smoke|smoke --set grid.n=64 --check-every 100" \
    "dam-break|dam-break --set sph.spacing=0.04 --check-every 20" \
    "pool|pool --check-every 300"

pids=""
for entry in "$@"; do
    name=${entry%%|*}
    args=${entry#*|}
    rm -rf "$dir/$name"
    # shellcheck disable=SC2086
    nice -n 19 "$bin" run $args --time 1e9 --wall "$secs" --export "$dir/$name" --quiet \
        >"$dir/$name.log" 2>&1 &
    pids="$pids $!"
done
status=0
i=0
for pid in $pids; do
    i=$((i + 1))
    wait "$pid"
    rc=$?
    eval "rc_$i=$rc"
    [ "$rc" -eq 0 ] || status=1
done

field() { sed -n "s/^  \"$2\": *\([^,]*\),*$/\1/p" "$1" | head -n 1; }
{
    echo "# Soaks of $secs s per solver on $driver ($device)"
    echo
    echo "\`bench/soak.sh $secs\`: \`vkfluid run SCENE --time 1e9 --wall $secs --check-every N --export DIR\`, the"
    echo "three runs in parallel at nice 19 on a shared machine, $(date -u +%Y-%m-%dT%H:%MZ)."
    echo
    echo "| scene | arguments | exit | frames | steps | simulated s | wall s | last line |"
    echo "|---|---|---|---|---|---|---|---|"
    i=0
    for entry in "$@"; do
        i=$((i + 1))
        name=${entry%%|*}
        args=${entry#*|}
        eval "rc=\$rc_$i"
        s="$dir/$name/summary.json"
        if [ -f "$s" ]; then
            fr=$(field "$s" frames); st=$(field "$s" steps)
            sim=$(field "$s" simulated_time); wall=$(field "$s" wall_seconds)
        else
            fr=-; st=-; sim=-; wall=-
        fi
        last=$(grep -v '^  ' "$dir/$name.log" | tail -n 1 | tr '|' '/')
        echo "| $name | \`$args\` | $rc | $fr | $st | $sim | $wall | $last |"
    done
    echo
    echo "Exit 0: every periodic check (finite values, invariants) passed; 1: a check failed (the log holds the line)."
} >"$report"
echo "wrote $report"
exit $status
