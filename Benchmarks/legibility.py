"""The legibility floor: for each font size, the smallest blur sigma at which Tesseract reads at
most 5% of a label's characters, given its best effort: the better of its reading of the picture
as it is and of the picture upscaled x4 (bicubic) and unsharp-masked.

Labels are rendered by blurlabel itself (`batch`, DejaVu Sans, black on white, no system fonts)
from seeded random strings of digits and capitals. The reader is Tesseract (Debian's
tesseract-ocr), one text line per picture (--psm 7). A character counts as read when it is part
of the longest matching blocks between the truth and Tesseract's line (difflib), spaces ignored.

  legibility.py --blurlabel PATH [--sizes 10,12,...] [--texts N] [--points FILE]
  legibility.py --blurlabel PATH --chromium chromium-headless-shell   # Chromium draws the labels
  legibility.py --blurlabel PATH --verify [--sizes ...]  # reads labels at --radius unreadable
  legibility.py --blurlabel PATH --smoke     # checks --radius unreadable and --secure at 2 sizes
  legibility.py --blurlabel PATH --decoys 32:unreadable,32:7 [--texts N]
                                             # digits read of N seeded secure tags at each size:σ

Prints one row per size and the least-squares line sigma = k*size + c through the floors, with
the margin that puts every measured floor on or under it. --points writes the floors as JSON
(Benchmarks/legibility-points.json; Tests/BlurredLabelKitTests/LegibilityFloorTests.swift pins the library's formula to them).
"""

import argparse
import collections
import difflib
import json
import os
import random
import subprocess
import sys
import tempfile

from PIL import Image, ImageFilter

ALPHABET = "0123456789ABCDEFGHJKLMNPRSTUVWXYZ"
LIMIT = 0.05


def texts(count, seed):
    rng = random.Random(seed)
    return [
        "".join(rng.choice(ALPHABET) for _ in range(4)) + " " + "".join(rng.choice(ALPHABET) for _ in range(4))
        for _ in range(count)
    ]


def render(blurlabel, folder, labels, options):
    """Renders (text, name) pairs with `blurlabel batch`, options as a manifest line's."""
    manifest = os.path.join(folder, "labels.jsonl")
    with open(manifest, "w", encoding="utf-8") as f:
        for text, name in labels:
            line = {"text": text, "output": name, "no-system-fonts": True}
            line.update(options)
            f.write(json.dumps(line) + "\n")
    result = subprocess.run(
        [blurlabel, "batch", manifest, "--out", folder, "--force"], capture_output=True, text=True
    )
    if result.returncode != 0:
        sys.exit(f"blurlabel batch failed: {result.stdout[-400:]} {result.stderr[-400:]}")
    return [os.path.join(folder, name) for _, name in labels]


def read(paths, folder):
    """Tesseract's lines for each picture: as it is, and after x4 upscaling and unsharp masking
    (one process for all); the scorer takes the better of the two."""
    prepared = []
    for path in paths:
        with Image.open(path) as picture:
            grey = picture.convert("L")
        large = grey.resize((grey.width * 4, grey.height * 4), Image.BICUBIC)
        sharpened = large.filter(ImageFilter.UnsharpMask(radius=4, percent=200, threshold=0))
        out = path[:-4] + "-x4.png"
        sharpened.save(out)
        prepared.append(out)
    lines = tesseract(list(paths) + prepared, folder)
    return list(zip(lines[: len(paths)], lines[len(paths) :]))


def tesseract(prepared, folder):
    listing = os.path.join(folder, "list.txt")
    with open(listing, "w", encoding="utf-8") as f:
        f.write("\n".join(prepared) + "\n")
    result = subprocess.run(
        ["tesseract", listing, "stdout", "--psm", "7", "-l", "eng"], capture_output=True, text=True
    )
    if result.returncode != 0:
        sys.exit(f"tesseract failed: {result.stderr[-400:]}")
    pages = result.stdout.split("\f")
    lines = [page.strip() for page in pages[: len(prepared)]]
    return lines + [""] * (len(prepared) - len(lines))


def matched(truth, lines):
    """Characters of `truth` read in the better of a picture's lines."""
    a = truth.replace(" ", "")
    best = 0
    for line in lines:
        b = line.replace(" ", "").upper()
        blocks = difflib.SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks()
        best = max(best, sum(block.size for block in blocks))
    return best


# With --chromium, the browser that draws the labels instead of blurlabel (then blurred by `blurlabel blur`).
CHROMIUM = None
SHARP = {}


