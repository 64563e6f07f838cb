"""Kaiten Sushi's picture: the whole table as a PNG, drawn from `GAME.view(state, None)` alone.

The card shows the picture at its full width: about 560 px on a desktop, 265 px on a phone. So the
picture is landscape (WIDTH x HEIGHT, about 9:4: 245 px tall on a desktop, so that the board
message, with the step's words and buttons, stays within one screen at every moment of a game) and
every word in it is written at least `SMALLEST_SHOWN` px tall on a phone: one font size, FONT, for every
word, and few words. On the left the 6x6 board (columns A-F from the left,
rows 1-6 from the top, as the words name cells: "C4"), the 24 pines around it with the sake, and the
reserve's pairs on a tray below it; on the right the plates, two by two, each with its player's name
(cut short with "…"), the points of each full (or spoiled: a red 0) row beside it and column below it,
the counters in hand (ginger, wasabi, soy: a disc and a number) and, dark on yellow in the corner where
the rows' and the columns' points meet, the score (the lines, the wasabi, the soy and the rarer rice).
The player to move has a yellow frame, and the sushi they hold stands after their name.

The picture uses simple shapes and the fonts shipped in cogs/fonts/ (any player's name: Latin, Cyrillic,
Persian, CJK; what no font has, such as most emoji, is left out rather than drawn as a box); the parts
that never change (background, coordinates, the 24 pines, empty plate slots) are drawn once and copied.
A full four-player board renders in a few milliseconds plus the PNG encoding (bench/bench_kaiten_render.py).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cache, lru_cache

from PIL import Image, ImageDraw

from cogs.kit.drawing import draw_text, fit_text, png, printable, text_width
from cogs.kit.words.text import is_rtl, number, t
from rules.kaiten.board import PLATE_SIZE as PLATE
from rules.kaiten.board import SIZE
from rules.kaiten.view import KaitenPlayerView, KaitenView, PineView

COLUMNS = "ABCDEF"
"""The board's columns from the left, as the picture writes them and the words name cells ("C4")."""

WIDTH, HEIGHT = 640, 280
"""The picture's size in pixels: shown 560 px wide on a desktop it is 245 px tall."""
PHONE_WIDTH = 265
"""How wide a phone shows the picture (a 390 px screen, the card's margins taken off)."""
SMALLEST_SHOWN = 11
"""The smallest a word may be, in pixels, where the picture is shown smallest (a phone)."""
FONT = math.ceil(SMALLEST_SHOWN * WIDTH / PHONE_WIDTH)
"""The size of every word drawn (27 px: 11.2 px on a phone, 23.6 px on a desktop)."""

# The board: column letters above it, row numbers left of it, a band of pines all round.
LABEL_W, LABEL_H = 24, 24
PINE_BAND = 11
CELL = 35
BOARD_X, BOARD_Y = LABEL_W + PINE_BAND, LABEL_H + PINE_BAND
BOARD_PX = SIZE * CELL
MAT_BOX = (LABEL_W, LABEL_H, BOARD_X + BOARD_PX + PINE_BAND, BOARD_Y + BOARD_PX + PINE_BAND)
# The reserve: its pairs in a row on a tray below the board.
RESERVE_BOX = (4, MAT_BOX[3] + 2, MAT_BOX[2], HEIGHT)
RESERVE_SUSHI = 20
RESERVE_GAP = 3
# The plates, two by two on the right, each in a box as wide as half the room and half the height.
PANEL_X = MAT_BOX[2] + 8
PLATE_BOX = (WIDTH - PANEL_X) // 2
PLATE_HIGH = HEIGHT // 2
PLATE_CELL = 27
PLATE_PAD = 10
HEADER = 35
"""The height of a plate box's first line (its player's name and score), above the plate."""
ROW_POINTS_X = PLATE_PAD + PLATE * PLATE_CELL + 10
COLUMN_POINTS_Y = HEADER + PLATE * PLATE_CELL + 10
COUNTER_X = ROW_POINTS_X + 14
"""Where a plate box's counters start (ginger, wasabi, soy, one beside each row of the plate)."""
HOLDING = 28
"""The size of the sushi the player to move holds, after their name."""

