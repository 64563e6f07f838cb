"""Table notifications: a save committed by one process is heard by every other process listening
(PostgreSQL LISTEN/NOTIFY), only once committed, and still after the listening connection is lost."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from storage.postgres import PostgresDatabase
from storage.sqlite import SqliteDatabase
from storage.tables import TABLES_CHANNEL, ChannelBusy, StaleVersion, TableRecord, TableStore
from tests.conftest import new_postgres_database
from tests.storage.records import table_record


def _record(channel_id: int, guild_id: int = 7) -> TableRecord:
    return table_record(channel_id, guild_id=guild_id)


async def _until(condition: Callable[[], Awaitable[bool]], seconds: float = 5.0) -> None:
    """Wait (polling every 10 ms) until `condition()` holds; fails after `seconds`."""
    for _ in range(int(seconds / 0.01)):
        if await condition():
            return
        await asyncio.sleep(0.01)
    pytest.fail(f"still not so after {seconds} s: {condition.__doc__ or condition.__name__}")


@pytest.fixture
async def two_processes(postgres_server: Any) -> AsyncIterator[tuple[PostgresDatabase, PostgresDatabase]]:
    """A writer and a listener: two databases on one PostgreSQL, as two bot processes."""
    url = await new_postgres_database(postgres_server)
    writer, listener = await PostgresDatabase.open(url), await PostgresDatabase.open(url)
    yield writer, listener
    await writer.close()
    await listener.close()


async def test_a_committed_save_is_heard_by_another_process(
    two_processes: tuple[PostgresDatabase, PostgresDatabase],
):
    writer, listener = two_processes
    heard: list[str] = []
    assert await listener.listen(TABLES_CHANNEL, heard.append)
    store = TableStore(writer)
    record = await store.create(_record(10, guild_id=3), now=1.0)
    await store.save(record, expected_version=0, action={"n": 1}, seat=0, now=2.0)

    async def both() -> bool:
        return len(heard) >= 2

    await _until(both)
    assert heard == ["10 0 3", "10 1 3"]
    # A store that names its writer says so: a process knows its own saves when it hears them.
    named = TableStore(writer, origin="host:12:ab")
    await named.save(record, expected_version=1, action={"n": 2}, seat=0, now=3.0)

    async def third() -> bool:
        return len(heard) >= 3

    await _until(third)
    assert heard[2] == "10 2 3 host:12:ab"


async def test_a_refused_write_announces_nothing(two_processes: tuple[PostgresDatabase, PostgresDatabase]):
    writer, listener = two_processes
    heard: list[str] = []
    assert await listener.listen(TABLES_CHANNEL, heard.append)
    store = TableStore(writer)
    record = await store.create(_record(10), now=1.0)
    with pytest.raises(ChannelBusy):
        await store.create(_record(10), now=1.0)
    stale = record.copy()
    await store.save(record, expected_version=0, action={"n": 1}, seat=0, now=2.0)
    with pytest.raises(StaleVersion):
        await store.save(stale, expected_version=0, action={"n": 2}, seat=0, now=3.0)
    await store.create(_record(11), now=4.0)  # notifications arrive in commit order: this one last

    async def last() -> bool:
        return "11 0 7" in heard

    await _until(last)
    assert heard == ["10 0 7", "10 1 7", "11 0 7"]


async def test_listening_survives_its_connection_being_killed_and_says_what_may_be_missed(
    two_processes: tuple[PostgresDatabase, PostgresDatabase], caplog: pytest.LogCaptureFixture
):
    writer, listener = two_processes
    heard: list[str] = []
    other: list[str] = []
    gaps: list[str] = []
    assert await listener.listen(TABLES_CHANNEL, heard.append, on_gap=lambda: gaps.append("gap"))
    assert await listener.listen("elsewhere", other.append)

    async def listening_backends() -> list[int]:
        rows = await writer.fetch_all(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%'"
        )
        return [row["pid"] for row in rows]

    killed = await listening_backends()
    assert len(killed) == 1  # one connection listens on every channel
    await writer.fetch_one("SELECT pg_terminate_backend(?)", (killed[0],))

    async def listening_again() -> bool:
        found = await listening_backends()
        return bool(found) and found != killed

    await _until(listening_again)
    store = TableStore(writer)
    await store.create(_record(12), now=1.0)
    await writer.notify("elsewhere", "ping")

    async def both_heard() -> bool:
        return heard == ["12 0 7"] and other == ["ping"]

    await _until(both_heard)
    assert "lost" in caplog.text
    assert gaps == ["gap"]  # told once that notifications may have been missed meanwhile


async def test_a_terminated_process_leaves_its_leases_to_expire(postgres_server: Any):
    """terminate() drops a process's connections without closing them (as a crash would); its lease
    is taken over by another process once expired."""
    url = await new_postgres_database(postgres_server)
    dying, survivor = await PostgresDatabase.open(url), await PostgresDatabase.open(url)
    try:
        await TableStore(dying).create(_record(10), now=0.0)
        assert await TableStore(dying).claim_timer(10, "dying", now=0.0, until=10.0)
        assert await dying.listen(TABLES_CHANNEL, lambda payload: None)
        dying.terminate()
        store = TableStore(survivor)
        assert not await store.claim_timer(10, "survivor", now=5.0, until=15.0)
        assert await store.claim_timer(10, "survivor", now=10.0, until=20.0)
    finally:
        await dying.close()  # already terminated: nothing left to close
        await survivor.close()


async def test_sqlite_has_nobody_else_to_tell(tmp_path: Path):
    database = await SqliteDatabase.open(tmp_path / "test.db")
    try:
        assert await database.listen(TABLES_CHANNEL, lambda payload: None) is False
        store = TableStore(database)
        record = await store.create(_record(10), now=1.0)
        await store.save(record, expected_version=0, action={"n": 1}, seat=0, now=2.0)  # one hop still
        assert await store.version_of(10) == 1
    finally:
        await database.close()
