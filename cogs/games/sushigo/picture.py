"""Sushi Go!'s pictures for the public board, drawn from `GAME.view(state, None)` alone, for tables that
chose pictures (`TableContext.pictures`).

The card shows a picture at its full width: about 560 px on a desktop, 265 px on a phone. So it is drawn
WIDTH px wide with every word FONT px tall (11 px on a phone), and with few words: shapes, colours and
numbers say the rest.

- During play (`play_png`): a band per player. Its words: ⌛ (the pick still owed, the band framed in
  orange) or ✓, the name (cut short with "…"; on the right in a right-to-left language, where the band
  reads from), the puddings kept in all rounds, what this round's cards make so far ("+7", once they
  make something, the maki as if the round ended now) and the score (dark on yellow). Its tiles: the
  cards played this round, a colour and an icon per kind, grouped by kind in menu order: a maki with
  its rolls, a nigiri on wasabi on a wasabi-green tile, a free wasabi apart, and each finished set (a
  tempura pair, a sashimi triple) framed. The cards the latest reveal placed have a bright frame of
  their own (NEW): the picture, not a line of words, shows what was just revealed. Two or three players
  have the tiles below the words (TWO_LINES: 84 px a band); four or five all on one line (ONE_LINE: the
  name cut to a column, its tiles beside it, squeezed together where many), so that a full table's board
  fits one screen: five players 244 px, 214 px on a desktop, 101 px on a phone.
- The final scoring (`final_png`): a row per player in rank order: a medal with the rank, the name, each
  round's points, the maki points among them (in brackets, dim), the puddings (their count on a pudding
  pink pill) with their points, and the total (dark on yellow).

A picture is cached on exactly what it draws (`lru_cache` on tuples of numbers, names and the locale):
the board is drawn again after every pick, and a band changes only with a pick or a reveal.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache, lru_cache
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
from rules.sushigo.game import SushiGoView
from rules.sushigo.scoring import CARDS, MAKI_ROLLS, NIGIRI, round_breakdown, wasabi_slots

# During play: a band per player, its words (mark, name, puddings, score) above its tiles or beside them.
MARGIN = 4
GAP = 4
TILE_SIZE = (40, 44)
"""A tile as drawn first (the two-line bands'); the one-line bands' is scaled from it."""
PILL = 30
"""The least width of a number on a pill (the score, the puddings)."""


class Layout(NamedTuple):
    """How a table's bands lay out their words and tiles (heights from a band's top)."""

    band: int  # a band's height
    line: int  # the middle of its words
    tiles_top: int
    tile: tuple[int, int]
    tile_gap: int
    group_gap: int
    frame: int  # how far a set's frame stands out of its tiles
    name_column: int | None  # the name's width, the tiles beside it; None: the tiles below the words


TWO_LINES = Layout(
    band=84, line=20, tiles_top=37, tile=TILE_SIZE, tile_gap=4, group_gap=12, frame=2, name_column=None
)
ONE_LINE = Layout(
    band=44, line=22, tiles_top=4, tile=(34, 36), tile_gap=3, group_gap=8, frame=2, name_column=170
)
"""Four or five players: at most 8 or 7 cards a round, beside a name of about 10 letters."""
ONE_LINE_FROM = 4
SETS = {"tempura": 2, "sashimi": 3}
"""The kinds that score in sets, framed once complete: a tempura pair, a sashimi triple."""

# The final scoring: a header of icons over a row per player.
HEADER = 40
ROW = 48

ROW_ALT = (47, 49, 54)
DUE = (255, 176, 32)
DONE = (87, 200, 120)
CURRENT = (255, 214, 92)
SCORE_TEXT = (40, 30, 0)
MEDALS = {1: (255, 214, 92), 2: (200, 202, 212), 3: (205, 135, 70)}
NO_MEDAL = (96, 100, 110)
NEW = (80, 236, 255)
"""The frame of a card the latest reveal placed."""
TILE: dict[str, Colour] = {
    "tempura": (150, 100, 190),
    "sashimi": (60, 150, 160),
    "dumpling": (80, 100, 190),
    "maki": (205, 60, 60),
    "nigiri": (222, 172, 48),
    "wasabi": (84, 136, 46),
    "pudding": (232, 120, 170),
    "chopsticks": (110, 170, 220),
}
EDGE = (30, 30, 34)
RICE = (250, 248, 240)
NORI = (28, 46, 32)
TOPPING: dict[str, Colour] = {"egg": (255, 232, 120), "salmon": (250, 128, 72), "squid": (236, 232, 246)}
WASABI = (176, 224, 80)
CUSTARD = (250, 214, 120)
CARAMEL = (128, 66, 28)


class Group(NamedTuple):
    """Tiles side by side: cards of one kind ("salmon@wasabi": a salmon on a wasabi; maki of any rolls
    together), framed when they are a finished set."""

    cards: tuple[str, ...]
    framed: bool = False
    new: tuple[bool, ...] = ()
    """Per tile, whether the latest reveal placed it (empty where it placed none of them)."""


class Band(NamedTuple):
    """A player as the picture during play draws them: everything the band shows, and nothing else."""

    name: str
    owed: bool
    score: int
    so_far: int
    """What this round's cards make so far (the maki as if the round ended now)."""
    puddings: int
    groups: tuple[Group, ...]