BACKGROUND = (43, 45, 49)
PANEL = (54, 57, 63)
MAT = (92, 70, 54)
TRAY = (74, 58, 46)
SLOT = (110, 86, 68)
TILE = (205, 186, 150)
LINE_SLOT = (168, 132, 70)
FETCHABLE = (255, 214, 92)
PINE = (150, 130, 110)
DISH = (225, 225, 230)
DISH_SLOT = (190, 190, 198)
DIVIDER = (84, 88, 96)
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
SCORE_TEXT = (40, 30, 0)

Words = dict[str, str]
WORD_KEYS: tuple[str, ...] = ("reserve", "empty")
"""The words the picture needs as they are: "Reserve: empty" once the reserve is used up. What it counts
it writes as numbers, and "Player 2" (what stands for a name of which no letter can be drawn) it words
itself, in the language of the locale it is given."""


def picture_words(locale: str | None) -> Words:
    """The words of WORD_KEYS in the language of `locale`, for `render_png`."""
    return {key: t(f"kaiten.picture.{key}", locale) for key in WORD_KEYS}


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
    """The top left corner of seat's box: seats 0 and 1 side by side, 2 and 3 below them."""
    column, row = seat % 2, seat // 2
    return PANEL_X + column * PLATE_BOX, row * PLATE_HIGH


def _plate_cells_origin(seat: int) -> tuple[int, int]:
    x, y = _plate_origin(seat)
    return x + PLATE_PAD, y + HEADER


def _panel_box(x: int, y: int) -> tuple[int, int, int, int]:
    return x + 3, y + 3, x + PLATE_BOX - 3, y + PLATE_HIGH - 3


def draw_sushi(image: Image.Image, box: tuple[int, int, int, int], sushi: str, pad: int) -> None:
    """A nigiri seen from above, pasted from its sprite (drawn once per kind and size)."""
    x0, y0, x1, y1 = box
    sprite = _sushi_sprite(x1 - x0, y1 - y0, sushi, pad)
    image.paste(sprite, (x0, y0), sprite)


