"""Kaiten Sushi's placement model: what a plate is likely worth, and the best cell and ginger for a sushi.

The engine's `default_action` plays by it, and the computer players build on it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache, lru_cache

from rules.kaiten.board import PLATE_SIZE, Edge
from rules.kaiten.plate import (
    BLACK,
    OTHER_LINE,
    PLATE_LINES,
    REFERENCE_CARD,
    WHITE,
    GingerChoice,
    ginger_choices,
    legal_plate_cells,
    line_points,
)
from rules.kaiten.state import KaitenState

PROSPECT = 0.6
"""The weight for a plate line still open: its best reachable combination, discounted."""


@cache
def line_prospect(ingredients: tuple[str, ...]) -> float:
    """A line's worth by its ingredients so far (sorted): exact when full, else the best combination
    still reachable, discounted. Cached: the computer asks it thousands of times a game."""
    if len(ingredients) == PLATE_SIZE:
        return line_points(ingredients)
    have = Counter(ingredients)
    reachable = [points for combo, points in REFERENCE_CARD.items() if not have - Counter(combo)]
    return PROSPECT * max([OTHER_LINE, *reachable])


def prospect(plate: Sequence[str | None], spoiled: frozenset[int], ginger: int) -> float:
    """The engine's guess at what a plate is worth: full lines exactly, open lines by the best
    combination their ingredients still allow (discounted), spoiled lines nothing, plus ginger in hand."""
    total = 0.0
    for index, line in enumerate(PLATE_LINES):
        if index in spoiled:
            continue
        total += line_prospect(tuple(sorted(s[2:] for s in (plate[i] for i in line) if s is not None)))
    rice = Counter(s[0] for s in plate if s is not None)
    return total + min(rice[BLACK], rice[WHITE]) + 0.5 * ginger


def best_ginger(
    plate: Sequence[str | None], ginger_edges: Sequence[Edge], ginger: int, cell: int
) -> tuple[float, GingerChoice]:
    """The ginger choice spoiling the fewest lines, then keeping the best prospects; the first among
    equals. With its prospect."""
    best: tuple[tuple[int, float], float, GingerChoice] | None = None
    for choice in ginger_choices(plate, ginger_edges, ginger, cell):
        value = prospect(plate, choice.spoiled, ginger - len(choice.covered))
        key = (-len(choice.spoiled), value)
        if best is None or key > best[0]:
            best = (key, value, choice)
    assert best is not None
    return best[1], best[2]


def best_placement(state: KaitenState, seat: int, sushi: str) -> tuple[float, int]:
    """The best plate cell for `sushi` by `prospect` (with its best ginger), and its value; the first
    cell among equals."""
    return placement(tuple(state.plates[seat]), tuple(state.ginger_edges[seat]), state.ginger[seat], sushi)


@lru_cache(maxsize=4096)
def placement(
    plate: tuple[str | None, ...], ginger_edges: tuple[Edge, ...], ginger: int, sushi: str
) -> tuple[float, int]:
    """`best_placement` on plain values, cached: a fetch decision asks it for every sushi on up to five
    lines, and only a dozen kinds of sushi exist."""
    best: tuple[float, int] | None = None
    for cell in legal_plate_cells(plate):
        trial = list(plate)
        trial[cell] = sushi
        value = best_ginger(trial, ginger_edges, ginger, cell)[0]
        if best is None or value > best[0]:
            best = (value, cell)
    assert best is not None
    return best
