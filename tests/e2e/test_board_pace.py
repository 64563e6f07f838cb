"""A real-time game's board is edited at a bounded rate only while its game is in play: a lobby's edits
and an ended table's go at once. (The fuzz suite's old defect: a Sushi Dice lobby's second edit slept
out the rate, and its refresher woke long after, in the middle of another table's press.)"""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.helpers import Table, text_of
from tests.games import extensions as game_extensions

pytestmark = pytest.mark.seed(7)


@pytest.fixture
def extensions() -> tuple[str, ...]:
    return ("cogs.tables", *game_extensions())


async def test_a_real_time_lobby_shows_each_join_at_once(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = simcord_env
    await env.bot.tree.sync()
    table = Table(env, "sushidice", ["alice", "bob", "carol"])
    # The rate a game in play keeps, made longer than the test (as the fuzz suite's slow clocks do).
    monkeypatch.setattr(table.tables.games["sushidice"], "board_refresh_interval", 600.0)
    await table.open()
    for name in ("bob", "carol"):  # by command: the board is edited beside the answer, not by it
        table.did(name, "runs /sushidice join")
        joined = await table.member(name).slash(table.parent, "sushidice join")
        assert joined.ephemeral
    await env.settle()
    board = text_of(table.board)
    assert "**Seats (3/6)**" in board and str(table.member("carol").id) in board, board
    host = table.tables.publisher._channels[table.channel.id]
    assert host.refresher is None or host.refresher.done()  # nobody asleep, waiting to edit later
