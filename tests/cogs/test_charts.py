"""The /stats and /leaderboard pictures stay readable where the card shows them, the full width of the card:
about 560 px wide on a desktop, 265 px on a phone. Every word is at least 11 px tall there, no word
overlaps another or leaves the picture, and each picture is a PNG of the size it promises, in every
language and for any name: 32 characters long, right to left (Persian, Arabic), CJK, emoji only.

They draw what they are given and nothing else: every game's line and legend, the seasons within the time
span, the top ten with their medals and trends; and no input crashes them: no points, one point, all at
one moment or one rating, negative ratings, no rows. (The catalogs' parity, `charts.*` included, is
tests/cogs/test_locales.py's.)"""

from __future__ import annotations

import io
import random
import re
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from cogs.kit.drawing import fit_text
from cogs.kit.words.catalogs import catalog, languages
from cogs.kit.words.text import game_title, is_rtl, number, t
from cogs.stats import charts
from cogs.stats.charts import (
    LEADERBOARD_SIZE,
    STATS_SIZE,
    GameLine,
    LeaderRow,
    RatingPoint,
    SeasonMark,
    leaderboard_png,
    leaderboard_size,
    stats_png,
)
from rules.registry import GAMES
from tests.cogs.pictures import (
    DESKTOP_WIDTH,
    PHONE_WIDTH,
    SMALLEST_SHOWN,
    Drawn,
    Word,
    drawn_while,
    missing_glyphs,
    outside,
    overlapping,
    shown,
    too_small,
    words_of,
)

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = sorted(languages())
TALL = "Ågjpq Ýÿ"
"""A name inked from accents on capitals down to descenders: lines of it as close as they may be."""
NAMES = [
    "Wolfgang Amadeus Mozart Salzburg",
    "مریم محمدی زاده تهرانی اصفهانی ش",
    "عبد الرحمن بن محمد الهاشمي القرش",
    "王小明" * 10 + "王小",
    "🍣🤖👍🏽",
    "Zoë",
    "Li 42 مریم",
    "Александра Константиновна Иванов",
    "キム민준とさくら",
    "🍣 Ana 🍣",
    TALL,
]
"""Four names of 32 characters (the longest a Discord name can be) in four scripts, an emoji-only one,
short and mixed ones, and one inked from accents on capitals down to descenders."""
DAY = 86_400.0
START = 1_700_000_000.0


# ---------------------------------------------------------------- what they are given


def walk(seed: int, games: int, start: float) -> tuple[RatingPoint, ...]:
    """A player's ratings over `games` games, a day or two apart, wandering below 0 and up."""
    chance = random.Random(seed)
    rating, at, points = start, START + seed * DAY, []
    for _ in range(games):
        rating += chance.uniform(-3, 4)
        at += chance.uniform(0.5, 2) * DAY
        points.append(RatingPoint(at, rating))
    return tuple(points)


def game_lines(language: str, count: int = 5) -> list[GameLine]:
    """One line per game, in the language's titles (the longest first), one game without ratings."""
    titles = sorted((game_title(game, language) for game in GAMES), key=len, reverse=True)
    return [
        GameLine(
            title,
            walk(index, 4 + 6 * index, -3 + 4 * index) if index != 3 else (),
            9 + 250 * index,
            3 * index,
        )
        for index, title in enumerate(titles[:count])
    ]


SEASONS = [SeasonMark(0, 0.0), SeasonMark(1, START + 6 * DAY), SeasonMark(2, START + 30 * DAY)]


