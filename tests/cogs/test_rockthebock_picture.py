"""Rock the Bock's sheets as a picture stay readable where the card shows them, and the board with
pictures carries the picture instead of the sheet lines (the board without them is unchanged).

The card shows the picture about 560 px wide on a desktop and 265 px on a phone: every word is at least
11 px tall there, none leaves the picture or overlaps another, whatever the names (32 characters, right
to left, CJK, emoji only) and the language; four players take little enough of a screen that the board
with a throw of wolves and its row of victims fits a desktop's.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence

import pytest
from PIL import Image

from cogs.games.rockthebock import picture, render
from cogs.games.rockthebock.cog import RockTheBockCog
from cogs.kit.words.catalogs import languages
from cogs.kit.words.text import is_rtl, number, signed, t
from cogs.tables.boards import results_board
from rules.engine import Action
from rules.rockthebock.game import CAP_BOCKS, CAP_GOATS, CAP_WOLVES, GAME, RockTheBockState, Roll
from tests.cogs.boards import table
from tests.cogs.pictures import (
    DESKTOP_WIDTH,
    PHONE_WIDTH,
    SMALLEST_SHOWN,
    Drawn,
    drawn_while,
    image_of,
    outside,
    overlapping,
    pictured,
    read,
    too_small,
    visible,
)

COG = RockTheBockCog(None)  # type: ignore[arg-type]  # its builders need no bot
LANGUAGES = sorted(languages())
TALLEST = 280
"""The most a picture may be tall: the board's words and buttons around it take up to 270 px of a desktop
screen's 520 (the full table's throw with wolves, its victims' buttons on a row of their own), and the
picture is shown 560 px wide there."""
LONG = [
    "Wolfgang Amadeus Mozart Salzburg",
    "مریم محمدی زاده تهرانی اصفهانی ش",
    "王小明" * 10 + "王小",
    "Александра Константиновна Иванов",
]
"""Names of 32 characters (the longest a Discord name can be), in four scripts."""
ODD = ["Zoë", "مریم", "王小明", "🍣🐐"]
"""Short names: Latin, right to left, CJK, and one of emoji only (drawn as "Player 4")."""


def play(players: int, seed: int, moves: int | None = None) -> RockTheBockState:
    """A game after `moves` actions (to its end without), played as the table plays for absent players."""
    state = GAME.new(players, seed)
    done = 0
    while not state.over and (moves is None or done < moves):
        action: Action = Roll() if not state.throw else GAME.default_action(state, state.turn)
        GAME.apply(state, state.turn, action)
        done += 1
    return state


def someone_out(players: int, seed: int = 3) -> RockTheBockState:
    """The first moment of a game at which a player is out of the round and the round goes on."""
    state = GAME.new(players, seed)
    while not any(struck >= 10 for struck in state.struck):
        action: Action = Roll() if not state.throw else GAME.default_action(state, state.turn)
        GAME.apply(state, state.turn, action)
    assert not state.over
    return state


def extreme(players: int, *, over: bool) -> RockTheBockState:
    """Round 3 with the widest numbers there are: full rows, totals of two digits, all dice left."""
    state = GAME.new(players, 1)
    state.round, state.turn = 3, players - 1
    state.bocks, state.wolves = [CAP_BOCKS] * players, [CAP_WOLVES] * players
    state.goats = [CAP_GOATS] * players
    state.round_scores = [[-12, -12] for _ in range(players)]
    if over:
        state.round_scores = [[-12, -12, -12] for _ in range(players)]
        state.struck, state.over = [10] * players, True
    return state


def states(players: int) -> list[RockTheBockState]:
    """The first sheets, some turns in, a later round, the widest numbers, and the end."""
    return [
        play(players, 3, 0),
        play(players, 3, 9),
        someone_out(players),
        play(players, 3, 60),
        extreme(players, over=False),
        extreme(players, over=True),
        play(players, 3),
    ]


def draw(
    monkeypatch: pytest.MonkeyPatch, state: RockTheBockState, names: Sequence[str], language: str
) -> tuple[Image.Image, list[Drawn]]:
    """The picture and every text it hands to Pillow, with where its ink lies."""
    picture._drawn.cache_clear()  # drawn here, not taken from an earlier test
    return drawn_while(
        monkeypatch, lambda: picture.render_png(GAME.view(state, None), names[: state.players], language)
    )


# ---------------------------------------------------------------- readable where it is shown


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("players", [GAME.min_players, GAME.max_players])
@pytest.mark.parametrize("names", [LONG, ODD], ids=["long", "scripts"])
def test_every_word_is_readable_on_a_phone_and_in_its_place(
    monkeypatch: pytest.MonkeyPatch, language: str, players: int, names: list[str]
) -> None:
    for state in states(players):
        image, drawn = draw(monkeypatch, state, names, language)
        assert image.size == (picture.WIDTH, picture.height(players))
        assert drawn and too_small(drawn, picture.WIDTH) == []
        assert outside(drawn, image.size) == []
        assert list(overlapping(drawn)) == []
        # Every word within its own panel.
        for item in drawn:
            row = (item.box[1] - picture.EDGE) // (picture.PANEL_H + picture.GAP)
            top = picture.panel_top(int(row))
            assert top <= item.box[1] and item.box[3] <= top + picture.PANEL_H, item


def test_four_players_fit_a_screen_with_the_board() -> None:
    """Two lines a player: shown 560 px wide on a desktop, four players' sheets take 231 px, which leaves
    the board's lines and both rows of buttons room within one screen (a phone's is roomier)."""
    assert picture.FONT * PHONE_WIDTH / picture.WIDTH >= SMALLEST_SHOWN
    assert picture.height(GAME.max_players) == 264 <= TALLEST
    assert picture.height(GAME.min_players) == 132
    assert DESKTOP_WIDTH * picture.height(GAME.max_players) / picture.WIDTH < 232
    assert PHONE_WIDTH * picture.height(GAME.max_players) / picture.WIDTH < 110


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_panels_show_each_sheet_in_the_languages_digits(monkeypatch: pytest.MonkeyPatch, language: str):
    """Each panel writes the bocks, wolves and goats marked, the dice left (or "out"), the round's score
    and, from round 2, the earlier rounds' total; the player to move has a yellow frame."""
    for state in (someone_out(4), play(4, 3, 60)):
        panels_show_their_sheets(monkeypatch, state, language)


