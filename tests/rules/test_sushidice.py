"""Sushi Dice: plates, the dice, duels, Yuck and Chop, passing the sets, the end, and the protocol."""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cogs.games.sushidice import render as sushidice_render
from cogs.games.sushidice.cog import stands
from cogs.kit.words.text import plural
from cogs.tables.context import TableContext
from cogs.tables.gamecog import ResultNotes
from rules.engine import Action, IllegalAction
from rules.sushidice.game import (
    DICE,
    GAME,
    HOST,
    PLATE_DECK,
    PLATES_TO_WIN,
    SET_SIZE,
    STAR,
    YUCK,
    BringBack,
    Challenge,
    Chop,
    Ring,
    Roll,
    SetAside,
    SushiDiceState,
    SushiDiceView,
    Yuck,
    plate_complete,
)
from storage.tables import Seat, TableRecord
from tests.rules.conformance import assert_refused, random_playout, roundtrip

M, S, E, T, K = "maguro", "sake", "ebi", "tamago", "kappa"


def duel(players: int = 3, red: int = 0, blue: int = 1, seed: int = 1) -> SushiDiceState:
    """A game past the host's challenge, with `red` and `blue` dueling and known face-up plates."""
    state = GAME.new(players, seed)
    if players > 2:  # two players duel at once
        GAME.apply(state, HOST, Challenge(1))
    state.sets[0].holder, state.sets[1].holder = red, blue
    state.face_up = [M, "combo", E]
    return state


def show(state: SushiDiceState, seat: int, faces: list[str], aside: tuple[int, ...] = ()) -> int:
    """Put a throw of all six dice showing `faces` in front of a duelist, as if just thrown; returns
    its serial (the board stamp right after it)."""
    return rethrow(state, seat, dict(enumerate(faces)), aside)


def rethrow(
    state: SushiDiceState, seat: int, faces: dict[int, str], aside: tuple[int, ...] | None = None
) -> int:
    """A throw of only the dice in `faces` (die -> face shown), as if just thrown; returns its serial."""
    dice = GAME.dice_of(state, seat)
    assert dice is not None
    state.throws += 1
    for die, face in faces.items():
        assert face in DICE[die], f"die {die} has no {face} face"
        dice.faces[die] = face
        dice.thrown[die] = state.throws
    dice.dated(state.throws)
    if aside is not None:
        dice.set_aside = [die in aside for die in range(SET_SIZE)]
    dice.throw = state.throws
    return dice.throw


def refused(state: SushiDiceState, seat: int, action: Action) -> str:
    return assert_refused(GAME, state, seat, action).code


def holders(state: SushiDiceState) -> tuple[int, int]:
    return state.sets[0].holder, state.sets[1].holder


# ---------------------------------------------------------------- plates


@pytest.mark.parametrize(
    ("plate", "faces", "expected"),
    [
        (M, [M, M, M, M, M, M], True),
        (M, [STAR, M, M, M, M, M], True),  # a star stands for maguro
        (M, [STAR, STAR, STAR, M, M, M], True),
        (M, [M, M, M, M, M, S], False),  # near miss: one sake
        (M, [STAR, STAR, STAR, M, M, YUCK], False),  # a yuck never fills anything
        (S, [S, S, S, S, S, S], True),
        (E, [STAR, E, E, E, E, E], True),
        (T, [T, T, STAR, T, T, T], True),
        (K, [K, K, K, K, K, K], True),
        (K, [M, M, M, M, M, M], False),
        ("combo", [STAR, M, S, E, T, K], True),
        ("combo", [M, STAR, S, E, T, K], True),  # order does not matter
        ("combo", [STAR, STAR, S, E, T, K], True),  # the second star stands for the missing maguro
        ("combo", [STAR, STAR, STAR, E, T, K], True),
        ("combo", [M, M, S, E, T, K], False),  # the combo's own star needs a star die
        ("combo", [STAR, M, M, E, T, K], False),  # near miss: sake missing, maguro twice
        ("combo", [STAR, M, S, E, T, YUCK], False),  # near miss: a yuck instead of kappa
        ("combo", [STAR, STAR, M, S, E, T], True),
        ("combo", [STAR, STAR, STAR, STAR, STAR, STAR], True),
        (M, [STAR, STAR, STAR, STAR, STAR, STAR], True),
        ("combo", [YUCK, YUCK, YUCK, YUCK, YUCK, YUCK], False),
    ],
)
def test_plate_complete(plate: str, faces: list[str], expected: bool) -> None:
    assert plate_complete(plate, faces) is expected


@pytest.mark.parametrize(
    ("plate", "faces"),
    [("unagi", [M] * 6), (M, [M] * 5), (M, [M] * 7), (M, [M, M, M, M, M, "wasabi"])],
)
def test_plate_complete_refuses_what_is_no_plate_or_throw(plate: str, faces: list[str]) -> None:
    with pytest.raises(ValueError):
        plate_complete(plate, faces)


def test_the_deck_has_nineteen_plates() -> None:
    assert Counter(PLATE_DECK) == {M: 3, S: 3, E: 3, T: 3, K: 3, "combo": 4}
    state = GAME.new(2, 5)
    assert len(state.face_up) == 3 and len(state.pile) == 16
    assert Counter(state.pile + state.face_up) == Counter(PLATE_DECK)


# ---------------------------------------------------------------- the dice


def test_each_die_shows_its_six_faces_evenly() -> None:
    state = duel(2, 0, 1)
    counts = [Counter[str | None]() for _ in range(SET_SIZE)]
    for _ in range(3000):
        GAME.apply(state, 0, Roll())
        for die, face in enumerate(state.sets[0].faces):
            counts[die][face] += 1
    for die in range(SET_SIZE):
        assert set(counts[die]) == {M, S, E, T, K, STAR if die < 3 else YUCK}
        assert all(400 <= n <= 600 for n in counts[die].values()), counts[die]


