"""What Kaiten Sushi shows: the typed view, built from a state (the renderer draws only this)."""

from __future__ import annotations

import copy
from typing import Literal, TypedDict, cast

from rules.engine import ViewHeader
from rules.kaiten.board import CELLS, PINES, PLATE_SIZE, SIDES, SIZE, Pine
from rules.kaiten.plate import PLATE_LINES, PlateScore, legal_plate_cells, missing_edges, zeroed_lines
from rules.kaiten.state import (
    KaitenState,
    fetchable,
    full,
    placed_choices,
    ranking_of,
    refill_cells,
    scores_of,
    seat_score,
    wasabi_moves,
)

KaitenPhase = Literal["wasabi_or_fetch", "fetch", "place", "ginger", "refill", "over"]
"""`state.step`: the steps of a turn (see the module doc), and "over" once every plate is full."""


class PineView(TypedDict):
    """One pine (`PINES[p]`) as plain data."""

    pine: int
    side: str
    position: int
    line: str
    """Either "row" or "column"."""
    index: int
    """The row's or column's index."""
    cells: list[int]
    """The line's cells, nearest the sake first."""


class GingerChoiceView(TypedDict):
    """One way to lay the ginger in hand on the new edges (the "ginger" step)."""

    edges: list[list[int]]
    """The edges [i, j] that get a ginger: Ginger(edges) as lists."""
    bare: list[list[int]]
    """The new edges left without ginger."""
    spoils: list[int]
    """Indexes into PLATE_LINES (rows 0-2, then columns 0-2) this choice newly makes score 0."""


class PlateLineView(TypedDict):
    """One scoring line of a plate (PLATE_LINES order: rows top to bottom, then columns left to right)."""

    line: Literal["row", "column"]
    index: int
    """The row's or column's index, 0-2."""
    cells: list[int]
    """Its plate cells."""
    card: int | None
    """The reference card's points for its three ingredients; None while not full."""
    spoiled: bool
    """A missing ginger on one of its edges makes it score 0."""
    points: int | None
    """What it adds to the score: `card`, or 0 when spoiled; None while it is not full and not spoiled."""


class PlateScoreView(TypedDict):
    """How `score` is counted (GAMES.md): the six lines, then wasabi, soy and rice; they add up to it."""

    lines: list[PlateLineView]
    wasabi: int
    """Points for the unused wasabi (2 each)."""
    soy: int
    """Points for the soy (-2 each)."""
    rice: int
    """Points for the rice of the colour less present (1 each)."""
    fewer_rice: str | None
    """That colour, "B" or "W"; None while both are as many."""


class KaitenPlayerView(TypedDict):
    seat: int
    side: str
    plate: list[str | None]
    ginger: int
    """Ginger in hand (not yet laid)."""
    wasabi: int
    soy: int
    ginger_edges: list[list[int]]
    """Plate edges [i, j] that got a ginger."""
    missing_ginger: list[list[int]]
    """Black/white plate edges [i, j] left without ginger for good (not the `ginger_due` ones)."""
    ginger_placed: int
    condiments: list[str]
    """The tiles gained, in order."""
    full: bool
    score: int
    score_parts: PlateScoreView


class KaitenView(ViewHeader):
    """What the table sees; every seat sees the same but `seat` (the hidden tiles are the only secret).

    Header: `turn` is the acting seat (None once over); `round` is always None (no rounds); `phase` is
    `state.step`, always a `KaitenPhase`. `last` holds the events of the latest action.
    """

    phase: KaitenPhase

    turn_number: int
    """Counts the turns from 1 (it also seeds the chopsticks challenge)."""
    options: dict[str, str]
    size: int
    board: list[str | None]
    condiments: list[str | None]
    """Per board cell, its revealed condiment tile; None while still face down."""
    sake: PineView
    pines: list[PineView]
    reserve: list[list[str]]
    """The reserve pairs in order, each [black-rice sushi, white-rice sushi]."""
    reserve_left: int
    removed: list[str]
    players: list[KaitenPlayerView]
    holding: str | None
    fetched_from: int | None
    fetchable: list[int]
    """Board cells the acting seat may fetch now (empty outside the fetch steps)."""
    wasabi_moves: list[int]
    plate_cells: list[int]
    """Plate cells the held sushi may go on (the "place" step only)."""
    refill_cells: list[int]
    """[near, far]: where the refill goes (the "refill" step only)."""
    placed: int | None
    """The plate cell just filled, whose ginger is being chosen (the "ginger" step only)."""
    ginger_due: list[list[int]]
    """The new black/white edges [i, j] waiting for ginger (the "ginger" step only)."""
    ginger_choices: list[GingerChoiceView]
    """The distinct ways to lay the ginger in hand on them, as offered by `legal_actions`."""


