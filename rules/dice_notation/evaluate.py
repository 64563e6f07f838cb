"""The /roll notation rolled: a request's dice thrown with an injected `Draw`, its bounds, and what
a fair die's faces are expected to average (for /rolls stats).

Arithmetic is exact (fractions) and a total is rounded once, at the end, toward zero, as d20 (Avrae)
does: `7/2` is 3, `-7/2` is −3, `(7/2)*2` is 7. `//` rounds down where it stands, `%` is the remainder
of that rounding down. Every die thrown counts against MAX_THROWS, and the roll stops the moment
it would go past it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from math import floor, trunc
from typing import Literal

from rules.dice_notation.games import game_dice
from rules.dice_notation.parse import parse
from rules.dice_notation.tree import (
    MAX_THROWS,
    Dice,
    DiceRequest,
    GameRequest,
    Keep,
    Negate,
    Node,
    Number,
    Pool,
    Request,
    RollError,
    Several,
    Single,
    terms,
)

Draw = Callable[[int], int]
"""A uniform integer in [0, n): `secrets.randbelow` in the bot, something fixed in tests."""


# ---------------------------------------------------------------- bounds


def bounds(node: Node) -> tuple[int, int]:
    """The least and greatest total the expression can have (not always reached: rerolls help)."""
    low, high = _bounds(node)
    return trunc(low), trunc(high)


def _bounds(node: Node) -> tuple[Fraction, Fraction]:
    if isinstance(node, Number):
        return Fraction(node.value), Fraction(node.value)
    if isinstance(node, Negate):
        low, high = _bounds(node.operand)
        return -high, -low
    if isinstance(node, Dice):
        low, high = _dice_bounds(node)
        return Fraction(low), Fraction(high)
    if isinstance(node, Pool):
        items = [_bounds(item) for item in node.items]
        lows = _kept_values(node.keep, [low for low, _ in items])
        highs = _kept_values(node.keep, [high for _, high in items])
        return sum(lows, Fraction(0)), sum(highs, Fraction(0))
    left, right = _bounds(node.left), _bounds(node.right)
    if node.op == "+":
        return left[0] + right[0], left[1] + right[1]
    if node.op == "-":
        return left[0] - right[1], left[1] - right[0]
    if node.op == "*":
        corners = [a * b for a in left for b in right]
        return min(corners), max(corners)
    if node.op == "%":  # a remainder lies between 0 and the divisor
        return min(Fraction(0), right[0]), max(Fraction(0), right[1])
    # Division is monotone in each argument on either side of zero: corners suffice.
    divisors = [b for b in (right[0], Fraction(-1), Fraction(1), right[1]) if right[0] <= b <= right[1] and b]
    if node.op == "//":
        corners = [Fraction(floor(a / b)) for a in left for b in divisors] or [Fraction(0)]
    else:
        corners = [a / b for a in left for b in divisors] or [Fraction(0)]
    return min(corners), max(corners)


def kept_count(dice: Dice, thrown: int) -> int:
    """How many of `thrown` dice the keep/drop rules keep."""
    for rule in dice.keep:
        thrown = rule.kept(thrown)
    return thrown


def _dice_bounds(dice: Dice) -> tuple[int, int]:
    most = dice.count
    if dice.explode is not None and dice.explosion != "compound":
        most = dice.count * 2 if dice.explosion == "once" else MAX_THROWS
    fewest_kept, most_kept = kept_count(dice, dice.count), kept_count(dice, most)
    if dice.success is not None:
        return (-most_kept if dice.failure else 0), most_kept
    low, high = dice.clamp(dice.low), dice.clamp(dice.high)
    if dice.explosion == "compound" and dice.explode is not None:
        high = dice.high * MAX_THROWS  # one die holding every throw of the budget
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
    compounded: tuple[int, ...] = ()  # `!!`: the faces added into this die, in order


@dataclass(frozen=True)
class TermRoll:
    dice: Dice
    rolled: tuple[Die, ...]
    total: int


@dataclass(frozen=True)
class PoolRoll:
    """A set's items: their values and which of them the keep rules kept."""

    pool: Pool
    values: tuple[Fraction, ...]
    kept: tuple[bool, ...]


@dataclass(frozen=True)
class SetRoll:
    terms: tuple[TermRoll, ...]
    total: int
    pools: tuple[PoolRoll, ...] = ()


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


@dataclass(frozen=True)
class SeveralRoll:
    """`1d20+5; 2d6+3`: each roll, in order."""

    request: Several
    rolls: tuple[DiceRoll | GameRoll, ...]
    tally: Tally

    @property
    def totals(self) -> list[int]:
        return [total for roll in self.rolls for total in roll.totals]


Roll = DiceRoll | GameRoll | SeveralRoll


