"""Sushizock's computer players: a tile-value model, and the dice of a turn played by exact expectation.

What a seat knows: the rows, every pile's height and top tile, the dice. The tiles below the tops are
face down for everybody, the owner included; a buried tile counts as the average of the tiles nobody
can see (the search deals them out afresh). Future dice come from the computer's own generator.

A turn is up to three throws; `Turn` finds, for every result the dice can still reach, the best take,
and for every throw the best dice to set aside, by exact expectation over the dice (the faces collapse
to four: sushi and bone 1/3 each, blue and red chopsticks 1/6 each). What a take is worth comes from
`TileValues`; hard subtracts what the next player may then expect from their whole turn.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from functools import cache
from itertools import product
from typing import Literal

from rules.computer.brain import TurnBrain
from rules.engine import Action, Game, Rng
from rules.sushizock.game import (
    BLUE,
    BONE,
    BONE_TILES,
    CHOPSTICKS,
    DICE,
    RED,
    STEAL_BLIND,
    STEAL_TOP,
    SUSHI,
    SUSHI_TILES,
    THROWS,
    Roll,
    Steal,
    SushizockGame,
    SushizockState,
    Take,
)

GAME = SushizockGame()
FACE_ORDER: tuple[str, ...] = (SUSHI, BONE, BLUE, RED)
FACE_CHANCE: tuple[float, ...] = (1 / 3, 1 / 3, 1 / 6, 1 / 6)
Counts = tuple[int, int, int, int]


@cache
def outcomes(dice: int) -> tuple[tuple[Counts, float], ...]:
    """Every throw of `dice` dice as face counts (FACE_ORDER), with its chance."""
    found: dict[Counts, float] = {}
    for faces in product(range(4), repeat=dice):
        counts = (faces.count(0), faces.count(1), faces.count(2), faces.count(3))
        found[counts] = found.get(counts, 0.0) + math.prod(FACE_CHANCE[face] for face in faces)
    return tuple(found.items())


@cache
def keeps(thrown: Counts) -> tuple[Counts, ...]:
    """The ways to set dice of a throw aside: at least one, and at least one left to throw."""
    total = sum(thrown)
    return tuple(keep for keep in product(*(range(n + 1) for n in thrown)) if 0 < sum(keep) < total)  # type: ignore[return-value]


def counts_of(faces: list[str]) -> Counts:
    return (faces.count(SUSHI), faces.count(BONE), faces.count(BLUE), faces.count(RED))


def add(a: Counts, b: Counts) -> Counts:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3])


def copy_state(state: SushizockState) -> SushizockState:
    return SushizockState(
        players=state.players,
        rng=Rng(state.rng.state),
        options=dict(state.options),
        sushi_row=list(state.sushi_row),
        bone_row=list(state.bone_row),
        sushi_piles=[list(pile) for pile in state.sushi_piles],
        bone_piles=[list(pile) for pile in state.bone_piles],
        turn=state.turn,
        throws=state.throws,
        thrown=list(state.thrown),
        set_aside=list(state.set_aside),
        over=state.over,
        last=state.last,
    )


def hidden_tiles(state: SushizockState) -> tuple[list[int], list[int]]:
    """The sushi and the bones nobody can see (below the tops), sorted."""
    sushi = list(SUSHI_TILES)
    bones = list(BONE_TILES)
    for tile in state.sushi_row:
        sushi.remove(tile)
    for tile in state.bone_row:
        bones.remove(tile)
    for pile in state.sushi_piles:
        if pile:
            sushi.remove(pile[-1])
    for pile in state.bone_piles:
        if pile:
            bones.remove(pile[-1])
    return sorted(sushi), sorted(bones)


def determinize(state: SushizockState, seat: int, rng: random.Random) -> SushizockState:
    """A world: the buried tiles dealt afresh under the tops, and a fresh generator for the dice."""
    world = copy_state(state)
    sushi, bones = hidden_tiles(state)
    rng.shuffle(sushi)
    rng.shuffle(bones)
    for piles, pool in ((world.sushi_piles, sushi), (world.bone_piles, bones)):
        for pile in piles:
            if len(pile) > 1:
                buried = len(pile) - 1
                pile[:buried], pool[:] = pool[:buried], pool[buried:]
    world.rng = Rng(rng.getrandbits(64))
    return world


# ---------------------------------------------------------------- what tiles are worth (normal)


class TileValues:
    """Expected points of a tile to a seat, from what everybody can see.

    A pile's sushi at index i counts when the bone pile ends higher than i. The bones a seat will still
    take are guessed as its share of the bone row (a Poisson count), so a sushi above the bone pile is
    worth its chance of being covered, and a bone is worth the coverage it adds, less its own points.
    """

    def __init__(self, state: SushizockState) -> None:
        self.state = state
        sushi, bones = hidden_tiles(state)
        self.buried_sushi = sum(sushi) / len(sushi) if sushi else 0.0
        self.buried_bone = sum(bones) / len(bones) if bones else 0.0
        left = state.bone_row
        self.share = len(left) / state.players
        self.bone_cost = -sum(left) / len(left) if left else 0.0

    def _covered(self, index: int, bones: int, share: float) -> float:
        """P(a bone pile of `bones` plus its future share ends higher than `index`)."""
        need = index - bones + 1
        if need <= 0:
            return 1.0
        term, below = math.exp(-share), 0.0
        for k in range(need):
            below += term
            term *= share / (k + 1)
        return max(0.0, 1.0 - below)

    def _sushi_at(self, seat: int, index: int) -> float:
        pile = self.state.sushi_piles[seat]
        return float(pile[-1]) if index == len(pile) - 1 else self.buried_sushi

    def gain(self, seat: int, pile: str, tile: float) -> float:
        """What putting `tile` on `seat`'s pile adds to its expected final score."""
        sushi = len(self.state.sushi_piles[seat])
        bones = len(self.state.bone_piles[seat])
        if pile == SUSHI:
            return tile * self._covered(sushi, bones, self.share)
        share_after = max(0.0, self.share - 1 / self.state.players)
        value = tile + self.bone_cost / self.state.players
        for index in range(bones, sushi):
            before = self._covered(index, bones, self.share)
            after = self._covered(index, bones + 1, share_after)
            value += self._sushi_at(seat, index) * (after - before)
        return value

    def loss(self, seat: int, pile: str, position: int) -> float:
        """What losing the tile at `position` (1 = top) of a pile costs `seat` (negative: relief)."""
        piles = self.state.sushi_piles if pile == SUSHI else self.state.bone_piles
        height = len(piles[seat])
        tile = piles[seat][-1] if position == 1 else self.buried_sushi if pile == SUSHI else self.buried_bone
        sushi = len(self.state.sushi_piles[seat])
        bones = len(self.state.bone_piles[seat])
        if pile == SUSHI:
            return tile * self._covered(height - position, bones, self.share)
        value = tile
        for index in range(bones - 1, sushi):
            value += self._sushi_at(seat, index) * (
                self._covered(index, bones, self.share) - self._covered(index, bones - 1, self.share)
            )
        return value

    def steal(self, seat: int, pile: str, target: int, position: int) -> float:
        piles = self.state.sushi_piles if pile == SUSHI else self.state.bone_piles
        tile = (
            piles[target][-1] if position == 1 else self.buried_sushi if pile == SUSHI else self.buried_bone
        )
        weight = 1.0 if self.state.players == 2 else 0.6
        return self.gain(seat, pile, tile) + weight * self.loss(target, pile, position)


