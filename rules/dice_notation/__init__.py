"""Dice notation for /roll: a lark grammar, its tree, bounds and an evaluator.

    tree.py      limits, RollError and the tree a request parses to
    parse.py     the grammar and `parse`
    evaluate.py  `evaluate`, `roll`, bounds and what a fair die averages
    games.py     the registered games' dice

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
    <word> [n]           a dice game's own dice, under the word it lends them by (`bock 7`;
                         rules/<game>/dice.py: sushizock, bock, sushidice)
    anything after the expression (after a space, from a letter or #) is its label
"""

from __future__ import annotations

from rules.dice_notation.evaluate import (
    DiceRoll,
    Die,
    Draw,
    GameRoll,
    Roll,
    SetRoll,
    Tally,
    TermRoll,
    bounds,
    evaluate,
    expected_face,
    kept_count,
    roll,
)
from rules.dice_notation.games import (
    game_dice,
    game_words,
    lenders,
    lent_dice,
)
from rules.dice_notation.parse import (
    GRAMMAR,
    parse,
)
from rules.dice_notation.tree import (
    CHAIN_CAP,
    ERROR_CODES,
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
    ErrorCode,
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

__all__ = [
    "CHAIN_CAP",
    "ERROR_CODES",
    "GRAMMAR",
    "MAX_DICE",
    "MAX_DICE_PER_TERM",
    "MAX_LENGTH",
    "MAX_NUMBER",
    "MAX_SETS",
    "MAX_SIDES",
    "MIN_SIDES",
    "Binary",
    "Comparison",
    "Condition",
    "Dice",
    "DiceRequest",
    "DiceRoll",
    "Die",
    "Draw",
    "ErrorCode",
    "GameRequest",
    "GameRoll",
    "Keep",
    "KeepKind",
    "Negate",
    "Node",
    "Number",
    "Operator",
    "Request",
    "Roll",
    "RollError",
    "SetRoll",
    "Tally",
    "TermRoll",
    "bounds",
    "evaluate",
    "expected_face",
    "game_dice",
    "game_words",
    "kept_count",
    "lenders",
    "lent_dice",
    "parse",
    "roll",
    "terms",
]
