"""Backups of the SQLite database: `python bot.py backup` under a load of moves, its refusals, and the
copy the bot keeps before a migration changes the file."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import sys
from pathlib import Path

import pytest

import bot
from storage.backup import before_migration_path, copy_database
from storage.database import DatabaseProblem
from storage.schema import statements
from storage.sqlite import SqliteDatabase
from storage.tables import TableRecord, TableStore
from tests.storage.records import table_record

ROOT = Path(__file__).resolve().parents[2]
TABLES = 20


def _names(folder: Path, part: str) -> list[str]:
    """The names of the files in `folder` with `part` in them, sorted."""
    return sorted(path.name for path in folder.iterdir() if part in path.name)


def _read(path: Path, sql: str) -> list[tuple[object, ...]]:
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return connection.execute(sql).fetchall()
    finally:
        connection.close()


async def test_a_backup_taken_during_a_load_of_moves_holds_every_move_acknowledged_before_it(tmp_path: Path):
    """The bot's own storage layer writes moves to 20 tables without pause while `python bot.py backup`
    runs in a process of its own: the copy opens, passes PRAGMA integrity_check, and holds every move
    whose save had returned before the backup was started, each table's log whole up to its version."""
    live, copy = tmp_path / "sushibar.db", tmp_path / "backup.db"
    database = await SqliteDatabase.open(live)
    store = TableStore(database)
    # Some megabytes of finished moves first, so the copy takes a while of its own.
    filler = await store.create(table_record(1), now=1.0)
    await database.execute_many(
        "INSERT INTO actions (table_id, version, seat, action, at) VALUES (?, ?, ?, ?, ?)",
        [(filler.id, version, 0, "x" * 4000, 1.0) for version in range(1, 2001)],
    )
    records = [await store.create(table_record(channel_id), now=1.0) for channel_id in range(10, 10 + TABLES)]
    acknowledged = {record.id: 0 for record in records}
    stop, under_way = asyncio.Event(), asyncio.Event()

    async def play(record: TableRecord) -> None:
        while not stop.is_set():
            record.state = {"v": 1, "turn": record.version + 1, "padding": "m" * 200}
            await store.save(record, expected_version=record.version, action={"n": 1}, seat=0, now=2.0)
            acknowledged[record.id] = record.version  # save returned: the move is committed
            if sum(acknowledged.values()) >= 5 * TABLES:
                under_way.set()

    players = [asyncio.create_task(play(record)) for record in records]
    try:
        await under_way.wait()
        before = dict(acknowledged)
        environment = {**os.environ, "DATABASE_PATH": str(live), "DATABASE_URL": ""}
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            str(ROOT / "bot.py"),
            "backup",
            str(copy),
            env=environment,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        out, err = await asyncio.wait_for(process.communicate(), timeout=120)
        during = sum(acknowledged.values()) - sum(before.values())
    finally:
        stop.set()
        await asyncio.gather(*players)
        await database.close()

    assert process.returncode == 0, err.decode()
    said = out.decode()
    assert said.startswith(f"Backed up {live} (schema version ") and "integrity_check ok" in said
    assert during > 0  # the bot went on moving while the backup ran
    assert _read(copy, "PRAGMA integrity_check") == [("ok",)]
    for table_id, version in before.items():
        [(stored,)] = _read(copy, f"SELECT version FROM game_tables WHERE id = {table_id}")
        assert isinstance(stored, int) and stored >= version
        logged = _read(copy, f"SELECT version FROM actions WHERE table_id = {table_id} ORDER BY version")
        assert [row[0] for row in logged] == list(range(1, stored + 1))  # one instant: table and log agree
    assert _names(tmp_path, "backup") == ["backup.db"]  # one self-contained file, no -wal
    assert _read(copy, "PRAGMA journal_mode") == [("delete",)]


