"""SQLite through aiosqlite: one connection per process, its pragmas, migrations by user_version."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Iterable, Sequence
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from typing import Any, TypeVar, cast

import aiosqlite

from storage.backup import before_migration_path, copy_database
from storage.database import Conflict, Database, DatabaseProblem, Executor, Row, newer_schema
from storage.schema import statements

log = logging.getLogger(__name__)

T = TypeVar("T")


def _explain(path: str | Path, error: sqlite3.Error) -> str:
    """An SQLite error met while opening, as one paragraph."""
    text = str(error)
    if "not a database" in text or "malformed" in text:
        return (
            f"the database {path} is damaged ({text}): it is corrupt, truncated or not a Sushi Bar "
            "database at all. Restore it from a backup, or move it aside to start with an empty one."
        )
    if "locked" in text or "busy" in text:
        return (
            f"the database {path} is locked by another process ({text}); is another Sushi Bar "
            "running on it? Stop that one, or give this one its own DATABASE_PATH."
        )
    return (
        f"the database {path} cannot be opened ({text}). DATABASE_PATH must name a file in a "
        "writable folder on an ordinary disk (see .env.example)."
    )


def _conflict(error: sqlite3.IntegrityError) -> Exception:
    return Conflict(str(error)) if "UNIQUE" in str(error) else error


class _Inline(Executor):
    """The executor of an `atomic` body on the connection's own thread: every await completes at once."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self._connection = connection

    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        try:  # read to the end: INSERT … RETURNING
            rows = self._connection.execute(sql, params).fetchall()
        except sqlite3.IntegrityError as error:
            raise _conflict(error) from error
        return cast(Row, rows[0]) if rows else None

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return cast(list[Row], self._connection.execute(sql, params).fetchall())

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        try:
            return self._connection.execute(sql, params).rowcount
        except sqlite3.IntegrityError as error:
            raise _conflict(error) from error

    async def execute_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        try:
            self._connection.executemany(sql, rows)
        except sqlite3.IntegrityError as error:
            raise _conflict(error) from error


class _Async(Executor):
    """The executor of a `transaction()`: statements queued to the connection's thread one by one."""

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._connection = connection

    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        try:
            async with self._connection.execute(sql, params) as cursor:
                rows = list(await cursor.fetchall())  # read to the end: an open statement blocks COMMIT
        except sqlite3.IntegrityError as error:
            raise _conflict(error) from error
        return cast(Row, rows[0]) if rows else None

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        async with self._connection.execute(sql, params) as cursor:
            return cast(list[Row], list(await cursor.fetchall()))

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        try:
            async with self._connection.execute(sql, params) as cursor:
                return cursor.rowcount
        except sqlite3.IntegrityError as error:
            raise _conflict(error) from error

    async def execute_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        try:
            await self._connection.executemany(sql, rows)
        except sqlite3.IntegrityError as error:
            raise _conflict(error) from error


