"""Rock the Bock: scoring, turns, caps, failed throws, rounds, and the protocol properties."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cogs.games.rockthebock import render as rockthebock_render
from cogs.kit.words.bidi import plain
from cogs.tables.context import TableContext
from cogs.tables.gamecog import ResultNotes
from rules.engine import IllegalAction
from rules.rockthebock.game import (
    CAP_BOCKS,
    CAP_GOATS,
    CAP_WOLVES,
    COLOURS,
    GAME,
    SYMBOLS,
    Choose,
    RockTheBockState,
    Roll,
    score_round,
)
from storage.tables import Seat, TableRecord
from tests.rules.conformance import assert_refused, random_playout, roundtrip


def force_throw(state: RockTheBockState, **counts: int) -> None:
    """Put a known throw in front of the acting seat, as if it had just rolled."""
    dice = SYMBOLS - state.struck[state.turn]
    assert sum(counts.values()) == dice, "a throw uses every die the seat may take"
    state.throw = [counts.get(colour, 0) for colour in COLOURS]


def play(
    state: RockTheBockState, colour: str, target: int | None = None, **counts: int
) -> list[dict[str, Any]]:
    """The acting seat throws `counts` and uses `colour`."""
    force_throw(state, **counts)
    return GAME.apply(state, state.turn, Choose(colour, target))


def finish_round(state: RockTheBockState) -> None:
    """Every seat still in strikes all its symbols with white (bocks)."""
    start = state.round
    while state.round == start and not state.over:
        play(state, "white", white=SYMBOLS - state.struck[state.turn])


# ---------------------------------------------------------------- scoring


@pytest.mark.parametrize(
    ("bocks", "wolves", "goats", "expected"),
    [
        (3, 1, 5, 5),  # bock lead: +1 per own goat
        (1, 3, 5, -5),  # wolf lead: -1 per own goat
        (2, 2, 5, 0),  # equal: nothing
        (0, 0, 7, 0),  # no bocks and no wolves is equal too
        (5, 0, 0, 0),  # no goats: nothing
        (0, 4, 0, 0),
        (1, 0, 12, 12),
        (10, 12, 12, -12),
        (10, 9, 1, 1),
    ],
)
def test_score_round(bocks: int, wolves: int, goats: int, expected: int) -> None:
    assert score_round(bocks, wolves, goats) == expected


# ---------------------------------------------------------------- setup


@pytest.mark.parametrize("players", [1, 5, 0])
def test_bad_player_count(players: int) -> None:
    with pytest.raises(ValueError):
        GAME.new(players, 1)


def test_unknown_option() -> None:
    with pytest.raises(ValueError):
        GAME.new(2, 1, {"speed": "fast"})


def test_round_one_starts_with_seat_zero_and_ten_dice() -> None:
    state = GAME.new(3, 7)
    view = GAME.view(state, None)
    assert view["to_move"] == [0]
    assert view["round"] == 1
    assert view["dice"] == 10
    assert view["throw"] is None
    assert view["colours"] == ["red", "blue", "green"]
    assert view["unowned"] == ["yellow"]
    assert GAME.legal_actions(state, 0) == [Roll()]
    events = GAME.apply(state, 0, Roll())
    assert events[0]["type"] == "rolled" and events[0]["dice"] == 10
    assert sum(events[0]["throw"].values()) == 10


def test_view_header() -> None:
    state = GAME.new(3, 7)
    view = GAME.view(state, None)
    assert view["seat"] is None and GAME.view(state, 2)["seat"] == 2
    assert view["turn"] == 0 and view["round"] == 1 and view["phase"] == "roll"
    assert view["over"] is False and view["scores"] == [0, 0, 0] and view["ranking"] is None
    assert view["last"] == []
    force_throw(state, white=4, red=6)
    assert GAME.view(state, None)["phase"] == "choose"
    GAME.apply(state, 0, Choose("red"))
    view = GAME.view(state, None)
    assert view["phase"] == "roll" and view["turn"] == 1
    assert [event["type"] for event in view["last"]] == ["marked", "struck", "turn"]
    state.round, state.round_scores = 3, [[1, 2], [3, 4], [0, 0]]
    finish_round(state)  # seat 0's six goats score under its four bocks
    view = GAME.view(state, None)
    assert view["phase"] == "over" and view["turn"] is None and view["round"] == 3
    assert view["scores"] == [9, 7, 0] and view["to_move"] == [] and view["ranking"] == [1, 2, 3]
    assert [event["type"] for event in view["last"]] == ["round_scored", "game_over"]


# ---------------------------------------------------------------- a turn


def test_bocks_go_on_own_sheet_and_strike_only_dice_used() -> None:
    state = GAME.new(2, 1)
    events = play(state, "white", white=3, grey=2, red=5)
    assert state.bocks == [3, 0]
    # Three dice used, three symbols struck: not all ten thrown.
    assert state.struck == [3, 0]
    assert {"type": "struck", "seat": 0, "count": 3, "total": 3} in events
    assert state.turn == 1
    assert GAME.view(state, None)["dice"] == 10
    # Next turn of seat 0 throws only the 7 dice left.
    play(state, "blue", blue=10)
    assert GAME.view(state, None)["dice"] == 7


def test_own_goats_wolves_and_foreign_goats() -> None:
    state = GAME.new(4, 1)
    play(state, "red", red=4, white=6)
    assert state.goats == [4, 0, 0, 0]
    play(state, "grey", 0, grey=2, blue=8)  # seat 1 sends wolves to seat 0
    assert state.wolves == [2, 0, 0, 0]
    play(state, "yellow", yellow=3, green=7)  # seat 2 gives goats to yellow = seat 3
    assert state.goats == [4, 0, 0, 3]
    assert state.struck == [4, 2, 3, 0]
    assert state.last is not None and state.last["receiver"] == 3


def test_wolves_choices_offer_every_other_seat() -> None:
    state = GAME.new(4, 1)
    force_throw(state, grey=10)
    assert GAME.legal_actions(state, 0) == [Choose("grey", 1), Choose("grey", 2), Choose("grey", 3)]


@pytest.mark.parametrize(
    ("colour", "sheet", "cap", "before", "dice", "marked"),
    [
        ("white", "bocks", CAP_BOCKS, 8, 4, 2),
        ("grey", "wolves", CAP_WOLVES, 11, 3, 1),
        ("red", "goats", CAP_GOATS, 12, 5, 0),
        ("red", "goats", CAP_GOATS, 2, 10, 10),
    ],
)
def test_caps_lose_the_excess(colour: str, sheet: str, cap: int, before: int, dice: int, marked: int) -> None:
    state = GAME.new(2, 1)
    if colour == "grey":
        state.turn = 1  # seat 1 sends wolves to seat 0
    getattr(state, sheet)[0] = before
    seat = state.turn
    rest = SYMBOLS - dice
    counts = {colour: dice} | ({"blue": rest} if colour != "blue" and rest else {})
    events = play(state, colour, 0 if colour == "grey" else None, **counts)
    assert getattr(state, sheet)[0] == min(cap, before + dice) == before + marked
    mark = events[0]
    assert mark["type"] == "marked" and mark["marked"] == marked and mark["lost"] == dice - marked
    # A choice that marks little or nothing still strikes every die used.
    assert state.struck[seat] == dice


def test_failed_throw_with_two_players() -> None:
    # Seat 0 has one symbol left; find a seed whose single die shows an unowned colour.
    for seed in range(200):
        state = GAME.new(2, seed)
        state.struck[0] = 9
        events = GAME.apply(state, 0, Roll())
        if events[-1]["type"] != "rolled":
            break
    else:
        pytest.fail("no failing throw found")
    assert set(events[0]["throw"]) <= {"green", "yellow"}
    assert state.struck == [9, 0]  # nothing struck
    assert state.throw == []
    assert GAME.to_move(state) == frozenset({1})  # the turn passed
    assert state.last is not None and state.last["type"] == "throw_failed"


def test_failed_throw_when_everyone_else_is_out_gives_the_same_seat_another_turn() -> None:
    for seed in range(200):
        state = GAME.new(3, seed)
        state.struck = [9, 10, 10]
        events = GAME.apply(state, 0, Roll())
        if events[-1]["type"] != "rolled":
            break
    else:
        pytest.fail("no failing throw found")
    assert events[0]["throw"] == {"yellow": 1}
    assert GAME.to_move(state) == frozenset({0})
    assert GAME.legal_actions(state, 0) == [Roll()]


def test_unowned_colour_shown_disabled_with_reason() -> None:
    state = GAME.new(2, 1)
    force_throw(state, white=2, green=3, yellow=5)
    view = GAME.view(state, 0)
    assert view["throw"] == [
        {"colour": "white", "count": 2, "refusal": None},
        {"colour": "green", "count": 3, "refusal": "unowned_colour"},
        {"colour": "yellow", "count": 5, "refusal": "unowned_colour"},
    ]
    assert GAME.legal_actions(state, 0) == [Choose("white")]


# ---------------------------------------------------------------- out of the round


def test_player_out_of_round_still_receives_wolves_and_goats() -> None:
    state = GAME.new(3, 1)
    play(state, "white", white=10)  # seat 0 is out
    assert GAME.view(state, None)["sheets"][0]["out"]
    play(state, "grey", 0, grey=4, white=6)  # seat 1 sends wolves to seat 0
    play(state, "red", red=2, white=8)  # seat 2 gives red goats to seat 0
    assert state.wolves[0] == 4 and state.goats[0] == 2
    assert state.struck[0] == SYMBOLS


def test_players_who_are_out_are_skipped() -> None:
    state = GAME.new(3, 1)
    state.struck[1] = SYMBOLS
    play(state, "white", white=10)
    # Seat 0 is out now too: seat 2 plays, then seat 2 again.
    assert GAME.to_move(state) == frozenset({2})
    play(state, "white", white=4, red=6)
    assert GAME.to_move(state) == frozenset({2})


def test_round_ends_when_all_are_out_and_next_round_rotates_start() -> None:
    state = GAME.new(3, 1)
    play(state, "red", red=5, white=5)
    play(state, "white", white=10)
    play(state, "white", white=10)
    play(state, "white", white=5)  # seat 0 out: everyone is out
    assert state.round == 2
    assert state.round_scores == [[5], [0], [0]]  # seat 0: 5 bocks over 0 wolves, 5 goats
    assert GAME.to_move(state) == frozenset({1})
    assert state.bocks == [0, 0, 0] and state.struck == [0, 0, 0]
    assert state.last is not None and state.last["type"] == "round_scored"


def test_round_scores_at_round_end() -> None:
    state = GAME.new(2, 1)
    play(state, "red", red=4, grey=6)  # seat 0: 4 goats
    play(state, "grey", 0, grey=3, white=7)  # seat 1: wolves 3 to seat 0
    play(state, "white", white=2, red=4)  # seat 0: 2 bocks (wolves lead)
    play(state, "blue", blue=7)  # seat 1: 7 goats, out, no bocks, no wolves
    events = play(state, "white", white=4)  # seat 0: 6 bocks vs 3 wolves, out
    scored = next(event for event in events if event["type"] == "round_scored")
    assert scored["scores"] == [4, 0]
    # The event keeps the finished sheets, which the next round wipes.
    assert (scored["bocks"], scored["wolves"], scored["goats"]) == ([6, 0], [3, 0], [4, 7])
    assert GAME.scores(state) == [4, 0]
    assert GAME.view(state, None)["sheets"][0]["round_scores"] == [4]


def test_start_player_rotates_each_round() -> None:
    state = GAME.new(3, 1)
    starts = []
    for _ in range(3):
        starts.append(state.turn)
        finish_round(state)
    assert starts == [0, 1, 2]
    assert state.over


def three_rounds_to_a_tie() -> tuple[RockTheBockState, list[dict[str, Any]]]:
    """A whole two-player game that ends 11 to 11: the state, and the events of its last choice."""
    state = GAME.new(2, 1)
    # Round 1, seat 0 starts.
    play(state, "red", red=3, white=7)  # seat 0: 3 goats
    play(state, "blue", blue=2, white=8)  # seat 1: 2 goats
    play(state, "grey", 1, grey=6, white=1)  # seat 0: 6 wolves to seat 1
    play(state, "red", red=8)  # seat 1: 8 goats to seat 0, out
    play(state, "white", white=1)  # seat 0: 1 bock, out
    assert state.round_scores == [[11], [-2]]
    # Round 2, seat 1 starts.
    play(state, "blue", blue=4, white=6)  # seat 1: 4 goats
    play(state, "grey", 1, grey=1, red=9)  # seat 0: 1 wolf to seat 1
    play(state, "white", white=6)  # seat 1: 6 bocks, out
    play(state, "red", red=9)  # seat 0: 9 goats, no bocks, no wolves, out
    assert state.round_scores == [[11, 0], [-2, 4]]
    # Round 3, seat 0 starts.
    play(state, "white", white=10)
    play(state, "blue", blue=9, white=1)
    events = play(state, "white", white=1)
    return state, events


def test_three_round_totals_and_shared_ranks() -> None:
    state, events = three_rounds_to_a_tie()
    assert state.round_scores == [[11, 0, 0], [-2, 4, 9]]
    assert state.over and GAME.is_over(state)
    assert GAME.scores(state) == [11, 11]
    assert GAME.ranking(state) == [1, 1]
    assert events[-1] == {"type": "game_over", "scores": [11, 11], "ranking": [1, 1]}
    view = GAME.view(state, None)
    assert view["over"] and view["to_move"] == [] and view["ranking"] == [1, 1]
    assert assert_refused(GAME, state, 0, Roll()).code == "game_over"


def test_ranking_with_different_totals() -> None:
    state = GAME.new(3, 1)
    state.round_scores = [[1, 2, 3], [6, 0, 0], [-1, 0, 0]]
    assert GAME.scores(state) == [6, 6, -1]
    assert GAME.ranking(state) == [1, 1, 3]


# ---------------------------------------------------------------- the results, explained


def table_of(state: RockTheBockState, computer: int | None = None) -> TableContext:
    """The state at a table of alice, bob, ... (one of them played by a computer, if asked)."""
    names = ["alice", "bob", "carol", "dave"][: state.players]
    seats = [Seat(100 + seat, name, computer=seat == computer) for seat, name in enumerate(names)]
    status = "finished" if state.over else "playing"
    record = TableRecord(guild_id=1, channel_id=10, game_id=GAME.id, host_id=100, status=status, seats=seats)
    return TableContext(record, GAME, state)


def test_a_tie_stands_and_each_total_is_broken_down_by_round() -> None:
    state, _ = three_rounds_to_a_tie()
    assert GAME.ranking(state) == [1, 1]  # equal totals share a rank: nothing breaks the tie
    view = GAME.view(state, None)
    assert [sheet["round_scores"] for sheet in view["sheets"]] == [[11, 0, 0], [-2, 4, 9]]
    # The last round, which no announcement tells (the results close the game), comes with its reason.
    assert rockthebock_render.result_notes(table_of(state)) == ResultNotes(
        breakdown={
            0: "Round 1: **+11** · Round 2: **0** · Round 3: 🐏 10 (full) > 🐺 0 → 🐐 0 × +1 = **0**",
            1: "Round 1: **−2** · Round 2: **+4** · Round 3: 🐏 1 > 🐺 0 → 🐐 9 × +1 = **+9**",
        },
        tie_break=None,
    )


def test_the_last_round_is_left_to_the_results() -> None:
    state, events = three_rounds_to_a_tie()
    assert rockthebock_render.round_announcement(table_of(state), events) == []


def test_every_seat_is_explained_and_no_tie_break_is_named_with_different_totals() -> None:
    state = GAME.new(3, 1)
    state.round_scores = [[1, 2, 3], [6, 0, 0], [-1, 0, -2]]
    state.bocks, state.wolves, state.goats = [2, 0, 1], [1, 0, 4], [3, 5, 2]
    state.over = True
    assert GAME.ranking(state) == [1, 1, 3]
    notes = rockthebock_render.result_notes(table_of(state, computer=2))
    assert notes.breakdown == {
        0: "Round 1: **+1** · Round 2: **+2** · Round 3: 🐏 2 > 🐺 1 → 🐐 3 × +1 = **+3**",
        1: "Round 1: **+6** · Round 2: **0** · Round 3: 🐏 0 = 🐺 0 → 🐐 5 × 0 = **0**",
        2: "Round 1: **−1** · Round 2: **0** · Round 3: 🐏 1 < 🐺 4 → 🐐 2 × −1 = **−2**",
    }
    assert notes.tie_break is None


def test_a_computer_seat_is_named_and_a_human_told_by_name() -> None:
    state = GAME.new(2, 1)
    human, _ = rockthebock_render.board_embed(table_of(state))
    assert plain(human) == "🎲 <@100>'s turn: **Roll** 10 dice."
    computer, _ = rockthebock_render.board_embed(table_of(state, computer=0))
    assert computer == "🎲 🤖 alice is playing…"


def test_one_die_of_a_colour_reads_in_the_singular() -> None:
    state = GAME.new(2, 1)
    force_throw(state, white=1, grey=1, red=1, blue=2, green=5)
    content, embed = rockthebock_render.board_embed(table_of(state))
    assert plain(content) == "🎲 <@100>'s turn: choose one colour of the throw."
    assert embed.description == "\n".join(
        [
            "🎲 Throw of 10 dice: 🐏 bock ×1 · 🐺 wolf ×1 · 🟥 red goat ×1 · 🟦 blue goats ×2"
            " · 🟩 green goats ×5 — nobody plays green",
            "▶️ 🟥 alice: 🐏 0 = 🐺 0 → 🐐 0 × 0 = **0** · 🎲 10 left",
            "🟦 bob: 🐏 0 = 🐺 0 → 🐐 0 × 0 = **0** · 🎲 10 left",
        ]
    )


# ---------------------------------------------------------------- refusals


def test_refusals() -> None:
    state = GAME.new(2, 1)
    assert assert_refused(GAME, state, 1, Roll()).code == "not_your_turn"
    assert assert_refused(GAME, state, 0, Choose("white")).code == "not_rolled"
    force_throw(state, white=3, grey=2, green=5)
    assert assert_refused(GAME, state, 0, Roll()).code == "already_rolled"
    cases: list[tuple[Choose, str]] = [
        (Choose("red"), "not_thrown"),
        (Choose("green"), "unowned_colour"),
        (Choose("purple"), "unknown_colour"),
        (Choose("grey"), "target_required"),
        (Choose("grey", 0), "target_self"),
        (Choose("grey", 2), "no_such_seat"),
        (Choose("grey", -1), "no_such_seat"),
        (Choose("white", 1), "target_not_allowed"),
    ]
    for action, code in cases:
        assert assert_refused(GAME, state, 0, action).code == code, action
    assert assert_refused(GAME, state, 1, Choose("white")).code == "not_your_turn"


def test_decode_unknown_and_malformed_actions() -> None:
    with pytest.raises(IllegalAction) as caught:
        GAME.decode_action({"type": "steal"})
    assert caught.value.code == "unknown_action"
    with pytest.raises(IllegalAction) as caught:
        GAME.decode_action({"type": "choose"})
    assert caught.value.code == "malformed_action"
    assert GAME.decode_action({"type": "choose", "colour": "grey", "target": 2}) == Choose("grey", 2)


# ---------------------------------------------------------------- the computer player


def test_default_rolls_first() -> None:
    state = GAME.new(2, 1)
    assert GAME.default_action(state, 0) == Roll()


def test_default_takes_bocks_when_wolves_are_not_behind() -> None:
    state = GAME.new(2, 1)
    state.wolves[0], state.goats[0] = 3, 2
    force_throw(state, white=2, red=5, blue=3)
    assert GAME.default_action(state, 0) == Choose("white")


def test_default_takes_own_goats_under_a_bock_lead() -> None:
    state = GAME.new(2, 1)
    state.bocks[0] = 3
    force_throw(state, white=2, red=5, grey=3)
    assert GAME.default_action(state, 0) == Choose("red")


def test_default_sends_wolves_to_the_goat_rich_bock_leader() -> None:
    state = GAME.new(4, 1)
    state.bocks = [3, 2, 2, 1]
    state.goats = [0, 2, 6, 0]
    state.wolves = [2, 1, 1, 0]
    force_throw(state, grey=3, white=1, blue=2, green=4)
    assert GAME.default_action(state, 0) == Choose("grey", 2)


def test_default_gives_goats_to_a_wolf_ridden_owner() -> None:
    state = GAME.new(3, 1)
    state.bocks = [2, 0, 3]
    state.wolves = [1, 4, 0]
    force_throw(state, blue=5, green=5)
    assert GAME.default_action(state, 0) == Choose("blue")


def test_default_is_legal_and_does_not_mutate() -> None:
    for seed in range(20):
        state = GAME.new(3, seed)
        GAME.apply(state, 0, Roll())
        if not state.throw:
            continue
        before = json.dumps(GAME.dump(state), sort_keys=True)
        action = GAME.default_action(state, 0)
        assert json.dumps(GAME.dump(state), sort_keys=True) == before
        assert action in GAME.legal_actions(state, 0)


# ---------------------------------------------------------------- properties


def check(state: RockTheBockState) -> None:
    for seat in range(state.players):
        assert 0 <= state.struck[seat] <= SYMBOLS
        assert 0 <= state.bocks[seat] <= CAP_BOCKS
        assert 0 <= state.wolves[seat] <= CAP_WOLVES
        assert 0 <= state.goats[seat] <= CAP_GOATS
        assert len(state.round_scores[seat]) == (3 if state.over else state.round - 1)
    if state.throw:
        assert sum(state.throw) == SYMBOLS - state.struck[state.turn]
        assert GAME.legal_actions(state, state.turn), "a standing throw always has a choice"
    if not state.over:
        assert state.struck[state.turn] < SYMBOLS, "a seat that is out never has the turn"
    view = GAME.view(state, None)
    json.dumps(view)
    for seat in range(state.players):
        assert GAME.view(state, seat) == view | {"seat": seat}, "nothing is hidden"


@settings(max_examples=25, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32))
def test_view_last_is_what_the_last_action_did(players: int, seed: int) -> None:
    state = GAME.new(players, seed)
    chooser = random.Random(seed)
    while not GAME.is_over(state):
        (seat,) = GAME.to_move(state)
        events = GAME.apply(state, seat, chooser.choice(GAME.legal_actions(state, seat)))
        last = GAME.view(state, None)["last"]
        kinds = [event["type"] for event in events]
        if "round_scored" in kinds:
            # The choice that ended the round is not kept: the view starts at the scoring.
            assert last == events[kinds.index("round_scored") :]
        else:
            assert last == events
        assert GAME.view(state, None)["phase"] == (
            "over" if state.over else "choose" if state.throw else "roll"
        )


@settings(max_examples=25, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32))
def test_random_playout_ends(players: int, seed: int) -> None:
    state = random_playout(GAME, players, seed, check=check)
    assert GAME.is_over(state)
    assert all(len(rounds) == 3 for rounds in state.round_scores)


@settings(max_examples=10, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32))
def test_computer_players_finish(players: int, seed: int) -> None:
    state = GAME.new(players, seed)
    for _ in range(5_000):
        if GAME.is_over(state):
            break
        (seat,) = GAME.to_move(state)
        action = GAME.default_action(state, seat)
        assert action in GAME.legal_actions(state, seat)
        GAME.apply(state, seat, action)
        check(state)
    assert GAME.is_over(state)


ILLEGAL_CHOICES = (
    [Choose(colour) for colour in COLOURS]
    + [Choose("grey", target) for target in (None, -1, 0, 1, 2, 3, 4)]
    + [Choose("white", 0), Choose("pink"), Roll()]
)


@settings(max_examples=25, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32), steps=st.integers(0, 120))
def test_everything_else_is_refused(players: int, seed: int, steps: int) -> None:
    state = GAME.new(players, seed)
    chooser = random.Random(seed)
    for _ in range(steps):
        if GAME.is_over(state):
            break
        (seat,) = GAME.to_move(state)
        GAME.apply(state, seat, chooser.choice(GAME.legal_actions(state, seat)))
    state = roundtrip(GAME, state)
    for seat in range(players):
        legal = GAME.legal_actions(state, seat)
        for action in ILLEGAL_CHOICES:
            if action in legal:
                copy = GAME.load(GAME.dump(state))
                GAME.apply(copy, seat, action)
            else:
                assert_refused(GAME, state, seat, action)
