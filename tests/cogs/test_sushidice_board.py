"""Sushi Dice's public board stays short and speaks to the table, at six players, in every language;
a duelist's panel puts each plate to ring beside its bell.

Issue 24: no public board over 12 lines or 900 characters (counting its rows of buttons and the
table's own row), none saying "you"; the hint to the controls during the first duel only; a replay
without live words. Boards of a whole six-player game are drawn, and a worst case built by hand
(longest names, dice set aside and thrown, a yuck on each side, a duel ended). A panel: each plate its
dice show is a section, the line of the plate with its bell, within Components V2's 40 components.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from typing import Any

import pytest

from cogs.games.sushidice import render
from cogs.games.sushidice.cog import SushiDiceCog
from cogs.kit import cards
from cogs.kit.words.catalogs import catalog
from rules.sushidice.game import GAME, YUCK, Challenge, Ring, SushiDiceState
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
    rows = (
        len({item.row for item in drawn.items}) + TABLE_ROWS
    )  # Chop! may share the table's row: not counted so
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
    """Duel 9 of six players, after a plate won: both sets partly aside, each with a yuck, three combos
    face up, a Yuck! the headline (a throw, a die set aside are not news: the dice show them), plates
    won in four counts (the standings at their longest)."""
    state = GAME.new(6, 1)
    GAME.apply(state, 0, Challenge(1))
    state.duel = 9
    state.plates = [["combo"] * 3, ["maguro"] * 3, ["sake"] * 2, ["ebi"] * 2, ["tamago"], []]
    state.face_up = ["combo", "combo", "combo"]
    state.ended = {"type": "rang", "seat": 1, "plate": 0, "name": "combo", "plates": 3}
    for dice in state.sets:
        dice.faces = ["star", "maguro", "sake", "ebi", YUCK, "kappa"]
        dice.set_aside = [True, True, True, False, False, False]
    state.last = {"type": "yuck", "seat": 1, "target": 0}
    return state


def ringing() -> SushiDiceState:
    """The worst case's duel, the red dice showing a combo: all three face-up plates to ring."""
    state = worst_case()
    state.sets[0].faces = ["star", "maguro", "sake", "ebi", "tamago", "kappa"]
    state.plates[0] = ["combo"] * 2  # a plate more makes 3 of 4
    state.last = None
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
    duelists = [line for line in text.splitlines() if line.startswith(("🔴", "🔵"))]
    assert len(duelists) == 2 and all("🤢" in line for line in duelists)
    assert "took the combo plate." in text and "🤢 Yuck! on the 🔴 red dice — all six re-thrown." in text
    # three combos pictured once; every player with their own count, the most first (a count said
    # once after several names reads as the last one's only)
    assert "🍽️ `1` `2` `3` 🍱 🐟🍣🍤🥚🥒⭐ · 16 face down" in text
    counts = (3, 3, 2, 2, 1, 0)
    assert " · ".join(f"{LONGEST} **{count}**" for count in counts) in text
    # title; the duel before, plates, two duelists, the Yuck!, the standings; two rows
    assert lines == 9


@pytest.mark.parametrize("seed", [7, 8])
def test_the_english_board_names_players_and_never_says_you(seed: int) -> None:
    for state in [*games(seed), *games(seed, 2), worst_case()]:
        ctx = table(GAME, state, "en")
        text, _ = shown(ctx)
        assert not SECOND_PERSON.search(text), text
        view = ctx.public()
        drawn = render.board(COG, ctx)
        assert drawn.embed is not None
        if view["phase"] == "duel" and not view["over"]:
            assert drawn.content is None
            red, blue = view["duelists"]
            lines = (drawn.embed.description or "").splitlines()
            # each duelist mentioned once, on their own line: no line pinging them besides
            for duelist in (red, blue):
                mention = ctx.mention(duelist["seat"])
                assert sum(mention in line for line in lines) == 1
                assert any(
                    line.startswith(f"{render.SET_MARKS[duelist['set']]} **{mention}**:") for line in lines
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


def panel(state: SushiDiceState, language: str = "en") -> tuple[render.Context, Any]:
    ctx = table(GAME, state, language, [LONGEST] * 6)
    return ctx, render.private_board(COG, ctx, 0, shown=ctx.public())


def test_each_plate_to_ring_is_a_line_beside_its_bell() -> None:
    _, drawn = panel(ringing())
    texts = [text for text, _ in drawn.sections]
    assert texts == [f"`{n}` 🍱 🐟🍣🍤🥚🥒⭐ → 🏆 3/4" for n in (1, 2, 3)]
    bells = [bell.item for _, bell in drawn.sections]
    assert [bell.label for bell in bells] == ["Ring 1", "Ring 2", "Ring 3"]
    assert all(str(bell.emoji) == "🔔" and not bell.disabled for bell in bells)
    assert [GAME.decode_action(json.loads(bell.custom_id.split(":", 5)[5])) for bell in bells] == [
        Ring(0),
        Ring(1),
        Ring(2),
    ]
    controls = [item.item.label for item in drawn.items]
    assert "Ring bell" not in controls  # the bells are beside their plates
    assert drawn.embed.description.count("🍱") == 0  # every plate is there to ring: none said twice


def test_a_panel_without_a_plate_to_ring_keeps_one_greyed_bell() -> None:
    _, drawn = panel(worst_case())
    assert drawn.sections == []
    bell = [item.item for item in drawn.items if item.item.label == "Ring bell"]
    assert len(bell) == 1 and bell[0].disabled
    assert "🍽️ `1` `2` `3` 🍱 🐟🍣🍤🥚🥒⭐" in drawn.embed.description
    assert "🤢 Yuck! on you — all six dice were re-thrown." in drawn.embed.description


def test_the_plate_that_wins_says_so() -> None:
    state = ringing()
    state.plates[0] = ["maguro"] * 3
    _, drawn = panel(state)
    assert next(text for text, _ in drawn.sections) == "`1` 🍱 🐟🍣🍤🥚🥒⭐ → 🏆 4/4: victory!"


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_panel_keeps_its_sections_within_the_card_limits(language: str) -> None:
    """The most a panel holds: six dice, Roll, Yuck! and three plates to ring, each a section."""
    _, drawn = panel(ringing(), language)
    card = drawn.card()
    sections = [part for part in card.parts() if part["type"] == cards.SECTION]
    assert len(sections) == 3  # none turned back into a plain line
    parts = [part for part in card.parts() if part["type"] != cards.ROW]
    rows = [part for part in card.parts() if part["type"] == cards.ROW]
    assert cards.count(parts, rows) <= cards.COMPONENTS
