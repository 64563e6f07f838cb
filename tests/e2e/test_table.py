"""The shared table, end to end: the real bot against simcord, with the test-only Tiny Race."""

from __future__ import annotations

import pytest

from tests.e2e.helpers import Table

FOUNDATION = ("cogs.table", "tests.e2e.tinygame", "cogs.leaderboard", "cogs.help", "cogs.settings")


@pytest.fixture
def extensions() -> tuple[str, ...]:
    return FOUNDATION


async def test_lobby_join_start_and_play_by_buttons(simcord_env):
    table = Table(simcord_env, "tiny", ["alice", "bob"])
    result = await table.open()
    assert not result.ephemeral
    board = table.board
    assert "Tiny Race" in board.embeds[0].title
    await table.join("bob")
    assert "<@" in table.board.embeds[0].fields[0].value
    await table.start()
    assert "Turn: alice" in table.board.content
    await table.click("alice", "+2")
    assert "alice: 2" in table.board.content
    assert "Turn: bob" in table.board.content
