"""Dice notation for /roll: a lark grammar, its tree, bounds and an evaluator.

Pure: no discord, no I/O. Randomness is injected as `Draw` (a uniform integer in [0, n)), so tests
fix it and the bot passes `secrets.randbelow`. Everything that can go wrong with a player's
expression is a `RollError` with a code and the position in the text where it went wrong; no
other exception leaves `parse` or `evaluate`.

    NdM  dM  d%  dF      dice (d% = d100; dF = Fate dice, faces −1, 0, +1)
    + - * / ( )          arithmetic; / divides rounding down
    khN kN klN dhN dlN   keep / drop the highest or lowest N (N defaults to 1)
    !  !>N  !>=N         explode on the highest face, above N, at N or above
    roC  rrC             reroll once / until the die misses C (C = N, <N, <=N, >N, >=N)
    miN  maN             every die at least / at most N
    >=N tN (>N <N <=N)   count the dice meeting the target; fN subtracts the dice at N or below
    6#4d6kh3             repeated sets, at most 20
    adv  dis             2d20kh1 / 2d20kl1; as a trailing word, the expression's d20 gets it
    sushizock [n]  bock [n]  sushidice     the games' own dice
    anything after the expression (after a space, from a letter or #) is its label
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal, get_args

from lark import Lark, Token, Tree
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

from rules.rockthebock.game import COLOURS as BOCK_FACES
from rules.sushidice.game import DICE as SUSHIDICE_SET
from rules.sushizock.game import DICE as SUSHIZOCK_DICE
from rules.sushizock.game import FACES as SUSHIZOCK_FACES

Draw = Callable[[int], int]
"""A uniform integer in [0, n): `secrets.randbelow` in the bot, something fixed in tests."""

MAX_LENGTH = 200
MAX_DICE_PER_TERM = 100
MAX_DICE = 1000
MIN_SIDES, MAX_SIDES = 2, 1000
MAX_SETS = 20
MAX_NUMBER = 1_000_000
CHAIN_CAP = 20
"""At most this many extra dice per die from explosions, and rerolls per die for `rr`."""
BOCK_DICE = 10

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


# ---------------------------------------------------------------- the grammar

GRAMMAR = r"""
start: game_roll | dice_roll
game_roll: GAME INT?
dice_roll: (INT HASH)? sum ADVANTAGE?

?sum: product
    | sum PLUS product -> binary
    | sum MINUS product -> binary
?product: unary
    | product TIMES unary -> binary
    | product DIVIDE unary -> binary
?unary: atom
    | MINUS unary -> negate
    | PLUS unary -> positive
?atom: INT -> number
    | dice
    | LPAR sum RPAR -> group
    | ADVANTAGE -> advantage
dice: INT? DIE (INT | PERCENT | FATE) modifier*
modifier: KEEP INT? | EXPLODE INT? | REROLL INT? | CLAMP INT | SUCCESS INT | FAILURE INT

