#!/usr/bin/env python3
"""Region redaction benchmark: a 1920x1080 screenshot-like PNG with five regions blurred at
sigma 8, end to end (read the PNG, blur the regions, write the PNG), blurlabel's `redact` command
against Pillow doing the same crop-blur-paste; and one full-frame secure region (no peer). blurlabel is timed as a whole command (process
start included); Pillow in-process (its start-up not included). Run with Benchmarks/run-redact.
"""
import argparse, os, random, subprocess, sys, tempfile, time
from PIL import Image, ImageDraw, ImageFilter, ImageFont

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")
RECTS = [(40, 20, 600, 60), (900, 300, 400, 200), (100, 700, 800, 120), (1500, 50, 380, 900), (700, 950, 500, 100)]


def screenshot(path):
    random.seed(3)
    im = Image.new("RGB", (1920, 1080), (245, 246, 248))
    d = ImageDraw.Draw(im)
    font = ImageFont.truetype(os.path.join(ROOT, "Fonts", "DejaVuSans.ttf"), 18)
    d.rectangle([0, 0, 1920, 48], fill=(36, 41, 47))
    for y in range(70, 1060, 28):
        d.text((40 + random.randint(0, 60), y), " ".join("".join(random.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(random.randint(3, 9))) for _ in range(random.randint(4, 16))), font=font, fill=(30, 30, 30))
    for _ in range(12):
        x, y = random.randint(0, 1700), random.randint(60, 900)
        d.rectangle([x, y, x + random.randint(80, 300), y + random.randint(40, 160)], fill=tuple(random.randint(0, 255) for _ in range(3)))
    im.save(path)


def pillow(src, dst):
    im = Image.open(src)
    im.load()
    for x, y, w, h in RECTS:
        box = (x, y, x + w, y + h)
        im.paste(im.crop(box).filter(ImageFilter.GaussianBlur(8)), box)
    im.save(dst)


def best(fn, repeats):
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter(); fn(); times.append(time.perf_counter() - t0)
    return min(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--blurlabel", default=os.path.join(ROOT, ".build", "ship", "bin", "blurlabel"))
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "screenshot.png")
        screenshot(src)
        rects = [a for x, y, w, h in RECTS for a in ("--rect", f"{x},{y},{w},{h}")]
        ours = best(lambda: subprocess.run([args.blurlabel, "redact", src, *rects, "--radius", "8", "-o", os.path.join(tmp, "ours.png")],
                                           check=True, capture_output=True), args.repeats)
        secure = best(lambda: subprocess.run([args.blurlabel, "redact", src, "--rect", "0,0,1920,1080:secure", "--radius", "8", "-o", os.path.join(tmp, "secure.png")],
                                             check=True, capture_output=True), args.repeats)
        theirs = best(lambda: pillow(src, os.path.join(tmp, "pillow.png")), args.repeats)
        print(f"1920x1080 screenshot, 5 regions, sigma 8, end to end (PNG in, PNG out), best of {args.repeats}")
        print(f"{'blurlabel redact (whole command)':36} {ours * 1000:8.1f} ms  {os.path.getsize(os.path.join(tmp, 'ours.png')):9d} bytes")
        print(f"{'Pillow crop-blur-paste (in-process)':36} {theirs * 1000:8.1f} ms  {os.path.getsize(os.path.join(tmp, 'pillow.png')):9d} bytes")
        print(f"blurlabel time / Pillow time: {ours / theirs:.2f}")
        print(f"{'blurlabel redact, full-frame secure':36} {secure * 1000:8.1f} ms  (whole command, PNG in and out)")


if __name__ == "__main__":
    main()
