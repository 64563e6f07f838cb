"""Opening a database that cannot be used: one named problem, the file untouched, no thread left."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from storage.database import DatabaseProblem
from storage.sqlite import SqliteDatabase

PAGE = 4096  # SQLite's default page size


def _aiosqlite_threads() -> set[threading.Thread]:
    return {thread for thread in threading.enumerate() if "_connection_worker_thread" in thread.name}


async def _make(path: Path, *, user_version: int | None = None) -> None:
    """A real Sushi Bar database (migrated, WAL mode, closed)."""
    database = await SqliteDatabase.open(path)
    if user_version is not None:
        await database.connection.execute(f"PRAGMA user_version = {user_version}")
    await database.close()


async def _refused(path: Path) -> str:
    before = _aiosqlite_threads()
    with pytest.raises(DatabaseProblem) as refused:
        await SqliteDatabase.open(path)
    # An aiosqlite worker thread is not a daemon: one left running keeps the process alive. It
    # has been told to stop and ends on its own, so waiting for it is bounded.
    for thread in _aiosqlite_threads() - before:
        thread.join(timeout=10)
        assert not thread.is_alive()
    assert str(path) in str(refused.value) and "\n" not in str(refused.value)
    return str(refused.value)


async def test_a_file_that_is_not_a_database_is_refused(tmp_path: Path):
    path = tmp_path / "notes.db"
    path.write_text("shopping list: rice, nori, wasabi\n" * 200)
    assert "is damaged" in await _refused(path)


async def test_a_truncated_database_is_refused(tmp_path: Path):
    path = tmp_path / "sushibar.db"
    await _make(path)
    whole = path.read_bytes()
    path.write_bytes(whole[: len(whole) // 2])
    assert "is damaged" in await _refused(path)


async def test_a_damaged_page_is_found_at_start_up_not_in_a_game(tmp_path: Path):
    path = tmp_path / "sushibar.db"
    await _make(path)
    damaged = bytearray(path.read_bytes())
    damaged[PAGE : 2 * PAGE] = bytes(range(256)) * (PAGE // 256)  # page 2: a table's root
    path.write_bytes(damaged)
    assert "is damaged" in await _refused(path)


async def test_a_database_from_a_newer_release_is_refused_and_left_as_it_was(tmp_path: Path):
    path = tmp_path / "sushibar.db"
    known = len(SqliteDatabase.migrations())
    await _make(path, user_version=known + 1)
    before = path.read_bytes()
    problem = await _refused(path)
    assert "newer release" in problem and f"version {known + 1}" in problem and f"up to {known}" in problem
    assert path.read_bytes() == before


async def test_migrate_refuses_a_newer_database_too(tmp_path: Path):
    database = await SqliteDatabase.open(tmp_path / "sushibar.db")
    try:
        await database.connection.execute(f"PRAGMA user_version = {len(SqliteDatabase.migrations()) + 1}")
        with pytest.raises(DatabaseProblem, match="newer release"):
            await database.migrate()
    finally:
        await database.close()


async def test_a_place_sqlite_cannot_open_is_refused(tmp_path: Path):
    folder = tmp_path / "folder.db"
    folder.mkdir()
    assert "cannot be opened" in await _refused(folder)
