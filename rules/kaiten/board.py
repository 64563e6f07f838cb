"""Kaiten Sushi's geometry: the 6x6 board, the 24 pines around it and the 3x3 plate.

- Board cells 0..35 row-major, cell = row * 6 + column, row 0 at the top, column 0 on the left.
  Plate cells 0..8 row-major the same way.
- Pines 0..23 are the sake's edge spaces in clockwise order, six per side; `PINES[p]` gives the side,
  the position on that side (0..5, in clockwise order), the line (`"row"`/`"column"` and its index)
  and the line's cells nearest the sake first:
    0-5    top side,    left -> right, pine p aims down column p;
    6-11   right side,  top -> bottom, pine p aims along row p - 6 (from the right end);
    12-17  bottom side, right -> left, pine p aims up column 17 - p;
    18-23  left side,   bottom -> top, pine p aims along row 23 - p (from the left end).
- Seat i sits at side i (0 top, 1 right, 2 bottom, 3 left).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

SIZE = 6
CELLS = SIZE * SIZE
PINE_COUNT = 4 * SIZE
SIDES: tuple[str, ...] = ("top", "right", "bottom", "left")
PLATE_SIZE = 3
PLATE_CELLS = PLATE_SIZE * PLATE_SIZE
CORNERS: tuple[int, ...] = (0, 2, 6, 8)

Edge = tuple[int, int]
"""Two orthogonally adjacent plate cells (i, j), i < j."""


@dataclass(frozen=True)
class Pine:
    index: int
    side: str
    position: int
    line: str
    line_index: int
    cells: tuple[int, ...]
    """The cells of the pine's line, nearest the sake first."""


def _make_pine(index: int) -> Pine:
    side, position = divmod(index, SIZE)
    if side == 0:
        line, line_index = "column", position
        cells = tuple(row * SIZE + line_index for row in range(SIZE))
    elif side == 1:
        line, line_index = "row", position
        cells = tuple(line_index * SIZE + col for col in reversed(range(SIZE)))
    elif side == 2:
        line, line_index = "column", SIZE - 1 - position
        cells = tuple(row * SIZE + line_index for row in reversed(range(SIZE)))
    else:
        line, line_index = "row", SIZE - 1 - position
        cells = tuple(line_index * SIZE + col for col in range(SIZE))
    return Pine(index, SIDES[side], position, line, line_index, cells)


PINES: tuple[Pine, ...] = tuple(_make_pine(p) for p in range(PINE_COUNT))


def neighbours(cell: int, size: int) -> list[int]:
    """The cells orthogonally next to `cell` on a `size` x `size` grid, in row-major order."""
    row, col = divmod(cell, size)
    found: list[int] = []
    for r, c in ((row - 1, col), (row, col - 1), (row, col + 1), (row + 1, col)):
        if 0 <= r < size and 0 <= c < size:
            found.append(r * size + c)
    return found


PLATE_EDGES: tuple[Edge, ...] = tuple(
    (a, b) for a in range(PLATE_CELLS) for b in neighbours(a, PLATE_SIZE) if a < b
)
"""The 12 orthogonal plate edges as (i, j), i < j, in ascending order."""


def next_pine(pine: int, wanted: Callable[[int], bool]) -> int:
    """The next pine clockwise after `pine` whose line satisfies `wanted(pine)`; `pine` itself last."""
    for step in range(1, PINE_COUNT + 1):
        candidate = (pine + step) % PINE_COUNT
        if wanted(candidate):
            return candidate
    raise AssertionError("no pine qualifies")
