"""Sushizock's picture: the piles turned over at the end, drawn from `GAME.view(state, None)` alone.

The card shows the picture at its full width: about 560 px on a desktop, 265 px on a phone. So every
word is written FONT px tall (11 px on a phone), and there are few of them. One panel per player, best
first: on its first line the rank (on a gold, silver or bronze disc), the name (cut short with "…") and,
on the far side, the sum of the sushi that count (blue), of the bones (red) and the score on yellow
("+12 −8 = +4"). Below, the player's tiles from the bottom of each pile up: the sushi blue, those above
the height of the bone pile (which are worth nothing) struck through and dimmed, then the bones red. A
tile's colour is its sign, so it shows its value alone. A player's tiles that do not fit one line take
two (sushi, then bones): 24 tiles in all, so that happens to one player at most. In a right-to-left
language each panel is mirrored, so that it reads from the right.

Five players fit in 414 px, 450 px when one of them holds more than 14 tiles (2 players: 168 px).
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
    draw_text,
    fit_text,
    png,
    printable,
    text_width,
)
from cogs.kit.words.text import is_rtl, number, signed, t
from rules.sushizock.game import SushizockView

MARGIN = 4
GAP = 4
PAD = 10
HEADING = 36
"""A panel's first line: rank, name, sums and score."""
LINE = 36
"""A line of tiles."""
BOTTOM = 6
TILE_W, TILE_H = 34, 30
TILE_PITCH = TILE_W + 4
GROUP_GAP = 16
"""Between the sushi and the bones on one line."""
RANK = 32
PANEL_W = WIDTH - 2 * MARGIN
NAME_X = PAD + RANK + 10
"""Where a name starts, and the tiles under it."""
TILES_END = PANEL_W - PAD
BADGE_H = 30

CURRENT = (255, 214, 92)
SCORE_TEXT = (40, 30, 0)
SUSHI = (88, 101, 242)
"""A sushi tile, blue as the chopsticks that steal it."""
SUSHI_TEXT = (140, 150, 255)
"""A sum of sushi written on the panel."""
BONE = (218, 55, 60)
BONE_TEXT = (255, 110, 110)
WORTHLESS = (64, 68, 76)
"""A sushi above the height of the bone pile: discarded, struck through like ~~+5~~ in the text."""
MEDAL: dict[int, Colour] = {1: (250, 199, 60), 2: (192, 197, 206), 3: (205, 127, 50)}
LOWER_RANK = (92, 96, 104)


class Piles(NamedTuple):
    """What the picture shows of one player: the piles bottom first, how many sushi count, the score."""

    sushi: tuple[int, ...]
    bones: tuple[int, ...]
    counted: int
    score: int


def shown(view: SushizockView) -> tuple[tuple[Piles, ...], tuple[int, ...]]:
    """The piles and the ranks the picture draws: a key that changes only when the picture does."""
    final, ranking = view["final_piles"], view["ranking"]
    assert final is not None and ranking is not None, "the piles are turned over once the game is over"
    piles = tuple(
        Piles(tuple(seat["sushi_pile"]), tuple(seat["bone_pile"]), seat["counted"], score)
        for seat, score in zip(final, view["scores"], strict=True)
    )
    return piles, tuple(ranking)


def fits_one_line(piles: Piles) -> bool:
    """Whether a player's sushi and bones share one line of tiles."""
    count = len(piles.sushi) + len(piles.bones)
    gap = GROUP_GAP if piles.sushi and piles.bones else 0
    return count * TILE_PITCH - 4 + gap <= TILES_END - NAME_X


def lines_of(piles: Piles) -> int:
    return 1 if fits_one_line(piles) else 2


def panel_height(piles: Piles) -> int:
    return HEADING + lines_of(piles) * LINE + BOTTOM


def height(players: Sequence[Piles]) -> int:
    """The picture's height for these players' piles."""
    return 2 * MARGIN + sum(panel_height(piles) for piles in players) + GAP * (len(players) - 1)


def render_png(view: SushizockView, names: Sequence[str], locale: str | None = None) -> bytes:
    """The finished game's piles as PNG bytes, best first.

    `names` per seat, as stored (`TableContext.plain_name`); `locale` writes the numbers (and a name of
    which no letter can be drawn: "Player 2"), and mirrors the panels in a right-to-left language.
    """
    piles, ranking = shown(view)
    return _drawn(piles, ranking, tuple(names), locale)


@lru_cache(maxsize=16)
def _drawn(
    piles: tuple[Piles, ...], ranking: tuple[int, ...], names: tuple[str, ...], locale: str | None
) -> bytes:
    image = Image.new("RGB", (WIDTH, height(piles)), BACKGROUND)
    rtl = is_rtl(locale)
    top = MARGIN
    for seat in sorted(range(len(piles)), key=lambda seat: (ranking[seat], seat)):
        name = printable(names[seat]) or t("sushizock.picture.seat", locale, seat=seat + 1)
        panel = _Panel(image, top, rtl, locale)
        panel.draw_panel(piles[seat], ranking[seat], name)
        top += panel_height(piles[seat]) + GAP
    return png(image)


