#!/bin/sh
# The pictures of docs/gallery.md and the README, made with vkfluid capture:
# every built-in scene at 640x360 (docs/gallery/SCENE.webp, one frame) and one
# animation per solver family (docs/gallery/anim-FAMILY.webp), encoded as WebP
# with cwebp and img2webp (Debian package webp). The captured PNG frames stay
# in out/gallery/ to look at.
#
#   tools/gallery.sh             every picture (about 25 minutes on lavapipe
#                                with 2 cores; the 3D scenes take most)
#   tools/gallery.sh NAME...     only these: scene names, or anim-grid,
#                                anim-height, anim-sph, anim-grid3d, blackbody
#
# Environment: VKFLUID (default build/vkfluid), GALLERY_OUT (default
# docs/gallery), GALLERY_WORK (default out/gallery).
set -eu
cd "$(dirname "$0")/.."
vkfluid=${VKFLUID:-build/vkfluid}
dest=${GALLERY_OUT:-docs/gallery}
work=${GALLERY_WORK:-out/gallery}
size=640x360
max_bytes=2000000 # an animation's limit

for tool in cwebp img2webp; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "error: $tool is missing: apt-get install webp" >&2
        exit 2
    fi
done
if [ ! -x "$vkfluid" ]; then
    echo "error: $vkfluid is missing: build first (tools/quickstart.sh), or set VKFLUID" >&2
    exit 2
fi
mkdir -p "$dest" "$work"

wanted() { # name: true when no names were given or name is one of them
    [ -z "$only" ] && return 0
    for w in $only; do [ "$w" = "$1" ] && return 0; done
    return 1
}
only="$*"

# One frame of a scene: name, frame, capture arguments. The SPH scenes at
# spacing 0.02 m (the default 0.01 m takes 20 times as long on lavapipe).
still() {
    name=$1 frame=$2
    shift 2
    wanted "$name" || return 0
    echo "gallery: $name, frame $frame $*" >&2
    "$vkfluid" capture "$name" "$@" --frames $((frame + 1)) --every "$frame" --size $size \
        --out "$work/$name" --force --quiet >/dev/null
    cwebp -quiet -q 88 -m 6 "$work/$name/frame_$(printf %05d "$frame").png" -o "$dest/$name.webp.tmp"
    mv "$dest/$name.webp.tmp" "$dest/$name.webp"
}

# An animation: name (anim-FAMILY), scene, first frame, last frame, every,
# capture arguments. Played at the simulated pace (frame_dt 1/30 s).
anim() {
    name=$1 scene=$2 first=$3 last=$4 every=$5
    shift 5
    wanted "$name" || return 0
    echo "gallery: $name: $scene frames $first..$last every $every $*" >&2
    "$vkfluid" capture "$scene" "$@" --frames $((last + 1)) --every "$every" --size $size \
        --out "$work/$name" --force --quiet >/dev/null
    delay=$((every * 1000 / 30))
    frames=""
    f=$first
    while [ "$f" -le "$last" ]; do
        frames="$frames $work/$name/frame_$(printf %05d "$f").png"
        f=$((f + every))
    done
    # shellcheck disable=SC2086 # the frame list is split on purpose
    img2webp -loop 0 -lossy -q 90 -m 6 -d "$delay" $frames -o "$dest/$name.webp.tmp" >/dev/null 2>&1
    bytes=$(wc -c <"$dest/$name.webp.tmp")
    if [ "$bytes" -gt $max_bytes ]; then
        rm -f "$dest/$name.webp.tmp"
        echo "error: $name: $bytes bytes, more than $max_bytes: use fewer frames or a lower quality" >&2
        exit 1
    fi
    mv "$dest/$name.webp.tmp" "$dest/$name.webp"
    echo "gallery: $dest/$name.webp: $bytes bytes" >&2
}

still smoke 60
still cavity 120
still channel 120
still pool 60
still boat 90
still river 60
still dam-break 40 --set spacing=0.02
still double-dam 24 --set spacing=0.02
still drop 24 --set spacing=0.015
still fountain 24 --set spacing=0.02
still smoke3d 45
still fire3d 45
still wind3d 60
still terrain 600

# the black-body chart the fire's colours come from (docs/grid3d.md, Fire)
if wanted blackbody; then
    python3 tools/fire_colors.py chart "$dest/blackbody.png"
fi

anim anim-grid smoke 0 117 3
anim anim-height boat 0 116 4
anim anim-sph dam-break 0 58 2 --set spacing=0.02
anim anim-grid3d fire3d 0 87 3 --set n=48
