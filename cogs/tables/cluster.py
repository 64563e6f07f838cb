"""Several bot processes on one database: which process does what.

A bot past one process runs shards (`SHARD_COUNT`, `SHARD_IDS`) in several processes that share one
PostgreSQL database. Discord sends a guild's events to the process running its shard, and every DM
to shard 0's, so a click for a table may reach any process. What keeps them right:

- Moves are serialised by the database: the version-guarded save lets one writer of a version win;
  a move judged on a cached table that another process has moved since is judged again on the
  stored one (`Pipeline.judged_fresh`), never applied twice.
- The process running the table's guild (its shard) draws the board and the private hands; a move
  made elsewhere reaches it as a notification (LISTEN/NOTIFY), sent by the save's own transaction.
- A deadline (a time-out, a computer's move) is run by one process at a time, the holder of the
  table's timer lease in the database. A lease outlives its holder by at most `LEASE`: every
  process sweeps for overdue deadlines nobody holds, so a dead process's tables play on.
- Every process says in the database, every `SWEEP_EVERY`, that it is alive and which shards it
  runs. A shard nobody has run for `LEASE` (its process died) is shown by the others meanwhile:
  its tables' boards and hands follow the moves made through DMs and deadlines, until it is back.

With SQLite (one process) nothing here costs anything: the process owns every guild, no lease is
taken, nothing is listened to and no heartbeat is written.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import discord
from discord.ext import tasks

from cogs.tables.context import now
from storage.database import Database
from storage.processes import Processes
from storage.tables import TableStore

log = logging.getLogger(__name__)

LEASE = 30.0  # seconds a lease or a heartbeat lasts: longer than any deadline's work takes
SWEEP_EVERY = 10.0  # seconds between two heartbeats, each with a look for deadlines nobody runs
GRACE = 5.0  # a deadline is swept only this long overdue: its arming process fires it first

OnDue = Callable[[int], Awaitable[None]]
OnOrphaned = Callable[[frozenset[int]], Awaitable[None]]


class Cluster:
    """This process among the others: its shards, its name in leases, the heartbeat and the sweep."""

    def __init__(self, bot: discord.Client, database: Database, store: TableStore, owner: str) -> None:
        self.bot = bot
        self.store = store
        self.processes = Processes(database)
        # Leases and heartbeats only where other processes may share the database (bot.py refuses
        # SHARD_IDS without such a one).
        self.shared = database.shared
        self.owner = owner  # as `process_name()` gives it; the store signs its notifications so too
        self.orphaned: frozenset[int] = frozenset()  # shards no live process runs: shown from here
        self._since: float | None = None  # when this process first said it is here
        self._on_due: OnDue | None = None
        self._on_orphaned: OnOrphaned | None = None
        self._running: set[asyncio.Task[None]] = set()  # the overdue deadlines a sweep took, being run

    @property
    def shard_count(self) -> int:
        return self.bot.shard_count or 1

    @property
    def shard_ids(self) -> tuple[int, ...]:
        ids = getattr(self.bot, "shard_ids", None)
        return tuple(ids) if ids else tuple(range(self.shard_count))

    def shard_of(self, guild_id: int) -> int:
        return (guild_id >> 22) % self.shard_count  # Discord's rule

    def owns(self, guild_id: int | None) -> bool:
        """Whether this process runs the shard of `guild_id`."""
        return guild_id is None or self.shard_of(guild_id) in self.shard_ids

    def shows(self, guild_id: int | None) -> bool:
        """Whether this process draws the tables of `guild_id`: its own shards', and those of shards
        whose process is gone."""
        return self.owns(guild_id) or self.shard_of(guild_id or 0) in self.orphaned

    # ------------------------------------------------------------ leases

    async def claim(self, channel_id: int) -> bool:
        """Take the table's timer lease; False while another process holds it."""
        if not self.shared:
            return True
        moment = now()
        return await self.store.claim_timer(channel_id, self.owner, moment, moment + LEASE)

    async def release(self, channel_id: int) -> None:
        if self.shared:
            await self.store.release_timer(channel_id, self.owner)

    # ------------------------------------------------------------ heartbeat and sweep

    async def start(self, on_due: OnDue, on_orphaned: OnOrphaned) -> None:
        """Say this process is here (others see it at once), then every SWEEP_EVERY: say it again,
        take up the shards that lost their process (`on_orphaned`), and run the overdue deadlines
        nobody runs (`on_due`)."""
        if not self.shared or self._sweep.is_running():
            return
        self._on_due, self._on_orphaned = on_due, on_orphaned
        await self._heartbeat()
        self._sweep.change_interval(seconds=SWEEP_EVERY)  # as the module says now (a bench lengthens it)
        self._sweep.start()

    def close(self) -> None:
        """No more heartbeats. The others take up this process's shards only once its heartbeat has
        run out (LEASE): a restart, quicker than that, leaves no trace."""
        self._sweep.cancel()
        for task in list(self._running):
            task.cancel()

    async def leave(self) -> None:
        """This process is stopping: its heartbeat ends and its timer leases are given up, so another
        process of the cluster takes its shards and deadlines at once instead of after LEASE. (A
        restart finds the deadlines in storage either way.)"""
        self.close()
        if not self.shared:
            return
        released = await self.store.release_timers(self.owner)
        await self.processes.leave(self.owner)
        log.info("left the cluster: gave up %d timer lease(s)", released)

    @tasks.loop(seconds=SWEEP_EVERY)
    async def _sweep(self) -> None:
        if self._sweep.current_loop == 0:
            return  # start() said this process is here just now: the first look is due SWEEP_EVERY later
        taken: list[int] = []
        try:
            await self._heartbeat()
            moment = now()
            taken = await self.store.claim_due(self.owner, moment - GRACE, moment, moment + LEASE)
        except Exception:  # the database is away for a moment: look again next time
            log.warning("could not look after the other processes", exc_info=True)
        if taken:
            log.info("taking over %d overdue table deadline(s): %s", len(taken), taken)
            # Run beside the loop: slow deadlines do not hold up the next heartbeat.
            task = asyncio.create_task(self._run_due(taken))
            self._running.add(task)
            task.add_done_callback(self._running.discard)

    async def _run_due(self, taken: list[int]) -> None:
        assert self._on_due is not None, "set by start()"
        for channel_id in taken:  # each with its lease already ours
            try:
                await self._on_due(channel_id)
            except Exception:
                log.exception("an overdue deadline in channel %s failed", channel_id)

    async def _heartbeat(self) -> None:
        moment = now()
        await self.processes.beat(self.owner, self.shard_count, self.shard_ids, moment)
        alive = await self.processes.alive(since=moment - LEASE)
        self._since = self._since if self._since is not None else moment
        if moment - self._since < LEASE:
            return  # just started: processes starting with this one may not have said so yet
        covered = {
            shard
            for process in alive
            if process.shard_count == self.shard_count
            for shard in process.shard_ids
        }
        orphaned = frozenset(range(self.shard_count)) - covered
        lost, back = orphaned - self.orphaned, self.orphaned - orphaned
        self.orphaned = orphaned
        if back:
            log.info("shard(s) %s are back with their own process", sorted(back))
        if lost:
            log.warning("shard(s) %s have no process: showing their tables from here", sorted(lost))
            if self._on_orphaned is not None:
                await self._on_orphaned(lost)
