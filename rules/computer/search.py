"""Hard's search for Sushi Go!, Rock the Bock and Kaiten Sushi: determinized Monte Carlo through the
Game protocol (Sushizock's hard is an exact expectimax over its dice, Sushi Dice's a race of clicks).

Each iteration samples a world (`Searchable.determinize`: the hidden information drawn afresh, consistent
with what the seat knows, and a fresh generator for the future dice and draws), plays every root
candidate in that same world and rolls each out with the game's rollout policy to the game's horizon,
where `Searchable.outcome` scores it for the seat. Candidates share worlds and rollout seeds (common random
numbers), so their comparison is paired; sequential halving spends the budget on the better half.

The budget is a count of rollouts, never a clock: the same state, seat and seed give the same move.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any, Generic, Protocol, TypeVar

from rules.engine import Game

S = TypeVar("S")
A = TypeVar("A")


class Searchable(Protocol[S, A]):
    """What a game gives the search: a world sampler, candidates, a rollout policy, a horizon, a score."""

    def determinize(self, state: S, seat: int, rng: random.Random) -> S:
        """A copy of `state` whose hidden information is redrawn from what `seat` knows (never read)."""
        ...

    def copy(self, state: S) -> S:
        """An independent copy of a world (a rollout changes it)."""
        ...

    def candidates(self, state: S, seat: int, rng: random.Random) -> list[A]:
        """The root moves worth searching, best first by the heuristic (pruned where there are many)."""
        ...

    def realize(self, state: S, seat: int, action: A, rng: random.Random) -> A:
        """The candidate as applied in a world: chance the player does not choose is drawn here."""
        ...

    def rollout(self, state: S, seat: int, rng: random.Random) -> A:
        """A fast policy move for any seat in a world."""
        ...

    def horizon(self, state: S, root: S) -> bool:
        """Whether a rollout from `root` stops here (the game's end, or earlier where scoring allows)."""
        ...

    def outcome(self, state: S, seat: int) -> float:
        """How good a stopped world is for `seat`, in [0, 1]."""
        ...


def margin_utility(estimates: Sequence[float], seat: int, scale: float) -> float:
    """[0, 1] from estimated final scores: the lead over the best other seat, blended with the lead over
    their mean (a lone leader in a crowd matters, and so does not falling behind the field)."""
    others = [value for other, value in enumerate(estimates) if other != seat]
    if not others:
        return 0.5
    lead = estimates[seat] - max(others)
    average = estimates[seat] - sum(others) / len(others)
    win = 1.0 if lead > 0 else 0.5 if lead == 0 else 0.0
    return 0.5 * win + 0.25 * (1 + math.tanh((0.6 * lead + 0.4 * average) / scale))


class Search(Generic[S, A]):
    """Determinized flat Monte Carlo with paired candidates and sequential halving."""

    def __init__(self, game: Game[S, A], brain: Searchable[S, A], *, max_steps: int = 5_000) -> None:
        self.game = game
        self.brain = brain
        self.max_steps = max_steps

    def choose(self, state: S, seat: int, rng: random.Random, rollouts: int) -> Any:
        candidates = self.brain.candidates(state, seat, rng)
        if len(candidates) == 1:
            return candidates[0]
        totals = [0.0] * len(candidates)
        counts = [0] * len(candidates)
        alive = list(range(len(candidates)))
        rounds = max(1, math.ceil(math.log2(len(candidates))))
        for stage in range(rounds):
            left = rollouts - sum(counts)
            worlds = max(1, left // ((rounds - stage) * len(alive)))
            for _ in range(worlds):
                world = self.brain.determinize(state, seat, rng)
                seed = rng.getrandbits(64)
                for index in alive:
                    totals[index] += self._playout(world, state, seat, candidates[index], seed)
                    counts[index] += 1
            if len(alive) > 2:
                alive.sort(key=lambda index: (-totals[index] / counts[index], index))
                alive = sorted(alive[: max(2, (len(alive) + 1) // 2)])
        best = max(alive, key=lambda index: (totals[index] / counts[index], -index))
        return candidates[best]

    def _playout(self, world: S, root: S, seat: int, candidate: Any, seed: int) -> float:
        rng = random.Random(seed)
        game, brain = self.game, self.brain
        trial = brain.copy(world)
        game.apply(trial, seat, brain.realize(trial, seat, candidate, rng))
        for _ in range(self.max_steps):
            if game.is_over(trial) or brain.horizon(trial, root):
                break
            mover = min(game.to_move(trial))
            game.apply(trial, mover, brain.rollout(trial, mover, rng))
        return brain.outcome(trial, seat)
