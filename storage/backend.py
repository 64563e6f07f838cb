"""Which database a setting names: a PostgreSQL URL, else an SQLite file's path.

The one module that knows the backends by name; everything else asks the `Database` it is given
what it can do (`shared`, `listen`, `skip_locked`). Each backend is imported only when chosen: an
SQLite bot never loads asyncpg.
"""

from __future__ import annotations

from pathlib import Path

from storage.database import Database


def is_postgres_url(target: str) -> bool:
    """Whether a setting names a PostgreSQL server (DATABASE_URL) rather than an SQLite file."""
    return target.startswith(("postgresql://", "postgres://"))


async def connect(target: str | Path, *, shards: int = 1) -> Database:
    """The database `target` names, checked and migrated; raises `DatabaseProblem` (one paragraph an
    operator can act on) for one that cannot be used. `shards`: how many shards this process runs
    (1 unsharded), which sizes a PostgreSQL pool (`storage.postgres.pool_size`)."""
    if isinstance(target, str) and is_postgres_url(target):
        from storage.postgres import PostgresDatabase, pool_size

        return await PostgresDatabase.open(target, max_size=pool_size(shards))
    from storage.sqlite import SqliteDatabase

    return await SqliteDatabase.open(target)
