"""Per-channel game tables, their append-only action log, and their Discord messages.

A `TableRecord` is everything the bot knows about one table. Saving a new
state, appending the action that produced it and (for the final move) the
results happen in ONE transaction, guarded by the version the writer loaded:
a stale writer is refused. Which Discord messages show a table (its board, each
seat's DM) is bookkeeping with rows of its own, so a move never overwrites it.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from typing import Any

import aiosqlite

from storage.database import Database
from storage.leaderboard import SeatResult, record_results

OPEN_STATUSES = ("lobby", "playing")


class StaleVersion(Exception):
    """Somebody else saved this table first; reload and judge again."""


class ChannelBusy(Exception):
    """The channel already has an open table."""


@dataclass
class Seat:
    user_id: int
    name: str
    computer: bool = False
    timeouts: int = 0  # time-outs in a row; three make the seat a computer player


@dataclass
class TableRecord:
    guild_id: int
    channel_id: int
    game_id: str
    host_id: int
    status: str = "lobby"
    seats: list[Seat] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)
    state: dict[str, Any] | None = None
    extra: dict[str, Any] = field(default_factory=dict)  # presentation settings fixed at opening (locale)
    deadline: float | None = None
    version: int = 0
    id: int | None = None
    created_at: float = 0.0
    updated_at: float = 0.0

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_STATUSES

    def seat_of(self, user_id: int) -> int | None:
        """The user's seat, also while a computer plays it (their next move takes it back)."""
        for index, seat in enumerate(self.seats):
            if seat.user_id == user_id:
                return index
        return None

    def copy(self) -> TableRecord:
        return dataclasses.replace(
            self,
            seats=[dataclasses.replace(seat) for seat in self.seats],
            options=json.loads(json.dumps(self.options)),
            state=self.state,  # replaced whole by every move, never edited in place
            extra=json.loads(json.dumps(self.extra)),
        )


_COLUMNS = (
    "id, guild_id, channel_id, game_id, host_id, status, version, seats, options, state, extra, "
    "deadline, created_at, updated_at"
)


