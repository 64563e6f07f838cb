"""Rock the Bock's picture: every player's sheet as a compact panel, drawn from `GAME.view(state, None)`.

The card shows the picture at its full width: about 560 px on a desktop, 265 px on a phone. So every
word is written FONT px tall (11 px on a phone), and there are few of them: one panel of two lines per
seat, no column heads (the board's first message words the sheet, `rockthebock.picture.legend`). A
panel's first line is the seat's goat colour and name (cut short with "…") and, on the far side, the
dice it has left (a die and their number, or "out") and the earlier rounds' total; at the end its rank
instead of the dice, every round's score and the total on yellow. Its second line is the sheet: the
bocks (10 small boxes, white as the die's face), the wolves (12, grey) and the goats (12, in the seat's
colour) filled in as marked, each with its count, the bocks' lead over the wolves (>, <, =) between
them, and the round's score so far (green, red, or grey for 0). The player to move has a yellow frame
and a marker before their name. In a right-to-left language the whole panel is mirrored, so that it
reads from the right.

Four players fit in 264 px (2 players: 132 px): shown 560 px wide, the board with a throw of wolves and
its row of victims' buttons stays within a desktop screen. The picture depends only on the sheets,
whose turn it is, the names and the language, not on the dice thrown: it is drawn again only when a
colour is scored (`_drawn` keeps the last pictures, keyed on what they show).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

from PIL import Image, ImageDraw

from cogs.kit.drawing import (
    BACKGROUND,
    DIM,
    FONT,
    PANEL,
    TEXT,
    WIDTH,
    Colour,
    Side,
    draw_text,
    fit_text,
    png,
    printable,
    text_width,
)
from cogs.kit.words.text import is_rtl, number, signed, t
from rules.rockthebock.game import RockTheBockView

MARGIN = 6
"""Left and right of the panels."""
EDGE = 2
"""Above the first panel and below the last."""
PANEL_H = 62
GAP = 4
PAD = 10
ROW_A = 17
"""The middle of a panel's first line (colour, name, dice, totals), from the panel's top: a name's
accents and descenders (33 px of ink at FONT) stay within the panel and clear of the second line."""
ROW_B = 46
"""The middle of a panel's second line, the sheet: two rows of BOX_W x BOX_H boxes, and the counts."""
BOX_W, BOX_H = 16, 11
STEP_X, STEP_Y = BOX_W + 2, BOX_H + 2
GRID_H = BOX_H + STEP_Y
GRID_TOP = ROW_B - GRID_H // 2
CHIP = 24
"""The goat colour's square before a name."""
DIE = 24
BADGE_H = 28
SCORE_H = 26
"""The round score's badge on the second line."""

# Where a sheet's parts stand, left to right from the panel's left edge (mirrored in right-to-left):
# each row's boxes and its count, the lead (>, <, =) after the bocks, "=" and the round's score.
NUMBER_W = 36
"""Room for a count of two digits."""
RELATION_W = 36
COUNT_GAP = 6
"""Between a row's boxes and its count."""
BOCKS_X = PAD
WOLVES_X = BOCKS_X + 5 * STEP_X - 2 + COUNT_GAP + NUMBER_W + RELATION_W
GOATS_X = WOLVES_X + 6 * STEP_X - 2 + COUNT_GAP + NUMBER_W + 16
EQUALS_X = GOATS_X + 6 * STEP_X - 2 + COUNT_GAP + NUMBER_W + 4
EQUALS_W = 30
PANEL_W = WIDTH - 2 * MARGIN
BADGE_RIGHT = PANEL_W - PAD
LEAD = 28
"""Room before the colour's square: the marker of the player to move, or the rank at the end."""
CHIP_X = PAD + LEAD + 6
NAME_X = CHIP_X + CHIP + 8

EMPTY = (72, 76, 84)
"""A box not marked yet."""
CURRENT = (255, 214, 92)
SCORE_TEXT = (40, 30, 0)
GAIN = (87, 242, 135)
LOSS = (237, 66, 69)
BOCK = (246, 246, 240)
WOLF = (150, 152, 162)
GOAT: dict[str, Colour] = {
    "red": (221, 46, 68),
    "blue": (85, 172, 238),
    "green": (120, 177, 89),
    "yellow": (253, 203, 88),
}
"""The goat colours as the board's squares show them (🟥 🟦 🟩 🟨)."""
MEDAL: dict[int, Colour] = {1: (250, 199, 60), 2: (192, 197, 206), 3: (205, 127, 50)}
RANK = (92, 96, 104)
"""The disc of a rank below the third."""


class Sheet(NamedTuple):
    """What the picture shows of one sheet."""

    colour: str
    bocks: int
    wolves: int
    goats: int
    left: int
    """Dice still to throw this round (0: out of the round)."""
    round_score: int
    round_scores: tuple[int, ...]
    total: int


class Table(NamedTuple):
    """What the picture shows: the sheets, whose turn it is, the caps; at the end, the ranks."""

    sheets: tuple[Sheet, ...]
    turn: int | None
    ranking: tuple[int, ...] | None
    caps: tuple[int, int, int]


