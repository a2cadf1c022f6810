"""The comparison for Benchmarks/run-serve: a label service in Python, as a shop would write one
with Pillow (Raqm layout: HarfBuzz shaping, as blurlabel's), served by uvicorn. GET
/<anything>/<text>.png renders the text (unpadded base64url) at 32 px in DejaVu Sans, black on
white, padded by ceil(3 * 2.5) px, Gaussian blur 2.5, PNG at zlib level 6: the price tag
blurlabel serves for `size:32` with its defaults. Benchmark only; no signature check (which would
only make it slower)."""

import base64
import io
import math
import os

from PIL import Image, ImageDraw, ImageFilter, ImageFont

FONT = ImageFont.truetype(
    os.path.join(os.path.dirname(__file__), "..", "Fonts", "DejaVuSans.ttf"),
    32,
    layout_engine=ImageFont.Layout.RAQM,
)
PAD = math.ceil(3 * 2.5)


def render(text: str) -> bytes:
    left, top, right, bottom = FONT.getbbox(text)
    image = Image.new("RGB", (right - left + 2 * PAD, bottom - top + 2 * PAD), "white")
    ImageDraw.Draw(image).text((PAD - left, PAD - top), text, font=FONT, fill="black")
    out = io.BytesIO()
    image.filter(ImageFilter.GaussianBlur(2.5)).save(out, "PNG", compress_level=6)
    return out.getvalue()


async def app(scope, receive, send):
    if scope["type"] != "http":
        return
    segment = scope["path"].rsplit("/", 1)[-1]
    status, body = 404, b"not found"
    if segment.endswith(".png"):
        encoded = segment[:-4]
        try:
            text = base64.urlsafe_b64decode(encoded + "=" * (-len(encoded) % 4)).decode("utf-8")
            status, body = 200, render(text)
        except ValueError:
            status, body = 400, b"bad text"
    kind = b"image/png" if status == 200 else b"text/plain"
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", kind), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})
