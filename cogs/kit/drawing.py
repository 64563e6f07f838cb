"""Words and PNGs for the bot's pictures: the fonts shipped in cogs/fonts/, shaping and visual order for
every script (Persian included) without Raqm, and a fast PNG writer for pictures of flat shapes.

Every picture (Kaiten's board, /stats and /leaderboard charts, the game pictures) writes its words with
`draw_text`, cut to a width with `fit_text`, and encodes itself with `png`.
"""

from __future__ import annotations

import math
import struct
import unicodedata
import zlib
from functools import cache, lru_cache
from pathlib import Path

from arabic_reshaper import ArabicReshaper
from bidi import get_display
from fontTools.ttLib import TTFont
from PIL import Image, ImageDraw, ImageFont

Colour = tuple[int, int, int]

WIDTH = 640
"""Every picture's width in pixels: a card shows it about 560 px wide on a desktop."""
PHONE_WIDTH = 265
"""How wide a phone shows a picture (a 390 px screen, the card's margins taken off)."""
SMALLEST_SHOWN = 11
"""The smallest a word may be, in pixels, where a picture is shown smallest (a phone)."""
FONT = math.ceil(SMALLEST_SHOWN * WIDTH / PHONE_WIDTH)
"""The size of every word drawn (27 px: 11.2 px on a phone, 23.6 px on a desktop)."""

# Discord's dark theme, which every picture is drawn in.
BACKGROUND: Colour = (43, 45, 49)
PANEL: Colour = (54, 57, 63)
TEXT: Colour = (236, 236, 236)
DIM: Colour = (160, 160, 168)


class Side:
    """Left to right, or mirrored for a right-to-left language: a picture laid out from the left is
    drawn from the right, its words anchored on the side where reading starts."""

    def __init__(self, rtl: bool, width: int = WIDTH) -> None:
        self.rtl = rtl
        self.width = width

    def x(self, x: float) -> float:
        return self.width - x if self.rtl else x

    def box(self, x0: float, y0: float, x1: float, y1: float) -> tuple[float, float, float, float]:
        """A box given by its left-to-right corners, as drawn."""
        return (self.width - x1, y0, self.width - x0, y1) if self.rtl else (x0, y0, x1, y1)

    def anchor(self, anchor: str) -> str:
        """A word's anchor: what starts on the left starts on the right, mirrored."""
        return {"lm": "rm", "rm": "lm"}.get(anchor, anchor) if self.rtl else anchor

    def text(
        self, draw: ImageDraw.ImageDraw, x: float, y: float, text: str, fill: Colour, anchor: str
    ) -> None:
        """`text` at FONT size, `x` measured from where the line starts reading."""
        draw_text(draw, (self.x(x), y), text, fill, FONT, self.anchor(anchor))


# ---------------------------------------------------------------- fonts and shaping


FONTS = Path(__file__).resolve().parent / "fonts"
FONT_CHAIN = ("DejaVuSans.ttf", "DroidSansFallback-CJK.ttf")
"""Each character is drawn by the first of these fonts that has a glyph for it (cogs/fonts/README.md)."""

# Both fonts lay out text without Raqm, so the picture reads the same on every machine whether or not
# libraqm and FriBiDi are installed: arabic-reshaper picks each Persian letter's joined form
# (presentation forms, which DejaVu Sans has), python-bidi puts mixed text in visual order, and each
# run of one font is drawn left to right. Raqm could not order runs of two fonts anyway.
# DejaVu Sans has no glyph for the one-character ligature of "Allah": spelled letter by letter.
_RESHAPER = ArabicReshaper({"ARABIC LIGATURE ALLAH": False})
_INVISIBLE = {"Cc", "Cf"}
"""Controls and format characters (bidi marks and isolates, ZWJ, ZWNJ): they steer shaping and ordering
and are then left out."""


def _unwanted(char: str) -> bool:
    """Emoji presentation selectors and skin tones: without their emoji they would draw nothing useful."""
    code = ord(char)
    return 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF or 0x1F3FB <= code <= 0x1F3FF


@cache
def _coverage(index: int) -> frozenset[int]:
    """The code points font `index` of the chain has glyphs for (read once; the CJK font only when a
    character needs it)."""
    return frozenset(TTFont(FONTS / FONT_CHAIN[index], lazy=True).getBestCmap() or {})


def _font_of(char: str) -> int | None:
    """The first font of the chain that draws `char`, None when none does."""
    code = ord(char)
    return next((index for index in range(len(FONT_CHAIN)) if code in _coverage(index)), None)


