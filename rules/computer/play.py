"""Computer players for every registered game, at three levels: one entry point, `choose`, which
asks the game's brain (`rules.registry`).

    choose(game, state, seat, level, seed, *, published=None, rollouts=None) -> action

- easy: plausible and beatable — a quick rule of thumb with noise.
- normal: a sound per-game heuristic (also how a seat taken over after time-outs plays).
- hard: a search. Sushi Go!, Rock the Bock, Kaiten Sushi: determinized Monte Carlo through the Game
  protocol (rules.computer.search) with the game's quick policy as rollout (Sushi Go! at two players
  searches a round's last cards exactly once both hands are known). Sushizock: every decision
  of the turn by exact expectation over the dice for the value of the whole position it ends in (each
  seat's expected final score, the chance to win), two turns deep at two players (rules/sushizock/solver.py).
  Sushi Dice: the plate it expects to finish in the fewest clicks, at the fastest pace. Its budget is
  a count (rollouts, or worlds), never a clock (`rollouts` overrides it), so the same state, seat,
  level and seed always give the same move.

Pure and honest: a computer reads only what its seat may know. Where a search needs hidden
information (other hands, face-down tiles, the deck, future dice) it draws it afresh, consistently
with the seat's knowledge; two states that differ only in what the seat cannot know give the same
choice for the same seed (tests/rules/test_computer.py).

Sushi Dice is played in real time. `choose` gives a duelist's next click, and the table paces the
clicks by `PACE[level]`. A Yuck! or Chop! names the board the caller saw: pass `published`, the
stamp of the latest public board the computer has seen (one published at least `PACE[level].reaction`
seconds ago). Without it a computer never calls; with it, it calls whenever that board shows a yuck
that still shows (the engine's rule). Kaiten Sushi: a computer's chopsticks succeed by chance
(`rules.kaiten.game.COMPUTER_SUCCESS` for the table's dexterity option), drawn from `seed`.
"""

from __future__ import annotations

import random
from typing import Any

from rules.computer.brain import LEVELS, Level
from rules.engine import Game
from rules.registry import REGISTERED, register


def forget() -> None:
    """Drop what the computers remember between moves (Sushizock's searched turns): only a cache,
    filled the same way again from the same states (tests use it to prove that)."""
    for entry in REGISTERED.values():
        entry.brain.forget()


def choose(
    game: Game[Any, Any],
    state: Any,
    seat: int,
    level: Level,
    seed: int,
    *,
    published: int | None = None,
    rollouts: int | None = None,
) -> Any:
    """The move a computer at `level` makes for `seat` (which must be one that may move now).

    `published` (real-time games): the stamp of the latest public board the computer has seen.
    `rollouts` overrides hard's budget (tests, benchmarks). A real-time brain may answer None: a
    spectator with no call to make does nothing. Hard may think up to a few hundred milliseconds: an
    async caller runs it off the event loop (the bot: in a process of its own, `choose_in`).
    """
    if seat not in game.to_move(state):
        raise ValueError(f"seat {seat} may not move now")
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}")
    brain = REGISTERED[game.id].brain
    return brain.choose(game, state, seat, level, random.Random(seed), published=published, rollouts=rollouts)


def choose_in(package: str, state: Any, seat: int, level: Level, seed: int, published: int | None) -> Any:
    """`choose` for the game of rules package `package` (`rules.sushigo`): how a process of its own
    is asked, with names instead of objects. A game the registry does not hold there yet (one
    registered at run time, as the tests' toy game is) is registered on first use."""
    entry = next((entry for entry in REGISTERED.values() if entry.package == package), None)
    game = (entry or register(package)).game
    return choose(game, state, seat, level, seed, published=published)
