#!/usr/bin/env python3
"""Prints a `blurlabel batch` manifest of COUNT labels, the same lines on every machine and run:
prices, words and sentences in the embedded fonts' scripts (Latin, Hebrew, Arabic, Devanagari,
Thai), through most label options (size, σ and `unreadable`, colours, transparent backgrounds,
canvas and fit, padding, alignment, spacing, wrapping, outline, features, dpr, secure mode with a
seed, every compression level). Outputs are `NNN/NNNNN.png`, a folder per hundred.

    make-test-manifest.py COUNT [--system-fonts] [--font-folder DIR]

Every line says `no-system-fonts` unless --system-fonts is given, which adds a CJK and an emoji
line every 97 labels (drawn from the system's fonts, fontconfig: a machine's own fonts, so
compare such outputs on one machine only). --font-folder DIR (the checkout's Fonts/) adds lines
that name DejaVu Sans Bold by path. Used by scripts/checks/output-bytes (10,000 labels) and
scripts/checks/instruction-counts (300).
"""
import argparse
import json
import random

WORDS = ["SALE", "Members price", "from", "only today", "Preis", "prix", "net", "incl. VAT", "Offer", "new"]
SCRIPTS = ["מחיר ‏56.00 ₪", "السعر ٥٦٫٠٠ درهم", "मूल्य ₹ 56.00", "ราคา 56.00 บาท", "Ünïcødé façade", "Ελληνικά 12,50 €"]
SYSTEM = ["価格 5,600 円", "🛒 56.00 € 🎉"]
COLOURS = ["black", "#c0392b", "#1a5276", "#fdebd0", "#ffffff80", "white", "#0a0", "rebeccapurple"]
BACKGROUNDS = ["white", "transparent", "#fdebd0", "#222", "#00000040", "lightyellow"]


def line(index, rng, system_fonts, font_folder):
    price = f"{rng.randrange(1, 100000) / 100:.2f}"
    kind = index % 7
    if kind == 0:
        text = f"{price} €"
    elif kind == 1:
        text = f"{rng.choice(WORDS)} {price} €"
    elif kind == 2:
        text = rng.choice(SCRIPTS)
    elif kind == 3:
        text = f"{rng.choice(WORDS)}\n{price} €"
    elif kind == 4:
        text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 8)))
    elif kind == 5:
        text = f"$ {price}"
    else:
        text = f"{rng.randrange(1, 1000)},{rng.randrange(100):02d} zł"
    entry = {"text": text, "output": f"{index // 100:03d}/{index:05d}.png"}
    entry["size"] = rng.choice([12, 16, 20, 24, 32, 32, 32, 40, 48, 64])
    radius = rng.choice([0, 0.5, 1.5, 2.5, 2.5, 4, 6, 10, "unreadable"])
    entry["radius"] = radius
    if index % 3 == 0:
        entry["color"] = rng.choice(COLOURS)
    if index % 4 == 1:
        entry["background"] = rng.choice(BACKGROUNDS)
    if index % 11 == 0:
        entry["canvas"] = rng.choice(["180x60", "240x90", "320x120"])
        if index % 22 == 0:   # a box every label fits at 6 px or more
            entry.update({"canvas": "480x160", "fit": True, "radius": 2.5})
    if index % 13 == 0:
        entry["padding"] = rng.choice([1, 4, 12])
    if kind in (3, 4) and index % 2 == 0:
        entry["align"] = rng.choice(["left", "right", "start", "end", "center"])
        entry["line-spacing"] = rng.choice([0.8, 1.2, 1.5])
    if kind == 4 and index % 5 == 0:
        entry["max-width"] = rng.choice([120, 200, 300])
    if index % 17 == 0:
        entry["letter-spacing"] = rng.choice([-1, 1, 3])
    if index % 19 == 0:
        entry["outline"] = rng.choice([1, 2])
    if index % 23 == 0:
        entry["features"] = rng.choice(["tnum", "-liga", "tnum,-kern"])
    if kind == 2 and index % 29 == 0:
        entry["direction"] = "rtl"
    if index % 31 == 0:
        entry["dpr"] = rng.choice([2, 3])
    if kind == 0 and index % 37 == 0:
        entry.update({"secure": True, "format": "#####.## €", "seed": index})
        entry.pop("radius")
    if index % 9 == 0:
        entry["compression"] = rng.randrange(10)
    if font_folder and index % 41 == 0:
        entry["font"] = f"{font_folder}/DejaVuSans-Bold.ttf"
    if system_fonts and index % 97 == 0:
        entry["text"] = SYSTEM[(index // 97) % len(SYSTEM)]
    elif not system_fonts or kind != 2:
        entry["no-system-fonts"] = True
    return entry


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("count", type=int)
    parser.add_argument("--system-fonts", action="store_true")
    parser.add_argument("--font-folder")
    args = parser.parse_args()
    rng = random.Random(43)
    for index in range(args.count):
        print(json.dumps(line(index, rng, args.system_fonts, args.font_folder), ensure_ascii=False))


if __name__ == "__main__":
    main()
