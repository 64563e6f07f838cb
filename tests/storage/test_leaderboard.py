"""Results with computer players: computers are named in the results but never rated; the humans'
games count (marked) or not, as the server says."""

from __future__ import annotations

from storage.database import Database
from storage.history import Filter, HistoryStore
from storage.leaderboard import ALL_GAMES, Leaderboard, SeatResult
from tests.storage.records import finish

ALICE, BOB = 100, 200


async def test_computers_are_never_rated_and_the_human_counts_the_game_marked(database: Database):
    results = [SeatResult(0, ALICE, 9, 1), SeatResult(1, -1, 4, 2, level="hard")]
    table_id = await finish(database, 10, results)
    board = Leaderboard(database)
    top = await board.top(1, "tiny")
    assert [(s.user_id, s.games, s.computer_games) for s in top] == [(ALICE, 1, 1)]
    assert await board.standing(1, -1) is None
    assert top[0].mu > 25  # beating a computer moved her rating
    assert [(g.game_id, g.with_computers) for g in await board.recent_games(1, ALICE)] == [("tiny", True)]
    game = await HistoryStore(database).game(1, table_id)  # history still names both seats
    assert game is not None and [p.name for p in game.by_rank()] == ["player 100", "player -1"]


async def test_beating_hard_moves_a_rating_more_than_beating_easy(database: Database):
    await finish(database, 10, [SeatResult(0, ALICE, 9, 1), SeatResult(1, -1, 4, 2, level="easy")])
    await finish(database, 11, [SeatResult(0, BOB, 9, 1), SeatResult(1, -1, 4, 2, level="hard")])
    board = Leaderboard(database)
    alice, bob = await board.standing(1, ALICE, ALL_GAMES), await board.standing(1, BOB, ALL_GAMES)
    assert alice is not None and bob is not None and bob.mu > alice.mu


async def test_a_game_not_counted_changes_nobodys_stats_but_stays_in_history(database: Database):
    counted = [SeatResult(0, ALICE, 9, 1), SeatResult(1, BOB, 4, 2)]
    await finish(database, 10, counted)
    board = Leaderboard(database)
    before = await board.stats(1, ALICE), await board.stats(1, BOB), await board.recent(1, ALICE)
    not_counted = [
        SeatResult(0, ALICE, 3, 2, counted=False),
        SeatResult(1, BOB, 9, 1, counted=False),
        SeatResult(2, -1, 5, 1, level="normal", counted=False),
    ]
    table_id = await finish(database, 11, not_counted)
    assert (await board.stats(1, ALICE), await board.stats(1, BOB), await board.recent(1, ALICE)) == before
    history = HistoryStore(database)
    assert await history.count(Filter(1)) == 2 and await history.game(1, table_id) is not None
