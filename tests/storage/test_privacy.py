"""Forgetting a player and a server, on both backends: afterwards no row of any table holds the player's
id or name (the whole database dumped and searched), the others' games, scores and ratings stay."""

from __future__ import annotations

from typing import Any

from storage.database import Database
from storage.history import Filter, HistoryStore
from storage.leaderboard import Leaderboard, SeatResult
from storage.privacy import FORMER_PLAYER, PrivacyStore
from storage.rolls import RollStore
from storage.settings import LANGUAGE_KEY, NOTIFY_KEY, GuildSettings, PlayerSettings
from storage.sqlite import SqliteDatabase
from storage.tables import Seat, TableRecord, TableStore

ALICE, BOB = 734591002233445566, 734591009988776655  # snowflake-sized: found as text in a dump
ALICE_NAME, BOB_NAME = "Alicia Zebrafish", "Bob"
GUILD, OTHER_GUILD = 4100, 4200


def former(locale: str | None) -> str:
    return {"de": "ein ehemaliger Spieler"}.get(locale or "", "a former player")


async def dump(database: Database) -> str:
    """Every row of every table as text: SQLite's iterdump, PostgreSQL's tables selected whole."""
    if isinstance(database, SqliteDatabase):
        lines = await database.connection._execute(lambda: list(database.connection._conn.iterdump()))
        return "\n".join(lines)
    tables = await database.fetch_all(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
    )
    out = []
    for row in tables:
        for record in await database.fetch_all(f'SELECT * FROM "{row["table_name"]}"'):
            out.append(f"{row['table_name']}: " + " | ".join(str(value) for value in record))
    return "\n".join(out)


async def play(database: Database, *, channel: int, guild: int = GUILD, locale: str = "en") -> int:
    """Alice (host) and Bob play a game to its end at `channel`; Alice wins."""
    store = TableStore(database)
    record = await store.create(
        TableRecord(
            guild_id=guild,
            channel_id=channel,
            game_id="tiny",
            host_id=ALICE,
            seats=[Seat(ALICE, ALICE_NAME)],
            extra={"locale": locale},
        ),
        now=1.0,
    )
    record.seats.append(Seat(BOB, BOB_NAME))
    await store.save(record, expected_version=0, action={"type": "join", "user": BOB}, seat=None, now=2.0)
    record.status = "playing"
    await store.save(
        record, expected_version=1, action={"type": "start", "user": ALICE, "seed": 5}, seat=None, now=3.0
    )
    record.status = "finished"
    results = [SeatResult(0, ALICE, 9, 1), SeatResult(1, BOB, 4, 2)]
    await store.save(record, expected_version=2, action={"add": 2}, seat=0, now=4.0, results=results)
    await store.set_message(record.id or 0, "dm:0", 555)
    return record.id or 0


async def fill(database: Database) -> dict[str, Any]:
    """Alice everywhere: games in two servers, an open table, rolls, saved rolls, preferences."""
    first = await play(database, channel=11)
    second = await play(database, channel=12, guild=OTHER_GUILD, locale="de")
    store = TableStore(database)
    lobby = await store.create(
        TableRecord(GUILD, 13, "tiny", ALICE, seats=[Seat(ALICE, ALICE_NAME), Seat(BOB, BOB_NAME)]), now=5.0
    )
    rolls = RollStore(database)
    for guild in (GUILD, None):
        await rolls.log(
            guild_id=guild,
            channel_id=11,
            user_id=ALICE,
            request="fireball",
            expression="8d6",
            label="Alicia's fireball",
            private=False,
            totals=[28],
            tally={6: (8, 28)},
            now=6.0,
        )
    await rolls.log(
        guild_id=GUILD,
        channel_id=11,
        user_id=BOB,
        request="d20",
        expression="d20",
        label=None,
        private=False,
        totals=[12],
        tally={20: (1, 12)},
        now=6.0,
    )
    await rolls.save("user", ALICE, "fireball", "8d6")
    await rolls.save("server", GUILD, "initiative", "d20")
    await PlayerSettings(database).set(ALICE, LANGUAGE_KEY, "de")
    await PlayerSettings(database).set(ALICE, NOTIFY_KEY, "dm")
    return {"first": first, "second": second, "lobby": lobby}


async def test_what_is_held_about_a_player(database: Database):
    await fill(database)
    about = await PrivacyStore(database).about(ALICE)
    assert about["user_id"] == str(ALICE)
    assert about["preferences"] == {"language": "de", "notify": "dm"}
    assert [saved["name"] for saved in about["saved_rolls"]] == ["fireball"]
    assert about["rolls"]["count"] == 2 and about["rolls"]["newest"][0]["label"] == "Alicia's fireball"
    assert {(rating["server"], rating["game"], rating["season"]) for rating in about["ratings"]} >= {
        (str(GUILD), "tiny", None),
        (str(OTHER_GUILD), "*", 0),
    }
    assert [(game["server"], game["name"], game["rank"]) for game in about["games"]] == [
        (str(GUILD), ALICE_NAME, 1),
        (str(OTHER_GUILD), ALICE_NAME, 1),
    ]
    assert [(table["status"], table["host"]) for table in about["tables"]] == [("lobby", True)]
    assert await PrivacyStore(database).holds(ALICE)
    assert await PrivacyStore(database).open_channels(ALICE) == [13]


