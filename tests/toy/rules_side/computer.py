"""Dice Race's computers: two dice while behind, one die when ahead (easy throws at random)."""

from __future__ import annotations

import random

from rules.computer.brain import TurnBrain
from rules.engine import Game

from .game import RaceState, Throw


class RaceBrain(TurnBrain[RaceState, Throw]):
    def easy(self, state: RaceState, seat: int, rng: random.Random) -> Throw:
        return Throw(rng.choice((1, 2)))

    def normal(self, state: RaceState, seat: int, rng: random.Random) -> Throw:
        behind = state.totals[seat] <= max(state.totals)
        return Throw(2 if behind else 1)

    def budget(self, state: RaceState) -> int:
        return 0

    def hard(
        self, game: Game[RaceState, Throw], state: RaceState, seat: int, rng: random.Random, budget: int
    ) -> Throw:
        return Throw(2)  # the fastest race: the most pips a turn


BRAIN = RaceBrain()
