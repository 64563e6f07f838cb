"""Timers: work due at a moment, and the table's turn deadlines on them.

`Alarms` is the one timer machinery: a heap of deadlines by key (a channel), each with its work, and
one sleeping task for the earliest, in memory. `Timers` puts the turn deadlines on it (time-outs,
computer moves). Those are stored with the table, so they survive a restart: `Tables.cog_load` arms
every pending one again (an expired one fires at once). A game's own short waits, such as Kaiten's
chopsticks window, use `Alarms` of their own and are forgotten by a restart.
"""

from __future__ import annotations

import asyncio
import heapq
import logging
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

from cogs.tables.context import now
from cogs.tables.gamecog import GameCog
from storage.settings import TURN_TIMEOUT_KEY, GuildSettings
from storage.tables import Deadline, TableRecord

log = logging.getLogger(__name__)

TIMEOUT_KEPT = 60.0  # seconds a server's turn time-out is kept before it is read again

Work = Callable[[], Awaitable[None]]
"""What is done when a deadline comes; it answers for its own failures (they are only logged here)."""


class Alarms:
    """At most one deadline per key (a channel), each with its work; re-arming a key replaces both.

    One sleeping task serves every key (a heap of deadlines, the earliest awaited): arming thousands of
    stored tables at start-up costs next to nothing, and the event loop (or a simulated one in tests)
    keeps one pending timer instead of one per key. Deadlines are wall-clock seconds, as `now()`.
    """

    def __init__(self) -> None:
        self._due: dict[int, tuple[float, Work]] = {}  # key -> its deadline and work
        self._heap: list[tuple[float, int]] = []  # (deadline, key), stale entries skipped lazily
        self._sleeper: asyncio.Task[None] | None = None
        self._scheduled_for: float | None = None
        self._firing: set[asyncio.Future[None]] = set()

    @property
    def armed(self) -> int:
        """How many deadlines are armed."""
        return len(self._due)

    def arm(self, key: int, deadline: float, work: Work) -> None:
        """Do `work` at `deadline` (at once if it has passed), instead of what `key` was armed with."""
        self._due[key] = (deadline, work)
        heapq.heappush(self._heap, (deadline, key))
        if len(self._heap) > 2 * len(self._due) + 64:  # many re-arms: drop the stale entries
            self._heap = [(due, key) for key, (due, _) in self._due.items()]
            heapq.heapify(self._heap)
        self._schedule()

    def disarm(self, key: int) -> None:
        """Forget `key`'s deadline; work already begun runs to its end."""
        if self._due.pop(key, None) is not None:  # its heap entry is dropped when it comes up
            self._schedule()

    def close(self) -> None:
        """Stop: nothing more is done, and work begun is cancelled."""
        if self._sleeper is not None:
            self._sleeper.cancel()
            self._sleeper = None
        for work in self._firing:
            work.cancel()
        self._due.clear()
        self._heap.clear()

    def _schedule(self) -> None:
        """Point the one sleeper at the earliest live deadline."""
        while self._heap and self._live(*self._heap[0]) is None:
            heapq.heappop(self._heap)  # re-armed or disarmed since
        earliest = self._heap[0][0] if self._heap else None
        if earliest == self._scheduled_for:
            return
        if self._sleeper is not None:
            self._sleeper.cancel()
            self._sleeper = None
        self._scheduled_for = earliest
        if earliest is not None:
            self._sleeper = asyncio.create_task(self._sleep(max(0.0, earliest - now())))

    def _live(self, deadline: float, key: int) -> Work | None:
        """The work of a heap entry that is still armed; None for a stale one."""
        entry = self._due.get(key)
        return entry[1] if entry is not None and entry[0] == deadline else None

    async def _sleep(self, delay: float) -> None:
        await asyncio.sleep(delay)
        # Awake: from here on a new deadline starts a new sleeper rather than cancelling this one.
        self._sleeper, self._scheduled_for = None, None
        moment = now()
        works = []
        while self._heap and self._heap[0][0] <= moment:
            deadline, key = heapq.heappop(self._heap)
            work = self._live(deadline, key)
            if work is None:
                continue  # re-armed or disarmed since
            del self._due[key]
            works.append(asyncio.ensure_future(self._fire(key, work)))
        self._schedule()
        if works:
            # The work runs to its end even when its key is meanwhile armed again: a computer that
            # thinks off the event loop commits or skips its move whole.
            self._firing.update(works)
            for work in works:
                work.add_done_callback(self._firing.discard)
            await asyncio.shield(asyncio.gather(*works))

    async def _fire(self, key: int, work: Work) -> None:
        try:
            await work()
        except Exception:
            log.exception("the work due in channel %s failed", key)


class Timers:
    """The turn deadlines: when a table must act by itself, armed from its record."""

    def __init__(
        self,
        settings: GuildSettings,
        default_timeout: float,
        on_deadline: Callable[[int], Awaitable[None]],
    ) -> None:
        self.settings = settings
        self.default_timeout = default_timeout
        self.on_deadline = on_deadline
        self._alarms = Alarms()
        self._timeouts: dict[int, tuple[float, float]] = {}  # guild -> (seconds, read again after)

    @property
    def armed(self) -> int:
        """How many tables have a deadline armed."""
        return self._alarms.armed

    async def turn_timeout(self, guild_id: int) -> float:
        """The server's turn time-out, read once a minute at most (every move arms a deadline with it;
        /settings timeout here forgets it at once, another process's within the minute)."""
        known = self._timeouts.get(guild_id)
        if known is not None and known[1] > now():
            return known[0]
        value = await self.settings.get(guild_id, TURN_TIMEOUT_KEY)
        seconds = float(value) if value else self.default_timeout
        self._timeouts[guild_id] = (seconds, now() + TIMEOUT_KEPT)
        return seconds

    def forget_timeout(self, guild_id: int) -> None:
        """The server chose another time-out: read it again at the next move."""
        self._timeouts.pop(guild_id, None)

    async def deadline(self, record: TableRecord, cog: GameCog, state: Any | None) -> float | None:
        """When the table must act next by itself: a computer's move, or an absent player's time-out."""
        if record.status != "playing" or state is None or cog.game.is_over(state):
            return None
        movers = cog.game.to_move(state)
        computers = [record.seats[seat] for seat in movers if record.seats[seat].computer]
        if computers:
            # Other seats' moves do not push a pending computer deadline back: in a real-time game a
            # fast human would otherwise keep a computer player from ever acting.
            pending = record.deadline if record.deadline is not None and record.deadline > now() else None
            delay = min(cog.computer_pace(seat.level or "normal", stand_in=seat.human) for seat in computers)
            return min(now() + delay, pending if pending is not None else float("inf"))
        return now() + await self.turn_timeout(record.guild_id)

    def arm(self, record: TableRecord | Deadline) -> None:
        """(Re)set the channel's deadline from the record; none when it has no deadline."""
        channel_id = record.channel_id
        if record.deadline is None or record.status != "playing":
            self._alarms.disarm(channel_id)
            return
        self._alarms.arm(channel_id, record.deadline, partial(self.on_deadline, channel_id))

    def close(self) -> None:
        self._alarms.close()
