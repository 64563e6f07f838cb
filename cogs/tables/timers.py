"""Turn deadlines: when the next time-out or computer move is due, and a timer per channel for it.

Deadlines are stored with the table, so they survive a restart: `Tables.cog_load` arms every
pending one again (an expired one fires at once).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from cogs.tables.context import now
from cogs.tables.gamecog import GameCog
from storage.settings import GuildSettings
from storage.tables import TableRecord

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
        self._timers: dict[int, asyncio.Task[None]] = {}

    async def turn_timeout(self, guild_id: int) -> float:
        value = await self.settings.get(guild_id, TURN_TIMEOUT_KEY)
        return float(value) if value else self.default_timeout

    async def deadline(self, record: TableRecord, cog: GameCog, state: Any | None) -> float | None:
        """When the table must act next by itself: a computer's move, or an absent player's time-out."""
        if record.status != "playing" or state is None or cog.game.is_over(state):
            return None
        movers = cog.game.to_move(state)
        if any(record.seats[seat].computer for seat in movers):
            # Other seats' moves do not push a pending computer deadline back: in a real-time game a
            # fast human would otherwise keep a computer player from ever acting.
            pending = record.deadline if record.deadline is not None and record.deadline > now() else None
            return min(now() + cog.computer_delay, pending if pending is not None else float("inf"))
        return now() + await self.turn_timeout(record.guild_id)

    def arm(self, record: TableRecord) -> None:
        """(Re)start the channel's timer for the record's deadline; none when it has no deadline."""
        channel_id = record.channel_id
        timer = self._timers.pop(channel_id, None)
        if timer is not None and timer is not asyncio.current_task():
            timer.cancel()
        if record.deadline is not None and record.status == "playing":
            self._timers[channel_id] = asyncio.create_task(self._wait(channel_id, record.deadline))

    def close(self) -> None:
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()

    async def _wait(self, channel_id: int, deadline: float) -> None:
        await asyncio.sleep(max(0.0, deadline - now()))
        try:
            await self.on_deadline(channel_id)
        except Exception:
            log.exception("time-out handling failed in channel %s", channel_id)
