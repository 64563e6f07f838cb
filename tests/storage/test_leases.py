"""Turn-timer leases: one process runs a table's timer, another takes it over once the lease has
expired (its holder died). Times are the caller's (a simulated clock), never the database's."""

from __future__ import annotations

import asyncio
from typing import Any

from storage.database import Database
from storage.postgres import PostgresDatabase
from storage.tables import TableRecord, TableStore
from tests.conftest import new_postgres_database
from tests.storage.records import table_record


def _record(channel_id: int, deadline: float | None = None, status: str = "playing") -> TableRecord:
    return table_record(channel_id, deadline, guild_id=7, status=status)


async def _lease(database: Database, channel_id: int) -> tuple[str | None, float | None]:
    row = await database.fetch_one(
        "SELECT lease_owner, lease_until FROM game_tables WHERE channel_id = ?", (channel_id,)
    )
    assert row is not None
    return row["lease_owner"], row["lease_until"]


async def test_one_of_two_owners_holds_a_timer_until_its_lease_expires(database: Database):
    store = TableStore(database)
    await store.create(_record(10, deadline=30.0), now=0.0)
    assert await store.claim_timer(10, "a", now=0.0, until=10.0)
    assert not await store.claim_timer(10, "b", now=5.0, until=15.0)
    assert await store.claim_timer(10, "a", now=5.0, until=15.0)  # the holder renews
    assert await _lease(database, 10) == ("a", 15.0)
    await store.release_timer(10, "b")  # not b's to give up
    assert await _lease(database, 10) == ("a", 15.0)
    assert not await store.claim_timer(10, "b", now=14.9, until=25.0)
    assert await store.claim_timer(10, "b", now=15.0, until=25.0)  # expired: a stopped renewing
    assert not await store.claim_timer(10, "a", now=16.0, until=26.0)
    await store.release_timer(10, "b")
    assert await _lease(database, 10) == (None, None)
    assert await store.claim_timer(10, "a", now=17.0, until=27.0)


async def test_only_an_open_table_has_a_timer_to_claim(database: Database):
    store = TableStore(database)
    assert not await store.claim_timer(10, "a", now=0.0, until=10.0)  # no table at all
    record = await store.create(_record(10, deadline=30.0), now=0.0)
    record.status = "finished"
    await store.save(record, expected_version=0, action={}, seat=None, now=1.0)
    assert not await store.claim_timer(10, "a", now=2.0, until=12.0)
    await store.create(_record(10, status="lobby"), now=3.0)  # the channel's next table
    assert await store.claim_timer(10, "a", now=3.0, until=13.0)


async def test_claim_due_takes_only_due_playing_tables_nobody_runs(database: Database):
    store = TableStore(database)
    await store.create(_record(1, deadline=10.0), now=0.0)  # due, free
    await store.create(_record(2, deadline=10.0), now=0.0)  # due, held by b
    await store.create(_record(3, deadline=10.0), now=0.0)  # due, b's lease expired
    await store.create(_record(4, deadline=100.0), now=0.0)  # not due yet
    await store.create(_record(5, deadline=10.0, status="lobby"), now=0.0)  # a lobby: no turn timer
    await store.create(_record(6), now=0.0)  # no deadline
    finished = await store.create(_record(8, deadline=10.0), now=0.0)
    finished.status = "finished"
    await store.save(finished, expected_version=0, action={}, seat=None, now=1.0)
    assert await store.claim_timer(2, "b", now=0.0, until=60.0)
    assert await store.claim_timer(3, "b", now=0.0, until=20.0)

    assert sorted(await store.claim_due("a", due_before=30.0, now=30.0, until=90.0)) == [1, 3]
    assert await _lease(database, 3) == ("a", 90.0)
    assert await store.claim_due("a", due_before=30.0, now=30.0, until=90.0) == []  # held now
    assert not await store.claim_timer(1, "b", now=31.0, until=91.0)
    # Later, b's lease of 2 has expired but a's have not; 4 has come due.
    assert sorted(await store.claim_due("c", due_before=200.0, now=85.0, until=160.0)) == [2, 4]


async def test_claim_due_takes_the_most_overdue_first_up_to_its_limit(database: Database):
    store = TableStore(database)
    for channel_id, deadline in ((1, 30.0), (2, 10.0), (3, 20.0)):
        await store.create(_record(channel_id, deadline=deadline), now=0.0)
    assert sorted(await store.claim_due("a", due_before=50.0, now=50.0, until=60.0, limit=2)) == [2, 3]
    assert await store.claim_due("b", due_before=50.0, now=50.0, until=60.0, limit=2) == [1]


async def test_two_processes_claiming_due_tables_at_once_never_share_one(postgres_server: Any):
    """Two pools (two bot processes) sweep for due timers at the same moment: SKIP LOCKED makes each
    pass over the rows the other is claiming, so every table is claimed by exactly one."""
    url = await new_postgres_database(postgres_server)
    one, two = await PostgresDatabase.open(url), await PostgresDatabase.open(url)
    try:
        channels = set(range(1, 41))
        for channel_id in channels:
            await TableStore(one).create(_record(channel_id, deadline=float(channel_id)), now=0.0)
        for round_ in range(3):  # each round, every lease of the round before has expired
            now = 100.0 * (round_ + 1)
            first, second = await asyncio.gather(
                TableStore(one).claim_due("one", due_before=now, now=now, until=now + 50, limit=25),
                TableStore(two).claim_due("two", due_before=now, now=now, until=now + 50, limit=25),
            )
            assert not set(first) & set(second)
            assert set(first) | set(second) == channels and len(first) + len(second) == 40
        # Single claims race as safely: one UPDATE each, the second waits for the first's row lock.
        won = await asyncio.gather(
            *(
                TableStore(database).claim_timer(1, name, now=400.0, until=450.0)
                for database, name in ((one, "one"), (two, "two"), (one, "three"), (two, "four"))
            )
        )
        assert sorted(won) == [False, False, False, True]
    finally:
        await one.close()
        await two.close()


async def test_version_of_the_open_table(database: Database):
    store = TableStore(database)
    assert await store.version_of(10) is None
    record = await store.create(_record(10), now=0.0)
    assert await store.version_of(10) == 0
    await store.save(record, expected_version=0, action={"n": 1}, seat=0, now=1.0)
    assert await store.version_of(10) == 1
    record.status = "finished"
    await store.save(record, expected_version=1, action={"n": 2}, seat=0, now=2.0)
    assert await store.version_of(10) is None


async def test_the_tables_a_process_takes_up_are_those_played_lately(database: Database):
    store = TableStore(database)
    await store.create(_record(1), now=100.0)
    await store.create(_record(2), now=10.0)  # played long ago: it catches up at its next move
    await store.create(_record(3, status="lobby"), now=100.0)  # not played yet: nothing to show
    assert await store.playing_channels(updated_since=50.0) == [(1, 7)]
