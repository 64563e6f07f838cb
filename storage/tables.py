"""Per-channel game tables, their append-only action log, and their Discord messages.

A `TableRecord` is everything the bot knows about one table. Saving a new
state, appending the action that produced it and (for the final move) the
results happen in ONE transaction, guarded by the version the writer loaded:
a stale writer is refused. Which Discord messages show a table (its board, each
seat's DM, the live turn ping) is bookkeeping with rows of its own, so a move never overwrites it.

Several processes may share the database (PostgreSQL): every committed save announces the table's
new version on `TABLES_CHANNEL`, so a process showing the table refreshes it, and a table's timer is
run by the one process holding its lease (`claim_timer`, `claim_due`), taken over once it expires.
"""

from __future__ import annotations

import dataclasses
import functools
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from storage.database import Conflict, Database, Executor, Row
from storage.leaderboard import SeatResult, record_results

OPEN_STATUSES = ("lobby", "playing")
# Notified once per committed save: "<channel_id> <version> <guild_id>[ <origin>]".
TABLES_CHANNEL = "sushibar_tables"
# A timer lease that is free: nobody's, or run out (its holder stopped renewing it: it died).
_LEASE_FREE = "(lease_owner IS NULL OR lease_until IS NULL OR lease_until <= ?)"
_CLAIMABLE = f"({_LEASE_FREE} OR lease_owner = ?)"  # a claimer may also renew its own
# table_messages rows of turn pings (migration 009): a live ping message, and a seat pinged this turn.
LIVE_PING = "ping:"
PINGED = "pinged:"


# A move's two writes: the table's new state, guarded by the version its writer loaded (no row
# changed: another writer was first), and its line in the action log.
_UPDATE = (
    "UPDATE game_tables SET host_id = ?, status = ?, version = ?, seats = ?, options = ?, state = ?,"
    " extra = ?, deadline = ?, updated_at = ? WHERE id = ? AND version = ?"
)
_LOG = "INSERT INTO actions (table_id, version, seat, action, at) VALUES (?, ?, ?, ?, ?)"


@functools.cache
def _save_chained(notify: str) -> str:
    """A move's save as ONE statement (a database with `chained_notify`): the guarded UPDATE, its
    log line and its notification, each only if the one before wrote a row. Data-modifying WITH
    queries always run to their end and the notification is the main query's own column, so
    nothing is skipped; a stale writer updates nothing, logs nothing, announces nothing and gets
    no row back. One statement is one transaction: the notification is heard on its commit."""
    return (
        f"WITH updated AS ({_UPDATE} RETURNING id, version),"
        " logged AS (INSERT INTO actions (table_id, version, seat, action, at)"
        " SELECT id, version, CAST(? AS INTEGER), CAST(? AS TEXT), CAST(? AS DOUBLE PRECISION)"
        " FROM updated RETURNING table_id)"
        f" SELECT {notify} FROM logged"
    )


class StaleVersion(Exception):
    """Somebody else saved this table first; reload and judge again."""


class ChannelBusy(Exception):
    """The channel already has an open table."""


@dataclass
class Seat:
    user_id: int  # a Discord user; a computer player added in the lobby has a negative id of its own
    name: str
    computer: bool = False  # a computer plays the seat: added as one, or standing in for its player
    timeouts: int = 0  # time-outs in a row; three make the seat a computer player
    level: str | None = None  # the computer's level (rules.computer.LEVELS); None: "normal"

    @property
    def human(self) -> bool:
        """A Discord user sits here (perhaps stood in for by a computer just now)."""
        return self.user_id > 0


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
    parent_id: int | None = None  # the text channel of the thread the table is played in, if it is one
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
            options=_copy(self.options),
            state=self.state,  # replaced whole by every move, never edited in place
            extra=_copy(self.extra),
        )


def _copy(value: Any) -> Any:
    """A deep copy of JSON data (dicts, lists, scalars), without a trip through JSON text."""
    if type(value) is dict:
        return {key: _copy(item) for key, item in value.items()}
    if type(value) is list:
        return [_copy(item) for item in value]
    return value


