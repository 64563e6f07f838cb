"""Sushi Dice's dice for /roll: `/roll sushidice` throws one set, its six different dice, whole."""

from __future__ import annotations

from rules.game_dice import GameDice
from rules.sushidice.pieces import DICE as SET

DICE = GameDice("sushidice", SET, whole=True)
