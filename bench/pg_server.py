"""A PostgreSQL server for bench/load.py and bench/load_process.py: the CPU its processes spend, a
database's URL on it, a server of the bench's own and a fresh database per run."""

from __future__ import annotations

import contextlib
import tempfile
from collections.abc import AsyncIterator, Iterator
from urllib.parse import urlsplit, urlunsplit


class ServerCpu:
    """CPU seconds a local PostgreSQL server has used: the postmaster, its live processes (the
    backends serving the bots) and the children it has reaped."""

    def __init__(self, pid: int) -> None:
        import psutil  # pgserver's own dependency

        self.psutil = psutil
        self.postmaster = psutil.Process(pid)

    def total(self) -> float:
        times = self.postmaster.cpu_times()
        spent = times.user + times.system + times.children_user + times.children_system
        for child in self.postmaster.children(recursive=True):
            with contextlib.suppress(self.psutil.Error):  # exited meanwhile: counted as reaped
                times = child.cpu_times()
                spent += times.user + times.system
        return spent


def with_database(url: str, name: str) -> str:
    """`url` naming the database `name` instead (its path), host, user and query kept."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{name}"))


@contextlib.contextmanager
def local_server() -> Iterator[tuple[str, int]]:
    """A PostgreSQL server of the bench's own (pgserver, in a temporary folder), stopped after: its
    URL and its postmaster's pid (for `ServerCpu`)."""
    import pgserver

    with tempfile.TemporaryDirectory(prefix="bench-pg-") as folder:
        server = pgserver.get_server(folder, cleanup_mode="stop")  # pyright: ignore[reportPrivateImportUsage]
        try:
            pid = server.get_pid()
            if pid is None:
                raise RuntimeError("pgserver started no server")
            yield server.get_uri(), pid
        finally:
            server.cleanup()


@contextlib.asynccontextmanager
async def fresh_database(url: str, name: str) -> AsyncIterator[str]:
    """A new, empty database `name` on `url`'s server (its URL), dropped after, connections and all."""
    import asyncpg

    connection = await asyncpg.connect(url)
    try:
        await connection.execute(f"CREATE DATABASE {name}")
    finally:
        await connection.close()
    try:
        yield with_database(url, name)
    finally:
        connection = await asyncpg.connect(url)
        try:
            await connection.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        finally:
            await connection.close()


async def check_database(url: str, tables: int) -> dict[str, int]:
    """The run's tables are all in the database, each in a channel (and guild) of its own: the
    processes' or workers' Discords gave out no snowflake twice."""
    import asyncpg

    connection = await asyncpg.connect(url)
    try:
        found = await connection.fetchrow(
            "SELECT count(*) AS tables, count(DISTINCT channel_id) AS channels,"
            " count(DISTINCT guild_id) AS guilds FROM game_tables"
        )
        moves = await connection.fetchval("SELECT count(*) FROM actions")
    finally:
        await connection.close()
    assert found is not None
    counts = {"tables": found["tables"], "channels": found["channels"], "guilds": found["guilds"]}
    if counts != {"tables": tables, "channels": tables, "guilds": tables}:
        raise RuntimeError(f"expected {tables} tables in as many channels and guilds, found {counts}")
    return {**counts, "moves": moves}