def _record(row: aiosqlite.Row) -> TableRecord:
    return TableRecord(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        game_id=row["game_id"],
        host_id=row["host_id"],
        status=row["status"],
        version=row["version"],
        seats=[Seat(**seat) for seat in json.loads(row["seats"])],
        options=json.loads(row["options"]),
        state=json.loads(row["state"]) if row["state"] is not None else None,
        extra=json.loads(row["extra"]),
        deadline=row["deadline"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
    )


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


class TableStore:
    def __init__(self, database: Database) -> None:
        self.database = database

    async def create(self, record: TableRecord, now: float) -> TableRecord:
        """Insert a new open table; ChannelBusy if the channel already has one."""
        async with self.database.transaction() as connection:
            async with connection.execute(
                "SELECT 1 FROM game_tables WHERE channel_id = ? AND status IN ('lobby', 'playing')",
                (record.channel_id,),
            ) as cursor:
                if await cursor.fetchone():
                    raise ChannelBusy(record.channel_id)
            cursor = await connection.execute(
                "INSERT INTO game_tables (guild_id, channel_id, game_id, host_id, status, version, seats,"
                " options, state, extra, deadline, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?)",
                (
                    record.guild_id,
                    record.channel_id,
                    record.game_id,
                    record.host_id,
                    record.status,
                    _dumps([dataclasses.asdict(seat) for seat in record.seats]),
                    _dumps(record.options),
                    _dumps(record.state) if record.state is not None else None,
                    _dumps(record.extra),
                    record.deadline,
                    now,
                    now,
                ),
            )
            created = dataclasses.replace(
                record, id=cursor.lastrowid, version=0, created_at=now, updated_at=now
            )
        return created

    async def save(
        self,
        record: TableRecord,
        *,
        expected_version: int,
        action: dict[str, Any],
        seat: int | None,
        now: float,
        results: list[SeatResult] | None = None,
    ) -> None:
        """Write `record` as version expected_version + 1 and log `action`, atomically.

        `results` (the final move of a game) are recorded, with the ratings they move, in the same
        transaction: a finished game is never stored without its results, nor counted twice.
        """
        new_version = expected_version + 1
        async with self.database.transaction() as connection:
            cursor = await connection.execute(
                "UPDATE game_tables SET host_id = ?, status = ?, version = ?, seats = ?, options = ?,"
                " state = ?, extra = ?, deadline = ?, updated_at = ? WHERE id = ? AND version = ?",
                (
                    record.host_id,
                    record.status,
                    new_version,
                    _dumps([dataclasses.asdict(s) for s in record.seats]),
                    _dumps(record.options),
                    _dumps(record.state) if record.state is not None else None,
                    _dumps(record.extra),
                    record.deadline,
                    now,
                    record.id,
                    expected_version,
                ),
            )
            if cursor.rowcount != 1:
                raise StaleVersion(record.id)
            await connection.execute(
                "INSERT INTO actions (table_id, version, seat, action, at) VALUES (?, ?, ?, ?, ?)",
                (record.id, new_version, seat, _dumps(action), now),
            )
            if results:
                await record_results(
                    connection,
                    table_id=record.id or 0,
                    guild_id=record.guild_id,
                    game_id=record.game_id,
                    results=results,
                    now=now,
                )
        record.version = new_version
        record.updated_at = now

    # ------------------------------------------------------------ Discord messages of a table

    async def messages(self, table_id: int) -> dict[str, int | None]:
        """slot -> message id: 'board', and 'dm:<seat>' (None: that seat's DMs are closed)."""
        async with self.database.connection.execute(
            "SELECT slot, message_id FROM table_messages WHERE table_id = ?", (table_id,)
        ) as cursor:
            return {row["slot"]: row["message_id"] for row in await cursor.fetchall()}

    async def set_message(self, table_id: int, slot: str, message_id: int | None) -> None:
        async with self.database.transaction() as connection:
            await connection.execute(
                "INSERT INTO table_messages (table_id, slot, message_id) VALUES (?, ?, ?)"
                " ON CONFLICT (table_id, slot) DO UPDATE SET message_id = excluded.message_id",
                (table_id, slot, message_id),
            )

    async def open_table(self, channel_id: int) -> TableRecord | None:
        return await self._one(
            f"SELECT {_COLUMNS} FROM game_tables WHERE channel_id = ? AND status IN ('lobby', 'playing')",
            (channel_id,),
        )

    async def last_table(self, channel_id: int) -> TableRecord | None:
        """The newest table of a channel, open or not (for Rematch and status)."""
        return await self._one(
            f"SELECT {_COLUMNS} FROM game_tables WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel_id,)
        )

    async def every_table(self) -> list[TableRecord]:
        """Every table ever opened, oldest first (for tools and tests that read whole games)."""
        async with self.database.connection.execute(
            f"SELECT {_COLUMNS} FROM game_tables ORDER BY id"
        ) as cursor:
            return [_record(row) for row in await cursor.fetchall()]

    async def get(self, table_id: int) -> TableRecord | None:
        return await self._one(f"SELECT {_COLUMNS} FROM game_tables WHERE id = ?", (table_id,))

    async def with_deadlines(self) -> list[TableRecord]:
        """Open tables with a pending time-out, to re-arm their timers after a restart."""
        async with self.database.connection.execute(
            f"SELECT {_COLUMNS} FROM game_tables WHERE deadline IS NOT NULL"
            " AND status IN ('lobby', 'playing') ORDER BY deadline"
        ) as cursor:
            return [_record(row) for row in await cursor.fetchall()]

    async def actions(self, table_id: int) -> list[tuple[int, int | None, dict[str, Any]]]:
        """(version, seat, action) of a table, in the order they were accepted."""
        async with self.database.connection.execute(
            "SELECT version, seat, action FROM actions WHERE table_id = ? ORDER BY version", (table_id,)
        ) as cursor:
            return [
                (row["version"], row["seat"], json.loads(row["action"])) for row in await cursor.fetchall()
            ]

    async def last_action(self, table_id: int) -> tuple[int, int | None, dict[str, Any]] | None:
        """(version, seat, action) of the newest logged action of a table."""
        async with self.database.connection.execute(
            "SELECT version, seat, action FROM actions WHERE table_id = ? ORDER BY version DESC LIMIT 1",
            (table_id,),
        ) as cursor:
            row = await cursor.fetchone()
        return (row["version"], row["seat"], json.loads(row["action"])) if row else None

    async def _one(self, sql: str, params: tuple[Any, ...]) -> TableRecord | None:
        async with self.database.connection.execute(sql, params) as cursor:
            row = await cursor.fetchone()
        return _record(row) if row else None
