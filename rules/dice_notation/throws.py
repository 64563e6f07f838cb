"""How many dice a request is expected to throw, so that one the budget cannot cover is refused before
a single die is thrown (the evaluator also stops at MAX_THROWS, for the unlucky ones)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from rules.dice_notation.tree import (
    MAX_THROWS,
    Binary,
    Dice,
    GameRequest,
    Negate,
    Node,
    Number,
    Pool,
    RollError,
    Single,
    terms,
)


def settled_faces(dice: Dice) -> dict[int, float]:
    """How likely each face is to be the one a die settles on, after its rerolls."""
    faces = list(dice.faces)
    if dice.reroll is None:
        return {face: 1 / len(faces) for face in faces}
    rerolled = [face for face in faces if dice.reroll.test(face)]
    if not dice.reroll_once:  # rerolled until it misses: any face that misses, alike
        kept = [face for face in faces if face not in rerolled]
        return {face: 1 / len(kept) for face in kept}
    again = len(rerolled) / len(faces)  # rerolled once: the second throw is a fresh face
    return {face: ((face not in rerolled) + again) / len(faces) for face in faces}


def explodes_forever(dice: Dice) -> bool:
    """Every face the die can settle on sets off another die, which settles the same way."""
    if dice.explode is None or dice.explosion == "once":
        return False
    return all(dice.explode.test(face) for face in settled_faces(dice))


def per_die(dice: Dice) -> float:
    """Expected throws for one die of the term, its rerolls and explosions included."""
    faces = len(dice.faces)
    throws = 1.0
    if dice.reroll is not None:
        rerolled = sum(dice.reroll.test(face) for face in dice.faces) / faces
        throws = 1 + rerolled if dice.reroll_once else 1 / (1 - rerolled)
    if dice.explode is None:
        return throws
    chance = sum(p for face, p in settled_faces(dice).items() if dice.explode.test(face))
    if dice.explosion == "once":
        return throws * (1 + chance)
    return throws / (1 - chance) if chance < 1 else math.inf


def expected(node: Node) -> float:
    if isinstance(node, Dice):
        return node.count * per_die(node)
    if isinstance(node, Number):
        return 0.0
    if isinstance(node, Negate):
        return expected(node.operand)
    if isinstance(node, Binary):
        return expected(node.left) + expected(node.right)
    assert isinstance(node, Pool)
    return sum(expected(item) for item in node.items)


def check_budget(parts: Sequence[Single], offsets: Sequence[int]) -> None:
    """Refuse, pointing at the term that tips it over, a request expected to throw beyond the budget."""
    total = 0.0
    tipped: int | None = None
    for part, offset in zip(parts, offsets, strict=True):
        if isinstance(part, GameRequest):
            total += part.count
            continue
        for dice in terms(part.expression):
            total += part.sets * dice.count * per_die(dice)
            if tipped is None and total > MAX_THROWS:
                tipped = offset + dice.start
    if tipped is not None:
        shown = MAX_THROWS * 1000 if math.isinf(total) else min(round(total), MAX_THROWS * 1000)
        raise RollError("throw_budget", tipped, expected=shown, max=MAX_THROWS)
