"""Sushi Go! rules: scoring tables, turns, chopsticks, rounds, hidden hands, the conformance playouts
and how the results are explained."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cogs.games.sushigo import render as sushigo_render
from cogs.tables.context import TableContext
from cogs.tables.gamecog import ResultNotes
from rules.engine import IllegalAction
from rules.sushigo.game import GAME, HAND_SIZE
from rules.sushigo.scoring import CATEGORIES, DECK, round_breakdown, score_puddings, score_round, wasabi_slots
from rules.sushigo.state import Pick, SushiGoState
from storage.tables import Seat, TableRecord
from tests.rules.conformance import assert_refused, random_playout, roundtrip


def table(players: int, hands: list[list[str]], tableaux: list[list[str]] | None = None) -> SushiGoState:
    """A fresh game whose current hands (and tableaux) are replaced; the deck keeps the rest."""
    state = GAME.new(players, seed=1)
    state.hands = [list(hand) for hand in hands]
    state.tableaux = [list(t) for t in tableaux] if tableaux else [[] for _ in range(players)]
    return state


def everyone_picks(state: SushiGoState, picks: list[Pick]) -> list[dict]:
    events: list[dict] = []
    for seat, pick in enumerate(picks):
        events += GAME.apply(state, seat, pick)
    return events


def all_cards(state: SushiGoState) -> Counter[str]:
    cards = Counter(state.deck) + Counter(state.discard)
    for seat in range(state.players):
        cards += Counter(state.hands[seat]) + Counter(state.tableaux[seat])
        pick = state.picks[seat]
        if pick is not None:
            cards += Counter(pick.cards)
    cards["pudding"] += sum(state.puddings)
    return cards


def check_invariants(state: SushiGoState) -> None:
    assert all_cards(state) == Counter(DECK)
    assert sum(DECK.values()) == 108
    if not state.over:
        # every hand held the same number of cards at the start of the turn (a pick has left its hand)
        picked = [len(pick.cards) if pick else 0 for pick in state.picks]
        sizes = {len(hand) + taken for hand, taken in zip(state.hands, picked, strict=True)}
        assert len(sizes) == 1 and 2 <= sizes.pop() <= HAND_SIZE[state.players]
        assert GAME.to_move(state) == {seat for seat, pick in enumerate(state.picks) if pick is None}
    rounds = [sum(points[seat]["total"] for points in state.round_points) for seat in range(state.players)]
    assert GAME.scores(state) == [r + p for r, p in zip(rounds, state.pudding_points, strict=True)]


# ---------------------------------------------------------------- scoring tables, one seat


@pytest.mark.parametrize(
    ("tableau", "points"),
    [
        ([], 0),
        (["tempura"], 0),
        (["tempura"] * 2, 5),
        (["tempura"] * 3, 5),
        (["tempura"] * 4, 10),
        (["sashimi"], 0),
        (["sashimi"] * 2, 0),
        (["sashimi"] * 3, 10),
        (["sashimi"] * 5, 10),
        (["sashimi"] * 6, 20),
        (["dumpling"], 1),
        (["dumpling"] * 2, 3),
        (["dumpling"] * 3, 6),
        (["dumpling"] * 4, 10),
        (["dumpling"] * 5, 15),
        (["dumpling"] * 7, 15),
        (["egg"], 1),
        (["salmon"], 2),
        (["squid"], 3),
        (["wasabi"], 0),
        (["wasabi", "squid"], 9),
        (["wasabi", "salmon"], 6),
        (["wasabi", "egg"], 3),
        (["squid", "wasabi"], 3),
        (["wasabi", "egg", "squid"], 6),
        (["wasabi", "wasabi", "salmon", "squid"], 15),
        (["wasabi", "egg", "wasabi", "squid"], 12),
        (["salmon", "wasabi", "wasabi", "squid"], 11),
        (["chopsticks"], 0),
        (["pudding", "pudding"], 0),
        (
            ["tempura", "tempura", "sashimi", "sashimi", "sashimi", "dumpling", "dumpling", "wasabi", "egg"],
            21,
        ),
    ],
)
def test_set_and_nigiri_points(tableau: list[str], points: int) -> None:
    # a second seat without maki so that maki never interferes
    assert score_round([tableau, []]) == [points, 0]


# ---------------------------------------------------------------- maki


@pytest.mark.parametrize(
    ("tableaux", "points"),
    [
        ([["maki1"], ["tempura"]], [6, 0]),  # a lone maki player takes 6
        ([["maki1"], []], [6, 0]),
        ([[], [], []], [0, 0, 0]),  # no maki at all: nobody
        ([["maki3"], ["maki2"], ["maki1"]], [6, 3, 0]),
        ([["maki1", "maki2"], ["maki3", "maki1"], ["maki1"]], [3, 6, 0]),  # rolls are summed
        ([["maki2"], ["maki2"], ["maki1"]], [3, 3, 0]),  # 2-way tie for most: no second
        ([["maki1"], ["maki1"], ["maki1"]], [2, 2, 2]),  # 3-way tie for most
        ([["maki2"], ["maki2"], ["maki2"], ["maki2"]], [1, 1, 1, 1]),  # 6 // 4
        ([["maki1"]] * 5, [1, 1, 1, 1, 1]),
        ([["maki3"], ["maki2"], ["maki2"]], [6, 1, 1]),  # 2-way tie for second: 3 // 2
        ([["maki3"], ["maki1"], ["maki1"], ["maki1"]], [6, 1, 1, 1]),  # 3-way tie for second
        ([["maki3"], ["maki1"], ["maki1"], ["maki1"], ["maki1"]], [6, 0, 0, 0, 0]),  # 3 // 4
        ([["maki3"], ["maki2"], []], [6, 3, 0]),
        ([["maki3"], [], ["tempura"]], [6, 0, 0]),  # nobody else has maki: no second
    ],
)
def test_maki(tableaux: list[list[str]], points: list[int]) -> None:
    assert score_round(tableaux) == points


def test_round_breakdown_lists_each_category_with_maki_awards() -> None:
    breakdown = round_breakdown(
        [["wasabi", "squid", "maki3", "tempura", "tempura"], ["maki2", "dumpling", "dumpling"], ["pudding"]]
    )
    assert breakdown[0] == {
        "tempura": 5,
        "sashimi": 0,
        "dumpling": 0,
        "nigiri": 9,
        "maki": 6,
        "total": 20,
        "rolls": 3,
    }
    assert breakdown[1]["maki"] == 3 and breakdown[1]["dumpling"] == 3 and breakdown[1]["total"] == 6
    assert breakdown[2]["total"] == 0 and breakdown[2]["rolls"] == 0


def test_unknown_card_names_are_not_scored() -> None:
    with pytest.raises(ValueError):
        score_round([["tuna"]])


# ---------------------------------------------------------------- pudding


@pytest.mark.parametrize(
    ("puddings", "points"),
    [
        ([3, 1, 0], [6, 0, -6]),
        ([2, 2, 2], [0, 0, 0]),  # all equal: nobody
        ([0, 0, 0, 0], [0, 0, 0, 0]),
        ([3, 3, 1, 0], [3, 3, 0, -6]),  # tie for most
        ([3, 0, 1, 0], [6, -3, 0, -3]),  # tie for fewest
        ([2, 2, 2, 2, 1], [1, 1, 1, 1, -6]),  # +6 among 4 is +1 each
        ([3, 1, 1, 1, 1], [6, -1, -1, -1, -1]),  # -6 among 4 is -1 each
        ([4, 4, 4, 0, 0], [2, 2, 2, -3, -3]),
        ([3, 1], [6, 0]),  # 2 players: nobody loses points
        ([0, 4], [0, 6]),
        ([2, 2], [0, 0]),
    ],
)
def test_puddings(puddings: list[int], points: list[int]) -> None:
    assert score_puddings(puddings) == points


def finished(scores: list[int], puddings: list[int]) -> SushiGoState:
    state = GAME.new(len(scores), seed=2)
    state.scores = list(scores)
    state.puddings = list(puddings)
    state.over = True
    return state


def test_ties_broken_by_puddings_then_shared() -> None:
    assert GAME.ranking(finished([40, 40, 30], [2, 3, 9])) == [2, 1, 3]
    assert GAME.ranking(finished([40, 40, 30, 40], [3, 3, 9, 1])) == [1, 1, 4, 3]
    assert GAME.ranking(finished([12, 12], [0, 0])) == [1, 1]


# ---------------------------------------------------------------- setup and turns


@pytest.mark.parametrize(("players", "size"), sorted(HAND_SIZE.items()))
def test_deal_and_deck(players: int, size: int) -> None:
    state = GAME.new(players, seed=5)
    assert Counter(state.deck) + sum((Counter(hand) for hand in state.hands), Counter()) == Counter(DECK)
    assert [len(hand) for hand in state.hands] == [size] * players
    assert len(state.deck) == 108 - size * players
    assert GAME.to_move(state) == frozenset(range(players))
    view = GAME.view(state, None)
    assert view["round"] == 1 and view["turn_number"] == 1
    assert view["turn"] is None and view["phase"] == "picking" and view["last"] == []


def test_bad_player_count_and_options() -> None:
    for players in (1, 6):
        with pytest.raises(ValueError):
            GAME.new(players, seed=1)
    with pytest.raises(ValueError):
        GAME.new(3, seed=1, options={"speed": "fast"})
    assert GAME.options == {}


def test_same_seed_same_game() -> None:
    assert GAME.dump(GAME.new(4, seed=9)) == GAME.dump(GAME.new(4, seed=9))
    assert GAME.dump(GAME.new(4, seed=9)) != GAME.dump(GAME.new(4, seed=10))


def test_picks_are_simultaneous_and_hands_pass_left() -> None:
    state = table(
        3, [["tempura", "egg", "squid"], ["sashimi", "salmon", "maki2"], ["dumpling", "wasabi", "pudding"]]
    )
    assert GAME.apply(state, 1, Pick("salmon")) == [{"type": "picked", "seat": 1}]
    assert GAME.to_move(state) == {0, 2}
    assert state.tableaux == [[], [], []]  # nothing shows before everyone picked
    GAME.apply(state, 0, Pick("squid"))
    events = GAME.apply(state, 2, Pick("wasabi"))
    assert [e["type"] for e in events] == ["picked", "revealed", "revealed", "revealed"]
    assert state.tableaux == [["squid"], ["salmon"], ["wasabi"]]
    # seat i's hand now belongs to seat i+1
    assert state.hands == [["dumpling", "pudding"], ["tempura", "egg"], ["sashimi", "maki2"]]
    assert GAME.to_move(state) == {0, 1, 2}
    view = GAME.view(state, None)
    assert view["reveal"] == {
        "round": 1,
        "turn_number": 1,
        "cards": [["squid"], ["salmon"], ["wasabi"]],
        "chopsticks": [False, False, False],
    }
    # `last` is what the reveal did, as apply reported it (the secret "picked" events left out)
    assert view["last"] == [e for e in events if e["type"] != "picked"]
    assert view["turn_number"] == 2 and view["round"] == 1
    assert view["turn"] is None and view["phase"] == "picking"


def test_a_pick_is_final() -> None:
    state = table(2, [["tempura", "egg"], ["sashimi", "salmon"]])
    GAME.apply(state, 0, Pick("tempura"))
    error = assert_refused(GAME, state, 0, Pick("egg"))
    assert error.code == "already_picked"
    assert GAME.legal_actions(state, 0) == []


def test_illegal_picks_refused() -> None:
    state = table(2, [["tempura", "egg", "egg"], ["sashimi", "salmon", "squid"]])
    assert assert_refused(GAME, state, 0, Pick("squid")).params == {"card": "squid", "held": 0}
    assert assert_refused(GAME, state, 0, Pick("tuna")).code == "unknown_card"
    with pytest.raises(IllegalAction) as caught:
        GAME.decode_action({"type": "pick", "card": ["egg"]})  # a list is no card name: unreadable
    assert caught.value.code == "malformed_action"
    assert assert_refused(GAME, state, 0, Pick("egg", "tempura")).code == "no_chopsticks"
    assert assert_refused(GAME, state, 2, Pick("egg")).code == "not_your_turn"
    assert assert_refused(GAME, state, -1, Pick("egg")).code == "not_your_turn"
    state.tableaux[0] = ["chopsticks"]
    assert assert_refused(GAME, state, 0, Pick("tempura", "tempura")).code == "card_not_in_hand"
    assert assert_refused(GAME, state, 0, Pick("tempura", "squid")).params == {"card": "squid", "held": 0}
    GAME.apply(state, 0, Pick("egg", "egg"))  # two of the same card are fine when held
    state.over = True
    assert assert_refused(GAME, state, 1, Pick("salmon")).code == "game_over"


def test_legal_actions_dedupe_card_names() -> None:
    state = table(2, [["egg", "egg", "tempura"], ["sashimi", "salmon", "squid"]], [["chopsticks"], []])
    legal = GAME.legal_actions(state, 0)
    # one entry per distinct card name; both orders of a pair, as the order decides wasabi
    assert legal == [
        Pick("tempura"),
        Pick("egg"),
        Pick("tempura", "egg"),
        Pick("egg", "tempura"),
        Pick("egg", "egg"),
    ]
    assert GAME.legal_actions(state, 1) == [Pick("sashimi"), Pick("salmon"), Pick("squid")]


# ---------------------------------------------------------------- chopsticks


def test_chopsticks_take_two_and_go_back_into_the_passed_hand() -> None:
    state = table(
        3,
        [["tempura", "tempura", "egg"], ["sashimi", "salmon", "maki2"], ["dumpling", "wasabi", "pudding"]],
        [["chopsticks"], [], []],
    )
    GAME.apply(state, 0, Pick("tempura", "tempura"))
    assert GAME.view(state, 0)["hand"] == ["egg"]  # the hand that will be passed, chopsticks not back yet
    events = GAME.apply(state, 1, Pick("maki2"))
    events += GAME.apply(state, 2, Pick("pudding"))
    assert {"type": "revealed", "seat": 0, "cards": ["tempura", "tempura"], "chopsticks": True} in events
    assert state.tableaux[0] == ["tempura", "tempura"]
    assert state.hands[1] == ["egg", "chopsticks"]  # seat 0's hand, passed left with the chopsticks in it
    assert len(state.hands[0]) == len(state.hands[2]) == 2
    reveal = GAME.view(state, None)["reveal"]
    assert reveal is not None and reveal["chopsticks"] == [True, False, False]
    assert GAME.view(state, None)["last"] == [e for e in events if e["type"] != "picked"]


def test_chopsticks_only_from_a_previous_turn() -> None:
    state = table(2, [["chopsticks", "egg", "salmon"], ["sashimi", "salmon", "squid"]])
    assert all(pick.second is None for pick in GAME.legal_actions(state, 0))
    everyone_picks(state, [Pick("chopsticks"), Pick("squid")])
    # seat 0 now holds seat 1's old hand and has chopsticks in front of it
    assert Pick("sashimi", "salmon") in GAME.legal_actions(state, 0)
    assert GAME.view(state, 0)["can_use_chopsticks"] is True
    assert GAME.view(state, 1)["can_use_chopsticks"] is False


def test_one_chopsticks_per_turn() -> None:
    state = table(
        2, [["egg", "salmon", "squid", "tempura"], ["sashimi"] * 4], [["chopsticks", "chopsticks"], []]
    )
    assert all(len(pick.cards) <= 2 for pick in GAME.legal_actions(state, 0))
    everyone_picks(state, [Pick("squid", "salmon"), Pick("sashimi")])
    assert state.tableaux[0] == ["chopsticks", "squid", "salmon"]  # one pair of chopsticks left


@pytest.mark.parametrize(
    ("pick", "nigiri"),
    [(Pick("wasabi", "squid"), 9), (Pick("squid", "wasabi"), 3), (Pick("wasabi", "egg"), 3)],
)
def test_wasabi_then_nigiri_in_the_same_turn(pick: Pick, nigiri: int) -> None:
    state = table(2, [["wasabi", "squid", "egg"], ["tempura", "tempura", "sashimi"]], [["chopsticks"], []])
    everyone_picks(state, [pick, Pick("tempura")])
    assert state.tableaux[0] == list(pick.cards)
    assert round_breakdown(state.tableaux)[0]["nigiri"] == nigiri


def test_chopsticks_never_on_the_last_card() -> None:
    # with two cards in hand both may be taken; the returned chopsticks is then the last card, placed alone
    state = table(2, [["squid", "egg"], ["tempura", "salmon"]], [["chopsticks"], []])
    events = everyone_picks(state, [Pick("squid", "egg"), Pick("tempura")])
    placed = [e for e in events if e["type"] == "placed_last"]
    assert placed == [
        {"type": "placed_last", "seat": 0, "card": "salmon"},
        {"type": "placed_last", "seat": 1, "card": "chopsticks"},
    ]
    assert state.round_points[0][0]["nigiri"] == 3 + 1 + 2 and state.round == 2


# ---------------------------------------------------------------- rounds and the end


def test_last_card_is_placed_automatically_and_the_round_scored() -> None:
    state = table(2, [["maki3", "pudding"], ["tempura", "salmon"]], [["pudding", "tempura"], ["maki1"]])
    events = everyone_picks(state, [Pick("maki3"), Pick("salmon")])
    types = [e["type"] for e in events]
    expected = ["picked", "picked", "revealed", "revealed", "placed_last", "placed_last", "round_scored"]
    assert types == [*expected, "round_started"]
    # seat 0 got tempura from seat 1; seat 1 got the pudding
    assert state.round_points[0][0] == {
        "tempura": 5,
        "sashimi": 0,
        "dumpling": 0,
        "nigiri": 0,
        "maki": 6,
        "total": 11,
        "rolls": 3,
    }
    assert state.round_points[0][1]["maki"] == 3 and state.round_points[0][1]["total"] == 5
    assert GAME.scores(state) == [11, 5]
    assert state.puddings == [1, 1]  # puddings stay, everything else is discarded
    assert state.tableaux == [[], []]
    assert Counter(state.discard) == Counter({"maki3": 1, "tempura": 2, "salmon": 1, "maki1": 1})
    assert state.round == 2 and state.turn == 1
    assert [len(hand) for hand in state.hands] == [10, 10]
    view = GAME.view(state, None)
    assert view["round_points"] == state.round_points and view["puddings"] == [1, 1]
    assert view["round"] == 2 and view["turn_number"] == 1
    assert view["last"] == [e for e in events if e["type"] != "picked"]


def test_three_rounds_then_puddings() -> None:
    state = table(3, [["egg", "salmon"], ["squid", "maki1"], ["tempura", "dumpling"]])
    state.round = 3
    state.puddings = [4, 1, 1]
    state.scores = [10, 20, 30]
    events = everyone_picks(state, [Pick("egg"), Pick("squid"), Pick("dumpling")])
    assert events[-2] == {"type": "puddings_scored", "points": [6, -3, -3]}
    assert GAME.is_over(state) and GAME.to_move(state) == frozenset()
    # the last cards: seat 0 gets tempura, seat 1 salmon, seat 2 maki1 (a lone maki: 6)
    assert [points["total"] for points in state.round_points[-1]] == [1, 5, 7]
    assert GAME.scores(state) == [10 + 1 + 6, 20 + 5 - 3, 30 + 7 - 3]
    assert events[-1] == {"type": "game_over", "scores": [17, 22, 34], "ranking": [3, 2, 1]}
    view = GAME.view(state, None)
    assert view["over"] is True and view["pudding_points"] == [6, -3, -3] and view["ranking"] == [3, 2, 1]
    assert view["phase"] == "over" and view["turn"] is None and view["to_move"] == []
    assert view["last"] == [e for e in events if e["type"] != "picked"]
    assert GAME.legal_actions(state, 0) == []
    assert assert_refused(GAME, state, 0, Pick("egg")).code == "game_over"


# ---------------------------------------------------------------- the computer player


def test_default_action_is_greedy() -> None:
    state = table(
        2, [["tempura", "egg", "squid"], ["sashimi", "sashimi", "maki1"]], [["wasabi"], ["sashimi"] * 2]
    )
    before = GAME.dump(state)
    assert GAME.default_action(state, 0) == Pick("squid")  # 9 points on the wasabi
    assert GAME.default_action(state, 1) == Pick("sashimi")  # completes a set of three
    assert GAME.dump(state) == before


def test_default_action_uses_chopsticks_when_it_pays() -> None:
    state = table(2, [["squid", "salmon", "egg", "maki1"], ["egg"] * 4], [["chopsticks", "wasabi"], []])
    assert GAME.default_action(state, 0) == Pick("squid", "salmon")


def test_default_action_refused_for_a_seat_that_picked() -> None:
    state = table(2, [["squid", "salmon"], ["egg", "egg"]])
    GAME.apply(state, 0, Pick("squid"))
    with pytest.raises(IllegalAction):
        GAME.default_action(state, 0)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_computer_players_finish_a_game(players: int) -> None:
    state = GAME.new(players, seed=players)
    while not GAME.is_over(state):
        events: list[dict] = []
        for seat in sorted(GAME.to_move(state)):
            action = GAME.default_action(state, seat)
            assert action in GAME.legal_actions(state, seat)
            events += GAME.apply(state, seat, action)
        check_invariants(state)
        assert GAME.view(state, None)["last"] == [e for e in events if e["type"] != "picked"]
    assert len(state.round_points) == 3


# ---------------------------------------------------------------- hidden information


def test_view_shows_only_the_own_hand_and_pick() -> None:
    state = table(3, [["tempura", "egg"], ["sashimi", "salmon"], ["dumpling", "wasabi"]])
    public = GAME.view(state, None)
    assert "hand" not in public and "pick" not in public and public["seat"] is None
    assert public["last"] == [] and public["reveal"] is None
    GAME.apply(state, 0, Pick("tempura", None))
    after = GAME.view(state, None)
    assert after["picked"] == [True, False, False] and after["to_move"] == [1, 2]
    # the public view changed in who has picked, nothing else
    assert {k: v for k, v in after.items() if k not in ("picked", "to_move")} == {
        k: v for k, v in public.items() if k not in ("picked", "to_move")
    }
    mine = GAME.view(state, 0)
    assert mine["seat"] == 0 and mine["hand"] == ["egg"] and mine["pick"] == ["tempura"]
    other = GAME.view(state, 1)
    assert other["hand"] == ["sashimi", "salmon"] and other["pick"] is None
    assert "tempura" not in json.dumps(other) and "dumpling" not in json.dumps(other)
    assert '"tempura"' not in json.dumps(after) and '"wasabi"' not in json.dumps(after)


def test_view_shows_what_sits_on_each_wasabi() -> None:
    hands = [["wasabi", "egg", "egg"], ["squid", "tempura", "tempura"]]
    state = table(2, hands, [["wasabi", "salmon", "wasabi"], []])
    assert GAME.view(state, None)["wasabi_slots"] == [["salmon", None], []]
    everyone_picks(state, [Pick("wasabi", None), Pick("squid", None)])
    assert GAME.view(state, None)["wasabi_slots"] == [["salmon", None, None], []]
    assert wasabi_slots(["egg", "wasabi", "wasabi", "squid", "egg", "salmon"]) == ["squid", "egg"]


# ---------------------------------------------------------------- properties


@settings(max_examples=25, deadline=None)
@given(players=st.integers(2, 5), seed=st.integers(0, 2**32))
def test_random_playouts_conserve_cards_and_round_trip(players: int, seed: int) -> None:
    state = random_playout(GAME, players, seed, check=check_invariants)
    assert GAME.is_over(state)
    assert len(state.round_points) == 3
    assert len(state.deck) == 108 - 3 * players * HAND_SIZE[players]


@settings(max_examples=20, deadline=None)
@given(players=st.integers(2, 5), seed=st.integers(0, 2**32), steps=st.integers(0, 60))
def test_illegal_picks_refused_and_hands_never_leak(players: int, seed: int, steps: int) -> None:
    state = GAME.new(players, seed)
    for _ in range(steps):  # walk into the game with computer picks, one seat at a time
        if GAME.is_over(state):
            return
        seat = min(GAME.to_move(state))
        GAME.apply(state, seat, GAME.default_action(state, seat))
    if GAME.is_over(state):
        return
    state = roundtrip(GAME, state)
    movers = GAME.to_move(state)
    for seat in range(players):
        held = Counter(state.hands[seat])
        missing = next(card for card in DECK if not held[card])
        refused = assert_refused(GAME, state, seat, Pick(missing))
        assert refused.code == ("card_not_in_hand" if seat in movers else "already_picked")
        # a seat's view holds its own hand and pick, never another seat's
        view = GAME.view(state, seat)
        assert view["hand"] == state.hands[seat]
        assert "hands" not in view and "picks" not in view and "deck" not in view
    public = json.dumps(GAME.view(state, None))
    assert '"hand"' not in public and '"pick"' not in public
    views = [json.dumps(GAME.view(state, seat)) for seat in range(players)]
    for seat in range(players):
        pick = state.picks[seat]
        if pick is None:
            continue
        # swap the pending pick for another: no view but the picker's own may notice
        original = GAME.dump(state)
        other = "egg" if pick.card == "tempura" else "tempura"  # as many cards as the real pick
        state.picks[seat] = Pick(other, None if pick.second is None else other)
        assert json.dumps(GAME.view(state, None)) == public
        assert all(json.dumps(GAME.view(state, o)) == views[o] for o in range(players) if o != seat)
        assert json.dumps(GAME.view(state, seat)) != views[seat]
        state = GAME.load(original)


def test_actions_encode_and_decode() -> None:
    for action in (Pick("egg"), Pick("wasabi", "squid")):
        assert GAME.decode_action(json.loads(json.dumps(GAME.encode_action(action)))) == action
    assert GAME.encode_action(Pick("wasabi", "squid")) == {
        "type": "pick",
        "card": "wasabi",
        "second": "squid",
    }
    with pytest.raises(IllegalAction) as caught:
        GAME.decode_action({"type": "roll"})
    assert caught.value.code == "unknown_action"
    with pytest.raises(IllegalAction) as caught:
        GAME.decode_action({"type": "pick"})
    assert caught.value.code == "malformed_action"


# ---------------------------------------------------------------- the results, explained


def last_turn_played(before: list[int], puddings: list[int]) -> SushiGoState:
    """Three seats play round 3's last turn (+1 / +5 / +7) after rounds 1 and 2 scored `before`
    (all but 10 points in round 1, those 10 in round 2), with `puddings` kept."""
    state = table(3, [["egg", "salmon"], ["squid", "maki1"], ["tempura", "dumpling"]])
    state.round = 3
    state.puddings = list(puddings)
    state.scores = list(before)
    state.round_points = [
        [{**dict.fromkeys(CATEGORIES, 0), "total": total, "rolls": 0} for total in totals]
        for totals in ([score - 10 for score in before], [10] * 3)
    ]
    everyone_picks(state, [Pick("egg"), Pick("squid"), Pick("dumpling")])
    assert GAME.is_over(state)
    return state


def notes_of(state: SushiGoState) -> ResultNotes:
    seats = [Seat(100 + seat, name) for seat, name in enumerate(["alice", "bob", "carol"])]
    record = TableRecord(
        guild_id=1, channel_id=10, game_id=GAME.id, host_id=100, status="finished", seats=seats
    )
    return sushigo_render.result_notes(TableContext(record, GAME, state))


def test_a_tie_decided_by_puddings_is_named_with_each_round() -> None:
    state = last_turn_played([32, 37, 20], [4, 1, 1])  # round 3: +1 / +5 / +7, puddings +6 / −3 / −3
    assert GAME.scores(state) == [39, 39, 24] and GAME.ranking(state) == [1, 2, 3]
    notes = notes_of(state)
    assert notes.breakdown[0] == (
        "Round 1: **22** · Round 2: **10** · Round 3: **1** · 🍮 4 puddings (the most): **+6**"
    )
    assert notes.breakdown[1] == (
        "Round 1: **27** · Round 2: **10** · Round 3: **5** · 🍮 1 pudding (the fewest, shared by 2): **−3**"
    )
    assert notes.tie_break == "Tied on 39 points: more puddings ranks higher — alice 🍮 4 · bob 🍮 1"


def test_a_tie_with_equal_puddings_stands_and_is_not_explained() -> None:
    state = last_turn_played([35, 31, 20], [2, 2, 0])  # puddings +3 / +3 / −6
    assert GAME.scores(state) == [39, 39, 21] and GAME.ranking(state) == [1, 1, 3]
    notes = notes_of(state)
    assert notes.tie_break is None
    assert notes.breakdown[2] == (
        "Round 1: **10** · Round 2: **10** · Round 3: **7** · 🍮 0 puddings (the fewest): **−6**"
    )
