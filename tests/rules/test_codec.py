"""The compiled state codec writes exactly what the reflective codec it replaced wrote.

Stored games must keep loading, so the reference below is the codec every stored state was
written with (kept here only, as the oracle): dumps of random states are compared byte for byte,
key order included, and each codec's load of the other's dump gives the same state.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import random
import types
import typing
from typing import Any

import pytest

from rules.codec import _decoder, _encoder, from_json, to_json
from rules.engine import Rng
from rules.registry import GAMES
from rules.sushigo.game import GAME as SUSHIGO
from rules.sushigo.state import SushiGoState

# ---------------------------------------------------------------- the reference (the old codec)


def old_to_json(value: Any) -> Any:
    if isinstance(value, Rng):
        return value.state
    if isinstance(value, enum.Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: old_to_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, list | tuple):
        return [old_to_json(item) for item in value]
    if isinstance(value, dict):
        return {str(key): old_to_json(item) for key, item in value.items()}
    if value is None or isinstance(value, bool | int | float | str):
        return value
    raise TypeError(f"not JSON-safe: {type(value).__name__}")


def old_from_json(cls: Any, data: Any) -> Any:
    origin = typing.get_origin(cls)
    args = typing.get_args(cls)
    if cls is Any:
        return data
    if origin in (typing.Union, types.UnionType):
        if data is None and type(None) in args:
            return None
        options = [arg for arg in args if arg is not type(None)]
        if len(options) == 1:
            return old_from_json(options[0], data)
        for option in options:
            if isinstance(data, typing.get_origin(option) or option):
                return old_from_json(option, data)
        raise TypeError(f"{data!r} fits none of {cls}")
    if origin is typing.Literal:
        return data
    if origin is list:
        return [old_from_json(args[0], item) for item in data]
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(old_from_json(args[0], item) for item in data)
        return tuple(old_from_json(arg, item) for arg, item in zip(args, data, strict=True))
    if origin is dict:
        key_type, value_type = args
        return {old_from_json(key_type, key): old_from_json(value_type, item) for key, item in data.items()}
    if origin is frozenset:
        return frozenset(old_from_json(args[0], item) for item in data)
    if cls is Rng:
        return Rng(int(data))
    if isinstance(cls, type) and issubclass(cls, enum.Enum):
        return cls(data)
    if isinstance(cls, type) and dataclasses.is_dataclass(cls):
        hints = typing.get_type_hints(cls)
        kwargs = {
            f.name: old_from_json(hints[f.name], data[f.name])
            for f in dataclasses.fields(cls)
            if f.init and f.name in data
        }
        return cls(**kwargs)
    if cls is float and isinstance(data, int):
        return float(data)
    if cls is int and isinstance(data, str):
        return int(data)
    return data


def old_dump(game: Any, state: Any) -> dict[str, Any]:
    return {"v": game._codec.version, **old_to_json(state)}


# ---------------------------------------------------------------- the comparison


def random_states(game: Any, players: int, seed: int, limit: int = 400) -> typing.Iterator[Any]:
    chooser = random.Random(seed)
    state = game.new(players, seed)
    for _ in range(limit):
        yield state
        if game.is_over(state):
            return
        seat = chooser.choice(sorted(game.to_move(state)))
        game.apply(state, seat, chooser.choice(game.legal_actions(state, seat)))
        state = game.load(game.dump(state))


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_dumps_are_byte_identical_to_the_old_codec_over_random_games(game_id: str) -> None:
    game = GAMES[game_id]
    checked = 0
    for seed in range(8):
        players = game.min_players + seed % (game.max_players - game.min_players + 1)
        for index, state in enumerate(random_states(game, players, seed)):
            if index % 4:
                continue
            new, old = game.dump(state), old_dump(game, state)
            assert json.dumps(new) == json.dumps(old)  # key order too
            assert game.load(old) == state
            assert old_from_json(type(state), new) == state
            checked += 1
    assert checked > 50


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_loaded_state_shares_nothing_mutable_with_its_dump(game_id: str) -> None:
    """apply mutates the loaded state while the dump it came from stays the stored record."""
    game = GAMES[game_id]
    state = game.new(game.max_players, 3)
    data = game.dump(state)
    before = json.dumps(data)
    loaded = game.load(data)
    dumped = game.dump(loaded)
    for _ in range(30):
        if game.is_over(loaded):
            break
        seat = min(game.to_move(loaded))
        game.apply(loaded, seat, game.legal_actions(loaded, seat)[-1])
    assert json.dumps(data) == before
    assert json.dumps(dumped) == before


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_state_stored_before_a_field_existed_loads_with_its_default(game_id: str) -> None:
    game = GAMES[game_id]
    state = game.new(game.min_players, 1)
    data = game.dump(state)
    data.pop("over")
    assert game.load(data) == state


def test_generic_values_keep_their_old_shape() -> None:
    @dataclasses.dataclass
    class Inner:
        pair: tuple[int, str]
        keyed: dict[int, list[int]]
        either: int | str

    value = Inner((1, "a"), {2: [3]}, "b")
    assert to_json(value) == old_to_json(value) == {"pair": [1, "a"], "keyed": {"2": [3]}, "either": "b"}
    assert from_json(Inner, to_json(value)) == value
    assert from_json(list[tuple[int, int]], [[1, 2]]) == [(1, 2)]


def test_sushigo_hand_written_codec_matches_the_compiled_one_over_whole_games() -> None:
    """Sushi Go!'s own dump/load (rules/sushigo/codec.py) against the compiled codec it overrides, and the
    history it shares with its dump (finished rounds, the latest reveal) is never changed in place:
    every dump taken along whole games still reads the same at the end."""
    game = SUSHIGO
    compiled_dump = _encoder(SushiGoState, (("v", game._codec.version),))
    compiled_load = _decoder(SushiGoState)
    for players in range(game.min_players, game.max_players + 1):
        dumps: list[tuple[dict[str, Any], str]] = []
        for state in random_states(game, players, 40 + players):
            data = game.dump(state)
            assert json.dumps(data) == json.dumps(compiled_dump(state))
            assert game.load(data) == compiled_load(data) == state
            dumps.append((data, json.dumps(data)))
        assert dumps[-1][0]["over"]  # played to the end: three rounds of history shared
        assert all(json.dumps(data) == text for data, text in dumps)