def chromium_labels(blurlabel, folder, size, sigma, samples):
    """`samples` drawn by Chromium at `size` px (Benchmarks/attack_regions.py's page), each cut out
    with room for the blur around its ink and blurred at `sigma` by `blurlabel blur`."""
    import attack_regions

    attack_regions.CHROMIUM = CHROMIUM
    if size not in SHARP:
        crops = []
        for png, page in attack_regions.shoot([(t, size) for t in samples], folder, f"c{size}"):
            grey = attack_regions.grey_of(png)
            for i, top in page:
                x, y, w, h = attack_regions.ink_box(grey, top, size)
                room = attack_regions.REACH
                crop = grey[max(0, y - room) : y + h + room, max(0, x - room) : x + w + room]
                path = os.path.join(folder, f"c{size}-{i}.png")
                Image.fromarray(crop.astype("uint8")).save(path)
                crops.append((i, path))
        SHARP[size] = [path for _, path in sorted(crops)]
    paths = []
    for i, sharp in enumerate(SHARP[size]):
        out = os.path.join(folder, f"c{size}-r{sigma}-{i}.png")
        result = subprocess.run([blurlabel, "blur", sharp, "--radius", str(sigma), "-o", out], capture_output=True, text=True)
        if result.returncode != 0:
            sys.exit(f"blurlabel blur failed: {result.stderr[-400:]}")
        paths.append(out)
    return paths


def rate(blurlabel, folder, size, sigma, samples):
    """The share of characters Tesseract reads from `samples` at `size` px blurred at `sigma`."""
    labels = [(text, f"s{size}-r{sigma}-{i}.png") for i, text in enumerate(samples)]
    if CHROMIUM:
        paths = chromium_labels(blurlabel, folder, size, sigma, samples)
    else:
        paths = render(blurlabel, folder, labels, {"size": size, "radius": sigma})
    lines = read(paths, folder)
    total = sum(len(t.replace(" ", "")) for t in samples)
    return sum(matched(t, line) for t, line in zip(samples, lines)) / total


def floor(blurlabel, folder, size, samples, step):
    """The smallest sigma on a `step` grid at which the read share is at most LIMIT: doubling up
    from 1, then bisection. Returns (sigma, share there, share at sigma 0)."""
    sharp = rate(blurlabel, folder, size, 0, samples)
    low, high = 0.0, 1.0
    share = rate(blurlabel, folder, size, high, samples)
    while share > LIMIT:
        low, high = high, high * 2
        share = rate(blurlabel, folder, size, high, samples)
    while high - low > step + 1e-9:
        middle = round((low + high) / 2 / step) * step
        if middle <= low or middle >= high:
            break
        measured = rate(blurlabel, folder, size, middle, samples)
        if measured <= LIMIT:
            high, share = middle, measured
        else:
            low = middle
    return high, share, sharp


def fit(points):
    n = len(points)
    sx = sum(s for s, _ in points)
    sy = sum(f for _, f in points)
    sxx = sum(s * s for s, _ in points)
    sxy = sum(s * f for s, f in points)
    k = (n * sxy - sx * sy) / (n * sxx - sx * sx)
    c = (sy - k * sx) / n
    margin = max(f - (k * s + c) for s, f in points)
    return k, c, margin


def digits(line):
    return sum(ch.isdigit() for ch in line)


def smoke(blurlabel, folder):
    """At two sizes: Tesseract reads the sharp labels, at most 5% at `--radius unreadable`, and
    at most one digit of a secure price tag at its default (the floor)."""
    failures = []
    samples = texts(6, 1)
    for size in (16, 32):
        sharp = rate(blurlabel, folder, size, 0, samples)
        labels = [(t, f"u{size}-{i}.png") for i, t in enumerate(samples)]
        paths = render(blurlabel, folder, labels, {"size": size, "radius": "unreadable"})
        lines = read(paths, folder)
        total = sum(len(t.replace(" ", "")) for t in samples)
        unreadable = sum(matched(t, line) for t, line in zip(samples, lines)) / total
        tags = [(f"{p}.{q:02d} €", f"secure{size}-{i}.png") for i, (p, q) in enumerate([(80, 18), (12, 34), (56, 0)])]
        # Seeded decoys (a manifest line's `seed`), so a run reads the same pictures every time: with
        # the system's generator each run drew other digits, and Tesseract's reading varied with them.
        paths = [
            render(blurlabel, folder, [tag], {"size": size, "secure": True, "format": "##.## €", "seed": index + 1})[0]
            for index, tag in enumerate(tags)
        ]
        read_digits = max(digits(line) for pair in read(paths, folder) for line in pair)
        print(f"size {size:3d} px: sharp {sharp:6.1%}   --radius unreadable {unreadable:5.1%}   secure tag: {read_digits} digit(s) read")
        if sharp < 0.8:
            failures.append(f"{size} px: Tesseract reads only {sharp:.0%} of the sharp labels")
        if unreadable > LIMIT:
            failures.append(f"{size} px: Tesseract reads {unreadable:.0%} at --radius unreadable")
        if read_digits > 1:
            failures.append(f"{size} px: Tesseract reads {read_digits} digits of a secure tag")
    if failures:
        sys.exit("legibility --smoke: " + "; ".join(failures))
    print("legibility --smoke: ok")


