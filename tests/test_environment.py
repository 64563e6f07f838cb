"""A bad environment: `python bot.py` explains the problem in one paragraph and exits 2, never hangs.

Each case runs the real entry point as a subprocess with no network. All cases start at once (a
bad start-up is quick, but Python's and discord.py's imports are not free) and each is bounded by
a timeout, which is how a hang shows: the process is killed and its case fails. Cases that need no
process of their own (a damaged page, a device, odd digits) are in test_bot.py and
tests/storage/test_database.py.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from storage.sqlite import SqliteDatabase

ROOT = Path(__file__).resolve().parent.parent
HANG = 60  # seconds: far above a start-up's, far below CI's patience


@dataclass(frozen=True)
class Case:
    env: dict[str, str]  # "{folder}" stands for the case's own folder
    says: str  # words the paragraph must hold


CASES = {
    "a missing token": Case({"DISCORD_TOKEN": ""}, "DISCORD_TOKEN is not set"),
    "a corrupt file": Case({"DATABASE_PATH": "{folder}/corrupt.db"}, "is damaged"),
    "a truncated database": Case({"DATABASE_PATH": "{folder}/truncated.db"}, "is damaged"),
    "a database from a newer release": Case({"DATABASE_PATH": "{folder}/newer.db"}, "newer release"),
    "a missing folder": Case({"DATABASE_PATH": "{folder}/missing/sushibar.db"}, "does not exist"),
    "a place under /proc": Case({"DATABASE_PATH": "/proc/sushibar.db"}, "cannot hold a database"),
    "a folder": Case({"DATABASE_PATH": "{folder}"}, "names a folder"),
    "a time-out of nan": Case({"TURN_TIMEOUT_SECONDS": "nan"}, "TURN_TIMEOUT_SECONDS"),
    "a time-out of inf": Case({"TURN_TIMEOUT_SECONDS": "inf"}, "TURN_TIMEOUT_SECONDS"),
    "a time-out of 1e999": Case({"TURN_TIMEOUT_SECONDS": "1e999"}, "TURN_TIMEOUT_SECONDS"),
    "a negative time-out": Case({"TURN_TIMEOUT_SECONDS": "-30"}, "TURN_TIMEOUT_SECONDS"),
    "a huge time-out": Case({"TURN_TIMEOUT_SECONDS": "1e12"}, "TURN_TIMEOUT_SECONDS"),
}


def _sushi_bar_database(path: Path, *, user_version: int | None = None) -> bytes:
    """A real, migrated Sushi Bar database file (WAL mode, as the bot leaves it); its bytes."""

    async def make() -> None:
        database = await SqliteDatabase.open(path)
        if user_version is not None:
            await database.connection.execute(f"PRAGMA user_version = {user_version}")
        await database.close()

    asyncio.run(make())
    return path.read_bytes()


@dataclass(frozen=True)
class Run:
    status: int | None  # None: still running after HANG seconds, then killed
    stderr: str


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("environment")
    whole = _sushi_bar_database(folder / "whole.db")
    (folder / "corrupt.db").write_bytes(b"SQLite format 2\x00" + bytes(range(256)) * 64)
    (folder / "truncated.db").write_bytes(whole[: len(whole) // 2])
    newer = _sushi_bar_database(folder / "newer.db", user_version=len(SqliteDatabase.migrations()) + 1)
    (folder / "newer.orig").write_bytes(newer)
    return folder


@pytest.fixture(scope="module")
def runs(folder: Path) -> dict[str, Run]:
    started = {}
    for name, case in CASES.items():
        env = {
            **os.environ,
            # Every setting is set (empty = default), so a developer's .env cannot fill one in.
            "DISCORD_TOKEN": "not-a-real-token",
            "DATABASE_PATH": str(folder / f"{len(started)}.db"),
            "DEV_GUILD_ID": "",
            "LOG_LEVEL": "",
            "TURN_TIMEOUT_SECONDS": "",
            **{key: value.format(folder=folder) for key, value in case.env.items()},
        }
        started[name] = subprocess.Popen(
            [sys.executable, str(ROOT / "bot.py")],
            env=env,
            cwd=folder,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
    done = {}
    for name, process in started.items():
        try:
            _, stderr = process.communicate(timeout=HANG)
            done[name] = Run(process.returncode, stderr)
        except subprocess.TimeoutExpired:
            process.kill()
            done[name] = Run(None, process.communicate()[1])
    return done


@pytest.mark.parametrize("name", list(CASES))
def test_a_bad_environment_is_named_in_one_paragraph_and_exits_2(runs: dict[str, Run], name: str):
    run = runs[name]
    assert run.status is not None, f"python bot.py with {name} still ran after {HANG} s:\n{run.stderr}"
    assert run.status == 2, run.stderr
    assert run.stderr.startswith("Sushi Bar cannot start:"), run.stderr
    assert CASES[name].says in run.stderr
    assert "Traceback" not in run.stderr
    if name != "a missing token":  # that one is a walk-through of its own
        assert run.stderr.count("\n") == 1, run.stderr  # one paragraph, one line


def test_a_database_from_a_newer_release_is_left_as_it_was(runs: dict[str, Run], folder: Path):
    assert runs["a database from a newer release"].status == 2
    assert (folder / "newer.db").read_bytes() == (folder / "newer.orig").read_bytes()
    assert not (folder / "newer.db-wal").exists()
