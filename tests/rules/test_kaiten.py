"""Kaiten Sushi: scoring, set-up, the sake, wasabi, fetching, plates, ginger, refills, dexterity, protocol,
the results explained."""

from __future__ import annotations

import copy
import itertools
import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cogs.games.kaiten import render as kaiten_render
from cogs.tables.context import TableContext
from cogs.tables.gamecog import ResultNotes
from rules.engine import IllegalAction
from rules.kaiten.board import CELLS, CORNERS, PINES
from rules.kaiten.game import COMPUTER_SUCCESS, GAME, TILES, challenge, computer_fetch_succeeds
from rules.kaiten.plate import INGREDIENTS, line_points, missing_edges, score_plate
from rules.kaiten.state import Fetch, Ginger, KaitenState, Place, Refill, Wasabi
from storage.tables import Seat, TableRecord
from tests.rules.conformance import assert_refused, random_playout, roundtrip

# The rulebook's finished plate (rows a, b, c counted from the bottom, columns d, e, f from the left):
# a = 5, b = 3, c = 1, d = 1, e = 5, f = 3; two black rice, the rest white.
RULEBOOK_PLATE = [
    "B:red", "W:brown", "W:beige",
    "W:beige", "W:black", "W:yellow",
    "W:brown", "W:red", "B:black",
]  # fmt: skip


def fresh(players: int = 3, seed: int = 1, **options: str) -> KaitenState:
    return GAME.new(players, seed, options)


def only(state: KaitenState, sushi: dict[int, str]) -> None:
    """Clear the board but for the given cells."""
    state.board = [sushi.get(cell) for cell in range(CELLS)]


def fetch_and_place(state: KaitenState, cell: int, plate_cell: int) -> list[dict[str, Any]]:
    seat = state.current
    events = GAME.apply(state, seat, Fetch(cell, True))
    return events + GAME.apply(state, seat, Place(plate_cell))


def types(events: list[dict[str, Any]]) -> list[str]:
    return [event["type"] for event in events]


# ---------------------------------------------------------------- scoring


def test_rulebook_example_scores_22() -> None:
    rows = [[RULEBOOK_PLATE[r * 3 + c].split(":")[1] for c in range(3)] for r in range(3)]
    columns = [[rows[r][c] for r in range(3)] for c in range(3)]
    a, b, c = (line_points(rows[r]) for r in (2, 1, 0))
    d, e, f = (line_points(column) for column in columns)
    assert (a, b, c, d, e, f) == (5, 3, 1, 1, 5, 3)
    # 18 from the lines, 2 wasabi +4, 1 soy -2, 2 black rice (the minority) +2.
    assert score_plate(RULEBOOK_PLATE, [], wasabi=2, soy=1) == 22


@pytest.mark.parametrize(
    ("combo", "points"),
    [
        (("black", "red", "brown"), 5),
        (("green", "yellow", "beige"), 4),
        (("black", "yellow", "beige"), 3),
        (("red", "green", "brown"), 2),
        (("red", "green", "yellow"), 2),
        (("green", "beige", "brown"), 2),
        (("black", "black", "black"), 1),
        (("red", "green", "beige"), 1),
        (("black", "red", "red"), 1),
        (("yellow", "yellow", "beige"), 1),
    ],
)
def test_reference_card_in_any_order(combo: tuple[str, str, str], points: int) -> None:
    for order in itertools.permutations(combo):
        assert line_points(order) == points
        # The same line scored on a plate: only the top row differs from a 1-point filler.
        cells = [f"W:{i}" for i in order] + ["W:red", "W:red", "W:red", "W:green", "W:green", "W:green"]
        columns = [[order[c], "red", "green"] for c in range(3)]
        expected = points + 2 + sum(line_points(column) for column in columns)
        assert score_plate(cells, [], wasabi=0, soy=0) == expected


def two_black_plate() -> list[str]:
    """Row 0 black-red-brown (5) on black, black, white rice; everything else white."""
    return ["B:black", "B:red", "W:brown", "W:green", "W:yellow", "W:beige", "W:red", "W:green", "W:yellow"]


def test_missing_ginger_zeroes_its_row() -> None:
    cells = two_black_plate()
    full = score_plate(cells, [], 0, 0)
    assert score_plate(cells, [(1, 2)], 0, 0) == full - 5
    assert score_plate(cells, [(2, 1)], 0, 0) == full - 5  # order within a pair does not matter


def test_missing_ginger_zeroes_its_column() -> None:
    cells = two_black_plate()
    column0 = line_points(["black", "green", "red"])
    column1 = line_points(["red", "yellow", "green"])
    full = score_plate(cells, [], 0, 0)
    assert score_plate(cells, [(0, 3)], 0, 0) == full - column0
    assert score_plate(cells, [(4, 1)], 0, 0) == full - column1
    # Two bare edges on the same column zero it once.
    assert score_plate(cells, [(0, 3), (1, 4)], 0, 0) == full - column0 - column1


