"""Sushi Dice's computer duelists: one click at a time, paced by the table (`rules.computer.PACE`).

Every level rings as soon as a plate is complete and calls Yuck! (a duelist) or Chop! (a spectator)
on what the board it has seen (`published`) shows, when that yuck still shows: easy only now and then.
normal keeps the dice of the plate it has filled most (the engine's computer); hard aims at the plate
it expects to finish in the fewest clicks (each die set aside is a click too) and re-throws a yuck of
its own at once, before a board shows it (a call on a board that showed it would stand).

What a duelist reads is public: the plates, both sets' faces, what the board showed. The plates'
face-down order and the dice to come are not read; hard's estimates are simulations of its own.
"""

from __future__ import annotations

import random
from functools import cache

from rules.computer.brain import Level
from rules.engine import Action, Game
from rules.sushidice.game import (
    DICE,
    HOST,
    SET_SIZE,
    STAR_DICE,
    YUCK,
    Challenge,
    Chop,
    DiceSet,
    Ring,
    Roll,
    SushiDiceGame,
    SushiDiceState,
    Yuck,
)
from rules.sushidice.plates import keep_toward, step_toward

GAME = SushiDiceGame()
SIMULATIONS = 150
"""Simulated finishes per estimate of hard's click counts (each estimate is computed once and kept)."""
GIVE_UP = 40


@cache
def clicks_to_finish(plate: str, kept: tuple[tuple[int, str], ...]) -> float:
    """Expected clicks (throws, set-asides, the bell) to finish `plate` from the dice `kept` (die, face)
    set aside, always keeping the plate's filling. Simulated with a generator seeded by the question,
    so the answer is the same in every process."""
    rng = random.Random(f"{plate}:{kept}")
    total = 0
    for _ in range(SIMULATIONS):
        faces: list[str | None] = [None] * SET_SIZE
        aside = [False] * SET_SIZE
        for die, face in kept:
            faces[die], aside[die] = face, True
        clicks = 0
        while clicks < GIVE_UP:
            for die in range(SET_SIZE):
                if not aside[die]:
                    faces[die] = rng.choice(DICE[die])
            clicks += 1  # the throw
            keep = keep_toward(plate, faces, aside)
            if len(keep) == SET_SIZE:
                clicks += 1  # the bell
                break
            wanted = [die in keep for die in range(SET_SIZE)]
            clicks += sum(a != w for a, w in zip(aside, wanted, strict=True))
            aside = wanted
        total += clicks
    return total / SIMULATIONS


def _kept_key(dice: DiceSet, keep: list[int]) -> tuple[tuple[int, str], ...]:
    """The kept dice as the simulation needs them: die numbers matter only as star or yuck dice."""
    stars = sorted(str(dice.faces[die]) for die in keep if die in STAR_DICE)
    yucks = sorted(str(dice.faces[die]) for die in keep if die not in STAR_DICE)
    first_yuck_die = len(STAR_DICE)
    return (
        *((slot, face) for slot, face in enumerate(stars)),
        *((first_yuck_die + slot, face) for slot, face in enumerate(yucks)),
    )


class SushiDiceBrain:
    """A real-time brain (rules.computer.brain.Brain): one click now, paced by the table."""

    def choose(
        self,
        game: Game[SushiDiceState, Action],
        state: SushiDiceState,
        seat: int,
        level: Level,
        rng: random.Random,
        *,
        published: int | None = None,
        rollouts: int | None = None,
    ) -> Action | None:
        if state.phase == "challenge":
            return Challenge((HOST + 1) % state.players)
        dice = GAME.dice_of(state, seat)
        calls = level != "easy" or rng.random() < 0.5
        if dice is None:  # a spectator: only ever a Chop!, on a board it has seen
            if calls and published is not None and published in GAME.call_stamps(state, state.sets):
                return Chop(published, GAME.chop_partners(state, seat)[0])
            return None
        complete = GAME.complete_plates(state, dice)
        if complete:
            return Ring(complete[0])
        opponent = GAME.opponent_of(state, dice)
        if calls and published is not None and published in GAME.call_stamps(state, [opponent]):
            return Yuck(published)
        if None in dice.faces:
            return Roll()
        if level == "hard":
            return self._hard(state, dice, published)
        if level == "easy" and not all(dice.set_aside) and rng.random() < 0.25:
            return Roll()  # in a hurry: throws before setting everything aside
        return GAME.computer_action(state, seat)

    def _hard(self, state: SushiDiceState, dice: DiceSet, published: int | None) -> Action:
        loose_yucks = [die for die, face in enumerate(dice.faces) if face == YUCK and not dice.set_aside[die]]
        if any(published is None or dice.thrown[die] > published for die in loose_yucks):
            # A yuck the board may not have shown yet: thrown away before it does, nobody can call it
            # (once shown, throwing it away saves nothing: a call on that board stands).
            return Roll()
        best: tuple[float, list[int]] | None = None
        for plate in state.face_up:
            keep = keep_toward(plate, dice.faces, dice.set_aside)
            switch = sum((die in keep) != dice.set_aside[die] for die in range(SET_SIZE))
            cost = switch + clicks_to_finish(plate, _kept_key(dice, keep))
            if best is None or cost < best[0]:
                best = (cost, keep)
        assert best is not None
        return step_toward(dice, best[1])

    def forget(self) -> None:
        return None


BRAIN = SushiDiceBrain()
