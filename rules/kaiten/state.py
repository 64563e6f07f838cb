"""Kaiten Sushi's actions and state, and the questions about a state that the engine, its view and its
computer players all ask (what may be fetched, the plates' scores)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from rules.engine import Action, Event, Rng, require, shared_ranks
from rules.kaiten.board import CELLS, PINE_COUNT, PINES
from rules.kaiten.plate import GingerChoice, PlateScore, ginger_choices, missing_edges, plate_score


@dataclass(frozen=True)
class Wasabi(Action):
    """Spend a wasabi to move the sake `steps` pines: -2, -1, 1 or 2, positive = clockwise."""

    kind: ClassVar[str] = "wasabi"
    steps: int


@dataclass(frozen=True)
class Fetch(Action):
    """Fetch the sushi on `cell` (on the sake's line); `success` = the dexterity challenge was passed."""

    kind: ClassVar[str] = "fetch"
    cell: int
    success: bool


@dataclass(frozen=True)
class Place(Action):
    """Put the fetched sushi on plate cell `cell` (0..8)."""

    kind: ClassVar[str] = "place"
    cell: int


@dataclass(frozen=True)
class Ginger(Action):
    """Lay the ginger in hand on these new black/white plate edges, each (i, j) with i < j."""

    kind: ClassVar[str] = "ginger"
    edges: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Refill(Action):
    """Lay the next reserve pair on the sake's empty line, the black-rice sushi nearer the sake or not."""

    kind: ClassVar[str] = "refill"
    black_nearer: bool


@dataclass
class KaitenState:
    players: int
    rng: Rng
    options: dict[str, str] = field(default_factory=dict[str, str])
    board: list[str | None] = field(default_factory=list[str | None])
    """36 cells: a sushi "B:red" / "W:beige", or None."""
    tiles: list[str] = field(default_factory=list[str])
    """The condiment tile under each cell; hidden until `revealed` (then gained and gone from the board)."""
    revealed: list[bool] = field(default_factory=list[bool])
    reserve: list[tuple[str, str]] = field(default_factory=list[tuple[str, str]])
    """Reserve pairs in order, each (black-rice sushi, white-rice sushi)."""
    removed: list[str] = field(default_factory=list[str])
    sake: int = 0
    current: int = 0
    step: str = "wasabi_or_fetch"
    turn: int = 1
    holding: str | None = None
    """The sushi in the chopsticks during the "place" step."""
    fetched_from: int | None = None
    placed: int | None = None
    """The plate cell of the sushi just placed, while its ginger is chosen (the "ginger" step)."""
    plates: list[list[str | None]] = field(default_factory=list[list[str | None]])
    ginger: list[int] = field(default_factory=list[int])
    wasabi: list[int] = field(default_factory=list[int])
    soy: list[int] = field(default_factory=list[int])
    ginger_edges: list[list[tuple[int, int]]] = field(default_factory=list[list[tuple[int, int]]])
    """Per seat, the plate edges (i, j), i < j, that got a ginger."""
    gained: list[list[str]] = field(default_factory=list[list[str]])
    """Per seat, the condiment tiles revealed on their successful fetches."""
    over: bool = False
    last: list[Event] = field(default_factory=list[Event])
    """The events of the last action, for the table to render."""


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def is_bool(value: object) -> bool:
    """An action's flag as decoded or built, checked: a forged one may hold anything."""
    return isinstance(value, bool)


def line_has_sushi(state: KaitenState, pine: int) -> bool:
    return any(state.board[cell] is not None for cell in PINES[pine].cells)


def fetchable(state: KaitenState) -> list[int]:
    return [cell for cell in PINES[state.sake].cells if state.board[cell] is not None]


def wasabi_moves(state: KaitenState, seat: int) -> list[int]:
    if state.step != "wasabi_or_fetch" or state.wasabi[seat] <= 0:
        return []
    return [steps for steps in (-2, -1, 1, 2) if line_has_sushi(state, (state.sake + steps) % PINE_COUNT)]


def check_fetch(state: KaitenState, cell: int) -> None:
    require(state.step in ("wasabi_or_fetch", "fetch"), "wrong_step", step=state.step)
    require(is_int(cell) and 0 <= cell < CELLS, "bad_cell", cell=cell)
    require(state.board[cell] is not None, "no_sushi", cell=cell)
    require(cell in PINES[state.sake].cells, "not_on_line", cell=cell, pine=state.sake)


def full(plate: Sequence[str | None]) -> bool:
    return all(s is not None for s in plate)


def seat_score(state: KaitenState, seat: int) -> PlateScore:
    plate = state.plates[seat]
    missing = missing_edges(plate, state.ginger_edges[seat])
    return plate_score(plate, missing, state.wasabi[seat], state.soy[seat])


def scores_of(state: KaitenState) -> list[int]:
    return [seat_score(state, s).total for s in range(state.players)]


def ranking_of(state: KaitenState) -> list[int]:
    points = scores_of(state)
    return shared_ranks(
        [(points[s], -state.soy[s], len(state.ginger_edges[s])) for s in range(state.players)]
    )


def placed_choices(state: KaitenState, seat: int) -> list[GingerChoice]:
    """The ginger choices for the sushi just placed on `seat`'s plate."""
    assert state.placed is not None
    plate, edges = state.plates[seat], state.ginger_edges[seat]
    return ginger_choices(plate, edges, state.ginger[seat], state.placed)


def refill_cells(state: KaitenState) -> tuple[int, int]:
    """[near, far]: the two empty cells of the sake's line nearest the sake."""
    empty = [cell for cell in PINES[state.sake].cells if state.board[cell] is None]
    return empty[0], empty[1]
