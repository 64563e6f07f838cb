"""Kaiten Sushi's picture: the whole table as a PNG, drawn from `GAME.view(state, None)` alone.

The picture uses simple shapes and the fonts shipped in cogs/fonts/ (any player's name: Latin, Cyrillic,
Persian, CJK; what no font has, such as most emoji, is left out rather than drawn as a box); the parts
that never change (background, coordinates, the 24 pines, empty plate slots) are drawn once and copied.
Cells are drawn as the words name them: columns A-F from the left, rows 1-6 from the top ("C4"). A full
four-player board renders in a few milliseconds plus the PNG encoding (bench/bench_kaiten_render.py).

Every number on a plate is explained where it stands: each full (or spoiled) row and column has its
points beside it, and the counters below the plate their points after them (wasabi, soy, the rarer rice),
all in the score's colour, so the yellow numbers of a plate add up to the score above it.
"""

from __future__ import annotations

import struct
import unicodedata
import zlib
from collections.abc import Sequence
from functools import cache, lru_cache
from pathlib import Path

from arabic_reshaper import ArabicReshaper
from bidi import get_display
from fontTools.ttLib import TTFont
from PIL import Image, ImageDraw, ImageFont

from cogs.i18n import number, plural, signed, t
from rules.kaiten.board import PLATE_SIZE as PLATE
from rules.kaiten.board import SIZE
from rules.kaiten.view import KaitenPlayerView, KaitenView, PineView

COLUMNS = "ABCDEF"
"""The board's columns from the left, as the picture writes them and the words name cells ("C4")."""

CELL = 56
LABEL = 20
PINE_BAND = 28
BOARD_X = BOARD_Y = LABEL + PINE_BAND
BOARD_PX = SIZE * CELL
RESERVE_Y = BOARD_Y + BOARD_PX + PINE_BAND + 10
LEFT_WIDTH = BOARD_X + BOARD_PX + PINE_BAND + 14

PLATE_CELL = 42
PLATE_BOX_W = 256
PLATE_BOX_H = 236
PANEL_X = LEFT_WIDTH + 6
WIDTH = PANEL_X + 2 * PLATE_BOX_W + 14
HEIGHT = RESERVE_Y + 56

BACKGROUND = (43, 45, 49)
MAT = (92, 70, 54)
SLOT = (110, 86, 68)
TILE = (205, 186, 150)
LINE_SLOT = (168, 132, 70)
FETCHABLE = (255, 214, 92)
PINE = (150, 130, 110)
TEXT = (236, 236, 236)
DIM = (160, 160, 168)
RICE = {"B": (34, 34, 36), "W": (246, 242, 232)}
RICE_EDGE = {"B": (90, 90, 96), "W": (196, 188, 170)}
INGREDIENT = {
    "black": (12, 12, 12),
    "red": (222, 58, 52),
    "brown": (139, 86, 40),
    "green": (67, 160, 71),
    "yellow": (250, 210, 50),
    "beige": (232, 210, 166),
}
INGREDIENT_EDGE = {"black": (120, 120, 120), "beige": (170, 140, 96)}
GINGER = (247, 160, 181)
WASABI = (124, 179, 66)
SOY = (96, 56, 32)
MISSING = (255, 72, 72)
DUE = (255, 176, 32)
CURRENT = (255, 214, 92)

Words = dict[str, str]
WORD_KEYS: tuple[str, ...] = (
    "reserve",
    "empty",
    "holding",
    "no_ginger",
    "ginger_due",
    "rice",
    "side.top",
    "side.right",
    "side.bottom",
    "side.left",
)
"""The words the picture needs as they are; what it counts (the score, the counters) and "Player 2" (what
stands for a name of which no letter can be drawn) it words itself, by number, in the language of the
locale it is given (`counted`)."""


def counted(key: str, count: int, locale: str | None) -> str:
    """ "2 ginger", "1 jengibre" / "2 jengibres": `kaiten.picture.<key>` in the form for `count`, its
    number in the language's digits."""
    return plural(f"kaiten.picture.{key}", count, locale)


