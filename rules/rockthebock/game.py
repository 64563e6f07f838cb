"""Rock the Bock: collect goats under the protection of bocks, and send wolves to the others.

Ten identical dice; each die has one face per background colour: white (bock), grey (wolf) and a
goat in each player colour (seat 0 red, 1 blue, 2 green, 3 yellow). Three rounds. On a turn the
player throws one die per unstruck symbol on their sheet, chooses one thrown colour that may be
chosen and uses all its dice: bocks and own goats on their own sheet, wolves on another player's
sheet of their choice, another colour's goats on that colour's owner's sheet. Then they strike as
many symbols as dice used. A player with all 10 symbols struck is out of the round but still
receives marks; the round ends when everyone is out and is scored with `score_round`.

Refusal codes:
- game_over: the game has ended.
- not_your_turn: another seat is to move.
- unknown_action: not an action of this game.
- already_rolled: the dice are already thrown this turn; choose a colour.
- not_rolled: throw the dice before choosing a colour.
- unknown_colour: `colour` is none of white, grey, red, blue, green, yellow.
- not_thrown: no die of that colour was thrown (params: colour).
- unowned_colour: no player owns that goat colour (2-3 players) (params: colour).
- target_required: wolves need a target seat.
- target_not_allowed: only wolves take a target.
- target_self: wolves must go to another player.
- no_such_seat: the target is not a seat at this table (params: target).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, TypedDict

from rules.codec import ActionCodec, Codecs, StateCodec
from rules.engine import (
    Action,
    Event,
    IllegalAction,
    Rng,
    ViewHeader,
    require,
    shared_ranks,
    table_options,
)

BOCK = "white"
WOLF = "grey"
SEAT_COLOURS: tuple[str, ...] = ("red", "blue", "green", "yellow")
COLOURS: tuple[str, ...] = (BOCK, WOLF, *SEAT_COLOURS)
"""The six faces of every die, one each, in the order throws are listed."""
SYMBOLS = 10
"""Dice symbols on a sheet per round (one per die); striking all of them puts a player out of the round."""
ROUNDS = 3
CAP_BOCKS = 10
CAP_WOLVES = 12
CAP_GOATS = 12


# ---------------------------------------------------------------- actions


@dataclass(frozen=True)
class Roll(Action):
    """Throw one die per unstruck symbol on the own sheet."""

    kind: ClassVar[str] = "roll"


@dataclass(frozen=True)
class Choose(Action):
    """Use all thrown dice of one colour; `target` is the seat receiving wolves (grey only)."""

    kind: ClassVar[str] = "choose"
    colour: str
    target: int | None = None


# ---------------------------------------------------------------- state


@dataclass
class RockTheBockState:
    players: int
    rng: Rng
    options: dict[str, str] = field(default_factory=dict[str, str])
    round: int = 1
    turn: int = 0
    throw: list[int] = field(default_factory=list[int])
    """Dice thrown per colour (COLOURS order) while the acting seat chooses; empty before the throw."""
    bocks: list[int] = field(default_factory=list[int])
    wolves: list[int] = field(default_factory=list[int])
    goats: list[int] = field(default_factory=list[int])
    struck: list[int] = field(default_factory=list[int])
    round_scores: list[list[int]] = field(default_factory=list[list[int]])
    """Per seat, the score of every finished round."""
    over: bool = False
    last: dict[str, Any] | None = None


# ---------------------------------------------------------------- the view

Phase = Literal["roll", "choose", "over"]
""""roll": the acting seat has no throw on the table; "choose": it picks a colour of its throw."""


class SheetView(TypedDict):
    """One player's sheet in the running round (the last round's once the game is over)."""

    seat: int
    colour: str
    """The seat's goat colour."""
    bocks: int
    wolves: int
    goats: int
    struck: int
    out: bool
    """All symbols struck: out of the round, still receiving marks."""
    round_score: int
    """What the sheet would score if the round ended now."""
    round_scores: list[int]
    """The score of every finished round."""
    total: int


class ThrowItem(TypedDict):
    """One colour of the standing throw."""

    colour: str
    count: int
    refusal: str | None
    """Why the colour cannot be chosen (a refusal code such as "unowned_colour"), or None."""


class Caps(TypedDict):
    bocks: int
    wolves: int
    goats: int


class RockTheBockView(ViewHeader):
    """The whole table's view; nothing is hidden, a seat's view differs only in `seat`.

    `turn` is the acting seat (None once over); `round` runs 1..`rounds` and stays at the last
    round once the game is over. `phase` is always a `Phase`.
    """

    phase: Phase

    rounds: int
    dice: int
    """Dice the acting seat throws (or threw) this turn; 0 once over."""
    throw: list[ThrowItem] | None
    """The standing throw, by colour in COLOURS order; None before the throw (phase "roll")."""
    colours: list[str]
    """The goat colours in play, by seat."""
    unowned: list[str]
    """The goat colours nobody plays (2-3 players)."""
    caps: Caps
    symbols: int
    sheets: list[SheetView]


