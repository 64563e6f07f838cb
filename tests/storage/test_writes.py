"""One-hop writes: many tables moving at once, beside other writers, and the light start-up read."""

from __future__ import annotations

import asyncio

import pytest

from storage.database import Database, Executor
from storage.leaderboard import Leaderboard, SeatResult
from storage.settings import GuildSettings
from storage.tables import Deadline, TableRecord, TableStore
from tests.storage.records import table_record


def _record(channel_id: int, deadline: float | None = None, status: str = "playing") -> TableRecord:
    return table_record(channel_id, deadline, status=status, options={"nested": {"list": [1, 2]}})


async def test_many_tables_move_at_once_beside_other_writers(database: Database):
    """Moves of 30 tables interleave with settings writes (multi-statement transactions); every
    move lands once, in order, and the final ones with their results."""
    store, settings = TableStore(database), GuildSettings(database)
    records = [await store.create(_record(channel_id), now=1.0) for channel_id in range(10, 40)]

    async def play(record: TableRecord) -> None:
        for move in range(5):
            record.state = {"v": 1, "turn": move + 1}
            final = move == 4
            record.status = "finished" if final else "playing"
            results = [SeatResult(0, 100, 3, 1), SeatResult(1, 200, 1, 2)] if final else None
            await store.save(
                record, expected_version=record.version, action={"n": move}, seat=0, now=2.0, results=results
            )

    async def configure() -> None:
        for index in range(20):
            await settings.set(1, "turn_timeout", index)

    await asyncio.gather(*(play(record) for record in records), configure())
    for record in records:
        stored = await store.get(record.id or 0)
        assert stored is not None and (stored.version, stored.state) == (5, {"v": 1, "turn": 5})
        assert [version for version, _, _ in await store.actions(record.id or 0)] == [1, 2, 3, 4, 5]
    assert await settings.get(1, "turn_timeout") == 19
    alice = (await Leaderboard(database).top(1, "tiny"))[0]
    assert (alice.user_id, alice.games, alice.wins) == (100, 30, 30)


async def test_a_failing_write_leaves_nothing_and_the_next_goes_through(database: Database):
    store = TableStore(database)
    record = await store.create(_record(10), now=1.0)
    with pytest.raises(TypeError):  # not JSON: refused before anything is written
        await store.save(record, expected_version=0, action={"bad": object()}, seat=0, now=2.0)

    async def half_then_fail(executor: Executor) -> None:
        await executor.execute("UPDATE game_tables SET version = 7 WHERE id = ?", (record.id,))
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        await database.atomic(half_then_fail)
    await store.save(record, expected_version=0, action={"n": 1}, seat=0, now=2.0)
    stored = await store.get(record.id or 0)
    assert stored is not None and stored.version == 1


async def test_start_up_reads_only_the_deadlines_of_open_tables(database: Database):
    store = TableStore(database)
    await store.create(_record(10, deadline=50.0), now=1.0)
    await store.create(_record(11, deadline=None), now=1.0)
    lobby = _record(12, deadline=20.0, status="lobby")
    lobby.guild_id = 2
    await store.create(lobby, now=1.0)
    closed = await store.create(_record(13, deadline=5.0), now=1.0)
    closed.status = "finished"
    await store.save(closed, expected_version=0, action={}, seat=None, now=3.0)
    assert await store.with_deadlines() == [
        Deadline(12, "lobby", 20.0, 1.0, guild_id=2),
        Deadline(10, "playing", 50.0, 1.0, guild_id=1),
    ]


def test_a_copied_record_shares_nothing_mutable():
    record = _record(10)
    record.extra = {"locale": "de", "seen": [1]}
    twin = record.copy()
    twin.options["nested"]["list"].append(3)
    twin.extra["seen"].append(2)
    twin.seats[0].timeouts = 2
    assert record.options == {"nested": {"list": [1, 2]}} and record.extra["seen"] == [1]
    assert record.seats[0].timeouts == 0 and twin.state is record.state
