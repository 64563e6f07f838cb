"""Dice Race's dice for /roll: `/roll race` throws the two dice of a turn, `race 1` one."""

from __future__ import annotations

from rules.game_dice import GameDice

from .game import FACES

DICE = GameDice("race", (FACES,) * 2)