# ---------------------------------------------------------------- scoring


def score_round(bocks: int, wolves: int, goats: int) -> int:
    """One sheet's round score: own goats count +1 each under a bock lead, -1 each under a wolf lead."""
    if bocks > wolves:
        return goats
    if wolves > bocks:
        return -goats
    return 0


def fitting_marks(current: int, cap: int, dice: int) -> int:
    """How many of `dice` marks still fit under the cap; the rest are lost."""
    return max(0, min(dice, cap - current))


# ---------------------------------------------------------------- the game


class RockTheBockGame(Codecs[RockTheBockState, Action]):
    id = "rockthebock"
    title = "Rock the Bock"
    min_players = 2
    max_players = 4
    options: ClassVar[dict[str, tuple[str, ...]]] = {}

    _codec = StateCodec(RockTheBockState)
    _actions = ActionCodec(Roll, Choose)

    # ------------------------------------------------------------ setup

    def new(self, players: int, seed: int, options: dict[str, Any] | None = None) -> RockTheBockState:
        options = table_options(self, players, options)
        state = RockTheBockState(players=players, rng=Rng(seed), options=options)
        self._start_round(state, 1)
        return state

    def _start_round(self, state: RockTheBockState, number: int) -> None:
        state.round = number
        state.turn = (number - 1) % state.players
        state.throw = []
        state.bocks = [0] * state.players
        state.wolves = [0] * state.players
        state.goats = [0] * state.players
        state.struck = [0] * state.players
        if not state.round_scores:
            state.round_scores = [[] for _ in range(state.players)]

    # ------------------------------------------------------------ questions

    def to_move(self, state: RockTheBockState) -> frozenset[int]:
        return frozenset() if state.over else frozenset({state.turn})

    def is_over(self, state: RockTheBockState) -> bool:
        return state.over

    def scores(self, state: RockTheBockState) -> list[int]:
        return [sum(rounds) for rounds in state.round_scores]

    def ranking(self, state: RockTheBockState) -> list[int]:
        return shared_ranks(self.scores(state))

    def owner(self, state: RockTheBockState, colour: str) -> int | None:
        """The seat owning a goat colour, None for an unowned one (or a non-goat colour)."""
        if colour not in SEAT_COLOURS:
            return None
        seat = SEAT_COLOURS.index(colour)
        return seat if seat < state.players else None

    def refusal(self, state: RockTheBockState, colour: str) -> str | None:
        """Why a colour of the current throw cannot be chosen, or None when it can."""
        if colour not in COLOURS:
            return "unknown_colour"
        if not state.throw or state.throw[COLOURS.index(colour)] == 0:
            return "not_thrown"
        if colour in SEAT_COLOURS and self.owner(state, colour) is None:
            return "unowned_colour"
        return None

    def legal_actions(self, state: RockTheBockState, seat: int) -> list[Action]:
        if state.over or seat != state.turn:
            return []
        if not state.throw:
            return [Roll()]
        actions: list[Action] = []
        for colour in COLOURS:
            if self.refusal(state, colour) is not None:
                continue
            if colour == WOLF:
                actions.extend(Choose(WOLF, other) for other in range(state.players) if other != seat)
            else:
                actions.append(Choose(colour))
        return actions

    def default_action(self, state: RockTheBockState, seat: int) -> Action:
        legal = self.legal_actions(state, seat)
        if not legal:
            raise IllegalAction("not_your_turn", seat=seat)
        if not state.throw:
            return legal[0]
        choices = [action for action in legal if isinstance(action, Choose)]
        # The highest value; among equals the earliest in legal order.
        return max(choices, key=lambda action: self._value(state, seat, action))

    def _value(self, state: RockTheBockState, seat: int, action: Choose) -> float:
        """A greedy estimate of a choice: own projected score gained plus the receiver's lost.

        Bocks also count a little as cover for goats still to come, wolves a little for eroding
        another player's bock lead, and every die used costs a little (a slow round keeps options).
        """
        dice = state.throw[COLOURS.index(action.colour)]
        receiver, sheet = self._receiver(state, seat, action)
        bocks, wolves, goats = state.bocks[receiver], state.wolves[receiver], state.goats[receiver]
        before = score_round(bocks, wolves, goats)
        bonus = 0.0
        if sheet == "bocks":
            marked = fitting_marks(bocks, CAP_BOCKS, dice)
            cover = min(marked, max(0, wolves + 1 - bocks))
            bonus = 0.5 * cover + 0.25 * (marked - cover)
            bocks += marked
        elif sheet == "wolves":
            marked = fitting_marks(wolves, CAP_WOLVES, dice)
            bonus = 0.25 * min(marked, max(0, bocks - wolves))
            wolves += marked
        else:
            goats += fitting_marks(goats, CAP_GOATS, dice)
        gain = score_round(bocks, wolves, goats) - before
        value = gain if receiver == seat else -gain
        return value + bonus - 0.05 * dice

    def _receiver(self, state: RockTheBockState, seat: int, action: Choose) -> tuple[int, str]:
        """Whose sheet a (validated) choice marks, and which row of it."""
        if action.colour == BOCK:
            return seat, "bocks"
        if action.colour == WOLF:
            assert action.target is not None
            return action.target, "wolves"
        owner = self.owner(state, action.colour)
        assert owner is not None
        return owner, "goats"

    # ------------------------------------------------------------ acting

    def apply(self, state: RockTheBockState, seat: int, action: Action) -> list[Event]:
        require(not state.over, "game_over")
        require(seat in self.to_move(state), "not_your_turn", seat=seat)
        if isinstance(action, Roll):
            require(not state.throw, "already_rolled")
            return self._roll(state, seat)
        if isinstance(action, Choose):
            self._check_choice(state, seat, action)
            return self._choose(state, seat, action)
        raise IllegalAction("unknown_action", kind=getattr(action, "kind", None))

    def _check_choice(self, state: RockTheBockState, seat: int, action: Choose) -> None:
        require(bool(state.throw), "not_rolled")
        colour = action.colour
        require(colour in COLOURS, "unknown_colour", colour=colour)
        reason = self.refusal(state, colour)
        if reason is not None:
            raise IllegalAction(reason, colour=colour)
        if colour != WOLF:
            require(action.target is None, "target_not_allowed", colour=colour)
            return
        target = action.target
        require(target is not None, "target_required")
        require(
            isinstance(target, int) and not isinstance(target, bool) and 0 <= target < state.players,
            "no_such_seat",
            target=target,
        )
        require(target != seat, "target_self")

    def _roll(self, state: RockTheBockState, seat: int) -> list[Event]:
        dice = SYMBOLS - state.struck[seat]
        throw = [0] * len(COLOURS)
        for _ in range(dice):
            throw[state.rng.below(len(COLOURS))] += 1
        counts = {colour: throw[i] for i, colour in enumerate(COLOURS) if throw[i]}
        events: list[Event] = [{"type": "rolled", "seat": seat, "dice": dice, "throw": counts}]
        state.throw = throw
        if any(self.refusal(state, colour) is None for colour in COLOURS):
            state.last = {"type": "rolled", "seat": seat, "throw": counts}
            return events
        # Only unowned goat colours came up (2-3 players): the throw fails, nothing is struck,
        # and the turn passes as it would after a choice.
        state.throw = []
        state.last = {"type": "throw_failed", "seat": seat, "throw": counts}
        events.append({"type": "throw_failed", "seat": seat, "throw": counts})
        events.extend(self._next_turn(state, seat))
        return events

    def _choose(self, state: RockTheBockState, seat: int, action: Choose) -> list[Event]:
        dice = state.throw[COLOURS.index(action.colour)]
        receiver, sheet = self._receiver(state, seat, action)
        row: list[int] = getattr(state, sheet)
        cap = {"bocks": CAP_BOCKS, "wolves": CAP_WOLVES, "goats": CAP_GOATS}[sheet]
        marked = fitting_marks(row[receiver], cap, dice)
        row[receiver] += marked
        # Strike as many symbols as dice USED (the chosen colour), as GAMES.md says, not as dice thrown
        # (the rulebook's wording): striking every die thrown would use up all 10 on a round's first
        # throw, against the rulebook's "fewer from turn to turn" and its advice to play a round slowly.
        state.struck[seat] += dice
        state.throw = []
        mark: Event = {
            "type": "marked",
            "seat": seat,
            "colour": action.colour,
            "dice": dice,
            "receiver": receiver,
            "sheet": sheet,
            "marked": marked,
            "lost": dice - marked,
        }
        state.last = dict(mark)
        events: list[Event] = [
            mark,
            {"type": "struck", "seat": seat, "count": dice, "total": state.struck[seat]},
        ]
        if state.struck[seat] >= SYMBOLS:
            events.append({"type": "out", "seat": seat, "round": state.round})
        events.extend(self._next_turn(state, seat))
        return events

    def _next_turn(self, state: RockTheBockState, seat: int) -> list[Event]:
        """Pass the turn left to the next seat still in the round; score the round when none is."""
        for step in range(1, state.players + 1):
            candidate = (seat + step) % state.players
            if state.struck[candidate] < SYMBOLS:
                state.turn = candidate
                return [{"type": "turn", "seat": candidate}]
        return self._end_round(state)

    def _end_round(self, state: RockTheBockState) -> list[Event]:
        scored = [score_round(state.bocks[s], state.wolves[s], state.goats[s]) for s in range(state.players)]
        for s in range(state.players):
            state.round_scores[s].append(scored[s])
        # The sheets are wiped for the next round, so the event (and `last`) keeps the finished one.
        scored_event: Event = {
            "type": "round_scored",
            "round": state.round,
            "scores": scored,
            "totals": self.scores(state),
            "bocks": list(state.bocks),
            "wolves": list(state.wolves),
            "goats": list(state.goats),
        }
        events: list[Event] = [scored_event]
        state.last = {key: value for key, value in scored_event.items() if key != "totals"}
        if state.round >= ROUNDS:
            state.over = True
            events.append({"type": "game_over", "scores": self.scores(state), "ranking": self.ranking(state)})
            return events
        self._start_round(state, state.round + 1)
        events.append({"type": "round_started", "round": state.round, "seat": state.turn})
        return events

    # ------------------------------------------------------------ showing

    def view(self, state: RockTheBockState, seat: int | None) -> RockTheBockView:
        totals = self.scores(state)
        sheets = [
            SheetView(
                seat=s,
                colour=SEAT_COLOURS[s],
                bocks=state.bocks[s],
                wolves=state.wolves[s],
                goats=state.goats[s],
                struck=state.struck[s],
                out=state.struck[s] >= SYMBOLS,
                round_score=score_round(state.bocks[s], state.wolves[s], state.goats[s]),
                round_scores=list(state.round_scores[s]),
                total=totals[s],
            )
            for s in range(state.players)
        ]
        throw: list[ThrowItem] | None = None
        if state.throw:
            throw = [
                ThrowItem(colour=colour, count=count, refusal=self.refusal(state, colour))
                for colour, count in zip(COLOURS, state.throw, strict=True)
                if count
            ]
        phase: Phase = "over" if state.over else "choose" if state.throw else "roll"
        return RockTheBockView(
            seat=seat,
            to_move=sorted(self.to_move(state)),
            turn=None if state.over else state.turn,
            round=state.round,
            phase=phase,
            over=state.over,
            scores=totals,
            ranking=self.ranking(state) if state.over else None,
            last=self._last_events(state),
            rounds=ROUNDS,
            dice=0 if state.over else SYMBOLS - state.struck[state.turn],
            throw=throw,
            colours=list(SEAT_COLOURS[: state.players]),
            unowned=list(SEAT_COLOURS[state.players :]),
            caps=Caps(bocks=CAP_BOCKS, wolves=CAP_WOLVES, goats=CAP_GOATS),
            symbols=SYMBOLS,
            sheets=sheets,
        )

    def _last_events(self, state: RockTheBockState) -> list[Event]:
        """The events of the most recent action, rebuilt from `state.last` and the state after it.

        `state.last` keeps one event per action: "rolled", "throw_failed", "marked" or (when the
        choice ended a round) "round_scored". What followed it is read off the state, which
        nothing has changed since. A round-ending choice's own "marked" / "struck" / "out" events
        are not stored, so they cannot be shown.
        """
        if state.last is None:
            return []
        last = copy.deepcopy(state.last)  # the view never shares lists with the state
        kind = last["type"]
        if kind in ("rolled", "throw_failed"):
            throw: dict[str, int] = last["throw"]
            rolled: Event = {
                "type": "rolled",
                "seat": last["seat"],
                "dice": sum(throw.values()),
                "throw": throw,
            }
            if kind == "rolled":
                return [rolled]
            failed: Event = {"type": "throw_failed", "seat": last["seat"], "throw": dict(throw)}
            return [rolled, failed, {"type": "turn", "seat": state.turn}]
        if kind == "marked":
            seat = last["seat"]
            events: list[Event] = [
                last,
                {"type": "struck", "seat": seat, "count": last["dice"], "total": state.struck[seat]},
            ]
            if state.struck[seat] >= SYMBOLS:
                events.append({"type": "out", "seat": seat, "round": state.round})
            events.append({"type": "turn", "seat": state.turn})
            return events
        if kind == "round_scored":
            scored: Event = {**last, "totals": self.scores(state)}
            if state.over:
                return [
                    scored,
                    {"type": "game_over", "scores": self.scores(state), "ranking": self.ranking(state)},
                ]
            return [scored, {"type": "round_started", "round": state.round, "seat": state.turn}]
        return [last]


GAME = RockTheBockGame()