async def test_a_forgotten_player_is_in_no_row_and_the_others_keep_their_games(database: Database):
    tables = await fill(database)
    privacy = PrivacyStore(database)
    before = await dump(database)
    assert str(ALICE) in before and ALICE_NAME in before and "fireball" in before

    forgotten = await privacy.forget(ALICE, former, now=100.0)

    after = await dump(database)
    assert str(ALICE) not in after
    assert ALICE_NAME not in after and "Alicia" not in after
    assert forgotten.open_channels == [13]  # the lobby it had to change itself
    assert forgotten.counts["rolls"] == 2 and forgotten.counts["results"] == 2
    assert not await privacy.holds(ALICE)
    assert await privacy.about(ALICE) == {
        "user_id": str(ALICE),
        "preferences": {},
        "saved_rolls": [],
        "rolls": {"count": 0, "newest": []},
        "ratings": [],
        "games": [],
        "tables": [],
    }

    # Bob's game stays whole: the result, the scores, his rating and his history, Alice a former player.
    history = HistoryStore(database)
    (game,) = await history.page(Filter(GUILD, user_id=BOB), page=0, per_page=5)
    assert [(player.user_id, player.name, player.score) for player in game.by_rank()] == [
        (FORMER_PLAYER, "a former player", 9),
        (BOB, BOB_NAME, 4),
    ]
    (german,) = await history.page(Filter(OTHER_GUILD), page=0, per_page=5)
    assert german.by_rank()[0].name == "ein ehemaliger Spieler"  # in the table's language
    board = await Leaderboard(database).top(GUILD, "tiny")
    assert [standing.user_id for standing in board] == [BOB]
    assert str(BOB) in after and BOB_NAME in after
    assert await RollStore(database).saved("server", GUILD)  # the server's rolls are the server's
    store = TableStore(database)
    finished = await store.get(tables["first"])
    assert finished is not None and finished.host_id == BOB  # the host passes on, as at a lobby
    assert [seat.user_id for seat in finished.seats] == [FORMER_PLAYER, BOB]
    assert await store.messages(tables["first"]) == {}  # her DM's message is gone with her
    lobby = await store.open_table(13)
    assert lobby is not None and lobby.version == 1 and lobby.host_id == BOB
    assert [(seat.user_id < 0, seat.computer) for seat in lobby.seats] == [(True, True), (False, False)]
    assert (await store.last_action(lobby.id or 0)) == (1, None, {"type": "leave", "user": FORMER_PLAYER})

    again = await privacy.forget(ALICE, former, now=101.0)  # nothing left: nothing changes
    assert set(again.counts.values()) == {0} and again.open_channels == []
    assert await dump(database) == after


async def test_a_server_forgotten_keeps_nothing_of_it(database: Database):
    await fill(database)
    privacy = PrivacyStore(database)
    await GuildSettings(database).set(GUILD, "pings", False)
    assert await privacy.server_holds(GUILD)
    assert await privacy.forget_server(GUILD) == [13]
    assert not await privacy.server_holds(GUILD)
    after = await dump(database)
    assert f"{GUILD}" not in after.replace(str(OTHER_GUILD), "")
    assert await privacy.server_holds(OTHER_GUILD)  # another server's games stay
    assert await HistoryStore(database).count(Filter(OTHER_GUILD)) == 1
    assert await PlayerSettings(database).get(ALICE, NOTIFY_KEY) == "dm"  # a player's own, everywhere


async def test_a_server_left_is_forgotten_after_its_grace_unless_the_bot_comes_back(database: Database):
    await fill(database)
    privacy = PrivacyStore(database)
    assert not await privacy.mark_left(999, at=10.0)  # nothing stored: nothing to mark
    assert await privacy.mark_left(GUILD, at=10.0)
    assert await privacy.mark_left(GUILD, at=50.0)  # a second removal keeps the first time
    assert await privacy.mark_left(OTHER_GUILD, at=20.0)
    assert await privacy.departed(before=10.0) == []
    assert await privacy.departed(before=30.0) == [GUILD, OTHER_GUILD]
    assert await privacy.cancel_left(OTHER_GUILD)
    assert not await privacy.cancel_left(OTHER_GUILD)
    assert await privacy.departed(before=1e12) == [GUILD]
