"""The /roll notation's grammar and its parser: text to a request, or a RollError saying where.

The grammar's game-dice words are the registered games' (rules/dice_notation/games.py). Dice Maiden's
modifiers after a space are written onto their die first (hints.glue), so that notation is never
taken for a label. Other bots' spellings that would read as something else here are refused with
Sushi Bar's (hints.py); a hint's suggestion is shown only when it parses itself (`_verified`).
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import cache
from re import escape
from typing import Protocol, cast

from lark import Lark, Token, Tree
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

from rules.dice_notation import hints
from rules.dice_notation.build import build
from rules.dice_notation.games import game_words
from rules.dice_notation.throws import check_budget
from rules.dice_notation.tree import (
    MAX_LENGTH,
    MAX_ROLLS,
    DiceRequest,
    ErrorCode,
    Request,
    RollError,
    Several,
    Single,
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
    | product FLOORDIV unary -> binary
    | product PERCENT unary -> binary
?unary: atom
    | MINUS unary -> negate
    | PLUS unary -> positive
?atom: INT -> number
    | dice
    | LPAR sum RPAR -> group
    | LPAR items RPAR keep* -> pool
    | ADVANTAGE -> advantage
items: sum COMMA (sum (COMMA sum)* COMMA?)?
keep: KEEP INT?
dice: INT? DIE (INT | PERCENT | FATE) modifier*
modifier: KEEP INT? | EXPLODE INT? | ONCE INT? | REROLL INT? | CLAMP INT | SUCCESS INT | FAILURE INT
    | DIE INT

GAME.3: /(@GAMES@)\b/i
ADVANTAGE.3: /(adv|dis)\b/i
DIE: "d"i
PERCENT: "%"
FATE: "F"i
KEEP: /(kh|kl|dh|dl|k|ph|pl|p)(<=|>=|<|>|=)?/i
EXPLODE: /!!?(>=|>)?/
ONCE: /i?e(<=|>=|<|>|=)?/i
REROLL: /(ir|ro|rr|ra|r)(<=|>=|<|>|=)?/i
CLAMP: /mi|ma/i
SUCCESS: />=|<=|>|<|t/i
FAILURE: "f"i
HASH: "#"
PLUS: "+"
MINUS: "-"
TIMES: "*"
FLOORDIV: "//"
DIVIDE: "/"
LPAR: "("
RPAR: ")"
COMMA: ","
%import common.INT
%import common.WS
%ignore WS
"""

NO_GAMES = "(?!x)x"
"""A pattern nothing matches: the GAME terminal when no game lends its dice."""

_REPEAT = re.compile(r"(\d+)(\s+)(?=\d|d(?:\d|%|f)|\(|(?:adv|dis)\b)", re.IGNORECASE)
"""Dice Maiden's `6 4d6`: a bare count, a space, then an expression — six sets, as `6#4d6`."""
_SIGNED_DIE = re.compile(r"([+-])\s*d(\d+|%)(?!\d)", re.IGNORECASE)
_QUOTES = '"“”„«»'
_TIMES = re.compile(r"(?<=[\w)])\s*[x×]\s*(?=[\d(])", re.IGNORECASE)


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


# ---------------------------------------------------------------- a request: rolls separated by `;`


def parse(text: str) -> Request:
    """The request in `text`, or a RollError pointing at where it went wrong."""
    text = text.strip()
    if not text:
        raise RollError("empty", 0, text)
    if len(text) > MAX_LENGTH:
        raise RollError("too_long", MAX_LENGTH, text, max=MAX_LENGTH)
    pieces = _split(text)
    parts: list[Single] = []
    for offset, piece in pieces:
        try:
            parts.append(parse_one(piece))
        except RollError as error:
            error.position += offset
            error.text = text
            raise
    offsets = [offset for offset, _ in pieces]
    try:
        check_budget(parts, offsets)
    except RollError as error:
        error.text = text
        raise
    if len(parts) == 1:
        return parts[0]
    return Several(text, tuple(parts), tuple(offsets))