@pytest.mark.parametrize("blacks", range(10))
def test_minority_rice_scores_one_each(blacks: int) -> None:
    plain = ["black"] * 9  # every line 1 point
    cells = [f"{'B' if i < blacks else 'W'}:{ingredient}" for i, ingredient in enumerate(plain)]
    missing = []
    edges = [(i, i + 1) for i in range(9) if i % 3 < 2] + [(i, i + 3) for i in range(6)]
    missing = [(i, j) for i, j in edges if cells[i][0] != cells[j][0]]
    zeroed_rows = {i // 3 for i, j in missing if j == i + 1}
    zeroed_columns = {i % 3 for i, j in missing if j == i + 3}
    lines = 6 - len(zeroed_rows) - len(zeroed_columns)
    assert score_plate(cells, missing, 0, 0) == lines + min(blacks, 9 - blacks)


@pytest.mark.parametrize(("wasabi", "soy", "delta"), [(0, 0, 0), (3, 0, 6), (0, 2, -4), (1, 1, 0)])
def test_wasabi_and_soy(wasabi: int, soy: int, delta: int) -> None:
    assert score_plate(RULEBOOK_PLATE, [], wasabi, soy) == 18 + 2 + delta


@pytest.mark.parametrize(
    ("cells", "missing"),
    [
        (RULEBOOK_PLATE[:8], []),
        (["W:pink", *RULEBOOK_PLATE[1:]], []),
        (RULEBOOK_PLATE, [(0, 4)]),  # diagonal
        (RULEBOOK_PLATE, [(2, 3)]),  # consecutive indexes across a row end
        (RULEBOOK_PLATE, [(1, 2)]),  # both white: no ginger due
    ],
)
def test_score_plate_rejects_nonsense(cells: list[str], missing: list[tuple[int, int]]) -> None:
    with pytest.raises(ValueError):
        score_plate(cells, missing, 0, 0)


# ---------------------------------------------------------------- set-up


def sushi_on_board(state: KaitenState) -> list[str]:
    return [s for s in state.board if s is not None]


@pytest.mark.parametrize("players", [3, 4])
def test_setup_three_and_four_players(players: int) -> None:
    state = fresh(players)
    board = sushi_on_board(state)
    assert len(board) == 36
    assert Counter(s[0] for s in board) == {"B": 18, "W": 18}
    assert (
        Counter(state.tiles) == Counter(TILES) == {"ginger": 20, "blank": 10, "wasabi": 4, "ginger_wasabi": 2}
    )
    assert len(state.reserve) == 6 and all(b[0] == "B" and w[0] == "W" for b, w in state.reserve)
    everything = board + [s for pair in state.reserve for s in pair]
    assert Counter(s.split(":")[1] for s in everything) == dict.fromkeys(INGREDIENTS, 8)
    assert state.ginger == state.wasabi == [1] * players and state.soy == [0] * players
    assert state.sake == 0 and state.current == 0 and state.step == "wasabi_or_fetch"
    assert state.options == {"arrangement": "random", "dexterity": "normal"}


def test_setup_two_players_removes_six_and_leaves_last_column_empty() -> None:
    state = fresh(2)
    assert all(state.board[row * 6 + 5] is None for row in range(6))
    board = sushi_on_board(state)
    assert len(board) == 30 and Counter(s[0] for s in board) == {"B": 15, "W": 15}
    assert sorted(s.split(":")[1] for s in state.removed) == sorted(INGREDIENTS)
    assert Counter(s[0] for s in state.removed) == {"B": 3, "W": 3}
    assert len(state.reserve) == 6
    assert len(state.tiles) == 36  # tiles lie under the empty column too


@pytest.mark.parametrize(
    ("arrangement", "black"),
    [
        ("checkerboard", lambda row, col: (row + col) % 2 == 0),
        ("stripes", lambda row, col: row % 2 == 0),
        ("halves", lambda row, col: row < 3),
    ],
)
@pytest.mark.parametrize("players", [2, 4])
def test_rice_arrangements(arrangement: str, black: Any, players: int) -> None:
    state = fresh(players, arrangement=arrangement)
    for cell, sushi in enumerate(state.board):
        if sushi is not None:
            assert (sushi[0] == "B") == black(*divmod(cell, 6)), cell
    assert Counter(s[0] for s in sushi_on_board(state))["B"] == len(sushi_on_board(state)) // 2


def test_random_arrangement_differs_by_seed() -> None:
    layouts = {tuple(s[0] for s in sushi_on_board(fresh(3, seed))) for seed in range(5)}
    assert len(layouts) > 1


@pytest.mark.parametrize("players", [0, 1, 5])
def test_bad_player_count(players: int) -> None:
    with pytest.raises(ValueError):
        GAME.new(players, 1)


@pytest.mark.parametrize("options", [{"arrangement": "spiral"}, {"dexterity": "hard"}, {"speed": "fast"}])
def test_bad_options(options: dict[str, str]) -> None:
    with pytest.raises(ValueError):
        GAME.new(3, 1, options)


def test_options_and_defaults_are_declared() -> None:
    assert GAME.options == {
        "arrangement": ("random", "checkerboard", "stripes", "halves"),
        "dexterity": ("normal", "relaxed", "strict", "off"),
    }


# ---------------------------------------------------------------- geometry and the sake


@pytest.mark.parametrize(
    ("pine", "side", "position", "line", "index", "nearest", "farthest"),
    [
        (0, "top", 0, "column", 0, 0, 30),
        (5, "top", 5, "column", 5, 5, 35),
        (6, "right", 0, "row", 0, 5, 0),
        (11, "right", 5, "row", 5, 35, 30),
        (12, "bottom", 0, "column", 5, 35, 5),
        (17, "bottom", 5, "column", 0, 30, 0),
        (18, "left", 0, "row", 5, 30, 35),
        (23, "left", 5, "row", 0, 0, 5),
    ],
)
def test_pine_geometry(
    pine: int, side: str, position: int, line: str, index: int, nearest: int, farthest: int
) -> None:
    p = PINES[pine]
    assert (p.side, p.position, p.line, p.line_index) == (side, position, line, index)
    assert p.cells[0] == nearest and p.cells[-1] == farthest and len(p.cells) == 6


def test_every_cell_lies_on_four_pines() -> None:
    for cell in range(CELLS):
        assert sum(cell in pine.cells for pine in PINES) == 4


@pytest.mark.parametrize(
    ("sake", "cell", "after"),
    [
        (5, 5, 6),  # top-right corner: column 5 from the top, then row 0 from the right
        (11, 35, 12),  # bottom-right corner
        (17, 30, 18),  # bottom-left corner
        (23, 0, 0),  # left side wraps to the top side
        (0, 30, 11),  # column 0 from the top, the bottom cell: next is row 5 from the right
        (0, 12, 8),  # row 2 from the right comes before column 0 from the bottom
        (8, 12, 17),
        (2, 14, 8),
    ],
)
def test_sake_moves_clockwise_to_the_next_line_through_the_fetched_cell(
    sake: int, cell: int, after: int
) -> None:
    state = fresh(4)
    state.sake = sake
    events = fetch_and_place(state, cell, 0)
    assert {"type": "sake_moved", "seat": 0, "from": sake, "to": after, "reason": "fetch"} in events
    assert state.sake == after and state.current == 1


def test_failed_fetch_leaves_sushi_and_tile_and_costs_a_soy() -> None:
    state = fresh(3)
    sushi = state.board[30]
    events = GAME.apply(state, 0, Fetch(30, False))
    assert types(events) == ["dropped", "sake_moved", "turn"]
    assert state.board[30] == sushi and not state.revealed[30]
    assert state.soy[0] == 1 and state.plates[0] == [None] * 9
    assert state.sake == 11  # it still moves on to the next line through the cell tried
    assert GAME.view(state, None)["condiments"][30] is None
    assert GAME.scores(state)[0] == 2 - 2  # wasabi in hand +2, soy -2
    assert state.current == 1


# ---------------------------------------------------------------- wasabi


def test_wasabi_moves_one_or_two_pines_either_way_around_the_corner() -> None:
    state = fresh(4)
    assert [a.steps for a in GAME.legal_actions(state, 0) if isinstance(a, Wasabi)] == [-2, -1, 1, 2]
    events = GAME.apply(state, 0, Wasabi(-2))
    assert events == [{"type": "wasabi_used", "seat": 0, "steps": -2, "from": 0, "to": 22}]
    assert state.sake == 22 and state.wasabi[0] == 0 and state.step == "fetch"
    assert not any(isinstance(a, Wasabi) for a in GAME.legal_actions(state, 0))
    assert GAME.legal_actions(state, 0) == [Fetch(c, ok) for c in PINES[22].cells for ok in (True, False)]
    assert GAME.scores(state)[0] == 0  # the unused wasabi's 2 points are gone


def test_wasabi_forward_and_one_back() -> None:
    for steps, target in ((1, 1), (2, 2), (-1, 23)):
        state = fresh(4)
        GAME.apply(state, 0, Wasabi(steps))
        assert state.sake == target


def test_wasabi_cannot_end_on_an_empty_line() -> None:
    state = fresh(3)
    only(state, {0: "B:red", 2: "W:red"})  # column 1 (pine 1) and row 1 (pine 22) are empty
    assert [a.steps for a in GAME.legal_actions(state, 0) if isinstance(a, Wasabi)] == [-1, 2]
    assert assert_refused(GAME, state, 0, Wasabi(1)).code == "empty_line"
    assert assert_refused(GAME, state, 0, Wasabi(-2)).params == {"pine": 22}


def test_wasabi_refusals() -> None:
    state = fresh(3)
    assert assert_refused(GAME, state, 0, Wasabi(3)).code == "bad_steps"
    assert assert_refused(GAME, state, 0, Wasabi(0)).code == "bad_steps"
    assert assert_refused(GAME, state, 1, Wasabi(1)).code == "not_your_turn"
    state.wasabi[0] = 2
    GAME.apply(state, 0, Wasabi(1))
    assert assert_refused(GAME, state, 0, Wasabi(1)).code == "wasabi_already_used"
    state = fresh(3)
    state.wasabi[0] = 0
    assert assert_refused(GAME, state, 0, Wasabi(1)).code == "no_wasabi"
    GAME.apply(state, 0, Fetch(0, True))
    assert assert_refused(GAME, state, 0, Wasabi(1)).code == "wrong_step"


# ---------------------------------------------------------------- fetching and placing


def test_successful_fetch_reveals_and_gains_the_tile() -> None:
    state = fresh(3)
    state.tiles[6] = "ginger_wasabi"
    sushi = state.board[6]
    events = GAME.apply(state, 0, Fetch(6, True))
    assert events == [{"type": "fetched", "seat": 0, "cell": 6, "sushi": sushi, "condiment": "ginger_wasabi"}]
    assert state.board[6] is None and state.holding == sushi and state.step == "place"
    assert state.ginger[0] == 2 and state.wasabi[0] == 2 and state.gained[0] == ["ginger_wasabi"]
    view = GAME.view(state, None)
    assert view["condiments"][6] == "ginger_wasabi" and view["holding"] == sushi
    assert view["phase"] == "place" and view["plate_cells"] == list(CORNERS)
    assert view["turn"] == 0 and view["last"] == events


def test_fetch_refusals() -> None:
    state = fresh(2)
    assert assert_refused(GAME, state, 0, Fetch(1, True)).code == "not_on_line"
    assert assert_refused(GAME, state, 0, Fetch(36, True)).code == "bad_cell"
    assert assert_refused(GAME, state, 0, Fetch(-1, True)).code == "bad_cell"
    state.sake = 5  # column 5 starts empty with 2 players
    state.board[11] = "B:red"
    assert assert_refused(GAME, state, 0, Fetch(5, True)).code == "no_sushi"
    assert assert_refused(GAME, state, 0, Place(0)).code == "wrong_step"
    assert assert_refused(GAME, state, 0, Refill(True)).code == "wrong_step"
    assert assert_refused(GAME, state, 0, Fetch(True, True)).code == "bad_cell"  # type: ignore[arg-type]
    assert assert_refused(GAME, state, 0, Fetch(11, "yes")).code == "malformed_action"  # type: ignore[arg-type]


def test_first_sushi_only_in_a_corner() -> None:
    state = fresh(3)
    GAME.apply(state, 0, Fetch(0, True))
    assert GAME.legal_actions(state, 0) == [Place(c) for c in CORNERS]
    for cell in (1, 3, 4, 5, 7):
        assert assert_refused(GAME, state, 0, Place(cell)).code == "not_a_corner"
    assert assert_refused(GAME, state, 0, Place(9)).code == "bad_plate_cell"
    GAME.apply(state, 0, Place(8))
    assert state.plates[0][8] is not None


def test_later_sushi_only_next_to_one_already_there() -> None:
    state = fresh(3)
    state.plates[0][0] = "W:red"
    GAME.apply(state, 0, Fetch(0, True))
    assert GAME.legal_actions(state, 0) == [Place(1), Place(3)]
    assert assert_refused(GAME, state, 0, Place(8)).code == "not_adjacent"
    assert assert_refused(GAME, state, 0, Place(4)).code == "not_adjacent"  # diagonal is not next to
    assert assert_refused(GAME, state, 0, Place(0)).code == "plate_cell_taken"
    state.plates[0][4] = "W:red"
    assert GAME.legal_actions(state, 0) == [Place(1), Place(3), Place(5), Place(7)]


# ---------------------------------------------------------------- ginger


def test_ginger_goes_on_a_black_white_edge() -> None:
    state = fresh(3)
    only(state, {0: "W:red"})
    state.tiles[0] = "blank"
    state.plates[0][0] = "B:black"
    events = fetch_and_place(state, 0, 1)
    assert {"type": "ginger", "seat": 0, "laid": [[0, 1]], "missing": []} in events
    assert state.ginger[0] == 0 and state.ginger_edges[0] == [(0, 1)]


def test_a_line_without_ginger_scores_zero() -> None:
    for covered in (True, False):
        state = fresh(3)
        only(state, {0: "W:brown"})
        state.tiles[0] = "blank"
        state.plates[0][:2] = ["B:black", "W:red"]
        state.ginger_edges[0] = [(0, 1)] if covered else []
        state.ginger[0] = 0
        fetch_and_place(state, 0, 2)  # white next to white: no new edge; row 0 is black, red, brown
        view = GAME.view(state, None)["players"][0]
        if covered:
            assert view["missing_ginger"] == [] and view["score"] == 5 + 2 + 1
        else:
            assert view["missing_ginger"] == [[0, 1]] and view["score"] == 0 + 2 + 1


def test_short_ginger_never_spoils_a_line_it_could_save() -> None:
    state = fresh(3)
    state.board[0] = "B:red"
    state.tiles[0] = "blank"
    state.plates[0][0] = "W:red"
    state.plates[0][2] = "W:red"
    state.plates[0][4] = "W:red"
    # Black between three whites, one ginger: the top row is lost either way (two bare edges on it), so
    # the ginger goes on the middle column's edge without asking; covering (0, 1) would lose both lines.
    events = fetch_and_place(state, 0, 1)
    assert {"type": "ginger", "seat": 0, "laid": [[1, 4]], "missing": [[0, 1], [1, 2]]} in events
    assert state.step == "wasabi_or_fetch" and state.current == 1
    assert GAME.view(state, 0)["players"][0]["missing_ginger"] == [[0, 1], [1, 2]]


# Row 2 (black, red, brown: 5) and column 2 (red, green, brown: 2) meet at the bottom right corner. The
# last sushi, black rice, brown topping, opens one black/white edge on each; one ginger saves only one.
CHOICE_PLATE: list[str | None] = [
    "W:yellow", "W:yellow", "W:red",
    "W:yellow", "W:yellow", "W:green",
    "W:black", "W:red", None,
]  # fmt: skip
SAVE_COLUMN = Ginger(((5, 8),))  # row 2 left bare: 0 instead of 5
SAVE_ROW = Ginger(((7, 8),))  # column 2 left bare: 0 instead of 2


def choosing_ginger(players: int = 2) -> KaitenState:
    """Seat 0 has just put B:brown on the bottom right of CHOICE_PLATE with one ginger in hand."""
    state = fresh(players)
    state.board[0] = "B:brown"
    state.tiles[0] = "blank"
    state.plates[0] = list(CHOICE_PLATE)
    events = fetch_and_place(state, 0, 8)
    assert types(events) == ["fetched", "placed"]  # the turn waits for the player's choice
    return state


def test_the_player_chooses_which_line_the_short_ginger_saves() -> None:
    state = choosing_ginger()
    assert state.step == "ginger" and GAME.to_move(state) == frozenset({0})
    assert GAME.legal_actions(state, 0) == [SAVE_COLUMN, SAVE_ROW]
    assert GAME.legal_actions(state, 1) == []
    view = GAME.view(state, None)
    assert view["phase"] == "ginger" and view["turn"] == 0 and view["placed"] == 8
    assert view["ginger_due"] == [[5, 8], [7, 8]]
    assert view["ginger_choices"] == [
        {"edges": [[5, 8]], "bare": [[7, 8]], "spoils": [2]},  # the bottom row
        {"edges": [[7, 8]], "bare": [[5, 8]], "spoils": [5]},  # the right column
    ]
    assert view["players"][0]["missing_ginger"] == []  # nothing is lost for good yet
    scores = {}
    for action in (SAVE_COLUMN, SAVE_ROW):
        trial = roundtrip(GAME, state)
        events = GAME.apply(trial, 0, action)
        assert types(events)[:1] == ["ginger"] and trial.step == "wasabi_or_fetch" and trial.current == 1
        assert trial.ginger[0] == 0 and trial.ginger_edges[0] == list(action.edges)
        scores[action] = GAME.scores(trial)[0]
    # Rows 1 + 1 + 5 and columns 1 + 1 (+ 2), one black rice +1, the wasabi +2.
    assert scores == {SAVE_ROW: 7 + 2 + 1 + 2, SAVE_COLUMN: 2 + 4 + 1 + 2}


def test_the_computer_and_a_time_out_save_the_better_line() -> None:
    state = choosing_ginger()
    before = json.dumps(GAME.dump(state), sort_keys=True)
    assert GAME.default_action(state, 0) == SAVE_ROW == GAME.computer_action(state, 0)
    assert json.dumps(GAME.dump(state), sort_keys=True) == before


def test_ginger_refusals() -> None:
    state = choosing_ginger()
    assert assert_refused(GAME, state, 0, Ginger(((5, 8), (7, 8)))).code == "not_a_ginger_choice"
    assert assert_refused(GAME, state, 0, Ginger(((0, 1),))).code == "not_a_ginger_choice"
    assert assert_refused(GAME, state, 0, Ginger(())).code == "not_a_ginger_choice"
    assert assert_refused(GAME, state, 1, SAVE_ROW).code == "not_your_turn"
    assert assert_refused(GAME, state, 0, Fetch(6, True)).code == "wrong_step"
    assert assert_refused(GAME, state, 0, Place(4)).code == "wrong_step"
    assert assert_refused(GAME, fresh(2), 0, SAVE_ROW).code == "wrong_step"
    with pytest.raises(IllegalAction) as caught:
        GAME.decode_action({"type": "ginger", "edges": [[5, 8, 1]]})
    assert caught.value.code == "malformed_action"


def test_the_last_sushi_waits_for_its_ginger_before_the_game_ends() -> None:
    state = fresh(2)
    state.plates[1] = list(RULEBOOK_PLATE)
    state.ginger_edges[1] = [(0, 1), (0, 3), (5, 8), (7, 8)]
    only(state, {0: "B:brown"})
    state.tiles[0] = "blank"
    state.plates[0] = list(CHOICE_PLATE)
    fetch_and_place(state, 0, 8)
    assert state.step == "ginger" and not GAME.is_over(state)
    events = GAME.apply(state, 0, SAVE_COLUMN)
    assert types(events) == ["ginger", "game_over"] and GAME.is_over(state)
    assert GAME.scores(state)[0] == 2 + 4 + 1 + 2


def test_enough_ginger_covers_every_new_edge_without_asking() -> None:
    state = fresh(2)
    state.board[0] = "B:brown"
    state.tiles[0] = "ginger"  # two in hand after the fetch
    state.plates[0] = list(CHOICE_PLATE)
    events = fetch_and_place(state, 0, 8)
    assert {"type": "ginger", "seat": 0, "laid": [[5, 8], [7, 8]], "missing": []} in events
    assert state.step == "wasabi_or_fetch" and state.ginger[0] == 0


def test_a_bare_edge_stays_bare_when_ginger_is_gained_later() -> None:
    state = fresh(3)
    state.board[0], state.board[6] = "W:brown", "W:red"
    state.tiles[0] = "ginger"
    state.plates[0][:2] = ["B:black", "W:red"]
    state.ginger[0] = 0  # the edge (0, 1) was left bare earlier
    events = fetch_and_place(state, 0, 2)  # white next to white: no new edge, the ginger is kept
    assert "ginger" not in types(events)
    assert state.ginger[0] == 1 and state.ginger_edges[0] == []
    player = GAME.view(state, None)["players"][0]
    assert player["missing_ginger"] == [[0, 1]] and player["score"] == 0 + 2 + 1  # row 0 spoiled
    # The kept ginger goes on the next new edge; the old one stays bare.
    state.current, state.sake = 0, 0
    state.tiles[6] = "blank"
    events = fetch_and_place(state, 6, 3)  # white under black: a new edge (0, 3)
    assert {"type": "ginger", "seat": 0, "laid": [[0, 3]], "missing": []} in events
    assert GAME.view(state, None)["players"][0]["missing_ginger"] == [[0, 1]]


def test_an_old_bare_edge_makes_a_choice_moot() -> None:
    state = fresh(2)
    state.board[0] = "B:brown"
    state.tiles[0] = "blank"
    state.plates[0] = list(CHOICE_PLATE)
    state.plates[0][2] = "B:red"
    state.ginger_edges[0] = [(1, 2)]  # (2, 5) bare: the right column is lost already
    events = fetch_and_place(state, 0, 8)  # so the one ginger saves the bottom row, unasked
    assert {"type": "ginger", "seat": 0, "laid": [[7, 8]], "missing": [[5, 8]]} in events
    assert state.step == "wasabi_or_fetch" and state.current == 1


def test_states_stored_before_the_ginger_step_still_load() -> None:
    state = fresh(3)
    GAME.apply(state, 0, Fetch(0, True))
    stored = GAME.dump(state)
    del stored["placed"]
    loaded = GAME.load(stored)
    assert loaded.placed is None and loaded.step == "place"
    GAME.apply(loaded, 0, Place(0))
    assert loaded.current == 1


# ---------------------------------------------------------------- refill


def empty_row_zero_but(state: KaitenState, keep: int) -> None:
    for cell in range(6):
        if cell != keep:
            state.board[cell] = None


@pytest.mark.parametrize(("black_nearer", "near_rice"), [(True, "B"), (False, "W")])
def test_refill_lays_the_next_pair_nearest_the_sake(black_nearer: bool, near_rice: str) -> None:
    state = fresh(3)
    empty_row_zero_but(state, keep=0)
    pair = state.reserve[0]
    events = fetch_and_place(state, 0, 0)
    assert state.sake == 6 and state.step == "refill" and state.current == 0  # row 0 from the right: empty
    assert GAME.legal_actions(state, 0) == [Refill(True), Refill(False)]
    assert GAME.view(state, None)["refill_cells"] == [5, 4]
    events = GAME.apply(state, 0, Refill(black_nearer))
    assert state.board[5] is not None and state.board[5][0] == near_rice
    assert {state.board[5], state.board[4]} == set(pair)
    assert len(state.reserve) == 5 and state.reserve[0] != pair
    assert types(events) == ["refilled", "turn"] and state.current == 1 and state.sake == 6


def test_refill_nearest_cells_follow_the_sake_side() -> None:
    state = fresh(3)
    # Empty column 0 except its bottom cell; fetching it from row 5's right end sends the sake to pine 17.
    for row in range(5):
        state.board[row * 6] = None
    state.sake = 11
    fetch_and_place(state, 30, 0)
    assert state.sake == 17 and state.step == "refill"
    GAME.apply(state, 0, Refill(True))
    assert state.board[30] is not None and state.board[30][0] == "B" and state.board[24] is not None
    assert state.board[24][0] == "W"


def test_with_the_reserve_gone_the_sake_moves_on_to_a_line_with_sushi() -> None:
    state = fresh(3)
    empty_row_zero_but(state, keep=0)
    state.reserve = []
    for cell in range(6, 12):
        state.board[cell] = None  # row 1 too, so pine 7 is skipped
    events = fetch_and_place(state, 0, 0)
    assert {"type": "sake_moved", "seat": 0, "from": 0, "to": 6, "reason": "fetch"} in events
    assert {"type": "sake_moved", "seat": 0, "from": 6, "to": 8, "reason": "no_reserve"} in events
    assert state.sake == 8 and state.current == 1 and state.step == "wasabi_or_fetch"


# ---------------------------------------------------------------- turns and the end


def test_turns_skip_a_full_plate() -> None:
    state = fresh(3)
    state.plates[1] = list(RULEBOOK_PLATE)
    GAME.apply(state, 0, Fetch(0, False))
    assert state.current == 2 and GAME.to_move(state) == frozenset({2})


def test_game_ends_when_every_plate_is_full() -> None:
    state = fresh(2)
    state.plates[1] = list(RULEBOOK_PLATE)
    state.ginger_edges[1] = [(0, 1), (0, 3), (5, 8), (7, 8)]
    state.plates[0] = [*RULEBOOK_PLATE[:8], None]
    state.ginger_edges[0] = [(0, 1), (0, 3)]
    state.ginger[0] = 5
    state.board[0] = "B:black"
    events = fetch_and_place(state, 0, 8)
    assert types(events)[-1] == "game_over" and "sake_moved" not in types(events)
    assert GAME.is_over(state) and GAME.to_move(state) == frozenset()
    assert GAME.legal_actions(state, 0) == [] and GAME.legal_actions(state, 1) == []
    assert assert_refused(GAME, state, 0, Fetch(0, True)).code == "game_over"
    assert state.ginger_edges[0][-2:] == [(5, 8), (7, 8)]
    wasabi, soy = state.wasabi, state.soy
    assert GAME.scores(state) == [score_plate(RULEBOOK_PLATE, [], wasabi[s], soy[s]) for s in range(2)]
    view = GAME.view(state, None)
    assert view["over"] is True and view["phase"] == "over" and view["turn"] is None and view["to_move"] == []
    assert view["ranking"] == GAME.ranking(state) and types(view["last"]) == ["placed", "ginger", "game_over"]


def test_ties_go_to_fewer_soy_then_more_ginger_then_share() -> None:
    state = fresh(4)
    plain = ["W:black", "W:red", "W:brown", "W:green", "W:yellow", "W:beige", "W:red", "W:green", "W:yellow"]
    two_black = ["B:black", "B:red", *plain[2:]]  # +2 minority rice, 3 ginger-covered edges
    state.plates = [list(plain), list(two_black), list(plain), list(plain)]
    state.ginger_edges = [[], [(0, 3), (1, 2), (1, 4)], [], []]
    state.wasabi = [1, 0, 1, 2]
    state.soy = [0, 0, 0, 1]
    scores = GAME.scores(state)
    assert len(set(scores)) == 1
    assert GAME.ranking(state) == [2, 1, 2, 4]


# ---------------------------------------------------------------- dexterity


def test_normal_windows_are_at_least_three_seconds() -> None:
    for seed in range(10):
        state = fresh(4, seed)
        for pine in range(24):
            state.sake = pine
            for cell in PINES[pine].cells:
                found = challenge(state, cell)
                assert found is not None and found.window_seconds >= 3.0
                assert 0 <= found.target < found.buttons


def test_farther_sushi_gets_a_shorter_window() -> None:
    state = fresh(3)
    only(state, {0: "W:red", 24: "W:red"})
    near, far = challenge(state, 0), challenge(state, 24)
    assert near is not None and far is not None
    assert (near.distance, far.distance) == (0, 4)
    assert near.window_seconds > far.window_seconds >= 3.0


def test_crowded_sushi_gets_a_shorter_window() -> None:
    state = fresh(3)
    crowded = challenge(state, 6)  # full board: neighbours 0, 7, 12
    only(state, {6: "W:red"})
    alone = challenge(state, 6)
    assert crowded is not None and alone is not None
    assert (crowded.neighbours, alone.neighbours) == (3, 0)
    assert crowded.window_seconds < alone.window_seconds


def test_levels_relaxed_longer_strict_shorter_off_none() -> None:
    windows = {}
    for level in ("relaxed", "normal", "strict"):
        state = fresh(4, dexterity=level)
        found = [challenge(state, cell) for cell in PINES[0].cells]
        windows[level] = [c.window_seconds for c in found if c is not None]
        assert min(windows[level]) >= 2.0
    for relaxed, normal, strict in zip(windows["relaxed"], windows["normal"], windows["strict"], strict=True):
        assert relaxed > normal > strict
    assert challenge(fresh(4, dexterity="off"), 0) is None


def test_challenge_is_pure_and_restart_safe() -> None:
    state = fresh(3)
    before = json.dumps(GAME.dump(state), sort_keys=True)
    first = challenge(state, 12)
    assert challenge(state, 12) == first
    assert json.dumps(GAME.dump(state), sort_keys=True) == before
    assert challenge(roundtrip(GAME, state), 12) == first
    assert computer_fetch_succeeds(state, 12) == computer_fetch_succeeds(roundtrip(GAME, state), 12)
    # A fresh chopsticks position from turn to turn.
    targets = set()
    for turn in range(1, 40):
        state.turn = turn
        found = challenge(state, 12)
        assert found is not None
        targets.add(found.target)
    assert targets == set(range(first.buttons if first else 0))


def test_challenge_refuses_a_cell_that_cannot_be_fetched() -> None:
    state = fresh(3)
    with pytest.raises(IllegalAction) as caught:
        challenge(state, 1)
    assert caught.value.code == "not_on_line"


def test_dexterity_off_always_succeeds() -> None:
    state = fresh(3, dexterity="off")
    assert all(isinstance(a, Wasabi) or a.success for a in GAME.legal_actions(state, 0))  # type: ignore[attr-defined]
    assert assert_refused(GAME, state, 0, Fetch(0, False)).code == "dexterity_off"
    action = GAME.default_action(state, 0)
    assert isinstance(action, Fetch) and action.success


@pytest.mark.parametrize("level", ["relaxed", "normal", "strict", "off"])
def test_computer_success_rate(level: str) -> None:
    state = fresh(3, dexterity=level)
    hits = 0
    for turn in range(1, 1001):
        state.turn = turn
        hits += computer_fetch_succeeds(state, 0)
    assert abs(hits / 1000 - COMPUTER_SUCCESS[level]) < 0.05


# ---------------------------------------------------------------- default action


def test_timeout_on_a_fetch_is_a_failed_fetch() -> None:
    state = fresh(3)
    before = json.dumps(GAME.dump(state), sort_keys=True)
    action = GAME.default_action(state, 0)
    assert json.dumps(GAME.dump(state), sort_keys=True) == before
    assert action in GAME.legal_actions(state, 0)
    assert isinstance(action, Fetch) and not action.success
    with pytest.raises(IllegalAction):
        GAME.default_action(state, 1)


def test_default_action_builds_a_combination() -> None:
    state = fresh(3)
    only(state, {0: "W:green", 6: "W:brown", 12: "W:beige"})
    state.plates[0][:2] = ["W:black", "W:red"]
    state.wasabi[0] = 0
    assert GAME.default_action(state, 0) == Fetch(6, False)
    GAME.apply(state, 0, Fetch(6, True))
    assert GAME.default_action(state, 0) == Place(2)  # black, red, brown: 5 points


def test_default_action_spends_wasabi_for_a_much_better_line() -> None:
    state = fresh(3)
    state.plates[0] = ["W:black", "W:red", None, "W:yellow", "W:black", None, "W:beige", None, None]
    only(state, {0: "W:green", 1: "W:brown"})  # the brown on cell 1 completes black-red-brown
    action = GAME.default_action(state, 0)
    assert isinstance(action, Wasabi)
    GAME.apply(state, 0, action)
    assert GAME.default_action(state, 0) == Fetch(1, False)


# ---------------------------------------------------------------- codecs and view


def test_actions_round_trip_and_bad_ones_are_refused() -> None:
    for action in (Wasabi(-2), Fetch(12, False), Place(4), Refill(True), Ginger(((1, 4), (4, 7)))):
        assert GAME.decode_action(json.loads(json.dumps(GAME.encode_action(action)))) == action
    with pytest.raises(IllegalAction) as caught:
        GAME.decode_action({"type": "chopsticks"})
    assert caught.value.code == "unknown_action"
    with pytest.raises(IllegalAction) as caught:
        GAME.decode_action({"type": "fetch", "cell": "x", "success": True})
    assert caught.value.code == "malformed_action"
    for odd in (
        {"type": "fetch", "cell": 0.5, "success": True},
        {"type": "fetch", "cell": True, "success": 1},
    ):
        with pytest.raises(IllegalAction) as caught:
            GAME.decode_action(odd)  # a number that is no int, a bool for a number: refused as unreadable
        assert caught.value.code == "malformed_action"
    state = fresh(3)
    assert assert_refused(GAME, state, 0, Fetch(99, True)).code == "bad_cell"


def test_view_has_what_the_table_renders() -> None:
    state = fresh(3)
    view = GAME.view(state, 1)
    json.dumps(view)
    assert view["seat"] == 1 and view["to_move"] == [0] and view["over"] is False
    assert view["phase"] == "wasabi_or_fetch" and view["fetchable"] == list(PINES[0].cells)
    assert view["turn"] == 0 and view["turn_number"] == 1 and view["round"] is None
    assert view["ranking"] is None and view["last"] == []
    assert view["sake"] == {"pine": 0, "side": "top", "position": 0, "line": "column", "index": 0,
                            "cells": [0, 6, 12, 18, 24, 30]}  # fmt: skip
    assert len(view["pines"]) == 24 and view["reserve_left"] == 6 and len(view["board"]) == 36
    assert view["condiments"] == [None] * 36
    player = view["players"][2]
    assert player["side"] == "bottom" and player["plate"] == [None] * 9
    assert (player["ginger"], player["wasabi"], player["soy"], player["score"]) == (1, 1, 0, 2)
    assert view["scores"] == [2, 2, 2] and GAME.view(state, None)["seat"] is None


def hidden_shuffled(state: KaitenState, seed: int) -> KaitenState:
    """The same game with the still-hidden tiles dealt differently: every view must be identical."""
    other = GAME.load(GAME.dump(state))
    hidden = [c for c in range(CELLS) if not other.revealed[c]]
    faces = [other.tiles[c] for c in hidden]
    random.Random(seed).shuffle(faces)
    for cell, face in zip(hidden, faces, strict=True):
        other.tiles[cell] = face
    return other


# ---------------------------------------------------------------- properties


def conserved(state: KaitenState) -> None:
    """48 sushi and 36 tiles are all accounted for; no view shows a hidden tile."""
    sushi = [s for s in state.board if s is not None]
    sushi += [s for pair in state.reserve for s in pair]
    sushi += [s for plate in state.plates for s in plate if s is not None]
    sushi += state.removed + ([state.holding] if state.holding else [])
    assert len(sushi) == 48
    assert Counter(s[0] for s in sushi) == {"B": 24, "W": 24}
    assert Counter(s.split(":")[1] for s in sushi) == dict.fromkeys(INGREDIENTS, 8)
    assert Counter(state.tiles) == Counter(TILES)
    assert sum(state.revealed) == sum(len(g) for g in state.gained)
    for seat in range(state.players):
        gingers = sum(t in ("ginger", "ginger_wasabi") for t in state.gained[seat])
        assert state.ginger[seat] + len(state.ginger_edges[seat]) == 1 + gingers
        assert state.wasabi[seat] <= 1 + sum(t in ("wasabi", "ginger_wasabi") for t in state.gained[seat])
    if not state.over:
        assert any(state.board[c] is not None for c in PINES[state.sake].cells) or state.step in (
            "refill",
            "place",
            "ginger",
        )
        seat = state.current
        before = json.dumps(GAME.dump(state), sort_keys=True)
        assert GAME.default_action(state, seat) in GAME.legal_actions(state, seat)
        assert json.dumps(GAME.dump(state), sort_keys=True) == before
    other = hidden_shuffled(state, state.turn)
    for audience in [None, *range(state.players)]:
        assert GAME.view(other, audience) == GAME.view(state, audience)
    for player in GAME.view(state, None)["players"]:  # the parts the results explain add up to the score
        parts = player["score_parts"]
        lines = sum(line["points"] or 0 for line in parts["lines"])
        assert lines + parts["wasabi"] + parts["soy"] + parts["rice"] == player["score"]


@settings(max_examples=25, deadline=None)
@given(
    players=st.integers(2, 4),
    seed=st.integers(0, 2**32),
    arrangement=st.sampled_from(GAME.options["arrangement"]),
    dexterity=st.sampled_from(GAME.options["dexterity"]),
)
def test_random_play_ends_and_conserves(players: int, seed: int, arrangement: str, dexterity: str) -> None:
    options = {"arrangement": arrangement, "dexterity": dexterity}
    state = random_playout(GAME, players, seed, options=options, check=conserved)
    assert all(all(s is not None for s in plate) for plate in state.plates)
    final = GAME.scores(state)
    for seat in range(players):
        bare = missing_edges(state.plates[seat], state.ginger_edges[seat])
        cells = [s for s in state.plates[seat] if s is not None]
        assert final[seat] == score_plate(cells, bare, state.wasabi[seat], state.soy[seat])


@settings(max_examples=25, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32), steps=st.integers(0, 150))
def test_illegal_actions_leave_the_state_untouched(players: int, seed: int, steps: int) -> None:
    state = GAME.new(players, seed)
    chooser = random.Random(seed)
    for _ in range(steps):
        if GAME.is_over(state):
            break
        seat = state.current
        GAME.apply(state, seat, chooser.choice(GAME.legal_actions(state, seat)))
    if GAME.is_over(state):
        return
    seat = state.current
    legal = GAME.legal_actions(state, seat)
    candidates = [Wasabi(s) for s in (-3, -2, -1, 0, 1, 2, 3)]
    candidates += [Fetch(c, ok) for c in range(-1, 37) for ok in (True, False)]
    candidates += [Place(c) for c in range(-1, 10)] + [Refill(True), Refill(False)]
    candidates += [Ginger(()), Ginger(((0, 1),)), Ginger(((1, 4), (4, 7))), Ginger(((4, 5),))]
    for action in candidates:
        if action not in legal:
            assert_refused(GAME, state, seat, action)
        assert_refused(GAME, state, (seat + 1) % players, action)
    for action in legal:
        trial = GAME.load(GAME.dump(state))
        GAME.apply(trial, seat, action)


