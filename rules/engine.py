"""The Game protocol shared by all five games, and the helpers every engine uses.

Pure Python: no discord, no asyncio, no I/O. A game is one object implementing
`Game`; its state is a dataclass owned by the game module. Everything a state
holds is plain data (ints, strings, lists, nested dataclasses, an `Rng`), so
`rules.codec` can dump and restore any of them exactly.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, ClassVar, Protocol, overload, runtime_checkable

from typing_extensions import ReadOnly, TypedDict, TypeVar

JSON = dict[str, Any]
Event = dict[str, Any]
"""What `apply` reports: `{"type": "rolled", "seat": 0, ...}` — codes and numbers, no prose."""


class ViewHeader(TypedDict):
    """The fields every game's `view()` starts with, with one name and one meaning in all five.

    Each game's view is a TypedDict extending this one with what only that game shows.
    """

    seat: int | None
    """Whose view this is: a seat, or None for what the whole table may see."""
    to_move: list[int]
    """The seats that may act now (several in simultaneous phases)."""
    turn: int | None
    """The one seat whose turn it is; None when several act at once or the game is over."""
    round: int | None
    """The round being played, from 1, in games played in rounds; None in the others."""
    phase: ReadOnly[str]  # read-only, so that each game narrows it to its own Literal of phases
    """The game's own name for where play stands now (a step of the turn, a duel, "over")."""
    over: bool
    scores: list[int]
    """Per seat, as far as they are public (Sushizock shows zeros until the piles are turned over)."""
    ranking: list[int] | None
    """Per seat, 1 = best, once the game is over; None before."""
    last: list[Event]
    """What the most recent action did, as events shaped like those `apply` returns (empty at first)."""


S = TypeVar("S")
A = TypeVar("A")
T = TypeVar("T")
V = TypeVar("V", bound=ViewHeader, covariant=True, default=ViewHeader)
"""A game's view (`view(state, None)`), the TypedDict extending ViewHeader its cog renders."""
PV = TypeVar("PV", bound=ViewHeader, covariant=True, default=V)
"""A seat's view (`view(state, seat)`): the same as V unless the game shows a seat more (a hand)."""


class IllegalAction(Exception):
    """Raised by `apply` when an action is not allowed; the state is left untouched.

    `code` is a short stable identifier (`"not_your_turn"`, `"row_too_short"`); the cog
    turns it, with `params`, into words for the player.
    """

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code, params)
        self.code = code
        self.params = params

    def __repr__(self) -> str:
        return f"IllegalAction({self.code!r}, **{self.params!r})"


# ---------------------------------------------------------------- randomness

_MASK64 = (1 << 64) - 1


@dataclasses.dataclass
class Rng:
    """A small deterministic generator (SplitMix64) whose whole state is one int.

    It lives inside a game state and is dumped with it, so a restored game
    continues with exactly the dice and cards it would have had.
    """

    state: int

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), without modulo bias."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            value = self.next64()
            if value < limit:
                return value % n

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: list[Any]) -> None:
        """Fisher-Yates, in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def chance(self, probability: float) -> bool:
        return self.next64() < probability * (1 << 64)


# ---------------------------------------------------------------- the protocol


@runtime_checkable
class Game(Protocol[S, A, V, PV]):
    """What every game exposes (DESIGN.md, "The Game protocol"). Seats are 0..n-1.

    Optional: `computer_action(state, seat)`, how a computer player moves where that differs
    from `default_action`, the move the table makes for an absent human (Kaiten Sushi: a
    computer's chopsticks succeed by chance; Sushi Dice: an idle duelist just rolls).
    """

    id: str
    title: str
    min_players: int
    max_players: int
    options: ClassVar[dict[str, tuple[str, ...]]]  # table option -> allowed values, the first the default

    def new(self, players: int, seed: int, options: dict[str, Any] | None = None) -> S: ...

    def to_move(self, state: S) -> frozenset[int]: ...

    def legal_actions(self, state: S, seat: int) -> list[A]: ...

    def default_action(self, state: S, seat: int) -> A: ...

    def apply(self, state: S, seat: int, action: A) -> list[Event]: ...

    def is_over(self, state: S) -> bool: ...

    def scores(self, state: S) -> list[int]: ...

    def ranking(self, state: S) -> list[int]: ...

    @overload
    def view(self, state: S, seat: None) -> V: ...

    @overload
    def view(self, state: S, seat: int) -> PV: ...

    @overload
    def view(self, state: S, seat: int | None) -> V | PV: ...

    def dump(self, state: S) -> JSON: ...

    def load(self, data: JSON) -> S: ...

    def encode_action(self, action: A) -> JSON: ...

    def decode_action(self, data: JSON) -> A: ...


def table_options(game: Any, players: int, options: dict[str, Any] | None) -> dict[str, str]:
    """Check a new table's player count and options; the options with defaults filled in.

    `game.options` maps each option name to its allowed values, the first being the default.
    """
    if not game.min_players <= players <= game.max_players:
        raise ValueError(
            f"{game.title} takes {game.min_players} to {game.max_players} players, not {players}"
        )
    chosen = {name: values[0] for name, values in game.options.items()}
    for name, value in (options or {}).items():
        if name not in game.options:
            raise ValueError(f"{game.title} has no option {name!r}")
        if value not in game.options[name]:
            raise ValueError(f"option {name!r} takes one of {game.options[name]}, not {value!r}")
        chosen[name] = value
    return chosen


def shared_ranks(keys: Sequence[Any]) -> list[int]:
    """Competition ranks from per-seat sort keys, higher key = better.

    Tied keys share a rank and the next rank skips: keys (5, 9, 5, 2) -> [2, 1, 2, 4].
    A key may be a tuple, to carry a game's tie-breaks (score, puddings).
    """
    return [1 + sum(1 for other in keys if other > key) for key in keys]


class Action:
    """Base for action dataclasses, frozen (an action is a value: equal actions hash alike): `kind`
    names the action in JSON and in custom ids."""

    kind: ClassVar[str]


def require(condition: bool, code: str, **params: Any) -> None:
    """Raise IllegalAction(code) unless the condition holds — the guard style of every `apply`."""
    if not condition:
        raise IllegalAction(code, **params)
