"""The pictures of /stats and /leaderboard: a player's rating over time, and the server's top ten.

Both are shown at the card's full width, about 560 px on a desktop and 265 px on a phone, so like Kaiten
Sushi's board (cogs/games/kaiten/picture.py) they are 640 px wide, write every word at one size, FONT (27 px:
11 px on a phone), write few words, and use flat shapes in the colours of Discord's dark theme.

- `stats_png`: the player's name above a panel with one line per game (up to five, each its own colour),
  the rating's gridlines labelled on the side, the start of each season within the time span a dashed
  vertical line labelled "S2"; beside it a legend of two lines per game: its title, then "12 of 30 won".
- `leaderboard_png`: the title and the "games" and "wins" column labels, then up to ten rows of position
  (a gold, silver or bronze disc for the first three), name (cut short with "…"), rating, a sparkline of
  the last ratings (green when it ends above where it started, red below) and games and wins.

In a right-to-left language the layout is mirrored where reading order matters (names, labels, the
legend, the table's columns start at the right), but time runs left to right in both: a chart's time axis
stays left to right in Persian too (as Persian papers and spreadsheets draw them, the digits being written
left to right as well), so the latest rating is always at the right end of a line or a sparkline.

Pure functions of their inputs: no discord, no I/O. Shapes are drawn at twice the size and halved (smooth
lines), then the words are written at the picture's size with cogs/kit/drawing.py; a few milliseconds each.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import count

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
from cogs.kit.words.catalogs import Localish
from cogs.kit.words.text import is_rtl, number, t

LINE = 33
"""The height one line of words takes at FONT: from the top of an accented capital to a descender."""
SCALE = 2
"""Shapes are drawn this many times larger and reduced: antialiased lines at the cost of a millisecond."""

STATS_SIZE = (WIDTH, 336)
"""/stats's picture: shown 560 px wide on a desktop it is 294 px tall."""
ROWS = 10
HEADER = 44
ROW = 36
"""A leaderboard row: one line of words (LINE) and a little air. Ten of them and the header fit in 410 px."""
LEADERBOARD_SIZE = (WIDTH, HEADER + ROWS * ROW + 6)
"""/leaderboard's picture at its tallest, ten rows (640 x 410): 359 px tall on a desktop, 170 px on a
phone; with fewer rows it is as tall as they take (`leaderboard_size`)."""


def leaderboard_size(rows: int) -> tuple[int, int]:
    """The leaderboard picture's size for this many rows (an empty board keeps two rows' room for its
    words)."""
    return WIDTH, HEADER + max(2, min(rows, ROWS)) * ROW + 6


MAX_GAMES = 5

GRID = (72, 76, 84)
SEASON = (138, 142, 150)
PALETTE: tuple[Colour, ...] = (
    (88, 166, 255),
    (255, 176, 32),
    (87, 201, 120),
    (242, 104, 158),
    (178, 138, 255),
)
"""For a line that brings no colour of its own (a game's is its cog's `colour`), by its place among the
lines: told apart on the dark panel and from each other."""
MEDALS: tuple[Colour, ...] = ((255, 196, 48), (196, 202, 210), (214, 134, 60))
ON_MEDAL = (36, 28, 8)
UP = (87, 226, 135)
DOWN = (240, 84, 86)

MARGIN = 8
GAP = 12


@dataclass(frozen=True)
class RatingPoint:
    at: float  # epoch seconds when the game ended
    rating: float  # the player's rating (mu - 3 sigma) after that game


@dataclass(frozen=True)
class GameLine:
    title: str  # the game's title, already in the picture's language
    points: tuple[RatingPoint, ...]  # oldest first; may be empty (games before ratings were kept)
    games: int
    wins: int
    colour: Colour | None = None  # the game's own (GameCog.chart_colour); None: the palette's, by its place


def most_played(lines: Sequence[GameLine], most: int = MAX_GAMES) -> list[GameLine]:
    """The `most` lines of the games played most (the picture has room for MAX_GAMES), in their order;
    the words under the picture still name every game."""
    kept = set(sorted(range(len(lines)), key=lambda index: -lines[index].games)[:most])
    return [line for index, line in enumerate(lines) if index in kept]