def _analytic_odds(throws: int) -> float:
    """P(six maguro within `throws` throws, keeping maguro and stars).

    A star die hits with 2/6 (maguro or star), a yuck die with 1/6.
    """
    return (1 - (4 / 6) ** throws) ** 3 * (1 - (5 / 6) ** throws) ** 3


@pytest.mark.parametrize("throws", [4, 8, 15])
def test_odds_of_a_single_plate_in_k_throws_match_the_dice(throws: int) -> None:
    state = duel(2, 0, 1, seed=throws)
    dice = state.sets[0]
    trials, hits = 1500, 0
    for _ in range(trials):
        dice.faces, dice.set_aside = [None] * SET_SIZE, [False] * SET_SIZE
        for _ in range(throws):
            for die in range(SET_SIZE):
                if dice.faces[die] in (M, STAR) and not dice.set_aside[die]:
                    GAME.apply(state, 0, SetAside(die))
            if all(dice.set_aside):
                break
            GAME.apply(state, 0, Roll())
        hits += plate_complete(M, [face for face in dice.faces if face is not None])
    # 1500 trials: a standard deviation of at most 0.013; wrong dice (say stars on all six) miss by > 0.2.
    assert abs(hits / trials - _analytic_odds(throws)) < 0.05


# ---------------------------------------------------------------- the first challenge


def test_the_host_challenges_first() -> None:
    state = GAME.new(4, 3)
    assert GAME.to_move(state) == {HOST}
    assert GAME.legal_actions(state, HOST) == [Challenge(1), Challenge(2), Challenge(3)]
    assert GAME.default_action(state, HOST) == Challenge(1)
    assert refused(state, 1, Roll()) == "not_your_turn"
    assert refused(state, HOST, Roll()) == "wrong_phase"
    assert refused(state, HOST, Challenge(HOST)) == "bad_opponent"
    assert refused(state, HOST, Challenge(4)) == "bad_opponent"
    events = GAME.apply(state, HOST, Challenge(2))
    assert [event["type"] for event in events] == ["challenged", "duel_started"]
    assert holders(state) == (0, 2)
    assert GAME.to_move(state) == {0, 2}
    assert refused(state, 0, Challenge(3)) == "wrong_phase"


def test_two_players_duel_at_once() -> None:
    """The host's only possible opponent needs no challenge: the first duel is on from the start."""
    state = GAME.new(2, 3)
    assert (state.phase, state.duel, holders(state)) == ("duel", 1, (0, 1))
    assert GAME.to_move(state) == {0, 1}
    assert not any(isinstance(action, Challenge) for action in GAME.legal_actions(state, HOST))
    assert refused(state, HOST, Challenge(1)) == "wrong_phase"
    view = GAME.view(state, None)
    assert (view["phase"], view["turn"], view["last"], view["previous"]) == ("duel", None, [], [])


def test_an_unthrown_set_shows_nothing_until_its_first_roll() -> None:
    state = duel(2, 0, 1)
    view = GAME.view(state, None)
    assert view["duelists"][0]["faces"] == [None] * SET_SIZE
    assert GAME.legal_actions(state, 0) == [Roll()]
    assert refused(state, 0, SetAside(0)) == "die_not_thrown"
    assert refused(state, 0, Ring(0)) == "plate_not_complete"
    assert refused(state, 1, Yuck(0)) == "no_yuck_shown"
    events = GAME.apply(state, 0, Roll())
    assert events[0]["dice"] == list(range(SET_SIZE))
    assert all(face in DICE[die] for die, face in enumerate(state.sets[0].faces))
    assert state.sets[0].throw == state.throws == 1


def test_set_aside_dice_stay_put_on_a_roll() -> None:
    state = duel(2, 0, 1)
    show(state, 0, [M, S, E, T, K, M])
    GAME.apply(state, 0, SetAside(0))
    GAME.apply(state, 0, SetAside(5))
    assert refused(state, 0, SetAside(0)) == "already_set_aside"
    assert refused(state, 0, BringBack(1)) == "not_set_aside"
    assert refused(state, 0, SetAside(6)) == "bad_die"
    events = GAME.apply(state, 0, Roll())
    assert events[0]["dice"] == [1, 2, 3, 4]
    assert state.sets[0].faces[0] == M and state.sets[0].faces[5] == M
    GAME.apply(state, 0, BringBack(5))
    assert state.sets[0].set_aside == [True, False, False, False, False, False]


def test_nothing_to_roll_when_every_die_is_aside() -> None:
    state = duel(2, 0, 1)
    show(state, 0, [M, S, E, T, K, M], aside=tuple(range(SET_SIZE)))
    assert refused(state, 0, Roll()) == "nothing_to_roll"
    assert Roll() not in GAME.legal_actions(state, 0)


# ---------------------------------------------------------------- ringing and passing left


def test_ring_takes_the_plate_reveals_a_new_one_and_passes_the_sets_left() -> None:
    state = duel(3, 0, 1)
    state.pile[-1] = K
    pile = len(state.pile)
    show(state, 0, [STAR, M, M, M, M, M])
    show(state, 1, [E, E, STAR, E, E, YUCK])
    assert GAME.view(state, None)["duelists"][0]["complete"] == [0]
    events = GAME.apply(state, 0, Ring(0))
    assert [event["type"] for event in events] == ["rang", "plate_revealed", "duel_started"]
    assert state.plates[0] == [M]
    assert state.face_up == [K, "combo", E]
    assert len(state.pile) == pile - 1
    # seat 1 passes blue to seat 2 and receives red from seat 0: it duels twice in a row
    assert holders(state) == (1, 2)
    assert GAME.to_move(state) == {1, 2}
    assert all(dice.faces == [None] * SET_SIZE for dice in state.sets)
    assert GAME.view(state, None)["last"] == [events[0]]


