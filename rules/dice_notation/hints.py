"""Other dice bots' spellings: Dice Maiden's modifiers written apart from their die (`4d6 d1`,
`10d6 e6 k8 +4`, `4d6 k3d1r1`), its comment after ` ! `, its `+d20`, and the like.

Modifier words right after a die are read onto it in Sushi Bar's spelling (`glue`) where Dice
Maiden means what ours say; a word of Dice Maiden's with no like-for-like here (`km1`, `b1`, `i`)
is refused, never left to be a label. A refusal's suggestion (`respell`) is shown only if it parses
as it stands (parse.py verifies it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rules.dice_notation.tree import RollError

_DICE = re.compile(r"\d*d(?:\d+|%|f)(?:(?:[a-z]{1,2}|!{1,2})?(?:<=|>=|<|>|=)?\d*)*", re.IGNORECASE)
"""A dice term with the modifiers written onto it: `10d6e6kh8`."""
_ENDS_IN_DICE = re.compile(r"(?<![a-z])(\d*)d(?:\d+|%|f)[a-z!<>=\d]*$", re.IGNORECASE)
"""A word's last dice term, and its count: `1d20+2d6` ends in `2d6` (one flat run: no backtracking)."""
_WORD = re.compile(r"[+\-*/]*[^\s+\-*/]+|[+\-*/]+")
"""A word, an operator starting the next: `2d20 k1+5` is `2d20`, `k1`, `+5`."""
_STARTS_EXPRESSION = re.compile(r"[\d(+\-*/%,)]|d(?:\d|%|f)", re.IGNORECASE)

_COMPARE = r"(?:<=|>=|<|>|=)?"
_TOKEN = re.compile(
    rf"(?P<ours>(?:ro|rr){_COMPARE}\d+|(?:<=|>=|<|>)\d+)"
    r"|(?P<word>adv|dis|irg|ir|ie|ds|dh|dl|kh|kl|km|rg|tl|mi|ma|k|d|e|i|r|t|f|b|c)(?P<number>\d*)",
    re.IGNORECASE,
)
"""One modifier of a word like `k3d1r1`: Dice Maiden's and Sushi Bar's, longest spellings first."""
_NEEDS_NUMBER = frozenset({"adv", "dis", "irg", "ir", "rg", "tl", "mi", "ma", "d", "r", "t", "f"})
_SYSTEMS = frozenset({"gb", "gbs", "cpr", "hsn", "hsk", "hsh", "fitd", "mnm"})
"""Dice Maiden's game-system words after dice (`3d8 gb`): rules of their own, none of them ours."""


def split(word: str) -> list[tuple[int, str]] | None:
    """The modifiers a word is made of, with where each starts (`k3d1r1` -> k3, d1, r1); None if it
    is a word. Without a digit only one modifier makes a word of them: `e`, `kl`, but `be` is a word."""
    tokens: list[tuple[int, str]] = []
    at = 0
    while at < len(word):
        match = _TOKEN.match(word, at)
        if match is None or (match["word"] and match["word"].lower() in _NEEDS_NUMBER and not match[3]):
            return None  # `r`, `t`, `d` alone: Dice Maiden writes them with a number
        tokens.append((at, match[0].lower()))
        at = match.end()
    if not tokens or (len(tokens) > 1 and not any(char.isdigit() for char in word)):
        return None
    return tokens


def ours(token: str) -> str | None:
    """One of Dice Maiden's modifiers (or ours written apart) in Sushi Bar's spelling; None where no
    spelling here rolls the same. Dice Maiden: `d1` drops the lowest, `k3` keeps the highest, `r2`
    rerolls 2 or less once, `ir2` until it isn't, `rg2` / `irg2` the same from 2 up, `tl6` counts
    the dice at 6 or less, `e6` / `ie6` explode (once / again) at 6 or more."""
    match = _TOKEN.fullmatch(token)
    if match is None:
        return None
    if match["ours"]:
        return token
    word, number = match["word"], match["number"]
    if word in ("k", "kh", "kl") and number == "0":  # keeping none: Dice Maiden's reading is unclear
        return None
    simple = {"k": "kh", "kh": "kh", "kl": "kl", "dh": "dh", "dl": "dl", "d": "dl", "e": "e", "ie": "ie"}
    if word in simple:
        return simple[word] + (number or ("1" if word == "k" else ""))
    if word in ("mi", "ma", "f") or (word == "t" and number != "0"):
        return word + number
    once = {"r": "ro", "ir": "rr", "rg": "ro", "irg": "rr"}
    if word in once:
        if word in ("r", "ir") and number == "1":
            return f"{once[word]}1"
        return f"{once[word]}{'>=' if word.endswith('g') else '<='}{number}"
    if word == "tl":
        return f"<={number}"
    return None  # km (the middle), i (implode), b (botches), c (cancel), ds (doubles), adv1 / dis1


def _ordered(spelled: list[str]) -> str:
    """Dice Maiden drops before it keeps (`k2d1`: drop the lowest, then keep 2): ours in that order."""
    keeps = [word for word in spelled if word[:2] in ("kh", "kl")]
    drops = [word for word in spelled if word[:2] in ("dh", "dl")]
    rest = [word for word in spelled if word not in keeps and word not in drops]
    return "".join(rest + drops + keeps)