def line_colours(lines: Sequence[GameLine]) -> list[Colour]:
    """Each line's colour: its own, else the palette's at its place."""
    return [line.colour or PALETTE[index % len(PALETTE)] for index, line in enumerate(lines)]


@dataclass(frozen=True)
class SeasonMark:
    number: int  # 1, 2, ... (season 0 = before seasons: never marked)
    started_at: float


@dataclass(frozen=True)
class LeaderRow:
    position: int
    name: str  # the player's display name, plain (not escaped)
    rating: float
    trend: tuple[float, ...]  # their ratings after each game, oldest first (at most the last 20)
    games: int
    wins: int


# ---------------------------------------------------------------- the canvas

Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class _Word:
    xy: tuple[float, float]
    text: str
    fill: Colour
    anchor: str


class _Canvas:
    """Shapes drawn at SCALE times the size and reduced; the words kept and written after the reduction at
    the picture's own size, so that they are the very pixels draw_text writes everywhere else."""

    def __init__(self, size: tuple[int, int]) -> None:
        self.size = size
        self.image = Image.new("RGB", (size[0] * SCALE, size[1] * SCALE), BACKGROUND)
        self.draw = ImageDraw.Draw(self.image)
        self.words: list[_Word] = []

    def box(self, box: Box, fill: Colour | None, radius: float = 0, outline: Colour | None = None) -> None:
        scaled = tuple(value * SCALE for value in box)
        self.draw.rounded_rectangle(
            scaled, radius=radius * SCALE, fill=fill, outline=outline, width=2 * SCALE
        )

    def line(self, points: Sequence[tuple[float, float]], fill: Colour, width: float) -> None:
        scaled = [(x * SCALE, y * SCALE) for x, y in points]
        self.draw.line(scaled, fill=fill, width=round(width * SCALE), joint="curve")

    def dot(self, centre: tuple[float, float], radius: float, fill: Colour) -> None:
        x, y = centre
        self.box((x - radius, y - radius, x + radius, y + radius), fill, radius)

    def word(self, xy: tuple[float, float], text: str, fill: Colour, anchor: str = "lm") -> None:
        if text:
            self.words.append(_Word(xy, text, fill, anchor))

    def png(self) -> bytes:
        image = self.image.reduce(SCALE)
        draw = ImageDraw.Draw(image)
        for word in self.words:
            draw_text(draw, word.xy, word.text, word.fill, FONT, word.anchor)
        return png(image)


def _mirrored(span: tuple[float, float], rtl: bool) -> tuple[float, float]:
    """A horizontal span laid out left to right, on the other side of the picture in a right-to-left
    language."""
    x0, x1 = span
    return (WIDTH - x1, WIDTH - x0) if rtl else (x0, x1)


def _start(span: tuple[float, float], rtl: bool) -> tuple[float, str]:
    """Where words start in a span, and their anchor: its left end, or its right end right to left."""
    return (span[1], "rm") if rtl else (span[0], "lm")


def _end(span: tuple[float, float], rtl: bool) -> tuple[float, str]:
    """Where numbers end in a span (aligned like their column's label): the start's other side."""
    return (span[0], "lm") if rtl else (span[1], "rm")


def _rating(value: float, locale: Localish) -> str:
    """A rating with one decimal in the language's digits and decimal sign ("−0.0" written 0.0)."""
    value = round(value, 1)
    return t("charts.rating", locale, rating=value if value != 0 else 0.0)


# ---------------------------------------------------------------- /stats

CHART = (MARGIN, 340)
"""The chart's span (left to right): the player's name above its panel."""
LEGEND = (352, WIDTH - MARGIN)
"""The legend's span, beside the chart: two lines per game."""
PANEL_TOP = 40
PANEL_BOTTOM = STATS_SIZE[1] - MARGIN
SWATCH = 24
"""How far a legend's words start from its edge: room for the game's colour."""
ENTRY_GAP = 6
BAND = 36
"""The band at the top of the chart's panel where season labels stand, above the lines."""
AIR = 18
"""Between the panel's edges and the outermost gridlines: room for their labels' half height."""


