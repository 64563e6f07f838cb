"""Dice notation for /roll: a lark grammar, its tree, bounds and an evaluator.

    tree.py      limits, RollError and the tree a request parses to
    parse.py     the grammar and `parse` (rolls separated by `;`, labels, the hints' suggestions)
    build.py     a parse tree to a request: limits, other bots' compact spellings
    hints.py     other bots' spaced spellings (Dice Maiden's), respelled in ours
    throws.py    how many dice a request is expected to throw (the budget, before rolling)
    evaluate.py  `evaluate`, `roll`, bounds and what a fair die averages
    games.py     the registered games' dice

Pure: no discord, no I/O. Randomness is injected as `Draw` (a uniform integer in [0, n)), so tests
fix it and the bot passes `secrets.randbelow`. Everything that can go wrong with a player's
expression is a `RollError` with a code and the position in the text where it went wrong; no
other exception leaves `parse` or `evaluate`.

    NdM  dM  d%  dF      dice (d% = d100; dF = Fate dice, faces −1, 0, +1)
    + - * / // % ( )     arithmetic, exact; a total is rounded once at the end, toward zero (as d20);
                         // rounds down where it stands, % is its remainder
    khN kN klN dhN dlN   keep / drop the highest or lowest N (N defaults to 1); dN = dlN (Dice Maiden)
    !  !>N  !>=N  !N     explode on the highest face, above N, at N or above, at N; again and again
    !!                   compounding: the new dice add into the one that exploded
    eN  ieN              Dice Maiden's: explode once / again and again at N or more (N: the highest face)
    roC  rrC  r1  irN    reroll once / until the die misses C (C = N, <N, <=N, >N, >=N); r1 = ro1;
                         irN = rr<=N (Dice Maiden)
    miN  maN             every die at least / at most N
    >=N tN (>N <N <=N)   count the dice meeting the target; fN subtracts the dice at N or below
    (a, b, c)khN         a set of expressions; the kept ones add up (d20)
    6#4d6kh3  6 4d6kh3   repeated sets, at most 20
    a; b; c; d           up to four rolls at once
    adv  dis             2d20kh1 / 2d20kl1; as a trailing word, the expression's d20 gets it
    <word> [n]           a dice game's own dice, under the word it lends them by (`bock 7`;
                         rules/<game>/dice.py: sushizock, bock, sushidice)
    4d6 k3  4d6 k3d1r1   Dice Maiden's modifiers after a space, read onto the die before them in
                         ours (it drops before it keeps: `k3d1` = `dl1kh3`; `rg2` = `ro>=2`, `irg2` =
                         `rr>=2`, `tl6` = `<=6`); its `km1`, `b1`, `i`, `ds`, `c`, `adv1` and system
                         words (`gb`) have no like here and are refused, as are modifiers after a
                         number (`3d6+5 e6`: ours suggested)
    anything else after the expression (after a space, from a letter or #, or in quotes) is its label
    at most MAX_THROWS dice thrown per request, every explosion, reroll, set and roll counted
"""

from __future__ import annotations

from rules.dice_notation.evaluate import (
    DiceRoll,
    Die,
    Draw,
    GameRoll,
    PoolRoll,
    Roll,
    SetRoll,
    SeveralRoll,
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
from rules.dice_notation.throws import expected
from rules.dice_notation.tree import (
    ERROR_CODES,
    MAX_DICE,
    MAX_DICE_PER_TERM,
    MAX_LENGTH,
    MAX_NUMBER,
    MAX_ROLLS,
    MAX_SETS,
    MAX_SIDES,
    MAX_THROWS,
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
    Request,
    RollError,
    Several,
    Single,
    terms,
)

__all__ = [
    "ERROR_CODES",
    "GRAMMAR",
    "MAX_DICE",
    "MAX_DICE_PER_TERM",
    "MAX_LENGTH",
    "MAX_NUMBER",
    "MAX_ROLLS",
    "MAX_SETS",
    "MAX_SIDES",
    "MAX_THROWS",
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
    "Pool",
    "PoolRoll",
    "Request",
    "Roll",
    "RollError",
    "SetRoll",
    "Several",
    "SeveralRoll",
    "Single",
    "Tally",
    "TermRoll",
    "bounds",
    "evaluate",
    "expected",
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