def shown(view: RockTheBockView) -> Table:
    """The part of the view the picture draws: a key that changes only when the picture does."""
    sheets = tuple(
        Sheet(
            sheet["colour"],
            sheet["bocks"],
            sheet["wolves"],
            sheet["goats"],
            0 if sheet["out"] else view["symbols"] - sheet["struck"],
            sheet["round_score"],
            tuple(sheet["round_scores"]),
            sheet["total"],
        )
        for sheet in view["sheets"]
    )
    ranking = tuple(view["ranking"]) if view["over"] and view["ranking"] is not None else None
    caps = view["caps"]
    return Table(sheets, view["turn"], ranking, (caps["bocks"], caps["wolves"], caps["goats"]))


def height(players: int) -> int:
    """The picture's height for a table of `players`."""
    return 2 * EDGE + players * PANEL_H + (players - 1) * GAP


def panel_top(row: int) -> int:
    """Where the `row`th panel from the top starts."""
    return EDGE + row * (PANEL_H + GAP)


def render_png(view: RockTheBockView, names: Sequence[str], locale: str | None = None) -> bytes:
    """The sheets as PNG bytes: during the game with the player to move marked, at the end best first.

    `names` per seat, as stored (`TableContext.plain_name`); `locale` words "out" and writes
    the numbers, and mirrors the panels in a right-to-left language.
    """
    return _drawn(shown(view), tuple(names), locale)


@lru_cache(maxsize=64)
def _drawn(table: Table, names: tuple[str, ...], locale: str | None) -> bytes:
    players = len(table.sheets)
    image = Image.new("RGB", (WIDTH, height(players)), BACKGROUND)
    place = Side(is_rtl(locale))
    out = t("rockthebock.picture.out", locale)
    order = list(range(players))
    if table.ranking is not None:
        ranking = table.ranking
        order.sort(key=lambda seat: (ranking[seat], seat))
    for row, seat in enumerate(order):
        top = panel_top(row)
        rank = None if table.ranking is None else table.ranking[seat]
        name = printable(names[seat]) or t("rockthebock.picture.seat", locale, seat=seat + 1)
        panel = _Panel(image, place, top, locale)
        panel.frame(current=table.turn == seat)
        panel.heading(table.sheets[seat], name, rank, out, current=table.turn == seat)
        panel.sheet(table.sheets[seat], table.caps)
    return png(image)