class Row(NamedTuple):
    """A player's line of the final scoring."""

    rank: int
    name: str
    rounds: tuple[int, ...]
    maki: int
    puddings: int
    pudding_points: int
    total: int


# ---------------------------------------------------------------- what is drawn


def groups(tableau: Sequence[str], slots: Sequence[str | None], newest: int = 0) -> tuple[Group, ...]:
    """The cards in front of a player as the picture lays them out: by kind in menu order, each finished
    set apart and framed, the nigiri on wasabi before the others of their kind, free wasabi apart. The
    `newest` last cards of the tableau (the latest reveal's) are marked new: of each tile they added, the
    last ones laid (the card that finished a set is its set's last)."""
    count = Counter(tableau)
    on_wasabi = Counter(card for card in slots if card is not None)
    laid: list[Group] = []
    for card in CARDS:
        if card in MAKI_ROLLS:
            if card == next(iter(MAKI_ROLLS)):  # every maki in one group, the card of most rolls first
                maki = [name for name in reversed(MAKI_ROLLS) for _ in range(count[name])]
                laid += [Group(tuple(maki))] if maki else []
        elif card in NIGIRI:
            laid += [Group((f"{card}@wasabi",) * on_wasabi[card])] if on_wasabi[card] else []
            plain = count[card] - on_wasabi[card]
            laid += [Group((card,) * plain)] if plain else []
        elif card == "wasabi":
            free = list(slots).count(None)
            laid += [Group(("wasabi",) * free)] if free else []
        elif card in SETS:
            full, rest = divmod(count[card], SETS[card])
            laid += [Group((card,) * SETS[card], framed=True)] * full
            laid += [Group((card,) * rest)] if rest else []
        elif count[card]:
            laid.append(Group((card,) * count[card]))
    if not 0 < newest <= len(tableau):
        return tuple(laid)
    # Tiles as keys ("squid@wasabi"): a nigiri that went onto an older wasabi is new, that wasabi not.
    before = list(tableau[:-newest])
    added = Counter(tile for group in laid for tile in group.cards)
    added.subtract(tile for group in groups(before, wasabi_slots(before)) for tile in group.cards)
    marked: list[Group] = []
    for group in reversed(laid):
        new = []
        for tile in reversed(group.cards):
            new.append(added[tile] > 0)
            added[tile] -= 1
        marked.append(group._replace(new=tuple(reversed(new))) if any(new) else group)
    return tuple(reversed(marked))


def shown_name(name: str, seat: int, locale: str | None) -> str:
    """A name as the picture can draw it; "Player 2" for one of which no letter can be drawn (emoji)."""
    return printable(name) or t("sushigo.picture.seat", locale, seat=seat + 1)


def bands(view: SushiGoView, names: Sequence[str], locale: str | None) -> tuple[Band, ...]:
    """Each player's band during play, from the table's view."""
    so_far = round_breakdown(view["tableaux"])
    owed = set(view["to_move"])
    reveal = view["reveal"]
    # The latest reveal's cards are each tableau's last ones, until the round it was in is scored.
    players = len(view["scores"])
    live = reveal is not None and reveal["round"] == view["round"]
    newest = [len(cards) for cards in reveal["cards"]] if reveal and live else [0] * players
    return tuple(
        Band(
            name=shown_name(names[seat], seat, locale),
            owed=seat in owed,
            score=view["scores"][seat],
            so_far=so_far[seat]["total"],
            puddings=view["puddings"][seat],
            groups=groups(view["tableaux"][seat], view["wasabi_slots"][seat], newest[seat]),
        )
        for seat in range(players)
    )