def test_with_two_players_the_same_two_always_duel() -> None:
    state = duel(2, 0, 1)
    for expected in [(1, 0), (0, 1), (1, 0)]:
        red = state.sets[0].holder
        state.face_up[0] = M
        show(state, red, [STAR, STAR, STAR, M, M, M])
        GAME.apply(state, red, Ring(0))
        assert holders(state) == expected


def test_passing_left_wraps_around_the_table() -> None:
    state = duel(3, 2, 0)
    show(state, 0, [E, E, E, E, E, E])
    GAME.apply(state, 0, Ring(2))
    assert holders(state) == (0, 1)


def test_ring_refusals() -> None:
    state = duel(3, 0, 1)
    show(state, 0, [STAR, M, M, M, M, S])  # near miss
    assert refused(state, 0, Ring(0)) == "plate_not_complete"
    assert refused(state, 0, Ring(3)) == "no_such_plate"
    assert refused(state, 0, Ring(-1)) == "no_such_plate"
    assert refused(state, 2, Ring(0)) == "not_your_turn"  # a spectator


def test_when_both_complete_the_first_ring_wins() -> None:
    state = duel(2, 0, 1)
    show(state, 0, [M, M, M, M, M, M])
    show(state, 1, [E, STAR, E, E, E, E])
    GAME.apply(state, 1, Ring(2))
    # The late ring is judged on the new duel's unthrown dice.
    assert refused(state, 0, Ring(0)) == "plate_not_complete"
    assert state.plates == [[], [E]]


# ---------------------------------------------------------------- yuck


def test_yuck_re_throws_all_six_dice_including_set_aside_ones() -> None:
    state = duel(2, 0, 1)
    show(state, 0, [M, S, E, T, K, M])
    seen = show(state, 1, [STAR, STAR, E, E, YUCK, E], aside=(0, 1, 2))
    assert Yuck(seen) in GAME.legal_actions(state, 0)
    events = GAME.apply(state, 0, Yuck(seen))
    assert events[0] == {"type": "yuck", "seat": 0, "target": 1}
    assert events[1]["dice"] == list(range(SET_SIZE)) and events[1]["forced"]
    blue = state.sets[1]
    assert blue.set_aside == [False] * SET_SIZE
    assert all(face in DICE[die] for die, face in enumerate(blue.faces))
    assert blue.throw == state.throws == seen + 1
    assert state.sets[0].faces == [M, S, E, T, K, M]  # the caller's dice are untouched


def test_yuck_refused_when_the_opponent_shows_none() -> None:
    state = duel(2, 0, 1)
    show(state, 0, [M, S, E, T, K, YUCK])  # the caller's own yuck does not count
    seen = show(state, 1, [STAR, STAR, E, E, T, E])
    assert refused(state, 0, Yuck(seen)) == "no_yuck_shown"
    assert not any(isinstance(action, Yuck) for action in GAME.legal_actions(state, 0))


def test_a_published_yuck_still_showing_counts_however_many_dice_were_thrown_since() -> None:
    state = duel(2, 0, 1)
    show(state, 0, [M, S, E, T, K, M])
    board = show(state, 1, [STAR, E, E, YUCK, E, T])  # the board publishes this stamp
    GAME.apply(state, 1, SetAside(3))  # the opponent keeps the yuck and throws on
    for _ in range(3):
        GAME.apply(state, 1, Roll())
        GAME.apply(state, 0, Roll())
    assert state.sets[1].throw > board  # the rule before GAMES.md's fix refused this call
    assert state.sets[1].faces[3] == YUCK
    assert Yuck(board) in GAME.legal_actions(state, 0)
    events = GAME.apply(state, 0, Yuck(board))
    assert events[0] == {"type": "yuck", "seat": 0, "target": 1}
    assert state.sets[1].set_aside == [False] * SET_SIZE


def test_a_yuck_thrown_after_the_board_was_published_is_refused() -> None:
    state = duel(2, 0, 1)
    board = show(state, 1, [STAR, E, E, E, E, T])  # no yuck on the board
    rethrow(state, 1, {5: YUCK})
    assert refused(state, 0, Yuck(board)) == "no_yuck_shown"
    assert not any(action == Yuck(board) for action in GAME.legal_actions(state, 0))
    assert refused(state, 0, Yuck(state.throws + 1)) == "not_shown_yet"  # no board has that stamp yet
    assert refused(state, 0, Yuck(-1)) == "not_shown_yet"
    GAME.apply(state, 0, Yuck(state.throws))  # once the board shows it, it counts


def test_throws_the_board_has_not_shown_do_not_save_the_called_duelist() -> None:
    """GAMES.md: the call is judged on the board pressed on; the yuck thrown away since, before any
    board showed it gone, still costs the opponent all six dice, as at a real table."""
    state = duel(2, 0, 1)
    board = show(state, 1, [STAR, E, E, YUCK, E, T], aside=(0, 1, 2))
    rethrow(state, 1, {3: E, 4: E, 5: E})  # the yuck is gone before the next board
    assert YUCK not in state.sets[1].faces
    assert Yuck(board) in GAME.legal_actions(state, 0)
    events = GAME.apply(state, 0, Yuck(board))
    assert events[0] == {"type": "yuck", "seat": 0, "target": 1}
    assert events[1]["dice"] == list(range(SET_SIZE)) and state.sets[1].set_aside == [False] * SET_SIZE


def test_a_second_call_on_the_same_yuck_is_late() -> None:
    state = duel(2, 0, 1)
    board = show(state, 1, [STAR, E, E, YUCK, E, T])
    GAME.apply(state, 0, Yuck(board))
    assert refused(state, 0, Yuck(board)) == "called_late"  # the dice were thrown anew since that board
    rethrow(state, 1, {3: YUCK})
    GAME.apply(state, 0, Yuck(state.throws))  # a board after the re-throw showing a yuck again counts


