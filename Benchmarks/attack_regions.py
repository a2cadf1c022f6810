"""Redaction of screenshot regions, attacked: card numbers drawn by Chromium (DejaVu Sans, tabular
figures, black on white, at 12-32 px), each field boxed tight to its ink (as a person drags a box
over it) and redacted by `blurlabel redact` in each mode, then read by Tesseract (the better of
the region as it is and x4 + unsharp mask, as Benchmarks/legibility.py reads) and attacked by
candidates: the attacker, who knows the page, the font, the size, the field's place and the
mode, draws the field with each digit in turn in place (Chromium again), redacts it the same way
and keeps the digit whose picture is nearest; two passes, the second with the first's guesses
around each digit.

  attack_regions.py --blurlabel PATH [--sizes 12,16,20,24,32] [--per-size 2] [--passes 2]
  attack_regions.py --blurlabel PATH --smoke   # one 12 px field, blur 2.5 and secure, 1 pass: the
                                               # attack finds blur's digits, secure's no better than chance
"""

import argparse
import os
import random
import subprocess
import sys
import tempfile

import numpy as np
from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import legibility  # noqa: E402  (its Tesseract reader and scorer)

LEFT = 40
REACH = 36  # empty pixels above and below a field: more than 3 sigma (10) and the margin
MAX_SHOT = 12000  # pixels of height a screenshot is cut at
WIDTH = 700
MODES = {
    "no redaction": None,
    "blur σ 2.5": ["--mode", "blur", "--radius", "2.5"],
    "blur σ 5": ["--mode", "blur", "--radius", "5"],
    "blur σ 8": ["--mode", "blur", "--radius", "8"],
    "pixelate block 12": ["--mode", "pixelate"],
    "secure (the default)": [],
}


def luhn_card(rng):
    digits = [4] + [rng.randrange(10) for _ in range(14)]
    total = 0
    for i, d in enumerate(reversed(digits)):
        d = d * 2 if i % 2 == 0 else d
        total += d - 9 if d > 9 else d
    digits.append((10 - total % 10) % 10)
    text = "".join(map(str, digits))
    return " ".join(text[i : i + 4] for i in range(0, 16, 4))


def row_height(size):
    return int(size * 1.6) + 2 * REACH


def shoot(fields, folder, name):
    """Screenshots of `fields` [(text, size)], each in its own row; returns a list of
    (grey picture path, [(field index, top)]) pages."""
    pages = []
    page, top = [], 0
    for index, (text, size) in enumerate(fields):
        height = row_height(size)
        if top + height > MAX_SHOT and page:
            pages.append((page, top))
            page, top = [], 0
        page.append((index, top))
        top += height
    if page:
        pages.append((page, top))
    shots = []
    for number, (page, height) in enumerate(pages):
        divs = "".join(
            f'<div style="position:absolute;left:{LEFT}px;top:{top + REACH}px;font:{fields[i][1]}px \'DejaVu Sans\';'
            f'font-variant-numeric:tabular-nums;white-space:pre;color:#000">{fields[i][0]}</div>'
            for i, top in page
        )
        html = os.path.join(folder, f"{name}-{number}.html")
        with open(html, "w", encoding="utf-8") as f:
            f.write(f'<html><body style="margin:0;background:#fff">{divs}</body></html>')
        png = os.path.join(folder, f"{name}-{number}.png")
        result = subprocess.run(
            [
                CHROMIUM, "--no-sandbox", "--hide-scrollbars", "--force-device-scale-factor=1",
                f"--window-size={WIDTH},{height}", f"--screenshot={png}", "file://" + html,
            ],
            capture_output=True, text=True,
        )
        if result.returncode != 0 or not os.path.exists(png):
            sys.exit(f"chromium failed: {result.stderr[-400:]}")
        shots.append((png, page))
    return shots


def ink_box(grey, top, size):
    band = grey[top : top + row_height(size)]
    ys, xs = np.nonzero(band < 255)
    return int(xs.min()), int(top + ys.min()), int(xs.max() - xs.min() + 1), int(ys.max() - ys.min() + 1)


