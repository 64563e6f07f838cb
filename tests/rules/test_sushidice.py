"""Sushi Dice: plates, the dice, duels, Yuck and Chop, passing the sets, the end, and the protocol."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine import Action, IllegalAction
from rules.sushidice import (
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
    Yuck,
    plate_complete,
)
from tests.rules.conformance import assert_refused, random_playout, roundtrip

M, S, E, T, K = "maguro", "sake", "ebi", "tamago", "kappa"


def duel(players: int = 3, red: int = 0, blue: int = 1, seed: int = 1) -> SushiDiceState:
    """A game past the host's challenge, with `red` and `blue` dueling and known face-up plates."""
    state = GAME.new(players, seed)
    GAME.apply(state, HOST, Challenge(1))
    state.sets[0].holder, state.sets[1].holder = red, blue
    state.face_up = [M, "combo", E]
    return state


def show(state: SushiDiceState, seat: int, faces: list[str], aside: tuple[int, ...] = ()) -> int:
    """Put a throw showing `faces` in front of a duelist, as if just thrown; returns its serial."""
    dice = GAME.dice_of(state, seat)
    assert dice is not None
    for die, face in enumerate(faces):
        assert face in DICE[die], f"die {die} has no {face} face"
    dice.faces = list(faces)
    dice.set_aside = [die in aside for die in range(SET_SIZE)]
    state.throws += 1
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


def test_an_unthrown_set_shows_nothing_until_its_first_roll() -> None:
    state = duel(2, 0, 1)
    view = GAME.view(state, None)
    assert view["duelists"][0]["faces"] == [None] * SET_SIZE
    assert GAME.legal_actions(state, 0) == [Roll()]
    assert refused(state, 0, SetAside(0)) == "die_not_thrown"
    assert refused(state, 0, Ring(0)) == "plate_not_complete"
    assert refused(state, 1, Yuck(0)) == "no_yuck_showing"
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
    assert refused(state, 0, Yuck(seen)) == "no_yuck_showing"
    assert not any(isinstance(action, Yuck) for action in GAME.legal_actions(state, 0))


def test_yuck_refused_when_that_yuck_was_never_shown() -> None:
    state = duel(2, 0, 1)
    old = show(state, 1, [STAR, STAR, E, YUCK, T, E])
    new = show(state, 1, [STAR, STAR, E, E, T, YUCK])  # re-thrown, yuck again
    assert refused(state, 0, Yuck(old)) == "not_shown_yet"
    assert refused(state, 0, Yuck(new + 1)) == "not_shown_yet"
    GAME.apply(state, 0, Yuck(new))


def test_a_yuck_from_an_earlier_duel_never_matches() -> None:
    state = duel(2, 0, 1)
    seen = show(state, 1, [E, E, E, YUCK, E, E])
    show(state, 0, [M, M, M, M, M, M])
    GAME.apply(state, 0, Ring(0))
    show(state, 1, [E, E, E, YUCK, E, E])  # seat 1 now holds red, thrown again
    assert refused(state, 0, Yuck(seen)) == "not_shown_yet"


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
    assert refused(state, 2, Chop(old, 3)) == "not_shown_yet"
    assert refused(state, 2, Chop(stamp, 2)) == "bad_partner"
    assert refused(state, 2, Chop(stamp, 4)) == "bad_partner"
    assert refused(state, 2, Chop(stamp, 1)) == "partner_not_fewest"
    GAME.apply(state, 2, Chop(stamp, 0))  # the partner may be a duelist
    assert holders(state) == (2, 0)


def test_the_first_chop_wins() -> None:
    state = duel(4, 0, 1)
    state.plates = [[], [M], [M], [M]]
    show(state, 0, [M, M, M, YUCK, M, M])
    show(state, 1, [E, E, E, E, YUCK, E])
    stamp = state.throws
    GAME.apply(state, 3, Chop(stamp, 0))
    assert refused(state, 2, Chop(stamp, 0)) == "no_chop"


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


def test_when_the_pile_runs_out_fewer_plates_lie_face_up_then_the_game_ends() -> None:
    state = duel(3, 0, 1)
    state.pile = []
    show(state, 0, [STAR, M, M, M, M, M])
    events = GAME.apply(state, 0, Ring(0))
    assert events[1] == {"type": "pile_empty", "face_up": 2}
    assert state.face_up == ["combo", E]
    state.face_up = [E]
    state.plates = [[M], [S], []]
    show(state, 1, [E, E, E, E, E, E])
    events = GAME.apply(state, 1, Ring(0))
    assert events[-1]["type"] == "game_over" and events[-1]["reason"] == "no_plates"
    assert GAME.ranking(state) == [2, 1, 3]


def test_ranks_share_ties() -> None:
    state = duel(4, 0, 1)
    state.plates = [[M], [M, S], [], [E]]
    assert GAME.ranking(state) == [2, 1, 4, 2]


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


def _candidates(state: SushiDiceState) -> list[Action]:
    """Actions worth trying in any state: every legal one, and the near misses of each kind."""
    seens = sorted({state.throws - 1, state.throws, *(dice.throw for dice in state.sets)})
    return [
        Roll(),
        *(Challenge(seat) for seat in range(-1, state.players + 1)),
        *(SetAside(die) for die in range(-1, SET_SIZE + 1)),
        *(BringBack(die) for die in range(-1, SET_SIZE + 1)),
        *(Ring(slot) for slot in range(-1, 4)),
        *(Yuck(seen) for seen in seens),
        *(
            Chop(seen, seat)
            for seen in (state.throws - 1, state.throws)
            for seat in range(-1, state.players + 1)
        ),
    ]


_steps = itertools.count(1)


def check(state: SushiDiceState) -> None:
    """Conservation of dice and plates, and legal_actions as the single truth."""
    assert Counter(state.pile + state.face_up + [p for won in state.plates for p in won]) == Counter(
        PLATE_DECK
    )
    assert len(state.face_up) == 3 or not state.pile or state.over
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
    candidates = _candidates(state)
    for seat in range(-1, state.players):
        legal = GAME.legal_actions(state, seat)
        assert set(legal) <= set(candidates)
        for action in candidates:
            if action in legal:
                GAME.apply(GAME.load(GAME.dump(state)), seat, action)
            else:
                assert_refused(GAME, state, seat, action)


@pytest.mark.parametrize("players", range(2, 7))
@given(seed=st.integers(0, 2**32))
@settings(max_examples=3, deadline=None)
def test_random_play_ends_and_keeps_every_promise(players: int, seed: int) -> None:
    state = random_playout(Progressing(), players, seed, check=check, max_steps=10_000)  # type: ignore[arg-type]
    target = PLATES_TO_WIN[players]
    assert max(GAME.scores(state)) == target or not state.face_up
    assert GAME.to_move(state) == frozenset()
