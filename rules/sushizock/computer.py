"""Sushizock's computer players, at three levels.

- easy: the rule of thumb (`greedy.py`, also the engine's stand-in), with a random move now and then.
- normal: the turn's dice played by exact expectation (`turn.Turn`) for the tile each end brings,
  valued by the game's tile model (`values.TileValues`).
- hard: the same exact dice for the value of the whole position each end leaves, after the next
  seat's turn played as a tile player plays it (`solver.py`).

What a seat knows: the rows, every pile's height and top tile, the dice. The tiles below the tops are
face down for everybody, the owner included; a buried tile counts as the average of those nobody can see.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from rules.computer.brain import TurnBrain
from rules.engine import Action, Game
from rules.sushizock.game import GAME, SUSHI, SushizockState
from rules.sushizock.solver import Solver
from rules.sushizock.turn import TakeKey, Turn
from rules.sushizock.values import TileValues

__all__ = ["BRAIN", "SushizockBrain", "Turn", "heuristic_worth"]


def heuristic_worth(state: SushizockState) -> Callable[[TakeKey], float]:
    """normal's worth of each end of the turn: what the tile adds to the seat, by the tile model."""
    values = TileValues(state)
    seat = state.turn

    def worth(key: TakeKey) -> float:
        if key[0] == "take":
            _, pile, nth = key
            row = state.sushi_row if pile == SUSHI else state.bone_row
            return values.gain(seat, pile, row[nth - 1])
        if key[0] == "steal":
            _, pile, target, position = key
            return values.steal(seat, pile, target, position)
        pile, index = GAME.forced_tile(state)
        row = state.sushi_row if pile == SUSHI else state.bone_row
        return values.gain(seat, pile, row[index])

    return worth


class SushizockBrain(TurnBrain[SushizockState, Action]):
    def __init__(self) -> None:
        self.solver = Solver()

    def budget(self, state: SushizockState) -> int:
        return 1  # hard is exact: no rollouts to count

    def easy(self, state: SushizockState, seat: int, rng: random.Random) -> Action:
        if rng.random() < 0.25:
            return rng.choice(GAME.legal_actions(state, seat))
        return GAME.default_action(state, seat)

    def normal(self, state: SushizockState, seat: int, rng: random.Random) -> Action:
        return Turn(state, heuristic_worth(state)).best(GAME.legal_actions(state, seat))

    def hard(
        self,
        game: Game[SushizockState, Action],
        state: SushizockState,
        seat: int,
        rng: random.Random,
        budget: int,
    ) -> Action:
        return self.solver.turn(state).best(GAME.legal_actions(state, seat))

    def forget(self) -> None:
        self.solver.forget()


BRAIN = SushizockBrain()
