"""What Sushizock's tiles are worth, from what everybody sees: the one tile model of the game.

The engine's stand-in (`greedy.py`), the easy and the normal computer (`computer.py`) all weigh tiles
with `TileValues`; hard weighs whole positions (`solver.py`) with the same idea of cover.

What a seat knows: the rows, every pile's height and top tile. The tiles below the tops are face down
for everybody, the owner included, so a buried tile counts as the average of the tiles nobody can see.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from typing import Protocol

from rules.sushizock.pieces import BONE_TILES, SUSHI, SUSHI_TILES, SushizockState


class Table(Protocol):
    """What the tile model and a turn need of the table: a game's state, or hard's public position."""

    @property
    def players(self) -> int: ...
    @property
    def turn(self) -> int: ...
    @property
    def sushi_row(self) -> Sequence[int]: ...
    @property
    def bone_row(self) -> Sequence[int]: ...
    @property
    def sushi_piles(self) -> Sequence[Sequence[float]]: ...
    @property
    def bone_piles(self) -> Sequence[Sequence[float]]: ...


def hidden_tiles(state: SushizockState) -> tuple[list[int], list[int]]:
    """The sushi and the bones nobody can see (below the tops), sorted (a made-up position that
    shows more of a tile than the game has simply hides none of it)."""
    sushi = Counter(SUSHI_TILES)
    bones = Counter(BONE_TILES)
    sushi.subtract(state.sushi_row)
    bones.subtract(state.bone_row)
    sushi.subtract(pile[-1] for pile in state.sushi_piles if pile)
    bones.subtract(pile[-1] for pile in state.bone_piles if pile)
    return sorted((+sushi).elements()), sorted((+bones).elements())


def covered(index: int, bones: int, share: float) -> float:
    """P(a bone pile of `bones` plus a Poisson(`share`) of bones to come ends higher than `index`)."""
    need = index - bones + 1
    if need <= 0:
        return 1.0
    term, below = math.exp(-share), 0.0
    for k in range(need):
        below += term
        term *= share / (k + 1)
    return max(0.0, 1.0 - below)


class TileValues:
    """Expected points of a tile to a seat, from what everybody can see.

    A pile's sushi at index i counts when the bone pile ends higher than i. The bones a seat will still
    take are guessed as its share of the bone row (a Poisson count), so a sushi above the bone pile is
    worth its chance of being covered, and a bone is worth the coverage it adds, less its own points.
    """

    def __init__(self, state: Table, buried: tuple[float, float] | None = None) -> None:
        """`buried`: the unseen sushi's and bones' averages, for a table that is not a game's state
        (hard's public position, whose piles hold them already); a game's state counts its own."""
        self.state = state
        if buried is None:
            assert isinstance(state, SushizockState)
            sushi, bones = hidden_tiles(state)
            buried = (sum(sushi) / len(sushi) if sushi else 0.0, sum(bones) / len(bones) if bones else 0.0)
        self.buried_sushi, self.buried_bone = buried
        left = state.bone_row
        self.share = len(left) / state.players
        self.bone_cost = -sum(left) / len(left) if left else 0.0

    def _sushi_at(self, seat: int, index: int) -> float:
        pile = self.state.sushi_piles[seat]
        return float(pile[-1]) if index == len(pile) - 1 else self.buried_sushi

    def gain(self, seat: int, pile: str, tile: float) -> float:
        """What putting `tile` on `seat`'s pile adds to its expected final score."""
        sushi = len(self.state.sushi_piles[seat])
        bones = len(self.state.bone_piles[seat])
        if pile == SUSHI:
            return tile * covered(sushi, bones, self.share)
        share_after = max(0.0, self.share - 1 / self.state.players)
        value = tile + self.bone_cost / self.state.players
        for index in range(bones, sushi):
            before = covered(index, bones, self.share)
            after = covered(index, bones + 1, share_after)
            value += self._sushi_at(seat, index) * (after - before)
        return value

    def loss(self, seat: int, pile: str, position: int) -> float:
        """What losing the tile at `position` (1 = top) of a pile costs `seat` (negative: relief)."""
        piles = self.state.sushi_piles if pile == SUSHI else self.state.bone_piles
        height = len(piles[seat])
        tile = piles[seat][-1] if position == 1 else self.buried_sushi if pile == SUSHI else self.buried_bone
        sushi = len(self.state.sushi_piles[seat])
        bones = len(self.state.bone_piles[seat])
        if pile == SUSHI:
            return tile * covered(height - position, bones, self.share)
        value = tile
        for index in range(bones - 1, sushi):
            value += self._sushi_at(seat, index) * (
                covered(index, bones, self.share) - covered(index, bones - 1, self.share)
            )
        return value

    def steal(self, seat: int, pile: str, target: int, position: int) -> float:
        piles = self.state.sushi_piles if pile == SUSHI else self.state.bone_piles
        tile = (
            piles[target][-1] if position == 1 else self.buried_sushi if pile == SUSHI else self.buried_bone
        )
        weight = 1.0 if self.state.players == 2 else 0.6
        return self.gain(seat, pile, tile) + weight * self.loss(target, pile, position)
