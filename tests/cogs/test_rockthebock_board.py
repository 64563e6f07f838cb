"""Rock the Bock's public board stays short and speaks to the table, at four players, in every language.

Issue 24: no public board over 12 lines or 900 characters (counting its rows of buttons and the
table's own row), none saying "you"; the legend on the first board only; a replay without the live
instruction. Every board of whole games is drawn, and a worst case built by hand (longest names, a
throw of every colour, full rows, marks lost, three-digit ids).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from typing import Any, cast

import discord
import pytest

from cogs.games.rockthebock import render
from cogs.games.rockthebock.cog import RockTheBockCog
from cogs.kit.messages import Board
from cogs.kit.words.bidi import plain
from cogs.kit.words.catalogs import catalog
from cogs.kit.words.text import signed
from rules.engine import Action
from rules.rockthebock.game import (
    CAP_GOATS,
    CAP_WOLVES,
    COLOURS,
    GAME,
    WOLF,
    Choose,
    RockTheBockState,
    Roll,
)
from tests.cogs.boards import (
    FIRST_USER,
    LANGUAGES,
    LONGEST,
    MAX_CHARS,
    MAX_LINES,
    NAMES,
    SECOND_PERSON,
    TABLE_ROWS,
    table,
)

COG = RockTheBockCog(None)  # type: ignore[arg-type]  # its builders need no bot


def shown(ctx: render.Context) -> tuple[str, int]:
    """The board's words as a reader sees them, and its lines counting each row of buttons (a
    section's button sits beside its sheet and takes no line of its own)."""
    drawn = render.board(COG, ctx)
    assert drawn.embed is not None
    parts = (drawn.content, drawn.embed.title, drawn.embed.description)
    text = plain("\n".join(part for part in parts if part))  # the bidi controls take no room on screen
    assert not drawn.embed.fields, "every sheet is one line, of the description or of a section"
    rows = len({item.row for item in drawn.items}) + TABLE_ROWS
    return text, len(text.splitlines()) + rows


def payload_of(item: discord.ui.Item[Any]) -> str:
    """A control's payload: `a:<action>` plays, `u:<word>` is a step of the board's own interface."""
    return str(cast(Any, item).item.custom_id).split(":", 4)[4]


def played(item: discord.ui.Item[Any]) -> Action:
    """The action a board's button plays."""
    payload = payload_of(item)
    assert payload.startswith("a:"), payload
    return GAME.decode_action(json.loads(payload[2:]))


def games(seed: int) -> Iterator[RockTheBockState]:
    """Every state of a four-player game, played as the table would for absent players."""
    state = GAME.new(4, seed)
    yield copy.deepcopy(state)
    while not state.over:
        seat = state.turn
        action: Action = Roll() if not state.throw else GAME.default_action(state, seat)
        GAME.apply(state, seat, action)
        if not state.over:
            yield copy.deepcopy(state)


def worst_case() -> RockTheBockState:
    """Round 3, totals of two digits, a throw of every colour, wolves just lost on a full row.

    A round marks at most the 40 dice its players use (34 here, with 6 still to throw): two rows can
    be full, not all twelve.
    """
    state = GAME.new(4, 1)
    state.round = 3
    state.turn = 3
    state.round_scores = [[-12, -12], [-12, -12], [-12, -12], [-12, -12]]
    state.bocks, state.wolves, state.goats = [0, 4, 0, 0], [CAP_WOLVES, 0, 0, 0], [CAP_GOATS, 0, 0, 0]
    state.struck = [10, 10, 10, 4]
    state.throw = [1] * len(COLOURS)
    state.last = {
        "type": "marked",
        "seat": 2,
        "colour": "grey",
        "dice": 6,
        "receiver": 0,
        "sheet": "wolves",
        "marked": 0,
        "lost": 6,
    }
    return state


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("names", [NAMES[:4], [LONGEST] * 4], ids=["short", "longest"])
def test_every_public_board_fits_in_twelve_lines(language: str, names: list[str]) -> None:
    states = [*games(7), worst_case()]
    for state in states:
        text, lines = shown(table(GAME, state, language, names))
        assert lines <= MAX_LINES and len(text) <= MAX_CHARS, (
            f"{lines} lines, {len(text)} characters:\n{text}"
        )


def test_the_worst_case_is_what_it_claims() -> None:
    text, lines = shown(table(GAME, worst_case(), "en", [LONGEST] * 4))
    assert text.count("(full)") == 2 and "6 lost: a sheet holds at most **12** wolves" in text
    assert (
        lines == 11
    )  # content, title, last move, throw, four sheets; the colours', wolves' and table's rows


@pytest.mark.parametrize("seed", [7, 8])
def test_the_english_board_names_whose_turn_it_is_and_never_says_you(seed: int) -> None:
    for state in [*games(seed), worst_case()]:
        ctx = table(GAME, state, "en")
        text, _ = shown(ctx)
        assert not SECOND_PERSON.search(text), text
        assert ctx.mention(state.turn) in (render.board(COG, ctx).content or "")


def test_the_legend_is_on_the_first_board_only_and_in_the_rules() -> None:
    boards = [shown(table(GAME, state, "en"))[0] for state in games(7)]
    legend = catalog("en")["rockthebock.legend"].split("\n")[0]
    assert legend in boards[0] and not any(legend in board for board in boards[1:])
    for language in LANGUAGES:
        words = catalog(language)
        rules = words["rockthebock.rules.text"]
        full = words["rockthebock.full"].replace("{count}", "").strip()
        factor = f"× {plain(signed(1, language))}"  # in the language's digits, as the sheets show it
        assert all(sign in rules for sign in ("▶️", "🎲", "🚪", factor, full)), language


