"""A server's seasons: which one is open, starting the next (now or when its schedule says), the list.

Season 0 is the time before a server's first season (every result recorded before seasons existed);
seasons 1, 2, ... are rows of `seasons`, the latest open. Starting a season ends the open one in the
same transaction; two processes starting the same next season at once insert it once, and only the
one that did reports it (and posts the podium). A schedule (monthly, quarterly) ends a season at the
first day of the next month or quarter, midnight UTC, after it started (or after the schedule was
set, for season 0).
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from typing import Any

from storage.database import Database, Executor
from storage.leaderboard import current_season
from storage.settings import SCHEDULE_KEY

SCHEDULES = ("never", "monthly", "quarterly")
MONTHS = {"monthly": 1, "quarterly": 3}


@dataclass(frozen=True)
class Season:
    guild_id: int
    number: int  # 0: before the server's first season
    started_at: float | None  # None for season 0
    ended_at: float | None  # None while open

    @property
    def open(self) -> bool:
        return self.ended_at is None


def next_boundary(every: str, after: float) -> float:
    """The first day of the month (monthly) or quarter (quarterly) after `after`, 00:00 UTC."""
    step = MONTHS[every]
    moment = dt.datetime.fromtimestamp(after, dt.UTC)
    month = (moment.month - 1) // step * step + step  # months since January of the next period start
    year = moment.year + month // 12
    return dt.datetime(year, month % 12 + 1, 1, tzinfo=dt.UTC).timestamp()


class Seasons:
    def __init__(self, database: Database) -> None:
        self.database = database

    async def current(self, guild_id: int) -> Season:
        """The server's open season (season 0 before its first)."""
        row = await self.database.fetch_one(
            "SELECT number, started_at, ended_at FROM seasons WHERE guild_id = ?"
            " ORDER BY number DESC LIMIT 1",
            (guild_id,),
        )
        return _season(guild_id, row) if row else Season(guild_id, 0, None, None)

    async def get(self, guild_id: int, number: int) -> Season | None:
        if number == 0:
            first = await self.database.fetch_one(
                "SELECT started_at FROM seasons WHERE guild_id = ? AND number = 1", (guild_id,)
            )
            return Season(guild_id, 0, None, first["started_at"] if first else None)
        row = await self.database.fetch_one(
            "SELECT number, started_at, ended_at FROM seasons WHERE guild_id = ? AND number = ?",
            (guild_id, number),
        )
        return _season(guild_id, row) if row else None

    async def all(self, guild_id: int) -> list[Season]:
        """Every season of the server, newest first, season 0 last."""
        rows = await self.database.fetch_all(
            "SELECT number, started_at, ended_at FROM seasons WHERE guild_id = ? ORDER BY number DESC",
            (guild_id,),
        )
        seasons = [_season(guild_id, row) for row in rows]
        first = seasons[-1].started_at if seasons else None
        return [*seasons, Season(guild_id, 0, None, first)]

    async def start(
        self, guild_id: int, now: float, *, after: int | None = None
    ) -> tuple[Season, Season] | None:
        """End the open season and start the next; `after`: only if the open one is still that one
        (a schedule's turn, which another process may have taken). Returns (ended, started), or None
        when the season had already moved on."""

        async def begin(executor: Executor) -> tuple[Season, Season] | None:
            open_number = await current_season(executor, guild_id)
            if after is not None and open_number != after:
                return None
            row = await executor.fetch_one(
                "INSERT INTO seasons (guild_id, number, started_at) VALUES (?, ?, ?)"
                " ON CONFLICT (guild_id, number) DO NOTHING RETURNING number",
                (guild_id, open_number + 1, now),
            )
            if row is None:
                return None
            await executor.execute(
                "UPDATE seasons SET ended_at = ? WHERE guild_id = ? AND number = ?",
                (now, guild_id, open_number),
            )
            started = await executor.fetch_one(
                "SELECT started_at FROM seasons WHERE guild_id = ? AND number = ?", (guild_id, open_number)
            )
            ended = Season(guild_id, open_number, started["started_at"] if started else None, now)
            return ended, Season(guild_id, open_number + 1, now, None)

        return await self.database.atomic(begin)

    async def due(self, now: float) -> list[tuple[int, int]]:
        """(guild, open season) of every server whose schedule ends its open season by `now`."""
        return [(guild, number) for guild, number, end in await self.scheduled() if end <= now]

    async def scheduled(self) -> list[tuple[int, int, float]]:
        """(guild, open season, when its schedule ends it) of every server with a schedule."""
        rows = await self.database.fetch_all(
            "SELECT guild_id, value FROM guild_settings WHERE key = ?", (SCHEDULE_KEY,)
        )
        found = []
        for row in rows:
            schedule = _schedule(row["value"])
            if schedule is not None:
                season = await self.current(row["guild_id"])
                found.append((row["guild_id"], season.number, ends_at(schedule, season)))
        return found


def ends_at(schedule: dict[str, Any], season: Season) -> float:
    """When a scheduled season ends: the period boundary after it started (or the schedule was set)."""
    since = max(float(schedule.get("since", 0)), season.started_at or 0.0)
    return next_boundary(str(schedule["every"]), since)


def _schedule(value: str) -> dict[str, Any] | None:
    schedule = json.loads(value)
    return schedule if isinstance(schedule, dict) and schedule.get("every") in MONTHS else None


def _season(guild_id: int, row: Any) -> Season:
    return Season(guild_id, int(row["number"]), row["started_at"], row["ended_at"])
