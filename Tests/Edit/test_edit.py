"""`blurlabel edit` in a real browser (Playwright for Python driving Debian's Chromium).

Run by scripts/checks/test-edit: python test_edit.py BIN_DIR CHROMIUM [SCREENSHOT.png]
Draws, moves, resizes nothing by coordinates typed in: every rectangle comes from mouse drags or
the keyboard, and the saved picture is checked against `blurlabel redact` run with the command
line the page shows.
"""
import base64
import http.client
import json
import os
import re
import shlex
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import time
import zlib

from playwright.sync_api import sync_playwright

BIN, CHROMIUM = sys.argv[1], sys.argv[2]
SCREENSHOT = sys.argv[3] if len(sys.argv) > 3 else None
BLURLABEL = os.path.join(BIN, "blurlabel")
work = tempfile.mkdtemp(prefix="test-edit-")


def fail(message):
    print("test-edit: FAIL: " + message, file=sys.stderr)
    sys.exit(1)


def write_png(path, width, height):
    """An opaque RGB picture with detail everywhere (a blur changes every pixel it covers)."""
    rows = bytearray()
    for y in range(height):
        rows.append(0)
        for x in range(width):
            v = 255 if ((x // 8) + (y // 8)) % 2 else 0
            rows += bytes(((x * 255) // width, (y * 255) // height, v))
    chunk = lambda kind, data: struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(bytes(rows), 1)) + chunk(b"IEND", b""))


def start(args, env=None):
    process = subprocess.Popen([BLURLABEL, "edit"] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env=env)
    url = process.stdout.readline().strip()
    if not url.startswith("http://127.0.0.1:"):
        fail(f"edit printed no URL first: {url!r} {process.stderr.read()}")
    return process, url


def request(url, path, host=None, method="GET", headers=None, body=None):
    hostport = url.split("/")[2]
    connection = http.client.HTTPConnection(hostport, timeout=10)
    connection.putrequest(method, path, skip_host=True)
    connection.putheader("Host", host or hostport)
    for name, value in (headers or {}).items():
        connection.putheader(name, value)
    data = body.encode() if body else b""
    connection.putheader("Content-Length", str(len(data)))
    connection.endheaders(data)
    response = connection.getresponse()
    result = (response.status, dict(response.getheaders()), response.read())
    connection.close()
    return result


def drag(page, start, end, steps=8):
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(*end, steps=steps)
    page.mouse.up()


def wait_for(page, expression, what, seconds=30):
    """Polls with page.evaluate (wait_for_function's string evaluation is refused by the page's CSP)."""
    deadline = time.monotonic() + seconds
    while not page.evaluate(expression):
        if time.monotonic() > deadline:
            fail("timed out waiting for " + what)
        time.sleep(0.01)


def settle(page):
    wait_for(page, "() => !!(window.previewSettled && window.previewSettled() && editStats.shown > 0)", "the preview")


def rects_of(page):
    """The rectangles as the page's command line says them."""
    words = shlex.split(page.inner_text("#command"))
    return [w for i, w in enumerate(words) if i > 0 and words[i - 1] == "--rect"]


PREVIEW_DIFFERENCES = """async (data) => {
  const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
  const bitmap = await createImageBitmap(new Blob([bytes], { type: "image/png" }));
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  const context = canvas.getContext("2d");
  context.drawImage(bitmap, 0, 0);
  const want = context.getImageData(0, 0, bitmap.width, bitmap.height).data;
  const picture = document.getElementById("picture");
  if (picture.width !== bitmap.width || picture.height !== bitmap.height) return -1;
  const got = picture.getContext("2d").getImageData(0, 0, picture.width, picture.height).data;
  let differences = 0;
  for (let i = 0; i < want.length; i++) if (want[i] !== got[i]) differences++;
  return differences;
}"""


def check_preview_is(page, path):
    """The page's preview (the original with the server's parts drawn over it) has PATH's pixels."""
    differences = page.evaluate(PREVIEW_DIFFERENCES, base64.b64encode(open(path, "rb").read()).decode())
    if differences != 0:
        fail(f"the preview differs from {os.path.basename(path)} in {differences} bytes (-1: in size)")


def check_refusals(url):
    token_path = "/" + url.split("/")[3] + "/"
    status, headers, _ = request(url, token_path)
    if status != 200 or "Access-Control-Allow-Origin" in headers:
        fail(f"the page with its token: {status} {headers}")
    for path, what in (("/", "no token"), ("/state", "no token"), ("/" + "0" * 32 + "/", "a wrong token"),
                       ("/" + "0" * 32 + "/state", "a wrong token")):
        status, _, _ = request(url, path)
        if status != 403:
            fail(f"{what} ({path}) answered {status}, not 403")
    status, _, _ = request(url, token_path + "state", host="evil.example:" + url.split(":")[2].split("/")[0])
    if status != 421:
        fail(f"a foreign Host answered {status}, not 421")
    status, headers, _ = request(url, token_path + "preview", method="POST", headers={"Origin": "http://evil.example"},
                                 body="--rect\n0,0,10,10")
    if status != 403 or "Access-Control-Allow-Origin" in headers:
        fail(f"a cross-origin POST answered {status}")
    print("test-edit: refused: no token, a wrong token, a foreign Host, a foreign Origin", flush=True)


def check_limits_are_the_servers(page, source):
    """The modes and the σ and block ranges the page offers are the server's: the modes `edit
    --mode` accepts (its refusal lists them) and the ranges `blurlabel redact --help` states."""
    refused = subprocess.run([BLURLABEL, "edit", source, "-o", os.path.join(work, "x.png"), "--mode", "nope"],
                             capture_output=True, text=True)
    listed = re.search(r"\(modes: ([a-z, ]+)\)", refused.stderr)
    if refused.returncode != 2 or not listed:
        fail(f"edit --mode nope: {refused.returncode} {refused.stderr}")
    modes = listed.group(1).split(", ")
    usage = subprocess.run([BLURLABEL, "redact", "--help"], capture_output=True, text=True, check=True).stdout
    ranges = {}
    for name in ("radius", "block"):
        found = re.search(r"--" + name + r" \S+ +[^(]*\((\d+) to (\d+)", usage)
        if not found:
            fail(f"redact --help states no range for --{name}")
        ranges[name] = [found.group(1), found.group(2)]
    shown = page.evaluate("""() => ({
      modes: [...document.getElementById("defaultMode").options].map(o => o.value),
      rectModes: [...document.getElementById("rectMode").options].map(o => o.value),
      radius: [document.getElementById("radius").min, document.getElementById("radius").max],
      block: [document.getElementById("block").min, document.getElementById("block").max] })""")
    if shown["modes"] != modes or shown["rectModes"] != modes:
        fail(f"the page offers the modes {shown['modes']} and {shown['rectModes']}, the server {modes}")
    for name in ("radius", "block"):
        if shown[name] != ranges[name]:
            fail(f"the page's {name} is {shown[name][0]} to {shown[name][1]}, redact's {ranges[name][0]} to {ranges[name][1]}")
    print(f"test-edit: the page offers the server's modes ({', '.join(modes)}), σ {' to '.join(ranges['radius'])} "
          f"and block {' to '.join(ranges['block'])}", flush=True)


def rect_numbers(page, index):
    return [int(n) for n in rects_of(page)[index].split(":")[0].split(",")]


def canvas_pixels(page, x, y, width, height):
    """RGBA bytes of the preview canvas, in the picture's pixels."""
    return page.evaluate("([x, y, w, h]) => Array.from(document.getElementById('picture').getContext('2d')"
                         ".getImageData(x, y, w, h).data)", [x, y, width, height])


def handle_center(page, corner):
    box = page.locator(f".rect.selected .handle.{corner}").bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def check_modes_resize_delete(page, x0, y0, scale):
    """The default-mode menu, pixelate's block size, the fill colour, a rectangle's own mode,
    resizing by the corner handles, Delete, and Undo/Redo of a deletion with the keyboard."""
    page.select_option("#defaultMode", "pixelate")
    page.fill("#block", "5")
    page.fill("#color", "#ff0000")
    drag(page, (x0 + 750, y0 + 60), (x0 + 880, y0 + 160))
    settle(page)
    if len(rects_of(page)) != 3 or not rects_of(page)[2].endswith(":pixelate"):
        fail(f"a rectangle drawn with the default mode pixelate: {rects_of(page)}")
    words = shlex.split(page.inner_text("#command"))
    for option, value in (("--mode", "pixelate"), ("--block", "5"), ("--color", "#ff0000")):
        if words[words.index(option) + 1] != value:
            fail(f"the command line has {option} {words[words.index(option) + 1]}, not {value}")
    # Pixelate with blocks of 5: every 5x5 block from the rectangle's corner is one colour, a 6x6 is not.
    x, y, _, _ = rect_numbers(page, 2)
    block = canvas_pixels(page, x, y, 6, 6)
    pixel = lambda i, j: block[(j * 6 + i) * 4:(j * 6 + i) * 4 + 4]
    if any(pixel(i, j) != pixel(0, 0) for i in range(5) for j in range(5)):
        fail("the preview's pixelate block at the rectangle's corner is not one colour")
    if all(pixel(i, j) == pixel(0, 0) for i in range(6) for j in range(6)):
        fail("the preview's pixelate blocks are larger than 5 pixels")
    # Resize: the bottom-right handle keeps the top-left corner, the top-left handle the bottom-right.
    before = rect_numbers(page, 2)
    hx, hy = handle_center(page, "se")
    drag(page, (hx, hy), (hx + 50, hy + 40))
    after = rect_numbers(page, 2)
    if after[:2] != before[:2] or abs(after[2] - before[2] - 50 * scale) > 4 or abs(after[3] - before[3] - 40 * scale) > 4:
        fail(f"dragging the bottom-right handle by (50, 40) CSS px made {before} {after}")
    before = after
    hx, hy = handle_center(page, "nw")
    drag(page, (hx, hy), (hx - 30, hy + 20))
    after = rect_numbers(page, 2)
    if (after[0] + after[2], after[1] + after[3]) != (before[0] + before[2], before[1] + before[3]) \
            or abs(before[0] - after[0] - 30 * scale) > 4 or abs(after[1] - before[1] - 20 * scale) > 4:
        fail(f"dragging the top-left handle by (-30, 20) CSS px made {before} {after}")
    # A rectangle's own mode: the fourth, drawn as pixelate, made fill (with the colour above).
    drag(page, (x0 + 60, y0 + 350), (x0 + 250, y0 + 500))
    page.select_option("#rectMode", "fill")
    settle(page)
    if not rects_of(page)[3].endswith(":fill") or not rects_of(page)[2].endswith(":pixelate"):
        fail(f"the mode menu made {rects_of(page)}")
    x, y, w, h = rect_numbers(page, 3)
    if canvas_pixels(page, x + w // 2, y + h // 2, 1, 1) != [255, 0, 0, 255]:
        fail(f"the fill rectangle's preview is {canvas_pixels(page, x + w // 2, y + h // 2, 1, 1)}, not #ff0000")
    # Delete removes the selected (focused) rectangle; Ctrl+Z brings it back, Ctrl+Y removes it again.
    four = rects_of(page)
    drag(page, (x0 + 750, y0 + 400), (x0 + 900, y0 + 550))
    if len(rects_of(page)) != 5 or not page.evaluate("document.activeElement.dataset.index === '4'"):
        fail(f"a fifth rectangle, focused: {rects_of(page)}")
    five = rects_of(page)
    page.keyboard.press("Delete")
    if rects_of(page) != four:
        fail(f"Delete left {rects_of(page)}, not {four}")
    page.keyboard.press("Control+z")
    if rects_of(page) != five:
        fail(f"Ctrl+Z after Delete gave {rects_of(page)}, not {five}")
    page.keyboard.press("Control+y")
    if rects_of(page) != four:
        fail(f"Ctrl+Y gave {rects_of(page)}, not {four}")
    settle(page)


def expect_exit(process, url, what, line, seconds=10):
    """The server stops with status 0, says why on its last line, and its port is closed."""
    try:
        code = process.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        fail(f"{what} did not stop the server")
    last = process.stderr.read().strip().splitlines()[-1:]
    if code != 0 or last != ["blurlabel edit: " + line]:
        fail(f"after {what} the server exited {code}, saying {last}")
    try:
        request(url, "/" + url.split("/")[3] + "/state")
        fail(f"after {what} the port still answers")
    except ConnectionRefusedError:
        pass


def idle_run():
    """The idle exit, shortened for the test: requests with the token keep the server; 2 s without stop it."""
    source = os.path.join(work, "in.png")
    environment = dict(os.environ, BLURLABEL_EDIT_IDLE_SECONDS="2")
    process, url = start([source, "-o", os.path.join(work, "idle.png")], env=environment)
    token_path = "/" + url.split("/")[3] + "/"
    for _ in range(8):  # 4 s of requests every 0.5 s
        time.sleep(0.5)
        if request(url, token_path + "state")[0] != 200 or process.poll() is not None:
            fail("the server stopped although requests kept coming")
    quiet_since = time.monotonic()
    expect_exit(process, url, "2 s without a request", "stopped (no request for 2 seconds)")
    waited = time.monotonic() - quiet_since
    if not 1.5 < waited < 5:
        fail(f"the idle exit came {waited:.1f} s after the last request, not about 2 s")
    bad = subprocess.run([BLURLABEL, "edit", source, "-o", os.path.join(work, "idle.png")], capture_output=True,
                         text=True, env=dict(os.environ, BLURLABEL_EDIT_IDLE_SECONDS="soon"))
    if bad.returncode != 2 or bad.stdout or len(bad.stderr.splitlines()) != 1 or "BLURLABEL_EDIT_IDLE_SECONDS" not in bad.stderr:
        fail(f"a bad BLURLABEL_EDIT_IDLE_SECONDS: {bad.returncode} {bad.stdout!r} {bad.stderr!r}")
    print(f"test-edit: idle exit {waited:.1f} s after the last request (BLURLABEL_EDIT_IDLE_SECONDS=2), not while requests come")


def open_run():
    """--open hands the xdg-open first on PATH a private file that redirects to the page's URL:
    the token is in no process's arguments, and the file goes once the page has loaded."""
    folder = os.path.join(work, "fake-bin")
    os.makedirs(folder, exist_ok=True)
    record = os.path.join(work, "xdg-open-arguments")
    with open(os.path.join(folder, "xdg-open"), "w") as f:
        # awk, not sh (dash clears the signal mask it starts with), records its arguments, the
        # signal mask and ignored signals it was started with, and the file it is given (its mode
        # and its text); the arguments last, when all is written.
        f.write("#!/usr/bin/awk -f\n"
                "BEGIN {\n"
                "  while ((getline line < \"/proc/self/status\") > 0) if (line ~ /^Sig(Blk|Ign):/) print line > \"" + record + ".signals\"\n"
                "  close(\"" + record + ".signals\")\n"
                "  while ((getline line < ARGV[1]) > 0) print line > \"" + record + ".html\"\n"
                "  close(\"" + record + ".html\")\n"
                "  system(\"stat -c %a '\" ARGV[1] \"' > '" + record + ".mode'\")\n"
                "  for (i = 1; i < ARGC; i++) print ARGV[i] > \"" + record + ".part\"\n"
                "  close(\"" + record + ".part\")\n"
                "  system(\"mv '" + record + ".part' '" + record + "'\")\n"
                "  exit\n"
                "}\n")
    os.chmod(os.path.join(folder, "xdg-open"), 0o755)
    environment = dict(os.environ, PATH=folder + os.pathsep + os.environ["PATH"])
    process, url = start([os.path.join(work, "in.png"), "-o", os.path.join(work, "open.png"), "--open"], env=environment)
    deadline = time.monotonic() + 10
    while not os.path.exists(record):
        if time.monotonic() > deadline:
            fail("--open did not run xdg-open")
        time.sleep(0.05)
    arguments = open(record).read().splitlines()
    lines = open(record + ".signals").read().splitlines()
    token = url.split("/")[3]
    if len(arguments) != 1 or token in arguments[0] or not arguments[0].endswith(".html"):
        fail(f"--open gave xdg-open {arguments}, not one file without the token")
    if open(record + ".mode").read().strip() != "600":
        fail(f"the page handed to xdg-open has mode {open(record + '.mode').read().strip()}, not 600")
    if f'content="0;url={url}"' not in open(record + ".html").read():
        fail(f"the page handed to xdg-open does not redirect to {url}")
    # The browser it starts gets Ctrl-C, SIGTERM and SIGPIPE as usual: none blocked or ignored by the server's own settings.
    masks = {line.split(":")[0]: int(line.split(":")[1], 16) for line in lines if line.startswith("Sig")}
    stop_bits = sum(1 << (int(n) - 1) for n in (signal.SIGINT, signal.SIGTERM, signal.SIGPIPE))
    if len(masks) != 2 or masks["SigBlk"] & stop_bits or masks["SigIgn"] & stop_bits:
        fail(f"xdg-open started with signals blocked or ignored: {masks}")
    if not os.path.exists(arguments[0]):
        fail("the page handed to xdg-open was removed before the browser loaded the URL")
    if request(url, "/" + token + "/")[0] != 200:
        fail("the URL the page redirects to does not answer")
    deadline = time.monotonic() + 5
    while os.path.exists(arguments[0]):
        if time.monotonic() > deadline:
            fail("the page handed to xdg-open was not removed once the URL was loaded")
        time.sleep(0.05)
    process.send_signal(signal.SIGTERM)
    expect_exit(process, url, "SIGTERM", f"stopped (signal {int(signal.SIGTERM)})")
    print("test-edit: --open handed xdg-open a 0600 page that redirects to " + url.split("/")[2] + "/…, removed once loaded")


def main_run(browser):
    source = os.path.join(work, "in.png")
    out = os.path.join(work, "out.png")
    rects_file = os.path.join(work, "rects.json")
    write_png(source, 1200, 750)
    refused = subprocess.run([BLURLABEL, "edit", source, "-o", os.path.join(work, ".", "in.png")], capture_output=True, text=True)
    if refused.returncode != 2 or "is the input file" not in refused.stderr:
        fail(f"OUT equal to IN was not refused: {refused.returncode} {refused.stderr}")
    print("test-edit: refused: OUT equal to IN (" + refused.stderr.strip() + ")")
    process, url = start([source, "-o", out, "--rects", rects_file])
    try:
        check_refusals(url)
        page = browser.new_page(viewport={"width": 1000, "height": 800})
        page.goto(url)
        settle(page)
        check_limits_are_the_servers(page, source)
        box = page.locator("#picture").bounding_box()
        scale = 1200 / box["width"]
        if scale <= 1.0:
            fail("the picture is not scaled to fit, so the mapping back is not tested")
        x0, y0 = box["x"], box["y"]
        drag(page, (x0 + 100, y0 + 100), (x0 + 300, y0 + 250))
        drag(page, (x0 + 700, y0 + 500), (x0 + 450, y0 + 320))  # up and left
        settle(page)
        drawn = rects_of(page)
        if len(drawn) != 2:
            fail(f"two drags made {drawn}")
        if not all(text.endswith(":secure") for text in drawn):
            fail(f"new rectangles are not secure by default: {drawn}")
        expected = [(100, 100, 200, 150), (450, 320, 250, 180)]
        for text, want in zip(drawn, expected):
            got = [int(n) for n in text.split(":")[0].split(",")]
            if any(abs(g - round(w * scale)) > 2 for g, w in zip(got, want)):
                fail(f"drag {want} (CSS px) became {text}, not about {[round(w * scale) for w in want]}")
        # Move the first one by dragging inside it.
        drag(page, (x0 + 200, y0 + 170), (x0 + 260, y0 + 200))
        settle(page)
        moved = rects_of(page)[0].split(":")[0].split(",")
        first = drawn[0].split(":")[0].split(",")
        if int(moved[0]) - int(first[0]) < 50 * scale * 0.9 or moved[2:] != first[2:]:
            fail(f"moving {drawn[0]} gave {moved}")
        # The second one to blur: select it, then the mode menu.
        page.mouse.click(x0 + 550, y0 + 400)
        page.select_option("#rectMode", "blur")
        settle(page)
        if not rects_of(page)[1].endswith(":blur"):
            fail(f"the mode menu did not make the second rectangle blur: {rects_of(page)}")
        # Keyboard: Tab to a rectangle, arrows move it (Shift: 10 px).
        page.locator("#undo").focus()
        for _ in range(30):
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement.classList.contains('rect')"):
                break
        else:
            fail("Tab never reached a rectangle")
        index = page.evaluate("Number(document.activeElement.dataset.index)")
        before = [int(n) for n in rects_of(page)[index].split(":")[0].split(",")]
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        page.keyboard.press("Shift+ArrowDown")
        after = [int(n) for n in rects_of(page)[index].split(":")[0].split(",")]
        if after != [before[0] + 2, before[1] + 10, before[2], before[3]]:
            fail(f"arrows moved {before} to {after}, not by (2, 10)")
        outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
        if outline in ("", "none"):
            fail("the focused rectangle shows no focus outline")
        # Undo the keyboard moves one by one, then redo them.
        page.click("#undo")
        page.click("#undo")
        page.click("#undo")
        if [int(n) for n in rects_of(page)[index].split(":")[0].split(",")] != before:
            fail("three Undo did not bring the rectangle back")
        page.click("#redo")
        page.click("#redo")
        page.click("#redo")
        settle(page)
        check_modes_resize_delete(page, x0, y0, scale)
        page.click("#save")
        wait_for(page, "() => document.getElementById('status').textContent.startsWith('Saved to')", "Save")
        status = page.inner_text("#status")
        if os.path.realpath(out) not in status:
            fail(f"Save did not say where: {status}")
        if SCREENSHOT:
            page.screenshot(path=SCREENSHOT)
        # OUT.png is what the command line the page shows makes.
        command = page.inner_text("#command")
        words = shlex.split(command)
        if words[:2] != ["blurlabel", "redact"] or words[-2] != "-o":
            fail(f"the page's command line: {words}")
        replay = os.path.join(work, "replay.png")
        subprocess.run([BLURLABEL] + words[1:-1] + [replay], check=True, capture_output=True)
        if open(out, "rb").read() != open(replay, "rb").read():
            fail("OUT.png differs from `blurlabel redact` run with the page's command line")
        check_preview_is(page, out)
        # Outside the rectangles OUT.png is the input: fill the rectangles in both, compare exactly.
        # Secure and blur rectangles change a margin of 2 px around them too (redact --margin).
        rect_args = [w for w in words[3:-2]]
        default_mode = rect_args[rect_args.index("--mode") + 1]
        rects = []
        for i, w in enumerate(rect_args):
            if w != "--rect":
                continue
            box, _, mode = rect_args[i + 1].partition(":")
            x, y, width, height = (int(n) for n in box.split(","))
            m = 2 if (mode or default_mode) in ("secure", "blur") else 0
            rects.append(f"{x - m},{y - m},{width + 2 * m},{height + 2 * m}")
        filled = []
        for name, path in (("in", source), ("out", out)):
            target = os.path.join(work, f"{name}-filled.png")
            args = [BLURLABEL, "redact", path, "--mode", "fill", "-o", target]
            for r in rects:
                args += ["--rect", r]
            subprocess.run(args, check=True, capture_output=True)
            filled.append(target)
        compare = subprocess.run([BLURLABEL, "diff", filled[0], filled[1], "--threshold", "0"], capture_output=True, text=True)
        if compare.returncode != 0:
            fail("outside the rectangles OUT.png differs from IN.png: " + compare.stdout + compare.stderr)
        if open(out, "rb").read() == open(source, "rb").read():
            fail("OUT.png is the input")
        saved = json.load(open(rects_file))
        if ([r["mode"] for r in saved["rects"]] != ["secure", "blur", "pixelate", "fill"]
                or saved["block"] != 5 or saved["color"] != "#ff0000" or saved["mode"] != "pixelate"):
            fail(f"--rects FILE.json holds {saved}")
        print("test-edit: drawn by drags (one up-left), moved, resized by both corners, secure, pixelate, fill, "
              "keyboard moves, Delete, undo/redo, Save: " + " ".join(shlex.quote(w) for w in words[2:]))
        page.click("#done")
        expect_exit(process, url, "Done", "stopped (Done)")
        page.close()
        # --rects loads the set again in a new session: the same command line, the same preview.
        process, url = start([source, "-o", out, "--rects", rects_file])
        page = browser.new_page(viewport={"width": 1000, "height": 800})
        page.goto(url)
        settle(page)
        if page.inner_text("#command") != command:
            fail(f"--rects loaded {page.inner_text('#command')}, not {command}")
        if not page.inner_text("#status").startswith("Loaded 4 rectangle(s)"):
            fail(f"loading --rects said {page.inner_text('#status')!r}")
        check_preview_is(page, out)
        # SIGTERM while the page is still open (its connection kept alive).
        process.send_signal(signal.SIGTERM)
        expect_exit(process, url, "SIGTERM", f"stopped (signal {int(signal.SIGTERM)})")
        page.close()
        # A file that is not a rectangle set is said so, and the page starts empty.
        with open(rects_file, "w") as f:
            f.write("not json\n")
        process, url = start([source, "-o", out, "--rects", rects_file])
        page = browser.new_page(viewport={"width": 1000, "height": 800})
        page.goto(url)
        settle(page)
        if "is not a rectangle set" not in page.inner_text("#status") or rects_of(page):
            fail(f"a broken --rects file: {page.inner_text('#status')!r} {rects_of(page)}")
        page.close()
        process.send_signal(signal.SIGINT)
        expect_exit(process, url, "Ctrl-C (SIGINT)", f"stopped (signal {int(signal.SIGINT)})")
        print("test-edit: --rects FILE.json saved, loaded again (same command line and preview), a broken one "
              "refused; Done, SIGTERM and SIGINT stop the server with status 0 and close its port")
    finally:
        if process.poll() is None:
            process.kill()


def latency_run(browser):
    source = os.path.join(work, "hd.png")
    write_png(source, 1920, 1080)
    process, url = start([source, "-o", os.path.join(work, "hd-out.png")])
    try:
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(url)
        settle(page)
        box = page.locator("#picture").bounding_box()
        x0, y0 = box["x"], box["y"]
        for i in range(5):
            drag(page, (x0 + 20 + 110 * i, y0 + 40), (x0 + 110 + 110 * i, y0 + 140))
        settle(page)
        if len(rects_of(page)) != 5:
            fail(f"five drags made {rects_of(page)}")
        latencies = []
        for i in range(20):
            dy = 10 if i % 2 == 0 else -10
            drag(page, (x0 + 60, y0 + 90 + (0 if dy > 0 else 10)), (x0 + 60 + 5, y0 + 90 + (10 if dy > 0 else 0)), steps=4)
            settle(page)
            latencies.append(page.evaluate("editStats.latencies[editStats.latencies.length - 1]"))
        print(f"test-edit: preview latency, 1920x1080, five rectangles, 20 drags, in the browser (request sent to the next frame after the parts are drawn): "
              f"median {statistics.median(latencies):.0f} ms, worst {max(latencies):.0f} ms")
        page.close()
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=10)


with sync_playwright() as playwright:
    browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True)
    main_run(browser)
    idle_run()
    open_run()
    latency_run(browser)
    browser.close()
print("test-edit: ok")
