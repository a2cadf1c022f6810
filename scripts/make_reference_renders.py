#!/usr/bin/env python3
"""Renders a few strings sharp with another program, Pillow with Raqm (its own FreeType,
HarfBuzz and FriBiDi), cropped to the ink, as fixtures the tests compare blurlabel's sharp
rendering with.

    pip install pillow && python3 scripts/make_reference_renders.py
"""
import os
from PIL import Image, ImageDraw, ImageFont, features

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
OUT = os.path.join(ROOT, "Tests", "BlurredLabelKitTests", "Fixtures", "reference")
SIZE = 48
CASES = [
    ("price", "DejaVuSans.ttf", "56.00 €"),
    ("latin", "DejaVuSans.ttf", "Affine Wavy Type"),
    ("bold", "DejaVuSans-Bold.ttf", "Members 19.99"),
    ("arabic", "NotoSansArabic-Regular.ttf", "مرحبا بالعالم"),
    ("hebrew", "NotoSansHebrew-Regular.ttf", "מחיר מיוחד"),
    ("devanagari", "NotoSansDevanagari-Regular.ttf", "क्षत्रिय मूल्य"),
]


def main():
    assert features.check("raqm"), "Pillow was built without Raqm"
    os.makedirs(OUT, exist_ok=True)
    for name, font_file, text in CASES:
        font = ImageFont.truetype(os.path.join(ROOT, "Fonts", font_file), SIZE, layout_engine=ImageFont.Layout.RAQM)
        canvas = Image.new("L", (SIZE * len(text) + 200, SIZE * 3), 0)
        ImageDraw.Draw(canvas).text((100, SIZE * 2), text, font=font, fill=255, anchor="ls")
        box = canvas.getbbox()
        ink = canvas.crop(box)
        Image.eval(ink, lambda v: 255 - v).save(os.path.join(OUT, f"{name}.png"))
        with open(os.path.join(OUT, f"{name}.txt"), "w", encoding="utf-8") as f:
            f.write(f"{font_file}\n{text}\n")
    print(f"wrote {len(CASES)} reference renders to {OUT}")


if __name__ == "__main__":
    main()
