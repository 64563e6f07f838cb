"""Sushi Go!'s pictures stay readable where the card shows them (560 px wide on a desktop, 265 px on a
phone): every word at least 11 px tall there, none outside the picture or over another, nor under a
tile, a five-player table on one line per player within 250 px, any name in any language (long, right to
left, CJK, emoji only), the cards just revealed framed. A table that chose pictures gets them on its
board, which then leaves the tableaux and the reveal to the picture; one that did not keeps its text
board exactly (tests/cogs/test_sushigo_board.py)."""

from __future__ import annotations

import io
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from functools import cache
from typing import Any, cast

import pytest
from PIL import Image

from cogs.games.sushigo import picture, render
from cogs.games.sushigo.cog import SushiGoCog
from cogs.kit.messages import Board
from cogs.kit.words.bidi import plain
from cogs.kit.words.catalogs import languages
from cogs.kit.words.text import number, t
from rules.sushigo.game import GAME, SushiGoView
from rules.sushigo.scoring import wasabi_slots
from rules.sushigo.state import SushiGoState
from storage.settings import PICTURES_KEY
from tests.cogs.boards import FIRST_USER, MAX_CHARS, MAX_LINES, TABLE_ROWS, every_state, table
from tests.cogs.pictures import (
    DESKTOP_WIDTH,
    SMALLEST_SHOWN,
    Drawn,
    drawn_while,
    missing_glyphs,
    outside,
    overlapping,
    read,
    too_small,
)

LANGUAGES = sorted(languages().values())
LONG_NAMES = [
    "Wolfgang Amadeus Mozart Salzburg",
    "مریم محمدی زاده تهرانی اصفهانی ش",
    "王小明" * 10 + "王小",
    "Александра Константиновна Иванов",
    "🍣🐟🥢",
]
"""Four names of 32 characters (the longest a Discord name can be) in four scripts, and one of emoji."""
SHORT_NAMES = ["Zoë", "مریم", "王小明", "🍣", "Jürgen"]
NAME_SETS = {"long": LONG_NAMES, "short": SHORT_NAMES}


def game(players: int) -> Iterator[SushiGoState]:
    return every_state(GAME, players, 3, GAME.default_action)


@cache
def play_views(players: int) -> tuple[SushiGoView, ...]:
    """The deal, a turn with picks made and owed, the fullest tableaux of the first round, the last
    turn of the game."""
    views = [GAME.view(state, None) for state in game(players)]
    playing = [view for view in views if not view["over"]]
    fullest = max(playing, key=lambda view: sum(map(len, view["tableaux"])))
    some_picked = next(view for view in playing if any(view["picked"]) and view["reveal"])
    return (playing[0], some_picked, fullest, playing[-1])


@cache
def final_view(players: int) -> SushiGoView:
    return next(GAME.view(state, None) for state in game(players) if GAME.is_over(state))


def clear() -> None:
    picture._play_png.cache_clear()
    picture._final_png.cache_clear()


def drawn_by(monkeypatch: pytest.MonkeyPatch, draw: Callable[[], bytes]) -> tuple[Image.Image, list[Drawn]]:
    """The picture `draw` makes, and every text it hands to Pillow."""
    clear()  # drawn anew, not taken from the cache
    drawn = drawn_while(monkeypatch, draw)
    clear()
    return drawn


def pictures(players: int, names: Sequence[str], language: str) -> Iterator[tuple[str, Callable[[], bytes]]]:
    seated = list(names[:players])
    for index, view in enumerate(play_views(players)):
        yield f"play {index}", lambda view=view: picture.play_png(view, seated, language)
    yield "final", lambda: picture.final_png(final_view(players), seated, language)


# ---------------------------------------------------------------- readable where it is shown


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_pictures_are_landscape_and_a_full_table_fits_a_phone(players: int):
    """640 px wide; as tall as its players need and no taller, the same all game long (the board does not
    jump); four or five players one line each: five within 250 px (244: 214 on a desktop, 101 on a phone)."""
    heights = set()
    for view in play_views(players):
        heights.add(Image.open(io.BytesIO(picture.play_png(view, SHORT_NAMES[:players], "en"))).size)
    assert heights == {(picture.WIDTH, picture.play_height(players))}
    final = Image.open(io.BytesIO(picture.final_png(final_view(players), SHORT_NAMES[:players], "fa")))
    assert final.size == (picture.WIDTH, picture.final_height(players))
    assert picture.layout(players) is (picture.ONE_LINE if players >= 4 else picture.TWO_LINES)
    assert picture.play_height(players) <= 290 and picture.final_height(players) <= 300
    assert picture.play_height(5) <= 250 and picture.play_height(4) < picture.play_height(3)
    assert picture.play_height(2) <= 200 and picture.final_height(2) <= 160  # as small as its content


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("players", [2, 5])
@pytest.mark.parametrize("names", sorted(NAME_SETS))
def test_no_word_is_small_outside_the_picture_or_over_another(
    monkeypatch: pytest.MonkeyPatch, language: str, players: int, names: str
):
    for what, draw in pictures(players, NAME_SETS[names], language):
        image, drawn = drawn_by(monkeypatch, draw)
        assert drawn, what
        assert too_small(drawn, picture.WIDTH) == [], what
        assert min(item.size for item in drawn) * DESKTOP_WIDTH / picture.WIDTH >= SMALLEST_SHOWN
        assert outside(drawn, image.size) == [], what
        assert list(overlapping(drawn)) == [], what
        assert list(missing_glyphs(drawn)) == [], what