def spoiled(bare: list[tuple[int, int]]) -> frozenset[int]:
    """Plate lines (rows 0-2, columns 3-5) that bare edges zero, worked out afresh."""
    return frozenset(i // 3 if j == i + 1 else 3 + i % 3 for i, j in bare)


def ginger_outcomes(
    state: KaitenState, seat: int, cell: int
) -> tuple[list[tuple[int, int]], int, set[frozenset[int]]]:
    """By brute force: the new black/white edges around `cell`, how many of them the ginger in hand
    covers, and the spoiled lines of every way to lay it."""
    plate, laid = state.plates[seat], set(state.ginger_edges[seat])
    pairs = [(i, i + 1) for i in range(9) if i % 3 < 2] + [(i, i + 3) for i in range(6)]
    bare = [
        (i, j)
        for i, j in pairs
        if (a := plate[i]) is not None and (b := plate[j]) is not None and a[0] != b[0] and (i, j) not in laid
    ]
    new = [edge for edge in bare if cell in edge]
    old = [edge for edge in bare if cell not in edge]
    count = min(state.ginger[seat], len(new))
    outcomes = {
        spoiled(old + [e for e in new if e not in covered]) for covered in itertools.combinations(new, count)
    }
    return new, count, outcomes


def check_ginger_decisions(state: KaitenState) -> None:
    """A ginger decision is asked exactly when it matters, offers every sensible outcome once, and the
    computer's pick spoils the fewest lines."""
    seat = state.current
    if state.step == "place":
        for action in GAME.legal_actions(state, seat):
            trial = copy.deepcopy(state)
            GAME.apply(trial, seat, action)
            assert isinstance(action, Place)
            _, _, outcomes = ginger_outcomes(trial, seat, action.cell)
            sensible = {o for o in outcomes if not any(other < o for other in outcomes)}
            assert (trial.step == "ginger") == (len(sensible) > 1)
            if trial.step != "ginger":  # laid at once: the one sensible way
                bare = missing_edges(trial.plates[seat], trial.ginger_edges[seat])
                assert spoiled(bare) in sensible
    if state.step == "ginger":
        assert state.placed is not None
        new, count, outcomes = ginger_outcomes(state, seat, state.placed)
        sensible = {o for o in outcomes if not any(other < o for other in outcomes)}
        legal = GAME.legal_actions(state, seat)
        results = []
        for action in legal:
            assert isinstance(action, Ginger) and len(action.edges) == count and set(action.edges) <= set(new)
            old = [e for e in missing_edges(state.plates[seat], state.ginger_edges[seat]) if e not in new]
            results.append(spoiled(old + [e for e in new if e not in action.edges]))
        assert len(results) == len(set(results)) == len(sensible) >= 2 and set(results) == sensible
        chosen = results[legal.index(GAME.default_action(state, seat))]
        assert len(chosen) == min(len(o) for o in outcomes)
        assert GAME.computer_action(state, seat) == GAME.default_action(state, seat)


@settings(max_examples=60, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32), dexterity=st.sampled_from(["off", "normal"]))
def test_ginger_decisions_are_the_real_choices_and_games_end(players: int, seed: int, dexterity: str) -> None:
    state = GAME.new(players, seed, {"dexterity": dexterity})
    chooser = random.Random(seed)
    for _ in range(2_000):
        if GAME.is_over(state):
            break
        check_ginger_decisions(state)
        GAME.apply(state, state.current, chooser.choice(GAME.legal_actions(state, state.current)))
    assert GAME.is_over(state)


