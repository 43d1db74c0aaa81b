#!/usr/bin/env python3
"""The fire's reference picture and the check against it.

  tools/fire_colors.py chart OUT.png
      the black-body colour chart of shaders/shared_volume.h (the table the
      volume view's fire uses), 1000 K to 3000 K left to right, each colour
      at its brightest (largest component 1), sRGB
  tools/fire_colors.py match FRAME.png
      for a frame of fire3d: in every tenth row of the flame (rows with a
      pixel whose red exceeds its blue by 60 levels: the glow, not the grey
      smoke or floor), the pixel where red leads blue the most and the
      chart's temperature whose colour is nearest to its glow (the pixel less
      the row's background, in linear sRGB) (in the chromaticity r/(r+g+b), g/(r+g+b) of linear sRGB), from the
      flame's top to its bottom; a pixel with two channels at 255 is only
      called overexposed (its colour is the clipping's, not the flame's)

Plain Python (zlib): reads and writes 8-bit RGB or RGBA PNGs.
"""
import os
import re
import struct
import sys
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))


def table():
    text = open(os.path.join(HERE, "..", "shaders", "shared_volume.h")).read()
    return [(float(k), float(r), float(g), float(b))
            for k, r, g, b in re.findall(r"X\((\d+), ([\d.]+), ([\d.]+), ([\d.]+)\)", text)]


def color_at(rows, kelvin):
    for (k0, *c0), (k1, *c1) in zip(rows, rows[1:]):
        if k0 <= kelvin <= k1:
            t = (kelvin - k0) / (k1 - k0)
            return [a + t * (b - a) for a, b in zip(c0, c1)]
    return rows[-1][1:]


def to_srgb(v):
    v = max(0.0, min(1.0, v))
    return 12.92 * v if v <= 0.0031308 else 1.055 * v ** (1 / 2.4) - 0.055


def to_linear(s):
    return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4


def write_png(path, w, h, rgb_rows):
    raw = b"".join(b"\0" + bytes(row) for row in rgb_rows)

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
    data += chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
    open(path + ".tmp", "wb").write(data)
    os.replace(path + ".tmp", path)


def read_png(path):
    data = open(path, "rb").read()
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            if depth != 8 or ctype not in (2, 6):
                sys.exit(f"{path}: only 8-bit RGB or RGBA")
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw, stride, rows, prev = zlib.decompress(idat), w * bpp, [], bytearray(w * bpp)
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * bpp:x * bpp + 3]) for x in range(w)])
        prev = line
    return w, h, rows


def chroma(rgb):
    s = sum(rgb) or 1.0
    return rgb[0] / s, rgb[1] / s


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("chart", "match"):
        sys.exit(__doc__.strip())
    rows = table()
    if sys.argv[1] == "chart":
        w, h = 640, 48
        line = []
        for x in range(w):
            c = color_at(rows, 1000 + 2000 * x / (w - 1))
            m = max(c)
            line += [round(255 * to_srgb(v / m)) for v in c]
        write_png(sys.argv[2], w, h, [line] * h)
        return
    w, h, img = read_png(sys.argv[2])
    luma = [[0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2] for p in row] for row in img]
    background = sorted(v for row in luma for v in row)[len(luma) * w // 2]
    chart = [(k, chroma(color_at(rows, k))) for k in range(800, 4001, 25)]
    print(f"{sys.argv[2]}: background luma {background:.0f}; the glow's pixel per row, top to bottom:")
    for y in range(0, h, 10):
        # the row's pixel where red leads blue the most: the glow, not the grey smoke or floor
        x = max(range(w), key=lambda i: img[y][i][0] - img[y][i][2])
        if img[y][x][0] - img[y][x][2] < 60:
            continue
        if 255 in img[y][x]:
            clipped = [v for v in img[y][x] if v < 255]
            if len(clipped) < 2:
                print(f"  row {y:3d}: sRGB {img[y][x]}: overexposed")
                continue
        # the glow alone: the pixel less the row's background (the median of
        # its left tenth, linear), which the thin flame adds its light to
        left = sorted(img[y][:max(1, w // 10)], key=sum)[max(1, w // 10) // 2]
        lin = [max(to_linear(v / 255) - to_linear(b / 255), 0.0) for v, b in zip(img[y][x], left)]
        r, g = chroma(lin)
        k, _ = min(chart, key=lambda e: (e[1][0] - r) ** 2 + (e[1][1] - g) ** 2)
        print(f"  row {y:3d}: sRGB {img[y][x]} -> nearest on the chart {k} K{' (red clipped)' if 255 in img[y][x] else ''}")


if __name__ == "__main__":
    main()
