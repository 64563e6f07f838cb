"""Sushizock im Gockelwok: the rulebook's examples, the scoring table and the protocol's promises."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from itertools import count

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cogs.games.sushizock import render as sushizock_render
from cogs.tables.context import TableContext
from cogs.tables.gamecog import ResultNotes
from rules.engine import IllegalAction, Rng
from rules.sushizock.game import (
    BONE_TILES,
    FACES,
    GAME,
    SUSHI_TILES,
    ForcedTake,
    Roll,
    Steal,
    SushizockState,
    Take,
    TurnOptions,
    score_piles,
)
from storage.tables import Seat, TableRecord
from tests.rules.conformance import assert_refused, random_playout

LUKE, NICK, SOPHIA = 0, 1, 2


# ---------------------------------------------------------------- helpers


def table(
    players: int = 3,
    sushi_row: list[int] | None = None,
    bone_row: list[int] | None = None,
    sushi_piles: list[list[int]] | None = None,
    bone_piles: list[list[int]] | None = None,
    turn: int = 0,
) -> SushizockState:
    """A position built from new(): rows and piles as given (piles bottom first)."""
    state = GAME.new(players, seed=1)
    if sushi_row is not None:
        state.sushi_row = list(sushi_row)
    if bone_row is not None:
        state.bone_row = list(bone_row)
    if sushi_piles is not None:
        state.sushi_piles = [list(pile) for pile in sushi_piles]
    if bone_piles is not None:
        state.bone_piles = [list(pile) for pile in bone_piles]
    state.turn = turn
    return state


def rig(state: SushizockState, faces: list[str]) -> None:
    """Put the RNG where the next throw of len(faces) dice shows exactly these faces, in order."""
    for seed in count():
        probe = Rng(seed)
        if [FACES[probe.below(len(FACES))] for _ in faces] == faces:
            state.rng = Rng(seed)
            return


def throw(state: SushizockState, faces: list[str], keep: tuple[int, ...] = ()) -> list[dict]:
    """Set aside `keep` of the current throw, then throw the rest, which show `faces`."""
    rig(state, faces)
    events = GAME.apply(state, state.turn, Roll(keep))
    assert state.thrown == faces
    return events


def offered(state: SushizockState) -> TurnOptions:
    """The view's options of a game still on (None only once it is over)."""
    options = GAME.view(state, None)["options"]
    assert options is not None
    return options


def tiles(state: SushizockState) -> Counter[int]:
    everything = state.sushi_row + state.bone_row
    for seat in range(state.players):
        everything += state.sushi_piles[seat] + state.bone_piles[seat]
    return Counter(everything)


def bury(state: SushizockState) -> SushizockState:
    """A copy whose tiles below every pile's top are replaced by values that exist nowhere."""
    other = copy.deepcopy(state)
    for piles, fake in ((other.sushi_piles, 77), (other.bone_piles, -77)):
        for pile in piles:
            pile[:-1] = [fake] * (len(pile) - 1)
    return other


def check(state: SushizockState) -> None:
    """Invariants after every step of a random game."""
    assert tiles(state) == Counter(SUSHI_TILES + BONE_TILES)
    assert all(tile > 0 for pile in state.sushi_piles for tile in pile)
    assert all(tile < 0 for pile in state.bone_piles for tile in pile)
    assert len(state.set_aside) + len(state.thrown) == (5 if state.throws else 0)
    for seat in [None, *range(state.players)]:
        json.dumps(GAME.view(state, seat))
        if not state.over:
            # Nothing below a top may reach any view: changing those tiles changes no view.
            assert GAME.view(bury(state), seat) == GAME.view(state, seat)


# ---------------------------------------------------------------- set-up


def test_new_game_lays_out_both_rows_shuffled_face_up() -> None:
    state = GAME.new(4, seed=7)
    assert sorted(state.sushi_row) == sorted(SUSHI_TILES) == [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6]
    assert sorted(state.bone_row) == sorted(BONE_TILES)
    assert Counter(BONE_TILES) == {-1: 5, -2: 4, -3: 2, -4: 1}
    view = GAME.view(state, None)
    assert view["sushi_row"] == state.sushi_row and view["bone_row"] == state.bone_row
    assert view["to_move"] == [0] and view["turn"] == 0
    assert view["sushi_piles"] == [{"height": 0, "top": None}] * 4
    assert (view["seat"], view["round"], view["phase"], view["ranking"], view["last"]) == (
        None,
        None,
        "roll",
        None,
        [],
    )
    assert GAME.legal_actions(state, 0) == [Roll()]
    assert GAME.new(4, seed=7) == state
    assert GAME.new(4, seed=8).sushi_row != state.sushi_row or GAME.new(4, seed=8).bone_row != state.bone_row