def picture_words(locale: str | None) -> Words:
    """The words of WORD_KEYS in the language of `locale`, for `render_png`."""
    return {
        key: t(f"kaiten.{key}" if key.startswith("side.") else f"kaiten.picture.{key}", locale)
        for key in WORD_KEYS
    }


# ---------------------------------------------------------------- fonts and shaping


FONTS = Path(__file__).resolve().parents[1] / "fonts"
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
def _fonts(size: int) -> tuple[ImageFont.FreeTypeFont, ...]:
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


def _width(text: str, size: int) -> float:
    fonts = _fonts(size)
    return sum(fonts[index].getlength(run) for index, run in runs(text))


@lru_cache(maxsize=256)
def _fit(text: str, size: int, width: float) -> str:
    """`text`, cut short with "…" where it is wider than `width` pixels."""
    if _width(text, size) <= width:
        return text
    while text and _width(text + "…", size) > width:
        text = text[:-1].rstrip()
    return text + "…"


def _text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    fill: tuple[int, int, int],
    size: int,
    anchor: str = "lm",
) -> None:
    """Draw `text` like `draw.text` with a left, middle or right, vertically middle `anchor`, each run in
    its own font on one baseline (that of the first font, so mixed scripts line up)."""
    assert anchor in ("lm", "mm", "rm"), anchor
    fonts = _fonts(size)
    pieces = runs(text)
    widths = [fonts[index].getlength(run) for index, run in pieces]
    x, y = xy
    x -= {"l": 0.0, "m": sum(widths) / 2, "r": sum(widths)}[anchor[0]]
    ascent, descent = fonts[0].getmetrics()
    baseline = y + (ascent - descent) / 2
    for (index, run), width in zip(pieces, widths, strict=True):
        draw.text((x, baseline), run, fill=fill, font=fonts[index], anchor="ls")
        x += width


# ---------------------------------------------------------------- drawing


def _cell_box(cell: int) -> tuple[int, int, int, int]:
    row, col = divmod(cell, SIZE)
    x, y = BOARD_X + col * CELL, BOARD_Y + row * CELL
    return x, y, x + CELL, y + CELL


def _pine_centre(pine: PineView) -> tuple[int, int]:
    """The middle of a pine's edge space: beside its row or column, on its side of the board."""
    middle = pine["index"] * CELL + CELL // 2
    if pine["line"] == "column":
        y = BOARD_Y - PINE_BAND // 2 if pine["side"] == "top" else BOARD_Y + BOARD_PX + PINE_BAND // 2
        return BOARD_X + middle, y
    x = BOARD_X + BOARD_PX + PINE_BAND // 2 if pine["side"] == "right" else BOARD_X - PINE_BAND // 2
    return x, BOARD_Y + middle


def _plate_origin(seat: int) -> tuple[int, int]:
    column, row = seat % 2, seat // 2
    return PANEL_X + column * PLATE_BOX_W, 8 + row * PLATE_BOX_H


def _plate_cells_origin(seat: int) -> tuple[int, int]:
    x, y = _plate_origin(seat)
    return x + 14, y + 40


def draw_sushi(image: Image.Image, box: tuple[int, int, int, int], sushi: str, pad: int) -> None:
    """A nigiri seen from above, pasted from its sprite (drawn once per kind and size)."""
    x0, y0, x1, y1 = box
    sprite = _sushi_sprite(x1 - x0, y1 - y0, sushi, pad)
    image.paste(sprite, (x0, y0), sprite)


