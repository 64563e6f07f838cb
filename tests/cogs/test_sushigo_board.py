"""Sushi Go!'s public board stays short and speaks to the table, at every state of a game.

Every state of whole games at 2 to 5 players is drawn in each language: at most 12 lines (the
table's row of buttons counted) and 900 characters, the instructions on the first board only, no
"you" in English, and a replay shows no live words.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, cast

import pytest

from cogs.games.sushigo import render
from cogs.games.sushigo.cog import card_id
from cogs.kit.messages import Board
from cogs.kit.words.bidi import plain
from cogs.kit.words.catalogs import catalog
from cogs.kit.words.text import number, t
from rules.sushigo.game import GAME
from rules.sushigo.scoring import wasabi_slots
from rules.sushigo.state import SushiGoState
from tests.cogs.boards import (
    FIRST_USER,
    LANGUAGES,
    MAX_CHARS,
    MAX_LINES,
    SECOND_PERSON,
    TABLE_ROWS,
    every_state,
    table,
)

NAMES = ["Alexandra", "Bartholomew", "Charlotte", "Dmitri", "Evangeline"]


def states(players: int, seed: int = 3) -> Iterator[SushiGoState]:
    """Every state of one game, each pick one at a time (the board is drawn after each)."""
    return every_state(GAME, players, seed, GAME.default_action)


def text_lines(board: Board) -> list[str]:
    """The board as a player reads it, a line per line: content, title, description, footer."""
    embed = board.embed
    assert embed is not None
    parts = [board.content, embed.title, embed.description, embed.footer.text]
    return [line for part in parts if part for line in part.split("\n")]


def draw(state: SushiGoState, language: str, *, replaying: bool = False) -> Board:
    return render.board(cast(Any, None), table(GAME, state, language, NAMES, replaying=replaying))


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_board_of_a_game_is_short(language: str, players: int):
    largest = (0, 0)
    for state in states(players):
        if GAME.is_over(state):
            break  # the final scores are the results' (not held to the board's length)
        lines = text_lines(draw(state, language))
        chars = sum(len(line) for line in lines) + len(lines) - 1
        assert len(lines) + TABLE_ROWS <= MAX_LINES, "\n".join(lines)
        assert chars <= MAX_CHARS, "\n".join(lines)
        largest = max(largest, (len(lines) + TABLE_ROWS, chars))
    assert largest[0] >= players + 3  # a line per player, the title, the reveal, the footer


def test_the_english_board_speaks_to_the_table_and_says_how_to_play_once():
    first = True
    for state in states(5):
        if GAME.is_over(state):
            break
        board = draw(state, "en")
        text = "\n".join(text_lines(board))
        assert not SECOND_PERSON.search(text), text
        view = GAME.view(state, None)
        opening = view["round"] == 1 and view["turn_number"] == 1
        assert (t("sushigo.board.playing", "en") in text) == opening, text
        if view["to_move"]:
            waiting = [f"<@{FIRST_USER + seat}>" for seat in view["to_move"]]
            assert all(mention in text for mention in waiting)  # on their own lines, once each
            assert all(text.count(mention) == 1 for mention in waiting)
        first = first and opening
    assert not first  # the game went past its first board


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_replay_shows_only_what_the_table_showed(language: str):
    for index, state in enumerate(states(5)):
        if GAME.is_over(state) or index > 12:
            break
        board = draw(state, language, replaying=True)
        text = "\n".join(text_lines(board))
        assert board.content is None
        assert t("sushigo.board.playing", language) not in text  # no "pick in the DM"
        assert "<@" not in text


def test_the_cards_in_front_of_a_player_read_as_they_lie():
    ctx = table(GAME, GAME.new(3, 1), "en", NAMES)
    tableau = ["tempura", "tempura", "wasabi", "squid", "wasabi", "maki3", "maki1", "pudding", "egg"]
    slots = wasabi_slots(tableau)
    assert slots == ["squid", "egg"]
    assert render.tableau_marks(ctx, tableau, slots) == "🍤🍤 · 🍥 4 rolls · 🟢🦑 · 🟢🥚 · 🍮"
    assert render.tableau_marks(ctx, ["wasabi", "salmon", "wasabi"], ["salmon", None]) == "🟢🍣 · 🟢"
    assert render.tableau_marks(ctx, [], []) == "*nothing yet*"


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_finished_game_shows_its_final_totals_with_their_rounds_and_puddings(language: str):
    state = next(state for state in states(5) if GAME.is_over(state))
    view = GAME.view(state, None)
    assert view["pudding_points"] is not None
    board = draw(state, language, replaying=True)  # a replay's last step
    text = plain("\n".join(text_lines(board)))
    for seat in range(5):
        rounds = " + ".join(number(points[seat]["total"], language) for points in view["round_points"])
        assert f"**{number(view['scores'][seat], language)}**" in text and rounds in text
    assert len(text_lines(board)) <= MAX_LINES


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_rules_say_what_the_board_leaves_out(language: str):
    """The "How to play" answer: how to pick, and the marks of the board, which no board repeats."""
    rules = catalog(language)["sushigo.rules.text"]  # as written: t() may turn commands into mentions
    assert len(t("sushigo.rules.text", language)) <= 4096  # an embed's description
    assert "`/sushigo pick`" in rules and "✅" in rules and "⏳" in rules
    maki = f"🍥{number(3, language)}"  # as the board writes a 3-roll maki, in the language's digits
    assert all(mark in rules for mark in ("🟢🦑", maki, "🥢", "🥚", "🦑", "+"))


def test_a_typed_card_reads_in_latin_or_persian_digits():
    assert card_id("ماکی ۲", "fa") == card_id("ماکی 2", "fa") == card_id("maki2") == "maki2"
    assert card_id("Maki mit 3 Rollen", "de") == "maki3"