# ---------------------------------------------------------------- a turn of dice


TakeKey = tuple[Literal["take"], str, int] | tuple[Literal["steal"], str, int, int] | tuple[Literal["forced"]]
"""A take a result allows: ("take", pile, nth) / ("steal", pile, target, position) / ("forced",)."""


class Turn:
    """The best play of the dice for the seat to move, given a worth for every take (`worth`)."""

    def __init__(self, state: SushizockState, worth: Callable[[TakeKey], float]) -> None:
        self.state = state
        self.worth = worth
        self.seat = state.turn
        self._takes: dict[Counts, float | None] = {}
        self._throws: dict[tuple[Counts, int], float] = {}
        self._forced: float | None = None

    def takes(self, result: Counts) -> list[TakeKey]:
        """What a result allows, as keys (no forced take)."""
        state = self.state
        found: list[TakeKey] = []
        for index, pile, row in ((0, SUSHI, state.sushi_row), (1, BONE, state.bone_row)):
            if 1 <= result[index] <= len(row):
                found.append(("take", pile, result[index]))
        for index, colour in ((2, BLUE), (3, RED)):
            if result[index] >= STEAL_TOP:
                pile = CHOPSTICKS[colour]
                piles = state.sushi_piles if pile == SUSHI else state.bone_piles
                for target in range(state.players):
                    if target == self.seat or not piles[target]:
                        continue
                    depth = len(piles[target]) if result[index] >= STEAL_BLIND else 1
                    found.extend(("steal", pile, target, position) for position in range(1, depth + 1))
        return found

    def best_take(self, result: Counts) -> float | None:
        if result not in self._takes:
            values = [self.worth(key) for key in self.takes(result)]
            self._takes[result] = max(values) if values else None
        return self._takes[result]

    def forced(self) -> float:
        if self._forced is None:
            self._forced = self.worth(("forced",))
        return self._forced

    def settle(self, aside: Counts, thrown: Counts, throws_left: int) -> float:
        """The value of a result: take it, or set dice aside and throw on (when allowed)."""
        take = self.best_take(add(aside, thrown))
        if throws_left <= 0 or sum(thrown) < 2:
            return take if take is not None else self.forced()
        best = take if take is not None else -math.inf
        for keep in keeps(thrown):
            best = max(best, self.throw(add(aside, keep), throws_left - 1))
        return best

    def throw(self, aside: Counts, throws_left: int) -> float:
        """Expected value of throwing every die not in `aside`, then playing on well."""
        key = (aside, throws_left)
        if key not in self._throws:
            dice = DICE - sum(aside)
            self._throws[key] = sum(
                chance * self.settle(aside, thrown, throws_left) for thrown, chance in outcomes(dice)
            )
        return self._throws[key]

    def score(self, action: Action) -> float:
        """What a legal action of the current throw is worth."""
        state = self.state
        if isinstance(action, Roll):
            kept = counts_of([state.thrown[i] for i in action.keep])
            return self.throw(add(counts_of(state.set_aside), kept), THROWS - state.throws - 1)
        if isinstance(action, Take):
            result = counts_of(state.set_aside + state.thrown)
            return self.worth(("take", action.pile, result[FACE_ORDER.index(action.pile)]))
        if isinstance(action, Steal):
            colour = GAME.steal_colour(state)
            assert colour is not None
            return self.worth(("steal", CHOPSTICKS[colour], action.target, action.position))
        return self.forced()

    def best(self, legal: list[Action]) -> Action:
        # One Roll per distinct set of faces kept: the others are the same move.
        seen: set[Counts] = set()
        options: list[Action] = []
        for action in legal:
            if isinstance(action, Roll) and action.keep:
                kept = counts_of([self.state.thrown[i] for i in action.keep])
                if kept in seen:
                    continue
                seen.add(kept)
            options.append(action)
        return max(options, key=self.score)