def test_computer_players_finish_a_game() -> None:
    for players in (2, 3, 4):
        state = GAME.new(players, players)
        while not GAME.is_over(state):
            seat = state.current
            before = json.dumps(GAME.dump(state), sort_keys=True)
            action = GAME.computer_action(state, seat)
            assert json.dumps(GAME.dump(state), sort_keys=True) == before
            assert action in GAME.legal_actions(state, seat)
            GAME.apply(state, seat, action)
        assert min(GAME.ranking(state)) == 1 and max(GAME.scores(state)) > 0


@pytest.mark.parametrize("level", ["normal", "off"])
def test_computer_action_fetches_with_the_level_success(level: str) -> None:
    state = fresh(3, dexterity=level)
    outcomes = set()
    for turn in range(1, 60):
        state.turn = turn
        action = GAME.computer_action(state, 0)
        assert isinstance(action, Fetch) and action.cell == GAME.default_action(state, 0).cell  # type: ignore[attr-defined]
        assert action.success == computer_fetch_succeeds(state, action.cell)
        outcomes.add(action.success)
    assert outcomes == ({True, False} if level == "normal" else {True})
    GAME.apply(state, 0, Fetch(0, True))
    assert GAME.computer_action(state, 0) == GAME.default_action(state, 0)  # placing: no chance involved