def leader_rows(names: Sequence[str], count: int = 10) -> list[LeaderRow]:
    rows = []
    for index in range(count):
        trend = tuple(point.rating for point in walk(index + 7, 1 + index * 3, 30 - 3 * index))[-20:]
        rating = 41.25 - 4.6 * index  # down to −0.15: a negative rating written with its sign
        rows.append(
            LeaderRow(index + 1, names[index % len(names)], rating, trend, 12_345 // (index + 1), 987 - index)
        )
    return rows


def stats_cases(language: str) -> Iterator[Callable[[], bytes]]:
    """Every name with five, three, one or two games; no game; five legend entries inked as tall as a
    line gets; one game without ratings."""
    for index, name in enumerate(NAMES):
        count = (5, 3, 1, 2)[index % 4]
        yield lambda name=name, count=count: stats_png(name, game_lines(language, count), SEASONS, language)
    yield lambda: stats_png(NAMES[0], [], [], language)
    tall = [GameLine(TALL, line.points, line.games, line.wins) for line in game_lines(language)]
    yield lambda: stats_png(TALL, tall, SEASONS, language)  # the legend's lines as close as they may be
    yield lambda: stats_png(NAMES[1], [GameLine(NAMES[0], (), 3, 1)], SEASONS, language)


def leaderboard_cases(language: str) -> Iterator[Callable[[], bytes]]:
    title = game_title("sushizock", language)  # the longest game title
    yield lambda: leaderboard_png(title, leader_rows(NAMES), language)
    yield lambda: leaderboard_png(title, leader_rows(NAMES[::-1]), language)
    yield lambda: leaderboard_png(TALL, leader_rows([TALL]), language)  # the rows as close as they may be
    yield lambda: leaderboard_png(t("leaderboard.all_games", language), leader_rows(NAMES, 3), language)
    yield lambda: leaderboard_png(title, [], language)


def pictures(language: str) -> Iterator[tuple[set[tuple[int, int]], Callable[[], bytes]]]:
    """Each picture with the sizes it may have (a leaderboard is as tall as its rows)."""
    for render in stats_cases(language):
        yield {STATS_SIZE}, render
    for render in leaderboard_cases(language):
        yield {leaderboard_size(rows) for rows in range(11)}, render


# ---------------------------------------------------------------- readable where they are shown


def test_the_pictures_fit_the_card():
    """Drawn at least twice as wide as a phone shows them (crisp); /stats landscape, /leaderboard's ten
    rows within a desktop screen."""
    assert STATS_SIZE == (640, 336)
    assert LEADERBOARD_SIZE[0] == 640 and LEADERBOARD_SIZE[1] <= 420
    for width, height in (STATS_SIZE, LEADERBOARD_SIZE):
        assert width >= 2 * PHONE_WIDTH
        assert DESKTOP_WIDTH * height / width <= 370
    assert DESKTOP_WIDTH * STATS_SIZE[1] / STATS_SIZE[0] <= 300


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_picture_is_a_png_of_its_size_and_every_word_readable_on_a_phone(
    monkeypatch: pytest.MonkeyPatch, language: str
):
    for size, render in pictures(language):
        image, drawn = drawn_while(monkeypatch, render, words_in=charts)
        assert image.size in size and image.mode == "RGB"
        assert drawn, "every picture writes something"
        assert too_small(drawn, charts.WIDTH) == []
        assert min(item.size for item in drawn) * DESKTOP_WIDTH / charts.WIDTH >= SMALLEST_SHOWN
        # The size said is the size drawn: the ink of a digit is most of it.
        digits = [item for item in drawn if item.text.isdigit() and item.text.isascii()]
        assert all(item.box[3] - item.box[1] >= 0.7 * item.size for item in digits)


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_word_overlaps_another_or_leaves_the_picture(monkeypatch: pytest.MonkeyPatch, language: str):
    for _, render in pictures(language):
        image, drawn = drawn_while(monkeypatch, render, words_in=charts)
        words = words_of(drawn)
        assert outside(words, image.size) == []
        assert list(overlapping(words)) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_character_drawn_has_a_glyph_and_no_key_is_shown(
    monkeypatch: pytest.MonkeyPatch, language: str
):
    for _, render in pictures(language):
        _, drawn = drawn_while(monkeypatch, render, words_in=charts)
        assert list(missing_glyphs(drawn)) == []
        for item in drawn:
            assert not ord(max(item.text)) >= 0x1F000, "emoji are left out"
        assert not any(word.text.startswith("charts.") for word in words_of(drawn)), "a missing catalog key"


def test_the_pictures_are_the_same_every_time_and_small():
    """How long they take to draw is bench/bench_pictures.py's to print, not a test's."""
    lines, rows = game_lines("fa"), leader_rows(NAMES)
    for render in (
        lambda: stats_png(NAMES[1], lines, SEASONS, "fa"),
        lambda: leaderboard_png(NAMES[0], rows, "fa"),
    ):
        first = render()
        assert render() == first
        assert len(first) < 80_000  # about 35 kB (/stats) and 50 kB (/leaderboard)


# ---------------------------------------------------------------- /stats


def texts(drawn: list[Drawn], fill: Any = None) -> list[str]:
    return [word.text for word in words_of(drawn) if fill is None or word.fill == fill]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_stats_name_the_player_each_game_and_its_record(monkeypatch: pytest.MonkeyPatch, language: str):
    lines = game_lines(language)
    _, drawn = drawn_while(monkeypatch, lambda: stats_png("Zoë", lines, SEASONS, language), words_in=charts)
    written = texts(drawn)
    assert written[0] == "Zoë"
    room = charts.LEGEND[1] - charts.LEGEND[0] - charts.SWATCH
    for line in lines:
        assert shown(fit_text(line.title, charts.FONT, room)) in texts(drawn, charts.TEXT)
        records = {
            shown(t(key, language, wins=line.wins, games=line.games))
            for key in ("charts.record", "charts.record_short", "charts.record_bare")
        }
        assert records & set(texts(drawn, charts.DIM)), line
    # Each game with ratings has its line in its colour; five games, five colours.
    colours = {
        colour
        for _, colour in Image.open(io.BytesIO(stats_png("Zoë", lines, SEASONS, language))).getcolors(1 << 20)
        or []
    }
    assert all(colour in colours for colour in charts.PALETTE)


def test_the_stats_write_persian_digits_and_mirror_the_layout(monkeypatch: pytest.MonkeyPatch):
    lines = game_lines("fa", 2)
    _, drawn = drawn_while(monkeypatch, lambda: stats_png(NAMES[1], lines, SEASONS, "fa"), words_in=charts)
    words = words_of(drawn)
    # Reading starts at the right: the name ends at the right edge, the legend stands on the left.
    name = words[0]
    assert name.text.endswith("…") or name.text.startswith("…")
    assert STATS_SIZE[0] - 16 <= name.box[2] <= STATS_SIZE[0]
    legend = [word for word in words if word.text == shown(lines[1].title)]
    assert legend and legend[0].box[2] < STATS_SIZE[0] / 2
    # The gridlines' labels in Persian digits, on the right of the chart; no Latin digit anywhere.
    labels = [word for word in words if re.fullmatch(r"−?[۰-۹]+", word.text)]
    assert len(labels) >= 2 and all(word.box[0] > STATS_SIZE[0] / 2 for word in labels)
    assert not any(char.isascii() and char.isdigit() for word in words for char in word.text)
    # And left to right in English.
    _, drawn = drawn_while(monkeypatch, lambda: stats_png("Zoë", lines, SEASONS, "en"), words_in=charts)
    english = words_of(drawn)
    assert english[0].box[0] <= 16 and english[0].text == "Zoë"
    assert next(word for word in english if word.text == shown(lines[1].title)).box[0] > STATS_SIZE[0] / 2


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_seasons_within_the_time_span_are_marked(monkeypatch: pytest.MonkeyPatch, language: str):
    points = walk(1, 40, 5)  # about 50 days
    line = GameLine("Sushi Go!", points, 40, 12)
    seasons = [
        SeasonMark(0, points[5].at),  # before seasons: never marked
        SeasonMark(1, points[0].at - DAY),  # before the first game: outside the span
        SeasonMark(2, points[12].at),
        SeasonMark(3, points[30].at),
        SeasonMark(4, points[-1].at + DAY),  # after the last game
    ]
    _, drawn = drawn_while(monkeypatch, lambda: stats_png("Zoë", [line], seasons, language), words_in=charts)
    marked = texts(drawn, charts.SEASON)
    assert marked == [shown(t("charts.season", language, number=season)) for season in (3, 2)]


def test_a_player_without_ratings_reads_so_and_one_rating_is_a_dot(monkeypatch: pytest.MonkeyPatch):
    for language in LANGUAGES:
        for lines in ([], [GameLine("Sushi Go!", (), 4, 1)]):
            _, drawn = drawn_while(
                monkeypatch,
                lambda lines=lines, language=language: stats_png("🍣", lines, SEASONS, language),
                words_in=charts,
            )
            written = texts(drawn)
            assert shown(t("charts.no_ratings", language)) in written
            assert shown(t("charts.a_player", language)) == written[0], "emoji only: a stand-in"
    single = GameLine("Sushi Go!", (RatingPoint(START, 3.2),), 1, 1)
    image = Image.open(io.BytesIO(stats_png("Zoë", [single], SEASONS, "en"))).convert("RGB")
    dot = [
        (x, y)
        for x in range(image.width)
        for y in range(40, image.height)
        if image.getpixel((x, y)) == charts.PALETTE[0]
    ]
    legend = charts.LEGEND[0]
    on_chart = [(x, y) for x, y in dot if x < legend]
    assert on_chart and max(x for x, _ in on_chart) - min(x for x, _ in on_chart) <= 12, "a dot, not a line"


@pytest.mark.parametrize(
    "points",
    [
        (RatingPoint(START, 5.0), RatingPoint(START, 7.0), RatingPoint(START, 6.0)),  # all at one moment
        tuple(RatingPoint(START + index * DAY, 12.5) for index in range(6)),  # one rating throughout
        tuple(RatingPoint(START + index * DAY, -8.0 - index) for index in range(6)),  # negative only
        (RatingPoint(START, 0.0), RatingPoint(START + 1, 1e-9)),
        tuple(RatingPoint(START + index, 1_000.0 * index) for index in range(3)),  # absurdly high
    ],
)
def test_awkward_ratings_draw(monkeypatch: pytest.MonkeyPatch, points: tuple[RatingPoint, ...]):
    lines = [GameLine("Sushi Go!", points, len(points), 1), *game_lines("en", 4)[1:]]
    for language in ("en", "fa"):
        image, drawn = drawn_while(
            monkeypatch,
            lambda language=language: stats_png("Zoë", lines, [SeasonMark(1, START)], language),
            words_in=charts,
        )
        assert image.size == STATS_SIZE
        assert list(overlapping(words_of(drawn))) == []


def test_at_most_five_games_are_drawn(monkeypatch: pytest.MonkeyPatch):
    lines = [GameLine(f"Game {index}", walk(index, 3, 0), 3, 1) for index in range(7)]
    _, drawn = drawn_while(monkeypatch, lambda: stats_png("Zoë", lines, [], "en"), words_in=charts)
    assert [text for text in texts(drawn, charts.TEXT) if text.startswith("Game")] == [
        f"Game {i}" for i in range(5)
    ]


# ---------------------------------------------------------------- /leaderboard


def row_words(drawn: list[Drawn], index: int) -> list[Word]:
    """What row `index` (from 0) writes, left to right."""
    top = charts.HEADER + index * charts.ROW
    inside = [word for word in words_of(drawn) if top <= (word.box[1] + word.box[3]) / 2 < top + charts.ROW]
    return sorted(inside, key=lambda word: word.box[0])


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_row_writes_position_name_rating_games_and_wins(monkeypatch: pytest.MonkeyPatch, language: str):
    rows = leader_rows(["Zoë", "🍣🍣", NAMES[0]], 10)
    _, drawn = drawn_while(monkeypatch, lambda: leaderboard_png("Sushi Go!", rows, language), words_in=charts)
    header = [word.text for word in words_of(drawn) if word.box[3] <= charts.HEADER]
    assert {shown(t("charts.games", language)), shown(t("charts.wins", language)), "Sushi Go!"} == set(header)
    for index, row in enumerate(rows):
        written = [word.text for word in row_words(drawn, index)]
        if is_rtl(language):
            written.reverse()
        rating = shown(t("charts.rating", language, rating=round(row.rating, 1)))
        name = "Zoë" if row.name == "Zoë" else shown(t("charts.player", language, number=row.position))
        if row.name == NAMES[0]:
            assert written[1].endswith("…") and NAMES[0].startswith(written[1].removesuffix("…"))
            assert len(written[1]) >= 8, "a name keeps enough letters to be told apart"
            name = written[1]
        assert written == [
            shown(number(row.position, language)),
            name,
            rating,
            shown(number(row.games, language)),
            shown(number(row.wins, language)),
        ]


def test_a_negative_rating_keeps_its_sign_and_persian_its_digits(monkeypatch: pytest.MonkeyPatch):
    row = LeaderRow(1, "Zoë", -2.34, (0.0, -2.34), 3, 0)
    for language, rating in (
        ("en", "−2.3"),
        ("de", "−2,3"),
        ("fa", shown(t("charts.rating", "fa", rating=-2.3))),
    ):
        _, drawn = drawn_while(
            monkeypatch, lambda language=language: leaderboard_png("x", [row], language), words_in=charts
        )
        assert rating in texts(drawn)
    assert re.fullmatch(r"−۲٫۳", shown(t("charts.rating", "fa", rating=-2.3)))
    _, drawn = drawn_while(
        monkeypatch,
        lambda: leaderboard_png("x", [LeaderRow(1, "Zoë", -0.04, (), 1, 0)], "en"),
        words_in=charts,
    )
    assert "0.0" in texts(drawn), "not −0.0"


def test_the_leaderboard_mirrors_right_to_left(monkeypatch: pytest.MonkeyPatch):
    rows = leader_rows(["Zoë"], 4)
    _, drawn = drawn_while(monkeypatch, lambda: leaderboard_png("Sushi Go!", rows, "fa"), words_in=charts)
    first = row_words(drawn, 0)
    assert first[-1].text == "۱" and first[-1].box[2] > LEADERBOARD_SIZE[0] - 40  # the position on the right
    assert first[-2].text == "Zoë" and first[-2].box[2] > LEADERBOARD_SIZE[0] - 120  # the name starts there
    title = next(word for word in words_of(drawn) if word.text == "Sushi Go!")
    assert title.box[2] > LEADERBOARD_SIZE[0] - 16
    _, drawn = drawn_while(monkeypatch, lambda: leaderboard_png("Sushi Go!", rows, "en"), words_in=charts)
    first = row_words(drawn, 0)
    assert first[0].text == "1" and first[0].box[0] < 40 and first[1].text == "Zoë" and first[1].box[0] < 120


def test_medals_for_the_first_three_and_trends_in_green_and_red(monkeypatch: pytest.MonkeyPatch):
    rows = [
        LeaderRow(1, "Up", 30.0, (1.0, 5.0, 3.0, 9.0), 4, 2),
        LeaderRow(2, "Down", 20.0, (9.0, 1.0), 2, 1),
        LeaderRow(3, "Flat", 10.0, (4.0, 4.0, 4.0), 3, 1),
        LeaderRow(4, "One", 5.0, (4.0,), 1, 0),
        LeaderRow(5, "None", 1.0, (), 0, 0),
    ]
    image, drawn = drawn_while(monkeypatch, lambda: leaderboard_png("x", rows, "en"), words_in=charts)
    image = image.convert("RGB")
    for index, medal in enumerate(charts.MEDALS):
        (position,) = [word for word in row_words(drawn, index) if word.fill == charts.ON_MEDAL]
        x = (position.box[0] + position.box[2]) / 2
        y = charts.HEADER + index * charts.ROW + charts.ROW / 2 - 14  # above the digit, inside the disc
        assert image.getpixel((round(x), round(y))) == medal
    assert next(word.fill for word in row_words(drawn, 3)) != charts.ON_MEDAL

    def colours_in_row(index: int) -> set[Any]:
        top = charts.HEADER + index * charts.ROW
        return {image.getpixel((x, y)) for x in range(image.width) for y in range(top, top + charts.ROW)}

    assert charts.UP in colours_in_row(0) and charts.DOWN not in colours_in_row(0)
    assert charts.DOWN in colours_in_row(1) and charts.UP not in colours_in_row(1)
    for index in (2, 3, 4):
        assert not {charts.UP, charts.DOWN} & colours_in_row(index)


@pytest.mark.parametrize("language", LANGUAGES)
def test_fewer_rows_none_or_more_than_ten(monkeypatch: pytest.MonkeyPatch, language: str):
    image, drawn = drawn_while(
        monkeypatch, lambda: leaderboard_png("Sushi Go!", [], language), words_in=charts
    )
    assert texts(drawn) == ["Sushi Go!", shown(t("charts.no_players", language))]
    assert image.size == leaderboard_size(2)  # room for its words
    image, _ = drawn_while(
        monkeypatch, lambda: leaderboard_png("Sushi Go!", leader_rows(["Zoë"], 3), language), words_in=charts
    )
    assert image.size == leaderboard_size(3) == (640, charts.HEADER + 3 * charts.ROW + 6)
    rows = leader_rows(["Zoë"], 14)
    image, drawn = drawn_while(
        monkeypatch, lambda: leaderboard_png("Sushi Go!", rows, language), words_in=charts
    )
    assert image.size == LEADERBOARD_SIZE
    positions = [row_words(drawn, index)[-1 if is_rtl(language) else 0].text for index in range(10)]
    assert positions == [shown(number(position, language)) for position in range(1, 11)]
    assert not any(word.box[1] > charts.HEADER + 10 * charts.ROW for word in words_of(drawn))


def test_the_catalogs_word_every_chart_key_the_module_names():
    """Keys the module builds from a list (the legend's record, shortest last) as well as literal ones."""
    keys = set(
        re.findall(
            r'"(charts\.[a-z_]+)"', (ROOT / "cogs" / "stats" / "charts.py").read_text(encoding="utf-8")
        )
    )
    assert {"charts.record", "charts.record_short", "charts.record_bare", "charts.season"} <= keys
    for language in ("en", "de", "es", "fa"):
        assert sorted(key for key in keys if key not in catalog(language)) == [], language