@lru_cache(maxsize=256)
def _sushi_sprite(width: int, height: int, sushi: str, pad: int) -> Image.Image:
    """A rounded block of rice with its topping on it, on a transparent ground (shapes without
    antialiasing, so pasting it gives the very pixels drawing it there would)."""
    sprite = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    draw = ImageDraw.Draw(sprite)
    rice, _, ingredient = sushi.partition(":")
    x0, y0, x1, y1 = 0, 0, width, height
    draw.rounded_rectangle(
        (x0 + pad, y0 + pad, x1 - pad, y1 - pad),
        radius=max(3, (x1 - x0) // 5),
        fill=RICE[rice],
        outline=RICE_EDGE[rice],
        width=2,
    )
    inset = pad + (x1 - x0) // 5
    draw.ellipse(
        (x0 + inset, y0 + inset + 1, x1 - inset, y1 - inset - 1),
        fill=INGREDIENT[ingredient],
        outline=INGREDIENT_EDGE.get(ingredient, RICE_EDGE[rice]),
        width=2,
    )
    return sprite


def _draw_sake(draw: ImageDraw.ImageDraw, centre: tuple[int, int]) -> None:
    """A small sake bottle standing on the pine."""
    x, y = centre
    draw.ellipse((x - 11, y - 11, x + 11, y + 11), fill=(255, 214, 92))
    draw.rounded_rectangle((x - 6, y - 4, x + 6, y + 9), radius=4, fill=(250, 248, 240), outline=(60, 60, 60))
    draw.rectangle((x - 2, y - 10, x + 2, y - 4), fill=(250, 248, 240), outline=(60, 60, 60))
    draw.rectangle((x - 6, y + 1, x + 6, y + 4), fill=(40, 90, 170))


@cache
def _static_layer(players: int) -> Image.Image:
    """Everything that does not depend on the game: mat, coordinates, pines, empty plate slots."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle(
        (
            BOARD_X - PINE_BAND,
            BOARD_Y - PINE_BAND,
            BOARD_X + BOARD_PX + PINE_BAND,
            BOARD_Y + BOARD_PX + PINE_BAND,
        ),
        radius=14,
        fill=MAT,
    )
    for index in range(SIZE):
        middle = index * CELL + CELL // 2
        _text(draw, (BOARD_X + middle, LABEL // 2), COLUMNS[index], TEXT, 14, "mm")
        _text(draw, (LABEL // 2, BOARD_Y + middle), str(index + 1), TEXT, 14, "mm")
        for x, y in (
            (BOARD_X + middle, BOARD_Y - PINE_BAND // 2),
            (BOARD_X + middle, BOARD_Y + BOARD_PX + PINE_BAND // 2),
            (BOARD_X - PINE_BAND // 2, BOARD_Y + middle),
            (BOARD_X + BOARD_PX + PINE_BAND // 2, BOARD_Y + middle),
        ):
            draw.ellipse((x - 4, y - 4, x + 4, y + 4), fill=PINE)
    for seat in range(players):
        x, y = _plate_origin(seat)
        draw.rounded_rectangle(
            (x + 4, y, x + PLATE_BOX_W - 6, y + PLATE_BOX_H - 10), radius=12, fill=(54, 57, 63)
        )
        px, py = _plate_cells_origin(seat)
        span = PLATE * PLATE_CELL
        draw.ellipse((px - 6, py - 6, px + span + 6, py + span + 6), fill=(225, 225, 230))
        for cell in range(PLATE * PLATE):
            row, col = divmod(cell, PLATE)
            cx, cy = px + col * PLATE_CELL, py + row * PLATE_CELL
            draw.rounded_rectangle(
                (cx + 2, cy + 2, cx + PLATE_CELL - 2, cy + PLATE_CELL - 2), radius=6, outline=(190, 190, 198)
            )
    return image


def _draw_board(image: Image.Image, draw: ImageDraw.ImageDraw, view: KaitenView) -> None:
    line = set(view["sake"]["cells"])
    fetchable = set(view["fetchable"])
    hidden_tile = [condiment is None for condiment in view["condiments"]]
    for cell, sushi in enumerate(view["board"]):
        x0, y0, x1, y1 = _cell_box(cell)
        draw.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), fill=LINE_SLOT if cell in line else SLOT)
        if hidden_tile[cell]:  # a face-down condiment tile still lies under this cell
            draw.rounded_rectangle((x0 + 4, y0 + 4, x1 - 4, y1 - 4), radius=5, fill=TILE)
        if sushi is not None:
            draw_sushi(image, (x0, y0, x1, y1), sushi, 7)
        if cell in fetchable:
            draw.rounded_rectangle((x0 + 2, y0 + 2, x1 - 2, y1 - 2), radius=7, outline=FETCHABLE, width=3)
    fetched_from = view["fetched_from"]
    if fetched_from is not None and view["phase"] == "place":
        x0, y0, x1, y1 = _cell_box(fetched_from)
        draw.rounded_rectangle((x0 + 2, y0 + 2, x1 - 2, y1 - 2), radius=7, outline=(255, 255, 255), width=2)
    _draw_sake(draw, _pine_centre(view["sake"]))


def _draw_reserve(image: Image.Image, draw: ImageDraw.ImageDraw, view: KaitenView, words: Words) -> None:
    _text(draw, (BOARD_X - PINE_BAND, RESERVE_Y + 18), words["reserve"], DIM, 14)
    x = BOARD_X + 32
    for black, white in view["reserve"]:
        for sushi in (black, white):
            draw_sushi(image, (x, RESERVE_Y + 4, x + 28, RESERVE_Y + 32), sushi, 2)
            x += 25
        x += 8
    if not view["reserve"]:
        _text(draw, (x, RESERVE_Y + 18), words["empty"], DIM, 14)


COUNTERS = (102, PLATE_BOX_W - 14 - 4 - 102 - 12)
"""The widths of the two columns of counters below a plate: the right one holds the longer words."""


def _counter(
    draw: ImageDraw.ImageDraw,
    xy: tuple[int, int, int],
    colours: tuple[tuple[int, int, int], tuple[int, int, int]],
    what: str,
    points: int,
    locale: str | None,
) -> None:
    """One counter below a plate at (x, y, its column's width): its disc (two colours: halves), what
    it counts, and the points it adds to the score, right-aligned in the score's colour (none when it
    adds nothing)."""
    x, y, width = xy
    box = (x, y, x + 16, y + 16)
    draw.pieslice(box, 90, 270, fill=colours[0])
    draw.pieslice(box, 270, 90, fill=colours[1])
    draw.ellipse(box, outline=RICE_EDGE["B"])  # a ring that shows even round black rice
    room = width - 21 - 2
    if points:
        worth = signed(points, locale)
        _text(draw, (x + width - 2, y + 8), worth, CURRENT, 12, "rm")
        room -= int(_width(worth, 12)) + 4
    _text(draw, (x + 21, y + 8), _fit(what, 12, room), TEXT, 12)


def _draw_line_points(
    draw: ImageDraw.ImageDraw, player: KaitenPlayerView, px: int, py: int, locale: str | None
) -> None:
    """The points of each row (to its right) and column (below it) that scores already: a full line,
    or one a missing ginger spoils (its 0 in red)."""
    for line in player["score_parts"]["lines"]:
        points = line["points"]
        if points is None:
            continue
        middle = line["index"] * PLATE_CELL + PLATE_CELL // 2
        if line["line"] == "row":
            xy = (px + PLATE * PLATE_CELL + 13, py + middle)
        else:
            xy = (px + middle, py + PLATE * PLATE_CELL + 14)
        _text(draw, xy, number(points, locale), MISSING if line["spoiled"] else CURRENT, 12, "mm")


def _draw_plate(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    player: KaitenPlayerView,
    name: str,
    current: bool,
    holding: str | None,
    due: list[list[int]],
    words: Words,
    locale: str | None,
) -> None:
    seat = player["seat"]
    x, y = _plate_origin(seat)
    if current:
        draw.rounded_rectangle(
            (x + 4, y, x + PLATE_BOX_W - 6, y + PLATE_BOX_H - 10), radius=12, outline=CURRENT, width=3
        )
    points = counted("points", player["score"], locale)
    _text(draw, (x + PLATE_BOX_W - 18, y + 16), points, CURRENT, 16, "rm")
    # A name of emoji only would leave nothing: "Player 2" stands in for it.
    title = printable(name) or t("kaiten.picture.seat", locale, seat=seat + 1)
    room = PLATE_BOX_W - 18 - 16 - 8 - _width(points, 16)
    _text(draw, (x + 16, y + 16), _fit(title, 16, room), TEXT, 16)
    side = words[f"side.{player['side']}"]
    _text(draw, (x + 16, y + 32), side, DIM, 11)
    # What stands out on this plate, under its score: the ginger to choose now, else a missing one.
    note = (
        (words["ginger_due"], DUE)
        if due
        else (words["no_ginger"], MISSING)
        if player["missing_ginger"]
        else None
    )
    if note is not None:
        room = PLATE_BOX_W - 18 - 16 - 8 - _width(side, 11)
        _text(draw, (x + PLATE_BOX_W - 18, y + 32), _fit(note[0], 11, room), note[1], 11, "rm")
    px, py = _plate_cells_origin(seat)
    for cell, sushi in enumerate(player["plate"]):
        if sushi is None:
            continue
        row, col = divmod(cell, PLATE)
        cx, cy = px + col * PLATE_CELL, py + row * PLATE_CELL
        draw_sushi(image, (cx, cy, cx + PLATE_CELL, cy + PLATE_CELL), sushi, 3)
    for edges, colour in ((player["ginger_edges"], GINGER), (player["missing_ginger"], MISSING), (due, DUE)):
        for i, j in edges:
            _edge_mark(draw, px, py, min(i, j), max(i, j), colour, pending=colour == DUE)
    _draw_line_points(draw, player, px, py, locale)
    if holding is not None:
        hx = px + PLATE * PLATE_CELL + 28
        _text(draw, (hx + 20, py + 4), words["holding"], DIM, 11, "mm")
        draw_sushi(image, (hx, py + 12, hx + 40, py + 52), holding, 3)
    parts = player["score_parts"]
    fewer = parts["fewer_rice"]
    rice = (RICE[fewer], RICE[fewer]) if fewer else (RICE["B"], RICE["W"])  # as many of each: halves
    left, right, base = x + 14, x + 14 + COUNTERS[0] + 4, y + PLATE_BOX_H - 46
    ginger, wasabi, soy = (counted(key, player[key], locale) for key in ("ginger", "wasabi", "soy"))
    _counter(draw, (left, base, COUNTERS[0]), (GINGER, GINGER), ginger, 0, locale)
    _counter(draw, (left, base + 18, COUNTERS[0]), (WASABI, WASABI), wasabi, parts["wasabi"], locale)
    _counter(draw, (right, base, COUNTERS[1]), (SOY, SOY), soy, parts["soy"], locale)
    _counter(draw, (right, base + 18, COUNTERS[1]), rice, words["rice"], parts["rice"], locale)


def _edge_mark(
    draw: ImageDraw.ImageDraw,
    px: int,
    py: int,
    i: int,
    j: int,
    colour: tuple[int, int, int],
    *,
    pending: bool = False,
) -> None:
    """A ginger slice (or a red gap where one is missing) across the edge between plate cells i < j; a
    pending edge (its ginger still to be chosen) is larger, outlined white, with a "?"."""
    row, col = divmod(i, PLATE)
    if j == i + 1:  # side by side: a vertical mark on the shared edge
        ex, ey = px + (col + 1) * PLATE_CELL, py + row * PLATE_CELL + PLATE_CELL // 2
        box = (ex - 4, ey - 12, ex + 4, ey + 12)
    else:  # one above the other: a horizontal mark
        ex, ey = px + col * PLATE_CELL + PLATE_CELL // 2, py + (row + 1) * PLATE_CELL
        box = (ex - 12, ey - 4, ex + 12, ey + 4)
    if pending:
        x0, y0, x1, y1 = box
        box = (x0 - 3, y0 - 3, x1 + 3, y1 + 3)
        draw.rounded_rectangle(box, radius=5, fill=colour, outline=(255, 255, 255), width=2)
        _text(draw, (ex, ey), "?", (40, 20, 0), 12, "mm")
        return
    draw.rounded_rectangle(box, radius=4, fill=colour, outline=(60, 30, 40))


def render_png(view: KaitenView, names: Sequence[str], words: Words, locale: str | None = None) -> bytes:
    """The whole table as PNG bytes: board, sake, reserve, and one plate per seat.

    `names` per seat; `words` the few words drawn in the picture (keys of WORD_KEYS), already translated
    into the language of `locale`, which also writes the numbers.
    """
    players = view["players"]
    image = _static_layer(len(players)).copy()
    draw = ImageDraw.Draw(image)
    _draw_board(image, draw, view)
    _draw_reserve(image, draw, view, words)
    for player in players:
        current = view["turn"] == player["seat"]
        holding = view["holding"] if current else None
        due = view["ginger_due"] if current else []
        _draw_plate(image, draw, player, names[int(player["seat"])], current, holding, due, words, locale)
    return png(image)


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
