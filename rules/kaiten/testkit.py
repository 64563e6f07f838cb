"""What the shared test suites need of Kaiten Sushi (rules/testkit.py)."""

from __future__ import annotations

import random

import rules.kaiten.game as engine
from rules.engine import Action, Rng
from rules.kaiten.game import GAME
from rules.kaiten.state import Fetch, KaitenState
from rules.testkit import Patch, Testkit


def twin(state: KaitenState, seat: int, rng: random.Random) -> KaitenState:
    """The face-down tiles reshuffled, another generator."""
    copy = GAME.load(GAME.dump(state))
    hidden = [cell for cell in range(len(copy.tiles)) if not copy.revealed[cell]]
    tiles = [copy.tiles[cell] for cell in hidden]
    rng.shuffle(tiles)
    for cell, tile in zip(hidden, tiles, strict=True):
        copy.tiles[cell] = tile
    copy.rng = Rng(rng.getrandbits(64))
    return copy


def scramble(state: KaitenState, rng: random.Random) -> None:
    """The face-down tiles, redrawn."""
    face_down = [cell for cell, shown in enumerate(state.revealed) if not shown]
    tiles = [state.tiles[cell] for cell in face_down]
    rng.shuffle(tiles)
    for cell, tile in zip(face_down, tiles, strict=True):
        state.tiles[cell] = tile


def slowed(scale: float) -> list[Patch]:
    """The chopsticks windows, `scale` times longer."""
    levels = {
        level: (buttons, widest * scale, shortest * scale)
        for level, (buttons, widest, shortest) in engine.DEXTERITY_LEVELS.items()
    }
    return [
        (engine, "DEXTERITY_LEVELS", levels),
        (engine, "SECONDS_PER_STEP", engine.SECONDS_PER_STEP * scale),
        (engine, "SECONDS_PER_NEIGHBOUR", engine.SECONDS_PER_NEIGHBOUR * scale),
    ]


def as_listed(action: Action) -> Action:
    """A computer's fetch may fail its dexterity challenge; `legal_actions` lists the fetch that succeeds."""
    return Fetch(action.cell, True) if isinstance(action, Fetch) else action


def shortcuts(action: Action) -> tuple[str, ...]:
    """Without the dexterity challenge a click on the sushi fetches it."""
    return (f"f:{action.cell}",) if isinstance(action, Fetch) and action.success else ()


TESTKIT = Testkit[KaitenState, Action](
    hidden=((2, 20), (4, 30)),
    twin=twin,
    chaos_seed=1305,
    chaos_steps=320,  # its board is a picture drawn after every move: the shortest run
    calls_per_click=2.0,  # measured 1.90: acknowledged at once, its picture follows in one edit
    scramble=scramble,
    slowed=slowed,
    as_listed=as_listed,
    shortcuts=shortcuts,
    options={"dexterity": "off"},  # no real-time chopsticks challenge: a click on a sushi fetches it
    typed=("fetch", "cell", True),
)
