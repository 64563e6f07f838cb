"""One aiosqlite connection per process, its pragmas, and numbered migrations."""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
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


class Database:
    """The connection, with one writer at a time.

    aiosqlite serialises statements on its own thread, but a transaction spans
    several awaits; `transaction()` holds a lock for its whole length so two
    tasks never interleave their writes.
    """

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self.connection = connection
        self._write_lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path) -> Database:
        connection = await aiosqlite.connect(str(path), isolation_level=None)
        connection.row_factory = aiosqlite.Row
        for pragma in (
            "journal_mode = WAL",
            "synchronous = NORMAL",
            "foreign_keys = ON",
            "busy_timeout = 5000",
        ):
            async with connection.execute(f"PRAGMA {pragma}") as cursor:
                await cursor.fetchall()  # journal_mode answers with a row; an open statement blocks COMMIT
        database = cls(connection)
        await database.migrate()
        return database

    async def close(self) -> None:
        await self.connection.close()

    async def user_version(self) -> int:
        async with self.connection.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    async def migrate(self) -> int:
        """Apply the migrations newer than the database; running it twice is a no-op."""
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
