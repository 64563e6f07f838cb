"""What a dice game lends /roll: its dice, under the word players type (`/roll bock 7`).

A game declares them as `DICE` in `rules/<game>/dice.py`; rules.registry reads them,
rules.dice_notation throws them and the game's `cogs/<game>/dice.py` draws the throw.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class GameDice:
    """A game's dice for /roll, named by the faces of its engine."""

    word: str
    """What players type after /roll: `sushizock`, `bock` (lower case, one word)."""
    dice: tuple[tuple[str, ...], ...]
    """The faces of each die a throw throws when no count is given."""
    whole: bool = False
    """A set of different dice, thrown whole: no count may be given. Otherwise the dice are alike."""

    def __post_init__(self) -> None:
        if not self.word.isalpha() or self.word != self.word.lower():
            raise ValueError(f"a game's dice word is one lower-case word, not {self.word!r}")
        if not self.dice or (not self.whole and len(set(self.dice)) != 1):
            raise ValueError(f"{self.word}: dice thrown by count must be alike")

    @property
    def count(self) -> int:
        """How many dice a throw throws when no count is given."""
        return len(self.dice)

    def throw(self, count: int) -> list[tuple[str, ...]]:
        """The faces of each die a throw of `count` dice throws (a whole set throws its own)."""
        return list(self.dice) if self.whole else [self.dice[0]] * count
