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
from collections.abc import Callable, Sequence
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
#
# A state is dumped and loaded on every move (the bot keeps JSON in storage), so the codecs are
# compiled once per class from its type hints into plain Python functions: a dataclass becomes one
# dict display, a list of strings one `list(...)` copy. Neither direction shares a mutable list
# with the other side (apply mutates the loaded state; the dump is kept as the stored record).
# `to_json` is the generic walk, for `Any` fields and annotations the compiler does not specialise.


def to_json(value: Any) -> Any:
    """Plain data for any value: dataclasses become dicts, tuples lists, an Rng its int."""
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None or kind is float:
        return value
    if kind is list or kind is tuple:
        return [to_json(item) for item in value]
    if kind is dict:
        return {str(key): to_json(item) for key, item in value.items()}
    if isinstance(value, Rng):
        return value.state
    if isinstance(value, enum.Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _encoder(type(value))(value)
    if isinstance(value, list | tuple):
        return [to_json(item) for item in value]
    if isinstance(value, dict):
        return {str(key): to_json(item) for key, item in value.items()}
    if isinstance(value, bool | int | float | str):
        return value
    raise TypeError(f"not JSON-safe: {type(value).__name__}")


def from_json(cls: Any, data: Any) -> Any:
    """Rebuild a value of type `cls` (a dataclass, or any annotation `to_json` produced)."""
    return _decoder(cls)(data)


_NONE = type(None)


def _plain(annotation: Any) -> bool:
    """Whether a value of this type is its own JSON and immutable (copied by reference both ways)."""
    if annotation in (int, str, bool, _NONE):
        return True
    origin = typing.get_origin(annotation)
    if origin is typing.Literal:
        return True
    if origin in (typing.Union, types.UnionType):
        return all(_plain(arg) for arg in typing.get_args(annotation))
    return False


def _flat_copy(annotation: Any, *, decoding: bool) -> str | None:
    """The builtin that converts one value of this type whole, when it is a container of plain
    values: `list` (a list, or a tuple into JSON), `tuple`, `dict` (str keys); else None."""
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is list and _plain(args[0]):
        return "list"
    if origin is tuple and args and all(_plain(arg) for arg in args if arg is not Ellipsis):
        return "tuple" if decoding else "list"
    if origin is dict and args[0] is str and _plain(args[1]):
        return "dict"
    return None


class _Compiler:
    """Writes the source of one encoder or decoder; helpers it calls go into `namespace`."""

    def __init__(self) -> None:
        self.namespace: dict[str, Any] = {
            "_to_json": to_json,
            "_Rng": Rng,
            "_union": _decode_union,
            "_new": object.__new__,
            "_set": object.__setattr__,
        }

    def bind(self, value: Any) -> str:
        name = f"_h{len(self.namespace)}"
        self.namespace[name] = value
        return name

    def encode(self, annotation: Any, x: str, depth: int = 0) -> str:
        """A Python expression turning the value `x` (of type `annotation`) into plain data."""
        origin, args = typing.get_origin(annotation), typing.get_args(annotation)
        item = f"_v{depth}"
        if annotation is float or _plain(annotation):
            return x
        if annotation is Rng:
            return f"{x}.state"
        if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
            return f"{x}.value"
        if isinstance(annotation, type) and dataclasses.is_dataclass(annotation):
            return f"{self.bind(_encoder(annotation))}({x})"
        if origin in (typing.Union, types.UnionType):
            options = [arg for arg in args if arg is not _NONE]
            if len(options) == 1 and len(args) == 2:
                return f"(None if {x} is None else {self.encode(options[0], x, depth)})"
        if origin is list or (origin is tuple and len(args) == 2 and args[1] is Ellipsis):
            if _plain(args[0]):
                return f"list({x})"
            copy = _flat_copy(args[0], decoding=False)
            if copy is not None:  # map with a builtin runs in C: no Python frame per item
                return f"list(map({copy}, {x}))"
            return f"[{self.encode(args[0], item, depth + 1)} for {item} in {x}]"
        if origin is tuple and args and all(_plain(arg) for arg in args):
            return f"list({x})"
        if origin is dict and args:
            key = "_k" + str(depth)
            if args[0] is str and _plain(args[1]):
                return f"dict({x})"
            key_json = key if args[0] is str else f"str({key})"
            return f"{{{key_json}: {self.encode(args[1], item, depth + 1)} for {key}, {item} in {x}.items()}}"
        return f"_to_json({x})"  # Any, and shapes not worth a special case

    def decode(self, annotation: Any, x: str, depth: int = 0) -> str:
        """A Python expression rebuilding a value of type `annotation` from the plain data `x`."""
        origin, args = typing.get_origin(annotation), typing.get_args(annotation)
        item = f"_v{depth}"
        if annotation is Any or _plain(annotation):
            return x
        if annotation is float:
            return f"float({x})"
        if annotation is Rng:
            return f"_Rng(int({x}))"
        if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
            return f"{self.bind(annotation)}({x})"
        if isinstance(annotation, type) and dataclasses.is_dataclass(annotation):
            return f"{self.bind(_decoder(annotation))}({x})"
        if origin in (typing.Union, types.UnionType):
            options = [arg for arg in args if arg is not _NONE]
            if len(options) == 1:
                return f"(None if {x} is None else {self.decode(options[0], x, depth)})"
            return f"_union({self.bind(annotation)}, {x})"
        if origin is list or (origin is tuple and len(args) == 2 and args[1] is Ellipsis):
            outer = "list" if origin is list else "tuple"
            if _plain(args[0]):
                return f"{outer}({x})"
            copy = _flat_copy(args[0], decoding=True)
            if copy is not None:  # map with a builtin runs in C: no Python frame per item
                return f"{outer}(map({copy}, {x}))"
            return f"{outer}([{self.decode(args[0], item, depth + 1)} for {item} in {x}])"
        if origin is tuple:
            if all(_plain(arg) for arg in args):
                return f"tuple({x})"
            parts = "".join(f"{self.decode(arg, f'{x}[{i}]', depth)}, " for i, arg in enumerate(args))
            return f"({parts})"
        if origin is frozenset:
            return f"frozenset([{self.decode(args[0], item, depth + 1)} for {item} in {x}])"
        if origin is dict:
            key = "_k" + str(depth)
            if args[0] is str and _plain(args[1]):
                return f"dict({x})"
            key_value = f"int({key})" if args[0] is int else self.decode(args[0], key, depth)
            return (
                f"{{{key_value}: {self.decode(args[1], item, depth + 1)} for {key}, {item} in {x}.items()}}"
            )
        return x

    def compile(self, source: str, name: str) -> Any:
        exec(compile(source, f"<codec {name}>", "exec"), self.namespace)  # our own source, from type hints
        return self.namespace[name]


def _decode_union(annotation: Any, data: Any) -> Any:
    """A union of several types: None where allowed, else the first option `data` is an instance of."""
    args = typing.get_args(annotation)
    if data is None and _NONE in args:
        return None
    for option in args:
        if option is not _NONE and isinstance(data, typing.get_origin(option) or option):
            return _decoder(option)(data)
    raise TypeError(f"{data!r} fits none of {annotation}")


_ENCODERS: dict[Any, Any] = {}
_DECODERS: dict[Any, Any] = {}


def _encoder(cls: type, head: tuple[tuple[str, Any], ...] = ()) -> Any:
    """`value -> dict` for a dataclass: `head` (constant leading keys), then every field in order."""
    key = (cls, head)
    if key not in _ENCODERS:
        compiler = _Compiler()
        hints = _hints(cls)
        entries = [f"{name!r}: {compiler.bind(value)}" for name, value in head]
        entries += [
            f"{f.name!r}: {compiler.encode(hints[f.name], f'value.{f.name}')}"
            for f in dataclasses.fields(cls)
        ]
        source = "def encode(value):\n    return {" + ", ".join(entries) + "}\n"
        _ENCODERS[key] = compiler.compile(source, "encode")
    return _ENCODERS[key]


def _decoder(annotation: Any) -> Any:
    """`plain data -> value` for an annotation; a dataclass takes the fields present in the dict
    (missing ones keep their defaults: states stored before a field existed still load)."""
    if annotation not in _DECODERS:
        compiler = _Compiler()
        if isinstance(annotation, type) and dataclasses.is_dataclass(annotation):
            hints = _hints(annotation)
            fields = [f for f in dataclasses.fields(annotation) if f.init]
            cls = compiler.bind(annotation)
            full = ", ".join(
                f"{f.name}={compiler.decode(hints[f.name], f'data[{f.name!r}]')}" for f in fields
            )
            partial = "".join(
                f"    if {f.name!r} in data:\n"
                f"        found[{f.name!r}] = {compiler.decode(hints[f.name], f'data[{f.name!r}]')}\n"
                for f in fields
            )
            frozen = annotation.__dataclass_params__.frozen  # type: ignore[attr-defined]
            if frozen and _plain_init(annotation) and all(_plain(hints[f.name]) for f in fields):
                # An immutable value of plain fields (a Pick): equal ones are interchangeable, so the
                # decoder hands out one instance per value (bounded, as actions come from clicks).
                key = "(" + "".join(f"data[{f.name!r}], " for f in fields) + ")"
                values = ", ".join(f"{f.name!r}: data[{f.name!r}]" for f in fields)
                memo = compiler.bind({})
                build = (
                    f"_key = {key}\n        _o = {memo}.get(_key)\n        if _o is None:\n"
                    f"            _o = _new({cls})\n            _set(_o, '__dict__', {{{values}}})\n"
                    f"            if len({memo}) < 4096:\n                {memo}[_key] = _o\n"
                    "        return _o"
                )
            elif _plain_init(annotation) and len(fields) >= 4:  # skip __init__: set the dict in one go
                values = ", ".join(
                    f"{f.name!r}: {compiler.decode(hints[f.name], f'data[{f.name!r}]')}" for f in fields
                )
                build = f"_o = _new({cls})\n        _set(_o, '__dict__', {{{values}}})\n        return _o"
            else:
                build = f"return {cls}({full})"
            source = (
                "def partial(data):\n    found = {}\n"
                + partial
                + f"    return {cls}(**found)\n"
                + "def decode(data):\n    try:\n"
                + f"        {build}\n"
                + "    except KeyError:\n        return partial(data)\n"
            )
        else:
            source = f"def decode(data):\n    return {compiler.decode(annotation, 'data')}\n"
        _DECODERS[annotation] = compiler.compile(source, "decode")
    return _DECODERS[annotation]


def _plain_init(cls: type) -> bool:
    """Whether the dataclass's __init__ only stores its arguments (no __post_init__, no field left
    out of it, no __slots__), so that an instance can be made by setting its __dict__."""
    return (
        not hasattr(cls, "__post_init__")
        and "__slots__" not in cls.__dict__
        and all(f.init for f in dataclasses.fields(cls))  # type: ignore[arg-type]
    )


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

    def __init__(
        self,
        state_type: type[S],
        version: int = 1,
        *,
        dump: Callable[[S], JSON] | None = None,
        load: Callable[[JSON], S | None] | None = None,
    ) -> None:
        """`dump`/`load` are a game's own hand-written codec for its hottest path, overriding the
        compiled one: `dump` writes exactly what the compiled encoder would (key order and "v"
        included; tests/rules/test_codec.py holds it to that), `load` gets a dump of this version
        and returns None where it cannot read it whole (a field missing), left to the compiled one.
        Unlike the compiled codec, they may share with the dump what the engine never changes in
        place (Sushi Go!'s finished rounds): each game documents what it shares."""
        self.state_type = state_type
        self.version = version
        self.own_dump = dump
        self.own_load = load
        self._dump: Any = dump  # else compiled on first use: the game modules' type hints resolve by then
        self._load: Any = None

    def dump(self, state: S) -> JSON:
        if self._dump is None:
            self._dump = _encoder(self.state_type, (("v", self.version),))
        return self._dump(state)  # type: ignore[no-any-return]

    def load(self, data: JSON) -> S:
        if data.get("v") != self.version:
            raise ValueError(f"{self.state_type.__name__}: unknown state version {data.get('v')!r}")
        if self.own_load is not None:
            state = self.own_load(data)
            if state is not None:
                return state
        if self._load is None:
            self._load = _decoder(self.state_type)
        return self._load(data)  # type: ignore[no-any-return]


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
        kind = type(action)
        return _encoder(kind, (("type", kind.kind),))(action)  # type: ignore[attr-defined,no-any-return]

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
            return _decoder(action_type)(fields)  # type: ignore[no-any-return]
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

    # A game's own dump/load is called from here directly: one call less on every click.
    def dump(self, state: S) -> JSON:
        codec = self._codec
        return (codec.own_dump or codec.dump)(state)

    def load(self, data: JSON) -> S:
        codec = self._codec
        if codec.own_load is not None and data.get("v") == codec.version:
            state = codec.own_load(data)
            if state is not None:
                return state
        return codec.load(data)

    def encode_action(self, action: A) -> JSON:
        return self._actions.encode(action)

    def decode_action(self, data: JSON) -> A:
        """Raises only IllegalAction, whatever `data` is (it may come from a forged click)."""
        return self._actions.decode(data)


def require(condition: bool, code: str, **params: Any) -> None:
    """Raise IllegalAction(code) unless the condition holds — the guard style of every `apply`."""
    if not condition:
        raise IllegalAction(code, **params)