@lru_cache(maxsize=256)
def _sushi_sprite(width: int, height: int, sushi: str, pad: int) -> Image.Image:
    """A rounded block of rice with its topping on it, on a transparent ground (shapes without
    antialiasing, so pasting it gives the very pixels drawing it there would). The topping takes most
    of the rice, so that its colour still shows on a phone."""
    sprite = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    draw = ImageDraw.Draw(sprite)
    rice, _, ingredient = sushi.partition(":")
    draw.rounded_rectangle(
        (pad, pad, width - pad, height - pad),
        radius=max(3, width // 5),
        fill=RICE[rice],
        outline=RICE_EDGE[rice],
        width=2,
    )
    inset = pad + max(3, (width - 2 * pad) // 5)
    draw.ellipse(
        (inset, inset, width - inset, height - inset),
        fill=INGREDIENT[ingredient],
        outline=INGREDIENT_EDGE.get(ingredient, RICE_EDGE[rice]),
        width=2,
    )
    return sprite


def _draw_sake(draw: ImageDraw.ImageDraw, centre: tuple[int, int]) -> None:
    """A sake bottle on a yellow disc, standing on its pine."""
    x, y = centre
    draw.ellipse((x - 9, y - 9, x + 9, y + 9), fill=(255, 214, 92), outline=(60, 40, 20))
    draw.rounded_rectangle((x - 5, y - 3, x + 5, y + 7), radius=3, fill=(250, 248, 240), outline=(60, 60, 60))
    draw.rectangle((x - 2, y - 8, x + 2, y - 3), fill=(250, 248, 240), outline=(60, 60, 60))
    draw.rectangle((x - 5, y + 1, x + 5, y + 3), fill=(40, 90, 170))


@cache
def _static_layer(players: int) -> Image.Image:
    """Everything that does not depend on the game: mat, coordinates, pines, tray, empty plates."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle(MAT_BOX, radius=12, fill=MAT)
    draw.rounded_rectangle(RESERVE_BOX, radius=8, fill=TRAY)
    for index in range(SIZE):
        middle = index * CELL + CELL // 2
        draw_text(draw, (BOARD_X + middle, LABEL_H // 2), COLUMNS[index], TEXT, FONT, "mm")
        draw_text(draw, (LABEL_W // 2, BOARD_Y + middle), str(index + 1), TEXT, FONT, "mm")
        for x, y in (
            (BOARD_X + middle, BOARD_Y - PINE_BAND // 2),
            (BOARD_X + middle, BOARD_Y + BOARD_PX + PINE_BAND // 2),
            (BOARD_X - PINE_BAND // 2, BOARD_Y + middle),
            (BOARD_X + BOARD_PX + PINE_BAND // 2, BOARD_Y + middle),
        ):
            draw.ellipse((x - 3, y - 3, x + 3, y + 3), fill=PINE)
    for seat in range(players):
        x, y = _plate_origin(seat)
        draw.rounded_rectangle(_panel_box(x, y), radius=10, fill=PANEL)
        px, py = _plate_cells_origin(seat)
        span = PLATE * PLATE_CELL
        draw.ellipse((px - 4, py - 4, px + span + 4, py + span + 4), fill=DISH)
        for cell in range(PLATE * PLATE):
            row, col = divmod(cell, PLATE)
            cx, cy = px + col * PLATE_CELL, py + row * PLATE_CELL
            draw.rounded_rectangle(
                (cx + 2, cy + 2, cx + PLATE_CELL - 2, cy + PLATE_CELL - 2), radius=5, outline=DISH_SLOT
            )
        # The counters' discs, one beside each row of the plate (ginger, wasabi, soy), apart from the
        # rows' points by a thin line.
        divider = x + COUNTER_X - 4
        draw.line((divider, py + 2, divider, py + span - 2), fill=DIVIDER, width=2)
        for row, colour in enumerate((GINGER, WASABI, SOY)):
            _counter_disc(draw, x + COUNTER_X, py + row * PLATE_CELL + PLATE_CELL // 2, colour)
    return image


def _counter_disc(draw: ImageDraw.ImageDraw, x: int, y: int, colour: tuple[int, int, int]) -> None:
    """A counter: a disc of its colour, 14 px wide, its left end at x, its middle at y."""
    draw.ellipse((x, y - 7, x + 14, y + 7), fill=colour, outline=RICE_EDGE["B"])


def _draw_board(image: Image.Image, draw: ImageDraw.ImageDraw, view: KaitenView) -> None:
    line = set(view["sake"]["cells"])
    fetchable = set(view["fetchable"])
    hidden_tile = [condiment is None for condiment in view["condiments"]]
    for cell, sushi in enumerate(view["board"]):
        x0, y0, x1, y1 = _cell_box(cell)
        draw.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), fill=LINE_SLOT if cell in line else SLOT)
        if hidden_tile[cell]:  # a face-down condiment tile still lies under this cell
            draw.rounded_rectangle((x0 + 3, y0 + 3, x1 - 3, y1 - 3), radius=5, fill=TILE)
        if sushi is not None:
            draw_sushi(image, (x0, y0, x1, y1), sushi, 6)
        if cell in fetchable:
            draw.rounded_rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), radius=6, outline=FETCHABLE, width=3)
    fetched_from = view["fetched_from"]
    if fetched_from is not None and view["phase"] == "place":
        x0, y0, x1, y1 = _cell_box(fetched_from)
        draw.rounded_rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), radius=6, outline=(255, 255, 255), width=2)
    _draw_sake(draw, _pine_centre(view["sake"]))


def _draw_reserve(image: Image.Image, draw: ImageDraw.ImageDraw, view: KaitenView, words: Words) -> None:
    """The reserve's pairs on their tray below the board, the next one on the left (black rice first);
    once it is used up, "Reserve: empty" in words."""
    x0, y0, x1, y1 = RESERVE_BOX
    middle = (y0 + y1) // 2
    if not view["reserve"]:
        text = fit_text(f"{words['reserve']}: {words['empty']}", FONT, x1 - x0 - 12)
        # Raised in its tray: room for descenders and Persian tails.
        draw_text(draw, ((x0 + x1) / 2, middle - 6), text, DIM, FONT, "mm")
        return
    pair = 2 * RESERVE_SUSHI
    x = x0 + 3
    top = middle - RESERVE_SUSHI // 2
    for black, white in view["reserve"]:
        for offset, sushi in enumerate((black, white)):
            left = x + offset * RESERVE_SUSHI
            draw_sushi(image, (left, top, left + RESERVE_SUSHI, top + RESERVE_SUSHI), sushi, 1)
        x += pair + RESERVE_GAP


def _draw_line_points(
    draw: ImageDraw.ImageDraw, player: KaitenPlayerView, x: int, y: int, locale: str | None
) -> None:
    """The points of each row (to its right) and column (below it) that scores already: a full line,
    or one a missing ginger spoils (its 0 in red)."""
    px, py = x + PLATE_PAD, y + HEADER
    for line in player["score_parts"]["lines"]:
        points = line["points"]
        if points is None:
            continue
        middle = line["index"] * PLATE_CELL + PLATE_CELL // 2
        xy = (x + ROW_POINTS_X, py + middle) if line["line"] == "row" else (px + middle, y + COLUMN_POINTS_Y)
        draw_text(draw, xy, number(points, locale), MISSING if line["spoiled"] else CURRENT, FONT, "mm")


def _draw_plate(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    player: KaitenPlayerView,
    name: str,
    current: bool,
    holding: str | None,
    due: list[list[int]],
    locale: str | None,
) -> None:
    seat = player["seat"]
    x, y = _plate_origin(seat)
    if current:
        draw.rounded_rectangle(_panel_box(x, y), radius=10, outline=CURRENT, width=3)
    rtl = is_rtl(locale)
    # The first line: the name, and after it the sushi the player to move holds; in a right-to-left
    # language from the right, where reading starts.
    start, end = x + PLATE_PAD, x + PLATE_BOX - PLATE_PAD
    room = end - start - (HOLDING + 6 if holding is not None else 0)
    # A name of emoji only would leave nothing: "Player 2" stands in for it.
    title = fit_text(printable(name) or t("kaiten.picture.seat", locale, seat=seat + 1), FONT, room)
    middle = y + HEADER // 2 + 1
    draw_text(draw, (end, middle) if rtl else (start, middle), title, TEXT, FONT, "rm" if rtl else "lm")
    if holding is not None:
        hx = start if rtl else end - HOLDING
        box = (hx, middle - HOLDING // 2, hx + HOLDING, middle + HOLDING // 2)
        draw.rounded_rectangle(box, radius=6, fill=PANEL, outline=(255, 255, 255), width=2)
        draw_sushi(image, box, holding, 2)
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
    _draw_line_points(draw, player, x, y, locale)
    # The counters in hand, each number after its disc (drawn with the static layer).
    for row, key in enumerate(("ginger", "wasabi", "soy")):
        count = number(player[key], locale)
        draw_text(
            draw, (x + COUNTER_X + 17, py + row * PLATE_CELL + PLATE_CELL // 2), count, TEXT, FONT, "lm"
        )
    # The score in the bottom right corner, where the rows' and the columns' points meet: dark on yellow.
    score = number(player["score"], locale)
    right, centre = x + PLATE_BOX - 6, y + COLUMN_POINTS_Y
    left = right - text_width(score, FONT) - 10
    draw.rounded_rectangle((left, centre - 12, right, centre + 11), radius=7, fill=CURRENT)
    draw_text(draw, ((left + right) / 2, centre), score, SCORE_TEXT, FONT, "mm")


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
    pending edge (its ginger still to be chosen) is larger, outlined white."""
    row, col = divmod(i, PLATE)
    if j == i + 1:  # side by side: a vertical mark on the shared edge
        ex, ey = px + (col + 1) * PLATE_CELL, py + row * PLATE_CELL + PLATE_CELL // 2
        box = (ex - 3, ey - 10, ex + 3, ey + 10)
    else:  # one above the other: a horizontal mark
        ex, ey = px + col * PLATE_CELL + PLATE_CELL // 2, py + (row + 1) * PLATE_CELL
        box = (ex - 10, ey - 3, ex + 10, ey + 3)
    if pending:
        x0, y0, x1, y1 = box
        draw.rounded_rectangle(
            (x0 - 3, y0 - 3, x1 + 3, y1 + 3), radius=5, fill=colour, outline=(255, 255, 255), width=2
        )
        return
    draw.rounded_rectangle(box, radius=3, fill=colour, outline=(60, 30, 40))


def render_png(view: KaitenView, names: Sequence[str], words: Words, locale: str | None = None) -> bytes:
    """The whole table as PNG bytes: board, sake, reserve, and one plate per seat.

    `names` per seat; `words` the few words drawn in the picture (keys of WORD_KEYS), already translated
    into the language of `locale`, which also writes the numbers and puts each name on the side of its
    plate where reading starts.
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
        _draw_plate(image, draw, player, names[int(player["seat"])], current, holding, due, locale)
    return png(image)