def translate(word: str) -> str | None:
    """A word of modifiers in Sushi Bar's spelling; None if it is no modifier or one with no
    like-for-like here. Ours written apart (`!!`, `!>4`) are ours."""
    if re.fullmatch(r"!!?(?:(?:>=|>)?\d+)?", word):
        return word
    tokens = split(word)
    if tokens is None:
        return None
    spelled = [ours(token) for _, token in tokens]
    if any(spelling is None for spelling in spelled):
        return None
    return _ordered([spelling for spelling in spelled if spelling is not None])


def looks_like_notation(word: str, after: list[str] | None = None) -> bool:
    """A label's first word (`after` it, the label's other words) that another bot reads as
    modifiers: `d1`, `k3`, `e6`, `t8f1`, `km1`, `gb`; not the `I` of `1d20 I rolled a d20`."""
    if word.lower() in _SYSTEMS or re.fullmatch(r"!!?(?:(?:>=|>)?\d+)?", word):
        return True
    return split(word) is not None and _stands_alone(word, after[0] if after else None)


def _stands_alone(word: str, following: str | None) -> bool:
    """A modifier without a digit (`e`, `i`, `k`) is one only where no label words follow it."""
    if following is None or any(char.isdigit() for char in word):
        return True
    return split(following) is not None or bool(_STARTS_EXPRESSION.match(following))


@dataclass(frozen=True)
class Glued:
    """`text` with modifier words written onto their dice; `edits` are (start here, length here,
    where the words stood as typed, how much longer the text as typed is after it)."""

    text: str
    edits: tuple[tuple[int, int, int, int], ...]

    def original(self, position: int) -> int:
        """Where `position` in `text` stands in the text as typed."""
        shift = 0
        for start, length, words, longer in self.edits:
            if position < start:
                break
            if position < start + length:
                return words
            shift = longer
        return position + shift


def glue(text: str) -> Glued | None:
    """Dice Maiden's modifier words right after a die written onto it in ours: `10d6 e6 k8 +4` ->
    `10d6e6kh8 +4`, `1d10+3d6 k2d1` -> `1d10+3d6dl1kh2`; None if there are none. A word of
    modifiers with no like-for-like here is refused where it stands (`4d6 km3`), and so is a keep
    or drop on a lone die among others (`1d8 + 1d6 k1`: Dice Maiden's aliases mean both dice)."""
    edits: list[tuple[int, int, int, int]] = []
    out, copied = "", 0
    dice: re.Match[str] | None = None  # the dice word the words after it are glued onto
    spelled: list[str] = []
    end = 0
    several = len(re.findall(r"(?<![a-z])\d*d(?:\d+|%|f)", text, re.IGNORECASE)) > 1

    def flush() -> None:
        nonlocal out, copied
        if dice is None or not spelled:
            return
        at = dice.end()
        written = _ordered(spelled)
        out += text[copied:at]
        words = at + len(text[at:end]) - len(text[at:end].lstrip())
        edits.append((len(out), len(written), words, end - len(out) - len(written)))
        out += written
        copied = end

    words = list(_WORD.finditer(text))
    for index, word in enumerate(words):
        tokens = split(word[0]) if dice is not None else None
        following = words[index + 1][0] if index + 1 < len(words) else None
        if tokens is not None and not _stands_alone(word[0], following):
            tokens = None  # `1d20 I rolled a d20`: a lone letter before more words is a label's
        if tokens is None and dice is not None and word[0].lower() in _SYSTEMS:
            raise RollError("syntax", word.start())
        if tokens is not None and dice is not None:
            for offset, token in tokens:
                spelling = ours(token)
                if spelling is None:
                    raise RollError("syntax", word.start() + offset)
                if spelling[:1] in "kd" and several and dice[1] in ("", "1"):
                    raise RollError("syntax", word.start() + offset)
                spelled.append(spelling)
            end = word.end()
            continue
        flush()
        dice, spelled = None, []
        if not _STARTS_EXPRESSION.match(word[0]):
            break  # the label starts here: `2d6 fire damage`, `d20 # to hit`, `4d6 ! comment`
        dice = _ENDS_IN_DICE.search(word[0])
        if dice is not None:  # as a match in `text`, so that its end is a place in `text`
            dice = _ENDS_IN_DICE.search(text, word.start(), word.end())
    flush()
    if not edits:
        return None
    return Glued(out + text[copied:], tuple(edits))


def respell(text: str) -> str:
    """`text` with its spaced modifiers written onto the dice before them, and Dice Maiden's comment
    marker ` ! ` dropped: `3d6+5 e6` -> `3d6e6+5`, `1d20 ! Attack` -> `1d20 Attack`."""
    words = text.split()
    out = ""
    for index, word in enumerate(words):
        last = list(_DICE.finditer(out))
        if word == "!" and index < len(words) - 1:
            continue  # Dice Maiden's comment marker: the words after it are the label
        spelled = translate(word)
        if spelled is not None and last:
            end = last[-1].end()
            out = out[:end] + spelled + out[end:]
        else:
            out = f"{out} {word}" if out else word
    return out


def signed_die(sign: str, sides: str, rest: str) -> str:
    """Dice Maiden's `+d20` (advantage) and `-d20` (disadvantage), in Sushi Bar's words; its `+d%`
    keeps the lower tens die of two (a roll-under advantage), `-d%` the higher."""
    if sides == "20":
        return f"d20{rest} {'adv' if sign == '+' else 'dis'}"
    if sides == "%":
        return f"2d10{'kl1' if sign == '+' else 'kh1'}*10+1d10-10{rest}"
    return f"2d{sides}{'kh1' if sign == '+' else 'kl1'}{rest}"