def stats_png(name: str, lines: Sequence[GameLine], seasons: Sequence[SeasonMark], locale: Localish) -> bytes:
    """A player's rating over time, one line per game (up to five, each its own colour) with a legend naming
    the game and its games and wins, the start of each season within the time span marked by a vertical line
    labelled "S2", and the player's name as title. In the language of `locale`."""
    rtl = is_rtl(locale)
    lines = tuple(lines[:MAX_GAMES])
    canvas = _Canvas(STATS_SIZE)
    chart = _mirrored(CHART, rtl)
    x, anchor = _start(chart, rtl)
    title = printable(name) or t("charts.a_player", locale)
    canvas.word((x, PANEL_TOP / 2), fit_text(title, FONT, chart[1] - chart[0]), TEXT, anchor)
    panel = (chart[0], PANEL_TOP, chart[1], PANEL_BOTTOM)
    canvas.box(panel, PANEL, 10)
    if any(line.points for line in lines):
        _draw_chart(canvas, panel, lines, seasons, locale)
    else:
        words = fit_text(t("charts.no_ratings", locale), FONT, panel[2] - panel[0] - 2 * GAP)
        canvas.word(((panel[0] + panel[2]) / 2, (panel[1] + panel[3]) / 2), words, DIM, "mm")
    _draw_legend(canvas, _mirrored(LEGEND, rtl), lines, locale, rtl)
    return canvas.png()


def _steps() -> Iterator[int]:
    """1, 2, 5, 10, 20, 50, ...: the gridlines' spacings, in rating points."""
    for power in count():
        for step in (1, 2, 5):
            yield step * 10**power


def _gridlines(low: float, high: float, height: float) -> tuple[float, float, list[int]]:
    """The ratings the chart spans, low..high (a span of less than two points widened around its middle:
    no division by zero), and the round ratings within it that get a gridline: the finest step of 1, 2,
    5, 10, 20, ... that keeps them 40 px apart, so that their labels (LINE tall) keep apart too."""
    if high - low < 2:
        middle = (low + high) / 2
        low, high = middle - 1, middle + 1
    step = next(step for step in _steps() if step * height / (high - low) >= 40)
    return low, high, list(range(math.ceil(low / step) * step, math.floor(high / step) * step + 1, step))


def _draw_chart(
    canvas: _Canvas, panel: Box, lines: Sequence[GameLine], seasons: Sequence[SeasonMark], locale: Localish
) -> None:
    rtl = is_rtl(locale)
    points = [point for line in lines for point in line.points]
    first, last = min(point.at for point in points), max(point.at for point in points)
    marks = sorted(
        (mark for mark in seasons if mark.number > 0 and first < mark.started_at <= last),
        key=lambda mark: mark.started_at,
    )
    top = panel[1] + AIR + (BAND if marks else 0)
    bottom = panel[3] - AIR
    # At most one gridline every 40 px, so that their labels (LINE tall) keep apart.
    low, high, values = _gridlines(
        min(point.rating for point in points), max(point.rating for point in points), bottom - top
    )
    labels = [number(value, locale) for value in values]
    label_width = max(text_width(label, FONT) for label in labels)
    # The gridlines' labels on the side reading starts from; the time axis left to right all the same.
    if rtl:
        label_x, left, right = panel[2] - GAP, panel[0] + GAP, panel[2] - GAP - label_width - 10
    else:
        label_x, left, right = panel[0] + GAP + label_width, panel[0] + GAP + label_width + 10, panel[2] - GAP

    def y_of(rating: float) -> float:
        return bottom - (rating - low) / (high - low) * (bottom - top)

    def x_of(at: float) -> float:
        if last == first:  # every point at one moment: in the middle
            return (left + right) / 2
        return left + (at - first) / (last - first) * (right - left)

    for value, label in zip(values, labels, strict=True):
        y = y_of(value)
        canvas.line([(left, y), (right, y)], GRID, 1)
        canvas.word((label_x, y), label, DIM, "rm")
    _draw_seasons(canvas, marks, x_of, (left, right), panel[1] + AIR + 2, bottom, locale)
    for line, colour in zip(lines, line_colours(lines), strict=True):
        if not line.points:
            continue
        drawn = [(x_of(point.at), y_of(point.rating)) for point in line.points]
        if len(drawn) == 1:
            canvas.dot(drawn[0], 6, colour)
            continue
        canvas.line(drawn, colour, 3)
        canvas.dot(drawn[-1], 4.5, colour)