# ---------------------------------------------------------------- the results explained

# RULEBOOK_PLATE with its black rice moved from the bottom right to the top middle: the same lines and
# rice points, but three black/white edges instead of four (so one ginger placed fewer).
FEWER_EDGES_PLATE = [
    "B:red", "B:brown", "W:beige",
    "W:beige", "W:black", "W:yellow",
    "W:brown", "W:red", "W:black",
]  # fmt: skip
BLACK_WHITE_EDGES = {
    tuple(RULEBOOK_PLATE): [(0, 1), (0, 3), (5, 8), (7, 8)],
    tuple(FEWER_EDGES_PLATE): [(0, 3), (1, 2), (1, 4)],
}


def finished(*plates: tuple[list[str], int, int]) -> KaitenState:
    """A finished game: per seat (plate, wasabi, soy), every black/white edge with its ginger."""
    state = fresh(max(2, len(plates)))
    for seat, (plate, wasabi, soy) in enumerate(plates):
        state.plates[seat] = list(plate)
        state.ginger_edges[seat] = list(BLACK_WHITE_EDGES[tuple(plate)])
        state.wasabi[seat], state.soy[seat], state.ginger[seat] = wasabi, soy, 0
    state.over, state.step = True, "over"
    return state


def notes_of(state: KaitenState) -> ResultNotes:
    names = ["alice", "bob", "carol", "dave"][: state.players]
    seats = [Seat(100 + seat, name) for seat, name in enumerate(names)]
    record = TableRecord(
        guild_id=1, channel_id=10, game_id=GAME.id, host_id=100, status="finished", seats=seats
    )
    return kaiten_render.result_notes(TableContext(record, GAME, state))