def decoys(blurlabel, folder, points, count):
    """For each size:σ (σ a number or `unreadable`), how many digits Tesseract reads of `count`
    secure price tags (`##.## €`, seeds 1 to count): a histogram of the most read of each tag."""
    for point in points.split(","):
        size, radius = point.split(":")
        options = {"size": int(size), "secure": True, "format": "##.## €"}
        if radius != "unreadable":
            options["radius"] = float(radius)
        paths = [
            render(blurlabel, folder, [("12.34 €", f"decoy-{seed}.png")], dict(options, seed=seed))[0]
            for seed in range(1, count + 1)
        ]
        most = collections.Counter(max(digits(line) for line in pair) for pair in read(paths, folder))
        shown = ", ".join(f"{n} digit(s): {most[n]}" for n in sorted(most))
        print(f"size {size} px, radius {radius}: {count} secure tags, most digits read of each: {shown}")


def verify(blurlabel, folder, sizes, count):
    """At each size, what Tesseract reads at `--radius unreadable` (the library's formula), from
    labels it was not fitted on."""
    samples = texts(count, 46)
    total = sum(len(t.replace(" ", "")) for t in samples)
    print(f"--radius unreadable, {count} other labels a size")
    print("size px   sigma   read there")
    worst = 0.0
    for size in sizes:
        labels = [(t, f"v{size}-{i}.png") for i, t in enumerate(samples)]
        paths = render(blurlabel, folder, labels, {"size": size, "radius": "unreadable"})
        share = sum(matched(t, line) for t, line in zip(samples, read(paths, folder))) / total
        print(f"{size:7d}   {floor_of(size):5.1f}   {share:10.1%}", flush=True)
        worst = max(worst, share)
    print(f"largest share read: {worst:.1%}")


def floor_of(size):
    """The library's formula (BlurRadius.unreadable(forSize:)), for the printout."""
    import math

    return math.ceil((0.13 * size + 0.7) * 10 - 1e-9) / 10


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--blurlabel", required=True)
    parser.add_argument("--sizes", default="10,12,14,16,20,24,32,40,48,64")
    parser.add_argument("--texts", type=int, default=20)
    parser.add_argument("--step", type=float, default=0.25)
    parser.add_argument("--points")
    parser.add_argument("--smoke", action="store_true")
    parser.add_argument("--verify", action="store_true", help="read labels at --radius unreadable instead")
    parser.add_argument("--decoys", help="SIZE:RADIUS,... digits read of --texts seeded secure tags at each")
    parser.add_argument("--chromium", help="a Chromium to draw the labels (screenshots) instead of blurlabel")
    args = parser.parse_args()
    global CHROMIUM
    CHROMIUM = args.chromium
    version = subprocess.run(["tesseract", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    with tempfile.TemporaryDirectory() as folder:
        if args.smoke:
            smoke(args.blurlabel, folder)
            return
        if args.decoys:
            decoys(args.blurlabel, folder, args.decoys, args.texts)
            return
        if args.verify:
            verify(args.blurlabel, folder, [int(s) for s in args.sizes.split(",")], args.texts)
            return
        samples = texts(args.texts, 45)
        source = "Chromium screenshots blurred by blurlabel blur" if CHROMIUM else "labels by blurlabel"
        print(f"legibility floor: {version}, {args.texts} labels of 8 characters a point ({source}), raw and x4 + unsharp")
        print("size px   floor sigma   read there   read sharp")
        points = []
        for size in [int(s) for s in args.sizes.split(",")]:
            sigma, share, sharp = floor(args.blurlabel, folder, size, samples, args.step)
            print(f"{size:7d}   {sigma:11.2f}   {share:10.1%}   {sharp:10.1%}", flush=True)
            points.append((size, sigma))
        if len(points) < 2:
            return
        k, c, margin = fit(points)
        print(f"least squares: sigma = {k:.4f} * size + {c:.3f}; every floor under it with c + {margin:.3f}")
        if args.points:
            # This project's labels under "points", Chromium's under "chromium"; the other kept.
            data = {}
            if os.path.exists(args.points):
                with open(args.points, encoding="utf-8") as f:
                    data = json.load(f)
            measured = [{"size": s, "sigma": f} for s, f in points]
            data.update({"reader": version, "texts": args.texts, "limit": LIMIT})
            if CHROMIUM:
                data["chromium"] = {"source": source, "points": measured}
            else:
                data["points"] = measured
            with open(args.points, "w", encoding="utf-8") as f:
                json.dump(data, f, indent=1)
                f.write("\n")


if __name__ == "__main__":
    main()
