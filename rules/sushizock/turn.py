"""A turn of Sushizock's dice played by exact expectation, for any worth of the turn's possible ends.

A turn is up to three throws; `Turn` finds, for every result the dice can still reach, the best take,
and for every throw the best dice to set aside, by exact expectation over the dice (the faces collapse
to four: sushi and bone 1/3 each, blue and red chopsticks 1/6 each), memoised over the dice set aside
and the throws left. What each end of the turn is worth (`TakeKey` -> float) is the caller's: normal's
tile values, or hard's value of the whole position after the take (`solver.py`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import cache
from itertools import product
from typing import Literal

from rules.engine import Action
from rules.sushizock.game import (
    BLUE,
    BONE,
    CHOPSTICKS,
    DICE,
    GAME,
    RED,
    STEAL_BLIND,
    STEAL_TOP,
    SUSHI,
    THROWS,
    Roll,
    Steal,
    SushizockState,
    Take,
)
from rules.sushizock.pieces import forced_tile
from rules.sushizock.values import Table, TileValues

FACE_ORDER: tuple[str, ...] = (SUSHI, BONE, BLUE, RED)
FACE_CHANCE: tuple[float, ...] = (1 / 3, 1 / 3, 1 / 6, 1 / 6)
Counts = tuple[int, int, int, int]
NONE: Counts = (0, 0, 0, 0)

TakeKey = tuple[Literal["take"], str, int] | tuple[Literal["steal"], str, int, int] | tuple[Literal["forced"]]
"""A take a result allows: ("take", pile, nth) / ("steal", pile, target, position) / ("forced",)."""


def tile_worth(table: Table, buried: tuple[float, float] | None = None) -> Callable[[TakeKey], float]:
    """The seat to move's worth of each end of its turn by the game's tile model: what the tile adds
    to it (normal's worth; hard's model of the next seat). `buried` as `TileValues` takes it."""
    values = TileValues(table, buried)
    seat = table.turn

    def worth(key: TakeKey) -> float:
        if key[0] == "steal":
            _, pile, target, depth = key
            return values.steal(seat, pile, target, depth)
        if key[0] == "forced":
            pile, index = forced_tile(table.sushi_row, table.bone_row)
        else:
            pile, index = key[1], key[2] - 1
        row = table.sushi_row if pile == SUSHI else table.bone_row
        return values.gain(seat, pile, row[index])

    return worth


@cache
def outcomes(dice: int) -> tuple[tuple[Counts, float], ...]:
    """Every throw of `dice` dice as face counts (FACE_ORDER), with its chance."""
    found: dict[Counts, float] = {}
    for faces in product(range(4), repeat=dice):
        counts = (faces.count(0), faces.count(1), faces.count(2), faces.count(3))
        found[counts] = found.get(counts, 0.0) + math.prod(FACE_CHANCE[face] for face in faces)
    return tuple(found.items())


@cache
def keeps(thrown: Counts) -> tuple[Counts, ...]:
    """The ways to set dice of a throw aside: at least one, and at least one left to throw."""
    total = sum(thrown)
    return tuple(keep for keep in product(*(range(n + 1) for n in thrown)) if 0 < sum(keep) < total)  # type: ignore[return-value]


def counts_of(faces: list[str]) -> Counts:
    return (faces.count(SUSHI), faces.count(BONE), faces.count(BLUE), faces.count(RED))


def add(a: Counts, b: Counts) -> Counts:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3])


class Turn:
    """The best play of the dice for the seat to move, given a worth for every take (`worth`).

    `state` is the table the turn is played on; `score` and `best` (the decisions of a real turn) also
    read its dice, so they need a game's state. `horizon` is how many throws ahead a throw is planned:
    with fewer than are left the turn is played short-sighted (the throw after the horizon is taken
    as it falls), as normal plays it.
    """

    def __init__(self, state: Table, worth: Callable[[TakeKey], float], *, horizon: int = THROWS) -> None:
        self.state = state
        self.worth = worth
        self.horizon = horizon
        self.seat = state.turn
        self._takes: dict[Counts, float | None] = {}
        self._throws: dict[tuple[Counts, int], float] = {}
        self._forced: float | None = None

    def takes(self, result: Counts) -> list[TakeKey]:
        """What a result allows, as keys (no forced take)."""
        state = self.state
        found: list[TakeKey] = []
        for index, pile, row in ((0, SUSHI, state.sushi_row), (1, BONE, state.bone_row)):
            if 1 <= result[index] <= len(row):
                found.append(("take", pile, result[index]))
        for index, colour in ((2, BLUE), (3, RED)):
            if result[index] >= STEAL_TOP:
                pile = CHOPSTICKS[colour]
                piles = state.sushi_piles if pile == SUSHI else state.bone_piles
                for target in range(state.players):
                    if target == self.seat or not piles[target]:
                        continue
                    depth = len(piles[target]) if result[index] >= STEAL_BLIND else 1
                    found.extend(("steal", pile, target, position) for position in range(1, depth + 1))
        return found

    def best_take(self, result: Counts) -> float | None:
        if result not in self._takes:
            values = [self.worth(key) for key in self.takes(result)]
            self._takes[result] = max(values) if values else None
        return self._takes[result]

    def forced(self) -> float:
        if self._forced is None:
            self._forced = self.worth(("forced",))
        return self._forced

    def settle(self, aside: Counts, thrown: Counts, throws_left: int) -> float:
        """The value of a result: take it, or set dice aside and throw on (when allowed)."""
        take = self.best_take(add(aside, thrown))
        if throws_left <= 0 or sum(thrown) < 2:
            return take if take is not None else self.forced()
        best = take if take is not None else -math.inf
        for keep in keeps(thrown):
            best = max(best, self.throw(add(aside, keep), throws_left - 1))
        return best

    def throw(self, aside: Counts = NONE, throws_left: int = THROWS - 1) -> float:
        """Expected value of throwing every die not in `aside`, then playing on well (by default: a
        whole turn from its first throw)."""
        key = (aside, throws_left)
        if key not in self._throws:
            dice = DICE - sum(aside)
            self._throws[key] = sum(
                chance * self.settle(aside, thrown, throws_left) for thrown, chance in outcomes(dice)
            )
        return self._throws[key]

    def _dice(self) -> SushizockState:
        state = self.state
        assert isinstance(state, SushizockState), "a turn's decisions are made on a game's state"
        return state

    def score(self, action: Action) -> float:
        """What a legal action of the current throw is worth."""
        state = self._dice()
        if isinstance(action, Roll):
            kept = counts_of([state.thrown[i] for i in action.keep])
            planned = min(THROWS - state.throws, self.horizon)  # throws looked at, this one included
            return self.throw(add(counts_of(state.set_aside), kept), planned - 1)
        if isinstance(action, Take):
            result = counts_of(state.set_aside + state.thrown)
            return self.worth(("take", action.pile, result[FACE_ORDER.index(action.pile)]))
        if isinstance(action, Steal):
            colour = GAME.steal_colour(state)
            assert colour is not None
            return self.worth(("steal", CHOPSTICKS[colour], action.target, action.position))
        return self.forced()

    def best(self, legal: list[Action]) -> Action:
        # One Roll per distinct set of faces kept: the others are the same move.
        state = self._dice()
        seen: set[Counts] = set()
        options: list[Action] = []
        for action in legal:
            if isinstance(action, Roll) and action.keep:
                kept = counts_of([state.thrown[i] for i in action.keep])
                if kept in seen:
                    continue
                seen.add(kept)
            options.append(action)
        return max(options, key=self.score)


class Reply(Turn):
    """Another seat's turn played for its own worth (`worth`), valued by ours (`payoff`): what we
    expect from the end it chooses. Its takes, its throws and its forced take follow `worth` exactly
    as `Turn` plays them; `expected` is the mean `payoff` of the ends so reached."""

    def __init__(
        self, state: Table, worth: Callable[[TakeKey], float], payoff: Callable[[TakeKey], float]
    ) -> None:
        super().__init__(state, worth)
        self.payoff = payoff
        self._ends: dict[Counts, tuple[float, float] | None] = {}
        self._pairs: dict[tuple[Counts, int], tuple[float, float]] = {}

    def _end(self, result: Counts) -> tuple[float, float] | None:
        """(its worth, our payoff) of the take it makes with `result`; None when none is allowed."""
        if result not in self._ends:
            keys = self.takes(result)
            if keys:
                chosen = max(keys, key=self.worth)
                self._ends[result] = (self.worth(chosen), self.payoff(chosen))
            else:
                self._ends[result] = None
        return self._ends[result]

    def _settle(self, aside: Counts, thrown: Counts, throws_left: int) -> tuple[float, float]:
        take = self._end(add(aside, thrown))
        if throws_left <= 0 or sum(thrown) < 2:
            return take if take is not None else (self.forced(), self.payoff(("forced",)))
        best = take if take is not None else (-math.inf, 0.0)
        for keep in keeps(thrown):
            option = self._throw(add(aside, keep), throws_left - 1)
            if option[0] > best[0]:
                best = option
        return best

    def _throw(self, aside: Counts, throws_left: int) -> tuple[float, float]:
        key = (aside, throws_left)
        if key not in self._pairs:
            worth = payoff = 0.0
            for thrown, chance in outcomes(DICE - sum(aside)):
                theirs, ours = self._settle(aside, thrown, throws_left)
                worth += chance * theirs
                payoff += chance * ours
            self._pairs[key] = (worth, payoff)
        return self._pairs[key]

    def expected(self) -> float:
        """Our expected payoff of its whole turn, from its first throw."""
        return self._throw(NONE, THROWS - 1)[1]