class _Panel:
    """One seat's panel, `top` px down the picture."""

    def __init__(self, image: Image.Image, place: Side, top: int, locale: str | None) -> None:
        self.image, self.draw = image, ImageDraw.Draw(image)
        self.place, self.top, self.locale = place, top, locale

    def box(self, x0: float, y0: float, x1: float, y1: float) -> tuple[float, float, float, float]:
        """A box inside the panel, given left to right from its top left corner."""
        return self.place.box(MARGIN + x0, self.top + y0, MARGIN + x1, self.top + y1)

    def text(self, x: float, y: float, text: str, fill: Colour, anchor: str = "lm") -> None:
        draw_text(
            self.draw, (self.place.x(MARGIN + x), self.top + y), text, fill, FONT, self.place.anchor(anchor)
        )

    def frame(self, *, current: bool) -> None:
        self.draw.rounded_rectangle(
            self.box(0, 0, PANEL_W, PANEL_H),
            radius=10,
            fill=PANEL,
            outline=CURRENT if current else None,
            width=3,
        )

    def heading(self, sheet: Sheet, name: str, rank: int | None, out: str, *, current: bool) -> None:
        """The first line: marker or rank, colour, name; on the far side dice left and totals."""
        if rank is not None:
            self.rank(rank)
        elif current:
            self.marker()
        self.draw.rounded_rectangle(
            self.box(CHIP_X, ROW_A - CHIP / 2, CHIP_X + CHIP, ROW_A + CHIP / 2),
            radius=5,
            fill=GOAT[sheet.colour],
        )
        end = BADGE_RIGHT
        if rank is not None:  # the game is over: every round's score and the total
            end = self.badge(end, signed(sheet.total, self.locale), CURRENT, SCORE_TEXT, ROW_A) - 12
            for score in reversed(sheet.round_scores):  # each apart: in its place in either direction
                written = signed(score, self.locale)
                self.text(end, ROW_A, written, DIM, "rm")
                end -= text_width(written, FONT) + 12
            end -= 4
        else:
            if sheet.round_scores:  # the earlier rounds' total
                end = self.badge(end, signed(sheet.total, self.locale), CURRENT, SCORE_TEXT, ROW_A) - 12
            end = self.dice(end, sheet.left, out) - 14
        self.text(NAME_X, ROW_A, fit_text(name, FONT, end - NAME_X), TEXT)

    def marker(self) -> None:
        """A yellow triangle pointing at the name of the player to move."""
        x0, x1 = PAD + LEAD - 18, PAD + LEAD - 2
        corners = [(x0, ROW_A - 9), (x1, ROW_A), (x0, ROW_A + 9)]
        self.draw.polygon([(self.place.x(MARGIN + x), self.top + y) for x, y in corners], fill=CURRENT)

    def rank(self, rank: int) -> None:
        """The seat's place at the end, on a gold, silver or bronze disc."""
        radius = LEAD / 2
        self.draw.ellipse(
            self.box(PAD, ROW_A - radius, PAD + LEAD, ROW_A + radius), fill=MEDAL.get(rank, RANK)
        )
        ink = SCORE_TEXT if rank in MEDAL else TEXT
        self.text(PAD + LEAD / 2, ROW_A, number(rank, self.locale), ink, "mm")

    def dice(self, end: float, left: int, out: str) -> float:
        """The dice still to throw, ending at `end`: a die and their number, or "out"; returns where
        it starts."""
        if not left:
            self.text(end, ROW_A, out, DIM, "rm")
            return end - text_width(out, FONT)
        count = number(left, self.locale)
        self.text(end, ROW_A, count, TEXT, "rm")
        right = end - text_width(count, FONT) - 6
        self.draw.rounded_rectangle(
            self.box(right - DIE, ROW_A - DIE / 2, right, ROW_A + DIE / 2), radius=5, fill=BOCK
        )
        middle = right - DIE / 2
        for dx, dy in ((-6, -6), (6, 6), (0, 0), (-6, 6), (6, -6)):  # the five of a die
            x, y = middle + dx, ROW_A + dy
            self.draw.ellipse(self.box(x - 2, y - 2, x + 2, y + 2), fill=BACKGROUND)
        return right - DIE

    def badge(
        self,
        end: float,
        text: str,
        fill: Colour,
        ink: Colour,
        middle: float,
        outline: Colour | None = None,
        tall: float = BADGE_H,
    ) -> float:
        """`text` on a rounded badge `tall` px high ending at `end`; returns where it starts."""
        start = end - text_width(text, FONT) - 16
        self.draw.rounded_rectangle(
            self.box(start, middle - tall / 2, end, middle + tall / 2),
            radius=8,
            fill=fill,
            outline=outline,
            width=2,
        )
        self.text((start + end) / 2, middle, text, ink, "mm")
        return start

    def sheet(self, sheet: Sheet, caps: tuple[int, int, int]) -> None:
        """The second line: the boxes of bocks, wolves and goats filled in as marked, each count, the
        lead between bocks and wolves, and the round's score."""
        cap_bocks, cap_wolves, cap_goats = caps
        rows = (
            (BOCKS_X, sheet.bocks, cap_bocks, BOCK),
            (WOLVES_X, sheet.wolves, cap_wolves, WOLF),
            (GOATS_X, sheet.goats, cap_goats, GOAT[sheet.colour]),
        )
        for x, marked, cap, colour in rows:
            end = self.boxes(x, marked, cap, colour)
            self.text(end + COUNT_GAP + NUMBER_W / 2, ROW_B, number(marked, self.locale), TEXT, "mm")
        lead = (sheet.bocks > sheet.wolves) - (sheet.wolves > sheet.bocks)
        relation = {1: ">", -1: "<", 0: "="}[-lead if self.place.rtl else lead]  # mirrored with the sheet
        self.text(WOLVES_X - RELATION_W / 2, ROW_B, relation, DIM, "mm")
        score = sheet.round_score
        ink = GAIN if score > 0 else LOSS if score < 0 else DIM
        self.text(EQUALS_X + EQUALS_W / 2, ROW_B, "=", DIM, "mm")
        written = signed(score, self.locale)
        end = EQUALS_X + EQUALS_W + 6 + text_width(written, FONT) + 16
        self.badge(end, written, BACKGROUND, ink, ROW_B, outline=ink, tall=SCORE_H)

    def boxes(self, x: float, marked: int, cap: int, colour: Colour) -> float:
        """A row's `cap` boxes in two lines from `x`, the first `marked` filled; returns where they end."""
        sprite = _boxes(marked, cap, colour, self.place.rtl)
        x0, y0, _, _ = self.box(x, GRID_TOP, x + sprite.width, GRID_TOP + sprite.height)
        self.image.paste(sprite, (int(x0), int(y0)))
        return x + sprite.width


@lru_cache(maxsize=256)
def _boxes(marked: int, cap: int, colour: Colour, rtl: bool) -> Image.Image:
    """A row's boxes on the panel's ground, drawn once per count (rounded boxes are slow to draw), the
    first `marked` filled from the reading side."""
    columns = (cap + 1) // 2
    width = columns * STEP_X - 2
    sprite = Image.new("RGB", (width, GRID_H), PANEL)
    draw = ImageDraw.Draw(sprite)
    for index in range(cap):
        line, column = divmod(index, columns)
        left = column * STEP_X
        if rtl:
            left = width - left - BOX_W
        box = (left, line * STEP_Y, left + BOX_W, line * STEP_Y + BOX_H)
        draw.rounded_rectangle(box, radius=3, fill=colour if index < marked else EMPTY)
    return sprite
