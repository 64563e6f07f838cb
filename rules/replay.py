"""A finished game played again from its action log: the initial state, then the state after each move.

Pure: it knows the Game protocol and the shape of the table's log, nothing of Discord or storage.
A game is deterministic (its randomness is an `Rng` inside the state), so `game.new` with the
logged seed and the logged seat actions re-applied in order give back every state the table went
through; comparing the last one with the stored final state proves the replay is faithful.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from rules.engine import JSON, Event, Game, IllegalAction

STARTS = ("start", "rematch")  # the table-level actions that deal a new game (with its seed)


class Unreplayable(Exception):
    """The log cannot be replayed; `code` says why (`no_seed`, `diverged`)."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


@dataclass(frozen=True)
class Move:
    """One logged seat action: who, what (decoded), and whether the table played it for them."""

    seat: int
    action: Any
    by: str = "player"  # "player", or "timeout" / "computer" when the table played it


@dataclass(frozen=True)
class GameLog:
    """The part of a table's action log that makes the game: the seed it was dealt from, the moves."""

    seed: int
    moves: tuple[Move, ...]


@dataclass(frozen=True)
class Step:
    """Where a replay stands: `number` 0 is the deal, k the state after the k-th move."""

    number: int
    move: Move | None  # None at the deal
    events: tuple[Event, ...]


def read_log(game: Game[Any, Any], entries: Iterable[tuple[int | None, JSON]]) -> GameLog:
    """The game in a table's log of (seat, action JSON); table-level actions have seat None.

    Games started before the seed was logged cannot be replayed: Unreplayable("no_seed").
    """
    seed: int | None = None
    moves: list[Move] = []
    for seat, logged in entries:
        if seat is None:
            if logged.get("type") in STARTS:
                seed = logged.get("seed")
                moves = []  # the log of one table holds one game; a new deal starts it over
            continue
        encoded = {name: value for name, value in logged.items() if name != "by"}
        try:
            action = game.decode_action(encoded)
        except IllegalAction as error:
            raise Unreplayable("diverged") from error
        moves.append(Move(seat, action, str(logged.get("by", "player"))))
    if not isinstance(seed, int):
        raise Unreplayable("no_seed")
    return GameLog(seed, tuple(moves))


def steps(
    game: Game[Any, Any], players: int, options: dict[str, Any], log: GameLog
) -> Iterator[tuple[Step, Any]]:
    """Each step with the state after it. The state is ONE object, advanced in place between
    steps: copy it (`snapshot`) to keep it past the next iteration."""
    state = game.new(players, log.seed, options)
    yield Step(0, None, ()), state
    for number, move in enumerate(log.moves, start=1):
        try:
            events = game.apply(state, move.seat, move.action)
        except IllegalAction as error:  # the engine judges differently from when it was played
            raise Unreplayable("diverged") from error
        yield Step(number, move, tuple(events)), state


def snapshot(game: Game[Any, Any], state: Any) -> Any:
    """An independent copy of a state, through the game's own codec."""
    return game.load(game.dump(state))


def states(game: Game[Any, Any], players: int, options: dict[str, Any], log: GameLog) -> list[Any]:
    """The initial state and the state after each move, each its own object."""
    return [snapshot(game, state) for _, state in steps(game, players, options, log)]


@dataclass(frozen=True)
class Replayed:
    """One step of a replay, and what the whole replay proved."""

    step: Step
    state: Any  # the state after `step`, a copy
    total: int  # the number of moves; steps run from 0 to total
    final: JSON  # game.dump of the state after the last move


def replay_to(
    game: Game[Any, Any], players: int, options: dict[str, Any], log: GameLog, number: int
) -> Replayed:
    """Step `number` (clamped to 0..total) of the replay, played through to the end."""
    number = max(0, min(number, len(log.moves)))
    kept: tuple[Step, Any] | None = None
    state: Any = None
    for step, state in steps(game, players, options, log):
        if step.number == number:
            kept = step, snapshot(game, state)
    assert kept is not None, "step 0 always exists"
    return Replayed(kept[0], kept[1], len(log.moves), game.dump(state))


def same_state(first: JSON, second: JSON) -> bool:
    """Two dumped states are the same game position (dumps may differ in key order and tuples)."""
    return json.dumps(first, sort_keys=True) == json.dumps(second, sort_keys=True)