def tiles_pasted(
    monkeypatch: pytest.MonkeyPatch, draw: Callable[[], bytes]
) -> list[tuple[int, int, int, int]]:
    """Where `draw` puts each tile (its box in the picture)."""
    boxes: list[tuple[int, int, int, int]] = []
    original = Image.Image.paste

    def paste(self: Image.Image, im: Any, box: Any = None, mask: Any = None) -> None:
        if isinstance(im, Image.Image) and isinstance(box, tuple) and len(box) == 2:
            boxes.append((box[0], box[1], box[0] + im.width, box[1] + im.height))
        original(self, im, box, mask)

    clear()
    with monkeypatch.context() as patch:
        patch.setattr(Image.Image, "paste", paste)
        draw()
    clear()
    return boxes


def crowded(players: int) -> tuple[picture.Band, ...]:
    """A band as full as a round can make it: a card of each kind (8 groups at four players), the
    widest numbers, the latest reveal's cards marked."""
    tableau = ["tempura", "sashimi", "dumpling", "maki3", "squid", "wasabi", "pudding", "chopsticks"]
    tableau = tableau[: {2: 10, 3: 9, 4: 8, 5: 7}[players]]
    laid = picture.groups(tableau, wasabi_slots(tableau), 2)
    return tuple(
        picture.Band(name, seat % 2 == 0, 99, 28, 12, laid) for seat, name in enumerate(LONG_NAMES[:players])
    )


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("players", [3, 4, 5])
def test_each_band_writes_within_itself_and_no_tile_covers_a_word(
    monkeypatch: pytest.MonkeyPatch, language: str, players: int
):
    """A band's words and tiles stay in their band: a long name is cut short before the tiles (beside
    it, from four players) and the puddings and the score, and many tiles are squeezed to their room."""
    band = picture.layout(players).band
    for bands in (picture.bands(play_views(players)[2], LONG_NAMES[:players], language), crowded(players)):
        _, drawn = drawn_by(monkeypatch, lambda bands=bands: picture._play_png(bands, language))
        tiles = tiles_pasted(monkeypatch, lambda bands=bands: picture._play_png(bands, language))
        assert tiles
        for seat in range(players):
            top = picture.band_top(players, seat)
            inside = [item for item in drawn if top <= (item.box[1] + item.box[3]) / 2 < top + band]
            for item in inside:
                x0, y0, x1, y1 = item.box
                assert x0 >= picture.MARGIN and x1 <= picture.WIDTH - picture.MARGIN, item
                assert top <= y0 and y1 <= top + band, item
            assert number(bands[seat].score, language) in [item.text for item in inside]
            # Every word but the rolls written on a maki's tile.
            words = [item.box for item in inside if item.text not in "123۱۲۳"]
            for x0, y0, x1, y1 in (box for box in tiles if top <= box[1] < top + band):
                assert x0 >= picture.MARGIN and x1 <= picture.WIDTH - picture.MARGIN
                assert top < y0 and y1 < top + band
                covered = [
                    word for word in words if x0 < word[2] and word[0] < x1 and y0 < word[3] and word[1] < y1
                ]
                assert covered == [], (seat, x0, x1)


# ---------------------------------------------------------------- any name, any language


def texts(monkeypatch: pytest.MonkeyPatch, draw: Callable[[], bytes]) -> list[str]:
    return [item.text for item in drawn_by(monkeypatch, draw)[1]]


def shows(name: str, written: list[str]) -> bool:
    """Whether a text drawn is the name, or its start (at least 4 characters) cut short with "…" (a CJK
    name's "…" is a run of its own, in DejaVu Sans)."""
    for text in written:
        for reading in (text, read(text)):
            start = reading.removesuffix("…")
            cut = reading != start or all(unicodedata.east_asian_width(char) == "W" for char in start)
            if reading == name or (len(start) >= 4 and cut and name.startswith(start)):
                return True
    return False


