#!/usr/bin/env python3
"""Records hb-shape's output (Debian's libharfbuzz-bin) for the shaping corpus, so the tests can
compare glyph ids, clusters and positions without the tool.

    apt-get install libharfbuzz-bin && python3 scripts/make_shaping_fixtures.py
"""
import json, os, re, subprocess

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
DIR = os.path.join(ROOT, "Tests", "BlurredLabelKitTests", "Fixtures", "shaping")


def main():
    lines = []
    with open(os.path.join(DIR, "corpus.tsv"), encoding="utf-8") as corpus:
        for raw in corpus:
            raw = raw.rstrip("\n")
            if not raw or raw.startswith("#"):
                continue
            fields = raw.split("\t") + ["", ""]
            ident, font, direction, script, language, features, text, before, after = fields[:9]
            text = re.sub(r"\\u([0-9A-Fa-f]{4})", lambda m: chr(int(m.group(1), 16)), text)
            args = ["hb-shape", "--no-glyph-names", "--output-format=json", f"--direction={direction}",
                    f"--script={script}", f"--language={language}"]
            if features:
                args.append(f"--features={features}")
            if before:
                args.append(f"--text-before={before}")
            if after:
                args.append(f"--text-after={after}")
            args += [os.path.join(ROOT, "Fonts", font), text]
            glyphs = json.loads(subprocess.run(args, check=True, capture_output=True, text=True).stdout)
            lines.append(json.dumps({"id": ident, "glyphs": glyphs}, ensure_ascii=False))
    with open(os.path.join(DIR, "expected.jsonl"), "w", encoding="utf-8") as out:
        out.write("\n".join(lines) + "\n")
    print(f"wrote {len(lines)} entries")


if __name__ == "__main__":
    main()
