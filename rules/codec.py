"""Dump and load for game states and actions: JSON codecs compiled per dataclass from its type hints.

A game sets `_codec = StateCodec(ItsState)` and `_actions = ActionCodec(ItsActions...)` on a class
deriving from `Codecs`, which gives it the protocol's dump/load and encode_action/decode_action.
"""

from __future__ import annotations

import dataclasses
import enum
import math
import types
import typing
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Generic, TypeVar

from rules.engine import JSON, Action, IllegalAction, Rng

S = TypeVar("S")
A = TypeVar("A", bound=Action)

# A state is dumped and loaded on every move (the bot keeps JSON in storage), so the codecs are
# compiled once per class from its type hints into plain Python functions: a dataclass becomes one
# dict display, a list of strings one `list(...)` copy. Neither direction shares a mutable list
# with the other side (apply mutates the loaded state; the dump is kept as the stored record).
# `to_json` is the generic walk, for `Any` fields and annotations the compiler does not specialise.


def to_json(value: Any) -> Any:
    """Plain data for any value: dataclasses become dicts, tuples lists, an Rng its int."""
    kind = value.__class__  # type(value) of an Any is type[Unknown] to pyright
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
    if isinstance(value, list | tuple):  # a subclass: walked as its base
        return [to_json(item) for item in typing.cast("Sequence[Any]", value)]
    if isinstance(value, dict):
        return {str(key): to_json(item) for key, item in typing.cast("dict[Any, Any]", value).items()}
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


Encoder = Callable[[Any], JSON]
Decoder = Callable[[Any], Any]
_ENCODERS: dict[tuple[type, tuple[tuple[str, Any], ...]], Encoder] = {}
_DECODERS: dict[Any, Decoder] = {}


def _encoder(cls: type, head: tuple[tuple[str, Any], ...] = ()) -> Encoder:
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


def _decoder(annotation: Any) -> Decoder:
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
            if _frozen(annotation) and _plain_init(annotation) and all(_plain(hints[f.name]) for f in fields):
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


def _frozen(cls: type) -> bool:
    """Whether a dataclass is frozen: only the decorator's own record says, which typeshed leaves out."""
    params: Any = getattr(cls, "__dataclass_params__")  # noqa: B009 (the attribute is not typed)
    return bool(params.frozen)


def _plain_init(cls: type) -> bool:
    """Whether the dataclass's __init__ only stores its arguments (no __post_init__, no field left
    out of it, no __slots__), so that an instance can be made by setting its __dict__."""
    return (
        not hasattr(cls, "__post_init__")
        and "__slots__" not in cls.__dict__
        and all(f.init for f in dataclasses.fields(cls))
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
        self._dump: Callable[[S], JSON] | None = dump  # else compiled on first use: the game modules'
        self._load: Callable[[JSON], S] | None = None  # type hints resolve by then

    def dump(self, state: S) -> JSON:
        if self._dump is None:
            self._dump = _encoder(self.state_type, (("v", self.version),))
        return self._dump(state)

    def load(self, data: JSON) -> S:
        if data.get("v") != self.version:
            raise ValueError(f"{self.state_type.__name__}: unknown state version {data.get('v')!r}")
        if self.own_load is not None:
            state = self.own_load(data)
            if state is not None:
                return state
        if self._load is None:
            self._load = _decoder(self.state_type)
        return self._load(data)


class ActionCodec(Generic[A]):
    """Encodes a game's action dataclasses as `{"type": kind, ...fields}`.

    Each action class names itself with a class attribute `kind`.
    """

    def __init__(self, *action_types: type[A]) -> None:
        self.by_kind: dict[str, type[A]] = {}
        self._init_fields: dict[str, frozenset[str]] = {}
        """Per kind, the fields its dataclass's __init__ takes: what a decoded action may carry."""
        for action_type in action_types:
            kind = action_type.kind
            if kind in self.by_kind:
                raise ValueError(f"duplicate action kind {kind!r}")
            if not dataclasses.is_dataclass(action_type):
                raise TypeError(f"action {action_type.__name__} is not a dataclass")
            self.by_kind[kind] = action_type
            self._init_fields[kind] = frozenset(f.name for f in dataclasses.fields(action_type) if f.init)

    def encode(self, action: A) -> JSON:
        kind = type(action)
        return _encoder(kind, (("type", kind.kind),))(action)

    def decode(self, data: Any) -> A:
        """The action `data` describes; anything else — another shape, a missing or extra field, a
        value of the wrong type (True for a number, 1.0 for an int) — is IllegalAction, nothing else."""
        if not isinstance(data, dict):
            raise IllegalAction("malformed_action", kind=None)
        fields: dict[Any, Any] = dict(typing.cast("dict[Any, Any]", data))
        kind = fields.pop("type", None)
        action_type = self.by_kind.get(kind) if isinstance(kind, str) else None
        if action_type is None:
            raise IllegalAction("unknown_action", kind=kind if isinstance(kind, str) else None)
        hints = _hints(action_type)
        if set(fields) - self._init_fields[kind] or not all(
            _conforms(fields[name], hints[name]) for name in fields
        ):
            raise IllegalAction("malformed_action", kind=kind)
        try:
            return _decoder(action_type)(fields)
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
        return isinstance(value, list) and all(
            _conforms(item, args[0]) for item in typing.cast("list[Any]", value)
        )
    if origin is tuple:
        if not isinstance(value, list):
            return False
        items = typing.cast("list[Any]", value)
        return len(items) == len(args) and all(map(_conforms, items, args))
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
            name in hints and _conforms(item, hints[name])
            for name, item in typing.cast("dict[Any, Any]", value).items()
        )
    return False


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
