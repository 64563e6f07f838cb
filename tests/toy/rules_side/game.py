"""Dice Race: two or three players take turns throwing one die or two and add what they show to their
total; the first to reach the goal wins. Nothing is hidden but the dice to come."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from rules.codec import ActionCodec, Codecs, StateCodec
from rules.engine import Action, Event, Rng, ViewHeader, require, shared_ranks, table_options

GOAL = 80
FACES = ("1", "2", "3", "4", "5", "6")
"""A die's faces, as /roll names them (`dice.py`)."""


@dataclass(frozen=True)
class Throw(Action):
    """Throw `dice` dice (1 or 2) and add their pips to the thrower's total."""

    kind: ClassVar[str] = "throw"
    dice: int


@dataclass
class RaceState:
    players: int
    rng: Rng
    options: dict[str, str] = field(default_factory=dict)
    totals: list[int] = field(default_factory=list)
    turn: int = 0
    last: list[Event] = field(default_factory=list)
    over: bool = False


class RaceView(ViewHeader):
    goal: int


class DiceRace(Codecs[RaceState, Throw]):
    id = "toy"
    title = "Dice Race"
    min_players = 2
    max_players = 3  # the chaos suite seats three
    options: ClassVar[dict[str, tuple[str, ...]]] = {}
    _codec = StateCodec(RaceState)
    _actions = ActionCodec(Throw)

    def new(self, players: int, seed: int, options: dict[str, Any] | None = None) -> RaceState:
        chosen = table_options(self, players, options)
        return RaceState(players, Rng(seed), chosen, [0] * players)

    def is_over(self, state: RaceState) -> bool:
        return state.over

    def to_move(self, state: RaceState) -> frozenset[int]:
        return frozenset() if state.over else frozenset({state.turn})

    def legal_actions(self, state: RaceState, seat: int) -> list[Throw]:
        return [Throw(1), Throw(2)] if seat in self.to_move(state) else []

    def default_action(self, state: RaceState, seat: int) -> Throw:
        return Throw(2)

    def apply(self, state: RaceState, seat: int, action: Throw) -> list[Event]:
        require(not state.over, "game_over")
        require(seat in self.to_move(state), "not_your_turn")
        require(action.dice in (1, 2), "bad_dice", dice=action.dice)
        pips = [1 + state.rng.below(len(FACES)) for _ in range(action.dice)]
        state.totals[seat] += sum(pips)
        state.over = state.totals[seat] >= GOAL
        state.turn = (state.turn + 1) % state.players
        state.last = [{"type": "thrown", "seat": seat, "pips": pips}]
        return list(state.last)

    def scores(self, state: RaceState) -> list[int]:
        return list(state.totals)

    def ranking(self, state: RaceState) -> list[int]:
        return shared_ranks(state.totals)

    def view(self, state: RaceState, seat: int | None) -> RaceView:
        phase: Literal["throw", "over"] = "over" if state.over else "throw"
        return RaceView(
            seat=seat,
            to_move=sorted(self.to_move(state)),
            turn=None if state.over else state.turn,
            round=None,
            phase=phase,
            over=state.over,
            scores=self.scores(state),
            ranking=self.ranking(state) if state.over else None,
            last=[dict(event) for event in state.last],
            goal=GOAL,
        )


GAME = DiceRace()