def heuristic_worth(state: SushizockState) -> Callable[[TakeKey], float]:
    values = TileValues(state)
    seat = state.turn

    def worth(key: TakeKey) -> float:
        if key[0] == "take":
            _, pile, nth = key
            row = state.sushi_row if pile == SUSHI else state.bone_row
            return values.gain(seat, pile, row[nth - 1])
        if key[0] == "steal":
            _, pile, target, position = key
            return values.steal(seat, pile, target, position)
        pile, index = GAME.forced_tile(state)
        row = state.sushi_row if pile == SUSHI else state.bone_row
        return values.gain(seat, pile, row[index])

    return worth


def apply_take(state: SushizockState, key: TakeKey) -> None:
    """Play a take on a world directly (the dice that allow it are beside the point there)."""
    seat = state.turn
    if key[0] == "forced":
        pile, index = GAME.forced_tile(state)
        tile = (state.sushi_row if pile == SUSHI else state.bone_row).pop(index)
    elif key[0] == "take":
        _, pile, nth = key
        tile = (state.sushi_row if pile == SUSHI else state.bone_row).pop(nth - 1)
    else:
        _, pile, target, position = key
        piles = state.sushi_piles if pile == SUSHI else state.bone_piles
        tile = piles[target].pop(len(piles[target]) - position)
    (state.sushi_piles if pile == SUSHI else state.bone_piles)[seat].append(tile)
    GAME.end_turn(state)  # the engine's own end of turn: next seat, or the game's end


