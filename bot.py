"""Sushi Bar: settings, logging, the bot, and running it.

python bot.py          run the bot (DISCORD_TOKEN required)
python bot.py --sync   sync slash commands globally, then exit
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import discord
from discord.ext import commands
from dotenv import load_dotenv

from cogs.i18n import CatalogTranslator
from cogs.tables.errors import answer_failure
from cogs.tables.ui import TableButton, TableSelect
from rules import GAMES
from storage.database import Database

log = logging.getLogger("sushibar")

# Every registered game has its cog in cogs/<game id>.py; rules.GAMES is the only list of games.
GAME_EXTENSIONS = tuple(f"cogs.{game_id}" for game_id in GAMES)
EXTENSIONS = ("cogs.tables", *GAME_EXTENSIONS, "cogs.leaderboard", "cogs.help", "cogs.settings")

MISSING_TOKEN = """\
Sushi Bar cannot start: DISCORD_TOKEN is not set.

Create an application at https://discord.com/developers/applications, add a bot
to it, copy its token (Bot -> Reset Token) and put it in a .env file next to
bot.py as DISCORD_TOKEN=... (see .env.example), or export it in your shell.
README.md, section "Set up the Discord application", walks through every step.
"""


class SettingsError(ValueError):
    """A setting is present but unusable; the message names it."""


@dataclass(frozen=True)
class Settings:
    token: str = field(repr=False)  # never printed, never logged
    database_path: str = "sushibar.db"
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    turn_timeout: float = 300.0

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> Settings:
        def number(name: str, default: float, minimum: float) -> float:
            raw = env.get(name, "").strip()
            if not raw:
                return default
            try:
                value = float(raw)
            except ValueError as error:
                raise SettingsError(f"{name} must be a number, got {raw!r}") from error
            if value < minimum:
                raise SettingsError(f"{name} must be at least {minimum:g}, got {raw!r}")
            return value

        guild = env.get("DEV_GUILD_ID", "").strip()
        if guild and not guild.isdigit():
            raise SettingsError(f"DEV_GUILD_ID must be a server id (digits), got {guild!r}")
        level = env.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
        if level not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
            raise SettingsError(f"LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL, got {level!r}")
        return cls(
            token=env.get("DISCORD_TOKEN", "").strip(),
            database_path=env.get("DATABASE_PATH", "").strip() or "sushibar.db",
            dev_guild_id=int(guild) if guild else None,
            log_level=level,
            turn_timeout=number("TURN_TIMEOUT_SECONDS", 300.0, 10.0),
        )


class SushiBar(commands.Bot):
    """The bot: owns the database and loads every cog in `setup_hook`."""

    def __init__(
        self, settings: Settings, *, extensions: Sequence[str] = EXTENSIONS, sync: bool = False
    ) -> None:
        intents = discord.Intents.default()  # no privileged intents: everything is slash commands and buttons
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None)
        self.settings = settings
        self.extensions_to_load = tuple(extensions)
        self.sync_on_start = sync
        self.database: Database

    async def setup_hook(self) -> None:
        self.database = await Database.open(self.settings.database_path)
        await self.tree.set_translator(CatalogTranslator())
        self.tree.on_error = answer_failure  # the one answer to every refused or failed slash command
        for extension in self.extensions_to_load:
            await self.load_extension(extension)
        # Buttons and selects decode their meaning from custom_id: old boards keep working after a restart.
        self.add_dynamic_items(TableButton, TableSelect)
        if self.sync_on_start:
            await self.tree.sync()
        elif self.settings.dev_guild_id is not None:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
            log.info("slash commands synced to development server %s", self.settings.dev_guild_id)

    async def close(self) -> None:
        await super().close()
        if hasattr(self, "database"):
            await self.database.close()


def create_bot(settings: Settings, **kwargs: object) -> SushiBar:
    """The one factory for the bot: production, `--sync` and the tests all use it."""
    return SushiBar(settings, **kwargs)  # type: ignore[arg-type]


DOTENV = Path(__file__).with_name(".env")


def read_settings(dotenv: Path) -> Settings:
    """The environment, completed by a .env file that never overrides what is already set."""
    load_dotenv(dotenv, override=False)
    return Settings.from_env(os.environ)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Sushi Bar: five sushi tabletop games on Discord")
    parser.add_argument("--sync", action="store_true", help="sync slash commands globally and exit")
    args = parser.parse_args(argv)

    try:
        settings = read_settings(DOTENV)
    except SettingsError as error:
        print(f"Sushi Bar cannot start: {error}. See .env.example.", file=sys.stderr)
        return 2
    if not settings.token:
        print(MISSING_TOKEN, file=sys.stderr)
        return 2
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)-8s %(name)s: %(message)s")
    bot = create_bot(settings, sync=args.sync)
    try:
        if args.sync:
            asyncio.run(_login_and_sync(bot))
            print("Slash commands synced globally; Discord may take a while to show them everywhere.")
        else:
            bot.run(settings.token, log_handler=None)
    except discord.LoginFailure:
        print(
            "Sushi Bar cannot start: Discord refused DISCORD_TOKEN. Reset the token and try again.",
            file=sys.stderr,
        )
        return 2
    return 0


async def _login_and_sync(bot: SushiBar) -> None:
    async with bot:
        await bot.login(bot.settings.token)  # login runs setup_hook, which syncs when told to


if __name__ == "__main__":
    sys.exit(main())
