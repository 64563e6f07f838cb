"""Sushizock's dice for /roll: `/roll sushizock` throws the five dice of a turn, `sushizock 3` three."""

from __future__ import annotations

from rules.game_dice import GameDice
from rules.sushizock.pieces import DICE as COUNT
from rules.sushizock.pieces import FACES

DICE = GameDice("sushizock", (FACES,) * COUNT)
