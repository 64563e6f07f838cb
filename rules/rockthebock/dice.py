"""Rock the Bock's dice for /roll: `/roll bock` throws the ten dice of a sheet, `bock 7` seven."""

from __future__ import annotations

from rules.game_dice import GameDice
from rules.rockthebock.game import COLOURS, SYMBOLS

DICE = GameDice("bock", (COLOURS,) * SYMBOLS)