GAME.3: /(sushizock|sushidice|bock)\b/i
ADVANTAGE.3: /(adv|dis)\b/i
DIE: "d"i
PERCENT: "%"
FATE: "F"i
KEEP: /kh|kl|dh|dl|k/i
EXPLODE: /!(>=|>)?/
REROLL: /r[or](<=|>=|<|>|=)?/i
CLAMP: /mi|ma/i
SUCCESS: />=|<=|>|<|t/i
FAILURE: "f"i
HASH: "#"
PLUS: "+"
MINUS: "-"
TIMES: "*"
DIVIDE: "/"
LPAR: "("
RPAR: ")"
%import common.INT
%import common.WS
%ignore WS
"""

_PARSER = Lark(GRAMMAR, parser="lalr", lexer="contextual", propagate_positions=True)


# ---------------------------------------------------------------- the tree

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


@dataclass(frozen=True)
class Dice:
    """One dice term, like `4d6kh3` or `10d10t8f1`; `start`/`end` are its place in the text."""

    count: int
    sides: int  # 0 for Fate dice
    start: int
    end: int
    keep: tuple[Keep, ...] = ()
    explode: Condition | None = None
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


@dataclass(frozen=True)
class Binary:
    op: Literal["+", "-", "*", "/"]
    left: Node
    right: Node
    position: int  # of the operator


@dataclass(frozen=True)
class Negate:
    operand: Node


Node = Number | Dice | Binary | Negate


@dataclass(frozen=True)
class DiceRequest:
    """A parsed dice expression: `text` is the expression as typed (without its label)."""

    text: str
    expression: Node
    sets: int = 1
    label: str | None = None
    body: int = 0  # where the expression starts in `text`, after `6#`


GameName = Literal["sushizock", "bock", "sushidice"]
GAME_NAMES: tuple[str, ...] = get_args(GameName)


@dataclass(frozen=True)
class GameRequest:
    """The dice of one of the five games, by name: `bock 7`."""

    text: str
    game: GameName
    count: int
    label: str | None = None


Request = DiceRequest | GameRequest


# ---------------------------------------------------------------- parsing


def parse(text: str) -> Request:
    """The request in `text`, or a RollError pointing at where it went wrong."""
    text = text.strip()
    if not text:
        raise RollError("empty", 0, text)
    if len(text) > MAX_LENGTH:
        raise RollError("too_long", MAX_LENGTH, text, max=MAX_LENGTH)
    try:
        tree, label = _parse_with_label(text)
        expression_text = text if label is None else text[: len(text) - len(label)].rstrip()
        label = label.lstrip("#").strip() if label else None
        return _build(tree, expression_text, label or None)
    except RollError as error:
        error.text = text
        raise
    except (LarkError, RecursionError, ValueError) as error:  # never anything but a RollError
        raise RollError("syntax", 0, text) from error


def _parse_with_label(text: str) -> tuple[Tree[Token], str | None]:
    """The tree of the whole text, or of its longest start that parses and leaves a label.

    A label follows the expression after a space and starts with a letter or `#`, so that
    `2d6 fire damage` and `d20 # to hit` roll, while `2d6 + x` is still a mistake.
    """
    try:
        return _PARSER.parse(text), None
    except LarkError as error:
        position = _error_position(error, text)
        first = error
    starts = [
        index
        for index in range(1, min(position, len(text) - 1) + 1)
        if text[index - 1].isspace() and (text[index].isalpha() or text[index] == "#")
    ]
    for index in reversed(starts[-8:]):  # a handful of tries: a label has few words before the error
        try:
            return _PARSER.parse(text[:index]), text[index:]
        except LarkError:
            continue
    raise _syntax_error(first, text)


def _error_position(error: LarkError, text: str) -> int:
    if isinstance(error, UnexpectedCharacters):
        return error.pos_in_stream
    if isinstance(error, UnexpectedToken) and error.token.type != "$END":
        start = error.token.start_pos
        return len(text) if start is None else start
    return len(text)


def _syntax_error(error: LarkError, text: str) -> RollError:
    position = _error_position(error, text)
    if isinstance(error, UnexpectedEOF) or position >= len(text):
        return RollError("unexpected_end", len(text), text)
    return RollError("syntax", position, text)


def _int(token: Token) -> int:
    value = int(token)
    if value > MAX_NUMBER:
        raise RollError("number_too_big", _start(token), max=MAX_NUMBER)
    return value


def _start(item: Token | Tree[Token]) -> int:
    if isinstance(item, Token):
        return item.start_pos or 0
    return item.meta.start_pos


def _end(item: Token | Tree[Token]) -> int:
    if isinstance(item, Token):
        return item.end_pos or 0
    return item.meta.end_pos


def _build(tree: Tree[Token], text: str, label: str | None) -> Request:
    (root,) = tree.children
    assert isinstance(root, Tree)
    if root.data == "game_roll":
        return _game_request(root, text, label)
    parts = list(root.children)
    sets = 1
    body_start = 0
    if len(parts) >= 3 and isinstance(parts[1], Token) and parts[1].type == "HASH":
        body_start = _end(parts[1])
        count_token = parts[0]
        assert isinstance(count_token, Token)
        sets = _int(count_token)
        if not 1 <= sets <= MAX_SETS:
            raise RollError("sets", _start(count_token), max=MAX_SETS)
        parts = parts[2:]
    body = parts[0]
    assert isinstance(body, Tree | Token)
    expression = _node(body)
    if len(parts) > 1:
        suffix = parts[1]
        assert isinstance(suffix, Token)
        expression = _with_advantage(expression, suffix)
    _check_dice_total(expression, sets)
    while body_start < len(text) and text[body_start].isspace():
        body_start += 1
    return DiceRequest(text=text, expression=expression, sets=sets, label=label, body=body_start)


def _game_request(root: Tree[Token], text: str, label: str | None) -> GameRequest:
    name_token = root.children[0]
    assert isinstance(name_token, Token)
    game: GameName = name_token.lower()  # type: ignore[assignment]
    default = {"sushizock": SUSHIZOCK_DICE, "bock": BOCK_DICE, "sushidice": len(SUSHIDICE_SET)}[game]
    count = default
    if len(root.children) > 1:
        count_token = root.children[1]
        assert isinstance(count_token, Token)
        count = _int(count_token)
        if game == "sushidice":  # a set is six different dice: it is thrown whole
            raise RollError("whole_set", _start(count_token))
        if not 1 <= count <= MAX_DICE_PER_TERM:
            raise RollError("game_dice_count", _start(count_token), max=MAX_DICE_PER_TERM)
    return GameRequest(text=text, game=game, count=count, label=label)


def _node(item: Tree[Token] | Token) -> Node:
    assert isinstance(item, Tree), item
    kind = item.data
    children = item.children
    if kind == "number":
        token = children[0]
        assert isinstance(token, Token)
        return Number(_int(token), _start(token), _end(token))
    if kind == "dice":
        return _dice(item)
    if kind == "binary":
        left, operator, right = children
        assert isinstance(operator, Token) and isinstance(left, Tree) and isinstance(right, Tree)
        return Binary(str(operator), _node(left), _node(right), _start(operator))  # type: ignore[arg-type]
    if kind == "negate":
        operand = children[1]
        assert isinstance(operand, Tree)
        return Negate(_node(operand))
    if kind == "positive":
        operand = children[1]
        assert isinstance(operand, Tree)
        return _node(operand)
    if kind == "group":
        inner = children[1]
        assert isinstance(inner, Tree)
        return _node(inner)
    if kind == "advantage":
        token = children[0]
        assert isinstance(token, Token)
        keep: KeepKind = "kh" if token.lower() == "adv" else "kl"
        return Dice(2, 20, _start(token), _end(token), keep=(Keep(keep, 1),))
    raise RollError("syntax", _start(item))


_OPS: dict[str, Comparison] = {"": "=", "=": "=", "<": "<", "<=": "<=", ">": ">", ">=": ">=", "t": ">="}


def _dice(item: Tree[Token]) -> Dice:
    children = list(item.children)
    count = 1
    if isinstance(children[0], Token) and children[0].type == "INT":
        count_token = children.pop(0)
        assert isinstance(count_token, Token)
        count = _int(count_token)
        if count < 1:
            raise RollError("no_dice", _start(count_token))
        if count > MAX_DICE_PER_TERM:
            raise RollError("too_many_dice_in_term", _start(count_token), max=MAX_DICE_PER_TERM)
    sides_token = children[1]
    assert isinstance(sides_token, Token)
    if sides_token.type == "PERCENT":
        sides = 100
    elif sides_token.type == "FATE":
        sides = 0
    else:
        sides = _int(sides_token)
        if not MIN_SIDES <= sides <= MAX_SIDES:
            raise RollError("sides", _start(sides_token), min=MIN_SIDES, max=MAX_SIDES)
    dice = Dice(count, sides, _start(item), _end(item))
    seen: dict[str, int] = {}  # modifier kind -> where it stands
    for modifier in children[2:]:
        assert isinstance(modifier, Tree)
        dice = _modify(dice, modifier, seen)
    if dice.minimum is not None and dice.maximum is not None and dice.minimum > dice.maximum:
        raise RollError("min_above_max", max(seen["mi"], seen["ma"]))
    if dice.failure is not None and dice.success is None:
        raise RollError("failures_need_target", seen["FAILURE"])
    return dice


def _modify(dice: Dice, modifier: Tree[Token], seen: dict[str, int]) -> Dice:
    head = modifier.children[0]
    assert isinstance(head, Token)
    position = _start(head)
    number_token = modifier.children[1] if len(modifier.children) > 1 else None
    number = _int(number_token) if isinstance(number_token, Token) else None
    word = head.lower()
    kind = "keep" if head.type == "KEEP" else word if head.type == "CLAMP" else head.type
    if kind != "keep":  # several keep/drop rules apply one after the other; anything else once
        if kind in seen:
            raise RollError("modifier_twice", position, modifier=str(head))
        seen[kind] = position
    if head.type == "KEEP":
        rule: KeepKind = "kh" if word == "k" else word  # type: ignore[assignment]
        return replace(dice, keep=(*dice.keep, Keep(rule, 1 if number is None else number)))
    if head.type == "EXPLODE":
        if dice.fate:
            raise RollError("fate_explode", position)
        operator = word[1:]
        if operator and number is None:
            raise RollError("comparison_needs_number", _end(head))
        condition = Condition(_OPS[operator], number) if number is not None else Condition("=", dice.high)
        if all(condition.test(face) for face in range(dice.low, dice.high + 1)):
            raise RollError("explode_every_face", position)
        return replace(dice, explode=condition)
    if head.type == "REROLL":
        if number is None:
            raise RollError("comparison_needs_number", _end(head))
        condition = Condition(_OPS[word[2:]], number)
        once = word.startswith("ro")
        if not once and all(condition.test(face) for face in range(dice.low, dice.high + 1)):
            raise RollError("reroll_every_face", position)
        return replace(dice, reroll=condition, reroll_once=once)
    assert number is not None
    if head.type == "CLAMP":
        return replace(dice, **{"minimum" if word == "mi" else "maximum": number})
    if head.type == "SUCCESS":
        return replace(dice, success=Condition(_OPS[word], number))
    return replace(dice, failure=Condition("<=", number))


def _with_advantage(expression: Node, suffix: Token) -> Node:
    """`d20+5 adv`: the expression's first lone d20 is rolled twice, keeping the better (worse)."""
    keep: KeepKind = "kh" if suffix.lower() == "adv" else "kl"
    target = next(
        (dice for dice in terms(expression) if dice.count == 1 and dice.sides == 20 and not dice.keep), None
    )
    if target is None:
        raise RollError("advantage_needs_d20", _start(suffix))
    return _swap(expression, target, replace(target, count=2, keep=(Keep(keep, 1),)))


