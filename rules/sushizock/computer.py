"""Sushizock's computer players, at three levels.

- easy: the rule of thumb (`greedy.py`, also the engine's stand-in), with a random move now and then.
- normal: short-sighted. It weighs taking now against throwing again by exact expectation over the
  next throw only, as if that throw were the turn's last (`turn.Turn` with a horizon of one), for the
  tile each end brings by the game's tile model (`values.TileValues`); the dice it sets aside are the
  rule of thumb's. (A normal that played the whole turn exactly left hard no room: 0.55 at two
  players, docs/BENCHMARKS.md.)
- hard: the same exact dice for the value of the whole position each end leaves, after the next
  seat's turn played as a tile player plays it (`solver.py`).

What a seat knows: the rows, every pile's height and top tile, the dice. The tiles below the tops are
face down for everybody, the owner included; a buried tile counts as the average of those nobody can see.
"""

from __future__ import annotations

import random

from rules.computer.brain import TurnBrain
from rules.engine import Action, Game
from rules.sushizock.game import GAME, Roll, SushizockState
from rules.sushizock.greedy import keep
from rules.sushizock.solver import Solver
from rules.sushizock.turn import Turn, tile_worth
from rules.sushizock.values import TileValues

__all__ = ["BRAIN", "SushizockBrain", "Turn", "tile_worth"]


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
        action = Turn(state, tile_worth(state), horizon=1).best(GAME.legal_actions(state, seat))
        if isinstance(action, Roll) and state.throws:
            return Roll(keep(state, TileValues(state)))
        return action

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
