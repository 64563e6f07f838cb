"""Sushizock's public board stays short and speaks to the table, at every state of a game.

Whole games at 2 to 5 players are drawn in each language: at most 12 lines (the board's rows of
controls and the table's own row counted) and 900 characters, the rules spec's controls (a toggle
per die of the throw, "Roll" for the rest, each take and "Steal" only when legal, the steal's target
and position asked privately), the legend on the first board only, no "you" in English, and a
replay shows what the table showed without its live words.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any, cast

import discord
import pytest

from cogs.games.sushizock import render
from cogs.games.sushizock.cog import SushizockCog, dice_to_set_aside
from cogs.games.sushizock.render import Context
from cogs.kit.messages import Board
from cogs.kit.words.bidi import plain
from cogs.kit.words.catalogs import catalog
from cogs.kit.words.text import t
from rules.engine import Action
from rules.sushizock.game import GAME, Roll, SushizockState
from storage.tables import Seat
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

NAMES = ["Alexandra", "Bartholomew", "Charlotte", "Dmitri", "Temaki"]
COG = SushizockCog(cast(Any, None))  # the renderer asks the cog only to build its components


def context(state: SushizockState, language: str, *, replaying: bool = False) -> Context:
    """Humans and, in the last seat, a computer player added at the table."""
    ctx = table(GAME, state, language, NAMES, replaying=replaying)
    ctx.record.seats[-1] = Seat(-1, NAMES[-1], computer=True, level="hard")
    return ctx


def states(players: int, seed: int) -> Iterator[SushizockState]:
    """Every state of one game of random legal moves (steals and forced takes come up)."""
    choices = random.Random(seed)

    def move(state: SushizockState, seat: int) -> Action:
        return choices.choice(GAME.legal_actions(state, seat))

    return every_state(GAME, players, seed, move)


def text_lines(board: Board) -> list[str]:
    """The board as a player reads it, a line per line: content, title, description, fields, footer
    (without the isolates around names, which no reader sees)."""
    embed = board.embed
    assert embed is not None
    parts = [board.content, embed.title, embed.description]
    parts += [f"{field.name}: {field.value}" for field in embed.fields]
    parts.append(embed.footer.text)
    return [plain(line) for part in parts if part for line in part.split("\n")]


def draw(state: SushizockState, language: str, *, replaying: bool = False, mask: int = 0) -> Board:
    return render.board(COG, context(state, language, replaying=replaying), mask=mask)


def height(board: Board) -> int:
    """Lines a reader scrolls past: the words, each row of the board's controls, the table's row."""
    return len(text_lines(board)) + len({item.row for item in board.items}) + TABLE_ROWS


def inner(item: discord.ui.Item[Any]) -> Any:
    return cast(Any, item).item


def payload_of(item: discord.ui.Item[Any]) -> str:
    """A control's payload: `a:<action>` plays, `u:<word>` is a step of the board's own interface."""
    return str(inner(item).custom_id).split(":", 4)[4]


def played(board: Board) -> list[dict[str, Any]]:
    """The actions on the board's enabled buttons and in its menus' options."""
    found = []
    for item in board.items:
        control = inner(item)
        if isinstance(control, discord.ui.Select):
            found += [json.loads(option.value) for option in cast(Any, control).options]
        elif not control.disabled and payload_of(item).startswith("a:"):
            found.append(json.loads(payload_of(item)[2:]))
    return found


def steal_step(state: SushizockState, language: str = "en") -> Board:
    return render.steal_step(COG, context(state, language))


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_board_of_a_game_is_short(language: str, players: int):
    largest = (0, 0)
    for seed in (1, 2, 3):
        for state in states(players, seed):
            if GAME.is_over(state):
                break  # the final scores are the results' (not held to the board's length)
            board = draw(state, language)
            lines = text_lines(board)
            chars = sum(len(line) for line in lines) + len(lines) - 1
            assert height(board) <= MAX_LINES and chars <= MAX_CHARS, "\n".join(lines)
            largest = max(largest, (height(board), chars))
    # the throw, the title, two rows of tiles, a line per player, a menu, the takes and the table's row
    assert largest[0] == players + 7


def test_the_controls_are_the_specs_a_toggle_per_die_then_roll_take_and_steal_when_legal():
    """GAMES.md, "Digital": dice to set aside are toggled with buttons (one per die of the current
    throw); "Roll" throws the rest; "Take sushi #N" / "Take bone #N" / "Steal" (then target and
    position) appear only when legal."""
    steps = 0
    for seed in (1, 2, 3, 4):
        for state in states(5, seed):
            if GAME.is_over(state):
                break
            legal = GAME.legal_actions(state, state.turn)
            encoded = [GAME.encode_action(action) for action in legal]
            board = draw(state, "en")
            rows = [item.row or 0 for item in board.items]
            assert rows == sorted(rows) and set(rows) <= {0, 1}  # toggles, then actions; row 4 is the table's
            toggles = [item for item in board.items if payload_of(item).startswith("u:keep.")]
            rerolls = [action for action in legal if isinstance(action, Roll) and action.keep]
            if rerolls:  # dice may be set aside: one toggle per die of the throw, none marked yet
                assert [inner(item).emoji.name for item in toggles] == [
                    render.FACE_EMOJI[face] for face in state.thrown
                ]
                assert all(
                    item.row == 0 and inner(item).style == discord.ButtonStyle.secondary for item in toggles
                )
            else:
                assert not toggles
            # Nothing marked, the board's buttons play exactly the legal throw of all five dice, takes
            # and forced portion; a steal is one "Steal" button whenever one is legal.
            assert not [item for item in board.items if isinstance(inner(item), discord.ui.Select)]
            steals = [action for action in encoded if action["type"] == "steal"]
            moves = [action for action in encoded if action["type"] != "steal" and not action.get("keep")]
            assert sorted(map(json.dumps, played(board))) == sorted(map(json.dumps, moves))
            assert len([item for item in board.items if payload_of(item) == "u:steal"]) == (
                1 if steals else 0
            )
            if steals:  # the target and position, privately: each steal on offer once, within 25 options
                step = steal_step(state)
                menus = [inner(item) for item in step.items]
                assert len(menus) == 1 and 0 < len(menus[0].options) <= 25
                assert all(len(option.label) <= 100 for option in menus[0].options)
                assert sorted(map(json.dumps, played(step))) == sorted(map(json.dumps, steals))
            # Each way to set dice aside, marked on the toggles, makes "Roll" throw the rest.
            for action in rerolls:
                mask = sum(1 << die for die in action.keep)
                marked = draw(state, "en", mask=mask)
                kept = [
                    item
                    for item in marked.items
                    if payload_of(item).startswith("u:keep.")
                    if inner(item).style == discord.ButtonStyle.success
                ]
                assert len(kept) == len(action.keep)
                assert GAME.encode_action(action) in played(marked)
                assert height(marked) <= MAX_LINES
                assert all(
                    f"`{die + 1}` {render.FACE_EMOJI[state.thrown[die]]} 📌" in plain(marked.content or "")
                    for die in action.keep
                )
                steps += 1
            if rerolls:  # every die marked: nothing would be left to throw, so "Roll" cannot be clicked
                every = draw(state, "en", mask=(1 << len(state.thrown)) - 1)
                assert not [a for a in played(every) if a["type"] == "roll"]
    assert steps > 100


def labels(board: Board) -> list[str]:
    """The words on the board's controls: button labels, the menu's placeholder and options."""
    words: list[str] = []
    for item in board.items:
        inner = cast(Any, item).item
        if isinstance(inner, discord.ui.Select):
            words += [inner.placeholder or ""]
            words += [f"{option.label} {option.description or ''}" for option in inner.options]
        else:
            words.append(str(inner.label))
    return [plain(word) for word in words]


def test_the_english_board_speaks_to_the_table_and_gives_the_legend_once():
    legend = t("sushizock.board.legend", "en")
    boards = steals = 0
    for seed in (1, 2, 3):
        for index, state in enumerate(states(5, seed)):
            if GAME.is_over(state):
                break
            board = draw(state, "en")
            text = "\n".join([*text_lines(board), *labels(board)])
            assert not SECOND_PERSON.search(text), text
            turn = state.turn
            who = f"<@{FIRST_USER + turn}>" if turn < 4 else NAMES[turn]  # a computer has no mention
            assert board.content and who in board.content, board.content
            assert f"▶️ **{NAMES[turn]}**" in text
            assert "(hard)" not in text  # a computer's level is the lobby's and the results' word
            assert (legend in text) == (index == 0), text
            steals += "Steal from a " in text
            boards += 1
    assert boards > 100 and steals  # whole games, with steals on offer


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_replay_shows_only_what_the_table_showed(language: str):
    for index, state in enumerate(states(5, 2)):
        if GAME.is_over(state) or index > 40:
            break
        live, replayed = draw(state, language), draw(state, language, replaying=True)
        assert replayed.embed is not None and live.embed is not None
        assert replayed.embed.to_dict() == live.embed.to_dict()  # the board as the channel showed it
        assert not replayed.items  # no controls, so no hint of theirs
        turn = FIRST_USER + state.turn
        assert plain(replayed.content or "") == plain(live.content or "").replace(
            f"<@{turn}>", NAMES[state.turn]
        )
        assert replayed.content and "<@" not in replayed.content


def test_the_throw_a_steal_and_a_forced_portion_read_on_the_board():
    state = GAME.new(5, 4)
    state.bone_piles[2] = [-2, -3]
    state.thrown, state.throws = ["red", "red", "red", "red", "sushi"], 1
    board = draw(state, "en")
    text = "\n".join(text_lines(board))
    assert (
        plain(board.content or "")
        == "🎲 <@100000000000000000> · throw 1 of 3: `1` 🔴  `2` 🔴  `3` 🔴  `4` 🔴  `5` 🍣 → 1 🍣 · 4 🔴"
    )
    assert "Charlotte · 🍣 — · 🦴 top −3 (2 tiles)" in text
    assert "🍣 **[" in text  # the sushi the dice reach
    words = labels(board)
    assert words[:5] == [f"Die {n}" for n in range(1, 6)]  # the toggles, the dice's faces as their emoji
    assert words[5:] == [
        "Mark dice to set aside, then roll",
        f"Take sushi #1 ({render.tile_text(state.sushi_row[0])})",
        "Steal from a bone pile",
    ]
    marked = draw(state, "en", mask=0b01111)
    assert labels(marked)[:6] == ["Die 1 📌", "Die 2 📌", "Die 3 📌", "Die 4 📌", "Die 5", "Roll 1 die"]
    assert "`4` 🔴 📌  `5` 🍣 →" in plain(marked.content or "")
    assert labels(draw(state, "en", mask=0b11111))[5] == "Leave a die to roll"

    # "Steal" asks its clicker alone: whose pile, and (four chopsticks) which tile, blind.
    step = steal_step(state)
    assert plain(step.content or "") == (
        "🥢 Four chopsticks or more: choose a bone pile and a tile by its position, blind (1 = top)."
    )
    menu = cast(Any, step.items[0]).item
    assert menu.placeholder == "🥢 Steal from a bone pile…"
    assert [(plain(option.label), plain(option.description)) for option in menu.options] == [
        ("🥢 Charlotte: the top, −3", "bone pile of 2 tiles"),
        ("🥢 Charlotte: tile 2 from the top (hidden)", "bone pile of 2 tiles"),
    ]

    state.thrown, state.set_aside, state.throws = ["blue"], ["blue", "blue", "red", "red"], 3
    board = draw(state, "en")
    assert plain(board.content or "") == (
        "🎲 <@100000000000000000> · last throw (3 of 3): `1` 🔵 · set aside: 🔵 🔵 🔴 🔴 → 3 🔵 · 2 🔴"
        " — nothing fits: the **forced portion**"
    )  # nobody has sushi to steal
    worst = state.bone_row.index(-4) + 1  # the forced portion: the worst fishbone of the row
    assert labels(board) == [f"Forced: take bone #{worst} (−4)"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_piles_turned_over_take_a_line_per_player(language: str):
    state = next(state for state in states(5, 1) if GAME.is_over(state))
    board = draw(state, language, replaying=True)  # a replay's last step
    assert board.embed is not None and len(board.embed.fields) == 5
    assert all("\n" not in (field.value or "") for field in board.embed.fields)
    assert len(text_lines(board)) <= MAX_LINES - TABLE_ROWS


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_rules_carry_the_legend_the_board_leaves_out(language: str):
    """The "How to play" answer: the dice, the steals, and the marks of the board."""
    rules = catalog(language)["sushizock.rules.text"]  # as written: t() may turn commands into mentions
    assert len(t("sushizock.rules.text", language)) <= 4096  # an embed's description
    assert "`/sushizock roll set_aside:1 3`" in rules
    marked = (
        f"**[{plain(render.tile_text(4, language))}]**"  # in the language's digits, as the board marks it
    )
    assert all(mark in rules for mark in ("🍣", "🦴", "🔵", "🔴", marked, "▶️"))


@pytest.mark.parametrize(
    ("typed", "dice"),
    [("1 3", (0, 2)), ("۱ ۳", (0, 2)), ("۱،۳", (0, 2)), ("3, 1, 3", (0, 2)), ("٢", (1,)), ("", ())],
)
def test_dice_to_set_aside_are_read_in_latin_and_persian_digits(typed: str, dice: tuple[int, ...]):
    assert dice_to_set_aside(typed) == dice
