"""The five games as pure rules engines, and the registry the bot serves them from."""

from __future__ import annotations

from typing import Any

from rules import kaiten, rockthebock, sushidice, sushigo, sushizock
from rules.engine import Game

GAMES: dict[str, Game[Any, Any]] = {
    module.GAME.id: module.GAME for module in (sushizock, sushigo, rockthebock, sushidice, kaiten)
}
