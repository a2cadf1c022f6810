#!/usr/bin/env python3
"""Writes the PNG decoder's test fixtures with pypng (a well-known independent encoder), and
beside each one the pixels the decoder must produce: premultiplied RGBA8, as .rgba raw bytes.

    pip install pypng && python3 scripts/make_png_fixtures.py
"""
import os, struct, zlib
import png

OUT = os.path.join(os.path.dirname(__file__), "..", "Tests", "BlurredLabelKitTests", "Fixtures", "png")
W, H = 7, 5  # odd sizes exercise packing and Adam7's partial passes



def rounded_premultiply(c, a):
    t = c * a + 128
    return (t + (t >> 8)) >> 8


def to8(v, depth):
    if depth == 16:
        return (v * 255 + 32767) // 65535
    return v * 255 // ((1 << depth) - 1)


def write(name, rows, expected, **kw):
    with open(os.path.join(OUT, name + ".png"), "wb") as f:
        png.Writer(W, H, **kw).write(f, rows)
    with open(os.path.join(OUT, name + ".rgba"), "wb") as f:
        for r, g, b, a in expected:
            f.write(bytes([rounded_premultiply(r, a), rounded_premultiply(g, a), rounded_premultiply(b, a), a]))


def value(x, y, k, maxv):
    return ((x * 37 + y * 91 + k * 53) * 2654435761 >> 7) % (maxv + 1)


def main():
    os.makedirs(OUT, exist_ok=True)
    for depth in (1, 2, 4, 8, 16):
        for interlace in (False, True):
            m = (1 << depth) - 1
            rows = [[value(x, y, 0, m) for x in range(W)] for y in range(H)]
            exp = [(to8(v, depth),) * 3 + (255,) for row in rows for v in row]
            write(f"grey{depth}{'-adam7' if interlace else ''}", rows, exp, greyscale=True, bitdepth=depth, interlace=interlace)
    for depth in (8, 16):
        m = (1 << depth) - 1
        rows = [[value(x, y, k, m) for x in range(W) for k in range(2)] for y in range(H)]
        exp = [(to8(r[2 * x], depth),) * 3 + (to8(r[2 * x + 1], depth),) for r in rows for x in range(W)]
        write(f"greyalpha{depth}", rows, exp, greyscale=True, alpha=True, bitdepth=depth)
        for alpha in (False, True):
            n = 4 if alpha else 3
            rows = [[value(x, y, k, m) for x in range(W) for k in range(n)] for y in range(H)]
            exp = [tuple(to8(r[n * x + k], depth) for k in range(3)) + ((to8(r[n * x + 3], depth),) if alpha else (255,))
                   for r in rows for x in range(W)]
            write(f"{'rgba' if alpha else 'rgb'}{depth}", rows, exp, greyscale=False, alpha=alpha, bitdepth=depth)
            write(f"{'rgba' if alpha else 'rgb'}{depth}-adam7", rows, exp, greyscale=False, alpha=alpha, bitdepth=depth, interlace=True)
    for depth in (1, 2, 4, 8):
        for trns in (False, True):
            count = min(1 << depth, 6)
            palette = [(value(i, 0, 0, 255), value(i, 1, 1, 255), value(i, 2, 2, 255)) + ((value(i, 3, 3, 255),) if trns else ())
                       for i in range(count)]
            rows = [[value(x, y, 0, count - 1) for x in range(W)] for y in range(H)]
            exp = [tuple(palette[v][:3]) + ((palette[v][3],) if trns else (255,)) for row in rows for v in row]
            write(f"palette{depth}{'-trns' if trns else ''}", rows, exp, palette=palette, bitdepth=depth)


if __name__ == "__main__":
    main()
