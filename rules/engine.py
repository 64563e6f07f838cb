"""The Game protocol shared by all five games, and the helpers every engine uses.

Pure Python: no discord, no asyncio, no I/O. A game is one object implementing
`Game`; its state is a dataclass owned by the game module. Everything a state
holds is plain data (ints, strings, lists, nested dataclasses, an `Rng`), so
`to_json` / `from_json` can dump and restore any of them exactly.
"""

from __future__ import annotations

import dataclasses
import enum
import math
import types
import typing
from collections.abc import Sequence
from typing import Any, ClassVar, Generic, Protocol, TypeVar, runtime_checkable

from typing_extensions import ReadOnly, TypedDict

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
class Game(Protocol[S, A]):
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

    def view(self, state: S, seat: int | None) -> ViewHeader: ...

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


# ---------------------------------------------------------------- JSON codecs


def to_json(value: Any) -> Any:
    """Plain data for a state or action: dataclasses become dicts, tuples lists."""
    if isinstance(value, Rng):
        return value.state
    if isinstance(value, enum.Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, list | tuple):
        return [to_json(item) for item in value]
    if isinstance(value, dict):
        return {str(key): to_json(item) for key, item in value.items()}
    if value is None or isinstance(value, bool | int | float | str):
        return value
    raise TypeError(f"not JSON-safe: {type(value).__name__}")


def from_json(cls: Any, data: Any) -> Any:
    """Rebuild a value of type `cls` (a dataclass, or any annotation to_json produced)."""
    origin = typing.get_origin(cls)
    args = typing.get_args(cls)
    if cls is Any:
        return data
    if origin in (typing.Union, types.UnionType):
        if data is None and type(None) in args:
            return None
        options = [arg for arg in args if arg is not type(None)]
        if len(options) == 1:
            return from_json(options[0], data)
        for option in options:  # unions of plain types: the first that fits
            if isinstance(data, typing.get_origin(option) or option):
                return from_json(option, data)
        raise TypeError(f"{data!r} fits none of {cls}")
    if origin is typing.Literal:
        return data
    if origin is list:
        return [from_json(args[0], item) for item in data]
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(from_json(args[0], item) for item in data)
        return tuple(from_json(arg, item) for arg, item in zip(args, data, strict=True))
    if origin is dict:
        key_type, value_type = args
        return {from_json(key_type, key): from_json(value_type, item) for key, item in data.items()}
    if origin is frozenset:
        return frozenset(from_json(args[0], item) for item in data)
    if cls is Rng:
        return Rng(int(data))
    if isinstance(cls, type) and issubclass(cls, enum.Enum):
        return cls(data)
    if isinstance(cls, type) and dataclasses.is_dataclass(cls):
        hints = _hints(cls)
        kwargs = {
            f.name: from_json(hints[f.name], data[f.name])
            for f in dataclasses.fields(cls)
            if f.init and f.name in data
        }
        return cls(**kwargs)
    if cls is float and isinstance(data, int):
        return float(data)
    if cls is int and isinstance(data, str):  # dict keys come back as strings
        return int(data)
    return data


_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    if cls not in _HINTS:
        _HINTS[cls] = typing.get_type_hints(cls)
    return _HINTS[cls]


class StateCodec(Generic[S]):
    """Versioned dump/load for a game's state dataclass.

    `dump` writes `{"v": version, ...fields}`; `load` refuses a version it does not
    know, so an old database never silently loads into a new shape.
    """

    def __init__(self, state_type: type[S], version: int = 1) -> None:
        self.state_type = state_type
        self.version = version

    def dump(self, state: S) -> JSON:
        return {"v": self.version, **to_json(state)}

    def load(self, data: JSON) -> S:
        if data.get("v") != self.version:
            raise ValueError(f"{self.state_type.__name__}: unknown state version {data.get('v')!r}")
        return from_json(self.state_type, data)


