"""A server's finished games: newest first, paged, by game and by member; pruning by retention."""

from __future__ import annotations

from storage.database import Database
from storage.history import DAY, Filter, HistoryStore
from storage.leaderboard import Leaderboard, SeatResult
from storage.settings import RETENTION_KEY, GuildSettings
from storage.tables import Seat, TableRecord, TableStore

ALICE, BOB, CAROL = 100, 200, 300
NAMES = {ALICE: "alice", BOB: "bob", CAROL: "carol"}


async def finished(
    database: Database,
    *,
    started: float,
    finished: float,
    game_id: str = "sushizock",
    guild_id: int = 1,
    channel_id: int = 10,
    players: tuple[int, ...] = (ALICE, BOB),
    scores: tuple[int, ...] = (12, 7),
) -> int:
    """A game played to its end: opened, started (with its seed), one move, the final move."""
    store = TableStore(database)
    record = await store.create(
        TableRecord(
            guild_id=guild_id,
            channel_id=channel_id,
            game_id=game_id,
            host_id=players[0],
            seats=[Seat(user, NAMES[user]) for user in players],
        ),
        now=started - 60,
    )
    record.status = "playing"
    await store.save(
        record,
        expected_version=0,
        action={"type": "start", "user": players[0], "seed": 7},
        seat=None,
        now=started,
    )
    await store.save(record, expected_version=1, action={"type": "move"}, seat=0, now=started + 1)
    record.status = "finished"
    ranks = [1 + sum(other > score for other in scores) for score in scores]
    results = [SeatResult(seat, user, scores[seat], ranks[seat]) for seat, user in enumerate(players)]
    await store.save(
        record, expected_version=2, action={"type": "move"}, seat=1, now=finished, results=results
    )
    assert record.id is not None
    return record.id


async def test_a_finished_game_with_its_players_ranks_and_length(database: Database):
    table_id = await finished(
        database, started=1000.0, finished=1000.0 + 754, players=(ALICE, BOB, CAROL), scores=(5, 9, 5)
    )
    game = await HistoryStore(database).game(1, table_id)
    assert game is not None
    assert game.game_id == "sushizock" and game.channel_id == 10
    assert [(p.name, p.score, p.rank) for p in game.players] == [
        ("alice", 5, 2),
        ("bob", 9, 1),
        ("carol", 5, 2),
    ]
    assert [p.name for p in game.by_rank()] == ["bob", "alice", "carol"]
    assert game.seconds == 754  # from the deal, not from the lobby's opening


async def test_newest_first_and_paged(database: Database):
    ids = [await finished(database, started=100.0 * n, finished=100.0 * n + 50) for n in range(1, 8)]
    history = HistoryStore(database)
    everything = Filter(1)
    assert await history.count(everything) == 7
    first = await history.page(everything, page=0, per_page=3)
    second = await history.page(everything, page=1, per_page=3)
    last = await history.page(everything, page=2, per_page=3)
    assert [g.table_id for g in first + second + last] == ids[::-1]
    assert await history.page(everything, page=3, per_page=3) == []


async def test_filtered_by_game_and_by_member_and_only_this_server(database: Database):
    zock = await finished(database, started=10, finished=20, players=(ALICE, BOB))
    bock = await finished(
        database, started=30, finished=40, game_id="rockthebock", players=(BOB, CAROL), scores=(3, 4)
    )
    elsewhere = await finished(database, started=50, finished=60, guild_id=2, channel_id=99)
    history = HistoryStore(database)

    async def ids(where: Filter) -> list[int]:
        return [g.table_id for g in await history.page(where, page=0, per_page=10)]

    assert await ids(Filter(1)) == [bock, zock]
    assert await ids(Filter(1, game_id="sushizock")) == [zock]
    assert await ids(Filter(1, user_id=ALICE)) == [zock]
    assert await ids(Filter(1, user_id=CAROL)) == [bock]
    assert await ids(Filter(1, game_id="sushizock", user_id=CAROL)) == []
    assert await history.count(Filter(1, user_id=BOB)) == 2
    assert await ids(Filter(2)) == [elsewhere]
    assert await history.game(1, elsewhere) is None  # another server's game is not found here


async def test_unfinished_and_cancelled_tables_are_not_history(database: Database):
    store = TableStore(database)
    record = await store.create(
        TableRecord(guild_id=1, channel_id=10, game_id="tiny", host_id=ALICE), now=1.0
    )
    record.status = "cancelled"
    await store.save(record, expected_version=0, action={"type": "cancel"}, seat=None, now=2.0)
    history = HistoryStore(database)
    assert await history.count(Filter(1)) == 0
    assert record.id is not None and await history.game(1, record.id) is None


async def test_pruning_keeps_everything_until_a_server_sets_a_retention(database: Database):
    old = await finished(database, started=0, finished=10)
    history = HistoryStore(database)
    assert await history.prune(now=1000 * DAY) == 0
    await GuildSettings(database).set(1, RETENTION_KEY, 0)  # 0 = keep forever
    assert await history.prune(now=1000 * DAY) == 0
    assert await history.game(1, old) is not None


async def test_pruning_removes_old_closed_tables_with_their_logs_and_keeps_the_ratings(database: Database):
    old = await finished(database, started=0, finished=10)
    recent = await finished(database, started=20 * DAY, finished=20 * DAY + 10)
    other_server = await finished(database, started=0, finished=10, guild_id=2, channel_id=99)
    store = TableStore(database)
    still_open = await store.create(
        TableRecord(guild_id=1, channel_id=11, game_id="tiny", host_id=ALICE), now=0
    )
    settings = GuildSettings(database)
    await settings.set(1, RETENTION_KEY, 7)
    history = HistoryStore(database)
    ratings_before = await Leaderboard(database).top(1)

    assert await history.prune(now=21 * DAY) == 1
    assert await history.game(1, old) is None
    assert await store.actions(old) == []  # the action log went with it
    assert await history.game(1, recent) is not None
    assert await history.game(2, other_server) is not None  # server 2 keeps everything
    assert await store.open_table(11) is not None and still_open.id is not None
    assert await Leaderboard(database).top(1) == ratings_before

    assert await history.prune(now=40 * DAY, guild_id=2) == 0  # only server 2, which keeps all
    assert await history.game(1, recent) is not None
    assert await history.prune(now=40 * DAY) == 1
    assert await history.count(Filter(1)) == 0
