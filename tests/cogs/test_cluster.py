"""Which process shows which guild: Discord's shard rule, (guild_id >> 22) % shard_count."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

import pytest

from cogs.kit.services import process_name
from cogs.tables.cluster import Cluster
from storage.database import Database
from storage.postgres import PostgresDatabase
from storage.sqlite import SqliteDatabase


def cluster(
    shard_ids: list[int] | None, shard_count: int | None, database: type[Database] = PostgresDatabase
) -> Cluster:
    bot = SimpleNamespace(shard_ids=shard_ids, shard_count=shard_count)
    # The class answers what the cluster asks of its database (`shared`): no connection needed.
    return Cluster(cast(Any, bot), cast(Any, database), cast(Any, None), process_name())


@pytest.mark.parametrize(
    ("shard_ids", "count", "guild", "owned"),
    [
        ([0], 2, 2 << 22, True),
        ([0], 2, 3 << 22, False),
        ([1], 2, 3 << 22, True),
        ([0, 1], 2, 3 << 22, True),
        (None, 2, 3 << 22, True),  # every shard in this process
        (None, None, 3 << 22, True),  # unsharded
        ([1], 2, None, True),  # no guild: nothing to leave to another process
    ],
)
def test_a_process_shows_the_guilds_of_its_shards(shard_ids, count, guild, owned):
    assert cluster(shard_ids, count).owns(guild) is owned


def test_sqlite_is_one_process_and_postgres_may_be_shared():
    assert not cluster(None, None, SqliteDatabase).shared
    assert cluster(None, None, PostgresDatabase).shared


def test_two_bots_in_one_process_have_different_lease_names():
    assert cluster([0], 2).owner != cluster([1], 2).owner


async def test_without_a_shared_database_every_lease_is_granted_at_once():
    alone = cluster(None, None, SqliteDatabase)  # its store is None: a query would fail
    assert await alone.claim(123)
    await alone.release(123)


def test_a_process_also_shows_the_guilds_of_shards_that_lost_their_process():
    here = cluster([0], 2)
    assert not here.shows(3 << 22)
    here.orphaned = frozenset({1})
    assert here.shows(3 << 22) and here.shows(2 << 22)