def test_the_stamps_a_yuck_may_name_are_the_boards_that_showed_one() -> None:
    state = duel(2, 0, 1)
    first = show(state, 1, [STAR, E, E, YUCK, E, E])
    rethrow(state, 1, {0: E})
    show(state, 0, [M, M, M, M, M, S])
    assert [action for action in GAME.legal_actions(state, 0) if isinstance(action, Yuck)] == [
        Yuck(first + 2),
        Yuck(first + 1),
        Yuck(first),
    ]
    assert refused(state, 0, Yuck(first - 1)) == "no_yuck_shown"
    rethrow(state, 1, {3: E})  # gone from the boards after this throw, not from those before
    rethrow(state, 1, {4: YUCK})  # and back
    assert GAME.call_stamps(state, [state.sets[1]]) == [first + 4, first + 2, first + 1, first]


def test_a_yuck_from_an_earlier_duel_never_matches() -> None:
    state = duel(2, 0, 1)
    seen = show(state, 1, [E, E, E, YUCK, E, E])
    show(state, 0, [M, M, M, M, M, M])
    GAME.apply(state, 0, Ring(0))
    show(state, 1, [E, E, E, YUCK, E, E])  # seat 1 now holds red, thrown again
    assert refused(state, 0, Yuck(seen)) == "called_late"  # that board showed the duel before


def test_only_duelists_call_yuck() -> None:
    state = duel(3, 0, 1)
    seen = show(state, 1, [E, E, E, YUCK, E, E])
    assert refused(state, 2, Yuck(seen)) == "not_your_turn"
    show(state, 0, [M, M, M, YUCK, M, M])  # both show a yuck: the spectator may act, but not Yuck
    assert refused(state, 2, Yuck(seen)) == "not_a_duelist"


# ---------------------------------------------------------------- chop


def test_chop_ends_the_duel_and_the_caller_picks_among_the_fewest() -> None:
    state = duel(4, 0, 1)
    state.plates = [[], [M, S], [E], []]
    face_up = list(state.face_up)
    show(state, 0, [M, M, M, YUCK, M, M])
    assert GAME.to_move(state) == {0, 1}
    assert GAME.legal_actions(state, 2) == []
    show(state, 1, [E, E, E, E, YUCK, E])
    assert GAME.to_move(state) == {0, 1, 2, 3}
    assert GAME.view(state, None)["chop_possible"]
    stamp = state.throws
    assert GAME.legal_actions(state, 2) == [Chop(stamp, 0), Chop(stamp, 3)]
    events = GAME.apply(state, 2, Chop(stamp, 3))
    assert [event["type"] for event in events] == ["chop", "duel_started"]
    assert holders(state) == (2, 3)
    assert state.plates == [[], [M, S], [E], []] and state.face_up == face_up
    assert all(dice.faces == [None] * SET_SIZE for dice in state.sets)
    assert GAME.to_move(state) == {2, 3}


def test_chop_refusals() -> None:
    state = duel(4, 0, 1)
    state.plates = [[], [M, S], [E], []]
    show(state, 0, [M, M, M, YUCK, M, M])
    assert refused(state, 2, Chop(state.throws, 3)) == "no_chop"  # only one yuck
    old = show(state, 1, [E, E, E, E, YUCK, E])
    show(state, 1, [E, E, E, YUCK, E, E])
    stamp = state.throws
    assert refused(state, 0, Chop(stamp, 3)) == "not_a_spectator"
    assert Chop(old, 0) in GAME.legal_actions(state, 2)  # that board showed both yucks too
    assert refused(state, 2, Chop(stamp, 2)) == "bad_partner"
    assert refused(state, 2, Chop(stamp, 4)) == "bad_partner"
    assert refused(state, 2, Chop(stamp, 1)) == "partner_not_fewest"
    GAME.apply(state, 2, Chop(stamp, 0))  # the partner may be a duelist
    assert holders(state) == (2, 0)


def test_a_chop_on_published_yucks_still_showing_counts_after_other_dice_were_thrown() -> None:
    state = duel(3, 0, 1)
    show(state, 0, [M, M, M, YUCK, M, M], aside=(3,))
    board = show(state, 1, [E, E, E, E, YUCK, E], aside=(4,))
    for _ in range(2):
        GAME.apply(state, 0, Roll())
        GAME.apply(state, 1, Roll())
    assert Chop(board, 0) in GAME.legal_actions(state, 2)
    events = GAME.apply(state, 2, Chop(board, 0))
    assert events[0] == {"type": "chop", "seat": 2, "partner": 0}


def test_a_chop_stands_on_a_board_that_showed_both_yucks() -> None:
    state = duel(3, 0, 1)
    show(state, 0, [M, M, M, YUCK, M, M])
    board = show(state, 1, [E, E, E, E, E, E])  # one yuck only on the board
    rethrow(state, 1, {5: YUCK})
    assert GAME.chop_possible(state)  # both show a yuck now: a board will show it
    assert refused(state, 2, Chop(board, 0)) == "no_chop"
    board = state.throws  # this board shows both
    rethrow(state, 0, {3: M})  # red's yuck is thrown away before any board shows it gone
    assert not GAME.chop_possible(state) and GAME.to_move(state) == {0, 1, 2}
    assert GAME.legal_actions(state, 2) == [Chop(board, 0), Chop(board, 1)]
    GAME.apply(state, 2, Chop(board, 0))