def test_the_rulebook_plate_is_explained_line_by_line_and_fewer_soy_breaks_the_tie() -> None:
    # alice: the rulebook's 22 (two wasabi, one soy); bob the same plate, one wasabi and no soy: 22 too.
    state = finished((RULEBOOK_PLATE, 2, 1), (RULEBOOK_PLATE, 1, 0))
    assert GAME.scores(state) == [22, 22] and GAME.ranking(state) == [2, 1]
    notes = notes_of(state)
    # Rows top to bottom (the rulebook's c, b, a), columns left to right (d, e, f).
    assert notes.breakdown[0] == (
        "Rows: 🔴🟤⚪ **1** · ⚪⚫🟡 **3** · 🟤🔴⚫ **5**"
        "\n\u2003Columns: 🔴⚪🟤 **1** · 🟤⚫🔴 **5** · ⚪🟡⚫ **3**"
        "\n\u2003🌿 2 unused wasabi **+4** · 🫗 1 soy **−2**"
        " · 🍚 2 sushi on ⬛ black rice, the rarer colour **+2**"
    )
    assert notes.breakdown[1].endswith(
        "🌿 1 unused wasabi **+2** · 🫗 no soy · 🍚 2 sushi on ⬛ black rice, the rarer colour **+2**"
    )
    assert notes.tie_break == "Tied on 22 points: fewer soy ranks higher — bob 🫗 0 · alice 🫗 1"