@pytest.mark.parametrize("language", LANGUAGES)
def test_long_names_are_cut_and_emoji_names_become_player_n(monkeypatch: pytest.MonkeyPatch, language: str):
    final = final_view(5)
    for view in play_views(5)[1:3]:
        for draw in (
            lambda view=view: picture.play_png(view, LONG_NAMES, language),
            lambda: picture.final_png(final, LONG_NAMES, language),
        ):
            written = texts(monkeypatch, draw)
            assert all(shows(name, written) for name in LONG_NAMES[:4]), written
            assert any(text.endswith("…") for text in written)  # the long Latin name, at least, is cut
            seat = plain(t("sushigo.picture.seat", language, seat=5))
            assert seat in written or seat in map(read, written)
            assert not any(ord(char) >= 0x1F000 for text in written for char in text)  # emoji left out


def test_in_persian_a_band_reads_from_the_right(monkeypatch: pytest.MonkeyPatch):
    view = play_views(2)[2]
    for language in ("en", "fa"):
        _, drawn = drawn_by(
            monkeypatch, lambda language=language: picture.play_png(view, ["Zoë", "Jürgen"], language)
        )
        name = next(item for item in drawn if item.text == "Zoë")
        score = next(item for item in drawn if item.text == number(view["scores"][0], language))
        if language == "fa":
            assert name.box[2] > picture.WIDTH - 60 and score.box[0] < 60
        else:
            assert name.box[0] < 60 and score.box[2] > picture.WIDTH - 60


def test_the_numbers_are_the_languages(monkeypatch: pytest.MonkeyPatch):
    """Scores, puddings and each round's points, in rank order, in Persian digits."""
    view = final_view(5)
    written = texts(monkeypatch, lambda: picture.final_png(view, SHORT_NAMES, "fa"))
    ranking = view["ranking"]
    assert ranking is not None
    totals = [number(view["scores"][seat], "fa") for seat in sorted(range(5), key=lambda s: (ranking[s], s))]
    shown = [text for text in written if text in totals]
    assert shown[-5:] == totals
    assert not any(char.isascii() and char.isdigit() for text in written for char in text)
    assert plain(t("sushigo.picture.total", "fa")) in map(read, written)


# ---------------------------------------------------------------- what it shows


def test_the_cards_are_laid_out_by_kind_with_their_sets_framed():
    tableau = [
        "tempura",
        "tempura",
        "tempura",
        "wasabi",
        "squid",
        "wasabi",
        "maki1",
        "maki3",
        "sashimi",
        "egg",
    ]
    laid = picture.groups(tableau, wasabi_slots(tableau))
    assert laid == (
        picture.Group(("tempura", "tempura"), framed=True),
        picture.Group(("tempura",)),
        picture.Group(("sashimi",)),
        picture.Group(("maki3", "maki1")),
        picture.Group(("squid@wasabi",)),
        picture.Group(("egg@wasabi",)),
    )
    laid = picture.groups(
        ["wasabi", "sashimi"] * 3 + ["egg", "pudding"], wasabi_slots(["wasabi"] * 3 + ["egg"])
    )
    assert picture.Group(("sashimi",) * 3, framed=True) in laid
    assert picture.Group(("egg@wasabi",)) in laid and picture.Group(("wasabi", "wasabi")) in laid


def test_the_cards_just_revealed_are_marked_where_they_were_laid():
    """The last cards of a tableau are the latest reveal's: of each tile they added, the last laid."""

    def marked(tableau: list[str], newest: int) -> list[str]:
        laid = picture.groups(tableau, wasabi_slots(tableau), newest)
        return [
            card
            for group in laid
            if group.new
            for card, new in zip(group.cards, group.new, strict=True)
            if new
        ]

    assert marked(["tempura", "sashimi", "tempura"], 1) == ["tempura"]
    pair = picture.groups(["tempura", "sashimi", "tempura"], wasabi_slots(["tempura"] * 2), 1)[0]
    assert pair == picture.Group(("tempura", "tempura"), framed=True, new=(False, True))
    assert marked(["wasabi", "egg", "squid"], 1) == ["squid"]  # on no wasabi: the egg took it
    assert marked(["wasabi", "squid"], 1) == ["squid@wasabi"]  # the wasabi it went on is no news
    assert marked(["maki3", "maki1", "maki2"], 1) == ["maki2"]
    assert marked(["egg", "salmon", "salmon"], 2) == ["salmon", "salmon"]  # a pair with chopsticks
    assert marked(["egg"], 0) == [] and marked([], 2) == []


def test_a_band_frames_the_latest_reveal_until_its_round_is_scored():
    seen = set()
    for state in game(5):
        view = GAME.view(state, None)
        if view["over"]:
            break
        new = [
            sum(sum(group.new) for group in band.groups) for band in picture.bands(view, SHORT_NAMES, "en")
        ]
        reveal = view["reveal"]
        if reveal is None or reveal["round"] != view["round"]:  # the deal, or a round's first turn
            seen.add("none")
            assert new == [0] * 5
            continue
        seen.add("some")
        for seat, cards in enumerate(reveal["cards"]):
            assert 1 <= new[seat] <= len(cards)
    assert seen == {"none", "some"}