def panels_show_their_sheets(monkeypatch: pytest.MonkeyPatch, state: RockTheBockState, language: str) -> None:
    view = GAME.view(state, None)
    image, drawn = draw(monkeypatch, state, ODD, language)
    assert any(sheet["out"] for sheet in view["sheets"]) or all(
        sheet["round_scores"] for sheet in view["sheets"]
    )
    for row, sheet in enumerate(view["sheets"]):
        top = picture.panel_top(row)
        written = [read(item.text) for item in drawn if top <= item.box[1] < top + picture.PANEL_H]
        for count in (sheet["bocks"], sheet["wolves"], sheet["goats"]):
            assert visible(number(count, language)) in written
        assert visible(signed(sheet["round_score"], language)) in written
        if sheet["out"]:
            assert visible(t("rockthebock.picture.out", language)) in written
        else:
            assert visible(number(view["symbols"] - sheet["struck"], language)) in written
        if sheet["round_scores"]:
            assert visible(signed(sheet["total"], language)) in written
        framed = image.getpixel((picture.WIDTH // 2, top + 1)) == picture.CURRENT
        assert framed == (view["turn"] == row)


def test_the_final_sheets_are_ranked_with_every_rounds_score(monkeypatch: pytest.MonkeyPatch) -> None:
    """Best first: the rank on its disc, the name, each round's score in order and the total."""
    state = play(4, 3)
    view = GAME.view(state, None)
    ranking = view["ranking"]
    assert ranking is not None
    _, drawn = draw(monkeypatch, state, ["aaaaa", "bbbbb", "ccccc", "ddddd"], "en")
    order = sorted(range(4), key=lambda seat: (ranking[seat], seat))
    for row, seat in enumerate(order):
        top = picture.panel_top(row)
        heading = sorted(
            (item for item in drawn if top <= item.box[1] and item.box[3] <= top + picture.GRID_TOP),
            key=lambda item: item.box[0],
        )
        sheet = view["sheets"][seat]
        rounds = [signed(score, "en") for score in sheet["round_scores"]]
        assert [item.text for item in heading] == [
            number(ranking[seat], "en"),
            "abcd"[seat] * 5,
            *rounds,
            signed(sheet["total"], "en"),
        ]


@pytest.mark.parametrize("language", ["en", "fa"])
def test_a_name_stands_where_reading_starts(monkeypatch: pytest.MonkeyPatch, language: str) -> None:
    _, drawn = draw(monkeypatch, play(2, 3, 0), ["Zoë", "Jan"], language)
    name = next(item for item in drawn if item.text == "Zoë")
    if is_rtl(language):
        assert name.box[2] == pytest.approx(picture.WIDTH - picture.MARGIN - picture.NAME_X, abs=3)
    else:
        assert name.box[0] == pytest.approx(picture.MARGIN + picture.NAME_X, abs=3)


def test_an_emoji_name_is_drawn_as_its_seat(monkeypatch: pytest.MonkeyPatch) -> None:
    _, drawn = draw(monkeypatch, play(4, 3, 0), ODD, "en")
    texts = [item.text for item in drawn]
    assert "Zoë" in texts and "王小明" in texts and t("rockthebock.picture.seat", "en", seat=4) in texts
    assert not any(ord(char) >= 0x1F000 for text in texts for char in text)


def test_a_long_name_is_cut_short(monkeypatch: pytest.MonkeyPatch) -> None:
    _, drawn = draw(monkeypatch, extreme(4, over=True), LONG, "en")
    cut = [item.text for item in drawn if "…" in item.text]
    assert len(cut) >= 3 and any(len(text) >= 10 for text in cut)


def test_the_picture_is_drawn_once_per_sheets_and_fast() -> None:
    """A throw changes nothing the picture shows: the same PNG comes from the cache."""
    state = play(4, 3, 10)
    assert not state.throw
    before = GAME.view(state, None)
    GAME.apply(state, state.turn, Roll())
    after = GAME.view(state, None)
    assert picture.shown(before) == picture.shown(after)
    first = picture.render_png(before, LONG, "fa")
    assert picture.render_png(after, LONG, "fa") is first
    picture._drawn.cache_clear()
    again = picture.render_png(after, LONG, "fa")
    assert again == first and len(first) < 48_000


# ---------------------------------------------------------------- the board and the results


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_board_with_pictures_carries_the_sheets_instead_of_their_lines(language: str) -> None:
    for state in [play(4, 3, 0), play(4, 3, 9), play(4, 3, 60), play(4, 3)]:
        text = render.board(COG, table(GAME, copy.deepcopy(state), language))
        drawn = render.board(COG, pictured(table(GAME, copy.deepcopy(state), language)))
        assert text.embed is not None and drawn.embed is not None
        assert not text.files and text.embed.image.url is None  # text, as before
        assert [file.filename for file in drawn.files] == [render.BOARD_PICTURE]
        assert drawn.embed.image.url == f"attachment://{render.BOARD_PICTURE}"
        assert image_of(drawn.files[0].fp.read()).size == (picture.WIDTH, picture.height(4))
        view = GAME.view(state, None)
        ctx = table(GAME, state, language)
        sheets = [render.sheet_line(ctx, view, sheet) for sheet in view["sheets"]]
        description = drawn.embed.description or ""
        assert not any(line in description for line in sheets)
        assert all(line in (text.embed.description or "") for line in sheets) or view["over"]
        # What stays: the title, the turn line, the last move, the throw, the buttons.
        assert drawn.content == text.content and drawn.embed.title == text.embed.title
        kept = [line for line in (text.embed.description or "").splitlines() if line not in sheets]
        if view["over"]:
            kept = kept[:1]  # the lead line; the ranked sheets are the picture's
        legend = "\n".join(render.legend(ctx, view)).splitlines()
        if legend[0] in kept:  # the first board: the legend says what the picture shows
            start = kept.index(legend[0])
            kept[start : start + len(legend)] = "\n".join(render.legend(pictured(ctx), view)).splitlines()
        assert (drawn.embed.description or "").splitlines() == kept
        assert [item.to_component_dict() for item in drawn.items] == [
            item.to_component_dict() for item in text.items
        ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_first_board_with_pictures_says_what_the_picture_shows(language: str) -> None:
    """The picture has no column heads: the first board's legend names the boxes and how a round is
    scored, in place of the sheet lines' signs (dice left, out, to move, the caps), which it shows."""
    boards = [render.board(COG, pictured(table(GAME, play(4, 3, moves), language))) for moves in (0, 1, 2, 9)]
    descriptions = [(board.embed.description or "") if board.embed else "" for board in boards]
    legend = t("rockthebock.picture.legend", language)
    assert legend in descriptions[0] and t("rockthebock.round.rule", language) in descriptions[0]
    assert not any(legend in description for description in descriptions[1:])
    text_legend = t("rockthebock.legend", language, cap_bocks=10, cap_wolves=12, cap_goats=12)
    assert not any(line in descriptions[0] for line in text_legend.splitlines())
    assert all(word in visible(legend) for word in ("🐏", "🐺", "🐐"))


def test_the_cog_draws_the_board_as_a_picture_only_with_pictures() -> None:
    state = play(2, 3, 5)
    assert COG.pictured and COG.draws_picture(pictured(table(GAME, state, "en")))
    assert not COG.draws_picture(table(GAME, state, "en"))


@pytest.mark.parametrize("language", ["en", "fa"])
def test_the_results_carry_the_final_sheets(language: str) -> None:
    state = play(4, 3)
    ctx = pictured(table(GAME, state, language))
    file = COG.results_picture(ctx)
    assert file is not None and file.filename == render.RESULTS_PICTURE
    board = results_board(ctx, COG)
    assert board.embed is not None and board.embed.image.url == f"attachment://{render.RESULTS_PICTURE}"
    assert image_of(board.files[0].fp.read()).size == (picture.WIDTH, picture.height(4))
    text = results_board(table(GAME, state, language), COG)
    assert not text.files and text.embed is not None
    # Beside the picture the ranks; how each total was counted is the picture's.
    lines, text_lines = (
        (board.embed.description or "").splitlines(),
        (text.embed.description or "").splitlines(),
    )
    assert set(lines) < set(text_lines) and len(lines) == len(text_lines) - state.players
