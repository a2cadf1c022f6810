#!/usr/bin/env bash
# Records pixelmatch's own mismatch counts for every fixture pair, as PixelmatchFixtureTests pins them.
# Needs: node (no npm packages), python3 with pypng (pip install pypng), and a clone of
# https://github.com/mapbox/pixelmatch. Usage: record-counts.sh PIXELMATCH_CLONE > counts.txt
# YIQ is tag v7.2.0 (2a747de2), OKLab is commit c6fee35a (the current source when recorded).
set -euo pipefail
clone=$1; here=$(cd "$(dirname "$0")" && pwd); work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
git -C "$clone" show v7.2.0:index.js > "$work/yiq.mjs"
git -C "$clone" show c6fee35afac3c52576b2cb424bd1061ab6a4bd06:index.js > "$work/oklab.mjs"
# Decode PNG → raw straight RGBA (pixelmatch's input) with pypng, so node needs no packages.
python3 - "$here" "$work" <<'PY'
import png, sys, glob, os, json
here, work = sys.argv[1:]
sizes = {}
for path in sorted(glob.glob(os.path.join(here, "*.png"))):
    name = os.path.basename(path)[:-4]
    w, h, rows, _ = png.Reader(filename=path).asRGBA8()
    with open(os.path.join(work, name + ".rgba"), "wb") as f:
        for row in rows: f.write(bytes(row))
    sizes[name] = [w, h]
json.dump(sizes, open(os.path.join(work, "sizes.json"), "w"))
PY
cat > "$work/counts.mjs" <<'JS'
import fs from 'node:fs';
import yiq from './yiq.mjs';
import oklab from './oklab.mjs';
const dir = new URL('.', import.meta.url).pathname;
const sizes = JSON.parse(fs.readFileSync(dir + 'sizes.json'));
const read = n => new Uint8Array(fs.readFileSync(dir + n + '.rgba'));
const pairs = [['1a','1b'],['2a','2b'],['3a','3b'],['4a','4b'],['5a','5b'],['6a','6b'],['7a','7b'],['8a','5b']];
for (const [a, b] of pairs) {
  const [w, h] = sizes[a];
  for (const [metric, match] of [['yiq', yiq], ['oklab', oklab]])
    for (const threshold of [0, 0.05, 0.1, 0.2])
      for (const includeAA of [false, true])
        console.log(`${a} ${b} ${metric} ${threshold} ${includeAA ? 'countAA' : 'skipAA'} ${match(read(a), read(b), null, w, h, {threshold, includeAA})}`);
}
JS
node "$work/counts.mjs"
