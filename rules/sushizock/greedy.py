"""Sushizock's rule of thumb: the engine's stand-in for a player who timed out, and easy's play.

Greedy on public information, with the game's one tile model (`values.TileValues`): take the best
portion on offer when it is about as good as what the dice are still after, else set aside the dice
of the best goal and throw again. It asks the engine its questions through `Rules` (this module is
imported by the engine, so it cannot import it).
"""

from __future__ import annotations

from collections import Counter
from typing import Protocol

from rules.engine import Action, IllegalAction
from rules.sushizock.pieces import (
    BLUE,
    BONE,
    CHOPSTICKS,
    DICE,
    PILES,
    RED,
    STEAL_TOP,
    SUSHI,
    Roll,
    Steal,
    SushizockState,
    Take,
)
from rules.sushizock.values import TileValues

MISSING = 0.6
"""Points a goal loses per die it still needs (a rough price of the risk)."""
SLACK = {1: 0.5, 2: 1.5}
"""After throw 1 a take must be nearly as good as the goal; after throw 2 one chance is left."""


class Rules(Protocol):
    """The engine's questions the greedy player asks."""

    def legal_actions(self, state: SushizockState, seat: int) -> list[Action]: ...
    def can_roll(self, state: SushizockState) -> bool: ...
    def steal_colour(self, state: SushizockState) -> str | None: ...
    def forced_tile(self, state: SushizockState) -> tuple[str, int]: ...


def _row(state: SushizockState, pile: str) -> list[int]:
    return state.sushi_row if pile == SUSHI else state.bone_row


def _piles(state: SushizockState, pile: str) -> list[list[int]]:
    return state.sushi_piles if pile == SUSHI else state.bone_piles


def gain(rules: Rules, state: SushizockState, values: TileValues, action: Action) -> float:
    """What a take, a steal or the forced take adds for the seat to move."""
    seat = state.turn
    if isinstance(action, Take):
        nth = Counter(state.set_aside + state.thrown)[action.pile]
        return values.gain(seat, action.pile, _row(state, action.pile)[nth - 1])
    if isinstance(action, Steal):
        colour = rules.steal_colour(state)
        assert colour is not None
        return values.steal(seat, CHOPSTICKS[colour], action.target, action.position)
    pile, index = rules.forced_tile(state)
    return values.gain(seat, pile, _row(state, pile)[index])


def goal(state: SushizockState, values: TileValues) -> tuple[float, str, int]:
    """The best result to throw for: (its worth less its risk, the face, how many of it)."""
    seat = state.turn
    aside = Counter(state.set_aside)
    have = aside + Counter(state.thrown)
    goals: list[tuple[float, str, int]] = []
    for pile in PILES:
        row = _row(state, pile)
        for count in range(max(1, aside[pile]), min(DICE, len(row)) + 1):
            risk = MISSING * max(0, count - have[pile])
            goals.append((values.gain(seat, pile, row[count - 1]) - risk, pile, count))
    for colour, pile in CHOPSTICKS.items():
        rivals = [s for s in range(state.players) if s != seat and _piles(state, pile)[s]]
        if rivals and have[colour] >= 2:
            worth = max(values.steal(seat, pile, rival, 1) for rival in rivals)
            goals.append((worth - MISSING * max(0, STEAL_TOP - have[colour]), colour, STEAL_TOP))
    return max(goals, key=lambda option: option[0], default=(-100.0, "", 0))


def keep(state: SushizockState, values: TileValues) -> tuple[int, ...]:
    """Dice of the current throw to set aside: those bringing the result toward the best goal."""
    _, face, count = goal(state, values)
    wanted = count - Counter(state.set_aside)[face]
    kept = [i for i, thrown in enumerate(state.thrown) if thrown == face][: max(0, wanted)]
    if not kept:
        # Something must be set aside: a die off the goal doing the least harm, a bone first.
        order = (BONE, SUSHI, RED, BLUE)
        kept = [
            min(
                range(len(state.thrown)),
                key=lambda i: (state.thrown[i] == face, order.index(state.thrown[i])),
            )
        ]
    return tuple(kept[: len(state.thrown) - 1])


def greedy_action(rules: Rules, state: SushizockState, seat: int) -> Action:
    legal = rules.legal_actions(state, seat)
    if not legal:
        raise IllegalAction("not_your_turn", seat=seat)
    if state.throws == 0:
        return legal[0]
    values = TileValues(state)
    options = [
        (gain(rules, state, values, action), action) for action in legal if not isinstance(action, Roll)
    ]
    best = max(options, key=lambda option: option[0], default=None)
    if rules.can_roll(state):
        target = goal(state, values)[0]
        if best is None or best[0] < target - SLACK.get(state.throws, 1.5):
            return Roll(keep(state, values))
    assert best is not None  # without a roll, a take, a steal or the forced take is legal
    return best[1]
