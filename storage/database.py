"""The one storage interface every store speaks, whichever database is behind it.

Two backends implement it, and `storage.backend` picks one from the settings: SQLite through
aiosqlite (`storage.sqlite`, the embedded default: one process) and PostgreSQL through an asyncpg
pool (`storage.postgres`, chosen by a DATABASE_URL of `postgresql://…`: several processes sharing
one database). This module imports neither. SQL is written once, with `?` placeholders (rewritten
to `$1..$n` for asyncpg), in the dialect both speak: `INSERT … ON CONFLICT … DO UPDATE`,
`RETURNING`, partial indexes. What differs (reading a JSON field) is asked of the database
(`json_text`), and so is what one can do and the other cannot: be shared by several processes
(`shared`), row locks skipped by a concurrent claimer (`skip_locked`) and notifications to other
processes (`notify`, `listen`). A write that must announce itself is one round trip where the
database chains writes in one statement (`chained_notify`), one hop on its thread where it does not.
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, ClassVar, Protocol, TypeVar

from storage import schema

T = TypeVar("T")


class Row(Protocol):
    """A fetched row: by column name or position (sqlite3.Row and asyncpg.Record both are)."""

    def __getitem__(self, key: Any, /) -> Any: ...

    def keys(self) -> Iterable[str]: ...


class DatabaseProblem(RuntimeError):
    """The database cannot be used: the message names the database, the problem and what to do, in
    one paragraph an operator can act on (bot.py prints it and exits 2). Never holds a password."""


class Conflict(Exception):
    """A write broke a unique constraint (e.g. a second open table in a channel)."""


def newer_schema(where: str, version: int, known: int) -> DatabaseProblem:
    return DatabaseProblem(
        f"the database {where} was written by a newer release of Sushi Bar "
        f"(schema version {version}; this release knows versions up to {known}). Run that "
        "release or a later one, or restore a backup made with this one. Nothing was changed."
    )


class Executor(ABC):
    """Statements on a database, or inside one of its transactions."""

    @abstractmethod
    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> Row | None: ...

    @abstractmethod
    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]: ...

    @abstractmethod
    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; returns how many rows it changed."""

    @abstractmethod
    async def execute_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None: ...

    async def notify(self, channel: str, payload: str) -> None:
        """Announce `payload` to the processes listening on `channel`; inside a transaction it is
        delivered on commit only. Nobody to tell by default (SQLite: one process); completes without
        suspending, so an SQLite `atomic` body stays one hop."""
        return


class Database(Executor):
    """A database every store can use. Statements on it directly each run on their own (a write in
    its own transaction); `transaction()` and `atomic()` group several."""

    # The package of this database's numbered migrations (`storage/migrations/…`, one per dialect).
    migrations_package: ClassVar[str]
    # Whether several processes may share this database (leases, heartbeats, notifications between
    # them); otherwise one process owns it and has nobody to coordinate with.
    shared: ClassVar[bool] = False
    # Appended to a `SELECT … FOR UPDATE`-able subquery that picks rows to claim: concurrent claimers
    # (several processes) skip each other's locked rows instead of waiting. SQLite has one writer.
    skip_locked: ClassVar[str] = ""
    # SQL that notifies as an expression a statement SELECTs (two `?`: channel, payload), where writes
    # chain in ONE statement (`WITH a AS (UPDATE … RETURNING …) INSERT … SELECT … FROM a`): a write
    # with its log and its announcement is then one round trip instead of a transaction's several.
    # None where they cannot (SQLite: no writes in WITH), which runs them as an `atomic` body instead,
    # one hop on its own thread. Sent alone, such a statement is its own transaction: the notification
    # is delivered on its commit only.
    chained_notify: ClassVar[str | None] = None

    @classmethod
    def migrations(cls) -> list[tuple[int, str, str]]:
        """(number, file name, SQL) of this database's migrations, in order."""
        return schema.migrations(cls.migrations_package)

    async def execute_returning(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """One write statement in a transaction of its own, and the rows its RETURNING gives: a
        writer's turn on SQLite (one hop), one round trip on PostgreSQL (sent alone, autocommitted)."""
        return await self.atomic(lambda executor: executor.fetch_all(sql, params))

    @abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[Executor]:
        """One transaction spanning several awaits (committed at the end, rolled back on an error)."""

    @abstractmethod
    async def atomic(self, body: Callable[[Executor], Awaitable[T]]) -> T:
        """Run `body(executor)` as one transaction. The body awaits only the executor, so SQLite runs
        it whole on its connection's thread: one hop for a move (the hot path)."""

    _closing: asyncio.Future[None] | None = None

    async def close(self) -> None:
        """Close the database, once: a later call, also one made while the first is under way, waits
        for that one (a clean stop closes it, and bot.py on its way out again; two closes at once
        left SQLite's worker thread stopped under the second, which then waited for ever)."""
        if self._closing is None:
            self._closing = asyncio.ensure_future(self._close())
        await asyncio.shield(self._closing)

    @abstractmethod
    async def _close(self) -> None:
        """Close the connections (`close` calls it once)."""

    @abstractmethod
    async def schema_version(self) -> int:
        """The number of the newest migration applied."""

    @abstractmethod
    async def migrate(self) -> int:
        """Apply the migrations newer than the database, once each; returns the schema version."""

    @abstractmethod
    def json_text(self, expression: str, key: str) -> str:
        """SQL for the text of a top-level `key` of the JSON text in `expression`."""

    async def listen(
        self, channel: str, callback: Callable[[str], None], on_gap: Callable[[], None] | None = None
    ) -> bool:
        """Call `callback(payload)` for every notification on `channel` (from any process, this one
        included), and `on_gap()` after listening was interrupted (what was sent meanwhile is lost);
        False when this database never delivers any (SQLite: nobody else to hear)."""
        return False
