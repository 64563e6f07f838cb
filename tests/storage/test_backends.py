"""Both backends hold the same schema; PostgreSQL's migrations and version guard hold across
connections (as several bot processes would use them)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from storage.backend import connect, is_postgres_url
from storage.database import Database
from storage.postgres import PostgresDatabase, numbered, redacted
from storage.sqlite import SqliteDatabase
from storage.tables import Seat, StaleVersion, TableRecord, TableStore
from tests.conftest import new_postgres_database


async def _sqlite_columns(database: SqliteDatabase) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for row in await database.fetch_all("SELECT name FROM sqlite_master WHERE type = 'table'"):
        columns = await database.fetch_all(f"PRAGMA table_info({row['name']})")
        found[row["name"]] = {column["name"] for column in columns}
    return found


async def _postgres_columns(database: PostgresDatabase) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for row in await database.fetch_all(
        "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema()"
    ):
        found.setdefault(row["table_name"], set()).add(row["column_name"])
    found.pop("schema_version")  # PostgreSQL's record of applied migrations (SQLite: user_version)
    return found


def test_both_backends_have_the_same_migration_numbers():
    sqlite, postgres = SqliteDatabase.migrations(), PostgresDatabase.migrations()
    assert [(number, name) for number, name, _ in sqlite] == [(number, name) for number, name, _ in postgres]


async def test_both_backends_have_the_same_tables_and_columns(tmp_path: Path, postgres_url: str):
    sqlite = await SqliteDatabase.open(tmp_path / "test.db")
    postgres = await PostgresDatabase.open(postgres_url)
    try:
        assert await _sqlite_columns(sqlite) == await _postgres_columns(postgres)
    finally:
        await sqlite.close()
        await postgres.close()


async def test_two_starters_migrate_a_new_database_once(postgres_url: str):
    first, second = await asyncio.gather(
        PostgresDatabase.open(postgres_url), PostgresDatabase.open(postgres_url)
    )
    try:
        applied = await first.fetch_all("SELECT number FROM schema_version ORDER BY number")
        assert [row["number"] for row in applied] == list(range(1, len(PostgresDatabase.migrations()) + 1))
        assert await second.schema_version() == await first.schema_version() == len(first.migrations())
    finally:
        await first.close()
        await second.close()


async def test_a_newer_postgres_schema_is_refused_untouched(postgres_url: str):
    database = await PostgresDatabase.open(postgres_url)
    known = len(PostgresDatabase.migrations())
    await database.execute(
        "INSERT INTO schema_version (number, name) VALUES (?, 'from_the_future.sql')", (known + 1,)
    )
    await database.close()
    with pytest.raises(Exception, match="newer release") as refused:
        await PostgresDatabase.open(postgres_url)
    assert f"version {known + 1}" in str(refused.value)


async def test_two_processes_saving_one_table_at_once_apply_exactly_one_move(postgres_server: Any):
    """Two pools (as two bot processes) save the same version concurrently: the row lock queues the
    second, which then finds the version moved on and is refused as stale."""
    url = await new_postgres_database(postgres_server)
    one, two = await PostgresDatabase.open(url), await PostgresDatabase.open(url)
    try:
        record = await TableStore(one).create(
            TableRecord(1, 10, "tiny", 100, seats=[Seat(100, "alice")], state={"turn": 0}), now=1.0
        )
        copies = [record.copy(), record.copy()]
        outcomes = await asyncio.gather(
            *(
                TableStore(database).save(copy, expected_version=0, action={"by": n}, seat=0, now=2.0)
                for n, (database, copy) in enumerate(zip((one, two), copies, strict=True))
            ),
            return_exceptions=True,
        )
        assert sorted(type(outcome).__name__ for outcome in outcomes) == ["NoneType", "StaleVersion"]
        assert any(isinstance(outcome, StaleVersion) for outcome in outcomes)
        assert [version for version, _, _ in await TableStore(two).actions(record.id or 0)] == [1]
    finally:
        await one.close()
        await two.close()


async def test_wrong_urls_and_unreachable_servers_are_one_paragraph_without_the_password(
    postgres_server: Any, tmp_path: Path
):
    uri: str = postgres_server.get_uri()
    wrong_database = uri.replace("/postgres?", "/no_such_database?", 1)
    nobody = "postgresql://nobody:hunter2@127.0.0.1:1/sushibar?connect_timeout=2"
    for url, expected in ((wrong_database, "no such database"), (nobody, "cannot be reached")):
        with pytest.raises(Exception) as refused:
            await PostgresDatabase.open(url)
        text = str(refused.value)
        assert expected in text and "\n" not in text and "hunter2" not in text
    assert redacted("postgresql://bot:hunter2@db:5432/sushibar") == "postgresql://bot:***@db:5432/sushibar"


async def test_a_url_chooses_postgres_and_a_path_sqlite_and_only_postgres_is_shared(
    tmp_path: Path, postgres_url: str
):
    assert is_postgres_url("postgres://u@h/d") and not is_postgres_url(str(tmp_path / "postgresql.db"))
    sqlite, postgres = await connect(str(tmp_path / "test.db")), await connect(postgres_url)
    try:
        assert isinstance(sqlite, SqliteDatabase) and not sqlite.shared
        assert isinstance(postgres, PostgresDatabase) and postgres.shared
    finally:
        await sqlite.close()
        await postgres.close()


def test_placeholders_are_numbered_for_asyncpg():
    assert (
        numbered("SELECT ? FROM t WHERE a = ? AND b IN (?, ?)")
        == "SELECT $1 FROM t WHERE a = $2 AND b IN ($3, $4)"
    )


async def test_one_interface_on_both(database: Database):
    assert (
        await database.execute(
            "INSERT INTO guild_settings (guild_id, key, value) VALUES (?, ?, ?)", (1, "k", "1")
        )
        == 1
    )
    async with database.transaction() as executor:
        await executor.execute_many(
            "INSERT INTO guild_settings (guild_id, key, value) VALUES (?, ?, ?)",
            [(2, "k", "2"), (3, "k", "3")],
        )
    rows = await database.fetch_all("SELECT guild_id, value FROM guild_settings ORDER BY guild_id")
    assert [(row["guild_id"], row[1]) for row in rows] == [(1, "1"), (2, "2"), (3, "3")]
    with pytest.raises(RuntimeError):
        async with database.transaction() as executor:
            await executor.execute("DELETE FROM guild_settings")
            raise RuntimeError("rolled back")
    assert await database.execute("DELETE FROM guild_settings WHERE guild_id > ?", (1,)) == 2


async def test_closing_twice_at_once_closes_once_and_returns(database: Database):
    """A clean stop closes the database while bot.py, on its way out, closes it too: both return
    (two SQLite closes at once left the second waiting for a worker thread already gone)."""
    await asyncio.wait_for(asyncio.gather(database.close(), database.close()), timeout=10)
    await asyncio.wait_for(database.close(), timeout=10)  # and once more, after
