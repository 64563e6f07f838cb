"""What the shared suites need of Dice Race (rules/testkit.py)."""

from __future__ import annotations

import random

from rules.engine import Rng
from rules.testkit import Testkit

from .game import GAME, RaceState, Throw


def twin(state: RaceState, seat: int, rng: random.Random) -> RaceState:
    """Nothing is hidden but the dice to come: another generator."""
    copy = GAME.load(GAME.dump(state))
    copy.rng = Rng(rng.getrandbits(64))
    return copy


TESTKIT = Testkit[RaceState, Throw](
    hidden=((2, 6),),
    twin=twin,
    chaos_seed=1306,
    chaos_steps=60,
    calls_per_click=1.1,  # a throw is its answer, which edits the board
    typed=("throw", None, True),
)