def _draw_seasons(
    canvas: _Canvas,
    marks: Sequence[SeasonMark],
    x_of: Callable[[float], float],
    span: tuple[float, float],
    label_y: float,
    bottom: float,
    locale: Localish,
) -> None:
    """Each season's start a dashed line, its label above the lines; a label that would touch a later
    season's (seasons close together) is left out, its line kept."""
    taken = math.inf
    for mark in reversed(marks):  # the latest seasons first: they matter most
        x = x_of(mark.started_at)
        y = label_y + LINE / 2 + 2
        while y < bottom:
            canvas.line([(x, y), (x, min(y + 6, bottom))], SEASON, 2)
            y += 10
        label = t("charts.season", locale, number=mark.number)
        half = text_width(label, FONT) / 2
        middle = min(max(x, span[0] + half), span[1] - half)
        if middle + half <= taken - 2 * GAP:  # apart enough not to read as one
            canvas.word((middle, label_y), label, SEASON, "mm")
            taken = middle - half


def _draw_legend(
    canvas: _Canvas, span: tuple[float, float], lines: Sequence[GameLine], locale: Localish, rtl: bool
) -> None:
    """Two lines per game: its colour and title, then its wins of its games. Level with the chart's panel
    while they fit there; five games take the whole height."""
    entry = 2 * LINE
    gap = ENTRY_GAP
    y = PANEL_TOP
    if y + len(lines) * (entry + gap) - gap > STATS_SIZE[1]:
        gap = 0
        y = (STATS_SIZE[1] - len(lines) * entry) / 2
    words = (span[0] + SWATCH, span[1]) if not rtl else (span[0], span[1] - SWATCH)
    room = words[1] - words[0]
    x, anchor = _start(words, rtl)
    for line, colour in zip(lines, line_colours(lines), strict=True):
        middle = y + LINE / 2
        swatch = (span[1] - 16, span[1]) if rtl else (span[0], span[0] + 16)
        # A game without rated games has no line on the chart: its swatch is hollow.
        fill = colour if line.points else None
        canvas.box((swatch[0], middle - 5, swatch[1], middle + 5), fill, 5, outline=colour)
        canvas.word((x, middle), fit_text(printable(line.title), FONT, room), TEXT, anchor)
        record = _record(line, locale, room)
        canvas.word((x, middle + LINE), record, DIM, anchor)
        y += entry + gap


def _record(line: GameLine, locale: Localish, room: float) -> str:
    """The longest record that fits `room`: "12 of 30 won", else "12/30 won", else "12/30"."""
    for key in ("charts.record", "charts.record_short", "charts.record_bare"):
        record = t(key, locale, wins=line.wins, games=line.games)
        if text_width(record, FONT) <= room:
            return record
    return fit_text(record, FONT, room)


# ---------------------------------------------------------------- /leaderboard

SPARK = 76
"""A sparkline's width."""
SPARK_HEIGHT = 22


@dataclass(frozen=True)
class _Columns:
    """The leaderboard's columns, left to right (mirrored when drawn right to left)."""

    position: tuple[float, float]
    name: tuple[float, float]
    rating: tuple[float, float]
    spark: tuple[float, float]
    games: tuple[float, float]
    wins: tuple[float, float]


def _columns(rows: Sequence[LeaderRow], games_label: str, wins_label: str, locale: Localish) -> _Columns:
    """Each column as wide as its widest entry; the name takes what is left. The wins column, at the end,
    is as wide as its label too; the games label may stand over the sparklines, which have none."""

    def widest(texts: Sequence[str], least: str) -> float:
        return max(text_width(text, FONT) for text in (*texts, least))

    right = WIDTH - MARGIN
    wins_width = max(
        widest([number(row.wins, locale) for row in rows], number(999, locale)), text_width(wins_label, FONT)
    )
    wins = (right - wins_width, right)
    games = (
        wins[0] - 2 * GAP - widest([number(row.games, locale) for row in rows], number(999, locale)),
        wins[0] - 2 * GAP,
    )
    spark = (games[0] - GAP - SPARK, games[0] - GAP)
    rating = (
        spark[0] - GAP - widest([_rating(row.rating, locale) for row in rows], _rating(38.8, locale)),
        spark[0] - GAP,
    )
    position = (
        MARGIN,
        MARGIN + widest([number(row.position, locale) for row in rows], number(10, locale)) + 4,
    )
    return _Columns(position, (position[1] + GAP, rating[0] - GAP), rating, spark, games, wins)


