"""The table machinery every game runs on (a discord.py extension: load it before any game cog): the
Tables cog and the pipeline of parts, one job each, that open tables, judge and commit moves and show
what follows. docs/ARCHITECTURE.md, "The table machinery", names each module's job.

Arrows point one way: game cogs -> this package -> the kit, storage, rules. Nothing here imports a game.
"""

from __future__ import annotations

from discord.ext import commands

from cogs.kit.services import services_of
from cogs.tables.tables import Tables, UsesTables, loaded_tables, tables_of

__all__ = ["Tables", "UsesTables", "loaded_tables", "setup", "tables_of"]


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Tables(bot, services_of(bot), bot.settings.turn_timeout))  # type: ignore[attr-defined]