class SushizockBrain(TurnBrain[SushizockState, Action]):
    worlds = 8
    """Hard's budget: the worlds a steal (which turns a hidden tile up) is judged over."""

    def __init__(self) -> None:
        self._searched: dict[tuple[object, int], dict[TakeKey, float]] = {}
        """Per table seen at a turn's start (and budget): the worth found for each take."""

    def budget(self, state: SushizockState) -> int:
        return self.worlds

    def realize(self, state: SushizockState, seat: int, action: Action, rng: random.Random) -> Action:
        return action

    def easy(self, state: SushizockState, seat: int, rng: random.Random) -> Action:
        if rng.random() < 0.25:
            return rng.choice(GAME.legal_actions(state, seat))
        return GAME.default_action(state, seat)

    def normal(self, state: SushizockState, seat: int, rng: random.Random) -> Action:
        return Turn(state, heuristic_worth(state)).best(GAME.legal_actions(state, seat))

    def hard(
        self,
        game: Game[SushizockState, Action],
        state: SushizockState,
        seat: int,
        rng: random.Random,
        budget: int,
    ) -> Action:
        """The turn's dice by exact expectation, each take worth what normal sees in it less what the
        opponent may then expect from their whole turn (played by normal's dice, exactly): an
        expectimax two turns deep, at two players (with more, hard plays as normal). Steals, which
        turn a hidden tile up, are judged over sampled worlds.

        What a take is worth does not depend on the dice, so it is searched once per turn: the worlds
        are seeded by what the table shows at the turn's start (not by `rng`), so every decision of the
        turn sees the same worths. `budget` bounds the worlds a steal is judged over.
        """
        legal = GAME.legal_actions(state, seat)
        turn = Turn(state, heuristic_worth(state))
        reachable = self._reachable(turn)
        if len(reachable) <= 1 or state.players > 2:
            # With more players the next player's gain is not simply this seat's loss, and weighing
            # it lost games in the arena (3 hard + 2 normal at 5 players: 0.15 a seat against 0.28).
            return turn.best(legal)
        table = _table(state)
        samples = max(1, budget)
        known = self._searched.get((table, samples))
        if known is None:
            if len(self._searched) > 64:
                self._searched.clear()
            known = self._searched[(table, samples)] = {}
        missing = [key for key in reachable if key not in known]
        if missing:
            seeded = random.Random(f"sushizock:{table}")
            worlds = [determinize(state, seat, seeded) for _ in range(samples)]
            for key in missing:
                if key[0] == "steal" and key[3] > 1:
                    continue  # a blind guess below the top: judged by normal's model alone, below
                judged = worlds if key[0] == "steal" else worlds[:1]
                reply = 0.0
                for world in judged:
                    trial = copy_state(world)
                    apply_take(trial, key)
                    if not trial.over:
                        reply += Turn(trial, heuristic_worth(trial)).throw((0, 0, 0, 0), THROWS - 1)
                known[key] = turn.worth(key) - reply / len(judged)
            replies = [known[key] - turn.worth(key) for key in known if key[0] != "steal" or key[3] == 1]
            typical = sum(replies) / len(replies) if replies else 0.0
            for key in missing:
                if key not in known:
                    known[key] = turn.worth(key) + typical
        return Turn(state, lambda key: known[key]).best(legal)

    def _reachable(self, turn: Turn) -> list[TakeKey]:
        """Every take the rest of this turn can still end with (forced included where it may come)."""
        keys: set[TakeKey] = set()
        state = turn.state
        aside = counts_of(state.set_aside)
        free = DICE - sum(aside)
        results = (
            {add(aside, thrown) for thrown, _ in outcomes(free)} if GAME.can_roll(state) else set[Counts]()
        )
        results.add(counts_of(state.set_aside + state.thrown))
        for result in results:
            keys.update(turn.takes(result))
        keys.add(("forced",))
        return sorted(keys, key=repr)

    def forget(self) -> None:
        self._searched.clear()


def _table(state: SushizockState) -> tuple[object, ...]:
    """What everybody sees between turns: whose turn, the rows, every pile's height and top."""
    return (
        state.players,
        state.turn,
        tuple(state.sushi_row),
        tuple(state.bone_row),
        tuple((len(pile), pile[-1] if pile else None) for pile in state.sushi_piles),
        tuple((len(pile), pile[-1] if pile else None) for pile in state.bone_piles),
    )


BRAIN = SushizockBrain()