def _drawable(char: str) -> str:
    """`char` as it can be drawn: itself, its compatibility form where only that has a glyph (𝐀 -> A,
    a presentation form DejaVu lacks -> its letter), or nothing."""
    if _unwanted(char):
        return ""
    if _font_of(char) is not None:
        return char
    plain = unicodedata.normalize("NFKC", char)
    if plain != char and all(_font_of(part) is not None for part in plain):
        return plain
    return ""


@cache
def fonts(size: int) -> tuple[ImageFont.FreeTypeFont, ...]:
    return tuple(
        ImageFont.truetype(str(FONTS / name), size, layout_engine=ImageFont.Layout.BASIC)
        for name in FONT_CHAIN
    )


@lru_cache(maxsize=1024)
def printable(text: str) -> str:
    """`text` without what no font draws (most emoji), its spaces collapsed; "" when nothing visible is
    left. Still in logical order, with the controls that shaping and ordering need."""
    kept = "".join(
        char if unicodedata.category(char) in _INVISIBLE else _drawable(char)
        for char in unicodedata.normalize("NFC", text)
        if unicodedata.category(char) != "Cc"
    )
    kept = " ".join(kept.split())
    if all(char.isspace() or unicodedata.category(char) in _INVISIBLE for char in kept):
        return ""
    return kept


@lru_cache(maxsize=1024)
def runs(text: str) -> tuple[tuple[int, str], ...]:
    """`text` as drawn: shaped, in visual order (left to right), cut into runs of one font each
    (its index in FONT_CHAIN). Characters no font has are left out."""
    visual = str(get_display(_RESHAPER.reshape(printable(text))))
    pieces: list[tuple[int, str]] = []
    for char in visual:
        if unicodedata.category(char) in _INVISIBLE:
            continue
        drawn = _drawable(char)
        if len(drawn) > 1 and unicodedata.bidirectional(char) in ("R", "AL"):
            drawn = drawn[::-1]  # a ligature spelled out, already in visual order
        for part in drawn:
            index = _font_of(part)
            assert index is not None, "_drawable keeps only what a font has"
            if pieces and pieces[-1][0] == index:
                pieces[-1] = (index, pieces[-1][1] + part)
            else:
                pieces.append((index, part))
    return tuple(pieces)


def text_width(text: str, size: int) -> float:
    """How wide `text` is drawn at `size` px."""
    chain = fonts(size)
    return sum(chain[index].getlength(run) for index, run in runs(text))


@lru_cache(maxsize=256)
def fit_text(text: str, size: int, width: float) -> str:
    """`text`, cut short with "…" where it is wider than `width` pixels."""
    if text_width(text, size) <= width:
        return text
    while text and text_width(text + "…", size) > width:
        text = text[:-1].rstrip()
    return text + "…"


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    fill: Colour,
    size: int,
    anchor: str = "lm",
) -> None:
    """Draw `text` like `draw.text` with a left, middle or right, vertically middle `anchor`, each run in
    its own font on one baseline (that of the first font, so mixed scripts line up)."""
    assert anchor in ("lm", "mm", "rm"), anchor
    chain = fonts(size)
    pieces = runs(text)
    widths = [chain[index].getlength(run) for index, run in pieces]
    x, y = xy
    x -= {"l": 0.0, "m": sum(widths) / 2, "r": sum(widths)}[anchor[0]]
    ascent, descent = chain[0].getmetrics()
    baseline = y + (ascent - descent) / 2
    for (index, run), width in zip(pieces, widths, strict=True):
        draw.text((x, baseline), run, fill=fill, font=chain[index], anchor="ls")
        x += width


# ---------------------------------------------------------------- PNG


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png(image: Image.Image) -> bytes:
    """An RGB picture as PNG, written here: rows unfiltered, deflated at level 3. Pillow's encoder tries
    every row filter on every row, two thirds of a render; a board of flat shapes deflates as small
    without them, three times faster (bench/bench_kaiten_render.py). zlib lets other threads run."""
    assert image.mode == "RGB", image.mode
    width, height = image.size
    raw = image.tobytes()
    stride = width * 3
    rows = b"".join(b"\x00" + raw[row * stride : (row + 1) * stride] for row in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8-bit RGB, no interlace
    return b"".join(
        (
            PNG_SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"IDAT", zlib.compress(rows, 3)),
            _chunk(b"IEND", b""),
        )
    )


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
