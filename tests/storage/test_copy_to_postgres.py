"""Moving to PostgreSQL: a database filled through the real stores is copied whole, counted, and
every finished game's log replays to its stored end; a non-empty target is refused."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rules.registry import GAMES
from storage.copy_to_postgres import TABLES, CopyRefused, main, run
from storage.history import Filter, HistoryStore
from storage.leaderboard import Leaderboard, SeatResult
from storage.postgres import PostgresDatabase
from storage.rolls import RollStore
from storage.settings import GuildSettings, PlayerSettings
from storage.sqlite import SqliteDatabase
from storage.tables import Seat, TableRecord, TableStore
from tests.conftest import new_postgres_database


async def _play(store: TableStore, channel_id: int, game_id: str, seed: int) -> int:
    """A whole game through the store as the bot plays it: the start with its seed, every move logged,
    the final move with its results."""
    game = GAMES[game_id]
    seats = [Seat(100, "alice"), Seat(200, "bob")]
    record = await store.create(TableRecord(1, channel_id, game_id, 100, seats=seats), now=1.0)
    state = game.new(2, seed, {})
    record.status, record.state = "playing", game.dump(state)
    await store.save(record, expected_version=0, action={"type": "start", "seed": seed}, seat=None, now=2.0)
    while not game.is_over(state):
        seat = min(game.to_move(state))
        action = game.default_action(state, seat)
        game.apply(state, seat, action)
        record.state = game.dump(state)
        results = None
        if game.is_over(state):
            record.status = "finished"
            scores, ranks = game.scores(state), game.ranking(state)
            results = [SeatResult(s, seats[s].user_id, scores[s], ranks[s]) for s in range(2)]
        await store.save(
            record,
            expected_version=record.version,
            action=game.encode_action(action),
            seat=seat,
            now=3.0,
            results=results,
        )
    assert record.id is not None
    return record.id


async def test_a_filled_database_is_copied_counted_and_replayed(tmp_path: Path, postgres_server: Any):
    path = tmp_path / "sushibar.db"
    source = await SqliteDatabase.open(path)
    tables = TableStore(source)
    finished = [
        await _play(tables, 10 + n, game_id, seed=n) for n, game_id in enumerate(("sushizock", "sushigo"))
    ]
    open_table = await tables.create(
        TableRecord(1, 99, "sushizock", 100, seats=[Seat(100, "alice")]), now=5.0
    )
    await tables.set_message(open_table.id or 0, "board", 4242)
    await tables.set_message(open_table.id or 0, "dm:0", None)
    await GuildSettings(source).set(1, "turn_timeout", 60)
    await PlayerSettings(source).set(100, "pings", "dm")
    rolls = RollStore(source)
    await rolls.log(
        guild_id=1,
        channel_id=10,
        user_id=100,
        request="2d6",
        expression="2d6",
        label=None,
        private=False,
        totals=[7],
        tally={6: (2, 7)},
        now=4.0,
    )
    await rolls.save("user", 100, "attack", "1d20+5")
    await source.close()

    url = await new_postgres_database(postgres_server)
    report = await run(str(path), url)
    assert report.ok and report.replayed == len(finished) and not report.diverged
    assert all(source_rows == target_rows for source_rows, target_rows in report.counts.values())
    assert report.counts["actions"][0] > 4 and report.counts["dice_roll_faces"] == (1, 1)

    target = await PostgresDatabase.open(url)
    try:  # what players see is the same, and new rows continue after the copied ids
        copied = TableStore(target)
        assert await copied.messages(open_table.id or 0) == {"board": 4242, "dm:0": None}
        assert (await Leaderboard(target).standing(1, 100, "sushizock")) is not None
        assert await HistoryStore(target).count(Filter(1)) == 2
        assert await GuildSettings(target).get(1, "turn_timeout") == 60
        assert [saved.name for saved in await RollStore(target).saved("user", 100)] == ["attack"]
        newer = await copied.create(TableRecord(1, 77, "sushizock", 100, seats=[]), now=6.0)
        assert (newer.id or 0) > (open_table.id or 0)
    finally:
        await target.close()

    with pytest.raises(CopyRefused, match="not empty"):
        await run(str(path), url)  # the target is not empty any more


def test_a_missing_source_copies_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    assert main(["--from", str(tmp_path / "nothing.db"), "--to", "postgresql://x:secret@127.0.0.1:1/db"]) == 2
    assert "no SQLite database" in capsys.readouterr().err
    assert "game_tables" in TABLES
