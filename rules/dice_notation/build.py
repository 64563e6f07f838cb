"""The parse tree of one roll turned into a request: limits checked, other bots' compact spellings
read where they are unambiguous (`4d6d1`, `r1`, `e6`, `ie`, `ir2`, `!!`) and refused with ours where not."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from lark import Token, Tree

from rules.dice_notation.games import lent_dice
from rules.dice_notation.throws import explodes_forever
from rules.dice_notation.tree import (
    MAX_DICE,
    MAX_DICE_PER_TERM,
    MAX_NUMBER,
    MAX_SETS,
    MAX_SIDES,
    MIN_SIDES,
    Binary,
    Comparison,
    Condition,
    Dice,
    DiceRequest,
    ErrorCode,
    GameRequest,
    Keep,
    KeepKind,
    Negate,
    Node,
    Number,
    Operator,
    Pool,
    RollError,
    Single,
    terms,
)

_BINARY: dict[str, Operator] = {"+": "+", "-": "-", "*": "*", "/": "/", "//": "//", "%": "%"}
_KEEPS: dict[str, KeepKind] = {"k": "kh", "kh": "kh", "kl": "kl", "dh": "dh", "dl": "dl"}
_OPS: dict[str, Comparison] = {"": "=", "=": "=", "<": "<", "<=": "<=", ">": ">", ">=": ">=", "t": ">="}
_COMPARISONS = ("<=", ">=", "<", ">", "=")


Verify = Callable[[str], bool]
"""Whether a suggestion parses as it stands (parse.py's; None: no suggestions)."""


def build(tree: Tree[Token], text: str, label: str | None, *, verify: Verify | None = None) -> Single:
    """`text` is the roll as typed without its label (positions in the tree point into it)."""
    return _Builder(text, verify).request(tree, label)


def _start(item: Token | Tree[Token]) -> int:
    if isinstance(item, Token):
        return item.start_pos or 0
    return item.meta.start_pos


def _end(item: Token | Tree[Token]) -> int:
    if isinstance(item, Token):
        return item.end_pos or 0
    return item.meta.end_pos


def _split_word(word: str) -> tuple[str, str]:
    """`rr<=` -> (`rr`, `<=`)."""
    for operator in _COMPARISONS:
        if word.endswith(operator) and len(word) > len(operator):
            return word[: -len(operator)], operator
    return word, ""


@dataclass
class _Builder:
    text: str
    verify: Verify | None

    def int(self, token: Token) -> int:
        value = int(token)
        if value > MAX_NUMBER:
            raise RollError("number_too_big", _start(token), max=MAX_NUMBER)
        return value

    def hint(self, code: ErrorCode, start: int, end: int, instead: str | None) -> RollError:
        """Refuse another bot's spelling at text[start:end]; `instead` is ours, if there is one."""
        error = RollError(code, start)
        if instead is not None and self.verify is not None:
            suggestion = self.text[:start] + instead + self.text[end:]
            if self.verify(suggestion):
                error.params["suggestion"] = suggestion
        return error

    # ------------------------------------------------------------ the request

    def request(self, tree: Tree[Token], label: str | None) -> Single:
        (root,) = tree.children
        assert isinstance(root, Tree)
        if root.data == "game_roll":
            return self.game(root, label)
        parts = list(root.children)
        sets = 1
        body_start = 0
        if len(parts) >= 3 and isinstance(parts[1], Token) and parts[1].type == "HASH":
            body_start = _end(parts[1])
            count_token = parts[0]
            assert isinstance(count_token, Token)
            sets = self.int(count_token)
            if not 1 <= sets <= MAX_SETS:
                raise RollError("sets", _start(count_token), max=MAX_SETS)
            parts = parts[2:]
        body = parts[0]
        assert isinstance(body, Tree)
        expression = self.node(body)
        if len(parts) > 1:
            suffix = parts[1]
            assert isinstance(suffix, Token)
            expression = _with_advantage(expression, suffix)
        _check_dice_total(expression, sets)
        while body_start < len(self.text) and self.text[body_start].isspace():
            body_start += 1
        return DiceRequest(text=self.text, expression=expression, sets=sets, label=label, body=body_start)

    def game(self, root: Tree[Token], label: str | None) -> GameRequest:
        name_token = root.children[0]
        assert isinstance(name_token, Token)
        dice = lent_dice()[name_token.lower()]
        count = dice.count
        if len(root.children) > 1:
            count_token = root.children[1]
            assert isinstance(count_token, Token)
            count = self.int(count_token)
            if dice.whole:  # a set of different dice is thrown whole
                raise RollError("whole_set", _start(count_token))
            if not 1 <= count <= MAX_DICE_PER_TERM:
                raise RollError("game_dice_count", _start(count_token), max=MAX_DICE_PER_TERM)
        return GameRequest(text=self.text, game=dice.word, count=count, label=label)

    # ------------------------------------------------------------ expressions

    def node(self, item: Tree[Token]) -> Node:
        kind, children = item.data, item.children
        if kind == "number":
            token = children[0]
            assert isinstance(token, Token)
            return Number(self.int(token), _start(token), _end(token))
        if kind == "dice":
            return self.dice(item)
        if kind == "binary":
            left, operator, right = children
            assert isinstance(operator, Token) and isinstance(left, Tree) and isinstance(right, Tree)
            return Binary(_BINARY[operator], self.node(left), self.node(right), _start(operator))
        if kind in ("negate", "positive", "group"):
            operand = children[1]
            assert isinstance(operand, Tree)
            inner = self.node(operand)
            return Negate(inner) if kind == "negate" else inner
        if kind == "pool":
            return self.pool(item)
        if kind == "advantage":
            token = children[0]
            assert isinstance(token, Token)
            keep: KeepKind = "kh" if token.lower() == "adv" else "kl"
            return Dice(2, 20, _start(token), _end(token), keep=(Keep(keep, 1),))
        raise RollError("syntax", _start(item))

    def pool(self, item: Tree[Token]) -> Pool:
        items_tree = item.children[1]
        assert isinstance(items_tree, Tree)
        parts = [child for child in items_tree.children if isinstance(child, Tree)]
        keep: list[Keep] = []
        for rule in item.children[3:]:
            assert isinstance(rule, Tree)
            head = rule.children[0]
            assert isinstance(head, Token)
            number = rule.children[1] if len(rule.children) > 1 else None
            keep.append(self.keep(head, number if isinstance(number, Token) else None))
        return Pool(
            tuple(self.node(part) for part in parts),
            tuple((_start(part), _end(part)) for part in parts),
            tuple(keep),
            _start(item),
            _end(item),
        )

    def keep(self, head: Token, number_token: Token | None) -> Keep:
        word, operator = _split_word(head.lower())
        end = _end(number_token) if number_token is not None else _end(head)
        if word.startswith("p"):  # d20's drop: `pl1`, `ph1`; a bare `p3` drops the 3s there
            ours = {"pl": "dl", "ph": "dh"}.get(word)
            number = self.text[_end(head) : end]
            raise self.hint("drop_p", _start(head), end, None if operator or not ours else ours + number)
        if operator:  # d20's `k>3` keeps the dice above 3; here dice are kept by rank
            instead = f"{word}1{operator}" if word != "k" else None
            raise self.hint("keep_compare", _start(head), _end(head), instead)
        number = 1 if number_token is None else self.int(number_token)
        return Keep(_KEEPS[word], number)

    # ------------------------------------------------------------ dice terms

    def dice(self, item: Tree[Token]) -> Dice:
        children = list(item.children)
        count = 1
        if isinstance(children[0], Token) and children[0].type == "INT":
            count_token = children.pop(0)
            assert isinstance(count_token, Token)
            count = self.int(count_token)
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
            sides = self.int(sides_token)
            if not MIN_SIDES <= sides <= MAX_SIDES:
                raise RollError("sides", _start(sides_token), min=MIN_SIDES, max=MAX_SIDES)
        dice = Dice(count, sides, _start(item), _end(item))
        seen: dict[str, int] = {}  # modifier kind -> where it stands
        for modifier in children[2:]:
            assert isinstance(modifier, Tree)
            dice = self.modify(dice, modifier, seen)
        if dice.minimum is not None and dice.maximum is not None and dice.minimum > dice.maximum:
            raise RollError("min_above_max", max(seen["mi"], seen["ma"]))
        if dice.failure is not None and dice.success is None:
            raise RollError("failures_need_target", seen["FAILURE"])
        if dice.reroll is not None and not dice.reroll_once and all(map(dice.reroll.test, dice.faces)):
            raise RollError("reroll_every_face", seen["REROLL"])
        if explodes_forever(dice):  # counting the rerolls: `d6rr<6!` would only ever settle on a 6
            raise RollError("explode_every_face", seen["EXPLODE"])
        return dice

    def modify(self, dice: Dice, modifier: Tree[Token], seen: dict[str, int]) -> Dice:
        head = modifier.children[0]
        assert isinstance(head, Token)
        position = _start(head)
        number_token = modifier.children[1] if len(modifier.children) > 1 else None
        number_token = number_token if isinstance(number_token, Token) else None
        if head.type in ("KEEP", "DIE"):  # several keep/drop rules apply one after the other
            if head.type == "DIE":  # `4d6d1`: drop the lowest, as Dice Maiden and Roll20 read it
                assert number_token is not None
                return replace(dice, keep=(*dice.keep, Keep("dl", self.int(number_token))))
            return replace(dice, keep=(*dice.keep, self.keep(head, number_token)))
        number = self.int(number_token) if number_token is not None else None
        word, operator = _split_word(head.lower())
        kind = "EXPLODE" if head.type == "ONCE" else word if head.type == "CLAMP" else head.type
        if kind in seen:  # anything but keep/drop once
            raise RollError("modifier_twice", position, modifier=str(head))
        seen[kind] = position
        end = _end(number_token) if number_token is not None else _end(head)
        if head.type in ("EXPLODE", "ONCE"):
            return self.explode(dice, head, word, operator, number, end)
        if head.type == "REROLL":
            return self.reroll(dice, head, word, operator, number, end)
        assert number is not None
        if head.type == "CLAMP":
            return replace(dice, **{"minimum" if word == "mi" else "maximum": number})
        if head.type == "SUCCESS":
            return replace(dice, success=Condition(_OPS[head.lower()], number))
        return replace(dice, failure=Condition("<=", number))

    def explode(
        self, dice: Dice, head: Token, word: str, operator: str, number: int | None, end: int
    ) -> Dice:
        position = _start(head)
        if dice.fate:
            raise RollError("fate_explode", position)
        if head.type == "ONCE":  # Dice Maiden: `e6` once at 6 or more, `ie6` again and again
            if operator:  # d20's `e>5`: ours is `!>5`
                instead = f"!{operator}" if operator in (">", ">=") else "!" if operator == "=" else None
                raise self.hint("explode_compare", position, _end(head), instead)
            condition = Condition(">=", dice.high if number is None else number)
            return replace(dice, explode=condition, explosion="once" if word == "e" else "again")
        compound = word == "!!"
        if operator and number is None:
            raise RollError("comparison_needs_number", end)
        condition = Condition(_OPS[operator], number) if number is not None else Condition("=", dice.high)
        return replace(dice, explode=condition, explosion="compound" if compound else "again")

    def reroll(self, dice: Dice, head: Token, word: str, operator: str, number: int | None, end: int) -> Dice:
        position = _start(head)
        if number is None:
            raise RollError("comparison_needs_number", _end(head))
        if word == "ra":  # d20's reroll-and-add: no such thing here
            raise self.hint("reroll_add", position, end, None)
        if word == "r":  # once or until? Only `r1` reads the same in every bot: once on a 1
            if operator or number != 1:
                instead = f"rr{operator}{number}" if operator else f"ro<={number}"
                raise self.hint("reroll_r", position, end, instead)
            return replace(dice, reroll=Condition("=", 1), reroll_once=True)
        if word == "ir":  # Dice Maiden: `ir2` rerolls 2 or less until it isn't
            return replace(dice, reroll=Condition(_OPS[operator] if operator else "<=", number))
        return replace(dice, reroll=Condition(_OPS[operator], number), reroll_once=word == "ro")


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
    if isinstance(node, Pool):
        return replace(node, items=tuple(_swap(item, old, new) for item in node.items))
    return node


def _check_dice_total(expression: Node, sets: int) -> None:
    thrown = 0
    for dice in terms(expression):
        thrown += dice.count * sets
        if thrown > MAX_DICE:
            raise RollError("too_many_dice", dice.start, max=MAX_DICE)
