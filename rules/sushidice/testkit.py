"""What the shared test suites need of Sushi Dice (rules/testkit.py)."""

from __future__ import annotations

import random

from rules.engine import Action, Rng
from rules.sushidice.game import GAME, SushiDiceState
from rules.testkit import Testkit


def twin(state: SushiDiceState, seat: int, rng: random.Random) -> SushiDiceState:
    """The face-down plates reshuffled, another generator."""
    copy = GAME.load(GAME.dump(state))
    rng.shuffle(copy.pile)
    copy.rng = Rng(rng.getrandbits(64))
    return copy


def scramble(state: SushiDiceState, rng: random.Random) -> None:
    rng.shuffle(state.pile)


def up_to_date(state: SushiDiceState) -> int | None:
    """The latest throw's stamp: a board showing every die as it is."""
    return state.throws


TESTKIT = Testkit[SushiDiceState, Action](
    hidden=((3, 40), (5, 120)),
    twin=twin,
    chaos_seed=1304,
    chaos_steps=400,
    calls_per_click=None,  # real time
    scramble=scramble,
    published=up_to_date,
    real_time=True,
    lobby_level="hard",  # thinks off the event loop
    steered=0.8,  # random play sets dice aside and brings them back for tens of thousands of moves
    typed=("yuck", None, False),
)