def _split(text: str) -> list[tuple[int, str]]:
    """The rolls of `1d20+5; 2d6+3` with where each starts (a trailing `;` is forgiven)."""
    pieces: list[tuple[int, str]] = []
    start = 0
    for index, char in enumerate([*text, ";"]):
        if char != ";":
            continue
        piece = text[start:index]
        stripped = piece.strip()
        if stripped:
            pieces.append((start + len(piece) - len(piece.lstrip()), stripped))
        elif index < len(text):
            raise RollError("empty_roll", index, text)
        if len(pieces) > MAX_ROLLS:
            raise RollError("too_many_rolls", start - 1, text, max=MAX_ROLLS)
        start = index + 1
    return pieces


# ---------------------------------------------------------------- one roll


def parse_one(text: str, *, suggest: bool = True) -> Single:
    """One roll (no `;`); with `suggest`, a refused spelling from another bot carries ours."""
    try:
        request = _parse_one(text, suggest)
    except RollError as error:
        error.text = text
        raise
    except (LarkError, RecursionError, ValueError) as error:  # never anything but a RollError
        raise RollError("syntax", 0, text) from error
    return request


def _parse_one(text: str, suggest: bool) -> Single:
    if (glued := hints.glue(text)) is not None:  # `4d6 k3`: Dice Maiden's modifiers, read as ours
        try:
            return _parse_one(glued.text, suggest)
        except RollError as error:
            error.position = glued.original(error.position)
            raise
    if sign := _SIGNED_DIE.match(text):
        raise _hint("sign_die", 0, _signed_suggestion(text, sign) if suggest else None)
    if "{" in text:
        fixed = text.replace("{", "(").replace("}", ")")
        raise _hint("braces", text.index("{"), _verified(fixed) if suggest else None)
    inner, body = text, 0
    if repeat := _REPEAT.match(text):  # `6 4d6`: the same length as `6#4d6`, so positions hold
        gap = repeat[2]
        inner = text[: repeat.end(1)] + "#" + " " * (len(gap) - 1) + text[repeat.end() :]
        body = repeat.end()
    expression, label, quoted = _split_label(inner)
    try:
        tree, label_start = _parse_with_label(expression, quoted)
    except LarkError as error:
        raise _syntax_error(error, text, suggest) from None
    if (spaced := _space_in_dice(tree, expression)) is not None:
        tree, label_start = _label_after_space(expression, text, spaced, quoted, suggest)
    if label_start is not None:
        first, *after = expression[label_start:].split()
        if not first.startswith("#") and hints.looks_like_notation(first, after):
            raise _hint("spaced", label_start, _respelled(text, None) if suggest else None)
        label = expression[label_start:].lstrip("#").strip() or None
        expression = expression[:label_start].rstrip()
    verify = _rolls if suggest else None
    request = build(tree, text[: len(expression)], label, verify=verify)
    if isinstance(request, DiceRequest):
        request = replace(request, body=max(request.body, body))
    return request


_Span = tuple[int, int, int]
"""A dice term's start and end, and where the first space inside it is."""


def _space_in_dice(tree: Tree[Token], text: str) -> _Span | None:
    """The first dice term written with a space inside (`4d6 kh3`, `1d20 ! Attack`), if any."""
    for dice in tree.find_data("dice"):
        start, end = dice.meta.start_pos, dice.meta.end_pos
        gap = next((index for index in range(start, end) if text[index].isspace()), None)
        if gap is not None:
            return start, end, gap
    return None


def _label_after_space(
    expression: str, text: str, spaced: _Span, quoted: bool, suggest: bool
) -> tuple[Tree[Token], int]:
    """After a space, a die's modifiers are another bot's spelling (a word starts a label: `2d6 keep`);
    Dice Maiden's comment marker ` ! ` would explode the die here."""
    gap = spaced[2]
    at = gap + len(expression[gap:]) - len(expression[gap:].lstrip())
    rest = expression[at:]
    if rest.startswith("!") and rest[1:].strip():
        fixed = text[:gap] + rest[1:] if rest[1].isspace() else None
        raise _hint("comment_bang", at, _verified(fixed) if suggest else None)
    if not quoted and (rest[0].isalpha() or rest[0] == "#"):
        try:
            return _parser(game_words()).parse(expression[:gap]), at
        except LarkError:
            pass
    raise _hint("spaced", at, _respelled(text, spaced) if suggest else None)


