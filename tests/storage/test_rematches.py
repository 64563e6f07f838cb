"""One rematch per finished table (issue 47): the finished table's row is claimed once, however many
press Rematch, in one process or in several sharing PostgreSQL; a claim whose opener died is taken over.
Times are the caller's (a simulated clock), never the database's."""

from __future__ import annotations

import asyncio
from typing import Any

from storage.database import Database
from storage.postgres import PostgresDatabase
from storage.tables import TableStore
from tests.conftest import new_postgres_database
from tests.storage.records import table_record


async def _finished(store: TableStore, channel_id: int = 10) -> int:
    record = await store.create(table_record(channel_id), now=0.0)
    record.status = "finished"
    await store.save(record, expected_version=0, action={"type": "end"}, seat=None, now=1.0)
    assert record.id is not None
    return record.id


async def test_a_finished_table_is_claimed_for_one_rematch(database: Database):
    store = TableStore(database)
    table_id = await _finished(store)
    assert await store.rematch_of(table_id) is None
    assert await store.claim_rematch(table_id, claimed=5.0, stale_before=-55.0)
    assert await store.rematch_of(table_id) == 0  # being opened
    assert not await store.claim_rematch(table_id, claimed=6.0, stale_before=-54.0)
    await store.rematch_opened(table_id, claimed=5.0, rematch_id=42)
    assert await store.rematch_of(table_id) == 42
    await store.release_rematch(table_id, claimed=5.0)  # opened: nothing to release any more
    assert not await store.claim_rematch(table_id, claimed=500.0, stale_before=440.0)  # ever after
    assert await store.rematch_of(table_id) == 42


async def test_a_claim_that_failed_or_whose_opener_died_is_claimed_again(database: Database):
    store = TableStore(database)
    table_id = await _finished(store)
    assert await store.claim_rematch(table_id, claimed=5.0, stale_before=-55.0)
    await store.release_rematch(table_id, claimed=6.0)  # not that claim's to give up
    assert await store.rematch_of(table_id) == 0
    await store.release_rematch(table_id, claimed=5.0)  # opening failed: the next press may try
    assert await store.rematch_of(table_id) is None
    assert await store.claim_rematch(table_id, claimed=7.0, stale_before=-53.0)
    assert not await store.claim_rematch(table_id, claimed=60.0, stale_before=0.0)  # still fresh
    assert await store.claim_rematch(table_id, claimed=70.0, stale_before=10.0)  # its opener died
    await store.rematch_opened(table_id, claimed=7.0, rematch_id=41)  # the dead opener's: ignored
    await store.rematch_opened(table_id, claimed=70.0, rematch_id=43)
    assert await store.rematch_of(table_id) == 43


async def test_only_a_finished_table_has_a_rematch_to_claim(database: Database):
    store = TableStore(database)
    assert not await store.claim_rematch(99, claimed=1.0, stale_before=-59.0)  # no such table
    record = await store.create(table_record(10, status="playing"), now=0.0)
    assert record.id is not None
    assert not await store.claim_rematch(record.id, claimed=1.0, stale_before=-59.0)
    assert await store.rematch_of(record.id) is None


async def test_two_processes_pressing_rematch_at_once_claim_it_once(postgres_server: Any):
    """Two pools (two bot processes) claim the same finished table at the same moment: the second
    UPDATE waits for the first's row lock, then finds the row claimed."""
    url = await new_postgres_database(postgres_server)
    one, two = await PostgresDatabase.open(url), await PostgresDatabase.open(url)
    try:
        table_id = await _finished(TableStore(one))
        won = await asyncio.gather(
            *(
                TableStore(database).claim_rematch(table_id, claimed=10.0 + n, stale_before=-50.0)
                for n, database in enumerate((one, two, one, two))
            )
        )
        assert sorted(won) == [False, False, False, True]
    finally:
        await one.close()
        await two.close()
