"""Checks every game engine must pass, shared by the five rules test modules.

`random_playout` plays legal actions chosen by a seeded RNG and, at every step,
checks what the Game protocol promises: the state round-trips through JSON, an
action nobody may take is refused without touching the state, and the game ends.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from rules.engine import Game, IllegalAction


def roundtrip(game: Game[Any, Any], state: Any) -> Any:
    """Dump to JSON text and back; the restored state must dump identically."""
    dumped = game.dump(state)
    text = json.dumps(dumped, sort_keys=True)
    restored = game.load(json.loads(text))
    assert json.dumps(game.dump(restored), sort_keys=True) == text
    return restored


def assert_refused(game: Game[Any, Any], state: Any, seat: int, action: Any) -> IllegalAction:
    """`apply` must raise IllegalAction and leave the state exactly as it was."""
    before = json.dumps(game.dump(state), sort_keys=True)
    with pytest.raises(IllegalAction) as caught:
        game.apply(state, seat, action)
    assert json.dumps(game.dump(state), sort_keys=True) == before
    return caught.value


def random_playout(
    game: Game[Any, Any],
    players: int,
    seed: int,
    *,
    options: dict[str, Any] | None = None,
    max_steps: int = 20_000,
    check: Callable[[Any], None] | None = None,
    roundtrip_every: int = 1,
) -> Any:
    """Play a whole game with random legal actions; returns the final state.

    `check(state)` runs after every step (invariants such as conservation of tiles).
    """
    chooser = random.Random(seed)
    state = game.new(players, seed, options)
    for step in range(max_steps):
        if check is not None:
            check(state)
        if game.is_over(state):
            ranking = game.ranking(state)
            assert len(ranking) == players and min(ranking) == 1
            assert len(game.scores(state)) == players
            return state
        movers = sorted(game.to_move(state))
        assert movers, "the game is not over but nobody may move"
        seat = chooser.choice(movers)
        legal = game.legal_actions(state, seat)
        assert legal, f"seat {seat} is to move but has no legal action"
        for other in range(players):
            if other not in movers:
                assert game.legal_actions(state, other) == []
        action = chooser.choice(legal)
        assert game.decode_action(json.loads(json.dumps(game.encode_action(action)))) == action
        game.apply(state, seat, action)
        if step % roundtrip_every == 0:
            state = roundtrip(game, state)
    raise AssertionError(f"no end after {max_steps} steps")