def test_rulebook_setup_rows_count_from_the_left() -> None:
    state = table(
        sushi_row=[4, 6, 3, 2, 3, 6, 5, 1, 1, 4, 2, 5],
        bone_row=[-2, -4, -1, -3, -1, -2, -2, -1, -1, -2, -3, -1],
    )
    throw(state, ["sushi", "bone", "bone", "blue", "red"])
    options = offered(state)
    assert options["sushi"] == 1 and options["bone"] == 2
    events = GAME.apply(state, LUKE, Take("bone"))
    assert events[0] == {"type": "took", "seat": LUKE, "pile": "bone", "nth": 2, "tile": -4, "forced": False}
    assert state.bone_row == [-2, -1, -3, -1, -2, -2, -1, -1, -2, -3, -1]


@pytest.mark.parametrize("players", [0, 1, 6])
def test_player_count_outside_two_to_five_is_refused(players: int) -> None:
    with pytest.raises(ValueError):
        GAME.new(players, seed=1)


def test_unknown_option_is_refused() -> None:
    assert GAME.options == {}
    with pytest.raises(ValueError):
        GAME.new(3, seed=1, options={"speed": "fast"})


# ---------------------------------------------------------------- throwing


def test_first_throw_throws_all_five_dice() -> None:
    state = table()
    events = throw(state, ["sushi", "sushi", "bone", "blue", "red"])
    assert events == [
        {
            "type": "rolled",
            "seat": 0,
            "throw": 1,
            "kept": [],
            "dice": ["sushi", "sushi", "bone", "blue", "red"],
            "set_aside": [],
        }
    ]
    view = GAME.view(state, 0)
    assert view["throws"] == 1 and view["throws_left"] == 2
    assert view["result"] == {"sushi": 2, "bone": 1, "blue": 1, "red": 1}


def test_set_aside_dice_stay_and_count_toward_the_result() -> None:
    state = table()
    throw(state, ["sushi", "bone", "bone", "blue", "sushi"])
    throw(state, ["sushi", "red", "red"], keep=(0, 4))
    assert state.set_aside == ["sushi", "sushi"]
    assert GAME.view(state, None)["result"] == {"sushi": 3, "bone": 0, "blue": 0, "red": 2}
    throw(state, ["sushi"], keep=(0, 1))
    assert state.set_aside == ["sushi", "sushi", "sushi", "red"]
    assert offered(state)["sushi"] == 4
    assert offered(state)["can_roll"] is False
    assert all(not isinstance(action, Roll) for action in GAME.legal_actions(state, 0))
    assert assert_refused(GAME, state, 0, Roll((0,))).code == "no_throws_left"


def test_a_second_throw_of_one_die_leaves_no_third_throw() -> None:
    state = table(sushi_row=[1], bone_row=[-1])
    throw(state, ["sushi", "sushi", "sushi", "sushi", "blue"])
    throw(state, ["blue"], keep=(0, 1, 2, 3))
    view = GAME.view(state, 0)
    assert view["options"] is not None
    assert view["throws"] == 2 and view["throws_left"] == 0 and view["options"]["can_roll"] is False
    assert assert_refused(GAME, state, 0, Roll((0,))).code == "no_dice_left"
    assert GAME.legal_actions(state, 0) == [ForcedTake()]


def test_the_player_may_throw_again_instead_of_taking() -> None:
    state = table()
    throw(state, ["sushi", "sushi", "bone", "blue", "red"])
    legal = GAME.legal_actions(state, 0)
    assert Take("sushi") in legal and Roll((3,)) in legal
    assert Roll((0, 1, 2, 3)) in legal and Roll((0, 1, 2, 3, 4)) not in legal and Roll() not in legal
    assert len([action for action in legal if isinstance(action, Roll)]) == 30


