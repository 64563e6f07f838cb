"""Hard's model of the next seat's turn: normal's tile values on a public position, played exactly."""

from __future__ import annotations

import random

from rules.sushizock.game import GAME
from rules.sushizock.solver import public
from rules.sushizock.turn import Reply, TakeKey, Turn, tile_worth


def test_the_modelled_reply_weighs_tiles_as_normal_does() -> None:
    state = GAME.new(3, 4)
    rng = random.Random(4)
    checked = 0
    while not state.over:
        if state.throws == 0:
            position = public(state)  # hard's public position, the unseen tiles as their averages
            ours, normals = tile_worth(position, position.buried), tile_worth(state)
            turn = Turn(state, normals)
            keys: list[TakeKey] = [("forced",)]
            for result in ((2, 0, 3, 0), (0, 3, 0, 2), (1, 0, 0, 4), (0, 1, 4, 0), (5, 0, 0, 0)):
                keys.extend(turn.takes(result))
            for key in keys:
                assert ours(key) == normals(key)
                checked += 1
        GAME.apply(state, state.turn, rng.choice(GAME.legal_actions(state, state.turn)))
    assert checked > 50


def test_a_reply_valued_by_its_own_worth_is_the_turn() -> None:
    state = GAME.new(2, 9)
    position = public(state)
    worth = tile_worth(position, position.buried)
    assert Reply(position, worth, worth).expected() == Turn(position, worth).throw()
