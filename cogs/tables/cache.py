"""The open tables in memory: loaded from the database on first use, a lock per channel, and idle
tables leaving memory.

An open table stays in memory while it is played; one idle for `IDLE_EVICT` leaves it (its timer
keeps only the channel id) and is read again on its next click or deadline. Loaded again unchanged,
it is not re-synced: only a table met for the first time in this process (after a restart) has its
board, hands and pings brought up to date (`first_sight`).
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from discord.ext import tasks

from cogs.tables.context import TableContext, now
from cogs.tables.gamecog import GameCog
from storage.tables import TableRecord, TableStore

IDLE_EVICT = 600.0  # seconds without a move or a click before an open table leaves memory
SWEEP_EVERY = 60.0  # seconds between two looks for idle tables while any table is in memory

FirstSight = Callable[[TableContext, bool], None]
"""Brings a table met for the first time up to date (and, if True, pings whoever owes a move)."""


@dataclass
class Loaded:
    """A table as this process holds it: its record and its game state (None in the lobby)."""

    record: TableRecord
    state: Any | None
    views: dict[int | None, Any] = field(default_factory=dict, repr=False, compare=False)
    """The state's views drawn so far (`TableContext.public`, `private`): the state never changes."""


class OpenTables:
    """The cache of open tables by channel. Read `loaded`; change it only through the methods here."""

    def __init__(
        self,
        store: TableStore,
        games: dict[str, GameCog],
        *,
        first_sight: FirstSight,
        evicted: Callable[[int], None],
    ) -> None:
        self.store = store
        self.games = games
        self.first_sight = first_sight
        self.on_evict = evicted  # what else forgets an evicted table (its private drawings)
        self.loaded: dict[int, Loaded] = {}
        self._locks: dict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._used: dict[int, float] = {}  # when each loaded table was last used
        self._evicted: dict[int, int] = {}  # tables that left memory idle: the version they left at
        self._closed = False  # the bot is closing: no sweeping starts again

    def lock(self, channel_id: int) -> asyncio.Lock:
        """The channel's lock: every change of its table is made holding it."""
        return self._locks[channel_id]

    def cached(self, channel_id: int) -> Loaded | None:
        """The channel's table if it is in memory (never read from the database)."""
        return self.loaded.get(channel_id)

    # ================================================================ loading

    def context_of(self, loaded: Loaded) -> TableContext:
        return TableContext(loaded.record, self.games[loaded.record.game_id].game, loaded.state, loaded.views)

    def state_of(self, record: TableRecord) -> Any | None:
        return self.games[record.game_id].game.load(record.state) if record.state is not None else None

    async def load(self, channel_id: int, *, ping: bool = True) -> Loaded | None:
        """The open table of a channel, from the cache or the database. Met for the first time, its
        messages are brought up to date, and (`ping`) whoever owes a move is told again."""
        cached = self.loaded.get(channel_id)
        if cached is not None:
            self._touch(channel_id)
            return cached
        record = await self.store.open_table(channel_id)
        cached = self.loaded.get(channel_id)  # another caller loaded it meanwhile: theirs stands
        if cached is not None:
            return cached
        if record is None or record.game_id not in self.games:
            return None
        loaded = Loaded(record, self.state_of(record))
        self.loaded[channel_id] = loaded
        self._touch(channel_id)
        left_at = self._evicted.pop(channel_id, None)
        if record.status == "playing" and left_at != record.version:
            # First contact in this process: the board and private controls may show an older state
            # (the last process may have died between a commit and its edits). A table that left
            # memory idle and comes back unchanged shows its state already.
            self.first_sight(self.context_of(loaded), ping)
        return loaded

    async def context(self, channel_id: int) -> TableContext | None:
        loaded = await self.load(channel_id)
        return self.context_of(loaded) if loaded else None

    async def latest(self, channel_id: int) -> TableContext | None:
        """The channel's open table, else its last one (a finished board still gets its final edit)."""
        loaded = self.loaded.get(channel_id)
        if loaded is None:
            record = await self.store.last_table(channel_id)
            if record is None or record.game_id not in self.games:
                return None
            loaded = Loaded(record, self.state_of(record))
        return self.context_of(loaded)

    # ================================================================ what a change does to the cache

    def put(self, loaded: Loaded) -> None:
        """A table just created here (a new lobby)."""
        self.loaded[loaded.record.channel_id] = loaded

    def remember(self, loaded: Loaded) -> None:
        """The table as a commit left it: kept while open, gone once over."""
        channel_id = loaded.record.channel_id
        if loaded.record.is_open:
            self.loaded[channel_id] = loaded
            self._touch(channel_id)
        else:
            self.loaded.pop(channel_id, None)
            self._used.pop(channel_id, None)
            self._evicted.pop(channel_id, None)

    def drop(self, channel_id: int) -> None:
        """Another writer was first: the table is read again next time."""
        self.loaded.pop(channel_id, None)

    def forget(self, channel_id: int, version: int | None) -> None:
        """Drop a cached table another process moved. Read again, it is not re-synced as after a
        restart (`load`): the moving process and the owner of its guild look after its messages."""
        self.loaded.pop(channel_id, None)
        self._used.pop(channel_id, None)
        if version is not None:
            self._evicted[channel_id] = version

    def meet_anew(self, channel_id: int) -> None:
        """Forget the table and that it was ever here: read again, it is brought up to date."""
        self.loaded.pop(channel_id, None)
        self._evicted.pop(channel_id, None)

    # ================================================================ idle tables leave memory

    def _touch(self, channel_id: int) -> None:
        """The table is in use. Idle ones are looked for every SWEEP_EVERY while any table is in
        memory: no timer ticks once they have all left."""
        self._used[channel_id] = now()
        if not self._closed and not self._sweep.is_running():
            self._sweep.start()

    async def settled(self) -> None:
        """Wait until no move holds a channel lock: each one held is waited for, taken and given back."""
        for lock in list(self._locks.values()):
            if lock.locked():
                async with lock:
                    pass

    def close(self) -> None:
        """No more looks for idle tables."""
        self._closed = True
        self._sweep.cancel()

    @tasks.loop(seconds=SWEEP_EVERY)
    async def _sweep(self) -> None:
        self.evict_idle()
        if not self.loaded:
            self._sweep.stop()  # the next table loaded starts it again

    def evict_idle(self, idle: float = IDLE_EVICT) -> list[int]:
        """Tables unused for `idle` seconds leave memory (not one a move holds); returns their channels.

        Its deadline timer keeps only the channel id, and the next click or deadline reads it again."""
        cutoff = now() - idle
        evicted = []
        for channel_id in list(self.loaded):
            if self._used.setdefault(channel_id, now()) > cutoff:
                continue
            lock = self._locks.get(channel_id)
            if lock is not None and (lock.locked() or getattr(lock, "_waiters", None)):
                continue  # held, or handed to a waiter that has not resumed yet
            loaded = self.loaded.pop(channel_id)
            del self._used[channel_id]
            self._locks.pop(channel_id, None)
            self._evicted[channel_id] = loaded.record.version
            self.on_evict(channel_id)
            evicted.append(channel_id)
        return evicted