# ---------------------------------------------------------------- rulebook: taking


def test_two_sushi_three_bones_take_second_sushi_or_third_bone() -> None:
    state = table(sushi_row=[3, 5, 1, 1, 4, 2, 5], bone_row=[-4, -2, -2, -3, -1], turn=NICK)
    throw(state, ["bone", "sushi", "bone", "sushi", "bone"])
    view = GAME.view(state, None)
    assert view["options"] == {"sushi": 2, "bone": 3, "steal": None, "forced": False, "can_roll": True}
    takes = [action for action in GAME.legal_actions(state, NICK) if not isinstance(action, Roll)]
    assert takes == [Take("sushi"), Take("bone")]
    events = GAME.apply(state, NICK, Take("sushi"))
    assert events[0]["tile"] == 5 and events[0]["nth"] == 2
    assert events[1] == {"type": "turn", "seat": SOPHIA}
    assert state.sushi_row == [3, 1, 1, 4, 2, 5]  # the row closed its gap
    assert GAME.view(state, None)["sushi_piles"][NICK] == {"height": 1, "top": 5}


def test_three_bones_take_the_third_bone() -> None:
    state = table(sushi_row=[3, 5, 1, 1, 4, 2, 5], bone_row=[-4, -2, -2, -3, -1], turn=NICK)
    throw(state, ["bone", "sushi", "bone", "sushi", "bone"])
    GAME.apply(state, NICK, Take("bone"))
    assert state.bone_piles[NICK] == [-2] and state.bone_row == [-4, -2, -3, -1]


def test_a_row_shorter_than_the_dice_count_cannot_be_taken_from() -> None:
    state = table(sushi_row=[4, 2], bone_row=[-1, -2, -3])
    throw(state, ["sushi", "sushi", "sushi", "bone", "blue"])
    assert offered(state)["sushi"] is None
    error = assert_refused(GAME, state, 0, Take("sushi"))
    assert (error.code, error.params) == ("row_too_short", {"pile": "sushi", "wanted": 3, "length": 2})
    assert Take("bone") in GAME.legal_actions(state, 0)


def test_three_red_one_sushi_one_bone_after_the_third_throw() -> None:
    state = table(
        sushi_row=[3, 1, 1, 4, 2, 5],
        bone_row=[-1, -2, -3, -1],
        sushi_piles=[[], [6], [2]],
        bone_piles=[[-3], [-2, -4], []],
        turn=NICK,
    )
    throw(state, ["red", "red", "sushi", "blue", "blue"])
    throw(state, ["red", "blue", "sushi"], keep=(0, 1))
    throw(state, ["sushi", "bone"], keep=(0,))
    assert Counter(state.set_aside + state.thrown) == {"red": 3, "sushi": 1, "bone": 1}
    legal = GAME.legal_actions(state, NICK)
    assert legal == [Take("sushi"), Take("bone"), Steal(LUKE, 1)]  # Sophia has no bone to steal
    options = offered(state)
    assert options["steal"] == {"pile": "bone", "blind": False, "targets": [LUKE]}
    assert options["sushi"] == 1 and options["bone"] == 1
    assert assert_refused(GAME, state, NICK, Steal(SOPHIA, 1)).code == "pile_empty"
    assert assert_refused(GAME, state, NICK, Steal(NICK, 1)).code == "own_pile"
    assert assert_refused(GAME, state, NICK, ForcedTake()).code == "portion_available"
    events = GAME.apply(state, NICK, Steal(LUKE, 1))
    assert events[0] == {
        "type": "stole",
        "seat": NICK,
        "target": LUKE,
        "pile": "bone",
        "position": 1,
        "blind": False,
        "tile": -3,
    }
    assert state.bone_piles[NICK] == [-2, -4, -3] and state.bone_piles[LUKE] == []


def test_three_chopsticks_steal_only_the_top() -> None:
    state = table(sushi_row=[1], bone_row=[-1], sushi_piles=[[], [2, 6], []])
    throw(state, ["blue", "blue", "blue", "red", "red"])
    assert [a for a in GAME.legal_actions(state, 0) if isinstance(a, Steal)] == [Steal(NICK, 1)]
    error = assert_refused(GAME, state, 0, Steal(NICK, 2))
    assert (error.code, error.params) == ("top_only", {"position": 2})


