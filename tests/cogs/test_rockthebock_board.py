"""Rock the Bock's public board stays short and speaks to the table, at four players, in every language.

Issue 24: no public board over 12 lines or 900 characters (counting its rows of buttons and the
table's own row), none saying "you"; the legend on the first board only; a replay without the live
instruction. Every board of whole games is drawn, and a worst case built by hand (longest names, a
throw of every colour, full rows, marks lost, three-digit ids).
"""

from __future__ import annotations

import copy
from collections.abc import Iterator

import pytest

from cogs.bidi import plain
from cogs.i18n import catalog, signed
from cogs.rockthebock import render
from cogs.rockthebock.cog import RockTheBockCog
from rules.engine import Action
from rules.rockthebock.game import (
    CAP_GOATS,
    CAP_WOLVES,
    COLOURS,
    GAME,
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
    """The board's words as a reader sees them, and its lines counting each row of buttons."""
    drawn = render.board(COG, ctx)
    assert drawn.embed is not None
    parts = (drawn.content, drawn.embed.title, drawn.embed.description)
    text = plain("\n".join(part for part in parts if part))  # the bidi controls take no room on screen
    assert not drawn.embed.fields, "every sheet is one line of the description"
    rows = len({item.row for item in drawn.items}) + TABLE_ROWS
    return text, len(text.splitlines()) + rows


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
    assert lines == 11  # content, title, last move, throw, four sheets; two rows of buttons, the table's


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
