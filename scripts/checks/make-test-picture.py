#!/usr/bin/env python3
"""Writes a screenshot-like PNG made only by this script (Python's standard library, a fixed
seed): the same bytes on every machine and Python 3, and independent of the blurlabel under test,
so two builds are measured (scripts/checks/instruction-counts) and compared
(scripts/checks/output-bytes) on the same input. A title bar, rows of glyph-like marks in a few
colours, coloured panels, a smooth gradient (the part a blur changes least) and, with --alpha, a
translucent band (RGBA: the straight-alpha paths).

    make-test-picture.py WIDTH HEIGHT OUT.png [--alpha]
"""
import random
import struct
import sys
import zlib


def png(width, height, rgba, channels):
    """The pixels as a PNG: 8-bit RGB or RGBA, filter 0 on every row, zlib level 6."""
    stride = width * channels
    raw = bytearray()
    for y in range(height):
        raw.append(0)
        raw += rgba[y * stride:(y + 1) * stride]

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    colour_type = 6 if channels == 4 else 2
    header = struct.pack(">IIBBBBB", width, height, 8, colour_type, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(bytes(raw), 6))
            + chunk(b"IEND", b""))


def picture(width, height, alpha):
    rng = random.Random(20261203)
    channels = 4 if alpha else 3
    canvas = bytearray(bytes((245, 246, 248, 255)[:channels]) * (width * height))

    def fill(x, y, w, h, colour):
        x0, y0, x1, y1 = max(0, x), max(0, y), min(width, x + w), min(height, y + h)
        if x1 <= x0 or y1 <= y0:
            return
        run = bytes(colour[:channels]) * (x1 - x0)
        for row in range(y0, y1):
            start = (row * width + x0) * channels
            canvas[start:start + len(run)] = run

    def dot(x, y, colour):
        if 0 <= x < width and 0 <= y < height:
            start = (y * width + x) * channels
            canvas[start:start + channels] = bytes(colour[:channels])

    # A gradient panel in the lower right quarter: one row made, copied down.
    gx, gy, gw, gh = width // 2, height // 2, width - width // 2, height - height // 2
    for row in range(gh):
        line = bytearray()
        for column in range(gw):
            line += bytes((40 + 180 * column // max(1, gw), 90 + 120 * row // max(1, gh), 200, 255)[:channels])
        start = ((gy + row) * width + gx) * channels
        canvas[start:start + len(line)] = line
    # Coloured panels.
    for _ in range(max(1, width * height // 170_000)):
        x, y = rng.randrange(width), rng.randrange(height)
        fill(x, y, rng.randint(20, max(21, width // 6)), rng.randint(10, max(11, height // 6)),
             (rng.randrange(256), rng.randrange(256), rng.randrange(256), 255))
    # A title bar, then rows of "words": marks from 40 random 5x9 glyphs, 1 px apart.
    fill(0, 0, width, max(1, height // 22), (36, 41, 47, 255))
    glyphs = [[(gx_, gy_) for gy_ in range(9) for gx_ in range(5) if rng.random() < 0.45] for _ in range(40)]
    inks = [(30, 30, 30, 255), (20, 60, 160, 255), (180, 40, 40, 255)]
    for y in range(height // 22 + 8, height - 10, 22):
        x = 12 + rng.randrange(40)
        ink = inks[rng.randrange(len(inks))]
        while x < width - 20 and rng.random() < 0.97:
            for _ in range(rng.randint(2, 9)):
                for px, py in glyphs[rng.randrange(len(glyphs))]:
                    dot(x + px, y + py, ink)
                x += 6
            x += 8
    if alpha:   # a translucent band across the middle, and one fully transparent stripe
        for row in range(height * 2 // 5, height * 3 // 5):
            for column in range(0, width):
                canvas[(row * width + column) * 4 + 3] = 96 + (column * 64 // width)
        fill(0, height // 2, width, max(1, height // 40), (0, 0, 0, 0))
    return canvas, channels


def main():
    args = sys.argv[1:]
    alpha = "--alpha" in args
    args = [a for a in args if a != "--alpha"]
    if len(args) != 3 or not args[0].isdigit() or not args[1].isdigit() or int(args[0]) < 1 or int(args[1]) < 1:
        sys.exit("usage: make-test-picture.py WIDTH HEIGHT OUT.png [--alpha]")
    width, height, out = int(args[0]), int(args[1]), args[2]
    canvas, channels = picture(width, height, alpha)
    with open(out, "wb") as f:
        f.write(png(width, height, canvas, channels))


if __name__ == "__main__":
    main()
