"""Shared fixtures: the real bot, built by bot.py's own factory, against simcord."""

from __future__ import annotations

import itertools
import os
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from bot import EXTENSIONS, Settings, SushiBar, create_bot
from tests import seeds as table_seeds
from tests.seeds import TableSeeds

BotFactory = Callable[[], SushiBar]

# aiosqlite's worker thread is no daemon: one connection a test leaves open keeps pytest alive
# after its last test, forever (a CI run that never ends). Each test is checked as it ends.
SQLITE_WORKER = "_connection_worker_thread"


def _sqlite_workers() -> set[threading.Thread]:
    return {thread for thread in threading.enumerate() if SQLITE_WORKER in thread.name and thread.is_alive()}


@pytest.fixture(autouse=True)
def no_sqlite_connection_left_open() -> Iterator[None]:
    before = _sqlite_workers()
    yield  # autouse and first: torn down after every fixture of the test
    left = _sqlite_workers() - before
    for thread in left:
        thread.join(timeout=2.0)  # a connection closed a moment ago ends its thread just after
    if still := [thread for thread in left if thread.is_alive()]:
        pytest.fail(
            f"{len(still)} SQLite connection(s) this test opened are still open: close them in the "
            "test or its fixture (their threads would keep pytest running after the last test)",
            pytrace=False,
        )


# CI runs the property tests on a fixed sequence of examples, so that a submission is judged on
# its own change; a developer's run explores new examples every time.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


# PostgreSQL tests run against a server pgserver (a pip-installed PostgreSQL) starts for the whole run;
# they are skipped only when asked, never because the server is missing (then they fail and say why).
SKIP_POSTGRES = os.environ.get("SUSHIBAR_SKIP_POSTGRES", "").strip() not in ("", "0")
_databases = itertools.count(1)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", table_seeds.MARKER_HELP)


def pytest_report_header(config: pytest.Config) -> str:
    if SKIP_POSTGRES:
        return "postgres: SKIPPED on request (SUSHIBAR_SKIP_POSTGRES is set)"
    return "postgres: tests run against a pgserver PostgreSQL (unset SUSHIBAR_SKIP_POSTGRES to keep it so)"


@pytest.fixture(scope="session")
def postgres_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """One PostgreSQL server for the whole run (about a second to start), stopped at the end."""
    if SKIP_POSTGRES:
        pytest.skip("PostgreSQL tests skipped on request (SUSHIBAR_SKIP_POSTGRES)")
    try:
        import pgserver
    except ImportError as error:
        pytest.fail(
            f"PostgreSQL tests need pgserver ({error}): pip install -e '.[test]', or set "
            "SUSHIBAR_SKIP_POSTGRES=1 to skip them on purpose",
            pytrace=False,
        )
    try:
        server = pgserver.get_server(tmp_path_factory.mktemp("postgres"), cleanup_mode="stop")
    except Exception as error:
        pytest.fail(f"pgserver could not start PostgreSQL: {error}", pytrace=False)
    yield server
    server.cleanup()


@pytest.fixture
async def postgres_url(postgres_server: Any) -> str:
    """The URL of a fresh, empty database of its own for this test."""
    return await new_postgres_database(postgres_server)


async def new_postgres_database(postgres_server: Any) -> str:
    """CREATE DATABASE (about 40 ms) on the run's server; returns its URL."""
    import asyncpg

    uri: str = postgres_server.get_uri()
    name = f"test_{os.getpid()}_{next(_databases)}"
    connection = await asyncpg.connect(uri)
    try:
        await connection.execute(f"CREATE DATABASE {name}")
    finally:
        await connection.close()
    return uri.replace("/postgres?", f"/{name}?", 1)


def _settings(path: Path, url: str = "") -> Settings:
    return Settings(token="simcord", database_path=str(path), database_url=url, turn_timeout=300.0)


@pytest.fixture
def database_path(tmp_path: Path) -> Path:
    return tmp_path / "sushibar.db"


@pytest.fixture
def database_url() -> str:
    """DATABASE_URL of the test's bot: empty (SQLite at database_path) unless a module overrides it."""
    return ""


@pytest.fixture
def extensions() -> tuple[str, ...]:
    """The extensions a test's bot loads; e2e modules narrow or extend it."""
    return EXTENSIONS


@pytest.fixture
def seeds(request: pytest.FixtureRequest) -> TableSeeds:
    """Where the test's bots draw new games' seeds (tests/seeds.py: a `seed` mark fixes them)."""
    return table_seeds.for_test(request)


@pytest.fixture
async def bot_factory(
    database_path: Path, database_url: str, extensions: tuple[str, ...], seeds: TableSeeds
) -> AsyncIterator[BotFactory]:
    """Builds a NEW bot on the same database, as a process restart would."""
    built: list[SushiBar] = []

    def build() -> SushiBar:
        # A new bot is a new process: the one before it is gone, and with it its PostgreSQL
        # connections (a live LISTEN would otherwise keep it following the tables).
        for old in built:
            terminate = getattr(getattr(old, "database", None), "terminate", None)
            if terminate is not None:
                terminate()
        bot = create_bot(
            _settings(database_path, database_url), extensions=extensions, sync=True, seeds=seeds
        )
        built.append(bot)
        return bot

    yield build
    # simcord detaches bots without closing them; an open aiosqlite connection kept alive by a
    # failed test's traceback would keep its worker thread, and so pytest, running forever.
    for bot in built:
        if hasattr(bot, "database"):
            await bot.database.close()


@pytest.fixture
def simcord_bot(bot_factory: BotFactory) -> SushiBar:
    return bot_factory()
