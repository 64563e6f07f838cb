"""The /roll notation rolled: a request's dice thrown with an injected `Draw`, its bounds, and what
a fair die's faces are expected to average (for /rolls stats)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from rules.dice_notation.games import game_dice
from rules.dice_notation.parse import parse
from rules.dice_notation.tree import (
    CHAIN_CAP,
    Dice,
    DiceRequest,
    GameRequest,
    Negate,
    Node,
    Number,
    Request,
    RollError,
    terms,
)

Draw = Callable[[int], int]
"""A uniform integer in [0, n): `secrets.randbelow` in the bot, something fixed in tests."""


# ---------------------------------------------------------------- bounds


def bounds(node: Node) -> tuple[int, int]:
    """The least and greatest total the expression can have (not always reached: rerolls help)."""
    if isinstance(node, Number):
        return node.value, node.value
    if isinstance(node, Negate):
        low, high = bounds(node.operand)
        return -high, -low
    if isinstance(node, Dice):
        return _dice_bounds(node)
    left, right = bounds(node.left), bounds(node.right)
    if node.op == "+":
        return left[0] + right[0], left[1] + right[1]
    if node.op == "-":
        return left[0] - right[1], left[1] - right[0]
    if node.op == "*":
        corners = [a * b for a in left for b in right]
        return min(corners), max(corners)
    # Floor division is monotone in each argument on either side of zero: corners suffice.
    divisors = [b for b in (right[0], -1, 1, right[1]) if right[0] <= b <= right[1] and b != 0]
    corners = [a // b for a in left for b in divisors] or [0]
    return min(corners), max(corners)


def kept_count(dice: Dice, thrown: int) -> int:
    """How many of `thrown` dice the keep/drop rules keep."""
    for rule in dice.keep:
        thrown = rule.kept(thrown)
    return thrown


def _dice_bounds(dice: Dice) -> tuple[int, int]:
    most = dice.count * (1 + CHAIN_CAP) if dice.explode else dice.count
    fewest_kept, most_kept = kept_count(dice, dice.count), kept_count(dice, most)
    if dice.success is not None:
        return (-most_kept if dice.failure else 0), most_kept
    low, high = dice.clamp(dice.low), dice.clamp(dice.high)
    return min(fewest_kept * low, most_kept * low), max(fewest_kept * high, most_kept * high)


# ---------------------------------------------------------------- rolling


@dataclass(frozen=True)
class Die:
    """One die as shown: its value, whether it counts, and how it came about."""

    value: int
    natural: int
    kept: bool = True
    exploded: bool = False  # this die set off another one
    rerolled: tuple[int, ...] = ()  # faces rolled before this one and rerolled away
    extreme: Literal["max", "min"] | None = None  # a natural highest or lowest face, unchanged


@dataclass(frozen=True)
class TermRoll:
    dice: Dice
    rolled: tuple[Die, ...]
    total: int
    capped: bool = False  # an explosion or reroll chain reached CHAIN_CAP


@dataclass(frozen=True)
class SetRoll:
    terms: tuple[TermRoll, ...]
    total: int


Tally = dict[int, tuple[int, int]]
"""Every face the generator produced, by die size (0 = Fate): (dice, sum of faces); for the roll log."""


@dataclass(frozen=True)
class DiceRoll:
    request: DiceRequest
    sets: tuple[SetRoll, ...]
    tally: Tally

    @property
    def totals(self) -> list[int]:
        return [result.total for result in self.sets]

    @property
    def counts_successes(self) -> bool:
        return any(dice.counts_successes for dice in terms(self.request.expression))


@dataclass(frozen=True)
class GameRoll:
    request: GameRequest
    faces: tuple[str, ...]  # the face names of the game's engine
    tally: Tally

    @property
    def totals(self) -> list[int]:
        return []


Roll = DiceRoll | GameRoll


@dataclass
class _Roller:
    draw: Draw
    tally: Tally = field(default_factory=Tally)

    def face(self, dice: Dice) -> int:
        size = 3 if dice.fate else dice.sides
        face = self.draw(size) + dice.low
        if not dice.low <= face <= dice.high:
            raise ValueError(f"the generator gave {face - dice.low} for {size}")
        thrown, total = self.tally.get(dice.sides, (0, 0))
        self.tally[dice.sides] = (thrown + 1, total + face)
        return face

    def die(self, dice: Dice) -> tuple[Die, bool]:
        natural = self.face(dice)
        rerolled: list[int] = []
        capped = False
        if dice.reroll is not None:
            limit = 1 if dice.reroll_once else CHAIN_CAP
            while dice.reroll.test(natural) and len(rerolled) < limit:
                rerolled.append(natural)
                natural = self.face(dice)
            capped = not dice.reroll_once and dice.reroll.test(natural)
        value = dice.clamp(natural)
        extreme: Literal["max", "min"] | None = None
        if value == natural and not dice.fate:
            extreme = "max" if natural == dice.high else "min" if natural == dice.low else None
        return Die(value, natural, rerolled=tuple(rerolled), extreme=extreme), capped

    def term(self, dice: Dice) -> TermRoll:
        rolled: list[Die] = []
        capped = False
        for _ in range(dice.count):
            die, chain_capped = self.die(dice)
            capped |= chain_capped
            chain = 0
            while dice.explode is not None and dice.explode.test(die.natural) and chain < CHAIN_CAP:
                rolled.append(replace(die, exploded=True))
                die, chain_capped = self.die(dice)
                capped |= chain_capped
                chain += 1
            capped |= dice.explode is not None and dice.explode.test(die.natural)
            rolled.append(die)
        kept = _keep(dice, [die.value for die in rolled])
        rolled = [replace(die, kept=index in kept) for index, die in enumerate(rolled)]
        counted = [die.value for die in rolled if die.kept]
        if dice.success is not None:
            successes = sum(dice.success.test(value) for value in counted)
            failures = sum(dice.failure.test(value) for value in counted) if dice.failure else 0
            total = successes - failures
        else:
            total = sum(counted)
        return TermRoll(dice, tuple(rolled), total, capped)

    def value(self, node: Node, found: list[TermRoll]) -> int:
        if isinstance(node, Number):
            return node.value
        if isinstance(node, Dice):
            result = self.term(node)
            found.append(result)
            return result.total
        if isinstance(node, Negate):
            return -self.value(node.operand, found)
        left = self.value(node.left, found)
        right = self.value(node.right, found)
        if node.op == "+":
            return left + right
        if node.op == "-":
            return left - right
        if node.op == "*":
            return left * right
        if right == 0:
            raise RollError("division_by_zero", node.position)
        return left // right


def _keep(dice: Dice, values: Sequence[int]) -> set[int]:
    """Indexes of the dice the keep/drop rules keep (ties: the earlier die counts as higher)."""
    kept = list(range(len(values)))
    for rule in dice.keep:
        ranked = sorted(kept, key=lambda index: (-values[index], index))  # highest first
        if rule.kind == "kh":
            kept = ranked[: rule.count]
        elif rule.kind == "kl":
            kept = ranked[::-1][: rule.count]
        elif rule.kind == "dh":
            kept = ranked[rule.count :]
        else:
            kept = ranked[::-1][rule.count :]
    return set(kept)


def evaluate(request: Request, draw: Draw) -> Roll:
    """Roll a parsed request with `draw`; only a RollError can come out."""
    try:
        if isinstance(request, GameRequest):
            return _roll_game(request, draw)
        roller = _Roller(draw)
        sets: list[SetRoll] = []
        for _ in range(request.sets):
            found: list[TermRoll] = []
            total = roller.value(request.expression, found)
            sets.append(SetRoll(tuple(found), total))
        return DiceRoll(request, tuple(sets), roller.tally)
    except RollError as error:
        error.text = request.text
        raise


def roll(text: str, draw: Draw) -> Roll:
    return evaluate(parse(text), draw)


def _roll_game(request: GameRequest, draw: Draw) -> GameRoll:
    faces: list[str] = []
    tally: Tally = {}
    for die in game_dice(request):
        index = draw(len(die))
        faces.append(die[index])
        thrown, total = tally.get(len(die), (0, 0))
        tally[len(die)] = (thrown + 1, total + index + 1)  # a six-faced die is a d6 to the roll log
    return GameRoll(request, tuple(faces), tally)


# ---------------------------------------------------------------- expectations, for /rolls stats


def expected_face(sides: int) -> tuple[float, float]:
    """Mean and standard deviation of one fair die's face (sides 0 = Fate: −1, 0, +1)."""
    if sides == 0:
        return 0.0, (2 / 3) ** 0.5
    return (sides + 1) / 2, ((sides * sides - 1) / 12) ** 0.5