def rows(view: SushiGoView, names: Sequence[str], locale: str | None) -> tuple[Row, ...]:
    """Each player's final scoring, in rank order (the seat's order among equals)."""
    ranking, pudding_points = view["ranking"], view["pudding_points"]
    assert ranking is not None and pudding_points is not None, "only a finished game is scored"
    order = sorted(range(len(ranking)), key=lambda seat: (ranking[seat], seat))
    return tuple(
        Row(
            rank=ranking[seat],
            name=shown_name(names[seat], seat, locale),
            rounds=tuple(points[seat]["total"] for points in view["round_points"]),
            maki=sum(points[seat]["maki"] for points in view["round_points"]),
            puddings=view["puddings"][seat],
            pudding_points=pudding_points[seat],
            total=view["scores"][seat],
        )
        for seat in order
    )


def layout(players: int) -> Layout:
    return ONE_LINE if players >= ONE_LINE_FROM else TWO_LINES


def band_top(players: int, seat: int) -> int:
    """Where a seat's band starts, from the picture's top."""
    return MARGIN + seat * (layout(players).band + GAP)


def play_height(players: int) -> int:
    return 2 * MARGIN + players * layout(players).band + (players - 1) * GAP


def final_height(players: int) -> int:
    return 2 * MARGIN + HEADER + players * ROW


def play_png(view: SushiGoView, names: Sequence[str], locale: str | None) -> bytes:
    """The table during play as PNG bytes: a band per player (`names` per seat, as stored)."""
    return _play_png(bands(view, names, locale), locale)


def final_png(view: SushiGoView, names: Sequence[str], locale: str | None) -> bytes:
    """The finished game's scoring as PNG bytes: a row per player, best first."""
    return _final_png(rows(view, names, locale), t("sushigo.picture.total", locale), locale)


# ---------------------------------------------------------------- icons


@lru_cache(maxsize=128)
def _tile(card: str, size: tuple[int, int]) -> Image.Image:
    """A card's tile: its colour, and its icon in the middle (drawn once per kind and size)."""
    kind, _, under = card.partition("@")
    colour = TILE["maki" if kind in MAKI_ROLLS else "nigiri" if kind in NIGIRI else kind]
    if under:
        colour = TILE["wasabi"]
    width, height = TILE_SIZE
    tile = Image.new("RGBA", TILE_SIZE, (0, 0, 0, 0))
    draw = ImageDraw.Draw(tile)
    draw.rounded_rectangle((0, 0, width - 1, height - 1), radius=6, fill=colour, outline=EDGE)
    if kind not in MAKI_ROLLS:
        _icon(draw, kind, width / 2, height / 2, under == "wasabi")
    if size != TILE_SIZE:
        tile = tile.resize(size, Image.Resampling.BOX)  # as sharp as LANCZOS here, and half the bytes
    if kind in MAKI_ROLLS:  # a roll, nori round rice, drawn at its size: the rolls written on it must fit
        draw, (width, height) = ImageDraw.Draw(tile), size
        x, y, nori = width / 2, height / 2, min(17, min(width, height) / 2 - 1)
        draw.ellipse((x - nori, y - nori, x + nori, y + nori), fill=NORI)
        draw.ellipse((x - nori + 3, y - nori + 3, x + nori - 3, y + nori - 3), fill=RICE)
    return tile