def test_a_call_is_judged_on_a_board_replaced_less_than_a_second_before() -> None:
    """GAMES.md: the latest board, or one replaced under a second before the call (they crossed)."""
    boards = [(10.0, 1, 5), (11.0, 1, 7), (12.5, 1, 9)]
    assert stands(boards, 2, 30.0, 1.0)  # the latest board, however old
    assert stands(boards, 1, 13.4, 1.0) and not stands(boards, 1, 13.5, 1.0)
    assert not stands(boards, 0, 11.5, 0.4)


def test_a_yuck_called_first_makes_a_chop_on_that_board_late() -> None:
    state = duel(3, 0, 1)
    show(state, 0, [M, M, M, YUCK, M, M])
    board = show(state, 1, [E, E, E, E, YUCK, E])
    GAME.apply(state, 0, Yuck(board))
    assert refused(state, 2, Chop(board, 0)) == "called_late"


Board = tuple[SushiDiceView, set[str]]
"""A view the table could have published, and the colours of the sets a Yuck! was called on since."""


def _called_on(board: Board, now: SushiDiceView, colour: str) -> bool:
    """GAMES.md's words: the board showed a yuck on the set of `colour`, in the duel now on, and no
    call on that yuck came first."""
    shown, called = board
    if shown["phase"] != "duel" or shown["duel"] != now["duel"] or colour in called:
        return False
    return next(duelist for duelist in shown["duelists"] if duelist["set"] == colour)["yuck"]


def _stamps_called(state: SushiDiceState, seat: int, call: type[Yuck | Chop]) -> set[int]:
    """The stamps of the calls of that kind legal for the seat."""
    legal = GAME.legal_actions(state, seat)
    return {action.seen for action in legal if isinstance(action, Yuck | Chop) and type(action) is call}


@given(seed=st.integers(0, 2**32), players=st.integers(2, 4))
@settings(max_examples=10, deadline=None)
def test_a_call_counts_exactly_when_the_board_it_names_showed_the_yuck(seed: int, players: int) -> None:
    """The call rule told apart from the engine's serials: for every board the table could have
    published lately, a Yuck naming its stamp is legal exactly when that board showed a yuck on the
    opponent and no Yuck came first, whatever was thrown since; a Chop when it showed both."""
    chooser = random.Random(seed)
    state = GAME.new(players, seed)
    boards: list[Board] = []
    for _ in range(300):
        if state.over:
            break
        now = GAME.view(state, None)
        boards.append((now, set()))
        if state.phase == "duel":
            red, blue = (duelist["seat"] for duelist in now["duelists"])
            yucks = {red: _stamps_called(state, red, Yuck), blue: _stamps_called(state, blue, Yuck)}
            watcher = next((seat for seat in range(players) if seat not in (red, blue)), None)
            chops = _stamps_called(state, watcher, Chop) if watcher is not None else set()
            for board in boards[-60:]:
                stamp, on_red, on_blue = (
                    board[0]["stamp"],
                    _called_on(board, now, "red"),
                    _called_on(board, now, "blue"),
                )
                assert (stamp in yucks[red]) == on_blue and (stamp in yucks[blue]) == on_red
                assert (stamp in chops) == (watcher is not None and on_red and on_blue)
        # Mostly dice handling, so that yucks stay set aside while other dice are thrown.
        seat = chooser.choice(sorted(GAME.to_move(state)))
        legal = GAME.legal_actions(state, seat)
        handling = [action for action in legal if not isinstance(action, Yuck | Chop)]
        roll = chooser.random()
        if roll < 0.4:
            action = GAME.computer_action(state, seat)
        elif roll < 0.95 and handling:
            action = chooser.choice(handling)
        else:
            action = chooser.choice(legal)
        for event in GAME.apply(state, seat, action):
            if event["type"] == "rolled" and event.get("forced"):
                for _, called in boards:
                    called.add(event["set"])


def test_the_first_chop_wins() -> None:
    state = duel(4, 0, 1)
    state.plates = [[], [M], [M], [M]]
    show(state, 0, [M, M, M, YUCK, M, M])
    show(state, 1, [E, E, E, E, YUCK, E])
    stamp = state.throws
    GAME.apply(state, 3, Chop(stamp, 0))
    assert refused(state, 2, Chop(stamp, 0)) == "called_late"


def test_no_chop_with_two_players() -> None:
    state = duel(2, 0, 1)
    show(state, 0, [M, M, M, YUCK, M, M])
    show(state, 1, [E, E, E, E, YUCK, E])
    assert not GAME.view(state, None)["chop_possible"]
    assert GAME.to_move(state) == {0, 1}


# ---------------------------------------------------------------- the end


@pytest.mark.parametrize(("players", "target"), [(2, 6), (3, 5), (4, 5), (5, 4), (6, 4)])
def test_win_thresholds(players: int, target: int) -> None:
    assert PLATES_TO_WIN[players] == target
    state = duel(players, 0, 1)
    state.plates[0] = [S] * (target - 2)
    state.plates[1] = [S] * (target - 1)
    show(state, 0, [M, M, M, M, M, M])
    GAME.apply(state, 0, Ring(0))  # target - 1: not yet
    assert not GAME.is_over(state)
    red = state.sets[0].holder  # seat 1
    show(state, red, [E, E, E, E, E, E])
    events = GAME.apply(state, red, Ring(2))
    assert events[-1]["type"] == "game_over" and events[-1]["reason"] == "plates_won"
    assert GAME.is_over(state) and GAME.to_move(state) == frozenset()
    assert GAME.scores(state)[:2] == [target - 1, target]
    assert GAME.ranking(state)[:2] == [2, 1]
    assert refused(state, red, Roll()) == "game_over"


def test_when_the_pile_runs_out_a_taken_plate_is_not_replaced() -> None:
    state = duel(3, 0, 1)
    state.pile = []
    show(state, 0, [STAR, M, M, M, M, M])
    events = GAME.apply(state, 0, Ring(0))
    assert events[1] == {"type": "pile_empty", "face_up": 2}
    assert state.face_up == ["combo", E]
    assert not GAME.is_over(state) and GAME.to_move(state) == {1, 2}
    assert GAME.view(state, None)["face_up"] == ["combo", E]


