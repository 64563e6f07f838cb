"""The /roll notation's limits, its one error and the tree a request parses to."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal, get_args

MAX_LENGTH = 200
MAX_DICE_PER_TERM = 100
MAX_DICE = 1000
MIN_SIDES, MAX_SIDES = 2, 1000
MAX_SETS = 20
MAX_NUMBER = 1_000_000
MAX_ROLLS = 4
"""Rolls in one request, separated by `;`."""
MAX_THROWS = 5000
"""Every die one request throws, explosions, rerolls, repeats and every roll after `;` included.
An expression expected to need more is refused before rolling; an unlucky one stops at this count."""

ErrorCode = Literal[
    "empty",
    "too_long",
    "syntax",
    "unexpected_end",
    "number_too_big",
    "no_dice",
    "too_many_dice_in_term",
    "too_many_dice",
    "sides",
    "sets",
    "modifier_twice",
    "comparison_needs_number",
    "explode_every_face",
    "reroll_every_face",
    "fate_explode",
    "min_above_max",
    "failures_need_target",
    "division_by_zero",
    "advantage_needs_d20",
    "game_dice_count",
    "whole_set",
    "too_many_rolls",
    "empty_roll",
    "throw_budget",
    "throws_spent",
    # another bot's spelling, refused with ours in `suggestion` (rules/dice_notation/hints.py)
    "spaced",
    "comment_bang",
    "sign_die",
    "reroll_r",
    "drop_p",
    "explode_compare",
    "keep_compare",
    "reroll_add",
    "braces",
    "times_x",
]
ERROR_CODES: tuple[str, ...] = get_args(ErrorCode)


class RollError(Exception):
    """An expression that cannot be rolled: `code` says why, `position` where (an index into `text`)."""

    def __init__(self, code: ErrorCode, position: int, text: str = "", **params: int | str) -> None:
        super().__init__(f"{code} at {position}")
        self.code: ErrorCode = code
        self.position = position
        self.text = text
        self.params = params


Comparison = Literal["=", "<", "<=", ">", ">="]


@dataclass(frozen=True)
class Condition:
    """Which faces a rule applies to: `>= 5`, `= 1`."""

    op: Comparison
    value: int

    def test(self, face: int) -> bool:
        match self.op:
            case "=":
                return face == self.value
            case "<":
                return face < self.value
            case "<=":
                return face <= self.value
            case ">":
                return face > self.value
            case ">=":
                return face >= self.value


KeepKind = Literal["kh", "kl", "dh", "dl"]


@dataclass(frozen=True)
class Keep:
    kind: KeepKind
    count: int

    def kept(self, dice: int) -> int:
        """How many of `dice` dice this rule leaves kept."""
        return min(self.count, dice) if self.kind in ("kh", "kl") else max(dice - self.count, 0)


Explosion = Literal["again", "once", "compound"]
"""`!` explodes each new die again, `e` once (Dice Maiden), `!!` adds the new dice into the one that
exploded (compounding)."""


@dataclass(frozen=True)
class Dice:
    """One dice term, like `4d6kh3` or `10d10t8f1`; `start`/`end` are its place in the text."""

    count: int
    sides: int  # 0 for Fate dice
    start: int
    end: int
    keep: tuple[Keep, ...] = ()
    explode: Condition | None = None
    explosion: Explosion = "again"
    reroll: Condition | None = None
    reroll_once: bool = False
    minimum: int | None = None
    maximum: int | None = None
    success: Condition | None = None
    failure: Condition | None = None

    @property
    def fate(self) -> bool:
        return self.sides == 0

    @property
    def low(self) -> int:
        return -1 if self.fate else 1

    @property
    def high(self) -> int:
        return 1 if self.fate else self.sides

    @property
    def faces(self) -> range:
        return range(self.low, self.high + 1)

    def clamp(self, face: int) -> int:
        if self.minimum is not None:
            face = max(face, self.minimum)
        if self.maximum is not None:
            face = min(face, self.maximum)
        return face

    @property
    def counts_successes(self) -> bool:
        return self.success is not None


@dataclass(frozen=True)
class Number:
    value: int
    start: int
    end: int


Operator = Literal["+", "-", "*", "/", "//", "%"]


@dataclass(frozen=True)
class Binary:
    op: Operator
    left: Node
    right: Node
    position: int  # of the operator


@dataclass(frozen=True)
class Negate:
    operand: Node


@dataclass(frozen=True)
class Pool:
    """A set of expressions, d20's `(1d20+5, 1d20+5)kh1`: the kept ones add up."""

    items: tuple[Node, ...]
    spans: tuple[tuple[int, int], ...]  # each item's place in the text
    keep: tuple[Keep, ...]
    start: int
    end: int


Node = Number | Dice | Binary | Negate | Pool


@dataclass(frozen=True)
class DiceRequest:
    """A parsed dice expression: `text` is the expression as typed (without its label)."""

    text: str
    expression: Node
    sets: int = 1
    label: str | None = None
    body: int = 0  # where the expression starts in `text`, after `6#` or `6 `


@dataclass(frozen=True)
class GameRequest:
    """A dice game's own dice, by the word they are lent under (rules/<game>/dice.py): `bock 7`."""

    text: str
    game: str
    """The dice's word: "sushizock", "bock"."""
    count: int
    label: str | None = None


Single = DiceRequest | GameRequest


@dataclass(frozen=True)
class Several:
    """Rolls separated by `;` (`1d20+5 to hit; 2d6+3 damage`), thrown together under one budget."""

    text: str
    parts: tuple[Single, ...]
    offsets: tuple[int, ...]  # where each part starts in `text`
    label: None = None


Request = DiceRequest | GameRequest | Several


def terms(node: Node) -> Iterator[Dice]:
    """The dice terms of an expression, left to right."""
    if isinstance(node, Dice):
        yield node
    elif isinstance(node, Binary):
        yield from terms(node.left)
        yield from terms(node.right)
    elif isinstance(node, Negate):
        yield from terms(node.operand)
    elif isinstance(node, Pool):
        for item in node.items:
            yield from terms(item)


def pools(node: Node) -> Iterator[Pool]:
    """The sets of an expression, outermost first."""
    if isinstance(node, Pool):
        yield node
        for item in node.items:
            yield from pools(item)
    elif isinstance(node, Binary):
        yield from pools(node.left)
        yield from pools(node.right)
    elif isinstance(node, Negate):
        yield from pools(node.operand)