@pytest.fixture
def live(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A closed Sushi Bar database named by DATABASE_PATH, as `python bot.py backup` reads it."""
    path = tmp_path / "sushibar.db"

    async def make() -> None:
        await (await SqliteDatabase.open(path)).close()

    asyncio.run(make())
    monkeypatch.setenv("DATABASE_PATH", str(path))
    monkeypatch.setenv("DATABASE_URL", "")
    return path


def _backup(capsys: pytest.CaptureFixture[str], *arguments: str) -> tuple[int, str, str]:
    status = bot.main(["backup", *arguments])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def _refused(capsys: pytest.CaptureFixture[str], *arguments: str) -> str:
    status, out, err = _backup(capsys, *arguments)
    assert (status, out) == (2, "")
    assert err.startswith("Sushi Bar cannot back up: ") and err.count("\n") == 1  # one line
    return err


def test_a_backup_is_written_and_an_existing_file_is_replaced_only_with_force(
    live: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    target = tmp_path / "copy.db"
    status, out, _ = _backup(capsys, str(target))
    assert status == 0 and out.count("\n") == 1 and "integrity_check ok" in out
    target.write_bytes(b"an older backup")
    assert "already exists" in _refused(capsys, str(target)) and "--force" in _refused(capsys, str(target))
    assert target.read_bytes() == b"an older backup"  # refused: untouched
    assert _backup(capsys, str(target), "--force")[0] == 0
    assert _read(target, "PRAGMA integrity_check") == [("ok",)]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["copy.db", "sushibar.db"]  # no partial left


def test_bad_backup_paths_get_one_line_and_write_nothing(
    live: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    assert "does not exist" in _refused(capsys, str(tmp_path / "missing" / "copy.db"))
    assert "is a folder" in _refused(capsys, str(tmp_path))
    assert "live database itself" in _refused(capsys, str(live))
    assert "live database itself" in _refused(capsys, str(tmp_path / "." / "sushibar.db-wal"))
    if Path("/proc").is_dir():  # a folder nobody may create files in, root included
        assert "cannot be written" in _refused(capsys, "/proc/sushibar-backup.db")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sushibar.db"]


def test_backup_without_a_database_or_on_postgres_says_what_to_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
):
    monkeypatch.setenv("DATABASE_URL", "")
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "typo.db"))
    assert "no database at" in _refused(capsys, str(tmp_path / "copy.db"))
    assert not (tmp_path / "typo.db").exists()  # a mistyped path is not created
    monkeypatch.setenv("DATABASE_URL", "postgresql://sushibar:secret@localhost:5432/sushibar")
    refusal = _refused(capsys, str(tmp_path / "copy.db"))
    assert "pg_dump" in refusal and "secret" not in refusal
    assert list(tmp_path.iterdir()) == []


def _at_version(path: Path, version: int) -> None:
    """A database as release with `version` migrations left it, holding one server setting."""
    connection = sqlite3.connect(path, isolation_level=None)
    try:
        connection.execute("PRAGMA journal_mode = WAL")
        for number, _, sql in SqliteDatabase.migrations()[:version]:
            for statement in statements(sql):
                connection.execute(statement)
            connection.execute(f"PRAGMA user_version = {number}")
        connection.execute("INSERT INTO guild_settings (guild_id, key, value) VALUES (1, 'timeout', '60')")
    finally:
        connection.close()


async def test_a_migration_keeps_a_copy_named_for_the_version_it_migrates_from(tmp_path: Path):
    path, latest = tmp_path / "sushibar.db", len(SqliteDatabase.migrations())
    _at_version(path, latest - 1)
    database = await SqliteDatabase.open(path)
    assert await database.user_version() == latest
    await database.close()
    kept = before_migration_path(path, latest - 1)
    assert kept.name == f"sushibar.db.before-v{latest - 1}"
    assert _read(kept, "PRAGMA user_version") == [(latest - 1,)]
    assert _read(kept, "SELECT value FROM guild_settings") == [("60",)]
    assert _read(kept, "PRAGMA integrity_check") == [("ok",)]
    # The copy is what the older release opens: a file of its own, no -wal beside it.
    assert _read(kept, "PRAGMA journal_mode") == [("delete",)]
    await (await SqliteDatabase.open(path)).close()  # nothing to migrate: no other copy
    assert _names(tmp_path, ".before-") == [kept.name]


async def test_a_fresh_database_needs_no_copy(tmp_path: Path):
    await (await SqliteDatabase.open(tmp_path / "sushibar.db")).close()
    assert _names(tmp_path, ".before-") == []


async def test_a_copy_that_cannot_be_written_stops_the_migration_with_nothing_changed(tmp_path: Path):
    path, latest = tmp_path / "sushibar.db", len(SqliteDatabase.migrations())
    _at_version(path, latest - 1)
    before_migration_path(path, latest - 1).mkdir()  # where the copy goes, a folder is in the way
    with pytest.raises(DatabaseProblem, match=f"from schema version {latest - 1}.*Nothing was changed"):
        await SqliteDatabase.open(path)
    assert _read(path, "PRAGMA user_version") == [(latest - 1,)]
    assert _names(tmp_path, ".partial") == []


def test_copy_database_replaces_its_target_whole(tmp_path: Path):
    source = sqlite3.connect(tmp_path / "a.db")
    source.execute("CREATE TABLE t (x)")
    source.execute("INSERT INTO t VALUES (1)")
    source.commit()
    target = tmp_path / "b.db"
    target.write_bytes(b"stale")
    assert copy_database(source, target) == target.stat().st_size
    source.close()
    assert _read(target, "SELECT x FROM t") == [(1,)]