@dataclass
class _Roller:
    draw: Draw
    tally: Tally = field(default_factory=Tally)
    thrown: int = 0

    def throw(self, size: int, sides: int, low: int, position: int) -> int:
        """A face from `low` up of a die with `size` faces, counted against the budget before it is
        thrown (`sides` is the die's size in the tally: 0 for Fate dice)."""
        self.thrown += 1
        if self.thrown > MAX_THROWS:
            raise RollError("throws_spent", position, max=MAX_THROWS)
        index = self.draw(size)
        if not 0 <= index < size:
            raise ValueError(f"the generator gave {index} for {size}")
        thrown, total = self.tally.get(sides, (0, 0))
        self.tally[sides] = (thrown + 1, total + index + low)
        return index + low

    def face(self, dice: Dice) -> int:
        return self.throw(3 if dice.fate else dice.sides, dice.sides, dice.low, dice.start)

    def die(self, dice: Dice) -> Die:
        natural = self.face(dice)
        rerolled: list[int] = []
        if dice.reroll is not None:
            while dice.reroll.test(natural) and not (dice.reroll_once and rerolled):
                rerolled.append(natural)
                natural = self.face(dice)
        value = dice.clamp(natural)
        extreme: Literal["max", "min"] | None = None
        if value == natural and not dice.fate:
            extreme = "max" if natural == dice.high else "min" if natural == dice.low else None
        return Die(value, natural, rerolled=tuple(rerolled), extreme=extreme)

    def term(self, dice: Dice) -> TermRoll:
        rolled: list[Die] = []
        explode = dice.explode
        for _ in range(dice.count):
            die = self.die(dice)
            if explode is None or not explode.test(die.natural):
                rolled.append(die)
            elif dice.explosion == "compound":  # every new die adds into this one
                faces = [die.natural]
                while explode.test(die.natural):
                    die = self.die(dice)
                    faces.append(die.natural)
                rolled.append(Die(sum(faces), faces[0], compounded=tuple(faces)))
            else:
                while explode.test(die.natural):
                    rolled.append(replace(die, exploded=True))
                    die = self.die(dice)
                    if dice.explosion == "once":
                        break
                rolled.append(die)
        kept = _keep(dice.keep, [die.value for die in rolled])
        rolled = [replace(die, kept=index in kept) for index, die in enumerate(rolled)]
        counted = [die.value for die in rolled if die.kept]
        if dice.success is not None:
            successes = sum(dice.success.test(value) for value in counted)
            failures = sum(dice.failure.test(value) for value in counted) if dice.failure else 0
            total = successes - failures
        else:
            total = sum(counted)
        return TermRoll(dice, tuple(rolled), total)

    def value(self, node: Node, found: list[TermRoll], pools: list[PoolRoll]) -> Fraction:
        if isinstance(node, Number):
            return Fraction(node.value)
        if isinstance(node, Dice):
            result = self.term(node)
            found.append(result)
            return Fraction(result.total)
        if isinstance(node, Negate):
            return -self.value(node.operand, found, pools)
        if isinstance(node, Pool):
            values = [self.value(item, found, pools) for item in node.items]
            kept = _keep(node.keep, values)
            pools.append(PoolRoll(node, tuple(values), tuple(index in kept for index in range(len(values)))))
            return sum((value for index, value in enumerate(values) if index in kept), Fraction(0))
        left = self.value(node.left, found, pools)
        right = self.value(node.right, found, pools)
        if node.op == "+":
            return left + right
        if node.op == "-":
            return left - right
        if node.op == "*":
            return left * right
        if right == 0:
            raise RollError("division_by_zero", node.position)
        if node.op == "//":
            return Fraction(floor(left / right))
        if node.op == "%":
            return left - right * floor(left / right)
        return left / right


def _keep(rules: tuple[Keep, ...], values: Sequence[int | Fraction]) -> set[int]:
    """Indexes of the values the keep/drop rules keep (ties: the earlier one counts as higher)."""
    kept = list(range(len(values)))
    for rule in rules:
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


def _kept_values(rules: tuple[Keep, ...], values: list[Fraction]) -> list[Fraction]:
    kept = _keep(rules, values)
    return [value for index, value in enumerate(values) if index in kept]


def evaluate(request: Request, draw: Draw) -> Roll:
    """Roll a parsed request with `draw`; only a RollError can come out."""
    roller = _Roller(draw)
    if isinstance(request, Several):
        rolls: list[DiceRoll | GameRoll] = []
        for part, offset in zip(request.parts, request.offsets, strict=True):
            try:
                rolls.append(_evaluate(part, roller))
            except RollError as error:
                error.position += offset
                error.text = request.text
                raise
        return SeveralRoll(request, tuple(rolls), roller.tally)
    try:
        return _evaluate(request, roller)
    except RollError as error:
        error.text = request.text
        raise


def _evaluate(request: Single, roller: _Roller) -> DiceRoll | GameRoll:
    if isinstance(request, GameRequest):
        return _roll_game(request, roller)
    tally = dict(roller.tally)
    sets: list[SetRoll] = []
    for _ in range(request.sets):
        found: list[TermRoll] = []
        pools: list[PoolRoll] = []
        total = trunc(roller.value(request.expression, found, pools))  # rounded once, toward zero
        sets.append(SetRoll(tuple(found), total, tuple(pools)))
    return DiceRoll(request, tuple(sets), _difference(roller.tally, tally))


def _difference(after: Tally, before: Tally) -> Tally:
    """What one roll of several added to the shared tally."""
    return {
        sides: (dice - before.get(sides, (0, 0))[0], total - before.get(sides, (0, 0))[1])
        for sides, (dice, total) in after.items()
        if dice != before.get(sides, (0, 0))[0]
    }


def roll(text: str, draw: Draw) -> Roll:
    return evaluate(parse(text), draw)


def _roll_game(request: GameRequest, roller: _Roller) -> GameRoll:
    faces: list[str] = []
    tally = dict(roller.tally)
    for die in game_dice(request):
        face = roller.throw(len(die), len(die), 1, 0)  # a six-faced die is a d6 to the roll log
        faces.append(die[face - 1])
    return GameRoll(request, tuple(faces), _difference(roller.tally, tally))


# ---------------------------------------------------------------- expectations, for /rolls stats


def expected_face(sides: int) -> tuple[float, float]:
    """Mean and standard deviation of one fair die's face (sides 0 = Fate: −1, 0, +1)."""
    if sides == 0:
        return 0.0, (2 / 3) ** 0.5
    return (sides + 1) / 2, ((sides * sides - 1) / 12) ** 0.5