def test_ginger_placed_breaks_a_tie_on_soy_too_and_only_what_decided_is_named() -> None:
    # All three score 22; alice has no soy; bob and carol one each, bob with four ginger placed, carol three.
    state = finished((RULEBOOK_PLATE, 1, 0), (RULEBOOK_PLATE, 2, 1), (FEWER_EDGES_PLATE, 2, 1))
    assert GAME.scores(state) == [22, 22, 22] and GAME.ranking(state) == [1, 2, 3]
    assert notes_of(state).tie_break == (
        "Tied on 22 points: fewer soy ranks higher — alice 🫗 0 · bob 🫗 1 · carol 🫗 1"
        "\n⚖️ Of those with 1 soy: more ginger placed ranks higher — bob 🫚 4 · carol 🫚 3"
    )
    # Equal soy: ginger placed alone decided.
    state = finished((FEWER_EDGES_PLATE, 0, 0), (RULEBOOK_PLATE, 0, 0))
    assert GAME.ranking(state) == [2, 1]
    assert notes_of(state).tie_break == (
        "Tied on 20 points and no soy for anyone: more ginger placed ranks higher — bob 🫚 4 · alice 🫚 3"
    )


def test_a_tie_that_stands_names_no_tie_break_and_a_missing_ginger_strikes_its_line() -> None:
    state = finished((RULEBOOK_PLATE, 0, 0), (RULEBOOK_PLATE, 0, 0), (FEWER_EDGES_PLATE, 0, 1))
    for seat in (0, 1):  # no ginger between the bottom middle and the bottom right: the 5-point row is lost
        state.ginger_edges[seat].remove((7, 8))
    assert GAME.scores(state) == [15, 15, 18] and GAME.ranking(state) == [2, 2, 1]
    notes = notes_of(state)
    assert notes.tie_break is None
    assert notes.breakdown[0].startswith(
        "Rows: 🔴🟤⚪ **1** · ⚪⚫🟡 **3** · 🟤🔴⚫ ~~5~~ **0** (missing ginger)\n"
    )
    assert "🌿 no wasabi left · 🫗 no soy · 🍚 2 sushi on ⬛ black rice" in notes.breakdown[1]
