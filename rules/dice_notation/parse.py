"""The /roll notation's grammar and its parser: text to a request, or a RollError saying where.

The grammar's game-dice words are the registered games' (rules/dice_notation/games.py).
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from re import escape
from typing import Protocol, cast

from lark import Lark, Token, Tree
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

from rules.dice_notation.games import game_words, lent_dice
from rules.dice_notation.tree import (
    MAX_DICE,
    MAX_DICE_PER_TERM,
    MAX_LENGTH,
    MAX_NUMBER,
    MAX_SETS,
    MAX_SIDES,
    MIN_SIDES,
    Binary,
    Comparison,
    Condition,
    Dice,
    DiceRequest,
    GameRequest,
    Keep,
    KeepKind,
    Negate,
    Node,
    Number,
    Operator,
    Request,
    RollError,
    terms,
)

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

GAME.3: /(@GAMES@)\b/i
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

NO_GAMES = "(?!x)x"
"""A pattern nothing matches: the GAME terminal when no game lends its dice."""


class _Parser(Protocol):
    """What is used of a lark parser, typed (lark types its input only partly)."""

    def parse(self, text: str) -> Tree[Token]: ...


class _Located(Protocol):
    """lark's UnexpectedCharacters, whose position it leaves untyped."""

    pos_in_stream: int


class _AtToken(Protocol):
    """lark's UnexpectedToken, whose token it leaves untyped."""

    token: Token


@cache
def _parser(words: tuple[str, ...]) -> _Parser:
    """The parser for these game-dice words (built once per set of words)."""
    games = "|".join(escape(word) for word in words) or NO_GAMES
    return Lark(
        GRAMMAR.replace("@GAMES@", games), parser="lalr", lexer="contextual", propagate_positions=True
    )


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
    parser = _parser(game_words())
    try:
        return parser.parse(text), None
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
            return parser.parse(text[:index]), text[index:]
        except LarkError:
            continue
    raise _syntax_error(first, text)


def _error_position(error: LarkError, text: str) -> int:
    if isinstance(error, UnexpectedCharacters):
        return cast(_Located, error).pos_in_stream
    if isinstance(error, UnexpectedToken) and cast(_AtToken, error).token.type != "$END":
        start = cast(_AtToken, error).token.start_pos
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
    dice = lent_dice()[name_token.lower()]
    count = dice.count
    if len(root.children) > 1:
        count_token = root.children[1]
        assert isinstance(count_token, Token)
        count = _int(count_token)
        if dice.whole:  # a set of different dice is thrown whole
            raise RollError("whole_set", _start(count_token))
        if not 1 <= count <= MAX_DICE_PER_TERM:
            raise RollError("game_dice_count", _start(count_token), max=MAX_DICE_PER_TERM)
    return GameRequest(text=text, game=dice.word, count=count, label=label)


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
        return Binary(_BINARY[operator], _node(left), _node(right), _start(operator))
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


_BINARY: dict[str, Operator] = {"+": "+", "-": "-", "*": "*", "/": "/"}
_KEEPS: dict[str, KeepKind] = {"k": "kh", "kh": "kh", "kl": "kl", "dh": "dh", "dl": "dl"}
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
        rule = _KEEPS[word]
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


def _check_dice_total(expression: Node, sets: int) -> None:
    thrown = 0
    for dice in terms(expression):
        thrown += dice.count * sets
        if thrown > MAX_DICE:
            raise RollError("too_many_dice", dice.start, max=MAX_DICE)