def _icon(draw: ImageDraw.ImageDraw, kind: str, x: float, y: float, on_wasabi: bool = False) -> None:
    """A card's icon centred on (x, y), about 30 px across (a maki's is its tile's own)."""
    if kind == "tempura":  # a fried shrimp (🍤): a golden curl, its red tail
        draw.arc((x - 13, y - 10, x + 13, y + 16), 170, 370, fill=EDGE, width=12)
        draw.arc((x - 12, y - 9, x + 12, y + 15), 172, 368, fill=(244, 178, 60), width=10)
        draw.polygon([(x - 12, y + 3), (x - 18, y + 14), (x - 5, y + 12)], fill=(230, 80, 50), outline=EDGE)
    elif kind == "sashimi":  # a fish (🐟), the board's word for it
        draw.polygon([(x + 6, y), (x + 17, y - 9), (x + 17, y + 9)], fill=(250, 128, 100), outline=EDGE)
        draw.ellipse((x - 17, y - 9, x + 10, y + 9), fill=(250, 128, 100), outline=EDGE)
        draw.ellipse((x - 11, y - 4, x - 7, y), fill=EDGE)
    elif kind == "dumpling":  # a half moon with its pleats
        draw.pieslice((x - 15, y - 12, x + 15, y + 16), 180, 360, fill=(245, 230, 200), outline=EDGE)
        for dx in (-6, 0, 6):
            draw.line((x + dx, y - 10, x + dx, y - 3), fill=(180, 150, 110), width=2)
        draw.line((x - 15, y + 2, x + 15, y + 2), fill=EDGE, width=1)
    elif kind in NIGIRI:
        if on_wasabi:
            draw.ellipse((x - 9, y + 6, x + 9, y + 18), fill=WASABI, outline=EDGE)
        draw.rounded_rectangle((x - 14, y - 2, x + 14, y + 10), radius=5, fill=RICE, outline=EDGE)
        draw.rounded_rectangle((x - 16, y - 12, x + 16, y + 2), radius=6, fill=TOPPING[kind], outline=EDGE)
        if kind == "egg":  # a band of nori round the omelette
            draw.rectangle((x - 3, y - 12, x + 3, y + 10), fill=NORI)
        elif kind == "salmon":
            for dx in (-8, 0, 8):
                draw.line((x + dx - 2, y - 1, x + dx + 4, y - 10), fill=RICE, width=2)
        else:  # squid: a pale body with its tentacles' rings
            for dx in (-8, 0, 8):
                draw.ellipse((x + dx - 2, y - 7, x + dx + 2, y - 3), outline=(150, 130, 180))
    elif kind == "wasabi":  # a dollop of wasabi
        draw.ellipse((x - 13, y - 4, x + 13, y + 12), fill=WASABI, outline=EDGE)
        draw.ellipse((x - 7, y - 13, x + 7, y + 1), fill=WASABI, outline=EDGE)
        draw.rectangle((x - 6, y - 2, x + 6, y + 2), fill=WASABI)
    elif kind == "pudding":
        _pudding(draw, x, y, 1.0)
    elif kind == "chopsticks":
        for dx in (-5, 5):
            draw.line((x + dx - 7, y - 15, x + dx + 5, y + 15), fill=(150, 50, 40), width=4)


def _pudding(draw: ImageDraw.ImageDraw, x: float, y: float, scale: float) -> None:
    """A flan on its plate, caramel on top."""
    s = scale
    draw.line((x - 15 * s, y + 12 * s, x + 15 * s, y + 12 * s), fill=RICE, width=max(2, round(3 * s)))
    draw.polygon(
        [(x - 12 * s, y + 10 * s), (x + 12 * s, y + 10 * s), (x + 8 * s, y - 8 * s), (x - 8 * s, y - 8 * s)],
        fill=CUSTARD,
        outline=EDGE,
    )
    draw.rectangle((x - 8 * s, y - 10 * s, x + 8 * s, y - 4 * s), fill=CARAMEL)


def _hourglass(draw: ImageDraw.ImageDraw, x: float, y: float) -> None:
    draw.polygon(
        [(x - 8, y - 11), (x + 8, y - 11), (x, y), (x + 8, y + 11), (x - 8, y + 11), (x, y)], fill=DUE
    )
    draw.line((x - 10, y - 12, x + 10, y - 12), fill=TEXT, width=2)
    draw.line((x - 10, y + 12, x + 10, y + 12), fill=TEXT, width=2)


def _tick(draw: ImageDraw.ImageDraw, x: float, y: float) -> None:
    draw.line([(x - 10, y), (x - 3, y + 8), (x + 11, y - 9)], fill=DONE, width=5, joint="curve")


def _pill(draw: ImageDraw.ImageDraw, side: Side, x: float, y: float, text: str, fill: Colour) -> float:
    """A number dark on a coloured pill, starting at x (as the side reads); returns where it ends."""
    width = max(PILL, text_width(text, FONT) + 14)
    draw.rounded_rectangle(side.box(x, y - 15, x + width, y + 15), radius=9, fill=fill)
    draw_text(draw, (side.x(x + width / 2), y), text, SCORE_TEXT, FONT, "mm")
    return x + width