class _Panel:
    """One player's panel, `top` px down the picture; positions are given left to right from its left
    edge and mirrored in a right-to-left language."""

    def __init__(self, image: Image.Image, top: int, rtl: bool, locale: str | None) -> None:
        self.draw = ImageDraw.Draw(image)
        self.top, self.rtl, self.locale = top, rtl, locale

    def box(self, x0: float, y0: float, x1: float, y1: float) -> tuple[float, float, float, float]:
        x0, x1 = MARGIN + x0, MARGIN + x1
        if self.rtl:
            x0, x1 = WIDTH - x1, WIDTH - x0
        return x0, self.top + y0, x1, self.top + y1

    def text(self, x: float, y: float, text: str, fill: Colour, anchor: str = "lm") -> None:
        x = MARGIN + x
        if self.rtl:
            x, anchor = WIDTH - x, {"lm": "rm", "rm": "lm"}.get(anchor, anchor)
        draw_text(self.draw, (x, self.top + y), text, fill, FONT, anchor)

    def draw_panel(self, piles: Piles, rank: int, name: str) -> None:
        self.draw.rounded_rectangle(self.box(0, 0, PANEL_W, panel_height(piles)), radius=10, fill=PANEL)
        middle = HEADING / 2 + 2
        self.draw.ellipse(
            self.box(PAD, middle - 16, PAD + RANK, middle + 16), fill=MEDAL.get(rank, LOWER_RANK)
        )
        self.text(
            PAD + RANK / 2, middle, number(rank, self.locale), SCORE_TEXT if rank in MEDAL else TEXT, "mm"
        )
        end = self.sums(piles, middle)
        self.text(NAME_X, middle, fit_text(name, FONT, end - 14 - NAME_X), TEXT)
        self.tiles(piles)

    def sums(self, piles: Piles, middle: float) -> float:
        """ "+12 −8 = +4" on the far side: the sushi that count, the bones, the score on yellow; returns
        where it starts."""
        score = signed(piles.score, self.locale)
        end = TILES_END
        start = end - text_width(score, FONT) - 16
        self.draw.rounded_rectangle(
            self.box(start, middle - BADGE_H / 2, end, middle + BADGE_H / 2), radius=8, fill=CURRENT
        )
        self.text((start + end) / 2, middle, score, SCORE_TEXT, "mm")
        end = start - 8
        parts: list[tuple[str, Colour]] = (
            [("=", DIM)] if piles.sushi or piles.bones else []
        )  # no tiles: 0 alone
        if piles.bones:
            parts.append((signed(sum(piles.bones), self.locale), BONE_TEXT))
        if piles.sushi:
            parts.append((signed(sum(piles.sushi[: piles.counted]), self.locale), SUSHI_TEXT))
        for text, fill in parts:
            self.text(end, middle, text, fill, "rm")
            end -= text_width(text, FONT) + 10
        return end

    def tiles(self, piles: Piles) -> None:
        """The tiles bottom first; the sushi above the bone pile's height struck through."""
        y = HEADING
        if not piles.sushi and not piles.bones:
            self.text(NAME_X, y + LINE / 2, t("sushizock.picture.no_tiles", self.locale), DIM)
            return
        x = NAME_X
        for index, tile in enumerate(piles.sushi):
            self.tile(x, y, tile, counted=index < piles.counted, fill=SUSHI)
            x += TILE_PITCH
        if piles.sushi and piles.bones:
            if fits_one_line(piles):
                x += GROUP_GAP - 4
            else:
                x, y = NAME_X, y + LINE
        for tile in piles.bones:
            self.tile(x, y, -tile, counted=True, fill=BONE)
            x += TILE_PITCH

    def tile(self, x: float, y: float, value: int, *, counted: bool, fill: Colour) -> None:
        """A tile at (x, y) of its line, its value in the language's digits."""
        box = self.box(x, y + (LINE - TILE_H) / 2, x + TILE_W, y + (LINE + TILE_H) / 2)
        middle = y + LINE / 2
        written = number(value, self.locale)
        if counted:
            self.draw.rounded_rectangle(box, radius=6, fill=fill)
            self.text(x + TILE_W / 2, middle, written, TEXT, "mm")
            return
        self.draw.rounded_rectangle(box, radius=6, fill=WORTHLESS, outline=fill, width=2)
        self.text(x + TILE_W / 2, middle, written, DIM, "mm")
        x0, _, x1, _ = box
        self.draw.line((x0 + 3, self.top + middle, x1 - 3, self.top + middle), fill=TEXT, width=2)
