"""Storage: what one committed move costs (state save + action log (+ its notification), as saved).

    .venv/bin/python bench/bench_storage.py [saves per table, default 200] [concurrent tables, default 100]
    .venv/bin/python bench/bench_storage.py --database postgres [--database-url URL] [saves] [tables]

Two figures, both through `TableStore.save` with a real Kaiten state (the largest of the five): one
table saving move after move (latency), then many tables saving at once (throughput and p99
latency, as when hundreds of tables are played); plus the process CPU per save. The last line is
JSON.

SQLite (the default): a file database in a temporary folder. PostgreSQL (`--database postgres`): a
fresh database on the server `--database-url` names, else on a PostgreSQL the bench starts itself
(pgserver, in a temporary folder); it also prints the round trips one save costs (every statement
the pool's connections send, counted by asyncpg's query logger over a few saves, apart from the
timed ones) and, for a server of its own, the server's CPU per save (its postmaster and backends:
it runs on the same cores).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.pg_server import ServerCpu, with_database
from rules.registry import GAMES
from storage.backend import connect
from storage.database import Database
from storage.postgres import PostgresDatabase
from storage.tables import Seat, TableRecord, TableStore

COUNTED_SAVES = 20  # saves whose statements are counted (PostgreSQL), apart from the timed ones


async def open_table(store: TableStore, channel_id: int) -> TableRecord:
    game = GAMES["kaiten"]
    state = game.new(4, channel_id)
    return await store.create(
        TableRecord(
            1,
            channel_id,
            "kaiten",
            3,
            "playing",
            [Seat(i, f"p{i}") for i in range(4)],
            state=game.dump(state),
        ),
        now=0.0,
    )


async def saves(store: TableStore, record: TableRecord, count: int, timings: list[float]) -> None:
    for index in range(count):
        started = time.perf_counter()
        await store.save(record, expected_version=record.version, action={"n": index}, seat=0, now=1.0)
        timings.append(time.perf_counter() - started)


async def round_trips(database: Database, store: TableStore, record: TableRecord) -> float:
    """Statements (each one round trip) the pool's connections send per save, over a few saves.
    The connections are reached through asyncpg's private pool holders: a bench may."""
    sent: list[str] = []
    log: Callable[[Any], None] = lambda query: sent.append(query.query)  # noqa: E731
    assert isinstance(database, PostgresDatabase)
    holders: Any = database.pool._holders  # pyright: ignore[reportAttributeAccessIssue]
    connections = [holder._con for holder in holders if holder._con is not None]
    for connection in connections:
        connection.add_query_logger(log)
    try:
        await saves(store, record, COUNTED_SAVES, [])
        await asyncio.sleep(0)  # the loggers are called soon after each statement
        await asyncio.sleep(0)
    finally:
        for connection in connections:
            connection.remove_query_logger(log)
    return len(sent) / COUNTED_SAVES


