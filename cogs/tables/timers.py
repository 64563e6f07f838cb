"""Turn deadlines: when the next time-out or computer move is due, and a timer per channel for it.

Deadlines are stored with the table, so they survive a restart: `Tables.cog_load` arms every
pending one again (an expired one fires at once).
"""

from __future__ import annotations

import asyncio
import heapq
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from cogs.tables.context import now
from cogs.tables.gamecog import GameCog
from storage.settings import GuildSettings
from storage.tables import Deadline, TableRecord

log = logging.getLogger(__name__)

TURN_TIMEOUT_KEY = "turn_timeout"


class Timers:
    def __init__(
        self,
        settings: GuildSettings,
        default_timeout: float,
        on_deadline: Callable[[int], Awaitable[None]],
    ) -> None:
        self.settings = settings
        self.default_timeout = default_timeout
        self.on_deadline = on_deadline
        self._due: dict[int, float] = {}  # channel -> its deadline
        self._heap: list[tuple[float, int]] = []  # (deadline, channel), stale entries skipped lazily
        self._sleeper: asyncio.Task[None] | None = None
        self._scheduled_for: float | None = None
        self._firing: set[asyncio.Future[None]] = set()

    async def turn_timeout(self, guild_id: int) -> float:
        value = await self.settings.get(guild_id, TURN_TIMEOUT_KEY)
        return float(value) if value else self.default_timeout

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
        """(Re)set the channel's deadline from the record; none when it has no deadline.

        One sleeping task serves every table (a heap of deadlines, the earliest awaited): arming
        thousands of stored tables at start-up costs next to nothing, and the event loop (or a
        simulated one in tests) keeps one pending timer instead of one per table.
        """
        channel_id = record.channel_id
        if record.deadline is None or record.status != "playing":
            self._due.pop(channel_id, None)  # its heap entry is dropped when it comes up
            return
        self._due[channel_id] = record.deadline
        heapq.heappush(self._heap, (record.deadline, channel_id))
        if len(self._heap) > 2 * len(self._due) + 64:  # many re-arms: drop the stale entries
            self._heap = [(deadline, channel) for channel, deadline in self._due.items()]
            heapq.heapify(self._heap)
        self._schedule()

    def close(self) -> None:
        if self._sleeper is not None:
            self._sleeper.cancel()
            self._sleeper = None
        for work in self._firing:
            work.cancel()
        self._due.clear()
        self._heap.clear()

    def _schedule(self) -> None:
        """Point the one sleeper at the earliest live deadline."""
        while self._heap and self._due.get(self._heap[0][1]) != self._heap[0][0]:
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

    async def _sleep(self, delay: float) -> None:
        await asyncio.sleep(delay)
        # Awake: from here on a new deadline starts a new sleeper rather than cancelling this one.
        self._sleeper, self._scheduled_for = None, None
        moment = now()
        works = []
        while self._heap and self._heap[0][0] <= moment:
            deadline, channel_id = heapq.heappop(self._heap)
            if self._due.get(channel_id) != deadline:
                continue  # re-armed or disarmed since
            del self._due[channel_id]
            works.append(asyncio.ensure_future(self._fire(channel_id)))
        self._schedule()
        if works:
            # The work runs to its end even when a move meanwhile re-arms the channel: a computer
            # that thinks off the event loop commits or skips its move whole.
            self._firing.update(works)
            for work in works:
                work.add_done_callback(self._firing.discard)
            await asyncio.shield(asyncio.gather(*works))

    async def _fire(self, channel_id: int) -> None:
        try:
            await self.on_deadline(channel_id)
        except Exception:
            log.exception("time-out handling failed in channel %s", channel_id)