def _respelled(text: str, spaced: _Span | None) -> str | None:
    """Ours for Dice Maiden's spaced modifiers, else the dice term without its spaces."""
    if (fixed := _verified(hints.respell(text))) is not None or spaced is None:
        return fixed
    start, end, _ = spaced
    return _verified(text[:start] + "".join(text[start:end].split()) + text[end:])


def _split_label(text: str) -> tuple[str, str | None, bool]:
    """A label in quotes is a label whatever it says: `2d6 "d1 fire"`."""
    starts = [index for index, char in enumerate(text) if char in _QUOTES]
    if not starts:
        return text, None, False
    label = text[starts[0] :].strip().strip(_QUOTES).strip()
    return text[: starts[0]].rstrip(), label or None, True


def _parse_with_label(text: str, quoted: bool) -> tuple[Tree[Token], int | None]:
    """The tree of the whole text, or of its longest start that parses and leaves a label.

    A label follows the expression after a space and starts with a letter or `#`, so that
    `2d6 fire damage` and `d20 # to hit` roll, while `2d6 + x` is still a mistake.
    """
    parser = _parser(game_words())
    try:
        return parser.parse(text), None
    except LarkError as error:
        if quoted:
            raise
        position = _error_position(error, text)
        first = error
    starts = [
        index
        for index in range(1, min(position, len(text) - 1) + 1)
        if text[index - 1].isspace() and (text[index].isalpha() or text[index] == "#")
    ]
    for index in reversed(starts[-8:]):  # a handful of tries: a label has few words before the error
        try:
            return parser.parse(text[:index]), index
        except LarkError:
            continue
    raise first


def _signed_suggestion(text: str, sign: re.Match[str]) -> str | None:
    """`+d20+5 to hit` -> `d20+5 adv to hit`; `-d6` -> `2d6kl1`."""
    sides, rest = sign[2], text[sign.end() :]
    if sides != "20":
        return _verified(hints.signed_die(sign[1], sides, rest))
    try:
        plain = parse_one(f"d20{rest}", suggest=False)
    except RollError:
        return None
    if not isinstance(plain, DiceRequest):
        return None
    word = "adv" if sign[1] == "+" else "dis"
    return _verified(f"{plain.text} {word}" + (f" {plain.label}" if plain.label else ""))


def _rolls(suggestion: str) -> bool:
    return _verified(suggestion) is not None


def _verified(suggestion: str | None) -> str | None:
    """A suggestion only if it is notation that rolls as it stands."""
    if suggestion is None or len(suggestion) > MAX_LENGTH:
        return None
    try:
        parse_one(suggestion, suggest=False)
    except RollError:
        return None
    return suggestion


def _hint(code: ErrorCode, position: int, suggestion: str | None) -> RollError:
    error = RollError(code, position)
    if suggestion is not None:
        error.params["suggestion"] = suggestion
    return error


def _error_position(error: LarkError, text: str) -> int:
    if isinstance(error, UnexpectedCharacters):
        return cast(_Located, error).pos_in_stream
    if isinstance(error, UnexpectedToken) and cast(_AtToken, error).token.type != "$END":
        start = cast(_AtToken, error).token.start_pos
        return len(text) if start is None else start
    return len(text)


def _syntax_error(error: LarkError, text: str, suggest: bool) -> RollError:
    position = _error_position(error, text)
    if suggest and (fixed := _verified(_TIMES.sub("*", text))) and fixed != text:
        return _hint("times_x", _TIMES.search(text).start(), fixed)  # type: ignore[union-attr]
    if suggest and position < len(text) and text[position] == "!" and text[position - 1].isspace():
        return _hint("comment_bang", position, _verified(text[: position - 1] + text[position + 1 :]))
    if suggest and (fixed := _verified(hints.respell(text))) and fixed != text:
        return _hint("spaced", position, fixed)
    if isinstance(error, UnexpectedEOF) or position >= len(text):
        return RollError("unexpected_end", len(text), text)
    return RollError("syntax", position, text)