def leaderboard_png(title: str, rows: Sequence[LeaderRow], locale: Localish) -> bytes:
    """The top ten: position (gold, silver and bronze for the first three), name cut to fit, rating, a
    sparkline of the trend (green when it ends above where it started, red below), games and wins. In the
    language of `locale`; as tall as its rows take."""
    rtl = is_rtl(locale)
    rows = tuple(rows[:ROWS])
    size = leaderboard_size(len(rows))
    canvas = _Canvas(size)
    games_label, wins_label = t("charts.games", locale), t("charts.wins", locale)
    columns = _columns(rows, games_label, wins_label, locale)
    header = HEADER / 2
    title_end = WIDTH - MARGIN
    if rows:
        for label, column in ((games_label, columns.games), (wins_label, columns.wins)):
            x, anchor = _end(_mirrored(column, rtl), rtl)
            canvas.word((x, header), label, DIM, anchor)
        title_end = columns.games[1] - text_width(games_label, FONT) - 2 * GAP
    heading = (MARGIN, title_end)
    x, anchor = _start(_mirrored(heading, rtl), rtl)
    canvas.word((x, header), fit_text(printable(title), FONT, heading[1] - heading[0]), TEXT, anchor)
    if not rows:
        body = (HEADER + size[1]) / 2
        words = fit_text(t("charts.no_players", locale), FONT, WIDTH - 2 * MARGIN)
        canvas.word((WIDTH / 2, body), words, DIM, "mm")
    for index, row in enumerate(rows):
        _draw_row(canvas, index, row, columns, locale, rtl)
    return canvas.png()


def _draw_row(
    canvas: _Canvas, index: int, row: LeaderRow, columns: _Columns, locale: Localish, rtl: bool
) -> None:
    top = HEADER + index * ROW
    middle = top + ROW / 2
    if index % 2 == 0:  # every other row on a panel: a row is easy to follow across
        canvas.box((4, top + 1, WIDTH - 4, top + ROW - 1), PANEL, 8)
    position = _mirrored(columns.position, rtl)
    centre = (position[0] + position[1]) / 2
    if 1 <= row.position <= len(MEDALS):
        canvas.dot((centre, middle), 16, MEDALS[row.position - 1])
        canvas.word((centre, middle), number(row.position, locale), ON_MEDAL, "mm")
    else:
        canvas.word((centre, middle), number(row.position, locale), DIM, "mm")
    name = _mirrored(columns.name, rtl)
    shown = printable(row.name) or t("charts.player", locale, number=row.position)
    x, anchor = _start(name, rtl)
    canvas.word((x, middle), fit_text(shown, FONT, name[1] - name[0]), TEXT, anchor)
    x, anchor = _end(_mirrored(columns.rating, rtl), rtl)
    canvas.word((x, middle), _rating(row.rating, locale), TEXT, anchor)
    _sparkline(canvas, _mirrored(columns.spark, rtl), middle, row.trend)
    for value, column in ((row.games, columns.games), (row.wins, columns.wins)):
        x, anchor = _end(_mirrored(column, rtl), rtl)
        canvas.word((x, middle), number(value, locale), DIM, anchor)


def _sparkline(canvas: _Canvas, span: tuple[float, float], middle: float, trend: Sequence[float]) -> None:
    """The trend, oldest on the left (time runs left to right in every language), its end a dot."""
    if not trend:
        return
    colour = UP if trend[-1] > trend[0] else DOWN if trend[-1] < trend[0] else DIM
    low, high = min(trend), max(trend)
    left, right = span[0] + 4, span[1] - 4
    half = SPARK_HEIGHT / 2

    def y_of(value: float) -> float:
        return middle if high == low else middle + half - (value - low) / (high - low) * SPARK_HEIGHT

    if len(trend) == 1:
        canvas.dot(((left + right) / 2, middle), 4, colour)
        return
    step = (right - left) / (len(trend) - 1)
    drawn = [(left + index * step, y_of(value)) for index, value in enumerate(trend)]
    canvas.line(drawn, colour, 2.5)
    canvas.dot(drawn[-1], 3.5, colour)