async def main(count: int, tables: int, target: str, server: ServerCpu | None) -> None:
    database = await connect(target)
    store = TableStore(database)
    postgres = database.shared
    server_cpu: dict[str, float] = {}
    trips: float | None = None
    try:
        alone: list[float] = []
        record = await open_table(store, 1)
        if postgres:
            trips = await round_trips(database, store, record)
        cpu, served = time.process_time(), server.total() if server else 0.0
        await saves(store, record, count, alone)
        cpu_alone = (time.process_time() - cpu) / count
        if server:
            server_cpu["alone"] = (server.total() - served) / count
        records = [await open_table(store, 100 + index) for index in range(tables)]
        together: list[float] = []
        cpu, started = time.process_time(), time.perf_counter()
        served = server.total() if server else 0.0
        await asyncio.gather(*(saves(store, record, count, together) for record in records))
        wall, cpu_together = time.perf_counter() - started, (time.process_time() - cpu) / len(together)
        if server:
            server_cpu["together"] = (server.total() - served) / len(together)
        pool_size = database.pool.get_max_size() if isinstance(database, PostgresDatabase) else None
    finally:
        await database.close()
    alone.sort()
    together.sort()
    figures: dict[str, Any] = {
        "database": "postgres" if postgres else "sqlite",
        "alone_median_ms": round(statistics.median(alone) * 1e3, 3),
        "alone_p95_ms": round(alone[int(len(alone) * 0.95)] * 1e3, 3),
        "alone_cpu_ms": round(cpu_alone * 1e3, 3),
        "tables": tables,
        "together_saves_per_s": round(len(together) / wall),
        "together_p99_ms": round(together[int(len(together) * 0.99)] * 1e3, 2),
        "together_cpu_ms": round(cpu_together * 1e3, 3),
    }
    if postgres:
        figures |= {"round_trips_per_save": trips, "pool_max_size": pool_size}
        figures |= {f"{key}_server_cpu_ms": round(value * 1e3, 3) for key, value in server_cpu.items()}
    where = "PostgreSQL (asyncpg pool)" if postgres else "SQLite, WAL, synchronous=NORMAL"
    print(f"Kaiten state, 4 players, {where}; {count} saves per table")
    if postgres:
        print(f"round trips per save: {trips:g} · pool of at most {pool_size} connections")
    served = {key: f" · server CPU {value * 1e3:.3f} ms" for key, value in server_cpu.items()}
    print(
        f"one table:  median {figures['alone_median_ms']:.2f} ms · p95 {figures['alone_p95_ms']:.2f} ms"
        f" · CPU {figures['alone_cpu_ms']:.3f} ms per save{served.get('alone', '')}"
    )
    print(
        f"{tables} tables at once: {figures['together_saves_per_s']} saves/s · p99"
        f" {figures['together_p99_ms']:.1f} ms · CPU {figures['together_cpu_ms']:.3f} ms per save"
        f"{served.get('together', '')}"
    )
    print(json.dumps({"bench": "storage", **figures}))


@contextlib.contextmanager
def sqlite_file() -> Iterator[str]:
    with tempfile.TemporaryDirectory() as folder:
        yield str(Path(folder) / "bench.db")


@contextlib.contextmanager
def postgres_database(url: str | None) -> Iterator[tuple[str, ServerCpu | None]]:
    """A fresh database on `url`'s server, else on a pgserver of our own (stopped after)."""
    import asyncpg

    with contextlib.ExitStack() as stack:
        pid: int | None = None
        if not url:
            import pgserver

            folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="bench-pg-"))
            server = pgserver.get_server(folder, cleanup_mode="stop")  # pyright: ignore[reportPrivateImportUsage]
            stack.callback(server.cleanup)
            url, pid = server.get_uri(), server.get_pid()
        name = f"bench_storage_{os.getpid()}"

        async def run(sql: str) -> None:
            connection = await asyncpg.connect(url)
            try:
                await connection.execute(sql)
            finally:
                await connection.close()

        asyncio.run(run(f"CREATE DATABASE {name}"))
        try:
            yield with_database(url, name), ServerCpu(pid) if pid is not None else None
        finally:
            asyncio.run(run(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))


def cli() -> None:
    parser = argparse.ArgumentParser(description="What one committed move costs in storage")
    parser.add_argument("saves", nargs="?", type=int, default=200, help="saves per table (200)")
    parser.add_argument("tables", nargs="?", type=int, default=100, help="tables saving at once (100)")
    parser.add_argument("--database", choices=("sqlite", "postgres"), default="sqlite", help="default sqlite")
    parser.add_argument("--database-url", default=None, help="a PostgreSQL server (default: one of our own)")
    arguments = parser.parse_args()
    if arguments.database == "postgres" or arguments.database_url:
        with postgres_database(arguments.database_url) as (url, server):
            asyncio.run(main(arguments.saves, arguments.tables, url, server))
    else:
        with sqlite_file() as path:
            asyncio.run(main(arguments.saves, arguments.tables, path, None))


if __name__ == "__main__":
    cli()
