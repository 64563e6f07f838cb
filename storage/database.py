"""One aiosqlite connection per process, its pragmas, and numbered migrations."""

from __future__ import annotations

import asyncio
import logging
import re
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from importlib import resources
from pathlib import Path

import aiosqlite

log = logging.getLogger(__name__)

_MIGRATION_NAME = re.compile(r"^(\d+)_[a-z0-9_]+\.sql$")


def migrations() -> list[tuple[int, str, str]]:
    """(number, file name, SQL) of every migration, in order; numbers must run 1, 2, 3, ..."""
    found = []
    for entry in resources.files("storage.migrations").iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match:
            found.append((int(match.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    found.sort()
    numbers = [number for number, _, _ in found]
    if numbers != list(range(1, len(found) + 1)):
        raise RuntimeError(f"migrations must be numbered 1..n without gaps, found {numbers}")
    return found


class DatabaseProblem(RuntimeError):
    """The database cannot be used: the message names the file, the problem and what to do, in one
    paragraph an operator can act on (bot.py prints it and exits 2)."""


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


class Database:
    """The connection, with one writer at a time.

    aiosqlite serialises statements on its own thread, but a transaction spans
    several awaits; `transaction()` holds a lock for its whole length so two
    tasks never interleave their writes.
    """

    def __init__(self, connection: aiosqlite.Connection, path: str | Path = "") -> None:
        self.connection = connection
        self.path = str(path)  # named in DatabaseProblem messages
        self._write_lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path) -> Database:
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
        version, known = await self.user_version(), len(migrations())
        if version > known:
            raise DatabaseProblem(
                f"the database {self.path or 'in use'} was written by a newer release of Sushi Bar "
                f"(schema version {version}; this release knows versions up to {known}). Run that "
                "release or a later one, or restore a backup made with this one. Nothing was changed."
            )

    async def close(self) -> None:
        await self.connection.close()

    async def user_version(self) -> int:
        async with self.connection.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    async def migrate(self) -> int:
        """Apply the migrations newer than the database; running it twice is a no-op.

        A database newer than every known migration raises `DatabaseProblem` untouched: this
        release does not know what its tables mean.
        """
        await self._refuse_newer()
        current = await self.user_version()
        for number, name, sql in migrations():
            if number <= current:
                continue
            async with self.transaction() as connection:
                # executescript would COMMIT on its own; run statements inside our transaction.
                for statement in _statements(sql):
                    await connection.execute(statement)
                await connection.execute(f"PRAGMA user_version = {number}")
            log.info("applied migration %s", name)
            current = number
        return current

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._write_lock:
            await self.connection.execute("BEGIN IMMEDIATE")
            try:
                yield self.connection
            except BaseException:
                await self.connection.execute("ROLLBACK")
                raise
            await self.connection.execute("COMMIT")


def _statements(sql: str) -> list[str]:
    """Split a migration into statements (our migrations hold no semicolons inside strings)."""
    without_comments = "\n".join(line.split("--", 1)[0] for line in sql.splitlines())
    return [part.strip() for part in without_comments.split(";") if part.strip()]
