"""The table machinery every game runs on (a discord.py extension: load it before any game cog).

    ui.py        restart-safe buttons and selects; Board, one rendered message
    context.py   TableContext: a table's record and live state, as a game cog sees it
    gamecog.py   GameCog: the base of each game's cog (its hooks, shared commands, builders)
    errors.py    Refusal and the one handler that answers every refusal or failure
    boards.py    the lobby, the results, a game's board with the table's own row
    lobby.py     what join, leave, start and cancel do to a record
    slots.py     which Discord messages show a table (board, DMs), stored apart from moves
    publish.py   posting and editing the public board
    private.py   hands by DM, ephemeral panels as fallback
    timers.py    turn deadlines and their timers
    pings.py     telling players it is their turn (a new message, a DM, or nothing)
    tasks.py     background work, kept until done and logged if it fails
    cache.py     the open tables in memory: loading, a lock per channel, idle tables leaving memory
    showing.py   what follows a move: board, announcements, results, private hands, pings, next timer
    moves.py     judging and committing a move, answering the interaction that made it
    following.py other processes sharing the database: their moves, their shards, gaps in listening
    deadlines.py time-outs and computer seats
    cluster.py   which process shows which guild and runs which deadline (heartbeats, leases)
    pipeline.py  Pipeline: the parts above put together, the one road every change of a table takes
    reach.py     the Tables cog found by name, for the modules below it
    tables.py    the Tables cog: lobby commands, clicks, status, Rematch — holding its Pipeline;
                 tables_of(bot), the typed way to reach it

Arrows point one way: game cogs -> this package -> storage, rules. Nothing here imports a game cog.
"""

from __future__ import annotations

from discord.ext import commands

from cogs.kit.services import services_of
from cogs.tables.tables import Tables, UsesTables, loaded_tables, tables_of

__all__ = ["Tables", "UsesTables", "loaded_tables", "setup", "tables_of"]


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Tables(bot, services_of(bot), bot.settings.turn_timeout))  # type: ignore[attr-defined]