def build_view(state: KaitenState, seat: int | None) -> KaitenView:
    """What `seat` (None: the table) sees; everyone sees the same but the header's `seat`."""
    points = scores_of(state)
    fetching = not state.over and state.step in ("wasabi_or_fetch", "fetch")
    choosing = not state.over and state.step == "ginger"
    choices = placed_choices(state, state.current) if choosing else []
    due = sorted(choices[0].covered + choices[0].bare) if choices else []
    players: list[KaitenPlayerView] = []
    for s in range(state.players):
        bare = [edge for edge in missing_edges(state.plates[s], state.ginger_edges[s]) if edge not in due]
        players.append(
            {
                "seat": s,
                "side": SIDES[s],
                "plate": list(state.plates[s]),
                "ginger": state.ginger[s],
                "wasabi": state.wasabi[s],
                "soy": state.soy[s],
                "ginger_edges": [list(edge) for edge in state.ginger_edges[s]],
                "missing_ginger": [list(edge) for edge in bare],
                "ginger_placed": len(state.ginger_edges[s]),
                "condiments": list(state.gained[s]),
                "full": full(state.plates[s]),
                "score": points[s],
                "score_parts": score_view(seat_score(state, s)),
            }
        )
    # Lines spoiled by earlier bare edges are spoiled whatever the choice: not the choice's doing.
    spoiled_before = zeroed_lines([(i, j) for i, j in players[state.current]["missing_ginger"]])
    phase = cast(KaitenPhase, state.step)
    return {
        "seat": seat,
        "to_move": [] if state.over else [state.current],
        "turn": None if state.over else state.current,
        "round": None,
        "phase": phase,
        "over": state.over,
        "scores": points,
        "ranking": ranking_of(state) if state.over else None,
        "last": copy.deepcopy(state.last),
        "turn_number": state.turn,
        "options": dict(state.options),
        "size": SIZE,
        "board": list(state.board),
        # Only revealed tiles: the hidden ones are the game's only secret.
        "condiments": [state.tiles[c] if state.revealed[c] else None for c in range(CELLS)],
        "sake": pine_view(PINES[state.sake]),
        "pines": [pine_view(pine) for pine in PINES],
        "reserve": [list(pair) for pair in state.reserve],
        "reserve_left": len(state.reserve),
        "removed": list(state.removed),
        "players": players,
        "holding": state.holding,
        "fetched_from": state.fetched_from,
        "fetchable": fetchable(state) if fetching else [],
        "wasabi_moves": wasabi_moves(state, state.current) if fetching else [],
        "plate_cells": legal_plate_cells(state.plates[state.current]) if state.step == "place" else [],
        "refill_cells": list(refill_cells(state)) if state.step == "refill" else [],
        "placed": state.placed if choosing else None,
        "ginger_due": [list(edge) for edge in due],
        "ginger_choices": [
            {
                "edges": [list(edge) for edge in choice.covered],
                "bare": [list(edge) for edge in choice.bare],
                "spoils": sorted(choice.spoiled - spoiled_before),
            }
            for choice in choices
        ],
    }


def score_view(score: PlateScore) -> PlateScoreView:
    lines: list[PlateLineView] = [
        {
            "line": "row" if index < PLATE_SIZE else "column",
            "index": index % PLATE_SIZE,
            "cells": list(cells),
            "card": score.card[index],
            "spoiled": index in score.spoiled,
            "points": score.line(index),
        }
        for index, cells in enumerate(PLATE_LINES)
    ]
    return {
        "lines": lines,
        "wasabi": score.wasabi,
        "soy": score.soy,
        "rice": score.rice,
        "fewer_rice": score.fewer_rice,
    }


def pine_view(pine: Pine) -> PineView:
    return {
        "pine": pine.index,
        "side": pine.side,
        "position": pine.position,
        "line": pine.line,
        "index": pine.line_index,
        "cells": list(pine.cells),
    }
