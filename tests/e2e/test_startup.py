"""A bot started without syncing, on a Discord that has none of its commands, says what to do."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot import NO_COMMANDS, SushiBar, create_bot
from tests.conftest import _settings


@pytest.fixture
async def simcord_bot(database_path: Path) -> AsyncIterator[SushiBar]:
    bot = create_bot(_settings(database_path), sync=False)  # neither --sync nor DEV_GUILD_ID
    yield bot
    await bot.database.close()


@pytest.fixture(autouse=True)
def warnings_logged(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="sushibar")


async def test_a_bot_without_registered_commands_says_how_to_sync(simcord_env, caplog):
    logged = [record.getMessage() for record in caplog.get_records("setup")]  # the bot starts in setup
    assert NO_COMMANDS in logged
    assert "--sync" in NO_COMMANDS and "DEV_GUILD_ID" in NO_COMMANDS
