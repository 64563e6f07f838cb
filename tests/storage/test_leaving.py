"""A process that stops cleanly hands its tables over at once (cogs/tables/cluster.py, `Cluster.leave`):
its timer leases are given up and its heartbeat row goes, so another process of the cluster takes its
deadlines and shards now, not a LEASE later. SQLite has one process: nothing to hand over."""

from __future__ import annotations

from typing import Any, cast

from cogs.tables.cluster import Cluster
from storage.database import Database
from storage.processes import Processes
from storage.tables import TableStore
from tests.storage.records import table_record


async def test_a_stopping_process_gives_up_its_leases_and_its_heartbeat(database: Database):
    store, processes = TableStore(database), Processes(database)
    for channel_id in (10, 11, 12):
        await store.create(table_record(channel_id, 30.0, guild_id=7, status="playing"), now=0.0)
    assert await store.claim_timer(10, "a", now=0.0, until=30.0)
    assert await store.claim_timer(11, "a", now=0.0, until=30.0)
    assert await store.claim_timer(12, "b", now=0.0, until=30.0)
    await processes.beat("a", 1, (0,), 0.0)
    await processes.beat("b", 1, (0,), 0.0)

    assert await store.release_timers("a") == 2
    await processes.leave("a")

    assert await store.claim_timer(10, "b", now=1.0, until=31.0)  # at once, not at 30.0
    assert await store.claim_timer(11, "b", now=1.0, until=31.0)
    assert not await store.claim_timer(12, "a", now=1.0, until=31.0)  # b's own stays b's
    assert [process.owner for process in await processes.alive(since=0.0)] == ["b"]


async def test_the_cluster_leaves_only_a_shared_database(database: Database):
    store = TableStore(database)
    await store.create(table_record(10, 30.0, guild_id=7, status="playing"), now=0.0)
    assert await store.claim_timer(10, "a", now=0.0, until=30.0)
    await Cluster(cast(Any, None), database, store, "a").leave()
    row = await database.fetch_one("SELECT lease_owner FROM game_tables WHERE channel_id = 10")
    assert row is not None
    assert row["lease_owner"] == (None if database.shared else "a")
