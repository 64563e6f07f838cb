"""The one storage interface every store speaks, whichever database is behind it.

Two backends implement it: SQLite through aiosqlite (`storage.sqlite`, the embedded default: one
process) and PostgreSQL through an asyncpg pool (`storage.postgres`, chosen by a DATABASE_URL of
`postgresql://…`: several processes sharing one database). SQL is written once, with `?`
placeholders (rewritten to `$1..$n` for asyncpg), in the dialect both speak: `INSERT … ON CONFLICT
… DO UPDATE`, `RETURNING`, partial indexes. What differs (reading a JSON field) is asked of the
database (`json_text`), and so is what one speaks and the other lacks: row locks skipped by a concurrent
claimer (`skip_locked`) and notifications to other processes (`notify`, `listen`).
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from importlib import resources
from pathlib import Path
from typing import Any, ClassVar, Protocol, TypeVar

T = TypeVar("T")

_MIGRATION_NAME = re.compile(r"^(\d+)_[a-z0-9_]+\.sql$")
MIGRATION_PACKAGES = {"sqlite": "storage.migrations", "postgres": "storage.migrations.postgres"}


class Row(Protocol):
    """A fetched row: by column name or position (sqlite3.Row and asyncpg.Record both are)."""

    def __getitem__(self, key: Any, /) -> Any: ...

    def keys(self) -> Iterable[str]: ...


def migrations(backend: str = "sqlite") -> list[tuple[int, str, str]]:
    """(number, file name, SQL) of every migration of a backend, in order; numbers run 1, 2, 3, ..."""
    found = []
    for entry in resources.files(MIGRATION_PACKAGES[backend]).iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match:
            found.append((int(match.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    found.sort()
    numbers = [number for number, _, _ in found]
    if numbers != list(range(1, len(found) + 1)):
        raise RuntimeError(f"migrations must be numbered 1..n without gaps, found {numbers}")
    return found


def _statements(sql: str) -> list[str]:
    """Split a migration into statements (our migrations hold no semicolons inside strings)."""
    without_comments = "\n".join(line.split("--", 1)[0] for line in sql.splitlines())
    return [part.strip() for part in without_comments.split(";") if part.strip()]


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

    backend: ClassVar[str]
    # Appended to a `SELECT … FOR UPDATE`-able subquery that picks rows to claim: concurrent claimers
    # (several processes) skip each other's locked rows instead of waiting. SQLite has one writer.
    skip_locked: ClassVar[str] = ""

    @classmethod
    async def open(cls, path: str | Path) -> Database:
        """The SQLite database at `path`, checked and migrated (as every release opened it)."""
        from storage.sqlite import SqliteDatabase  # the backends import this module

        return await SqliteDatabase.open(path)

    @abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[Executor]:
        """One transaction spanning several awaits (committed at the end, rolled back on an error)."""

    @abstractmethod
    async def atomic(self, body: Callable[[Executor], Awaitable[T]]) -> T:
        """Run `body(executor)` as one transaction. The body awaits only the executor, so SQLite runs
        it whole on its connection's thread: one hop for a move (the hot path)."""

    @abstractmethod
    async def close(self) -> None: ...

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


async def connect(target: str) -> Database:
    """The database a setting names: a `postgresql://` URL, else an SQLite file's path."""
    if is_postgres_url(target):
        from storage.postgres import PostgresDatabase

        return await PostgresDatabase.open(target)
    return await Database.open(target)


def is_postgres_url(target: str) -> bool:
    return target.startswith(("postgresql://", "postgres://"))
