"""The one road every change of a table takes, put together from its parts, one job each:

    cache.py      the open tables in memory, a lock per channel, idle tables leaving memory
    moves.py      judging and committing a move, answering the interaction that made it
    showing.py    what follows a move: board, announcements, results, private hands, pings, timer
    threads.py    a table's thread, and its line in the text channel
    deadlines.py  time-outs and computer seats
    following.py  other processes sharing the database: their moves, their shards, a gap in listening

The Tables cog (`tables.py`) holds one `Pipeline`; the parts reach each other only through the
public methods they are given here.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable

from discord.ext import commands

from cogs.kit.services import Services
from cogs.tables.cache import OpenTables
from cogs.tables.cluster import Cluster
from cogs.tables.context import TableContext
from cogs.tables.deadlines import Deadlines
from cogs.tables.following import Following
from cogs.tables.gamecog import GameCog
from cogs.tables.moves import Moves
from cogs.tables.pings import Pinger
from cogs.tables.private import PrivateHands
from cogs.tables.publish import Publisher
from cogs.tables.showing import Showing
from cogs.tables.slots import MessageSlots
from cogs.tables.tasks import Background
from cogs.tables.threads import ChannelLines
from cogs.tables.timers import Timers

log = logging.getLogger(__name__)


class Pipeline:
    """Loads tables, judges and commits moves, and sets off everything a committed move changes."""

    def __init__(self, bot: commands.Bot, services: Services, default_timeout: float) -> None:
        self.database = database = services.database
        owner = services.process
        self.store = services.tables
        self.guild_settings = services.guild_settings
        self.player_settings = services.player_settings
        self.leaderboard = services.leaderboard
        self.games: dict[str, GameCog] = {}
        self.tasks = Background()
        self.slots = slots = MessageSlots(self.store)
        self.private = PrivateHands(bot, slots, self.games)
        # The cache, the publisher and the timers call back into parts built after them.
        self.cache = OpenTables(
            self.store,
            self.games,
            first_sight=self._first_sight,
            evicted=self._left_memory,
        )
        self.publisher = Publisher(bot, slots, self.games, self.cache.latest)
        self.lines = ChannelLines(bot, slots, self.games, self.tasks, self.guild_settings)
        self.publisher.followers.append(self.lines.follow)
        self.timers = Timers(self.guild_settings, default_timeout, self._on_deadline)
        self.pinger = Pinger(
            bot, self.guild_settings, self.player_settings, slots, self.cache.latest, self.tasks
        )
        self.cluster = Cluster(bot, database, self.store, owner)
        self.showing = Showing(
            self.games,
            self.publisher,
            self.private,
            self.pinger,
            self.timers,
            self.cluster,
            self.tasks,
            self.lines,
        )
        self.moves = Moves(
            self.cache,
            self.games,
            self.store,
            self.guild_settings,
            self.timers,
            self.publisher,
            self.private,
            self.showing,
        )
        self.following = Following(
            self.cache,
            self.games,
            self.store,
            self.cluster,
            self.timers,
            self.publisher,
            self.showing,
            self.tasks,
        )
        self.deadlines = Deadlines(
            self.cache,
            self.games,
            self.cluster,
            self.timers,
            self.publisher,
            self.moves,
            self.following,
            self.showing,
        )

    def _first_sight(self, ctx: TableContext, ping: bool) -> None:
        self.showing.first_sight(ctx, ping)

    def _left_memory(self, channel_id: int) -> None:
        """An idle table left the cache: so do its private drawings and what its game kept for it."""
        self.private.forget_drawings(channel_id)
        for cog in self.games.values():
            cog.forget(channel_id)

    async def _on_deadline(self, channel_id: int) -> None:
        await self.deadlines.on_deadline(channel_id)

    async def drain(self, within: float) -> bool:
        """The bot is stopping (bot.py, on SIGTERM or SIGINT; no new clicks come in): the moves being
        made finish under their channel locks, the board edits still waiting are made, the background
        work (hands, follow-ups) ends, and the table timers are handed over (`Cluster.leave`). At most
        `within` seconds; True when everything was done in time."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + within
        left = lambda: max(0.0, deadline - loop.time())  # noqa: E731
        done = await _within(self.cache.settled(), left())
        # A move that held a lock goes on with its follow-up (board request, hands) right after it.
        done = await _within(self.tasks.idle(), left()) and done
        done = await self.publisher.flush(left()) and done
        done = await _within(self.tasks.idle(), left()) and done
        self.timers.close()  # the deadlines are stored: a restart (or another process) arms them
        try:
            await asyncio.wait_for(self.cluster.leave(), max(0.5, left()))
        except Exception:  # the leases run out by themselves (LEASE): only a delay for the others
            log.warning("could not hand the table timers over", exc_info=True)
            done = False
        self.close()  # what is left (pings, sweeps) would only reach for a closed connection
        return done

    def close(self) -> None:
        """Stop everything that runs by itself: heartbeats, idle sweeps, timers, board edits, pings,
        background work."""
        self.cluster.close()
        self.cache.close()
        self.timers.close()
        self.publisher.close()
        self.pinger.close()
        self.tasks.cancel()


async def _within(work: Awaitable[None], seconds: float) -> bool:
    """Wait for `work` at most `seconds`; whether it ended in time (it is cancelled otherwise)."""
    try:
        await asyncio.wait_for(work, seconds)
    except TimeoutError:
        return False
    return True