def test_a_band_marks_who_still_picks_and_its_numbers():
    view = play_views(5)[1]
    bands = picture.bands(view, SHORT_NAMES, "en")
    assert [band.owed for band in bands] == [not picked for picked in view["picked"]]
    assert [band.score for band in bands] == view["scores"]
    assert [band.puddings for band in bands] == view["puddings"]
    assert bands[3].name == "Player 4" and bands[0].name == "Zoë"
    rows = picture.rows(final_view(5), SHORT_NAMES, "en")
    assert [row.rank for row in rows] == sorted(row.rank for row in rows)
    for row in rows:
        assert sum(row.rounds) + row.pudding_points == row.total  # the maki are among the rounds' points


def test_a_picture_is_drawn_once_per_look(monkeypatch: pytest.MonkeyPatch):
    """The board is drawn after every pick: the same bands give the same PNG without drawing it again."""
    encoded: list[int] = []
    real_png = picture.png
    monkeypatch.setattr(picture, "png", lambda image: encoded.append(1) or real_png(image))
    clear()
    view = play_views(5)[1]
    first = picture.play_png(view, SHORT_NAMES, "fa")
    again = picture.play_png({**view, "deck_size": 0, "hand_size": 1}, list(SHORT_NAMES), "fa")
    assert again is first and len(encoded) == 1
    assert picture.play_png(view, SHORT_NAMES, "en") is not first and len(encoded) == 2
    clear()
    assert len(first) < 40_000  # about 30 kB


# ---------------------------------------------------------------- on the board


def board(state: SushiGoState, language: str, *, pictures: bool, replaying: bool = False) -> Board:
    ctx = table(GAME, state, language, SHORT_NAMES, replaying=replaying)
    if pictures:
        ctx.record.extra[PICTURES_KEY] = True
    return render.board(cast(Any, None), ctx)


def lines_of(drawn: Board) -> list[str]:
    embed = drawn.embed
    assert embed is not None
    parts = [drawn.content, embed.title, embed.description, embed.footer.text]
    return [line for part in parts if part for line in part.split("\n")]


def test_pictured_only_when_the_table_chose_pictures():
    assert SushiGoCog.pictured
    state = next(state for index, state in enumerate(game(3)) if index == 7)
    text = board(state, "en", pictures=False)
    assert text.files == [] and text.embed is not None and not text.embed.image.url


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_pictured_board_says_in_words_only_what_the_picture_does_not(language: str):
    seen_reveal = False
    for index, state in enumerate(game(5)):
        if GAME.is_over(state) or index > 40:
            break
        view = GAME.view(state, None)
        drawn = board(state, language, pictures=True)
        assert drawn.embed is not None and drawn.embed.image.url == "attachment://sushigo.png"
        assert [file.filename for file in drawn.files] == ["sushigo.png"]
        text = "\n".join(lines_of(drawn))
        ctx = table(GAME, state, language, SHORT_NAMES)
        # No line per player: their cards, puddings, scores and marks are the picture's.
        assert len(lines_of(drawn)) <= 5 and "✅" not in text
        assert not any(line.startswith("⏳ **") for line in lines_of(drawn))
        mentions = [f"<@{FIRST_USER + seat}>" for seat in view["to_move"]]
        assert all(text.count(mention) == 1 for mention in mentions) and text.count("<@") == len(mentions)
        if view["reveal"]:  # the picture frames what was revealed: no line of words names the players
            seen_reveal = True
            assert not any(ctx.name(seat) in text for seat in range(5) if SHORT_NAMES[seat] != "🍣"), text
        assert len(lines_of(drawn)) + TABLE_ROWS <= MAX_LINES and len(text) <= MAX_CHARS
        replay = "\n".join(lines_of(board(state, language, pictures=True, replaying=True)))
        assert "<@" not in replay
    assert seen_reveal


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_final_scores_as_a_picture(language: str):
    state = next(state for state in game(2) if GAME.is_over(state))
    drawn = board(state, language, pictures=True, replaying=True)  # a replay's last step
    assert drawn.embed is not None and drawn.embed.image.url == "attachment://sushigo-scores.png"
    assert [file.filename for file in drawn.files] == ["sushigo-scores.png"]
    ctx = table(GAME, state, language, SHORT_NAMES)
    ctx.record.extra[PICTURES_KEY] = True
    file = SushiGoCog.results_picture(cast(Any, None), ctx)
    assert file is not None and file.filename == "sushigo-scores.png"
    image = Image.open(io.BytesIO(file.fp.read()))
    assert image.size == (picture.WIDTH, picture.final_height(2))
