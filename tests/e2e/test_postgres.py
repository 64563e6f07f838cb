"""The bot on PostgreSQL (DATABASE_URL): a short game, a restart mid-game, the game goes on; the
leaderboard, settings and the turn timer live in PostgreSQL too."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from cogs.tables import tables_of
from storage.postgres import PostgresDatabase
from tests.e2e.helpers import Table, text_of
from tests.e2e.tinygame import FOUNDATION


@pytest.fixture
def extensions() -> tuple[str, ...]:
    return FOUNDATION


@pytest.fixture
def database_url(postgres_url: str) -> str:
    return postgres_url


async def test_a_game_on_postgres_survives_a_restart_and_its_timer_too(simcord_env, bot_factory):
    assert isinstance(simcord_env.bot.database, PostgresDatabase)
    table = Table(simcord_env, "tiny", ["alice", "bob"])
    await table.seat_everyone()
    await table.click("alice", "+2")
    board_before = table.board
    await simcord_env.advance_time(200)  # bob's timer is running when the bot goes down
    await simcord_env.restart_bot(bot_factory())
    await simcord_env.advance_time(101)  # re-armed from PostgreSQL: bob's time-out plays his move
    assert any("took too long" in (m.content or "") for m in table.public_messages())
    await table.member("alice").click(board_before, label="+2")  # the board from before the restart
    assert "alice: 4" in text_of(table.board) and table.board.id == board_before.id
    record = await tables_of(simcord_env.bot).store.last_table(table.channel.id)
    assert record is not None and record.version >= 4


def test_an_unreachable_server_stops_the_bot_with_one_paragraph_and_no_password(tmp_path: Path):
    env = {
        **os.environ,
        "DISCORD_TOKEN": "x",
        "DATABASE_URL": "postgresql://bot:hunter2@127.0.0.1:1/sushibar",
        "DATABASE_PATH": str(tmp_path / "unused.db"),
    }
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "bot.py"], cwd=root, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    message = done.stderr.strip()
    assert message.startswith(
        "Sushi Bar cannot start: PostgreSQL at postgresql://bot:***@127.0.0.1:1/sushibar"
    )
    assert "cannot be reached" in message and "hunter2" not in message and "\n" not in message
