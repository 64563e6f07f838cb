"""Sushi Dice: do games of computers end, do Yuck! presses on what the board shows count, and how
does a quick human fare against each computer level?

.venv/bin/python bench/bench_sushidice_calls.py [seeds per player count]

(a) Stall rate: games played by computers only, as the table plays them (every computer seat that
    may move moves, in seat order, round after round), with a bound on the actions of a game. Before:
    the computer of the engine before issue 12, which kept the dice of the longest partial plate even
    when that plate could no longer be completed. After: `GAME.computer_action`.
(b) Issue 24: a caller presses Yuck! 0.3-0.9 s after each public board (published once a second,
    when something changed) that shows a yuck on the opponent, who throws on with a click every
    0.45 s and sees their own dice at once. Each press is judged by the rule before (a yuck still
    showing at the press, on a die not thrown since the board) and by the rule now (the board pressed
    on showed it, and was the latest or was replaced less than a second before: GAMES.md).
(c) A quick human (the engine's own play at a click every 0.45 s, calling Yuck! 0.7 s after a
    board) against each computer level at its `rules.computer.PACE`, on the same clock: the computer
    calls on what the cog's `computer_sight` gives it.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cogs.games.sushidice.cog import CROSSING, PUBLIC_BOARD_INTERVAL
from rules.computer.brain import LEVELS, PACE, level_named
from rules.computer.play import choose
from rules.engine import Action
from rules.sushidice.game import (
    GAME,
    HOST,
    YUCK,
    Challenge,
    Chop,
    Ring,
    Roll,
    SushiDiceState,
    Yuck,
    _filling,
    step_toward,
)

Policy = Callable[[SushiDiceState, int], Action]
BOUND = 1_500  # actions; games of computers take at most about 650 after the fix
PUBLISH_EVERY = 6  # K
PRESSES = 1_000  # presses judged per scenario


def computer_before(state: SushiDiceState, seat: int) -> Action:
    """The computer of the engine before issue 12 (its legal-action order made explicit)."""
    if state.phase == "challenge":
        return Challenge((HOST + 1) % state.players)
    dice = GAME.dice_of(state, seat)
    if dice is None:
        return Chop(GAME.call_stamps(state, state.sets)[0], GAME.chop_partners(state, seat)[0])
    complete = GAME.complete_plates(state, dice)
    if complete:
        return Ring(complete[0])
    if None in dice.faces:
        return Roll()
    return step_toward(
        dice, max((_filling(plate, dice.faces, dice.set_aside) for plate in state.face_up), key=len)
    )


def play(players: int, seed: int, policy: Policy) -> int | None:
    """Actions a game of computers took, None if it passed BOUND (a stall)."""
    state = GAME.new(players, seed)
    actions = 0
    while not state.over:
        if actions > BOUND:
            return None
        for seat in sorted(GAME.to_move(state)):
            if seat in GAME.to_move(state):
                GAME.apply(state, seat, policy(state, seat))
                actions += 1
    return actions


def stalls(seeds: int) -> None:
    # The computer before the fix gets fewer seeds: its stalled games run to the bound, and are slow.
    old_seeds = max(seeds // 5, 1)
    print(
        f"(a) games of computers only, bound {BOUND} actions; {seeds} seeds per player count after,"
        f" {old_seeds} before"
    )
    header = f"{'no end before':>14} {'no end after':>13} {'actions after: mean':>20} {'max':>5}"
    print(f"    {'players':>7} {header}")
    for players in range(2, 7):
        before = [play(players, seed, computer_before) for seed in range(old_seeds)]
        after = [play(players, seed, GAME.computer_action) for seed in range(seeds)]
        ended = [actions for actions in after if actions is not None]
        print(
            f"    {players:>7} {before.count(None) / old_seeds:>14.1%} {after.count(None) / seeds:>13.1%}"
            f" {sum(ended) / max(len(ended), 1):>20.0f} {max(ended, default=0):>5}"
        )


# ---------------------------------------------------------------- (b) and (c): on a simulated clock


@dataclass(frozen=True)
class Seat:
    """A duelist on the simulated clock: seconds between clicks (±20%), seconds to react to a board,
    and how it plays: a level of rules.computer, or "quick" (a fast human: the engine's own play)."""

    click: float
    reaction: float
    level: str


QUICK = Seat(click=0.45, reaction=0.7, level="quick")
"""A fast human: a click every 0.45 s on the own panel (seen at once), 0.7 s to react to the board."""


def fresh(boards: list[tuple[float, int]], index: int, now: float) -> bool:
    """The cog's rule: a call stands on the latest board or one replaced less than CROSSING ago."""
    return index == len(boards) - 1 or boards[index + 1][0] > now - CROSSING


def sight(boards: list[tuple[float, int]], now: float, reaction: float) -> int | None:
    """What the cog's computer_sight gives: the latest board seen `reaction` ago, if still fresh."""
    seen = [index for index, (at, _) in enumerate(boards) if at <= now - reaction]
    return boards[seen[-1]][1] if seen and fresh(boards, seen[-1], now) else None


def old_rule(state: SushiDiceState, target: int, seen: int) -> bool:
    """The rule before issue 24: a yuck still showing now, on a die not thrown since the board."""
    dice = GAME.dice_of(state, target)
    assert dice is not None
    return any(face == YUCK and dice.thrown[die] <= seen for die, face in enumerate(dice.faces))


def duel_clock(seats: tuple[Seat, Seat], seed: int, presses: list[tuple[bool, bool]] | None = None) -> int:
    """A 2-player game on a simulated clock; returns the winner. With `presses`, seat 0 presses Yuck!
    whenever a board showed a yuck on seat 1, after its reaction time (drawn 0.3-0.9 s), and each press
    is recorded as (valid by the old rule, valid now) before it is played by the rule of now."""
    rng = random.Random(seed)
    state = GAME.new(2, seed)
    boards: list[tuple[float, int]] = [(0.0, state.throws)]
    last_drawn: object = None
    due = [rng.uniform(0, seat.click) for seat in seats]
    pending: list[tuple[float, int, int]] = []  # (when, board index, duel) of seat 0's presses
    next_board, now = PUBLIC_BOARD_INTERVAL, 0.0
    while not state.over and now < 3_600:
        seat = min((0, 1), key=lambda s: due[s])
        press_at = min((when for when, _, _ in pending), default=float("inf"))
        now = min(due[seat], press_at, next_board)
        if now == next_board:
            next_board += PUBLIC_BOARD_INTERVAL
            drawn = (state.duel, state.throws, [dice.set_aside for dice in state.sets])
            if drawn == last_drawn:
                continue  # an unchanged board is not edited
            last_drawn = drawn
            boards.append((now, state.throws))
            opponent = GAME.dice_of(state, 1)
            if presses is not None and opponent is not None and YUCK in opponent.faces:
                pending.append((now + rng.uniform(0.3, 0.9), len(boards) - 1, state.duel))
            continue
        if now == press_at:
            _, index, duel = pending.pop(next(i for i, p in enumerate(pending) if p[0] == press_at))
            stamp = boards[index][1]
            if duel == state.duel and presses is not None:
                valid = fresh(boards, index, now) and Yuck(stamp) in GAME.legal_actions(state, 0)
                presses.append((old_rule(state, 1, stamp), valid))
                if valid:
                    GAME.apply(state, 0, Yuck(stamp))
            continue
        due[seat] = now + seats[seat].click * rng.uniform(0.8, 1.2)
        if seat not in GAME.to_move(state):
            continue
        if seats[seat].level == "quick":
            seen = sight(boards, now, seats[seat].reaction)
            action = GAME.computer_action(state, seat)
            if presses is None and seen is not None and Yuck(seen) in GAME.legal_actions(state, seat):
                action = Yuck(seen)
        else:
            seen = sight(boards, now, seats[seat].reaction)
            level = level_named(seats[seat].level)
            action = choose(GAME, state, seat, level, seed * 7_919 + int(now * 1_000), published=seen)
        if action is not None:
            GAME.apply(state, seat, action)
    return GAME.ranking(state).index(1)


def acceptance(games: int) -> None:
    print(
        f"(b) Yuck! presses on boards (one a second) showing a yuck, 0.3-0.9 s after the board, while a"
        f" quick opponent throws on ({games} games of 2)"
    )
    thrower = Seat(click=0.45, reaction=10.0, level="quick")  # throws on, never calls
    caller = Seat(click=2.0, reaction=10.0, level="quick")
    presses: list[tuple[bool, bool]] = []
    for seed in range(games):
        duel_clock((caller, thrower), seed, presses)
    before = sum(old for old, _ in presses) / len(presses)
    after = sum(new for _, new in presses) / len(presses)
    print(f"    presses {len(presses)}: refused before {1 - before:.1%}, refused after {1 - after:.1%}")


def levels(games: int) -> None:
    print(
        f"(c) a quick human (click {QUICK.click} s, reaction {QUICK.reaction} s) against each level,"
        f" {games} games of 2"
    )
    for level in LEVELS:
        pace = PACE[level]
        computer = Seat(click=pace.click, reaction=pace.reaction, level=level)
        wins = 0
        for game in range(games):  # the computer plays either seat in turn
            seats = (QUICK, computer) if game % 2 else (computer, QUICK)
            wins += duel_clock(seats, game) == game % 2
        print(
            f"    {level:<7} click {pace.click:.2f} s, reaction {pace.reaction:.2f} s:"
            f" the computer wins {wins / games:.0%}"
        )


def main() -> None:
    seeds = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    for part, count in ((stalls, seeds), (acceptance, max(seeds // 10, 5)), (levels, max(seeds // 5, 10))):
        started = time.perf_counter()
        part(count)
        print(f"    ({time.perf_counter() - started:.1f} s)")


if __name__ == "__main__":
    main()
