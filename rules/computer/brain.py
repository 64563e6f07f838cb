"""What a game's computer player is: the levels, a real-time game's pace, and the Brain protocol.

Every game package has a `computer.py` whose `BRAIN` implements `Brain`. A turn-based game's brain
derives from `TurnBrain`, which plays each level the same way in every game (a single legal move is
played at once; easy and normal are the game's heuristics; hard is the game's own search or the
shared determinized Monte Carlo). A real-time game implements `Brain.choose` itself (Sushi Dice:
one click at a time, calling on the boards it has seen).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Generic, Literal, Protocol, TypeVar

from rules.computer.search import Search
from rules.engine import Game

Level = Literal["easy", "normal", "hard"]
LEVELS: tuple[Level, ...] = ("easy", "normal", "hard")


def level_named(name: str | None) -> Level:
    """The level a stored name means; "normal" for none or one no longer known."""
    for level in LEVELS:
        if level == name:
            return level
    return "normal"


S = TypeVar("S")
A = TypeVar("A")


@dataclass(frozen=True)
class Pace:
    """How fast a computer acts in a real-time game (Sushi Dice)."""

    click: float
    """Seconds between two of its clicks in a duel."""
    reaction: float
    """Seconds before it calls Yuck! or Chop! on what a board shows."""


PACE: dict[Level, Pace] = {
    "easy": Pace(click=2.0, reaction=3.0),
    "normal": Pace(click=1.3, reaction=1.6),
    # A fast player's pace (a click every 0.4 s, a Yuck! within a click of the board showing it):
    # through the bot, hard wins about two duels in three against one, easy and normal none
    # (bench/sushidice_pace.py; at 0.5 s / 0.75 s hard won only one in five).
    "hard": Pace(click=0.4, reaction=0.5),
}


class Brain(Protocol[S, A]):
    """A game's computer player, as `rules.computer.play.choose` asks it."""

    def choose(
        self,
        game: Game[S, A],
        state: S,
        seat: int,
        level: Level,
        rng: random.Random,
        *,
        published: int | None,
        rollouts: int | None,
    ) -> A | None:
        """The seat's next move at `level` (None: nothing to do now, in a real-time game)."""
        ...

    def forget(self) -> None:
        """Drop what the brain remembers between moves (a cache only)."""
        ...


class TurnBrain(Generic[S, A]):
    """The base of a turn-based game's brain: the same level logic for every game.

    A subclass gives `easy` and `normal` (its heuristics), `hard` (a search), `budget` (hard's count
    of rollouts or worlds, never a clock) and `realize` (chance the player does not choose, drawn when
    the move is made).
    """

    def easy(self, state: S, seat: int, rng: random.Random) -> A:
        raise NotImplementedError

    def normal(self, state: S, seat: int, rng: random.Random) -> A:
        raise NotImplementedError

    def budget(self, state: S) -> int:
        raise NotImplementedError

    def realize(self, state: S, seat: int, action: A, rng: random.Random) -> A:
        return action

    def hard(self, game: Game[S, A], state: S, seat: int, rng: random.Random, budget: int) -> A:
        raise NotImplementedError

    def choose(
        self,
        game: Game[S, A],
        state: S,
        seat: int,
        level: Level,
        rng: random.Random,
        *,
        published: int | None = None,
        rollouts: int | None = None,
    ) -> A | None:
        legal = game.legal_actions(state, seat)
        if len(legal) == 1:
            action = legal[0]
        elif level == "easy":
            action = self.easy(state, seat, rng)
        elif level == "normal":
            action = self.normal(state, seat, rng)
        else:
            action = self.hard(game, state, seat, rng, self.budget(state) if rollouts is None else rollouts)
        return self.realize(state, seat, action, rng)

    def forget(self) -> None:
        return None


class SearchedBrain(TurnBrain[S, A], ABC):
    """A turn-based brain whose hard is the shared determinized Monte Carlo (`rules.computer.search`),
    through the hooks of `Searchable` that the subclass gives."""

    @abstractmethod
    def determinize(self, state: S, seat: int, rng: random.Random) -> S: ...

    @abstractmethod
    def copy(self, state: S) -> S: ...

    @abstractmethod
    def candidates(self, state: S, seat: int, rng: random.Random) -> list[A]: ...

    @abstractmethod
    def rollout(self, state: S, seat: int, rng: random.Random) -> A: ...

    @abstractmethod
    def horizon(self, state: S, root: S) -> bool: ...

    @abstractmethod
    def outcome(self, state: S, seat: int) -> float: ...

    def hard(self, game: Game[S, A], state: S, seat: int, rng: random.Random, budget: int) -> A:
        return Search(game, self).choose(state, seat, rng, budget)
