"""What a game of Sushizock is made of: its dice and tiles, its actions, its state, its view and
how piles score (the rules that move them are game.py)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, TypedDict

from rules.engine import Action, Rng, ViewHeader

SUSHI = "sushi"
BONE = "bone"
BLUE = "blue"
RED = "red"
FACES: tuple[str, ...] = (SUSHI, SUSHI, BONE, BONE, BLUE, RED)
"""The six faces of every die."""
PILES: tuple[str, ...] = (SUSHI, BONE)
CHOPSTICKS: dict[str, str] = {BLUE: SUSHI, RED: BONE}
"""Which pile each colour of chopsticks steals from."""
DICE = 5
THROWS = 3
STEAL_TOP = 3
"""Chopsticks of one colour needed to steal a pile's top tile."""
STEAL_BLIND = 4
"""Chopsticks of one colour needed to steal any tile of a pile, named by position."""
SUSHI_TILES: tuple[int, ...] = (1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6)
BONE_TILES: tuple[int, ...] = (-1, -1, -1, -1, -1, -2, -2, -2, -2, -3, -3, -4)


# ---------------------------------------------------------------- actions


@dataclass(frozen=True)
class Roll(Action):
    """Set aside the dice at `keep` (indices into the current throw) and throw the rest.

    The first throw of a turn keeps nothing: `Roll()`. Indices are listed ascending, once each.
    """

    kind: ClassVar[str] = "roll"
    keep: tuple[int, ...] = ()


@dataclass(frozen=True)
class Take(Action):
    """Take the Nth tile of a row, N being the number of dice showing that face."""

    kind: ClassVar[str] = "take"
    pile: str


@dataclass(frozen=True)
class Steal(Action):
    """Steal from `target`'s pile of the chopsticks' colour; `position` 1 is the top."""

    kind: ClassVar[str] = "steal"
    target: int
    position: int = 1


@dataclass(frozen=True)
class ForcedTake(Action):
    """End a turn that allows nothing else: the most negative bone, or the lowest sushi."""

    kind: ClassVar[str] = "forced_take"


# ---------------------------------------------------------------- state


@dataclass
class SushizockState:
    players: int
    rng: Rng
    options: dict[str, str] = field(default_factory=dict[str, str])
    sushi_row: list[int] = field(default_factory=list[int])
    bone_row: list[int] = field(default_factory=list[int])
    sushi_piles: list[list[int]] = field(default_factory=list[list[int]])
    """Per seat, index 0 = bottom, last = top."""
    bone_piles: list[list[int]] = field(default_factory=list[list[int]])
    turn: int = 0
    throws: int = 0
    """Throws made this turn (0 = the turn has not thrown yet)."""
    thrown: list[str] = field(default_factory=list[str])
    """Faces of the current throw; Roll.keep indexes this list."""
    set_aside: list[str] = field(default_factory=list[str])
    over: bool = False
    last: dict[str, Any] | None = None


# ---------------------------------------------------------------- the view

Phase = Literal["roll", "choose", "over"]
""""roll": the turn has not thrown yet; "choose": after a throw (take, steal, or set aside and throw)."""


class PileShown(TypedDict):
    """A pile as everybody sees it: its height and its top tile (None when empty)."""

    height: int
    top: int | None


class ResultCounts(TypedDict):
    """The faces of the whole result so far (set-aside and thrown dice together)."""

    sushi: int
    bone: int
    blue: int
    red: int


class StealOffer(TypedDict):
    pile: str
    """The pile the chopsticks steal from: "sushi" (blue) or "bone" (red)."""
    blind: bool
    """Four or five chopsticks: any tile of a pile, named by position (1 = top)."""
    targets: list[int]


class TurnOptions(TypedDict):
    """What the result allows the player to move."""

    sushi: int | None
    """N when the Nth sushi may be taken, else None."""
    bone: int | None
    steal: StealOffer | None
    forced: bool
    can_roll: bool


class ForcedTile(TypedDict):
    pile: str
    nth: int
    tile: int


class FinalPiles(TypedDict):
    """A seat's piles turned over for scoring, bottom first."""

    sushi_pile: list[int]
    bone_pile: list[int]
    counted: int
    """How many sushi (from the bottom) count: as many as the seat has bones."""


class SushizockView(ViewHeader):
    """What `view()` shows: the same for every seat (the piles hide their tiles from the owner too)."""

    phase: Phase
    sushi_row: list[int]
    bone_row: list[int]
    sushi_piles: list[PileShown]
    bone_piles: list[PileShown]
    thrown: list[str]
    set_aside: list[str]
    result: ResultCounts
    throws: int
    """Throws made this turn (0 before the first)."""
    throws_left: int
    options: TurnOptions | None
    """None once the game is over."""
    forced_tile: ForcedTile | None
    """What a forced take would take now (shown before the player commits to it)."""
    final_piles: list[FinalPiles] | None
    """The piles turned over, once the game is over; None before."""


# ---------------------------------------------------------------- scoring


def forced_tile(sushi_row: Sequence[int], bone_row: Sequence[int]) -> tuple[str, int]:
    """The forced take of a turn that can take nothing else: the lowest bone, or the lowest sushi once
    the bones are gone, as (pile, 0-based index in its row)."""
    if bone_row:
        return BONE, bone_row.index(min(bone_row))
    return SUSHI, sushi_row.index(min(sushi_row))


def score_piles(sushi_pile: list[int], bone_pile: list[int]) -> int:
    """Sushi above the bone pile's height are discarded from the top; every bone counts against."""
    counted = sushi_pile[: len(bone_pile)]
    return sum(counted) - sum(abs(bone) for bone in bone_pile)
