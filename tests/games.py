"""The registered games as the shared suites see them: each one's testkit and cog, from the registry
(`rules.registry`), so that no suite keeps its own list of games."""

from __future__ import annotations

import inspect
from importlib import import_module
from typing import Any

from cogs.tables.gamecog import GameCog
from rules.registry import REGISTERED
from rules.testkit import Testkit


def kit(game_id: str) -> Testkit[Any, Any]:
    """The game's testkit (`rules/<game>/testkit.py`)."""
    return REGISTERED[game_id].testkit()


def cog_classes(game_id: str) -> list[type[GameCog]]:
    """The GameCog subclasses its extension module (`cogs/<game>/cog.py`) defines."""
    module = import_module(REGISTERED[game_id].extension)
    return [
        value
        for value in vars(module).values()
        if inspect.isclass(value) and issubclass(value, GameCog) and value is not GameCog
    ]


def group(game_id: str) -> str:
    """The slash group players type for the game (`bock` for Rock the Bock)."""
    (cog,) = cog_classes(game_id)
    return str(cog.__cog_group_name__)


def extensions() -> tuple[str, ...]:
    """Every registered game's extension, in the registry's order."""
    return tuple(entry.extension for entry in REGISTERED.values())
