"""Sushi Dice (issue 12): do games of computers end, and how many Yuck!/Chop! presses count?

.venv/bin/python bench/bench_sushidice_calls.py [seeds per player count]

(a) Stall rate: games played by computers only, as the table plays them (every computer seat that
    may move moves, in seat order, round after round), with a bound on the actions of a game. Before:
    the computer of the previous engine, which kept the dice of the longest partial plate even when
    that plate could no longer be completed (a combo whose star dice were all aside showing sushi).
    After: `GAME.computer_action`.
(b) Acceptance of calls. The board is published every K-th action (the bounded edit rate: two
    duelists clicking a few times a second, the board edited once a second). Whenever a publication
    shows a yuck on the caller's opponent (for a Chop: on both duelists), the caller presses D actions
    later (D drawn from 1..K: a short reaction time while the duel goes on), naming what the cog
    names: the latest published board. The press is judged on the live state of that moment, by
    both rules, and not played (both rules judge the same presses):
      before: valid only if the opponent's set has not thrown since the board showed it (Yuck:
              the call named the opponent's throw serial; Chop: the board stamp, so no throw at all);
      after:  GAMES.md, as the engine judges now: a yuck the board showed still shows on a die not
              thrown since (Chop: one on each duelist).
    The duelists play as computers (they never keep a yuck aside), as "clickers" (a third of their
    moves are random clicks on the dice or Roll) or as "parkers" (they set every yuck aside and throw
    their other dice on and on). A yuck on a die that is thrown again is gone under both rules, as
    GAMES.md says: only a yuck kept aside outlives a throw.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.engine import Action
from rules.sushidice.game import (
    GAME,
    HOST,
    SET_SIZE,
    YUCK,
    BringBack,
    Challenge,
    Chop,
    Ring,
    Roll,
    SetAside,
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
        return Chop(state.throws, GAME.chop_partners(state, seat)[0])
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


def clicker(chooser: random.Random) -> Policy:
    """A duelist who rings when possible, and otherwise clicks a random die or Roll a third of the time."""

    def act(state: SushiDiceState, seat: int) -> Action:
        dice = GAME.dice_of(state, seat)
        if dice is None or chooser.random() >= 1 / 3:
            return GAME.computer_action(state, seat)
        legal = GAME.legal_actions(state, seat)
        rings = [action for action in legal if isinstance(action, Ring)]
        handling = [action for action in legal if isinstance(action, Roll | SetAside | BringBack)]
        return rings[0] if rings else chooser.choice(handling)

    return act


def parker(chooser: random.Random) -> Policy:
    """A duelist who sets every yuck it throws aside and throws all its other dice on, again and
    again (issue 12's example: the yuck stays while other dice are thrown)."""

    def act(state: SushiDiceState, seat: int) -> Action:
        dice = GAME.dice_of(state, seat)
        if dice is None or None in dice.faces:
            return GAME.computer_action(state, seat)
        loose = [die for die in range(SET_SIZE) if not dice.set_aside[die]]
        yucks = [die for die in loose if dice.faces[die] == YUCK]
        if yucks and len(loose) > 1:
            return SetAside(yucks[0])
        if loose:
            return Roll()
        return BringBack(next(die for die in range(SET_SIZE) if dice.faces[die] != YUCK))

    return act


DUELISTS: dict[str, Callable[[random.Random], Policy]] = {
    "computers": lambda chooser: GAME.computer_action,
    "clickers": clicker,
    "parkers": parker,
}


def calls(kind: str, players: int, duelists: str) -> tuple[int, int, int]:
    """(presses, valid before, valid after) for Yuck! (by the red duelist on blue) or Chop!."""
    chooser = random.Random(f"{kind}{players}{duelists}")
    presses = before = after = 0
    seed = 0
    while presses < PRESSES:
        seed += 1
        state = GAME.new(players, seed)
        GAME.apply(state, HOST, Challenge(1))
        policy = DUELISTS[duelists](chooser)
        board: tuple[int, int, int] | None = None  # (duel, stamp, blue's throw) as last published
        pending: list[int] = []  # actions left before each waiting press
        actions = 0
        while not state.over and actions < BOUND and presses < PRESSES:
            red, blue = state.sets
            # A spectator's Chop would end the duel: here spectators only watch and press.
            movers = [seat for seat in sorted(GAME.to_move(state)) if GAME.dice_of(state, seat) is not None]
            seat = chooser.choice(movers)
            GAME.apply(state, seat, policy(state, seat))
            actions += 1
            pending = [left - 1 for left in pending]
            for _ in range(pending.count(0)):
                if state.over or board is None or board[0] != state.duel:
                    continue  # the duel the caller saw is over: nobody presses
                presses += 1
                _, stamp, blue_throw = board
                if kind == "yuck":
                    before += YUCK in blue.faces and blue_throw == blue.throw
                    after += Yuck(stamp) in GAME.legal_actions(state, red.holder)
                else:
                    before += GAME.chop_possible(state) and stamp == state.throws
                    watcher = next(s for s in range(players) if GAME.dice_of(state, s) is None)
                    after += any(
                        isinstance(action, Chop) and action.seen == stamp
                        for action in GAME.legal_actions(state, watcher)
                    )
            pending = [left for left in pending if left > 0]
            if actions % PUBLISH_EVERY == 0 and state.phase == "duel":
                board = (state.duel, state.throws, blue.throw)
                shows = YUCK in blue.faces if kind == "yuck" else YUCK in blue.faces and YUCK in red.faces
                if shows:
                    pending.append(chooser.randint(1, PUBLISH_EVERY))
    return presses, before, after


def acceptance() -> None:
    print(
        f"(b) calls pressed 1..{PUBLISH_EVERY} actions after a board (published every {PUBLISH_EVERY}th"
        " action) showed the yuck(s)"
    )
    print(f"    {'call':<6} {'duelists':<13} {'presses':>7} {'valid before':>13} {'valid after':>12}")
    for kind, players in (("yuck", 2), ("chop", 3)):
        for duelists in DUELISTS:
            presses, before, after = calls(kind, players, duelists)
            valid = f"{before / presses:>13.1%} {after / presses:>12.1%}"
            print(f"    {kind:<6} {duelists:<13} {presses:>7} {valid}")


def main() -> None:
    seeds = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    started = time.perf_counter()
    stalls(seeds)
    print(f"    ({time.perf_counter() - started:.1f} s)")
    started = time.perf_counter()
    acceptance()
    print(f"    ({time.perf_counter() - started:.1f} s)")


if __name__ == "__main__":
    main()