def test_lukes_forced_take_of_the_minus_three() -> None:
    state = table(
        sushi_row=[4],
        bone_row=[-1, -2, -3, -1],
        sushi_piles=[[2], [5], [3]],
        bone_piles=[[-4], [-1], [-2]],
        turn=LUKE,
    )
    throw(state, ["sushi", "blue", "blue", "bone", "red"])
    assert offered(state)["forced"] is False  # throws are left
    assert GAME.view(state, None)["forced_tile"] is None
    assert assert_refused(GAME, state, LUKE, ForcedTake()).code == "can_still_roll"
    throw(state, ["blue", "sushi", "red"], keep=(0, 1))
    throw(state, ["sushi", "red"], keep=(0,))
    assert Counter(state.set_aside + state.thrown) == {"sushi": 2, "blue": 2, "red": 1}
    assert GAME.legal_actions(state, LUKE) == [ForcedTake()]
    assert GAME.view(state, None)["options"] == {
        "sushi": None,
        "bone": None,
        "steal": None,
        "forced": True,
        "can_roll": False,
    }
    assert GAME.view(state, None)["forced_tile"] == {"pile": "bone", "nth": 3, "tile": -3}
    assert assert_refused(GAME, state, LUKE, Take("sushi")).code == "row_too_short"
    assert GAME.default_action(state, LUKE) == ForcedTake()
    events = GAME.apply(state, LUKE, ForcedTake())
    assert events[0] == {"type": "took", "seat": LUKE, "pile": "bone", "nth": 3, "tile": -3, "forced": True}
    assert state.bone_row == [-1, -2, -1] and state.bone_piles[LUKE] == [-4, -3]


def test_forced_take_picks_the_leftmost_most_negative_bone() -> None:
    state = table(sushi_row=[5], bone_row=[-1, -3, -2, -3])
    throw(state, ["sushi", "sushi", "blue", "blue", "red"])
    throw(state, ["sushi", "red", "red"], keep=(0, 1))
    throw(state, ["sushi", "blue"], keep=(1,))
    assert GAME.apply(state, 0, ForcedTake())[0]["nth"] == 2
    assert state.bone_row == [-1, -2, -3]


def test_forced_take_without_bones_takes_the_lowest_sushi() -> None:
    state = table(sushi_row=[5, 2, 6], bone_row=[])
    throw(state, ["bone", "sushi", "sushi", "sushi", "sushi"])
    throw(state, ["bone"], keep=(1, 2, 3, 4))
    assert GAME.legal_actions(state, 0) == [ForcedTake()]
    assert GAME.view(state, None)["forced_tile"] == {"pile": "sushi", "nth": 2, "tile": 2}
    events = GAME.apply(state, 0, ForcedTake())
    assert events[0]["pile"] == "sushi" and events[0]["tile"] == 2
    assert state.sushi_row == [5, 6]


# ---------------------------------------------------------------- rulebook: stealing blind


def test_sophias_turn_four_blue_chopsticks_steal_nicks_bottom_sushi() -> None:
    state = table(
        sushi_row=[1, 4, 2, 5],
        bone_row=[-1, -2, -3, -1],
        sushi_piles=[[3], [5, 1, 4], []],
        bone_piles=[[-1], [-2, -1, -3], [-2]],
        turn=SOPHIA,
    )
    throw(state, ["sushi", "blue", "sushi", "bone", "red"])
    options = offered(state)
    assert (options["sushi"], options["bone"], options["steal"]) == (2, 1, None)

    throw(state, ["blue", "sushi", "blue", "bone"], keep=(1,))
    options = offered(state)
    assert (options["sushi"], options["bone"]) == (1, 1)
    assert options["steal"] == {"pile": "sushi", "blind": False, "targets": [LUKE, NICK]}
    assert assert_refused(GAME, state, SOPHIA, Steal(NICK, 3)).code == "top_only"

    throw(state, ["blue", "sushi"], keep=(0, 2))
    assert Counter(state.set_aside + state.thrown) == {"blue": 4, "sushi": 1}
    options = offered(state)
    assert options["sushi"] == 1
    assert options["steal"] == {"pile": "sushi", "blind": True, "targets": [LUKE, NICK]}
    steals = [a for a in GAME.legal_actions(state, SOPHIA) if isinstance(a, Steal)]
    assert steals == [Steal(LUKE, 1), Steal(NICK, 1), Steal(NICK, 2), Steal(NICK, 3)]
    error = assert_refused(GAME, state, SOPHIA, Steal(NICK, 4))
    assert (error.code, error.params) == ("no_such_position", {"position": 4, "height": 3})

    events = GAME.apply(state, SOPHIA, Steal(NICK, 3))  # the bottommost of three
    assert events[0] == {
        "type": "stole",
        "seat": SOPHIA,
        "target": NICK,
        "pile": "sushi",
        "position": 3,
        "blind": True,
        "tile": 5,
    }
    assert state.sushi_piles[NICK] == [1, 4] and state.sushi_piles[SOPHIA] == [5]
    view = GAME.view(state, NICK)
    assert view["last"] == events  # the blind steal shows the table what it found
    assert view["sushi_piles"][NICK] == {"height": 2, "top": 4}
    assert view["sushi_piles"][SOPHIA] == {"height": 1, "top": 5}
    assert view["to_move"] == [LUKE]