def test_a_replay_shows_what_the_table_saw_without_the_instruction() -> None:
    for state in list(games(7))[:12]:
        ctx = table(GAME, state, "en", replaying=True)
        drawn = render.board(COG, ctx)
        assert drawn.content is None  # no "alice's turn: Roll 10 dice"
        assert drawn.embed is not None and "▶️" in (drawn.embed.description or "")


def test_every_round_score_shown_carries_its_reason() -> None:
    """ "🐏 6 = 🐺 6 → 🐐 12 (full) × 0 = **0**": the comparison, the goats, the factor, the score."""
    state = GAME.new(4, 1)
    state.bocks, state.wolves, state.goats = [6, 3, 1, 0], [6, 2, 3, 0], [12, 2, 4, 5]
    ctx = table(GAME, state, "en")
    text, _ = shown(ctx)
    assert "🟥 alice: 🐏 6 = 🐺 6 → 🐐 12 (full) × 0 = **0**" in text
    assert "🟦 bob: 🐏 3 > 🐺 2 → 🐐 2 × +1 = **+2**" in text
    assert "🟩 carol: 🐏 1 < 🐺 3 → 🐐 4 × −1 = **−4**" in text
    assert "🟨 dave: 🐏 0 = 🐺 0 → 🐐 5 × 0 = **0**" in text


def test_a_computer_is_named_not_addressed() -> None:
    state = GAME.new(4, 1)
    ctx = table(GAME, state, "en")
    ctx.record.seats[0].computer = True
    assert plain(render.board(COG, ctx).content or "") == "🎲 🤖 alice is playing…"
    GAME.apply(state, 0, Roll())
    ctx = table(GAME, state, "en")
    assert (
        plain(render.board(COG, ctx).content or "")
        == f"🎲 <@{FIRST_USER}>'s turn: choose one colour of the throw."
    )
    assert isinstance(GAME.default_action(state, 0), Choose)


def wolves_thrown(players: int, seed: int = 1) -> RockTheBockState:
    """A first throw with wolves in it."""
    for attempt in range(seed, seed + 100):
        state = GAME.new(players, attempt)
        GAME.apply(state, 0, Roll())
        if state.throw and state.throw[COLOURS.index(WOLF)]:
            return state
    raise AssertionError("no first throw with wolves")


def wolves(drawn: Board) -> list[Any]:
    return [item for item in drawn.items if getattr(played(item), "colour", None) == WOLF]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_wolves_go_by_one_button_per_victim(players: int) -> None:
    """One button per other player sends them the thrown wolves in one click (the table's action, as
    `/bock choose colour:grey target:` builds it), on a row under the bocks and goats; every sheet
    stays a line, no "Wolves" button opens a picker, and every button has words of its own."""
    state = wolves_thrown(players)
    ctx = table(GAME, state, "en")
    drawn = render.board(COG, ctx)
    assert drawn.embed is not None and not drawn.sections
    victims = [target for target in range(players) if target != state.turn]
    assert [played(button) for button in wolves(drawn)] == [Choose(WOLF, target) for target in victims]
    for button, target in zip(wolves(drawn), victims, strict=True):
        inner = cast(Any, button).item
        square = render.SQUARES[GAME.view(state, None)["sheets"][target]["colour"]]
        assert (inner.emoji.name, plain(inner.label)) == ("🐺", square)  # as the victim's sheet starts
        assert inner.style == discord.ButtonStyle.danger and inner.row == 1
    sheets = [line for line in plain(drawn.embed.description or "").splitlines() if "→ 🐐" in line]
    assert len(sheets) == players and sheets[state.turn].startswith("▶️ ")
    assert not [item for item in drawn.items if payload_of(item) == "u:wolf"]
    others = [item for item in drawn.items if item not in wolves(drawn)]
    assert {item.row for item in others} == {0}  # the bocks and the goats: one row
    # Every button its own: its picture and its words together (as the transcript reads them).
    shown = [f"{cast(Any, item).item.emoji} {plain(cast(Any, item).item.label)}" for item in drawn.items]
    assert len(shown) == len(set(shown)), shown


def test_a_replay_keeps_every_sheet_a_line_and_offers_no_wolves() -> None:
    state = wolves_thrown(4)
    drawn = render.board(COG, table(GAME, state, "en", replaying=True))
    assert drawn.embed is not None and not wolves(drawn) and not drawn.sections
    sheets = [line for line in (drawn.embed.description or "").splitlines() if "→ 🐐" in line]
    assert len(sheets) == 4


def test_a_long_name_is_shown_whole_on_its_sheet_and_on_no_button() -> None:
    state = wolves_thrown(4)
    longest = ["Bartholomew Montgomery-Whitfield", "Maximiliana_Konstantinopoulou_99", "c" * 32, "d" * 32]
    ctx = table(GAME, state, "en", longest)
    drawn = render.board(COG, ctx)
    text = plain(drawn.embed.description or "") if drawn.embed else ""
    assert all(name in text or name.replace("_", "\\_") in text for name in longest), text
    labels = [plain(cast(Any, item).item.label) for item in drawn.items]
    assert all(len(label) <= 12 for label in labels), labels  # "×3", "🟦": five share a phone's rows


def test_the_wolf_picker_still_answers_a_board_drawn_before_the_sections() -> None:
    """A board posted before the wolves went beside the sheets has a "Wolves" button (`u:wolf`): its
    picker still offers each victim with their sheet."""
    state = wolves_thrown(3)
    ctx = table(GAME, state, "en")
    picker = render.wolf_picker(COG, ctx, state.turn, render.wolf_targets(ctx, state.turn))
    menu = cast(Any, picker.items[0]).item
    assert [plain(option.label) for option in menu.options] == [
        f"{render.SQUARES[GAME.view(state, None)['colours'][target]]} {NAMES[target]}" for target in (1, 2)
    ]
