"""What every cog is served by, one way, typed: the database's stores, opened once by the bot.

The bot builds `Services` in its `setup_hook` (`Services.open`) and every cog reaches them with
`services_of(bot)` — the Tables machinery, /roll, /history and the rest alike — so no cog reaches a
store through another cog. They carry the source of new games' seeds too (`Seeds`): the operating
system's randomness, or a test's fixed source handed to `bot.create_bot(seeds=...)`.
"""

from __future__ import annotations

import os
import secrets
import socket
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from discord.ext import commands

from storage.database import Database
from storage.history import HistoryStore
from storage.leaderboard import Leaderboard
from storage.rolls import RollStore
from storage.seasons import Seasons
from storage.settings import GuildSettings, PlayerSettings
from storage.tables import TableStore

Seeds = Callable[[], int]
"""Where a new game's seed comes from: called once per game started, the seed goes into the action log."""


def new_seed() -> int:
    """A new game's seed: 63 bits of the operating system's randomness (what `Seeds` is by default)."""
    return secrets.randbits(63)


def process_name() -> str:
    """This process's name in leases, heartbeats and notifications: host and pid for an operator
    reading the tables, and a random part because two bots may run in one process (the tests' two
    processes do)."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


@dataclass(frozen=True)
class Services:
    """The stores of one database, this process's name among the processes sharing it, and where its
    new games' seeds come from."""

    database: Database
    process: str
    tables: TableStore
    guild_settings: GuildSettings
    player_settings: PlayerSettings
    leaderboard: Leaderboard
    history: HistoryStore
    seasons: Seasons
    rolls: RollStore
    seeds: Seeds

    @classmethod
    def open(cls, database: Database, seeds: Seeds = new_seed) -> Services:
        process = process_name()
        return cls(
            database=database,
            process=process,
            tables=TableStore(database, origin=process),  # knows its own saves when it hears them
            guild_settings=GuildSettings(database),
            player_settings=PlayerSettings(database),
            leaderboard=Leaderboard(database),
            history=HistoryStore(database),
            seasons=Seasons(database),
            rolls=RollStore(database),
            seeds=seeds,
        )


class Served(Protocol):
    """A bot that carries its services (bot.SushiBar)."""

    services: Services


class NotServed(RuntimeError):
    """The client has no services (it is no Sushi Bar, or its setup_hook has not run yet)."""


def services_of(client: object) -> Services:
    """The services of `client` (a bot, or `interaction.client`)."""
    services = getattr(client, "services", None)
    if not isinstance(services, Services):
        raise NotServed("this client carries no Sushi Bar services: build it with bot.create_bot")
    return services


def maybe_services(client: object) -> Services | None:
    """The services of `client`, None when it has none (a reply must still come without them)."""
    services = getattr(client, "services", None)
    return services if isinstance(services, Services) else None


class UsesServices:
    """For a cog: `self.services`, its bot's (the cog keeps its bot as `self.bot`)."""

    bot: commands.Bot

    @property
    def services(self) -> Services:
        return services_of(self.bot)