@dataclass(frozen=True)
class Deadline:
    """A table's pending deadline, as start-up re-arms it (a light row instead of a whole record)."""

    channel_id: int
    status: str
    deadline: float
    updated_at: float
    guild_id: int


_COLUMNS = (
    "id, guild_id, channel_id, game_id, host_id, status, version, seats, options, state, extra, "
    "deadline, created_at, updated_at, parent_id"
)


def _record(row: Row) -> TableRecord:
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
        parent_id=row["parent_id"],
    )


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def _json_columns(record: TableRecord) -> tuple[str, str, str | None, str]:
    """The record's seats, options, state and extra as stored (JSON text), in that column order."""
    return (
        _dumps([vars(seat) for seat in record.seats]),  # plain fields: no deep copy (asdict) needed
        _dumps(record.options),
        _dumps(record.state) if record.state is not None else None,
        _dumps(record.extra),
    )


class TableStore:
    def __init__(self, database: Database, origin: str = "") -> None:
        self.database = database
        # Who writes through this store, named in its notifications: a process hears its own saves
        # too (often before its commit returns) and knows them by this.
        self.origin = origin

    def _announcement(self, record: TableRecord, version: int) -> str:
        """`<channel> <version> <guild>[ <origin>]`, as TABLES_CHANNEL carries it."""
        return " ".join(
            str(part) for part in (record.channel_id, version, record.guild_id, self.origin) if part != ""
        )

    async def create(self, record: TableRecord, now: float) -> TableRecord:
        """Insert a new open table; ChannelBusy if the channel already has one."""
        row = (
            record.guild_id,
            record.channel_id,
            record.game_id,
            record.host_id,
            record.status,
            *_json_columns(record),
            record.deadline,
            now,
            now,
            record.parent_id,
        )

        insert = (
            "INSERT INTO game_tables (guild_id, channel_id, game_id, host_id, status, version, seats,"
            " options, state, extra, deadline, created_at, updated_at, parent_id)"
            " VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id"
        )
        announced = self._announcement(record, 0)
        notify = self.database.chained_notify

        async def insert_then_notify(executor: Executor) -> int:
            inserted = await executor.fetch_one(insert, row)
            assert inserted is not None
            await executor.notify(TABLES_CHANNEL, announced)
            return int(inserted[0])

        # The unique index on open tables decides; several processes may race for a channel.
        try:
            if notify is None:
                table_id = await self.database.atomic(insert_then_notify)
            else:  # one statement, one round trip: the notification is heard on its commit
                rows = await self.database.execute_returning(
                    f"WITH inserted AS ({insert}) SELECT id, {notify} FROM inserted",
                    (*row, TABLES_CHANNEL, announced),
                )
                table_id = int(rows[0][0])
        except Conflict:
            raise ChannelBusy(record.channel_id) from None
        return dataclasses.replace(record, id=table_id, version=0, created_at=now, updated_at=now)

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
        transaction: a finished game is never stored without its results, nor counted twice. On
        SQLite the whole transaction is one call on the database's thread (`Database.atomic`): one
        hop per move. On PostgreSQL a move without results is ONE statement (`_save_chained`): one
        round trip; the final move, with its results and ratings, is a transaction. Either way the
        guarded UPDATE takes the row lock, so concurrent writers of one table (several processes)
        queue on it and all but the first are refused as stale, having written nothing.
        """
        new_version = expected_version + 1
        update = (
            record.host_id,
            record.status,
            new_version,
            *_json_columns(record),
            record.deadline,
            now,
            record.id,
            expected_version,
        )
        action_text = _dumps(action)
        announced = self._announcement(record, new_version)

        async def write(executor: Executor) -> None:
            if await executor.execute(_UPDATE, update) != 1:
                raise StaleVersion(record.id)
            await executor.execute(_LOG, (record.id, new_version, seat, action_text, now))
            if results:
                await record_results(
                    executor,
                    table_id=record.id or 0,
                    guild_id=record.guild_id,
                    game_id=record.game_id,
                    results=results,
                    now=now,
                )
            await executor.notify(TABLES_CHANNEL, announced)  # in the transaction: heard on commit only

        notify = self.database.chained_notify
        if notify is None or results:
            await self.database.atomic(write)
        else:  # no row back: the guarded UPDATE changed nothing (and nothing else was written)
            chained = (*update, seat, action_text, now, TABLES_CHANNEL, announced)
            if len(await self.database.execute_returning(_save_chained(notify), chained)) != 1:
                raise StaleVersion(record.id)
        record.version = new_version
        record.updated_at = now

    # ------------------------------------------------------------ Discord messages of a table

    async def messages(self, table_id: int) -> dict[str, int | None]:
        """slot -> message id: 'board', and 'dm:<seat>' (None: that seat's DMs are closed)."""
        rows = await self.database.fetch_all(
            "SELECT slot, message_id FROM table_messages WHERE table_id = ? AND slot NOT LIKE 'ping%'",
            (table_id,),
        )
        return {row["slot"]: row["message_id"] for row in rows}

    async def set_message(self, table_id: int, slot: str, message_id: int | None) -> None:
        await self.database.execute(
            "INSERT INTO table_messages (table_id, slot, message_id) VALUES (?, ?, ?)"
            " ON CONFLICT (table_id, slot) DO UPDATE SET message_id = excluded.message_id",
            (table_id, slot, message_id),
        )

    # ------------------------------------------------------------ turn pings, shared by every process

    async def claim_pings(
        self, table_id: int, seats: Iterable[int], version: int, *, invitation: bool = False
    ) -> list[int]:
        """The seats among `seats` nobody has pinged since they last moved, now marked pinged at
        `version`: each seat is claimed by one process once per turn, however many try. An
        `invitation` (a new phase that needs the seat at `version`) is a turn of its own: claimed once
        per version, whether or not the seat moved since its last ping."""
        seats = list(dict.fromkeys(seats))  # one row each: an upsert may not touch a row twice
        if not seats:
            return []
        # The seat of a pinged row is its slot's number: a seat moved since if one of its actions is
        # newer than the row's version.
        moved = (
            ""
            if invitation
            else " AND EXISTS (SELECT 1 FROM actions WHERE actions.table_id = table_messages.table_id"
            f" AND '{PINGED}' || actions.seat = table_messages.slot"
            " AND actions.version > table_messages.version)"
        )
        # One statement for every seat (one round trip on PostgreSQL, one hop on SQLite).
        rows = await self.database.execute_returning(
            "INSERT INTO table_messages (table_id, slot, message_id, version) VALUES "
            + ", ".join(["(?, ?, NULL, ?)"] * len(seats))
            + " ON CONFLICT (table_id, slot) DO UPDATE SET version = excluded.version"
            f" WHERE table_messages.version < excluded.version{moved} RETURNING slot",
            [value for seat in seats for value in (table_id, f"{PINGED}{seat}", version)],
        )
        claimed = {row[0] for row in rows}
        return [seat for seat in seats if f"{PINGED}{seat}" in claimed]

    async def keep_ping(self, table_id: int, message_id: int) -> list[int]:
        """`message_id` is a live ping of the table; all but the newest live ping (this one, unless
        another process posted a later one) are forgotten and returned, to be deleted. Message ids
        grow with time."""

        async def keep(executor: Executor) -> list[int]:
            await executor.execute(
                "INSERT INTO table_messages (table_id, slot, message_id) VALUES (?, ?, ?)"
                " ON CONFLICT (table_id, slot) DO NOTHING",
                (table_id, f"{LIVE_PING}{message_id}", message_id),
            )
            rows = await executor.fetch_all(
                "DELETE FROM table_messages WHERE table_id = ? AND slot LIKE ? AND message_id < ("
                "SELECT MAX(message_id) FROM table_messages WHERE table_id = ? AND slot LIKE ?)"
                " RETURNING message_id",
                (table_id, f"{LIVE_PING}%", table_id, f"{LIVE_PING}%"),
            )
            return [row["message_id"] for row in rows]

        return await self.database.atomic(keep)

    async def drop_pings(self, table_id: int) -> list[int]:
        """The table is over: its live pings are forgotten and returned, to be deleted."""

        rows = await self.database.execute_returning(
            "DELETE FROM table_messages WHERE table_id = ? AND slot LIKE ? RETURNING message_id",
            (table_id, f"{LIVE_PING}%"),
        )
        return [row["message_id"] for row in rows]

    async def open_table(self, channel_id: int) -> TableRecord | None:
        return await self._one(
            f"SELECT {_COLUMNS} FROM game_tables WHERE channel_id = ? AND status IN ('lobby', 'playing')",
            (channel_id,),
        )

    async def open_tables_under(self, parent_id: int) -> list[TableRecord]:
        """The open tables played in threads of a text channel, oldest first."""
        rows = await self.database.fetch_all(
            f"SELECT {_COLUMNS} FROM game_tables"
            " WHERE parent_id = ? AND status IN ('lobby', 'playing') ORDER BY id",
            (parent_id,),
        )
        return [_record(row) for row in rows]

    async def last_table(self, channel_id: int) -> TableRecord | None:
        """The newest table of a channel, open or not (for Rematch and status)."""
        return await self._one(
            f"SELECT {_COLUMNS} FROM game_tables WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel_id,)
        )

    async def every_table(self) -> list[TableRecord]:
        """Every table ever opened, oldest first (for tools and tests that read whole games)."""
        return [
            _record(row)
            for row in await self.database.fetch_all(f"SELECT {_COLUMNS} FROM game_tables ORDER BY id")
        ]

    async def get(self, table_id: int) -> TableRecord | None:
        return await self._one(f"SELECT {_COLUMNS} FROM game_tables WHERE id = ?", (table_id,))

    async def with_deadlines(self) -> list[Deadline]:
        """Open tables with a pending time-out, to re-arm their timers after a restart: the few
        columns that needs, no state parsed (states load on a table's first use)."""
        rows = await self.database.fetch_all(
            "SELECT channel_id, status, deadline, updated_at, guild_id FROM game_tables"
            " WHERE deadline IS NOT NULL AND status IN ('lobby', 'playing') ORDER BY deadline"
        )
        return [Deadline(*row) for row in rows]  # type: ignore[misc]

    async def playing_channels(self, updated_since: float) -> list[tuple[int, int]]:
        """(channel_id, guild_id) of the tables being played, moved at `updated_since` or later: what
        a process takes up for another."""
        rows = await self.database.fetch_all(
            "SELECT channel_id, guild_id FROM game_tables WHERE status = 'playing' AND updated_at >= ?"
            " ORDER BY channel_id",
            (updated_since,),
        )
        return [(int(row[0]), int(row[1])) for row in rows]

    async def version_of(self, channel_id: int) -> int | None:
        """The version of the channel's open table (one column: is a shown board out of date?)."""
        row = await self.database.fetch_one(
            "SELECT version FROM game_tables WHERE channel_id = ? AND status IN ('lobby', 'playing')",
            (channel_id,),
        )
        return int(row[0]) if row else None

    # ------------------------------------------------------------ timer leases (one process per timer)

    async def claim_timer(self, channel_id: int, owner: str, now: float, until: float) -> bool:
        """Lease the timer of the channel's open table to `owner` until `until`, if the lease is free,
        expired (by `now`, the caller's clock) or `owner`'s already (a renewal); True when claimed.
        One UPDATE: in PostgreSQL a second claimer waits for the first's row lock, then finds the
        lease taken and changes nothing."""
        changed = await self.database.execute(
            "UPDATE game_tables SET lease_owner = ?, lease_until = ?"
            f" WHERE channel_id = ? AND status IN ('lobby', 'playing') AND {_CLAIMABLE}",
            (owner, until, channel_id, now, owner),
        )
        return changed == 1

    async def release_timer(self, channel_id: int, owner: str) -> None:
        """Give up the lease of the channel's open table, if `owner` holds it."""
        await self.database.execute(
            "UPDATE game_tables SET lease_owner = NULL, lease_until = NULL"
            " WHERE channel_id = ? AND status IN ('lobby', 'playing') AND lease_owner = ?",
            (channel_id, owner),
        )

    async def release_timers(self, owner: str) -> int:
        """Give up every lease `owner` holds (its process is stopping): another process may take the
        deadlines at once. Returns how many were held."""
        return await self.database.execute(
            "UPDATE game_tables SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = ?", (owner,)
        )

    async def claim_due(
        self, owner: str, due_before: float, now: float, until: float, limit: int = 50
    ) -> list[int]:
        """Lease to `owner` (until `until`) the playing tables due by `due_before` whose lease is free
        or expired by `now` (nobody runs their timer: a process died), the most overdue first, at
        most `limit`; returns their channel ids. PostgreSQL claimers skip each other's locked rows,
        so two processes never claim the same table."""
        sql = (
            "UPDATE game_tables SET lease_owner = ?, lease_until = ? WHERE id IN (SELECT id FROM game_tables"
            " WHERE status = 'playing' AND deadline <= ?"
            f" AND {_LEASE_FREE} ORDER BY deadline LIMIT ?{self.database.skip_locked}) RETURNING channel_id"
        )
        params = (owner, until, due_before, now, limit)
        return [int(row[0]) for row in await self.database.execute_returning(sql, params)]

    async def actions(self, table_id: int) -> list[tuple[int, int | None, dict[str, Any]]]:
        """(version, seat, action) of a table, in the order they were accepted."""
        rows = await self.database.fetch_all(
            "SELECT version, seat, action FROM actions WHERE table_id = ? ORDER BY version", (table_id,)
        )
        return [(row["version"], row["seat"], json.loads(row["action"])) for row in rows]

    async def timed_actions(self, table_id: int) -> list[tuple[int, int | None, dict[str, Any], float]]:
        """(version, seat, action, when) of every logged action, in order (tools and tests)."""
        rows = await self.database.fetch_all(
            "SELECT version, seat, action, at FROM actions WHERE table_id = ? ORDER BY version", (table_id,)
        )
        return [(row["version"], row["seat"], json.loads(row["action"]), row["at"]) for row in rows]

    async def last_action(self, table_id: int) -> tuple[int, int | None, dict[str, Any]] | None:
        """(version, seat, action) of the newest logged action of a table."""
        row = await self.database.fetch_one(
            "SELECT version, seat, action FROM actions WHERE table_id = ? ORDER BY version DESC LIMIT 1",
            (table_id,),
        )
        return (row["version"], row["seat"], json.loads(row["action"])) if row else None

    # ------------------------------------------------------------ one rematch per finished table

    async def claim_rematch(self, table_id: int, claimed: float, stale_before: float) -> bool:
        """Claim the finished table `table_id` for its one rematch at `claimed` (the caller's clock); True
        for the one caller that may open it, however many press Rematch. A claim whose rematch was never
        recorded by `stale_before` (its opener died) is taken over. One UPDATE: in PostgreSQL a second
        claimer waits for the first's row lock, then finds the row claimed and changes nothing."""
        changed = await self.database.execute(
            "UPDATE game_tables SET rematch_id = 0, rematch_claimed = ? WHERE id = ? AND status = 'finished'"
            " AND (rematch_id IS NULL OR (rematch_id = 0 AND rematch_claimed < ?))",
            (claimed, table_id, stale_before),
        )
        return changed == 1

    async def rematch_opened(self, table_id: int, claimed: float, rematch_id: int) -> None:
        """The rematch claimed at `claimed` is the table `rematch_id`."""
        await self.database.execute(
            "UPDATE game_tables SET rematch_id = ? WHERE id = ? AND rematch_id = 0 AND rematch_claimed = ?",
            (rematch_id, table_id, claimed),
        )

    async def release_rematch(self, table_id: int, claimed: float) -> None:
        """The rematch claimed at `claimed` could not be opened: the next press may try again."""
        await self.database.execute(
            "UPDATE game_tables SET rematch_id = NULL, rematch_claimed = NULL"
            " WHERE id = ? AND rematch_id = 0 AND rematch_claimed = ?",
            (table_id, claimed),
        )

    async def rematch_of(self, table_id: int) -> int | None:
        """The id of the table opened as the rematch of `table_id`: 0 while it is being opened, None when
        nobody claimed one."""
        row = await self.database.fetch_one("SELECT rematch_id FROM game_tables WHERE id = ?", (table_id,))
        return None if row is None or row[0] is None else int(row[0])

    async def _one(self, sql: str, params: tuple[Any, ...]) -> TableRecord | None:
        row = await self.database.fetch_one(sql, params)
        return _record(row) if row else None
