"""The one list of games. The bot, the tests, /roll's game dice, the computers and the catalogs all
read it; adding a game is a package on each side (`rules/<id>/`, `cogs/<id>/`) and its line in
`GAME_PACKAGES`.

A game's rules package holds, by convention:

    game.py      GAME: the engine (the Game protocol, rules/engine.py)
    computer.py  BRAIN: its computer players (rules/computer/brain.py)
    testkit.py   TESTKIT: what the shared test suites need of it (imported by tests only)
    dice.py      DICE: its dice for /roll, if it lends them (rules/game_dice.py)

and its cogs package (`cogs/<id>/` unless registered elsewhere) `cog.py` (the bot's extension),
`render.py` and `locales/<language>.json`.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from importlib.util import find_spec
from typing import Any

from rules.computer.brain import Brain
from rules.engine import Game
from rules.game_dice import GameDice

GAME_PACKAGES = ("sushizock", "sushigo", "rockthebock", "sushidice", "kaiten")
"""The games in the order players see them listed."""


@dataclass(frozen=True)
class Registered:
    """One game as the bot knows it."""

    game: Game[Any, Any]
    brain: Brain[Any, Any]
    package: str
    """Its rules package: `rules.sushigo`."""
    cogs: str
    """Its cogs package: `cogs.games.sushigo` (the extension is `<cogs>.cog`, the words `<cogs>/locales/`)."""
    dice: GameDice | None = None
    """Its dice for /roll (`<package>.dice.DICE`, drawn by `<cogs>.dice`), when it lends them."""

    @property
    def extension(self) -> str:
        return f"{self.cogs}.cog"

    def testkit(self) -> Any:
        """What the shared test suites need of this game (`<package>.testkit.TESTKIT`)."""
        return import_module(f"{self.package}.testkit").TESTKIT


REGISTERED: dict[str, Registered] = {}
GAMES: dict[str, Game[Any, Any]] = {}
"""Every registered game by id (the same dict object for everyone: register() fills it)."""


def register(package: str, cogs: str | None = None) -> Registered:
    """Reads a game's rules package (and names its cogs package) and adds it to the registry."""
    game: Game[Any, Any] = import_module(f"{package}.game").GAME
    brain: Brain[Any, Any] = import_module(f"{package}.computer").BRAIN
    if game.id in REGISTERED:
        raise ValueError(f"a game with id {game.id!r} is registered already")
    dice: GameDice | None = import_module(f"{package}.dice").DICE if find_spec(f"{package}.dice") else None
    entry = Registered(game, brain, package, cogs or f"cogs.games.{package.rsplit('.', 1)[-1]}", dice)
    REGISTERED[game.id] = entry
    GAMES[game.id] = game
    return entry


def unregister(game_id: str) -> None:
    """Takes a game out again (the tests' toy game)."""
    REGISTERED.pop(game_id)
    GAMES.pop(game_id)


for _name in GAME_PACKAGES:
    register(f"rules.{_name}")
