#!/usr/bin/env python3
"""Makes Tests/BlurredLabelKitTests/Fixtures/fonts/colr-test.ttf, a tiny COLR v0 / CPAL font for
the colour-glyph tests (needs fontTools: python3 -m pip install fonttools).

Glyphs: U+25A0 (■) has two layers, a 1000-unit square in palette red and a 400-unit square
inside it in the text colour (palette index 0xFFFF); 'B' is a plain outline square with no
layers. Units per em 1000."""
import os
from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.colorLib.builder import buildCOLR, buildCPAL


def square(x0, y0, x1, y1):
    pen = TTGlyphPen(None)
    pen.moveTo((x0, y0)); pen.lineTo((x0, y1)); pen.lineTo((x1, y1)); pen.lineTo((x1, y0)); pen.closePath()
    return pen.glyph()


names = [".notdef", "B", "colored", "big", "small"]
fb = FontBuilder(1000, isTTF=True)
fb.setupGlyphOrder(names)
fb.setupCharacterMap({0x42: "B", 0x25A0: "colored"})
lsb = {".notdef": 50, "B": 100, "colored": 0, "big": 0, "small": 300}  # each outline's left edge
fb.setupGlyf({".notdef": square(50, 0, 450, 700), "B": square(100, 0, 700, 700),
              "colored": square(0, 0, 1000, 1000), "big": square(0, 0, 1000, 1000), "small": square(300, 300, 700, 700)})
fb.setupHorizontalMetrics({n: (1000, lsb[n]) for n in names})
fb.setupHorizontalHeader(ascent=1000, descent=-200)
fb.setupOS2(sTypoAscender=1000, sTypoDescender=-200, usWinAscent=1000, usWinDescent=200)
fb.setupNameTable({"familyName": "ColrTest", "styleName": "Regular"})
fb.setupPost()
fb.font["COLR"] = buildCOLR({"colored": [("big", 0), ("small", 0xFFFF)]}, version=0)
fb.font["CPAL"] = buildCPAL([[(1.0, 0.0, 0.0, 1.0)]])  # RGBA: opaque red
out = os.path.join(os.path.dirname(__file__), "..", "Tests", "BlurredLabelKitTests", "Fixtures", "fonts", "colr-test.ttf")
fb.save(out)
print(out, os.path.getsize(out), "bytes")