@pytest.mark.parametrize("players", range(2, 7))
def test_the_game_ends_by_plate_count_before_the_plates_run_out(players: int) -> None:
    # The most plates taken with nobody at the target still leaves one face up (19 > 6 x 3 ...).
    target = PLATES_TO_WIN[players]
    assert len(PLATE_DECK) > players * (target - 1)
    state = duel(players, 0, 1)
    state.plates = [[S] * (target - 1) for _ in range(players)]
    state.pile, state.face_up = [], [E]
    show(state, 0, [E, E, E, E, E, E])
    events = GAME.apply(state, 0, Ring(0))
    assert events[-1]["type"] == "game_over" and events[-1]["reason"] == "plates_won"
    assert GAME.scores(state)[0] == target


def test_ranks_share_ties() -> None:
    state = duel(4, 0, 1)
    state.plates = [[M], [M, S], [], [E]]
    assert GAME.ranking(state) == [2, 1, 4, 2]


# ---------------------------------------------------------------- the results, in words


def table_of(state: SushiDiceState) -> TableContext:
    """The state at a table of alice, bob, carol, ..."""
    names = ["alice", "bob", "carol", "dave", "erin", "frank"][: state.players]
    seats = [Seat(100 + seat, name) for seat, name in enumerate(names)]
    status = "finished" if state.over else "playing"
    record = TableRecord(guild_id=1, channel_id=10, game_id=GAME.id, host_id=100, status=status, seats=seats)
    return TableContext(record, GAME, state)


def test_the_results_list_each_players_plates_and_a_tie_stands_unexplained() -> None:
    # alice rings her fifth plate; bob and dave tie on two plates each and share second place:
    # nothing breaks a tie in Sushi Dice (GAMES.md), so no tie-break is named.
    state = duel(4, 0, 1)
    state.plates = [[S, "combo", S, M], [E, "combo"], [], [T, T]]
    show(state, 0, [STAR, M, S, E, T, K])
    GAME.apply(state, 0, Ring(1))
    assert GAME.is_over(state) and GAME.ranking(state) == [1, 2, 4, 2]
    assert sushidice_render.result_notes(table_of(state)) == ResultNotes(
        breakdown={
            0: "🍣 sake ×2 · 🍱 combo ×2 · 🐟 maguro",
            1: "🍤 ebi · 🍱 combo",
            2: "no plates",
            3: "🥚 tamago ×2",
        },
        tie_break=None,
    )


def test_counts_read_right_for_one() -> None:
    assert plural(sushidice_render.SCORE_UNIT, 1) == "1 plate"
    assert plural(sushidice_render.SCORE_UNIT, 5) == "5 plates"
    state = duel(2, 0, 1)
    ctx = table_of(state)
    thrown = {"type": "rolled", "seat": 0, "set": "red", "faces": [M] * 6, "throw": 1, "dice": [2]}
    # A throw is not worded on the board: the dice show it.
    assert sushidice_render.describe_event(ctx, thrown, ctx.public()) is None


# ---------------------------------------------------------------- computer player


def test_default_rolls_an_unthrown_set_rings_and_never_yucks() -> None:
    state = duel(2, 0, 1)
    assert GAME.default_action(state, 0) == Roll()
    show(state, 1, [E, E, E, YUCK, E, E])
    show(state, 0, [M, S, E, T, K, M])
    assert not isinstance(GAME.computer_action(state, 0), Yuck)  # the engine cannot know it was shown
    show(state, 0, [M, M, STAR, M, M, M])
    before = json.dumps(GAME.dump(state), sort_keys=True)
    assert GAME.computer_action(state, 0) == Ring(0)
    assert GAME.default_action(state, 0) == Ring(0)
    assert json.dumps(GAME.dump(state), sort_keys=True) == before


def test_default_sets_aside_for_the_most_promising_plate_then_rolls() -> None:
    state = duel(2, 0, 1)
    show(state, 0, [E, STAR, E, K, E, E], aside=(3,))  # ebi 5 of 6, combo 3
    played = []
    while (action := GAME.computer_action(state, 0)) != Roll():
        played.append(action)
        GAME.apply(state, 0, action)
    assert played == [SetAside(0), SetAside(1), SetAside(2), SetAside(4), SetAside(5), BringBack(3)]


def test_an_idle_duelist_gets_a_roll() -> None:
    state = duel(2, 0, 1)
    show(state, 0, [M, S, E, T, K, M], aside=(0, 5))
    show(state, 1, [E, E, E, YUCK, E, E])
    assert GAME.default_action(state, 0) == Roll()


def test_default_for_a_spectator_is_a_legal_chop() -> None:
    state = duel(3, 0, 1)
    show(state, 0, [M, M, M, YUCK, M, M])
    show(state, 1, [E, E, E, E, YUCK, E])
    assert GAME.default_action(state, 2) == Chop(state.throws, 0)


def test_a_computer_brings_a_star_die_back_when_the_combo_needs_its_star() -> None:
    # The stall of issue 12: the star dice aside show sushi, only a yuck die is left to throw, and
    # a yuck die has no star. The computer used to roll it forever.
    state = duel(2, 0, 1)
    state.face_up = ["combo", M, E]
    show(state, 0, [M, S, E, T, K, YUCK], aside=(0, 1, 2, 3, 4))
    assert GAME.computer_action(state, 0) == BringBack(0)
    GAME.apply(state, 0, BringBack(0))
    assert GAME.computer_action(state, 0) == Roll()
    # When a yuck die shows the sushi of the star die it frees, it keeps that one instead.
    show(state, 0, [M, S, E, T, K, M], aside=(0, 1, 2, 3, 4))
    played = []
    while (action := GAME.computer_action(state, 0)) != Roll():
        played.append(action)
        GAME.apply(state, 0, action)
    assert played == [SetAside(5), BringBack(0)]


