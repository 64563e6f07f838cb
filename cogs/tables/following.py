"""Following the other processes sharing one PostgreSQL database (`cluster.py`).

A move judged on a cached table that another process has moved since is judged again on the stored
one (`judged_fresh`). Moves made elsewhere are heard by notification (`heard`): the cached table is
forgotten and, if this process shows the table's guild, its board and private hands are redrawn.
Shards whose process died are taken up (`take_up`); after a gap in listening, the cached tables are
checked against the stored ones (`missed`).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

import discord

from cogs.kit.errors import Refusal
from cogs.tables.cache import OpenTables
from cogs.tables.cluster import Cluster
from cogs.tables.context import now
from cogs.tables.gamecog import GameCog
from cogs.tables.publish import Publisher
from cogs.tables.showing import Showing
from cogs.tables.tasks import Background
from cogs.tables.timers import Timers
from rules.engine import IllegalAction
from storage.tables import StaleVersion, TableStore

log = logging.getLogger(__name__)

RECOVER_RECENT = 3600.0  # seconds: tables active this recently are redrawn by a new process
JUDGEMENTS = 3  # times a request is judged before "out of date": each retry follows another process's move

T = TypeVar("T")


class Following:
    """Keeps this process's cached tables and messages in step with other processes' moves."""

    def __init__(
        self,
        cache: OpenTables,
        games: dict[str, GameCog],
        store: TableStore,
        cluster: Cluster,
        timers: Timers,
        publisher: Publisher,
        showing: Showing,
        tasks: Background,
    ) -> None:
        self.cache = cache
        self.games = games
        self.store = store
        self.cluster = cluster
        self.timers = timers
        self.publisher = publisher
        self.showing = showing
        self.tasks = tasks

    async def judged_fresh(
        self,
        channel_id: int,
        judge: Callable[[], Awaitable[T]],
        interaction: discord.Interaction | None = None,
    ) -> T:
        """`judge()` a request; when another process sharing the database moved the table since it was
        cached, a refusal or a stale write is judged again on the stored table. A click that was right
        is never refused for this process's stale memory, nor applied twice (the version guard)."""
        for judgement in range(1, JUDGEMENTS + 1):
            try:
                return await judge()
            except (StaleVersion, Refusal, IllegalAction) as error:
                last = judgement == JUDGEMENTS or (interaction is not None and interaction.response.is_done())
                if last:
                    raise  # a stale write is answered "out of date", honestly
                # Another writer was first (its save dropped the cache), or the cache was behind.
                if not isinstance(error, StaleVersion) and not await self.moved_elsewhere(channel_id):
                    raise
        raise AssertionError("unreachable: the last judgement returns or raises")

    async def moved_elsewhere(self, channel_id: int) -> bool:
        """Whether the cached table is behind the stored one (it is dropped then). One process alone
        writes everything it caches: then never, and without asking the database."""
        if not self.cluster.shared:
            return False
        cached = self.cache.cached(channel_id)
        if cached is None:
            return False  # judged on the stored table already
        stored = await self.store.version_of(channel_id)
        if stored is not None and stored == cached.record.version:
            return False
        self.cache.forget(channel_id, stored)
        return True

    def heard(self, payload: str) -> None:
        """A table moved (a notification from the database, maybe this process's own save)."""
        try:
            channel, version_text, guild, *origin = payload.split()
            channel_id, version, guild_id = int(channel), int(version_text), int(guild)
        except ValueError:
            log.warning("ignoring a table notification that is not 'channel version guild': %r", payload)
            return
        if origin == [self.cluster.owner]:
            return  # this process's own save
        cached = self.cache.cached(channel_id)
        if cached is not None and cached.record.version >= version:
            return  # this process's own move, or old news
        if cached is None and not self.cluster.shows(guild_id):
            return  # neither cached here nor shown from here
        self.tasks.schedule(self._follow(channel_id, version, guild_id))

    async def take_up(self, shards: frozenset[int]) -> None:
        """Shards lost their process: their tables are shown from here now. Those played lately are
        brought up to date at once (the process may have died between a commit and its edits) and
        their timers armed; an older one catches up at its next move, its deadline swept up."""
        for channel_id, guild_id in await self.store.playing_channels(updated_since=now() - RECOVER_RECENT):
            if self.cluster.shard_of(guild_id) not in shards:
                continue
            async with self.cache.lock(channel_id):
                self.cache.meet_anew(channel_id)  # `load` redraws what it shows
                # Pings the dead process still owed go out from here (none twice: they are claimed).
                loaded = await self.cache.load(channel_id)
            if loaded is not None:
                self.timers.arm(loaded.record)

    def missed(self) -> None:
        """Listening was interrupted: the cached tables are checked against the stored ones."""
        self.tasks.schedule(self._catch_up())

    async def _catch_up(self) -> None:
        for channel_id, cached in list(self.cache.loaded.items()):
            stored = await self.store.version_of(channel_id)
            if stored != cached.record.version:  # moved elsewhere meanwhile (or over: None)
                version = stored if stored is not None else cached.record.version + 1
                await self._follow(channel_id, version, cached.record.guild_id)

    async def _follow(self, channel_id: int, version: int, guild_id: int) -> None:
        """Another process moved the table: forget the cached one; the guild's owner redraws."""
        async with self.cache.lock(channel_id):  # after a save of ours whose notification overtook it
            cached = self.cache.cached(channel_id)
            if cached is not None and cached.record.version >= version:
                return
            self.cache.forget(channel_id, version)
            if not self.cluster.shows(guild_id):
                return
            loaded = await self.cache.load(channel_id)
        self.publisher.request(channel_id)  # the board, or the results board of a finished game
        if loaded is None:
            return
        cog = self.games[loaded.record.game_id]
        if cog.private_mode != "none" and loaded.record.status == "playing":
            self.showing.sync_private(self.cache.context_of(loaded))
        self.timers.arm(loaded.record)  # the mover's timer too: the lease lets one of them run it
