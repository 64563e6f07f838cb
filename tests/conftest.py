"""Shared fixtures: the real bot, built by bot.py's own factory, against simcord."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
from hypothesis import settings

from bot import EXTENSIONS, Settings, SushiBar, create_bot

BotFactory = Callable[[], SushiBar]

# CI runs the property tests on a fixed sequence of examples, so that a submission is judged on
# its own change; a developer's run explores new examples every time.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


def _settings(path: Path) -> Settings:
    return Settings(token="simcord", database_path=str(path), turn_timeout=300.0)


@pytest.fixture
def database_path(tmp_path: Path) -> Path:
    return tmp_path / "sushibar.db"


@pytest.fixture
def extensions() -> tuple[str, ...]:
    """The extensions a test's bot loads; e2e modules narrow or extend it."""
    return EXTENSIONS


@pytest.fixture
async def bot_factory(database_path: Path, extensions: tuple[str, ...]) -> AsyncIterator[BotFactory]:
    """Builds a NEW bot on the same database, as a process restart would."""
    built: list[SushiBar] = []

    def build() -> SushiBar:
        bot = create_bot(_settings(database_path), extensions=extensions, sync=True)
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