# ---------------------------------------------------------------- hidden piles


def test_view_shows_only_height_and_top_of_each_pile_even_to_the_owner() -> None:
    state = table(sushi_piles=[[6, 5, 4], [], []], bone_piles=[[-4, -3], [-1], []])
    for seat in (None, 0, 1):
        view = GAME.view(state, seat)
        assert view["sushi_piles"][0] == {"height": 3, "top": 4}
        assert view["bone_piles"][0] == {"height": 2, "top": -3}
        assert view["scores"] == [0, 0, 0]  # running scores would give the buried tiles away
        assert view["final_piles"] is None
        assert GAME.view(bury(state), seat) == view
    assert GAME.view(state, 0)["seat"] == 0


def test_the_view_header_follows_the_turn() -> None:
    state = table(players=2, sushi_row=[3], bone_row=[-2])
    events = throw(state, ["sushi", "blue", "blue", "red", "red"])
    view = GAME.view(state, 1)
    assert (view["seat"], view["turn"], view["phase"], view["last"]) == (1, 0, "choose", events)
    events = GAME.apply(state, 0, Take("sushi"))
    view = GAME.view(state, None)
    assert (view["turn"], view["to_move"], view["phase"], view["last"]) == (1, [1], "roll", events)
    throw(state, ["bone", "blue", "blue", "red", "red"])
    events = GAME.apply(state, 1, Take("bone"))
    view = GAME.view(state, None)
    assert (view["turn"], view["to_move"], view["phase"], view["over"]) == (None, [], "over", True)
    assert view["last"] == events and events[-1]["type"] == "game_over"
    assert view["ranking"] == GAME.ranking(state) and view["round"] is None


def test_every_take_puts_the_tile_face_up_on_top() -> None:
    state = table(sushi_row=[6, 1], bone_row=[-1], sushi_piles=[[2, 3], [], []])
    throw(state, ["sushi", "bone", "bone", "blue", "red"])
    GAME.apply(state, 0, Take("sushi"))
    assert GAME.view(state, 2)["sushi_piles"][0] == {"height": 3, "top": 6}


# ---------------------------------------------------------------- end and scoring


@pytest.mark.parametrize(
    ("sushi_pile", "bone_pile", "score"),
    [
        ([1, 6, 4, 1, 5], [-3, -2, -1, -2], 4),  # Luke: the +5 on top sticks out
        ([3, 5, 4], [-1, -4, -1, -3, -1], 2),  # Nick: more bones, all sushi count
        ([2, 6, 3, 2], [-2, -1, -2], 6),  # Sophia: the +2 on top sticks out
        ([], [], 0),
        ([6, 6], [], 0),
        ([], [-4, -1], -5),
        ([1, 2, 3], [-1, -1, -1], 3),
        ([6, 1], [-1], 5),  # the bottom counts, the top goes
    ],
)
def test_score_piles(sushi_pile: list[int], bone_pile: list[int], score: int) -> None:
    assert score_piles(sushi_pile, bone_pile) == score


