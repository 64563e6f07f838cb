"""Seasons: ratings of a new season start fresh while the all-time ones go on; every result knows its
season and the ratings right after it; a schedule ends a season at the next month or quarter; a
database of the previous release keeps every result (season 0, all-time)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import aiosqlite

from storage.database import Database
from storage.leaderboard import ALL_GAMES, Leaderboard, SeatResult
from storage.schema import statements
from storage.seasons import Seasons, next_boundary
from storage.settings import SCHEDULE_KEY, GuildSettings
from storage.sqlite import SqliteDatabase
from tests.storage.records import finish

ALICE, BOB = 100, 200


def utc(*parts: int) -> float:
    return dt.datetime(*parts, tzinfo=dt.UTC).timestamp()


async def test_a_new_season_starts_fresh_and_all_time_goes_on(database: Database):
    board, seasons = Leaderboard(database), Seasons(database)
    await finish(database, 10, [SeatResult(0, ALICE, 9, 1), SeatResult(1, BOB, 4, 2)])
    assert (await seasons.current(1)).number == 0
    before = await board.top(1)
    assert [s.user_id for s in await board.top(1, season=0)] == [s.user_id for s in before]

    moved = await seasons.start(1, 50.0)
    assert moved is not None
    ended, started = moved
    assert (ended.number, ended.ended_at, started.number, started.started_at) == (0, 50.0, 1, 50.0)
    assert await board.top(1, season=1) == []  # fresh
    assert await board.top(1) == before  # all-time stays

    await finish(database, 11, [SeatResult(0, ALICE, 2, 2), SeatResult(1, BOB, 8, 1)])
    season_top = await board.top(1, season=1)
    assert [(s.user_id, s.games) for s in season_top] == [(BOB, 1), (ALICE, 1)]
    assert [s.games for s in await board.top(1)] == [2, 2]  # both games all-time
    assert [s.games for s in await board.top(1, season=0)] == [1, 1]  # season 0 closed as it was
    bob = await board.standing(1, BOB, "tiny", season=1)
    assert bob is not None and bob.position == 1
    games = await board.recent_games(1, BOB)
    assert [g.season for g in games] == [1, 0]


async def test_each_result_keeps_the_ratings_right_after_it(database: Database):
    board = Leaderboard(database)
    await finish(database, 10, [SeatResult(0, ALICE, 9, 1), SeatResult(1, BOB, 4, 2)])
    await Seasons(database).start(1, 50.0)
    await finish(database, 11, [SeatResult(0, ALICE, 9, 1), SeatResult(1, BOB, 4, 2)])
    over_time = await board.ratings_over_time(1, ALICE)
    assert [(round(p.at), p.season) for p in over_time["tiny"]] == [(13, 0), (14, 1)]
    alice = await board.standing(1, ALICE, "tiny")
    assert alice is not None and over_time["tiny"][-1].rating == alice.rating
    trends = await board.trends(1, [ALICE, BOB], season=1)
    season_alice = await board.standing(1, ALICE, ALL_GAMES, season=1)
    assert season_alice is not None and trends[ALICE] == [season_alice.rating] and len(trends[BOB]) == 1
    assert len((await board.trends(1, [ALICE], "tiny"))[ALICE]) == 2


async def test_two_starters_of_one_scheduled_season_start_it_once(database: Database):
    seasons = Seasons(database)
    assert await seasons.start(1, 10.0, after=0) is not None
    assert await seasons.start(1, 11.0, after=0) is None  # another process was first
    assert [s.number for s in await seasons.all(1)] == [1, 0]
    assert (await seasons.current(2)).number == 0  # every server has its own


async def test_a_schedule_ends_a_season_at_the_next_month_or_quarter(database: Database):
    assert next_boundary("monthly", utc(2026, 12, 2, 15)) == utc(2027, 1, 1)
    assert next_boundary("monthly", utc(2027, 1, 1)) == utc(2027, 2, 1)
    assert next_boundary("quarterly", utc(2026, 11, 5)) == utc(2027, 1, 1)
    assert next_boundary("quarterly", utc(2027, 4, 1)) == utc(2027, 7, 1)
    seasons = Seasons(database)
    await GuildSettings(database).set(1, SCHEDULE_KEY, {"every": "monthly", "since": utc(2026, 12, 2)})
    assert await seasons.due(utc(2026, 12, 31, 23)) == []
    assert await seasons.due(utc(2027, 1, 1, 0, 1)) == [(1, 0)]
    await seasons.start(1, utc(2027, 1, 1, 0, 1), after=0)
    assert await seasons.due(utc(2027, 1, 20)) == []
    assert await seasons.due(utc(2027, 2, 1)) == [(1, 1)]


async def test_a_database_of_the_previous_release_keeps_every_result(tmp_path: Path):
    """Migration 11 on a database at migration 10: its results are season 0 and all-time."""
    path = tmp_path / "old.db"
    async with aiosqlite.connect(path) as old:
        for _, _, sql in SqliteDatabase.migrations()[:10]:
            for statement in statements(sql):
                await old.execute(statement)
        await old.execute(
            "INSERT INTO game_tables (id, guild_id, channel_id, game_id, host_id, status, seats, options,"
            " extra, created_at, updated_at)"
            " VALUES (1, 1, 10, 'tiny', 100, 'finished', '[]', '{}', '{}', 1, 1)"
        )
        await old.execute(
            "INSERT INTO results (table_id, guild_id, game_id, seat, user_id, score, rank, finished_at)"
            " VALUES (1, 1, 'tiny', 0, 100, 9, 1, 5), (1, 1, 'tiny', 1, 200, 4, 2, 5)"
        )
        await old.execute(
            "INSERT INTO ratings (guild_id, game_id, user_id, mu, sigma, games, wins, points)"
            " VALUES (1, 'tiny', 100, 27, 8, 1, 1, 9), (1, 'tiny', 200, 23, 8, 1, 0, 4)"
        )
        await old.execute("PRAGMA user_version = 10")
        await old.commit()
    database = await SqliteDatabase.open(path)
    board = Leaderboard(database)
    all_time, season_0 = await board.top(1, "tiny"), await board.top(1, "tiny", season=0)
    assert [(s.user_id, s.mu, s.games) for s in all_time] == [(100, 27, 1), (200, 23, 1)]
    assert season_0 == all_time
    assert [g.season for g in await board.recent_games(1, 100)] == [0]
    assert await board.ratings_over_time(1, 100) == {}  # no rating was kept before
    await database.close()
