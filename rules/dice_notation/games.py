"""The dice games lend /roll: whatever the registry holds, by the word players type (no game named here)."""

from __future__ import annotations

from rules.dice_notation.tree import GameRequest
from rules.game_dice import GameDice
from rules.registry import REGISTERED, Registered


def lenders() -> dict[str, Registered]:
    """The registered games that lend their dice, by the dice's word, in the order the games are listed."""
    return {entry.dice.word: entry for entry in REGISTERED.values() if entry.dice is not None}


def lent_dice() -> dict[str, GameDice]:
    """The lent dice by their word."""
    return {entry.dice.word: entry.dice for entry in REGISTERED.values() if entry.dice is not None}


def game_words() -> tuple[str, ...]:
    """The words after /roll that throw a game's dice: `sushizock`, `bock`."""
    return tuple(lent_dice())


def game_dice(request: GameRequest) -> list[tuple[str, ...]]:
    """The faces of each die the request throws, from the engine's own face lists."""
    return lent_dice()[request.game].throw(request.count)