def test_rulebook_scoring_luke_4_nick_2_sophia_6() -> None:
    state = table(
        sushi_row=[],
        bone_row=[-1],
        sushi_piles=[[1, 6, 4, 1, 5], [3, 5, 4], [2, 6, 3, 2]],
        bone_piles=[[-3, -2, -1, -2], [-1, -4, -1, -3], [-2, -1, -2]],
        turn=NICK,
    )
    throw(state, ["bone", "sushi", "blue", "blue", "sushi"])
    events = GAME.apply(state, NICK, Take("bone"))
    assert events[-1] == {"type": "game_over", "scores": [4, 2, 6], "ranking": [2, 3, 1]}
    assert GAME.is_over(state) and GAME.to_move(state) == frozenset()
    assert GAME.scores(state) == [4, 2, 6] and GAME.ranking(state) == [2, 3, 1]
    view = GAME.view(state, None)
    assert view["over"] and view["scores"] == [4, 2, 6] and view["options"] is None
    assert view["final_piles"] is not None
    assert view["final_piles"][LUKE] == {
        "sushi_pile": [1, 6, 4, 1, 5],
        "bone_pile": [-3, -2, -1, -2],
        "counted": 4,
    }
    assert all(GAME.legal_actions(state, seat) == [] for seat in range(3))
    assert assert_refused(GAME, state, NICK, Roll()).code == "game_over"


def test_the_game_ends_only_when_the_middle_is_empty() -> None:
    state = table(players=2, sushi_row=[3], bone_row=[-2])
    throw(state, ["sushi", "blue", "blue", "red", "red"])
    events = GAME.apply(state, 0, Take("sushi"))
    assert not GAME.is_over(state) and events[-1] == {"type": "turn", "seat": 1}
    throw(state, ["bone", "blue", "blue", "red", "red"])
    GAME.apply(state, 1, Take("bone"))
    assert GAME.is_over(state)


def test_a_steal_does_not_end_the_game() -> None:
    state = table(players=2, sushi_row=[3], bone_row=[], sushi_piles=[[], [4]])
    throw(state, ["blue", "blue", "blue", "red", "red"])
    throw(state, ["red", "red"], keep=(0, 1, 2))
    throw(state, ["red"], keep=(0,))
    assert GAME.legal_actions(state, 0) == [Steal(1, 1)]  # a steal is possible, so no forced take
    GAME.apply(state, 0, Steal(1, 1))
    assert not GAME.is_over(state) and state.sushi_row == [3]


def test_tied_scores_share_a_rank() -> None:
    state = table(
        players=4,
        sushi_row=[],
        bone_row=[],
        sushi_piles=[[5], [3, 2], [1], [6]],
        bone_piles=[[-1], [-2, -1], [-4], [-2]],
    )
    assert GAME.scores(state) == [4, 2, -3, 4]
    assert GAME.ranking(state) == [1, 3, 4, 1]


def notes_of(state: SushizockState) -> ResultNotes:
    """What the results message adds under each player's score (the renderer, from the final view)."""
    names = ["luke", "nick", "sophia", "dave", "erin"][: state.players]
    seats = [Seat(100 + seat, name) for seat, name in enumerate(names)]
    record = TableRecord(
        guild_id=1, channel_id=10, game_id=GAME.id, host_id=100, status="finished", seats=seats
    )
    return sushizock_render.result_notes(TableContext(record, GAME, state))


def test_the_results_explain_the_rulebooks_scoring_pile_by_pile() -> None:
    state = table(
        sushi_row=[],
        bone_row=[],
        sushi_piles=[[1, 6, 4, 1, 5], [3, 5, 4], [2, 6, 3, 2]],
        bone_piles=[[-3, -2, -1, -2], [-1, -4, -1, -3, -1], [-2, -1, -2]],
    )
    state.over = True
    assert GAME.scores(state) == [4, 2, 6]
    notes = notes_of(state)
    # Luke: four sushi count (+12), the top +5 sticks out above his four bones (−8): 4 points.
    assert notes.breakdown[LUKE] == (
        "🍣 +1 +6 +4 +1 = **+12** (~~+5~~: higher than the bone pile of 4 tiles, worthless)"
        " · 🦴 −3 −2 −1 −2 = **−8**"
    )
    assert notes.breakdown[NICK] == "🍣 +3 +5 +4 = **+12** · 🦴 −1 −4 −1 −3 −1 = **−10**"
    assert notes.breakdown[SOPHIA] == (
        "🍣 +2 +6 +3 = **+11** (~~+2~~: higher than the bone pile of 3 tiles, worthless)"
        " · 🦴 −2 −1 −2 = **−5**"
    )
    assert notes.tie_break is None


