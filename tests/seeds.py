"""Where a test's bot draws its new games' seeds: the source handed to `bot.create_bot(seeds=...)`.

The `seeds` fixture (tests/conftest.py) gives every bot a `TableSeeds`, which deals as the bot does on
its own (the operating system's randomness) unless the test says otherwise:

- `pytest.mark.seed(7)` on a module (`pytestmark`) or a test: every game starts from seed 7;
- `seeds.follow(random.Random(n))` in a test or fixture: each new game's seed is that generator's next
  draw, so a seeded run replays its games;
- SUSHIBAR_FIXED_SEEDS=1: a test with no seed of its own draws from a generator seeded with the test's
  own name, so two runs of the suite deal the same games and a change meant to change no behaviour
  shows identical transcripts (`diff -r` of two transcripts folders).
"""

from __future__ import annotations

import os
import random

import pytest

from cogs.kit.services import Seeds, new_seed

MARKER = "seed"
MARKER_HELP = f"{MARKER}(n): every game the test's bot starts is dealt from seed n (tests/seeds.py)"


class TableSeeds:
    """A seed source a test can fix, or point at a seeded generator, after the bot was built with it."""

    def __init__(self) -> None:
        self._draw: Seeds = new_seed

    def __call__(self) -> int:
        return self._draw()

    def fix(self, seed: int) -> None:
        """Every new game starts from `seed`."""
        self._draw = lambda: seed

    def follow(self, draw: random.Random) -> None:
        """Each new game's seed is `draw`'s next 63 bits (as many as the bot's own seeds have)."""
        self._draw = lambda: draw.getrandbits(63)


def for_test(request: pytest.FixtureRequest) -> TableSeeds:
    """The seeds of `request`'s test: its `seed` mark, else (SUSHIBAR_FIXED_SEEDS) its name's, else the
    bot's own randomness."""
    seeds = TableSeeds()
    marked = request.node.get_closest_marker(MARKER)
    if marked is not None:
        seeds.fix(marked.args[0])
    elif os.environ.get("SUSHIBAR_FIXED_SEEDS"):
        seeds.follow(random.Random(request.node.nodeid))
    return seeds
