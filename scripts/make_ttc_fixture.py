#!/usr/bin/env python3
"""Builds the TrueType collection fixture (two faces: Noto Sans Hebrew, Noto Sans Thai) with
fontTools, for the tests of loading a face by index.

    pip install fonttools && python3 scripts/make_ttc_fixture.py
"""
import os
from fontTools.ttLib import TTFont
from fontTools.ttLib.ttCollection import TTCollection

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
collection = TTCollection()
collection.fonts = [TTFont(os.path.join(ROOT, "Fonts", name)) for name in ("NotoSansHebrew-Regular.ttf", "NotoSansThai-Regular.ttf")]
collection.save(os.path.join(ROOT, "Tests", "BlurredLabelKitTests", "Fixtures", "HebrewThai.ttc"))
