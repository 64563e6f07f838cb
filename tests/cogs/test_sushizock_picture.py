"""Sushizock's piles turned over, as a picture on the results of a table that draws pictures.

The card shows the picture about 560 px wide on a desktop and 265 px on a phone: every word is at least
11 px tall there, none leaves the picture or overlaps another, whatever the names (32 characters, right
to left, CJK, emoji only) and the language; five players fit a phone screen. The board stays text.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from typing import Any, cast

import pytest
from PIL import Image

from cogs.games.sushizock import picture, render
from cogs.games.sushizock.cog import SushizockCog
from cogs.kit.words.catalogs import languages
from cogs.kit.words.text import is_rtl, number, signed, t
from cogs.tables.boards import results_board
from rules.sushizock.game import BONE_TILES, GAME, SUSHI_TILES, SushizockState
from tests.cogs.boards import table
from tests.cogs.pictures import (
    PHONE_WIDTH,
    SMALLEST_SHOWN,
    Drawn,
    drawn_while,
    image_of,
    overlapping,
    pictured,
    read,
    too_small,
    visible,
)

COG = SushizockCog(cast(Any, None))  # the renderer asks the cog only to build its components
LANGUAGES = sorted(languages())
TALLEST = 480
"""The most a picture may be tall: the whole results message then fits a phone screen."""
LONG = [
    "Wolfgang Amadeus Mozart Salzburg",
    "مریم محمدی زاده تهرانی اصفهانی ش",
    "王小明" * 10 + "王小",
    "Александра Константиновна Иванов",
    "Bartholomew Montgomery-Whitfield",
]
"""Names of 32 characters (the longest a Discord name can be), in four scripts."""
ODD = ["Zoë", "مریم", "王小明", "🍣🐐", "Jan"]
"""Short names: Latin, right to left, CJK, and one of emoji only (drawn as "Player 4")."""


def finished(players: int, seed: int) -> SushizockState:
    """A whole game of random legal moves (steals and forced takes come up)."""
    choices = random.Random(seed)
    state = GAME.new(players, seed)
    while not state.over:
        seat = min(GAME.to_move(state))
        GAME.apply(state, seat, choices.choice(GAME.legal_actions(state, seat)))
    return state


def dealt(players: int, sushi: list[list[int]], bones: list[list[int]]) -> SushizockState:
    """A finished game with the piles given, bottom first; the other seats with none."""
    state = finished(players, 1)
    empty: list[list[int]] = [[] for _ in range(players)]
    state.sushi_piles = [*sushi, *empty][:players]
    state.bone_piles = [*bones, *empty][:players]
    return state


def hoarder(players: int) -> SushizockState:
    """One player with every tile but one of each row (two lines of tiles), one with the rest, and
    players with nothing at all."""
    return dealt(
        players, [list(SUSHI_TILES[:-1]), [SUSHI_TILES[-1]]], [list(BONE_TILES[:-1]), [BONE_TILES[-1]]]
    )


def states(players: int) -> list[SushizockState]:
    """Random games, the most tiles one player can hold, sushi that all count and none that do."""
    return [
        finished(players, 4),
        finished(players, 9),
        hoarder(players),
        dealt(players, [list(SUSHI_TILES)], [list(BONE_TILES)]),
        dealt(players, [[6, 6, 5, 5, 4]], []),
    ]


def draw(
    monkeypatch: pytest.MonkeyPatch, state: SushizockState, names: Sequence[str], language: str
) -> tuple[Image.Image, list[Drawn]]:
    """The picture and every text it hands to Pillow, with where its ink lies."""
    picture._drawn.cache_clear()  # drawn here, not taken from an earlier test
    return drawn_while(
        monkeypatch, lambda: picture.render_png(GAME.view(state, None), names[: state.players], language)
    )


def panels(state: SushizockState) -> list[tuple[int, int, int]]:
    """Each panel, best first, as (seat, top, bottom) in the picture."""
    view = GAME.view(state, None)
    piles, ranking = picture.shown(view)
    top, found = picture.MARGIN, []
    for seat in sorted(range(state.players), key=lambda seat: (ranking[seat], seat)):
        bottom = top + picture.panel_height(piles[seat])
        found.append((seat, top, bottom))
        top = bottom + picture.GAP
    return found


# ---------------------------------------------------------------- readable where it is shown


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("players", [GAME.min_players, GAME.max_players])
@pytest.mark.parametrize("names", [LONG, ODD], ids=["long", "scripts"])
def test_every_word_is_readable_on_a_phone_and_in_its_place(
    monkeypatch: pytest.MonkeyPatch, language: str, players: int, names: list[str]
) -> None:
    for state in states(players):
        image, drawn = draw(monkeypatch, state, names, language)
        piles, _ = picture.shown(GAME.view(state, None))
        assert image.size == (picture.WIDTH, picture.height(piles)) and image.height <= TALLEST
        assert drawn and too_small(drawn, picture.WIDTH) == []
        assert list(overlapping(drawn)) == []
        for item in drawn:  # within the picture, and within one panel
            x0, y0, x1, y1 = item.box
            assert x0 >= 0 and x1 <= image.width, item
            assert any(top <= y0 and y1 <= bottom for _, top, bottom in panels(state)), item


def test_five_players_fit_a_phone_screen() -> None:
    """The tallest there can be: five players, one of them with two lines of tiles (24 tiles in all,
    so no second player can have more than a line holds)."""
    assert picture.FONT * PHONE_WIDTH / picture.WIDTH >= SMALLEST_SHOWN
    assert not picture.fits_one_line(picture.shown(GAME.view(hoarder(5), None))[0][0])
    assert picture.height(picture.shown(GAME.view(hoarder(5), None))[0]) == 450 <= TALLEST
    assert picture.height(picture.shown(GAME.view(finished(5, 4), None))[0]) == 414
    assert picture.height(picture.shown(GAME.view(finished(2, 4), None))[0]) == 168
    half = (len(SUSHI_TILES) + len(BONE_TILES)) // 2  # two players of a half each: one line each
    assert picture.fits_one_line(picture.Piles(SUSHI_TILES[:6], BONE_TILES[:6], 6, 0)) and half == 12


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_panel_shows_the_piles_bottom_first_and_the_sums(monkeypatch: pytest.MonkeyPatch, language: str):
    """Best first: the rank, the name, the sushi that count, the bones and the score; below, every tile
    bottom first, its value alone (its colour is its sign), from where reading starts."""
    for state in (finished(5, 4), hoarder(5), dealt(3, [[6, 6, 5]], [])):
        view = GAME.view(state, None)
        final, ranking = view["final_piles"], view["ranking"]
        assert final is not None and ranking is not None
        _, drawn = draw(monkeypatch, state, ["aaaaa", "bbbbb", "ccccc", "ddddd", "eeeee"], language)
        rtl = is_rtl(language)
        for seat, top, bottom in panels(state):
            inside = [item for item in drawn if top <= item.box[1] and item.box[3] <= bottom]
            heading = [item for item in inside if item.box[3] <= top + picture.HEADING]
            heading.sort(key=lambda item: -item.box[0] if rtl else item.box[0])  # in reading order
            piles = final[seat]
            counted = piles["sushi_pile"][: piles["counted"]]
            sums = [(signed(sum(counted), language), picture.SUSHI_TEXT)] if piles["sushi_pile"] else []
            sums += (
                [(signed(sum(piles["bone_pile"]), language), picture.BONE_TEXT)] if piles["bone_pile"] else []
            )
            sums += [("=", picture.DIM)] if sums else []
            expected = [number(ranking[seat], language), "abcde"[seat] * 5, *(text for text, _ in sums)]
            expected.append(signed(view["scores"][seat], language))
            assert [visible(item.text) for item in heading] == [visible(text) for text in expected]
            assert [item.fill for item in heading[2:-1]] == [fill for _, fill in sums]
            tiles = [item for item in inside if item not in heading]
            line_of = {
                id(item): ((item.box[1] + item.box[3]) / 2 - top - picture.HEADING) // picture.LINE
                for item in tiles
            }
            tiles.sort(key=lambda item: (line_of[id(item)], -item.box[0] if rtl else item.box[0]))
            if not piles["sushi_pile"] and not piles["bone_pile"]:
                assert [read(item.text) for item in tiles] == [
                    visible(t("sushizock.picture.no_tiles", language))
                ]
                continue
            values = [*piles["sushi_pile"], *(-bone for bone in piles["bone_pile"])]
            assert [item.text for item in tiles] == [visible(number(value, language)) for value in values]
            worthless = len(piles["sushi_pile"]) - piles["counted"]
            dimmed = [item for item in tiles if item.fill == picture.DIM]
            assert len(dimmed) == worthless


def test_a_name_stands_where_reading_starts(monkeypatch: pytest.MonkeyPatch) -> None:
    for language in ("en", "fa"):
        _, drawn = draw(monkeypatch, finished(2, 4), ["Zoë", "Jan"], language)
        name = next(item for item in drawn if item.text == "Zoë")
        if is_rtl(language):
            assert name.box[2] == pytest.approx(picture.WIDTH - picture.MARGIN - picture.NAME_X, abs=3)
        else:
            assert name.box[0] == pytest.approx(picture.MARGIN + picture.NAME_X, abs=3)


def test_an_emoji_name_is_drawn_as_its_seat_and_a_long_one_cut_short(monkeypatch: pytest.MonkeyPatch) -> None:
    _, drawn = draw(monkeypatch, finished(5, 4), ODD, "en")
    texts = [item.text for item in drawn]
    assert "Zoë" in texts and "王小明" in texts and t("sushizock.picture.seat", "en", seat=4) in texts
    assert not any(ord(char) >= 0x1F000 for text in texts for char in text)
    _, drawn = draw(monkeypatch, finished(5, 4), LONG, "en")
    cut = [item.text for item in drawn if "…" in item.text]
    assert len(cut) >= 4 and any(len(text) >= 10 for text in cut)


def test_the_picture_is_drawn_once() -> None:
    view = GAME.view(finished(5, 4), None)
    first = picture.render_png(view, LONG, "fa")
    assert picture.render_png(copy.deepcopy(view), LONG, "fa") is first  # the same piles: the cache
    picture._drawn.cache_clear()
    again = picture.render_png(view, LONG, "fa")
    assert again == first and len(first) < 48_000


# ---------------------------------------------------------------- the board and the results


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_results_carry_the_piles_and_the_board_stays_text(language: str) -> None:
    state = finished(5, 4)
    ctx = pictured(table(GAME, state, language, ODD))
    assert not COG.pictured and not COG.draws_picture(ctx)
    board = results_board(ctx, COG)
    assert board.embed is not None and board.embed.image.url == f"attachment://{render.PICTURE}"
    piles, _ = picture.shown(GAME.view(state, None))
    assert image_of(board.files[0].fp.read()).size == (picture.WIDTH, picture.height(piles))
    text = results_board(table(GAME, state, language, ODD), COG)
    assert not text.files and text.embed is not None and text.embed.image.url is None
    # Beside the picture the ranks; how each score was counted is the picture's.
    lines, text_lines = (
        (board.embed.description or "").splitlines(),
        (text.embed.description or "").splitlines(),
    )
    assert set(lines) < set(text_lines) and len(lines) == len(text_lines) - state.players
    # The final board is the same with pictures as without: Sushizock's board is text.
    with_pictures = render.board(COG, ctx)
    without = render.board(COG, table(GAME, state, language, ODD))
    assert with_pictures.files == [] and with_pictures.embed is not None and without.embed is not None
    assert with_pictures.embed.to_dict() == without.embed.to_dict()
