#!/usr/bin/env python3
"""Joins PNG frames of one size and colour type (e.g. a vkfluid capture
folder's frame_*.png) into one animated PNG, without re-encoding: each frame's
image data is copied into the animation as is.

usage: tools/apng.py OUT.png FPS FRAME.png...
"""
import struct
import sys
import zlib


def chunks(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"{path}: not a PNG file")
    pos, out = 8, []
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        out.append((kind, data[pos + 8:pos + 8 + n]))
        pos += 12 + n
    return out


def chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__.strip())
    out, fps, frames = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
    if not 0 < fps <= 100:
        sys.exit(f"FPS {sys.argv[2]}: must be in (0, 100]")
    first = chunks(frames[0])
    ihdr = dict(first)[b"IHDR"]
    w, h = struct.unpack(">II", ihdr[:8])
    seq = 0
    blob = [b"\x89PNG\r\n\x1a\n", chunk(b"IHDR", ihdr), chunk(b"acTL", struct.pack(">II", len(frames), 0))]
    for i, path in enumerate(frames):
        cs = chunks(path)
        if dict(cs).get(b"IHDR") != ihdr:
            sys.exit(f"{path}: size or colour type differs from {frames[0]}")
        blob.append(chunk(b"fcTL", struct.pack(">IIIIIHHBB", seq, w, h, 0, 0, 1000, int(round(1000 / fps)), 0, 0)))
        seq += 1
        for kind, body in cs:
            if kind != b"IDAT":
                continue
            if i == 0:
                blob.append(chunk(b"IDAT", body))
            else:
                blob.append(chunk(b"fdAT", struct.pack(">I", seq) + body))
                seq += 1
    blob.append(chunk(b"IEND", b""))
    tmp = out + ".tmp"
    with open(tmp, "wb") as f:
        f.write(b"".join(blob))
    import os
    os.replace(tmp, out)


if __name__ == "__main__":
    main()