def grey_of(path):
    with Image.open(path) as picture:
        return np.asarray(picture.convert("L"), dtype=np.int32)


def redact(blurlabel, shot, boxes, arguments, out):
    rects = []
    for x, y, w, h in boxes:
        rects += ["--rect", f"{x},{y},{w},{h}"]
    result = subprocess.run([blurlabel, "redact", shot, *rects, *arguments, "-o", out], capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"blurlabel redact failed: {result.stderr[-400:]}")
    return grey_of(out)


def area(box):
    """What the comparison looks at: the box, its margin and the blur's reach."""
    x, y, w, h = box
    return max(0, x - REACH), y - REACH + 2, w + 2 * REACH, h + 2 * REACH - 4


def redacted_fields(blurlabel, shots, boxes_of, arguments, folder, name):
    """Each field's redacted area (relative to its box), redacting page by page."""
    out = {}
    for number, (png, page) in enumerate(shots):
        boxes = [boxes_of[i] for i, _ in page]
        picture = grey_of(png) if arguments is None else redact(
            blurlabel, png, boxes, arguments, os.path.join(folder, f"{name}-{number}-r.png")
        )
        for (i, _), box in zip(page, boxes):
            x, y, w, h = area(box)
            out[i] = picture[y : y + h, x : x + w]
    return out


def boxes(shots, fields):
    found = {}
    for png, page in shots:
        grey = grey_of(png)
        for i, top in page:
            found[i] = ink_box(grey, top, fields[i][1])
    return found


def ocr(blurlabel, fields, shots, boxes_of, arguments, folder, name):
    crops = []
    for number, (png, page) in enumerate(shots):
        picture = grey_of(png) if arguments is None else redact(
            blurlabel, png, [boxes_of[i] for i, _ in page], arguments, os.path.join(folder, f"{name}-{number}-o.png")
        )
        for i, _ in page:
            x, y, w, h = boxes_of[i]
            crop = picture[max(0, y - 6) : y + h + 6, max(0, x - 6) : x + w + 6]
            # On a white border as wide as the text is high: Tesseract reads a line best with room around it.
            border = h + 12
            framed = np.full((crop.shape[0] + 2 * border, crop.shape[1] + 2 * border), 255, dtype=np.uint8)
            framed[border : border + crop.shape[0], border : border + crop.shape[1]] = crop
            path = os.path.join(folder, f"{name}-crop-{i}.png")
            Image.fromarray(framed).save(path)
            crops.append((i, path))
    crops.sort()
    lines = legibility.read([p for _, p in crops], folder)
    chars = whole = total = 0
    for (i, _), pair in zip(crops, lines):
        truth = fields[i][0]
        chars += legibility.matched(truth, pair)
        total += len(truth.replace(" ", ""))
        whole += any(line.replace(" ", "") == truth.replace(" ", "") for line in pair)
    return chars, total, whole


def candidates(blurlabel, fields, boxes_of, targets, arguments, passes, folder, name):
    """The candidate attack's guess for each field: digit by digit from the left, each digit the
    one of ten whose field (drawn with the digits decided so far, and the last pass's guesses, or
    0, to its right) redacted alike is nearest the target; `passes` times over."""
    guesses = [["0" if c.isdigit() else c for c in text] for text, _ in fields]
    places = sorted({p for text, _ in fields for p, c in enumerate(text) if c.isdigit()})
    for number in range(passes):
        for p in places:
            variants, owners = [], []
            for f, (text, size) in enumerate(fields):
                if p >= len(text) or not text[p].isdigit():
                    continue
                for d in "0123456789":
                    variant = list(guesses[f])
                    variant[p] = d
                    variants.append(("".join(variant), size))
                    owners.append((f, d))
            shots = shoot(variants, folder, f"{name}-v")
            # Each variant's box: its field's box, moved to the variant's row.
            boxes_v = {}
            for png, page in shots:
                for v, top in page:
                    x, y, w, h = boxes_of[owners[v][0]]
                    boxes_v[v] = (x, top + (y - FIELD_TOPS[owners[v][0]]), w, h)
            seen = redacted_fields(blurlabel, shots, boxes_v, arguments, folder, f"{name}-v")
            best = {}
            for v, (f, d) in enumerate(owners):
                a, b = targets[f], seen[v]
                h, w = min(a.shape[0], b.shape[0]), min(a.shape[1], b.shape[1])
                distance = int(((a[:h, :w] - b[:h, :w]) ** 2).sum())
                if f not in best or distance < best[f][0]:
                    best[f] = (distance, d)
            for f, (_, d) in best.items():
                guesses[f][p] = d
    return ["".join(g) for g in guesses]


