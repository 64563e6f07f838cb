"""Garbage in, IllegalAction out: forged clicks and odd values never crash an engine or change it.

Whatever a select value or a custom_id carries, `decode_action` raises nothing but IllegalAction,
and an action it accepts is either applied or refused by `apply` with IllegalAction, the state
untouched.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine import Game, IllegalAction
from rules.registry import GAMES

GAME_IDS = sorted(GAMES)

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.sampled_from(["", "①", "²", "٣", "-1", "1e999", "NaN", "sushi", "egg", "combo"]),
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)


def _field_names(game: Game[Any, Any]) -> list[str]:
    names: set[str] = set()
    for action_type in game._actions.by_kind.values():  # type: ignore[attr-defined]
        names |= set(action_type.__dataclass_fields__)
    return sorted(names)


def _forged(game: Game[Any, Any]) -> st.SearchStrategy[Any]:
    """Anything at all, and action-shaped dicts with a known kind and odd field values."""
    kinds = sorted(game._actions.by_kind)  # type: ignore[attr-defined]
    shaped = st.fixed_dictionaries(
        {"type": st.sampled_from(kinds)},
        optional={name: values for name in _field_names(game)},
    )
    return st.one_of(values, shaped)


def _states(game: Game[Any, Any], seed: int) -> list[Any]:
    """A few states along one random game, from the start to (maybe) the end."""
    chooser = random.Random(seed)
    state = game.new(game.max_players, seed)
    found = [game.load(game.dump(state))]
    for step in range(300):
        if game.is_over(state):
            break
        seat = chooser.choice(sorted(game.to_move(state)))
        game.apply(state, seat, chooser.choice(game.legal_actions(state, seat)))
        if step % 60 == 0:
            found.append(game.load(game.dump(state)))
    return [*found, state]


@pytest.mark.parametrize("game_id", GAME_IDS)
@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_forged_actions_raise_only_illegal_action_and_change_nothing(game_id: str, data: st.DataObject):
    game = GAMES[game_id]
    payload = data.draw(_forged(game))
    try:
        action = game.decode_action(payload)
    except IllegalAction:
        return
    states = _states(game, data.draw(st.integers(0, 3)))
    state = states[data.draw(st.integers(0, len(states) - 1))]
    seat = data.draw(st.integers(-2, game.max_players + 1))
    before = json.dumps(game.dump(state), sort_keys=True)
    try:
        game.apply(state, seat, action)
    except IllegalAction:
        assert json.dumps(game.dump(state), sort_keys=True) == before


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize(
    "payload", [5, None, [1], "pick", {"type": {}}, {"type": None}, {"type": "roll", "extra": 1}, {}]
)
def test_shapes_that_are_no_action_are_refused_as_unreadable(game_id: str, payload: Any):
    with pytest.raises(IllegalAction) as caught:
        GAMES[game_id].decode_action(payload)
    assert caught.value.code in ("malformed_action", "unknown_action")


def test_a_bool_or_a_float_is_no_number():
    """Sushizock accepted Steal(position=True), Sushi Dice Yuck(seen=1.0): every engine refuses now."""
    for game_id, payload in (
        ("sushizock", {"type": "steal", "target": 1, "position": True}),
        ("sushidice", {"type": "yuck", "seen": 1.0}),
    ):
        with pytest.raises(IllegalAction) as caught:
            GAMES[game_id].decode_action(payload)
        assert caught.value.code == "malformed_action"
