"""Bot processes' heartbeats: who is alive and which shards each runs; the dead are forgotten."""

from __future__ import annotations

from storage.database import Database
from storage.processes import BotProcess, Processes


async def test_live_processes_and_their_shards(database: Database):
    processes = Processes(database)
    await processes.beat("a", 2, (0,), now=100.0)
    await processes.beat("b", 2, (1,), now=100.0)
    await processes.beat("b", 2, (1,), now=110.0)  # again: one row, the newest time
    assert await processes.alive(since=90.0) == [
        BotProcess("a", 2, (0,), 100.0),
        BotProcess("b", 2, (1,), 110.0),
    ]


async def test_a_process_not_heard_of_lately_is_forgotten(database: Database):
    processes = Processes(database)
    await processes.beat("dead", 4, (2, 3), now=10.0)
    await processes.beat("live", 4, (0, 1), now=50.0)
    assert [process.owner for process in await processes.alive(since=20.0)] == ["live"]
    assert [process.owner for process in await processes.alive(since=0.0)] == ["live"]  # removed