def can_complete(plate: str, faces: list[str | None], aside: list[bool]) -> bool:
    """Whether some throw of the loose dice completes `plate` with the dice set aside (GAMES.md)."""
    kept = [face for face, kept in zip(faces, aside, strict=True) if kept]
    loose = [die for die in range(SET_SIZE) if not aside[die]]
    if plate != "combo":
        return all(face in (plate, STAR) for face in kept)
    sushi = [face for face in kept if face != STAR]
    # Kept sushi must differ and no yuck may stay; the combo's star needs a kept star or a star die to throw.
    return (
        YUCK not in kept
        and len(set(sushi)) == len(sushi)
        and (STAR in kept or any(STAR in DICE[die] for die in loose))
    )


def play_computers(
    players: int, seed: int, bound: int, check: Callable[[SushiDiceState, int, Action], None] | None = None
) -> int:
    """A game of computers only, played as the table plays them: every computer seat that may move
    moves, in seat order, round after round. Returns the actions it took (fails past `bound`)."""
    state = GAME.new(players, seed)
    actions = 0
    while not state.over:
        assert actions <= bound, f"{players} computers, seed {seed}: no end after {bound} actions"
        for seat in sorted(GAME.to_move(state)):
            if seat in GAME.to_move(state):
                action = GAME.computer_action(state, seat)
                if check is not None:
                    check(state, seat, action)
                GAME.apply(state, seat, action)
                actions += 1
    return actions


# Games of computers take 230-370 actions on average and at most about 650 over 500 seeds per
# count (bench/bench_sushidice_calls.py prints the figures); before the fix, a third of the
# two-player games never ended.
COMPUTER_GAME_BOUND = 2000


@pytest.mark.parametrize("players", range(2, 7))
def test_computers_always_make_progress_and_every_game_of_computers_ends(players: int) -> None:
    def rolls_toward_a_plate(state: SushiDiceState, seat: int, action: Action) -> None:
        dice = GAME.dice_of(state, seat)
        if isinstance(action, Roll) and dice is not None and None not in dice.faces:
            assert any(can_complete(plate, dice.faces, dice.set_aside) for plate in state.face_up)

    for seed in range(200):
        play_computers(players, seed, COMPUTER_GAME_BOUND, rolls_toward_a_plate)


# ---------------------------------------------------------------- view and codecs


def test_view_hides_only_the_pile_order() -> None:
    state = duel(3, 0, 1)
    show(state, 0, [M, M, M, YUCK, M, M])
    other = roundtrip(GAME, state)
    other.pile.reverse()
    assert other.pile != state.pile
    public = GAME.view(state, None)
    assert GAME.view(other, None) == public
    assert json.loads(json.dumps(public)) == public
    assert public["pile"] == len(state.pile)
    assert public["seat"] is None and "set" not in public
    for seat in range(3):
        mine = GAME.view(state, seat)
        assert mine["seat"] == seat
        assert mine.pop("set") == ["red", "blue", None][seat]
        assert mine == {**public, "seat": seat}
    duelist = public["duelists"][0]
    assert duelist == {
        "seat": 0,
        "set": "red",
        "faces": [M, M, M, YUCK, M, M],
        "set_aside": [False] * SET_SIZE,
        "throw": state.throws,
        "yuck": True,
        "complete": [],
    }


def test_view_header_follows_the_game() -> None:
    state = GAME.new(3, 4)
    view = GAME.view(state, None)
    assert (view["phase"], view["turn"], view["to_move"], view["round"]) == ("challenge", HOST, [HOST], None)
    assert (view["over"], view["scores"], view["ranking"], view["last"]) == (False, [0, 0, 0], None, [])
    events = GAME.apply(state, HOST, Challenge(2))
    view = GAME.view(state, 1)
    assert (view["seat"], view["phase"], view["turn"], view["to_move"]) == (1, "duel", None, [0, 2])
    assert view["last"] == [events[0]] and view["duel"] == 1
    state.plates[2] = [S] * (PLATES_TO_WIN[3] - 1)
    state.face_up[0] = E
    show(state, 2, [E, E, E, E, E, E])
    events = GAME.apply(state, 2, Ring(0))
    view = GAME.view(state, None)
    assert (view["phase"], view["over"], view["turn"], view["to_move"]) == ("over", True, None, [])
    assert view["scores"] == [0, 0, PLATES_TO_WIN[3]] and view["ranking"] == [2, 2, 1]
    assert view["last"] == [events[0]] and events[0]["type"] == "rang"


def test_a_game_stored_before_dice_had_their_own_serials_loads_and_judges_calls_as_before() -> None:
    state = duel(2, 0, 1)
    board = show(state, 1, [E, E, E, YUCK, E, E], aside=(3,))
    GAME.apply(state, 1, Roll())  # the yuck stays aside
    data = GAME.dump(state)
    assert data["v"] == 1
    for dice in data["sets"]:
        del dice["thrown"], dice["yucks"], dice["called"]
    stored = GAME.load(data)
    blue = stored.sets[1]
    assert blue.thrown == [blue.throw] * SET_SIZE  # no yuck is dated earlier than it may have been thrown
    assert blue.yucks == [blue.throw]  # its yuck is dated from then on, as the old judgement did
    assert refused(stored, 0, Yuck(board)) == "no_yuck_shown"
    GAME.apply(stored, 0, Yuck(stored.throws))


