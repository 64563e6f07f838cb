"""Kaiten Sushi's plates: how a plate scores (GAMES.md), where the next sushi may go, and the ways to
lay ginger on a just-placed sushi's new black/white edges."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from rules.kaiten.board import CORNERS, PLATE_CELLS, PLATE_EDGES, PLATE_SIZE, Edge, neighbours

INGREDIENTS: tuple[str, ...] = ("black", "red", "brown", "green", "yellow", "beige")
BLACK, WHITE = "B", "W"

REFERENCE_CARD: dict[tuple[str, ...], int] = {
    tuple(sorted(combo)): points
    for combo, points in (
        (("black", "red", "brown"), 5),
        (("green", "yellow", "beige"), 4),
        (("black", "yellow", "beige"), 3),
        (("red", "green", "brown"), 2),
        (("red", "green", "yellow"), 2),
        (("green", "beige", "brown"), 2),
    )
}
OTHER_LINE = 1
WASABI_POINTS = 2
SOY_POINTS = -2

PLATE_LINES: tuple[tuple[int, ...], ...] = (
    (0, 1, 2),
    (3, 4, 5),
    (6, 7, 8),
    (0, 3, 6),
    (1, 4, 7),
    (2, 5, 8),
)
"""The six scoring lines of a plate: rows 0-2 (top to bottom), then columns 0-2 (left to right)."""


def line_points(ingredients: Sequence[str]) -> int:
    """A full plate line by the reference card, in any order; any other line scores 1."""
    return REFERENCE_CARD.get(tuple(sorted(ingredients)), OTHER_LINE)


def zeroed_lines(missing: Sequence[tuple[int, int]]) -> set[int]:
    """Indexes into PLATE_LINES of the lines a bare black/white edge spoils."""
    zeroed: set[int] = set()
    for i, j in missing:
        a, b = sorted((i, j))
        if b == a + 1 and a // PLATE_SIZE == b // PLATE_SIZE:
            zeroed.add(a // PLATE_SIZE)
        elif b == a + PLATE_SIZE:
            zeroed.add(PLATE_SIZE + a % PLATE_SIZE)
        else:
            raise ValueError(f"plate cells {i} and {j} are not orthogonally adjacent")
    return zeroed


@dataclass(frozen=True)
class PlateScore:
    """A plate's score in the rulebook's parts; `total` is the one count `scores` and `score_plate` use."""

    card: tuple[int | None, ...]
    """Per PLATE_LINES: the reference card's points for the line's three ingredients; None while not full."""
    spoiled: frozenset[int]
    """Indexes into PLATE_LINES that a missing ginger makes score 0."""
    wasabi: int
    """Points for the unused wasabi."""
    soy: int
    """Points for the soy (zero or negative)."""
    rice: int
    """Points for the rice of the colour less present."""
    fewer_rice: str | None
    """That colour, BLACK or WHITE; None while both are as many."""

    def line(self, index: int) -> int | None:
        """What PLATE_LINES[index] adds: 0 when spoiled, None while not full (a running score skips it)."""
        return 0 if index in self.spoiled else self.card[index]

    @property
    def total(self) -> int:
        lines = sum(self.line(index) or 0 for index in range(len(PLATE_LINES)))
        return lines + self.wasabi + self.soy + self.rice


def plate_score(
    cells: Sequence[str | None], missing: Sequence[tuple[int, int]], wasabi: int, soy: int
) -> PlateScore:
    """A plate's score by its parts (GAMES.md); lines not yet full count nothing (the running score)."""
    card = tuple(
        None if any(cells[i] is None for i in line) else line_points([str(cells[i])[2:] for i in line])
        for line in PLATE_LINES
    )
    rice = Counter(s[0] for s in cells if s is not None)
    fewer = None if rice[BLACK] == rice[WHITE] else min((BLACK, WHITE), key=lambda colour: rice[colour])
    return PlateScore(
        card=card,
        spoiled=frozenset(zeroed_lines(missing)),
        wasabi=WASABI_POINTS * wasabi,
        soy=SOY_POINTS * soy,
        rice=min(rice[BLACK], rice[WHITE]),
        fewer_rice=fewer,
    )


def score_plate(cells: list[str], missing_ginger: list[tuple[int, int]], wasabi: int, soy: int) -> int:
    """A finished plate: 6 lines by the reference card (0 with a missing ginger), +2 per unused wasabi,
    -2 per soy, +1 per rice of the colour less present on the plate."""
    if len(cells) != PLATE_CELLS:
        raise ValueError(f"a plate has {PLATE_CELLS} cells, not {len(cells)}")
    for sushi in cells:
        rice, _, ingredient = sushi.partition(":")
        if rice not in (BLACK, WHITE) or ingredient not in INGREDIENTS:
            raise ValueError(f"not a sushi: {sushi!r}")
    for i, j in missing_ginger:
        if not (0 <= i < PLATE_CELLS and 0 <= j < PLATE_CELLS) or cells[i][0] == cells[j][0]:
            raise ValueError(f"cells {i} and {j} are not a black/white pair")
    return plate_score(cells, missing_ginger, wasabi, soy).total


def missing_edges(
    plate: Sequence[str | None], ginger_edges: Sequence[tuple[int, int]]
) -> list[tuple[int, int]]:
    """Black/white edges of a plate without a ginger, in ascending order."""
    laid = {tuple(sorted(edge)) for edge in ginger_edges}
    bare: list[Edge] = []
    for i, j in PLATE_EDGES:
        a, b = plate[i], plate[j]
        if a is not None and b is not None and a[0] != b[0] and (i, j) not in laid:
            bare.append((i, j))
    return bare


@dataclass(frozen=True)
class GingerChoice:
    """One way to lay ginger on the new edges of a just-placed sushi."""

    covered: tuple[Edge, ...]
    """The new edges that get a ginger: min(ginger in hand, new edges) of them."""
    bare: tuple[Edge, ...]
    """The new edges left without."""
    spoiled: frozenset[int]
    """Every line of the plate that scores 0 after it (earlier bare edges included)."""


def ginger_choices(
    plate: Sequence[str | None], ginger_edges: Sequence[Edge], ginger: int, cell: int
) -> list[GingerChoice]:
    """The distinct ways to cover the new black/white edges around plate cell `cell` (just filled).

    Every ginger in hand must go down while a new edge lacks one, so a choice covers min(ginger, new)
    edges. Choices leaving the same lines spoiled are one choice (the first in ascending edge order
    stands for them), and a choice spoiling every line another spoils and more is dropped (it can only
    lose points; ginger placed, the tie-break, is the same for all). One entry when there is nothing to
    decide (enough ginger, none, or all choices alike); the order is deterministic.
    """
    bare = missing_edges(plate, ginger_edges)
    new = [edge for edge in bare if cell in edge]
    before = zeroed_lines([edge for edge in bare if cell not in edge])
    found: dict[frozenset[int], GingerChoice] = {}
    for covered in itertools.combinations(new, min(ginger, len(new))):
        left = tuple(edge for edge in new if edge not in covered)
        spoiled = frozenset(before | zeroed_lines(left))
        found.setdefault(spoiled, GingerChoice(covered, left, spoiled))
    return [choice for choice in found.values() if not any(other < choice.spoiled for other in found)]


def legal_plate_cells(plate: Sequence[str | None]) -> list[int]:
    """Where the next sushi may go: a corner first, then next to one already there."""
    if all(s is None for s in plate):
        return list(CORNERS)
    return [
        cell
        for cell in range(PLATE_CELLS)
        if plate[cell] is None and any(plate[n] is not None for n in neighbours(cell, PLATE_SIZE))
    ]
