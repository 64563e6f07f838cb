"""Several bot processes on one database: which process does what.

A bot past one process runs shards (`SHARD_COUNT`, `SHARD_IDS`) in several processes that share one
PostgreSQL database. Discord sends a guild's events to the process running its shard, and every DM
to shard 0's, so a click for a table may reach any process. What keeps them right:

- Moves are serialised by the database: the version-guarded save lets one writer of a version win;
  a move judged on a cached table that another process has moved since is judged again on the
  stored one (`Pipeline.judged_fresh`), never applied twice.
- The process owning the table's guild (its shard) draws the board and the private hands; a move
  made elsewhere reaches it as a notification (LISTEN/NOTIFY), sent by the save's own transaction.
- A deadline (a time-out, a computer's move) is run by one process at a time, the holder of the
  table's timer lease in the database. A lease outlives its holder by at most `LEASE`: every
  process sweeps for overdue deadlines nobody holds, so a dead process's tables play on; the process
  that takes one over also draws that table (it "adopts" it) until another process moves it again.

With SQLite (one process) nothing here costs anything: the process owns every guild, no lease is
taken and nothing is listened to.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
from collections.abc import Awaitable, Callable

import discord

from cogs.tables.context import now
from storage.database import Database
from storage.tables import TableStore

log = logging.getLogger(__name__)

LEASE = 30.0  # seconds a deadline's lease lasts: longer than any deadline's work takes
SWEEP_EVERY = 10.0  # seconds between two looks for overdue deadlines nobody runs
GRACE = 5.0  # a deadline is swept only this long overdue: its arming process fires it first


class Cluster:
    """This process among the others: its shards, its name in leases, the sweep for lost deadlines."""

    def __init__(self, bot: discord.Client, database: Database, store: TableStore) -> None:
        self.bot = bot
        self.store = store
        # SQLite is one process (bot.py refuses SHARD_IDS without PostgreSQL); PostgreSQL may be shared.
        self.shared = database.backend == "postgres"
        # A lease names its holder: host and pid for an operator reading the table, and a random part
        # because two bots may run in one process (the tests' two processes do).
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        self._sweeper: asyncio.Task[None] | None = None
        # Tables whose overdue deadline this process took over: their owner seems gone, so this
        # process draws them until it hears of a move made elsewhere (the owner is back).
        self.adopted: set[int] = set()

    def owns(self, guild_id: int | None) -> bool:
        """Whether this process runs the shard of `guild_id` (Discord's rule: (id >> 22) % count)."""
        shard_ids = getattr(self.bot, "shard_ids", None)
        count = self.bot.shard_count
        if not shard_ids or not count or guild_id is None:
            return True  # unsharded, or every shard here
        return (guild_id >> 22) % count in shard_ids

    def shows(self, guild_id: int | None, channel_id: int) -> bool:
        """Whether this process draws the table's board and private hands."""
        return self.owns(guild_id) or channel_id in self.adopted

    async def claim(self, channel_id: int) -> bool:
        """Take the table's timer lease; False while another process holds it."""
        if not self.shared:
            return True
        moment = now()
        return await self.store.claim_timer(channel_id, self.owner, moment, moment + LEASE)

    async def release(self, channel_id: int) -> None:
        if self.shared:
            await self.store.release_timer(channel_id, self.owner)

    def start(self, on_due: Callable[[int], Awaitable[None]]) -> None:
        """Sweep for overdue deadlines nobody runs (their process died) and run them: `on_due`."""
        if self.shared and self._sweeper is None:
            self._sweep_later(on_due)

    def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            self._sweeper = None

    def _sweep_later(self, on_due: Callable[[int], Awaitable[None]]) -> None:
        # A task per sweep rather than one endless loop: each ends when its sweep is done, which is
        # what an event loop's observers (the tests' simulated clock among them) wait for.
        self._sweeper = asyncio.create_task(self._sweep(on_due))

    async def _sweep(self, on_due: Callable[[int], Awaitable[None]]) -> None:
        await asyncio.sleep(SWEEP_EVERY)
        try:
            moment = now()
            taken = await self.store.claim_due(self.owner, moment - GRACE, moment, moment + LEASE)
        except Exception:  # the database is away for a moment: look again next time
            log.warning("could not look for overdue deadlines", exc_info=True)
            taken = []
        self._sweep_later(on_due)  # not after a cancel (close): CancelledError passes the except
        if taken:
            log.info("taking over %d overdue table deadline(s): %s", len(taken), taken)
        for channel_id in taken:  # each with its lease already ours
            self.adopted.add(channel_id)
            try:
                await on_due(channel_id)
            except Exception:
                log.exception("an overdue deadline in channel %s failed", channel_id)