# ---------------------------------------------------------------- during play


@lru_cache(maxsize=64)
def _play_png(drawn: tuple[Band, ...], locale: str | None) -> bytes:
    side = Side(is_rtl(locale))
    players = len(drawn)
    image = Image.new("RGB", (WIDTH, play_height(players)), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for seat, band in enumerate(drawn):
        _draw_band(image, draw, side, layout(players), band, band_top(players, seat), locale)
    return png(image)


def _draw_band(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    side: Side,
    laid: Layout,
    band: Band,
    top: int,
    locale: str | None,
) -> None:
    left, right = MARGIN, WIDTH - MARGIN
    box = (left, top, right, top + laid.band)
    draw.rounded_rectangle(box, radius=10, fill=PANEL, outline=DUE if band.owed else None, width=3)
    middle = top + laid.line
    (_hourglass if band.owed else _tick)(draw, side.x(left + 22), middle)
    # From the far end inwards: the score, this round so far, the puddings; the name takes what is left.
    score = number(band.score, locale)
    end = right - 10
    start = end - max(PILL, text_width(score, FONT) + 14)
    _pill(draw, side, start, middle, score, CURRENT)
    if band.so_far:  # what this round's cards make so far, once they make something
        so_far = signed(band.so_far, locale)
        start -= 8
        side.text(draw, start, middle, so_far, DONE, "rm")
        start -= text_width(so_far, FONT)
    count = number(band.puddings, locale)
    start -= 18
    side.text(draw, start, middle, count, TEXT, "rm")
    start -= text_width(count, FONT) + 18
    _pudding(draw, side.x(start), middle - 1, 0.9)
    name_start = left + 42
    name_end = start - 26
    if laid.name_column is not None:  # the tiles beside the name, from a column of their own
        name_end = min(name_end, name_start + laid.name_column)
        span = (name_end + 10, start - 24)
    else:
        span = (MARGIN + 12, right - 12)
    side.text(draw, name_start, middle - 1, fit_text(band.name, FONT, name_end - name_start), TEXT, "lm")
    _draw_tiles(image, draw, side, laid, band.groups, top + laid.tiles_top, span, locale)


def _draw_tiles(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    side: Side,
    laid: Layout,
    tiles: tuple[Group, ...],
    top: int,
    span: tuple[float, float],
    locale: str | None,
) -> None:
    """The tiles from span's start; where they would pass its end, the tiles of one kind stacked (each
    still half shown; a maki's rolls never hidden), then all squeezed together."""
    width, height = laid.tile
    step = width + laid.tile_gap
    cards = sum(len(group.cards) for group in tiles)
    stacked = sum(len(group.cards) - 1 for group in tiles if group.cards[0] not in MAKI_ROLLS)
    natural = cards * step - laid.tile_gap + (len(tiles) - 1) * (laid.group_gap - laid.tile_gap)
    excess = natural - (span[1] - span[0])
    shrink = min(max(excess, 0) / stacked, step - width / 2) if stacked else 0
    starts: list[list[float]] = []
    x = 0.0
    for group in tiles:
        own = step if group.cards[0] in MAKI_ROLLS else step - shrink
        starts.append([x + index * own for index in range(len(group.cards))])
        x = starts[-1][-1] + width + laid.group_gap
    last = starts[-1][-1] if starts else 0.0
    squeeze = min(1.0, (span[1] - span[0] - width) / last) if last else 1.0
    frame = laid.frame
    for group, at in zip(tiles, starts, strict=True):
        for index, card in enumerate(group.cards):
            x = span[0] + at[index] * squeeze
            x0 = side.box(x, top, x + width, top + height)[0]
            tile = _tile(card, laid.tile)
            image.paste(tile, (round(x0), top), tile)
            if group.new and group.new[index]:  # placed by the latest reveal
                box = (round(x0), top, round(x0) + width - 1, top + height - 1)
                draw.rounded_rectangle(box, radius=6, outline=NEW, width=4)
            if card in MAKI_ROLLS:
                middle = (round(x0) + width / 2, top + height / 2)
                draw_text(draw, middle, number(MAKI_ROLLS[card], locale), NORI, FONT, "mm")
        if group.framed:
            first, end = span[0] + at[0] * squeeze, span[0] + at[-1] * squeeze + width
            box = side.box(first - frame, top - frame, end + frame, top + height + frame)
            draw.rounded_rectangle(box, radius=8, outline=TEXT, width=2)


# ---------------------------------------------------------------- the final scoring


@cache
def _columns() -> dict[str, tuple[int, int]]:
    """Each column's span from where a row starts reading: rank, name, rounds, maki, puddings, total."""
    spans: dict[str, tuple[int, int]] = {}
    end = WIDTH - MARGIN - 6
    for key, width in (("total", 66), ("puddings", 94), ("maki", 58), ("3", 46), ("2", 46), ("1", 46)):
        spans[key] = (end - width, end)
        end -= width + 6
    spans["rank"] = (MARGIN + 6, MARGIN + 40)
    spans["name"] = (MARGIN + 48, end)
    return spans


@lru_cache(maxsize=32)
def _final_png(drawn: tuple[Row, ...], total_word: str, locale: str | None) -> bytes:
    side = Side(is_rtl(locale))
    height = final_height(len(drawn))
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    spans = _columns()

    def centre(key: str) -> float:
        x0, x1 = spans[key]
        return side.x((x0 + x1) / 2)

    middle = MARGIN + HEADER / 2
    rounds = len(drawn[0].rounds) if drawn else 0
    for index in range(rounds):  # each round's number in a ring
        x = centre(str(index + 1))
        draw.ellipse((x - 15, middle - 15, x + 15, middle + 15), outline=DIM, width=2)
        draw_text(draw, (x, middle), number(index + 1, locale), DIM, FONT, "mm")
    x = centre("maki")
    draw.ellipse((x - 13, middle - 13, x + 13, middle + 13), fill=NORI)
    draw.ellipse((x - 10, middle - 10, x + 10, middle + 10), fill=RICE)
    draw.ellipse((x - 4, middle - 4, x + 4, middle + 4), fill=TILE["maki"])
    pudding_start = spans["puddings"][0]
    _pudding(draw, side.x(pudding_start + PILL / 2), middle - 1, 1.0)  # over the puddings' pills
    # The total's word over its column, or where longer ("Summe") ending with it, clear of the pudding.
    x0, x1 = spans["total"]
    word = fit_text(total_word, FONT, x1 - pudding_start - PILL - 12)
    if text_width(word, FONT) <= x1 - x0 + 12:
        draw_text(draw, (centre("total"), middle), word, DIM, FONT, "mm")
    else:
        side.text(draw, x1, middle, word, DIM, "rm")
    for index, row in enumerate(drawn):
        top = MARGIN + HEADER + index * ROW
        _draw_row(draw, side, spans, row, top, ROW_ALT if index % 2 else PANEL, locale)
    return png(image)


def _draw_row(
    draw: ImageDraw.ImageDraw,
    side: Side,
    spans: dict[str, tuple[int, int]],
    row: Row,
    top: int,
    fill: Colour,
    locale: str | None,
) -> None:
    draw.rectangle((MARGIN, top, WIDTH - MARGIN, top + ROW - 1), fill=fill)
    middle = top + ROW / 2

    def centre(key: str) -> float:
        x0, x1 = spans[key]
        return side.x((x0 + x1) / 2)

    x = centre("rank")
    draw.ellipse((x - 16, middle - 16, x + 16, middle + 16), fill=MEDALS.get(row.rank, NO_MEDAL))
    draw_text(
        draw, (x, middle), number(row.rank, locale), SCORE_TEXT if row.rank in MEDALS else TEXT, FONT, "mm"
    )
    x0, x1 = spans["name"]
    side.text(draw, x0, middle - 1, fit_text(row.name, FONT, x1 - x0), TEXT, "lm")
    for index, points in enumerate(row.rounds):
        draw_text(draw, (centre(str(index + 1)), middle), number(points, locale), TEXT, FONT, "mm")
    maki = number(row.maki, locale)
    draw_text(draw, (centre("maki"), middle), f"({maki})", DIM, FONT, "mm")
    x0, x1 = spans["puddings"]
    end = _pill(draw, side, x0, middle, number(row.puddings, locale), TILE["pudding"])
    points = signed(row.pudding_points, locale)
    side.text(draw, (end + x1) / 2, middle, points, TEXT, "mm")
    x0, x1 = spans["total"]
    total = number(row.total, locale)
    width = max(PILL, text_width(total, FONT) + 14)
    _pill(draw, side, (x0 + x1 - width) / 2, middle, total, CURRENT)
