"""Storage: migrations, the version guard, the action log, and per-server leaderboards."""

from __future__ import annotations

from pathlib import Path

import aiosqlite
import pytest

from storage.database import Database
from storage.leaderboard import ALL_GAMES, Leaderboard, SeatResult
from storage.schema import statements
from storage.sqlite import SqliteDatabase
from storage.tables import ChannelBusy, StaleVersion, TableRecord, TableStore
from tests.storage.records import table_record


def _record(channel_id: int = 10, guild_id: int = 1) -> TableRecord:
    return table_record(channel_id, guild_id=guild_id)


async def test_migrations_run_twice_are_a_no_op(tmp_path: Path):
    path = tmp_path / "twice.db"
    first = await SqliteDatabase.open(path)
    version = await first.schema_version()
    await first.close()
    again = await SqliteDatabase.open(path)
    assert await again.schema_version() == version == len(SqliteDatabase.migrations())
    assert await again.migrate() == version
    await again.close()


async def test_migrating_again_is_a_no_op_on_both_backends(database: Database):
    version = await database.schema_version()
    assert version == len(database.migrations()) == len(SqliteDatabase.migrations())
    assert await database.migrate() == version


async def test_pragmas_are_set(tmp_path: Path):
    database = await SqliteDatabase.open(tmp_path / "test.db")
    async with database.connection.execute("PRAGMA journal_mode") as cursor:
        assert (await cursor.fetchone())[0] == "wal"
    async with database.connection.execute("PRAGMA foreign_keys") as cursor:
        assert (await cursor.fetchone())[0] == 1
    await database.close()


async def test_a_stale_writer_is_refused_and_changes_nothing(database: Database):
    store = TableStore(database)
    record = await store.create(_record(), now=1.0)
    first, second = record.copy(), record.copy()
    first.state = {"v": 1, "turn": 1}
    await store.save(first, expected_version=0, action={"type": "a"}, seat=0, now=2.0)
    second.state = {"v": 1, "turn": 99}
    with pytest.raises(StaleVersion):
        await store.save(second, expected_version=0, action={"type": "b"}, seat=1, now=3.0)
    stored = await store.open_table(10)
    assert stored is not None and stored.version == 1 and stored.state == {"v": 1, "turn": 1}
    assert [action for _, _, action in await store.actions(record.id)] == [{"type": "a"}]


async def test_the_action_log_keeps_order(database: Database):
    store = TableStore(database)
    record = await store.create(_record(), now=1.0)
    for index in range(5):
        await store.save(
            record, expected_version=record.version, action={"n": index}, seat=index % 2, now=2.0
        )
    log = await store.actions(record.id)
    assert [version for version, _, _ in log] == [1, 2, 3, 4, 5]
    assert [action["n"] for _, _, action in log] == [0, 1, 2, 3, 4]
    assert [seat for _, seat, _ in log] == [0, 1, 0, 1, 0]


async def test_one_open_table_per_channel(database: Database):
    store = TableStore(database)
    record = await store.create(_record(), now=1.0)
    with pytest.raises(ChannelBusy):
        await store.create(_record(), now=1.0)
    record.status = "finished"
    await store.save(record, expected_version=0, action={"type": "end"}, seat=None, now=2.0)
    assert await store.open_table(10) is None
    assert (await store.create(_record(), now=3.0)).id != record.id


async def test_leaderboard_of_one_server_never_shows_another(database: Database):
    store, board = TableStore(database), Leaderboard(database)
    for guild_id, winner in ((1, 100), (2, 300)):
        record = await store.create(_record(channel_id=guild_id * 10, guild_id=guild_id), now=1.0)
        record.status = "finished"
        results = [SeatResult(0, winner, 10, 1), SeatResult(1, winner + 1, 4, 2)]
        await store.save(record, expected_version=0, action={"type": "end"}, seat=0, now=2.0, results=results)
    assert [s.user_id for s in await board.top(1, "tiny")] == [100, 101]
    assert [s.user_id for s in await board.top(2, "tiny")] == [300, 301]
    assert await board.standing(1, 300) is None
    assert await board.stats(2, 100) == {}


