"""Kaiten Sushi's public board stays short and speaks to the table, at every state of a game.

Every state of whole four-player games is drawn in each language: at most 12 lines (each row of
buttons counted, and the table's own row) and 900 characters; the text says only what the picture
does not (no plate, no sake's line, no score in words), the picture's legend on the first board only,
no "you" in English, and a replay shows no live words and no buttons.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import discord
import pytest
from discord.ext import commands

from cogs.games.kaiten import render
from cogs.games.kaiten.cog import KaitenCog, parse_cell
from cogs.games.kaiten.render import Context, acting
from cogs.kit.messages import Board
from rules.kaiten.game import GAME
from rules.kaiten.state import KaitenState
from tests.cogs.boards import (
    LANGUAGES,
    MAX_CHARS,
    MAX_LINES,
    SECOND_PERSON,
    TABLE_ROWS,
    every_state,
    table,
)

NAMES = ["Alexandra", "Bartholomew", "Charlotte", "Dmitri"]
SEEDS = (1, 4)  # seed 1 reaches a short-of-ginger choice; both refill the sake's line


@pytest.fixture(scope="module")
def cog() -> KaitenCog:
    return KaitenCog(commands.Bot(command_prefix="!", intents=discord.Intents.none()))


@pytest.fixture(autouse=True)
def no_picture(monkeypatch: pytest.MonkeyPatch) -> None:
    # The picture has its own tests (tests/cogs/test_kaiten_picture.py); here only the words count.
    monkeypatch.setattr(render, "render_png", lambda *args: b"")


def context(state: KaitenState, language: str, *, replaying: bool = False) -> Context:
    return table(GAME, state, language, NAMES, replaying=replaying)


def states(seed: int, players: int = 4) -> Iterator[KaitenState]:
    """Every state of one game, the engine's own quick stand-in playing every seat."""
    return every_state(GAME, players, seed, GAME.computer_action)


def text_lines(board: Board) -> list[str]:
    """The board's words as a player reads them, a line per line: content, title, text, fields, footer."""
    embed = board.embed
    assert embed is not None
    parts = [board.content, embed.title, embed.description, embed.footer.text]
    parts += [f"{field.name}\n{field.value}" for field in embed.fields]
    return [line for part in parts if part for line in part.split("\n")]


def size(board: Board) -> tuple[int, int]:
    """(lines, characters): the words' lines plus a line per row of buttons and the table's row."""
    lines = text_lines(board)
    rows = {item.row for item in board.items}
    return len(lines) + len(rows) + TABLE_ROWS, sum(len(line) for line in lines) + len(lines) - 1


def boards(cog: KaitenCog, state: KaitenState, language: str) -> Iterator[Board]:
    """The board as the table shows it, and with the wasabi picker open where a wasabi may be spent."""
    ctx = context(state, language)
    yield render.board(cog, ctx)
    if not state.over and ctx.public()["wasabi_moves"]:
        yield render.board(cog, ctx, wasabi_picker=True)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_board_of_a_four_player_game_is_short(cog: KaitenCog, language: str):
    largest = (0, 0)
    phases: set[str] = set()
    for seed in SEEDS:
        for state in states(seed):
            if GAME.is_over(state):
                break  # the final scores are the results' (not held to the board's length)
            phases.add(GAME.view(state, None)["phase"])
            for board in boards(cog, state, language):
                lines, chars = size(board)
                assert lines <= MAX_LINES and chars <= MAX_CHARS, "\n".join(text_lines(board))
                largest = max(largest, (lines, chars))
    assert phases == {"wasabi_or_fetch", "fetch", "place", "ginger", "refill"}
    # The tallest: the words over two rows of buttons (the place step's plate cells, once a grid of three
    # rows, are now the legal ones on one row).
    assert largest[0] >= 6


def test_the_english_board_speaks_to_the_table_and_leaves_the_rest_to_the_picture(cog: KaitenCog):
    for seed in SEEDS:
        for state in states(seed):
            if GAME.is_over(state):
                break
            view = GAME.view(state, None)
            drawn = list(boards(cog, state, "en"))
            for board in drawn:
                text = "\n".join(text_lines(board))
                assert not SECOND_PERSON.search(text), text
                assert board.embed is not None and not board.embed.fields  # the plates are the picture's
                assert "pts" not in text and "▫️" not in text and "nearest first" not in text
                assert board.content is not None
                assert context(state, "en").mention(acting(view)) in board.content  # who moves, named
                assert board.embed.image.url == "attachment://board.png"
            # The picture's legend is the rules' ("How to play"): no board repeats it, the first included.
            assert not any("🖼️" in line for line in text_lines(drawn[0]))


def test_each_step_says_what_the_player_may_do_and_what_just_happened(cog: KaitenCog):
    seen: dict[str, str] = {}
    for state in states(1):
        if GAME.is_over(state):
            break
        seen.setdefault(
            GAME.view(state, None)["phase"], "\n".join(text_lines(render.board(cog, context(state, "en"))))
        )
    # Who fetches from which line, in one line: the "Use wasabi" button says a wasabi may be spent first.
    assert re.search(r"fetches from (column [A-F]|row [1-6])\.", seen["wasabi_or_fetch"])
    assert "🥢 From" in seen["place"] and "on their plate" in seen["place"]  # puts …, not put … on
    assert "between black and white rice and chooses where it goes" in seen["ginger"]
    assert "lays the next reserve pair on" in seen["refill"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_replay_shows_what_happened_and_no_live_words(cog: KaitenCog, language: str):
    for state in states(4):
        live = render.board(cog, context(state, language))
        replayed = render.board(cog, context(state, language, replaying=True))
        assert replayed.content is None and replayed.items == []
        assert replayed.embed is not None and live.embed is not None
        # What happened stays; the turn line (what the player was asked to do) and the ginger choices go.
        # The fetch is said whole (who took which sushi): live, the turn line says it and its line less.
        kept = (replayed.embed.description or "").splitlines()
        said = (live.embed.description or "").splitlines()
        assert {line for line in kept if "🥢" not in line} <= set(said)
        assert len(kept) == len(said) - sum(line.startswith("•") for line in said)
        assert not any(line.startswith("•") for line in kept)
        assert replayed.files, "the picture is the board"


def test_a_typed_cell_reads_in_latin_or_persian_digits_and_seconds_in_the_languages_way():
    assert parse_cell("C4") == parse_cell("c ۴") == parse_cell("۴C") == 3 * 6 + 2
    assert parse_cell("G4") is None
    assert [render.decimal(4.5, language) for language in ("en", "de", "fa")] == ["4.5", "4,5", "۴٫۵"]
    assert render.decimal(6.0, "fa") == "۶"