FIELD_TOPS = {}
CHROMIUM = "chromium-headless-shell"


def main():
    global CHROMIUM
    parser = argparse.ArgumentParser()
    parser.add_argument("--blurlabel", required=True)
    parser.add_argument("--chromium", default=CHROMIUM)
    parser.add_argument("--sizes", default="12,16,20,24,32")
    parser.add_argument("--per-size", type=int, default=2)
    parser.add_argument("--passes", type=int, default=2)
    parser.add_argument("--modes", help="comma-separated names of MODES to run (default: all)")
    parser.add_argument("--smoke", action="store_true")
    args = parser.parse_args()
    CHROMIUM = args.chromium
    modes = MODES if not args.modes else {k: v for k, v in MODES.items() if k in args.modes.split(",")}
    if args.smoke:
        args.sizes, args.per_size, args.passes = "12", 1, 1
        modes = {k: v for k, v in MODES.items() if k in ("blur σ 2.5", "secure (the default)")}
    rng = random.Random(45)
    fields = [(luhn_card(rng), int(s)) for s in args.sizes.split(",") for _ in range(args.per_size)]
    with tempfile.TemporaryDirectory() as folder:
        shots = shoot(fields, folder, "page")
        for _, page in shots:
            for i, top in page:
                FIELD_TOPS[i] = top
        boxes_of = boxes(shots, fields)
        digits = sum(c.isdigit() for text, _ in fields for c in text)
        print(
            f"screenshot regions: {len(fields)} card numbers ({args.per_size} at each of {args.sizes} px, "
            f"{digits} digits) drawn by Chromium, boxed tight to their ink, redacted by blurlabel redact"
        )
        print("mode                   OCR characters / whole   candidate digits / whole")
        failures = []
        for mode, arguments in modes.items():
            chars, total, whole = ocr(args.blurlabel, fields, shots, boxes_of, arguments, folder, "ocr")
            line = f"{mode:22s} {chars / total:7.1%} / {whole:2d} of {len(fields):<3d}"
            if arguments is not None:
                targets = redacted_fields(args.blurlabel, shots, boxes_of, arguments, folder, "target")
                found = candidates(args.blurlabel, fields, boxes_of, targets, arguments, args.passes, folder, "cand")
                right = sum(a == b for (t, _), g in zip(fields, found) for a, b in zip(t, g) if a.isdigit())
                strings = sum(g == t for (t, _), g in zip(fields, found))
                line += f"   {right / digits:7.1%} / {strings:2d} of {len(fields)}"
                if args.smoke and mode.startswith("secure") and (strings > 0 or right / digits > 0.5):
                    failures.append(f"secure: the candidate attack found {right} of {digits} digits")
                if args.smoke and mode.startswith("blur") and right / digits < 0.75:
                    failures.append(f"{mode}: the candidate attack found only {right} of {digits} digits (broken?)")
                if args.smoke and mode.startswith("secure") and chars / total > 0.3:
                    failures.append(f"secure: Tesseract read {chars} of {total} characters")
            print(line, flush=True)
        if failures:
            sys.exit("attack_regions --smoke: " + "; ".join(failures))


if __name__ == "__main__":
    main()