async def test_ratings_wins_and_points_add_up(database: Database):
    store, board = TableStore(database), Leaderboard(database)
    for game in range(3):
        record = await store.create(_record(channel_id=50 + game), now=1.0)
        record.status = "finished"
        results = [SeatResult(0, 100, 5, 1), SeatResult(1, 200, 3, 2)]
        await store.save(
            record, expected_version=0, action={"type": "end"}, seat=0, now=2.0 + game, results=results
        )
    alice, bob = await board.top(1, "tiny")
    assert (alice.user_id, alice.games, alice.wins, alice.points) == (100, 3, 3, 15)
    assert (bob.user_id, bob.games, bob.wins, bob.points) == (200, 3, 0, 9)
    assert alice.rating > bob.rating and alice.position == 1
    assert (await board.standing(1, 200)).position == 2
    assert set(await board.stats(1, 100)) == {"tiny", ALL_GAMES}
    assert await board.recent(1, 100) == [("tiny", 5, 1)] * 3


async def test_a_stale_final_move_records_no_result(database: Database):
    """The final move and its results are one transaction: a refused writer leaves no result behind."""
    store, board = TableStore(database), Leaderboard(database)
    record = await store.create(_record(), now=1.0)
    await store.save(record.copy(), expected_version=0, action={"type": "a"}, seat=0, now=2.0)
    record.status = "finished"
    with pytest.raises(StaleVersion):
        await store.save(
            record,
            expected_version=0,
            action={"type": "end"},
            seat=0,
            now=3.0,
            results=[SeatResult(0, 100, 5, 1)],
        )
    assert await board.top(1, "tiny") == []


async def test_message_ids_survive_a_move_saved_from_an_older_copy(database: Database):
    """A DM sent while the next move is committed: the move must not wipe the DM's message id."""
    store = TableStore(database)
    record = await store.create(_record(), now=1.0)
    next_move = record.copy()  # the next move starts from the record as it was
    await store.set_message(record.id, "dm:0", 555)  # meanwhile the DM goes out
    await store.set_message(record.id, "dm:1", None)  # and seat 1's DMs turn out to be closed
    await store.save(next_move, expected_version=0, action={"type": "a"}, seat=0, now=2.0)
    assert await store.messages(record.id) == {"dm:0": 555, "dm:1": None}


async def test_migration_moves_message_ids_out_of_extra(tmp_path: Path):
    """Databases of earlier releases kept message ids in game_tables.extra; migration 2 moves them."""
    path = tmp_path / "old.db"
    async with aiosqlite.connect(path) as old:
        for statement in statements(SqliteDatabase.migrations()[0][2]):
            await old.execute(statement)
        await old.execute(
            "INSERT INTO game_tables (guild_id, channel_id, game_id, host_id, status, seats, options, extra,"
            " created_at, updated_at) VALUES (1, 10, 'tiny', 100, 'playing', '[]', '{}', ?, 1, 1)",
            ('{"locale": "de", "board": 42, "dm": {"0": 7, "2": 9}, "dm_closed": [1]}',),
        )
        await old.execute("PRAGMA user_version = 1")
        await old.commit()
    database = await SqliteDatabase.open(path)
    store = TableStore(database)
    record = await store.open_table(10)
    assert record is not None and record.extra == {"locale": "de"}
    assert await store.messages(record.id) == {"board": 42, "dm:0": 7, "dm:2": 9, "dm:1": None}
    await database.close()


async def test_a_turn_ping_is_claimed_once_per_turn_and_one_stays_live(database: Database):
    """Migration 9: every process shares which seats were pinged this turn and which ping is live."""
    store = TableStore(database)
    record = await store.create(_record(), now=1.0)
    assert await store.claim_pings(record.id, [0, 1], version=0) == [0, 1]
    assert await store.claim_pings(record.id, [0, 1], version=0) == []  # another process: too late
    await store.save(record.copy(), expected_version=0, action={"type": "a"}, seat=0, now=2.0)
    assert await store.claim_pings(record.id, [0, 1], version=1) == [0]  # only seat 0 moved since
    # A new phase invites seat 1 (a duel starts): a turn of its own, though it has not moved.
    assert await store.claim_pings(record.id, [1], version=1, invitation=True) == [1]
    assert await store.claim_pings(record.id, [1], version=1, invitation=True) == []  # once per version
    assert await store.keep_ping(record.id, 500) == []
    assert await store.keep_ping(record.id, 700) == [500]  # the older ping goes
    assert await store.keep_ping(record.id, 600) == [600]  # posted before 700 elsewhere: 700 stays
    assert await store.drop_pings(record.id) == [700]
    assert await store.drop_pings(record.id) == []
    assert await store.messages(record.id) == {}  # ping rows are no board or DM
