"""What a move costs the database: on PostgreSQL one statement (one round trip) that updates the
table under its version guard, logs the action and announces it, heard only once committed; on
SQLite one hop on the database's thread, as before. The pool is sized from the shards a process runs."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from storage.backend import connect
from storage.database import Conflict, Database
from storage.leaderboard import Leaderboard, SeatResult
from storage.postgres import POOL_CAP, PostgresDatabase, pool_size
from storage.sqlite import SqliteDatabase
from storage.tables import TABLES_CHANNEL, StaleVersion, TableStore
from tests.conftest import new_postgres_database
from tests.storage.records import table_record


class Sent:
    """Every statement a one-connection pool sends (asyncpg's query logger): each is one round trip."""

    def __init__(self) -> None:
        self.statements: list[str] = []

    def __call__(self, record: Any) -> None:
        self.statements.append(" ".join(record.query.split()))

    async def since(self, mark: int) -> list[str]:
        await asyncio.sleep(0)  # asyncpg calls the logger soon after the statement
        return self.statements[mark:]


@pytest.fixture
async def counted(postgres_url: str) -> AsyncIterator[tuple[PostgresDatabase, Sent]]:
    """A database whose pool has ONE connection, every statement on it logged."""
    database = await PostgresDatabase.open(postgres_url, max_size=1)
    sent = Sent()
    async with database.pool.acquire() as connection:
        connection.add_query_logger(sent)
    yield database, sent
    await database.close()


async def test_a_move_is_one_statement_and_a_stale_one_writes_nothing(
    counted: tuple[PostgresDatabase, Sent],
):
    database, sent = counted
    store = TableStore(database)
    mark = len(sent.statements)
    record = await store.create(table_record(10, status="playing"), now=1.0)
    assert len(await sent.since(mark)) == 1  # the table and its announcement
    stale = record.copy()
    mark = len(sent.statements)
    await store.save(record, expected_version=0, action={"n": 1}, seat=0, now=2.0)
    one = await sent.since(mark)
    assert len(one) == 1 and one[0].startswith("WITH updated AS (UPDATE game_tables")
    assert record.version == 1
    mark = len(sent.statements)
    stale.state = {"v": 1, "turn": 9}
    with pytest.raises(StaleVersion):
        await store.save(stale, expected_version=0, action={"n": 2}, seat=1, now=3.0)
    assert len(await sent.since(mark)) == 1
    stored = await store.get(record.id or 0)
    assert stored is not None and (stored.version, stored.state) == (1, record.state)
    assert await store.actions(record.id or 0) == [(1, 0, {"n": 1})]
    # No statement is spent on giving a connection back to the pool (asyncpg's reset query).
    assert not [statement for statement in sent.statements if "RESET ALL" in statement]


async def test_the_final_move_keeps_its_transaction(counted: tuple[PostgresDatabase, Sent]):
    database, sent = counted
    store = TableStore(database)
    record = await store.create(table_record(10, status="playing"), now=1.0)
    record.status = "finished"
    mark = len(sent.statements)
    results = [SeatResult(0, 100, 5, 1), SeatResult(1, 200, 3, 2)]
    await store.save(record, expected_version=0, action={"type": "end"}, seat=0, now=2.0, results=results)
    statements = await sent.since(mark)
    assert statements[0] == "BEGIN;" and statements[-1] == "COMMIT;"
    alice, bob = await Leaderboard(database).top(1, "tiny")
    assert (alice.user_id, alice.wins, bob.user_id, bob.wins) == (100, 1, 200, 0)


async def test_turn_pings_are_one_statement_each(counted: tuple[PostgresDatabase, Sent]):
    database, sent = counted
    store = TableStore(database)
    record = await store.create(table_record(10, status="playing"), now=1.0)
    table_id = record.id or 0
    mark = len(sent.statements)
    assert await store.claim_pings(table_id, [1, 0, 1], version=0) == [1, 0]
    assert await store.claim_pings(table_id, [0, 1], version=0) == []
    assert await store.drop_pings(table_id) == []
    assert len(await sent.since(mark)) == 3


async def test_a_save_is_heard_only_once_it_is_committed(postgres_server: Any):
    """The listener reads the table as soon as it hears of a save: it always finds the announced
    version stored. A save whose log line fails is rolled back whole, and announces nothing."""
    url = await new_postgres_database(postgres_server)
    writer, listener = await PostgresDatabase.open(url), await PostgresDatabase.open(url)
    try:
        store, reader = TableStore(writer), TableStore(listener)
        record = await store.create(table_record(10, guild_id=3, status="playing"), now=1.0)
        heard: list[str] = []
        found: list[tuple[int, int | None]] = []
        reads: list[asyncio.Task[None]] = []

        async def read(version: int) -> None:
            found.append((version, await reader.version_of(10)))

        def on_notification(payload: str) -> None:
            heard.append(payload)
            reads.append(asyncio.get_running_loop().create_task(read(int(payload.split()[1]))))

        assert await listener.listen(TABLES_CHANNEL, on_notification)
        for version in range(10):
            await store.save(record, expected_version=version, action={"n": version}, seat=0, now=2.0)
        # The next save's log line is taken already: the statement fails, its UPDATE is undone.
        await writer.execute(
            "INSERT INTO actions (table_id, version, seat, action, at) VALUES (?, 11, 0, '{}', 0)",
            (record.id,),
        )
        with pytest.raises(Conflict):
            await store.save(record, expected_version=10, action={"n": 10}, seat=0, now=3.0)
        assert record.version == 10 and await store.version_of(10) == 10
        await writer.notify(TABLES_CHANNEL, "last")  # notifications arrive in commit order

        for _ in range(500):
            if "last" in heard:
                break
            await asyncio.sleep(0.01)
        await asyncio.gather(*reads)
        assert heard == [f"10 {version} 3" for version in range(1, 11)] + ["last"]
        assert all(stored is not None and stored >= version for version, stored in found[:10])
    finally:
        await writer.close()
        await listener.close()


async def test_sqlite_saves_a_move_in_one_hop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    database = await SqliteDatabase.open(tmp_path / "test.db")
    try:
        store = TableStore(database)
        record = await store.create(table_record(10, status="playing"), now=1.0)
        hops: list[object] = []
        write = database.write

        async def counted(job: Any) -> Any:
            hops.append(job)
            return await write(job)

        monkeypatch.setattr(database, "write", counted)
        await store.save(record, expected_version=0, action={"n": 1}, seat=0, now=2.0)
        with pytest.raises(StaleVersion):
            await store.save(record.copy(), expected_version=0, action={"n": 2}, seat=0, now=3.0)
        assert len(hops) == 2
        assert await store.claim_pings(record.id or 0, [0, 1], version=1) == [0, 1]
        assert len(hops) == 3
    finally:
        await database.close()


def test_the_pool_grows_with_the_shards_a_process_runs_up_to_a_cap():
    assert [pool_size(shards) for shards in (1, 2, 4, 8)] == [6, 8, 12, 20]
    assert pool_size(0) == pool_size() == 6  # unsharded: one connection to Discord
    assert pool_size(1000) == POOL_CAP


async def test_connect_sizes_the_pool_from_the_shards(postgres_url: str, tmp_path: Path):
    opened: list[Database] = []
    try:
        opened.append(default := await connect(postgres_url))
        opened.append(sharded := await connect(postgres_url, shards=3))
        assert isinstance(default, PostgresDatabase) and isinstance(sharded, PostgresDatabase)
        assert (default.pool.get_max_size(), sharded.pool.get_max_size()) == (6, 10)
        opened.append(await connect(str(tmp_path / "test.db"), shards=3))  # SQLite: one connection
    finally:
        for database in opened:
            await database.close()
