"""Sushi Dice's public board stays short and speaks to the table, at six players, in every language.

Issue 24: no public board over 12 lines or 900 characters (counting its rows of buttons and the
table's own row), none saying "you"; the hint to the controls during the first duel only; a replay
without live words. Boards of a whole six-player game are drawn, and a worst case built by hand
(longest names, dice set aside and thrown, a yuck and a complete plate on each side, a duel ended).
"""

from __future__ import annotations

import copy
from collections.abc import Iterator

import pytest

from cogs.i18n import catalog
from cogs.sushidice import render
from cogs.sushidice.cog import SushiDiceCog
from rules.sushidice.game import GAME, YUCK, Challenge, SushiDiceState
from tests.cogs.boards import (
    LANGUAGES,
    LONGEST,
    MAX_CHARS,
    MAX_LINES,
    NAMES,
    SECOND_PERSON,
    TABLE_ROWS,
    table,
)

COG = SushiDiceCog(None)  # type: ignore[arg-type]  # its builders need no bot


def shown(ctx: render.Context) -> tuple[str, int]:
    """The board's words as a reader sees them, and its lines counting each row of buttons."""
    drawn = render.board(COG, ctx)
    assert drawn.embed is not None
    assert not drawn.embed.fields, "every duelist is one line of the description"
    footer = drawn.embed.footer.text if drawn.embed.footer else None
    parts = (drawn.content, drawn.embed.title, drawn.embed.description, footer)
    text = "\n".join(part for part in parts if part)
    rows = len({item.row for item in drawn.items}) + TABLE_ROWS
    return text, len(text.splitlines()) + rows


def games(seed: int, players: int = 6) -> Iterator[SushiDiceState]:
    """Every 7th state of a game played by the engine's computers (and the first and last)."""
    state = GAME.new(players, seed)
    yield copy.deepcopy(state)
    step = 0
    while not state.over:
        for seat in sorted(GAME.to_move(state)):
            if seat in GAME.to_move(state):  # a spectator's move is a Chop!
                GAME.apply(state, seat, GAME.computer_action(state, seat))
                step += 1
                if step % 7 == 0 or state.over:
                    yield copy.deepcopy(state)


def worst_case() -> SushiDiceState:
    """Duel 9 of six players, after a plate won: both sets partly aside, each with a yuck and a plate
    complete as far as the board can show, three combos face up, the latest throw the headline."""
    state = GAME.new(6, 1)
    GAME.apply(state, 0, Challenge(1))
    state.duel = 9
    state.plates = [["combo"] * 3, ["maguro"] * 3, ["sake"] * 3, ["ebi"] * 3, ["tamago"] * 3, ["kappa"] * 3]
    state.face_up = ["combo", "combo", "combo"]
    state.ended = {"type": "rang", "seat": 5, "plate": 0, "name": "combo", "plates": 3}
    for dice in state.sets:
        dice.faces = ["star", "maguro", "sake", "ebi", YUCK, "kappa"]
        dice.set_aside = [True, True, True, False, False, False]
    state.last = {"type": "rolled", "seat": 1, "set": "blue", "dice": [3, 4, 5], "faces": [], "throw": 9}
    return state


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("names", [NAMES, [LONGEST] * 6], ids=["short", "longest"])
def test_every_public_board_fits_in_twelve_lines(language: str, names: list[str]) -> None:
    for state in [*games(7), worst_case()]:
        text, lines = shown(table(GAME, state, language, names))
        assert lines <= MAX_LINES and len(text) <= MAX_CHARS, (
            f"{lines} lines, {len(text)} characters:\n{text}"
        )


def test_the_worst_case_is_what_it_claims() -> None:
    state = worst_case()
    text, lines = shown(table(GAME, state, "en", [LONGEST] * 6))
    assert text.count("🤢 **shows a yuck!**") == 2 and "took the combo plate — 3/4." in text
    # content, title; the duel before, plates, two duelists, the last throw, the standings; two rows
    assert lines == 10


@pytest.mark.parametrize("seed", [7, 8])
def test_the_english_board_names_players_and_never_says_you(seed: int) -> None:
    for state in [*games(seed), *games(seed, 2), worst_case()]:
        ctx = table(GAME, state, "en")
        text, _ = shown(ctx)
        assert not SECOND_PERSON.search(text), text
        view = ctx.public()
        if view["phase"] == "duel" and not view["over"]:
            red, blue = view["duelists"]
            assert (
                render.board(COG, ctx).content
                == f"⚔️ {ctx.mention(red['seat'])} vs {ctx.mention(blue['seat'])} — duel!"
            )


def test_the_hint_is_on_the_first_duel_only_and_the_rules_carry_it() -> None:
    hint = catalog("en")["sushidice.board.footer_chop"]
    boards = [(state.duel, shown(table(GAME, state, "en"))[0]) for state in games(7)]
    assert all((hint in text) == (duel == 1) for duel, text in boards if "duel #" in text)
    for language in LANGUAGES:
        rules = catalog(language)["sushidice.rules.text"]
        assert all(sign in rules for sign in ("📌", "🤢", "/sushidice panel")), language


def test_a_replay_shows_what_the_table_saw_without_live_words() -> None:
    for state in list(games(7))[:6]:
        drawn = render.board(COG, table(GAME, state, "en", replaying=True))
        assert drawn.content is None and drawn.embed is not None
        assert drawn.embed.footer.text is None  # no "Open my dice" hint


def test_the_final_board_leaves_the_standings_to_the_results() -> None:
    *_, final = games(7)
    text, _ = shown(table(GAME, final, "en"))
    assert final.over and "🏆" not in text and "rang the bell and took the" in text
