"""Pillow's WebP and AVIF of the PNGs `blurlabel-bench formats FOLDER` wrote (look0-0.png ... look3-59.png):
bytes, share of values more than 2 levels from the PNG (premultiplied, as blurlabel compares), and
CPU time of one encode, side by side with blurlabel's table. Pillow from PyPI (its wheels bundle
libwebp and libavif), benchmark only.
    python formats_pillow.py FOLDER
"""
import io
import sys
import time

from PIL import Image

folder = sys.argv[1]
looks = ["plain 1x", "light tag s6 1x", "light tag s6 2x", "dark transparent 1x"]
settings = [("WebP q80", "WEBP", {"quality": 80, "method": 4}), ("WebP q100", "WEBP", {"quality": 100, "method": 4}),
            ("AVIF q80", "AVIF", {"quality": 80, "speed": 8}), ("AVIF q50", "AVIF", {"quality": 50, "speed": 8}),
            ("AVIF q90", "AVIF", {"quality": 90, "speed": 8})]


def premultiplied(image):
    rgba = image.convert("RGBA").tobytes()
    out = bytearray(len(rgba))
    for i in range(0, len(rgba), 4):
        a = rgba[i + 3]
        for c in range(3):
            t = rgba[i + c] * a + 128
            out[i + c] = (t + (t >> 8)) >> 8
        out[i + 3] = a
    return out


print("Pillow", Image.__version__ if hasattr(Image, "__version__") else "", "- 60 labels a look; bytes, values > 2 off, CPU ms per encode")
for index, look in enumerate(looks):
    pictures = [Image.open(f"{folder}/look{index}-{i}.png") for i in range(60)]
    for picture in pictures:
        picture.load()
    png = sum(len(open(f"{folder}/look{index}-{i}.png", "rb").read()) for i in range(60))
    print(look, f"(PNG {png} B)")
    for name, kind, options in settings:
        total, far, values, cpu = 0, 0, 0, 0.0
        for picture in pictures:
            source = picture if picture.mode in ("RGB", "RGBA") else picture.convert("RGBA")
            buffer = io.BytesIO()
            start = time.thread_time()
            source.save(buffer, kind, **options)
            cpu += time.thread_time() - start
            total += buffer.tell()
            a, b = premultiplied(source), premultiplied(Image.open(io.BytesIO(buffer.getvalue())))
            far += sum(1 for x, y in zip(a, b) if abs(x - y) > 2)
            values += len(a)
        print(f"  {name:<14} {total} B ({100 * total / png:.0f}%), {100 * far / values:.3f}% off, {1000 * cpu / 60:.2f} ms")