def test_empty_piles_and_sushi_without_bones_are_explained() -> None:
    state = table(players=2, sushi_row=[], bone_row=[], sushi_piles=[[4, 2], []], bone_piles=[[], [-1]])
    state.over = True
    assert GAME.scores(state) == [0, -1]
    notes = notes_of(state)
    assert notes.breakdown[0] == "🍣 **0** (~~+4 +2~~: no bones, so no sushi counts) · 🦴 no bones"
    assert notes.breakdown[1] == "🍣 no sushi · 🦴 −1 = **−1**"


def test_a_tie_stands_in_sushizock_and_no_tie_break_is_named() -> None:
    state = table(
        players=4,
        sushi_row=[],
        bone_row=[],
        sushi_piles=[[5], [3, 2], [1], [6]],
        bone_piles=[[-1], [-2, -1], [-4], [-2]],
    )
    state.over = True
    assert GAME.scores(state) == [4, 2, -3, 4] and GAME.ranking(state) == [1, 3, 4, 1]
    notes = notes_of(state)
    assert notes.breakdown[0] == "🍣 +5 = **+5** · 🦴 −1 = **−1**"
    assert notes.breakdown[3] == "🍣 +6 = **+6** · 🦴 −2 = **−2**"
    assert notes.tie_break is None


def test_no_notes_before_the_piles_are_turned_over() -> None:
    assert notes_of(table()) == ResultNotes()


# ---------------------------------------------------------------- refusals


def test_only_the_seat_to_move_may_act() -> None:
    state = table()
    assert GAME.legal_actions(state, 1) == []
    error = assert_refused(GAME, state, 1, Roll())
    assert (error.code, error.params) == ("not_your_turn", {"seat": 1})


def test_nothing_but_a_roll_before_the_first_throw() -> None:
    state = table(sushi_piles=[[], [3], []])
    assert assert_refused(GAME, state, 0, Take("sushi")).code == "not_thrown"
    assert assert_refused(GAME, state, 0, Steal(1, 1)).code == "not_thrown"
    assert assert_refused(GAME, state, 0, ForcedTake()).code == "not_thrown"
    assert assert_refused(GAME, state, 0, Roll((0,))).code == "first_throw_all_dice"


@pytest.mark.parametrize(
    ("action", "code"),
    [
        (Roll(()), "must_set_aside"),
        (Roll((0, 1, 2, 3, 4)), "must_throw_one"),
        (Roll((5,)), "no_such_die"),
        (Roll((-1,)), "no_such_die"),
        (Roll((1, 0)), "keep_not_ascending"),
        (Roll((2, 2)), "keep_not_ascending"),
        (Take("tuna"), "no_such_pile"),
        (Take("bone"), "none_thrown"),
        (Steal(1, 1), "no_steal"),
    ],
)
def test_illegal_actions_after_a_throw_are_refused_untouched(action: object, code: str) -> None:
    state = table(sushi_piles=[[], [3], []])
    throw(state, ["sushi", "sushi", "blue", "blue", "red"])
    assert assert_refused(GAME, state, 0, action).code == code


def test_a_steal_names_a_real_seat() -> None:
    state = table(sushi_piles=[[], [3], []])
    throw(state, ["blue", "blue", "blue", "blue", "red"])
    assert assert_refused(GAME, state, 0, Steal(3, 1)).code == "no_such_seat"
    assert assert_refused(GAME, state, 0, Steal(1, 0)).code == "no_such_position"


def test_foreign_and_malformed_actions_are_refused() -> None:
    with pytest.raises(IllegalAction) as caught:
        GAME.decode_action({"type": "pick", "card": "tempura"})
    assert caught.value.code == "unknown_action"
    with pytest.raises(IllegalAction) as caught:
        GAME.decode_action({"type": "steal"})
    assert caught.value.code == "malformed_action"
    assert GAME.decode_action({"type": "roll", "keep": [0, 2]}) == Roll((0, 2))
    assert GAME.encode_action(Steal(2, 3)) == {"type": "steal", "target": 2, "position": 3}


