"""Rock the Bock's computer players. Nothing is hidden but the dice still to come.

normal weighs a choice by the round's projected scores: each sheet's goats times a smoothed sign of
its bock lead (how sure the lead is depends on the dice still to be thrown this round), plus the worth
of the symbols left unstruck (a slow round keeps its turns). Wolves and goats given away count by
what they do to their receiver, against this seat. hard searches the choices with rollouts to the end
of the round.
"""

from __future__ import annotations

import math
import random
from typing import ClassVar

from rules.computer.brain import SearchedBrain
from rules.computer.search import margin_utility
from rules.engine import Action, Rng
from rules.rockthebock.game import (
    BOCK,
    CAP_BOCKS,
    CAP_GOATS,
    CAP_WOLVES,
    COLOURS,
    SEAT_COLOURS,
    SYMBOLS,
    WOLF,
    Choose,
    RockTheBockGame,
    RockTheBockState,
    fitting_marks,
    score_round,
)

GAME = RockTheBockGame()
SCALE = 4.0
TEMPO = 0.12
"""Points per symbol left unstruck: another throw later is worth something."""


def copy_state(state: RockTheBockState) -> RockTheBockState:
    return RockTheBockState(
        players=state.players,
        rng=Rng(state.rng.state),
        options=dict(state.options),
        round=state.round,
        turn=state.turn,
        throw=list(state.throw),
        bocks=list(state.bocks),
        wolves=list(state.wolves),
        goats=list(state.goats),
        struck=list(state.struck),
        round_scores=[list(scores) for scores in state.round_scores],
        over=state.over,
        last=state.last,
    )


def determinize(state: RockTheBockState, seat: int, rng: random.Random) -> RockTheBockState:
    world = copy_state(state)
    world.rng = Rng(rng.getrandbits(64))  # the dice to come: the only thing nobody knows
    return world


def projected(bocks: int, wolves: int, goats: int, open_dice: int, own_dice: int) -> float:
    """A sheet's round score as it may end: its goats (and a few more it may choose itself) times how
    sure its bock lead is, given the dice the round still has in it."""
    spread = 0.8 + 0.18 * open_dice
    goats_then = min(CAP_GOATS, goats + 0.12 * own_dice)
    return goats_then * math.tanh((bocks - wolves) / spread)


def normal_value(state: RockTheBockState, seat: int, action: Choose) -> float:
    dice = state.throw[COLOURS.index(action.colour)]
    open_dice = sum(SYMBOLS - struck for struck in state.struck) - dice
    own_after = SYMBOLS - state.struck[seat] - dice
    bocks, wolves, goats = list(state.bocks), list(state.wolves), list(state.goats)
    if action.colour == BOCK:
        receiver = seat
        bocks[seat] += fitting_marks(bocks[seat], CAP_BOCKS, dice)
    elif action.colour == WOLF:
        assert action.target is not None
        receiver = action.target
        wolves[receiver] += fitting_marks(wolves[receiver], CAP_WOLVES, dice)
    else:
        receiver = SEAT_COLOURS.index(action.colour)
        goats[receiver] += fitting_marks(goats[receiver], CAP_GOATS, dice)

    def own(player: int, after: bool) -> int:
        left = SYMBOLS - state.struck[player]
        return left - dice if after and player == seat else left

    def change(player: int) -> float:
        before = projected(
            state.bocks[player],
            state.wolves[player],
            state.goats[player],
            open_dice + dice,
            own(player, False),
        )
        now = projected(bocks[player], wolves[player], goats[player], open_dice, own(player, True))
        return now - before

    value = change(seat) + TEMPO * own_after
    if receiver != seat:
        totals = GAME.scores(state)
        others = [other for other in range(state.players) if other != seat]
        leader = max(
            others,
            key=lambda other: (
                totals[other] + score_round(state.bocks[other], state.wolves[other], state.goats[other])
            ),
        )
        weight = 1.0 if state.players == 2 else 0.6 + (0.5 if receiver == leader else 0.0)
        value -= weight * change(receiver)
    return value


class RockTheBockBrain(SearchedBrain[RockTheBockState, Action]):
    rollouts: ClassVar[dict[int, int]] = {2: 420, 3: 360, 4: 300}

    def budget(self, state: RockTheBockState) -> int:
        return self.rollouts[state.players]

    def copy(self, state: RockTheBockState) -> RockTheBockState:
        return copy_state(state)

    def determinize(self, state: RockTheBockState, seat: int, rng: random.Random) -> RockTheBockState:
        return determinize(state, seat, rng)

    def candidates(self, state: RockTheBockState, seat: int, rng: random.Random) -> list[Action]:
        choices = [action for action in GAME.legal_actions(state, seat) if isinstance(action, Choose)]
        ranked = sorted(choices, key=lambda action: -normal_value(state, seat, action))
        return [*ranked]

    def realize(self, state: RockTheBockState, seat: int, action: Action, rng: random.Random) -> Action:
        return action

    def rollout(self, state: RockTheBockState, seat: int, rng: random.Random) -> Action:
        return GAME.default_action(state, seat)

    def horizon(self, state: RockTheBockState, root: RockTheBockState) -> bool:
        return state.round != root.round

    def outcome(self, state: RockTheBockState, seat: int) -> float:
        return margin_utility([float(total) for total in GAME.scores(state)], seat, SCALE)

    def easy(self, state: RockTheBockState, seat: int, rng: random.Random) -> Action:
        legal = GAME.legal_actions(state, seat)
        if rng.random() < 0.3:
            return rng.choice(legal)
        return GAME.default_action(state, seat)

    def normal(self, state: RockTheBockState, seat: int, rng: random.Random) -> Action:
        legal = GAME.legal_actions(state, seat)
        choices = [action for action in legal if isinstance(action, Choose)]
        if not choices:
            return legal[0]
        return max(choices, key=lambda action: normal_value(state, seat, action))


BRAIN = RockTheBockBrain()
