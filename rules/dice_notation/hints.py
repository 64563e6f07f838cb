"""Other dice bots' spellings, for the hints that refuse them: Dice Maiden's modifiers written apart
from their die (`4d6 d1`, `10d6 e6 k8 +4`), its comment after ` ! `, its `+d20`, and the like.

A hint is only ever a suggestion: `respell` writes what Sushi Bar would read the same way, and
the parser shows it only if it parses as it stands (parse.py verifies it).
"""

from __future__ import annotations

import re

_DICE = re.compile(r"\d*d(?:\d+|%|f)(?:(?:[a-z]{1,2}|!{1,2})?(?:<=|>=|<|>|=)?\d*)*", re.IGNORECASE)
"""A dice term with the modifiers written onto it: `10d6e6kh8`."""

_COMPARE = r"(?:<=|>=|<|>|=)?"


def translate(word: str) -> str | None:
    """A modifier as Dice Maiden (or Sushi Bar) writes it on its own, in Sushi Bar's spelling; None if
    the word is no modifier. Dice Maiden: `d1` drops the lowest, `k3` keeps the highest, `r2` rerolls
    2 or less once, `ir2` until it isn't, `e6` / `ie6` explode (once / again) at 6 or more."""
    w = word.lower()
    if match := re.fullmatch(r"d(\d+)", w):
        return f"dl{match[1]}"
    if match := re.fullmatch(r"k(\d*)", w):
        return f"kh{match[1] or 1}"
    if match := re.fullmatch(r"r(\d+)", w):
        return "ro1" if match[1] == "1" else f"ro<={match[1]}"
    if match := re.fullmatch(r"ir(\d+)", w):
        return "rr1" if match[1] == "1" else f"rr<={match[1]}"
    patterns = (
        r"(?:kh|kl|dh|dl)\d*",
        r"i?e\d*",
        rf"(?:ro|rr){_COMPARE}\d+",
        r"(?:t|f|mi|ma)\d+",
        r"(?:<=|>=|<|>)\d+",
        r"!!?(?:(?:>=|>)?\d+)?",
    )
    return w if any(re.fullmatch(pattern, w) for pattern in patterns) else None


def looks_like_notation(word: str) -> bool:
    """A label's first word that another bot reads as a modifier: `d1`, `k3`, `e6`, `ie`, `r2`, `t7`."""
    return translate(word) is not None


def respell(text: str) -> str:
    """`text` with its spaced modifiers written onto the dice before them, and Dice Maiden's comment
    marker ` ! ` dropped: `10d6 e6 k8 +4` -> `10d6e6kh8 +4`, `1d20 ! Attack` -> `1d20 Attack`."""
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
    """Dice Maiden's `+d20` (advantage) and `-d20` (disadvantage), in Sushi Bar's words."""
    if sides == "20":
        return f"d20{rest} {'adv' if sign == '+' else 'dis'}"
    return f"2d{sides}{'kh1' if sign == '+' else 'kl1'}{rest}"