class ActionCodec(Generic[A]):
    """Encodes a game's action dataclasses as `{"type": kind, ...fields}`.

    Each action class names itself with a class attribute `kind`.
    """

    def __init__(self, *action_types: type) -> None:
        self.by_kind: dict[str, type] = {}
        for action_type in action_types:
            kind = action_type.kind  # type: ignore[attr-defined]
            if kind in self.by_kind:
                raise ValueError(f"duplicate action kind {kind!r}")
            self.by_kind[kind] = action_type

    def encode(self, action: A) -> JSON:
        return {"type": type(action).kind, **to_json(action)}  # type: ignore[attr-defined]

    def decode(self, data: Any) -> A:
        """The action `data` describes; anything else — another shape, a missing or extra field, a
        value of the wrong type (True for a number, 1.0 for an int) — is IllegalAction, nothing else."""
        if not isinstance(data, dict):
            raise IllegalAction("malformed_action", kind=None)
        fields = dict(data)
        kind = fields.pop("type", None)
        action_type = self.by_kind.get(kind) if isinstance(kind, str) else None
        if action_type is None:
            raise IllegalAction("unknown_action", kind=kind if isinstance(kind, str) else None)
        hints = _hints(action_type)
        expected = {f.name for f in dataclasses.fields(action_type) if f.init}
        if set(fields) - expected or not all(_conforms(fields[name], hints[name]) for name in fields):
            raise IllegalAction("malformed_action", kind=kind)
        try:
            return from_json(action_type, fields)  # type: ignore[no-any-return]
        except Exception as error:  # a missing field, a value the dataclass itself refuses
            raise IllegalAction("malformed_action", kind=kind) from error


def _conforms(value: Any, annotation: Any) -> bool:
    """Whether JSON `value` is exactly what `annotation` asks for (strict: a bool is no int)."""
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if annotation is Any:
        return True
    if origin in (typing.Union, types.UnionType):
        return any(_conforms(value, arg) for arg in args)
    if origin is typing.Literal:
        return any(type(value) is type(arg) and value == arg for arg in args)
    if origin in (list, frozenset, set) or (origin is tuple and len(args) == 2 and args[1] is Ellipsis):
        return isinstance(value, list) and all(_conforms(item, args[0]) for item in value)
    if origin is tuple:
        return isinstance(value, list) and len(value) == len(args) and all(map(_conforms, value, args))
    if annotation is type(None):
        return value is None
    if annotation in (int, str, bool):
        return type(value) is annotation
    if annotation is float:
        return type(value) in (int, float) and math.isfinite(value)
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return any(value == member.value for member in annotation)
    if isinstance(annotation, type) and dataclasses.is_dataclass(annotation):
        hints = _hints(annotation)
        return isinstance(value, dict) and all(
            name in hints and _conforms(item, hints[name]) for name, item in value.items()
        )
    return False


class Action:
    """Base for action dataclasses: `kind` names the action in JSON and in custom ids."""

    kind: ClassVar[str]


class Codecs(Generic[S, A]):
    """The protocol's dump/load and encode_action/decode_action, from two class attributes.

    A game sets `_codec = StateCodec(ItsState)` and `_actions = ActionCodec(ItsActions...)`.
    """

    _codec: ClassVar[StateCodec[Any]]
    _actions: ClassVar[ActionCodec[Any]]

    def dump(self, state: S) -> JSON:
        return self._codec.dump(state)

    def load(self, data: JSON) -> S:
        return self._codec.load(data)

    def encode_action(self, action: A) -> JSON:
        return self._actions.encode(action)

    def decode_action(self, data: JSON) -> A:
        """Raises only IllegalAction, whatever `data` is (it may come from a forged click)."""
        return self._actions.decode(data)


def require(condition: bool, code: str, **params: Any) -> None:
    """Raise IllegalAction(code) unless the condition holds — the guard style of every `apply`."""
    if not condition:
        raise IllegalAction(code, **params)