# ---------------------------------------------------------------- the computer player


def test_default_action_takes_a_big_sushi_at_once() -> None:
    state = table(sushi_row=[6, 1, 1], bone_row=[-4, -1])
    throw(state, ["sushi", "bone", "bone", "blue", "red"])
    assert GAME.default_action(state, 0) == Take("sushi")


def test_default_action_keeps_the_dice_that_help_when_nothing_good_is_takeable() -> None:
    state = table(sushi_row=[1, 1, 6, 2], bone_row=[-4, -3, -1])
    throw(state, ["sushi", "bone", "red", "sushi", "blue"])  # only +1 or -4 on offer
    before = GAME.dump(state)
    action = GAME.default_action(state, 0)
    assert GAME.dump(state) == before
    assert action == Roll((0, 3))  # the two sushi, on the way to the third sushi, the +6


def test_default_action_steals_a_big_top_sushi() -> None:
    state = table(sushi_row=[1, 1, 1], bone_row=[-4], sushi_piles=[[], [2, 6], [3]])
    throw(state, ["blue", "blue", "blue", "bone", "sushi"])
    assert GAME.default_action(state, 0) == Steal(NICK, 1)


def test_default_action_with_no_throw_left_takes_the_best_portion() -> None:
    state = table(sushi_row=[2, 5], bone_row=[-3, -1])
    throw(state, ["sushi", "bone", "red", "blue", "blue"])
    throw(state, ["red", "blue", "blue"], keep=(0, 1))
    throw(state, ["blue", "red"], keep=(0,))
    assert GAME.legal_actions(state, 0) == [Take("sushi"), Take("bone")]
    assert GAME.default_action(state, 0) == Take("sushi")


@settings(max_examples=20, deadline=None)
@given(players=st.integers(2, 5), seed=st.integers(0, 2**32))
def test_default_play_is_always_legal_and_ends(players: int, seed: int) -> None:
    state = GAME.new(players, seed)
    for _ in range(2_000):
        if GAME.is_over(state):
            return
        seat = state.turn
        action = GAME.default_action(state, seat)
        assert action in GAME.legal_actions(state, seat)
        GAME.apply(state, seat, action)
    raise AssertionError("default play did not end")


# ---------------------------------------------------------------- properties


@settings(max_examples=25, deadline=None)
@given(players=st.integers(2, 5), seed=st.integers(0, 2**32))
def test_random_play_ends_conserves_tiles_roundtrips_and_hides_piles(players: int, seed: int) -> None:
    state = random_playout(GAME, players, seed, check=check)
    assert GAME.is_over(state) and not state.sushi_row and not state.bone_row
    assert GAME.scores(state) == [
        score_piles(state.sushi_piles[s], state.bone_piles[s]) for s in range(players)
    ]


def random_action(chooser: random.Random, players: int) -> object:
    kind = chooser.randrange(4)
    if kind == 0:
        size = chooser.randrange(6)
        return Roll(tuple(chooser.randrange(-1, 6) for _ in range(size)))
    if kind == 1:
        return Take(chooser.choice(["sushi", "bone", "tuna"]))
    if kind == 2:
        return Steal(chooser.randrange(-1, players + 1), chooser.randrange(0, 8))
    return ForcedTake()


@settings(max_examples=25, deadline=None)
@given(players=st.integers(2, 5), seed=st.integers(0, 2**32))
def test_apply_refuses_exactly_what_legal_actions_leaves_out(players: int, seed: int) -> None:
    chooser = random.Random(seed)
    state = GAME.new(players, seed)
    while not GAME.is_over(state):
        seat = state.turn
        legal = GAME.legal_actions(state, seat)
        for _ in range(5):
            action = random_action(chooser, players)
            if action not in legal:
                assert_refused(GAME, state, seat, action)
            other = chooser.choice([s for s in range(players) if s != seat])
            assert assert_refused(GAME, state, other, action).code == "not_your_turn"
        for action in chooser.sample(legal, min(3, len(legal))):
            GAME.apply(GAME.load(GAME.dump(state)), seat, action)
        GAME.apply(state, seat, chooser.choice(legal))