@pytest.mark.parametrize(
    "action", [Challenge(2), Roll(), SetAside(3), BringBack(0), Ring(2), Yuck(17), Chop(9, 1)]
)
def test_actions_round_trip(action: Action) -> None:
    assert GAME.decode_action(json.loads(json.dumps(GAME.encode_action(action)))) == action


def test_decode_refuses_unknown_or_malformed_actions() -> None:
    with pytest.raises(IllegalAction) as unknown:
        GAME.decode_action({"type": "wasabi"})
    assert unknown.value.code == "unknown_action"
    with pytest.raises(IllegalAction) as malformed:
        GAME.decode_action({"type": "chop", "seen": 3})
    assert malformed.value.code == "malformed_action"


@pytest.mark.parametrize("players", [1, 7])
def test_bad_player_count(players: int) -> None:
    with pytest.raises(ValueError):
        GAME.new(players, 1)


def test_unknown_option() -> None:
    with pytest.raises(ValueError):
        GAME.new(2, 1, {"speed": "fast"})


# ---------------------------------------------------------------- properties


class Progressing:
    """Sushi Dice as random play sees it, nudged toward progress.

    Uniformly random dice handling almost never completes a plate, so a Ring is taken whenever one
    is legal and the computer player's move weighs twice as much as all legal actions together.
    Every action offered is still one of the real legal actions.
    """

    def __getattr__(self, name: str) -> Any:
        return getattr(GAME, name)

    def legal_actions(self, state: SushiDiceState, seat: int) -> list[Action]:
        legal = GAME.legal_actions(state, seat)
        if not legal:
            return legal
        rings: list[Action] = [action for action in legal if isinstance(action, Ring)]
        if rings:
            return rings
        return legal + [GAME.computer_action(state, seat)] * (2 * len(legal))


def _candidates(state: SushiDiceState, seat: int) -> list[Action]:
    """Actions worth trying for a seat: every legal one but the calls' middle stamps, and the near
    misses of each kind."""
    # The stamps where a call's validity may change: around each yuck appearing or going, each call,
    # the duel's start, and now.
    thrown = {serial for dice in state.sets for serial in (*dice.yucks, dice.called)}
    thrown |= {state.throws, state.duel_from}
    seens = sorted({-1, state.throws + 1, *(serial + step for serial in thrown for step in (-1, 0))})
    duelist = GAME.dice_of(state, seat) is not None
    partner = (seat + 1) % state.players
    if 0 <= seat < state.players and state.phase == "duel" and not duelist:
        partner = GAME.chop_partners(state, seat)[0]
    return [
        Roll(),
        *(Challenge(other) for other in range(-1, state.players + 1)),
        *(SetAside(die) for die in range(-1, SET_SIZE + 1)),
        *(BringBack(die) for die in range(-1, SET_SIZE + 1)),
        *(Ring(slot) for slot in range(-1, 4)),
        *(Yuck(seen) for seen in (seens if duelist else [state.throws])),
        *(Chop(seen, partner) for seen in (seens if not duelist else [state.throws])),
        *(Chop(state.throws, other) for other in range(-1, state.players + 1) if other != partner),
    ]


_steps = itertools.count(1)


def check(state: SushiDiceState) -> None:
    """Conservation of dice and plates, and legal_actions as the single truth."""
    assert Counter(state.pile + state.face_up + [p for won in state.plates for p in won]) == Counter(
        PLATE_DECK
    )
    assert len(state.face_up) == 3 or not state.pile or state.over
    assert state.face_up or state.over  # the winning plate may be the very last one (19 = 6 × 3 + 1)
    assert [dice.colour for dice in state.sets] == ["red", "blue"]
    for dice in state.sets:
        assert len(dice.faces) == len(dice.set_aside) == SET_SIZE
        for die, (face, aside) in enumerate(zip(dice.faces, dice.set_aside, strict=True)):
            assert face is None or face in DICE[die]
            assert face is not None or not aside
    if state.phase == "duel":
        assert len({dice.holder for dice in state.sets}) == 2
        assert all(0 <= dice.holder < state.players for dice in state.sets)
    public = GAME.view(state, None)
    assert json.loads(json.dumps(public)) == public
    if next(_steps) % 100:
        return  # the full sweep below is costly: every 100th step is plenty
    held = {dice.holder: dice.colour for dice in state.sets} if state.phase == "duel" else {}
    for seat in range(state.players):  # nothing is hidden but the order of the plate pile
        mine = GAME.view(state, seat)
        assert mine["seat"] == seat
        assert mine.pop("set") == held.get(seat)
        assert mine == {**public, "seat": seat}
    dumped = GAME.dump(state)
    for seat in range(-1, state.players):
        candidates = _candidates(state, seat)
        legal = GAME.legal_actions(state, seat)
        # Calls may name any stamp of a range; the candidates hold its ends and their neighbours.
        assert all(isinstance(action, Yuck | Chop) for action in set(legal) - set(candidates))
        for action in candidates:
            if action in legal:
                GAME.apply(GAME.load(dumped), seat, action)
            else:
                with pytest.raises(IllegalAction):
                    GAME.apply(state, seat, action)
    assert GAME.dump(state) == dumped  # every refusal left the state untouched


@pytest.mark.parametrize("players", range(2, 7))
@given(seed=st.integers(0, 2**32))
@settings(max_examples=3, deadline=None)
def test_random_play_ends_and_keeps_every_promise(players: int, seed: int) -> None:
    state = random_playout(
        Progressing(),  # type: ignore[arg-type]
        players,
        seed,
        check=check,
        max_steps=10_000,
        roundtrip_every=10,
    )
    target = PLATES_TO_WIN[players]
    assert max(GAME.scores(state)) == target
    # Plates last exactly: only when every one of the 19 is won (6 players: 4 + 5 × 3) can none be left.
    assert state.face_up or sum(GAME.scores(state)) == 19
    assert GAME.to_move(state) == frozenset()
