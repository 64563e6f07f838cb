"""What the shared test suites need of Rock the Bock (rules/testkit.py)."""

from __future__ import annotations

import random

from rules.engine import Action, Rng
from rules.rockthebock.game import GAME, RockTheBockState
from rules.testkit import Testkit


def twin(state: RockTheBockState, seat: int, rng: random.Random) -> RockTheBockState:
    """Nothing is hidden but the dice to come: another generator."""
    copy = GAME.load(GAME.dump(state))
    copy.rng = Rng(rng.getrandbits(64))
    return copy


TESTKIT = Testkit[RockTheBockState, Action](
    hidden=((2, 9), (4, 21)),
    twin=twin,
    chaos_seed=1303,
    chaos_steps=420,
    calls_per_click=1.1,  # measured 1.06
    typed=("roll", None, True),
)