def _swap(node: Node, old: Dice, new: Dice) -> Node:
    if node is old:
        return new
    if isinstance(node, Binary):
        return replace(node, left=_swap(node.left, old, new), right=_swap(node.right, old, new))
    if isinstance(node, Negate):
        return Negate(_swap(node.operand, old, new))
    return node


def terms(node: Node) -> Iterator[Dice]:
    """The dice terms of an expression, left to right."""
    if isinstance(node, Dice):
        yield node
    elif isinstance(node, Binary):
        yield from terms(node.left)
        yield from terms(node.right)
    elif isinstance(node, Negate):
        yield from terms(node.operand)


def _check_dice_total(expression: Node, sets: int) -> None:
    thrown = 0
    for dice in terms(expression):
        thrown += dice.count * sets
        if thrown > MAX_DICE:
            raise RollError("too_many_dice", dice.start, max=MAX_DICE)


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
    faces: tuple[str, ...]  # the face names of rules/<game>.py
    tally: Tally

    @property
    def totals(self) -> list[int]:
        return []


Roll = DiceRoll | GameRoll


@dataclass
class _Roller:
    draw: Draw
    tally: Tally = field(default_factory=dict)

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
        sets = []
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


# ---------------------------------------------------------------- the games' dice


def game_dice(request: GameRequest) -> list[tuple[str, ...]]:
    """The faces of each die the request throws, from the engines' own face lists."""
    if request.game == "sushizock":
        return [SUSHIZOCK_FACES] * request.count
    if request.game == "bock":
        return [BOCK_FACES] * request.count
    return list(SUSHIDICE_SET)


def _roll_game(request: GameRequest, draw: Draw) -> GameRoll:
    faces = []
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