class SqliteDatabase(Database):
    """The connection, with one writer at a time.

    aiosqlite serialises statements on its own thread. `atomic(body)` (and `write(job)`) run a whole
    transaction there as one call (the hot path: a move is one hop); `transaction()` spans several
    awaits and holds a lock for its whole length, so two tasks never interleave their writes.
    """

    migrations_package = "storage.migrations"

    def __init__(self, connection: aiosqlite.Connection, path: str | Path = "") -> None:
        self.connection = connection
        self.path = str(path)  # named in DatabaseProblem messages
        self._write_lock = asyncio.Lock()
        self._reader = _Async(connection)

    @classmethod
    async def open(cls, path: str | Path) -> SqliteDatabase:
        """Connect, check and migrate; raises `DatabaseProblem` for a file that cannot be used.

        The connection is closed on every failure: its worker thread is not a daemon, so one
        left open would keep the process alive after the error instead of letting it exit.
        """
        try:
            connection = await aiosqlite.connect(str(path), isolation_level=None)
        except sqlite3.Error as error:  # aiosqlite stops its thread itself when connecting fails
            raise DatabaseProblem(_explain(path, error)) from error
        try:
            connection.row_factory = aiosqlite.Row
            database = cls(connection, path)
            # The version first: a newer release's file is refused before anything writes to it.
            await database._pragma("busy_timeout = 5000")
            await database._refuse_newer()
            # Corruption anywhere in the file is found now, not in the middle of a game: this
            # walks every page once (about 0.2 s for 250 MB) without the index cross-checks of
            # integrity_check.
            problems = [str(row[0]) for row in await database._pragma("quick_check")]
            if problems != ["ok"]:
                raise DatabaseProblem(
                    f"the database {path} is damaged ({problems[0]}). Restore it from a backup, "
                    "or move it aside to start with an empty one."
                )
            for pragma in ("journal_mode = WAL", "synchronous = NORMAL", "foreign_keys = ON"):
                await database._pragma(pragma)
            await database.migrate()
        except BaseException as error:
            with suppress(sqlite3.Error):  # the first error is the one worth reporting
                await connection.close()
            if isinstance(error, sqlite3.Error):
                raise DatabaseProblem(_explain(path, error)) from error
            raise
        return database

    async def _pragma(self, pragma: str) -> list[aiosqlite.Row]:
        async with self.connection.execute(f"PRAGMA {pragma}") as cursor:
            return list(await cursor.fetchall())  # read to the end: an open statement blocks COMMIT

    async def _refuse_newer(self) -> None:
        version, known = await self.user_version(), len(self.migrations())
        if version > known:
            raise newer_schema(self.path or "in use", version, known)

    async def _close(self) -> None:
        """Fold the write-ahead log into the file (`wal_checkpoint(TRUNCATE)`), then close: the file
        alone is then the whole database, for a copy or a reader."""
        with suppress(sqlite3.Error, ValueError):  # ValueError: aiosqlite's connection is closed already
            await self._pragma("wal_checkpoint(TRUNCATE)")
        await self.connection.close()

    async def user_version(self) -> int:
        async with self.connection.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    async def schema_version(self) -> int:
        return await self.user_version()

    async def migrate(self) -> int:
        """Apply the migrations newer than the database; running it twice is a no-op.

        A database newer than every known migration raises `DatabaseProblem` untouched: this
        release does not know what its tables mean. A database that has some migrations already is
        copied first (`_keep_copy`). One process owns an SQLite file, and BEGIN IMMEDIATE makes a
        second starter wait for the first one's transaction.
        """
        await self._refuse_newer()
        current = await self.user_version()
        if 0 < current < len(self.migrations()):
            await self._keep_copy(current)
        for number, name, sql in self.migrations():
            if number <= current:
                continue
            async with self.transaction() as executor:
                # executescript would COMMIT on its own; run statements inside our transaction.
                for statement in statements(sql):
                    await executor.execute(statement)
                await executor.execute(f"PRAGMA user_version = {number}")
            log.info("applied migration %s", name)
            current = number
        return current

    async def _keep_copy(self, version: int) -> None:
        """Before migrating from schema `version`, a copy of the file beside it (`storage.backup`):
        the way back to the release that wrote it, which refuses a migrated file. A fresh database
        (version 0) has nothing to keep; no copy, no migration."""
        if self.path in ("", ":memory:") or self.path.startswith("file:"):
            return
        target = before_migration_path(self.path, version)
        try:
            # On the connection's own thread, as every statement of it runs (aiosqlite's queue).
            await self.connection._execute(copy_database, self.connection._conn, target)
        except (sqlite3.Error, OSError) as error:
            raise DatabaseProblem(
                f"the database {self.path} needs migrating from schema version {version}, and a copy is "
                f"kept first, but writing {target} failed ({error}). Free some space or make its folder "
                "writable. Nothing was changed."
            ) from error
        log.info("kept a copy of the database at schema version %d before migrating it: %s", version, target)

    def json_text(self, expression: str, key: str) -> str:
        return f"json_extract({expression}, '$.{key}')"

    # ------------------------------------------------------------ statements

    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        return await self._reader.fetch_one(sql, params)

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return await self._reader.fetch_all(sql, params)

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return await self.atomic(lambda executor: executor.execute(sql, params))

    async def execute_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self.atomic(lambda executor: executor.execute_many(sql, rows))

    async def atomic(self, body: Callable[[Executor], Awaitable[T]]) -> T:
        return await self.write(lambda connection: _run_inline(body(_Inline(connection))))

    async def write(self, job: Callable[[sqlite3.Connection], T]) -> T:
        """Run `job` in one transaction on the connection's own thread: ONE hop for the whole write.

        BEGIN, the job's statements and COMMIT (ROLLBACK if it raises, the exception passed on) run
        back to back in the worker thread, so no lock is held across awaits; the thread runs one job
        at a time. A `transaction()` open meanwhile (several awaits) is waited for, and the job is
        queued the moment it ends, before any later BEGIN.
        """
        while self._write_lock.locked():
            async with self._write_lock:
                pass
        # aiosqlite's queue to its thread (Connection._execute, the call behind every method it has).
        return await self.connection._execute(_transact, self.connection._conn, job)  # type: ignore[no-any-return]

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Executor]:
        async with self._write_lock:
            await self.connection.execute("BEGIN IMMEDIATE")
            try:
                yield _Async(self.connection)
            except BaseException:
                await self.connection.execute("ROLLBACK")
                raise
            await self.connection.execute("COMMIT")


def _transact(connection: sqlite3.Connection, job: Callable[[sqlite3.Connection], T]) -> T:
    """`job` inside BEGIN IMMEDIATE ... COMMIT, on the connection's thread."""
    connection.execute("BEGIN IMMEDIATE")
    try:
        result = job(connection)
    except BaseException:
        connection.execute("ROLLBACK")
        raise
    connection.execute("COMMIT")
    return result


def _run_inline(awaitable: Awaitable[T]) -> T:
    """Run a coroutine that only awaits an `_Inline` executor to its end, synchronously."""
    coroutine = cast(Coroutine[Any, Any, T], awaitable)
    try:
        coroutine.send(None)
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]
    coroutine.close()
    raise RuntimeError("an atomic body awaited something other than its executor")
