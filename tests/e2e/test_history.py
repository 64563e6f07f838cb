"""/history and /replay through the bot: finished games listed and paged, a game played again
move by move from its action log, its buttons working after a restart, and pruning by retention."""

from __future__ import annotations

import random
from typing import Any

import discord
import pytest

from bot import GAME_EXTENSIONS
from rules.registry import GAMES
from storage.leaderboard import SeatResult
from storage.tables import Seat, TableRecord, TableStore
from tests.e2e.helpers import Table, labels, text_of
from tests.games import kit

EXTENSIONS = (
    "cogs.tables",
    "tests.e2e.tinygame",
    *GAME_EXTENSIONS,
    "cogs.settings",
    "cogs.notify",
    "cogs.history",
)
# Tiny Race: alice +2, bob +1, alice +2, bob +1, alice +2 — alice reaches 5 on the fifth move.
WINNING_CLICKS = [("alice", "+2"), ("bob", "+1"), ("alice", "+2"), ("bob", "+1"), ("alice", "+2")]


@pytest.fixture
def extensions() -> tuple[str, ...]:
    return EXTENSIONS


async def play_tiny(table: Table) -> None:
    """One whole Tiny Race at a new table in the channel, through the buttons."""
    await table.seat_everyone()
    for name, label in WINNING_CLICKS:
        await table.click(name, label)


def latest(table: Table) -> discord.Message:
    """The channel's newest message (a replay or a list after a click has edited it)."""
    message = table.channel.last_message
    assert message is not None
    return message


def next_door(table: Table, names: list[str]) -> Table:
    """Another channel of the same server, with other players."""
    other = Table.__new__(Table)
    other.env, other.group, other.guild, other.spectator = (
        table.env,
        table.group,
        table.guild,
        table.spectator,
    )
    other.channel = table.guild.create_text_channel("next-door")
    other.players = {name: table.guild.add_member(table.env.create_user(name)) for name in names}
    return other


def game_number(message: Any) -> int:
    """The number /history gives the newest game on the list (`**#12** · …`)."""
    text = text_of(message)
    return int(text.split("**#", 1)[1].split("**", 1)[0])


async def test_history_lists_a_finished_game_and_replay_steps_through_it(simcord_env):
    table = Table(simcord_env, "tiny", ["alice", "bob"])
    await play_tiny(table)
    alice = table.member("alice")

    listed = await alice.slash(table.channel, "history")
    assert not listed.ephemeral
    text = text_of(listed.response)
    assert "Tiny Race" in text and "alice **6**" in text and "bob **2**" in text
    assert text.index("alice") < text.index("bob")  # by rank: the winner first
    assert "🥇" in text and "⏱️" in text

    shown = await alice.slash(table.channel, "replay", game=game_number(listed.response))
    assert not shown.ephemeral
    replay = shown.response
    assert "the deal" in replay.content
    assert "alice: 0" in replay.content and "bob: 0" in replay.content
    assert labels(replay) == ["First", "Previous", "Next", "Last"]  # the game's +1 / +2 are gone
    assert "The result shows at the last move" in text_of(replay)

    await alice.click(replay, label="Next")
    replay = latest(table)
    assert "move 1 of 5" in replay.content and "alice: 2" in replay.content
    assert "Move 1 of 5:" in text_of(replay) and "alice" in text_of(replay)

    await table.member("bob").click(replay, label="Last")  # anyone on the server may step
    replay = latest(table)
    assert "move 5 of 5" in replay.content and "alice: 6" in replay.content and "bob: 2" in replay.content
    assert "🥇 **1.** alice — 6" in text_of(replay)
    assert labels(replay, enabled_only=True) == ["First", "Previous"]

    await alice.click(replay, label="Previous")
    assert "move 4 of 5" in latest(table).content
    assert "alice: 4" in latest(table).content
    await alice.click(latest(table), label="First")
    assert "the deal" in latest(table).content

    started_late = await alice.slash(table.channel, "replay", game=game_number(listed.response), move=3)
    assert "move 3 of 5" in started_late.response.content


async def test_a_replay_button_works_after_a_restart(simcord_env, bot_factory):
    table = Table(simcord_env, "tiny", ["alice", "bob"])
    await play_tiny(table)
    alice = table.member("alice")
    listed = await alice.slash(table.channel, "history")
    shown = await alice.slash(table.channel, "replay", game=game_number(listed.response), move=2)
    posted = shown.response
    await simcord_env.restart_bot(bot_factory())
    await alice.click(posted, label="Next")
    assert "move 3 of 5" in latest(table).content


async def test_history_pages_filters_and_the_watch_menu(simcord_env, bot_factory):
    table = Table(simcord_env, "tiny", ["alice", "bob"])
    await play_tiny(table)
    for _ in range(5):
        await play_tiny(table)
    other = next_door(table, ["carol", "dave"])
    await other.seat_everyone()
    for name, label in [("carol", "+2"), ("dave", "+2"), ("carol", "+2"), ("dave", "+2"), ("carol", "+2")]:
        await other.click(name, label)

    alice = table.member("alice")
    first = (await alice.slash(table.channel, "history")).response
    newest = game_number(first)
    assert "Page 1 of 2 · 7 games" in text_of(first)
    assert "carol" in text_of(first)  # the newest game first
    assert text_of(first).count("**#") == 5
    assert labels(first, enabled_only=True) == ["Older"]

    await simcord_env.restart_bot(bot_factory())  # paging is restart-safe too
    await alice.click(first, label="Older")
    second = latest(table)
    assert second.id == first.id and "Page 2 of 2" in text_of(second)
    assert text_of(second).count("**#") == 2 and "carol" not in text_of(second)
    assert labels(second, enabled_only=True) == ["Newer"]

    bobs = (await alice.slash(table.channel, "history", member=table.member("bob"))).response
    assert "of bob" in text_of(bobs) and "6 games" in text_of(bobs) and "carol" not in text_of(bobs)
    dave = (await alice.slash(table.channel, "history", member=other.players["dave"], game="tiny")).response
    assert "1 game ·" in text_of(dave)
    none = (await alice.slash(table.channel, "history", game="sushizock")).response
    assert "No finished games" in text_of(none) and labels(none) == []
    unknown = await alice.slash(table.channel, "history", game="chess")
    assert unknown.ephemeral and "no game called chess" in unknown.response.content

    oldest = game_number(first)  # the list shows its second page by now
    await alice.select(first, [str(oldest)], custom_id="sbh:watch")
    watched = latest(table)
    assert watched.id != first.id and f"game #{oldest}" in watched.content and "the deal" in watched.content

    choices = await alice.autocomplete(table.channel, "replay", "game", "")
    assert len(choices) == 7 and str(newest) in choices[0]["name"] and "carol" in choices[0]["name"]


async def test_replay_refuses_what_it_cannot_show(simcord_env):
    table = Table(simcord_env, "tiny", ["alice", "bob"])
    await play_tiny(table)
    alice = table.member("alice")
    number = game_number((await alice.slash(table.channel, "history")).response)

    missing = await alice.slash(table.channel, "replay", game=number + 100)
    assert missing.ephemeral and f"no finished game #{number + 100}" in missing.response.content

    elsewhere = Table(simcord_env, "tiny", ["erin"])
    stranger = await elsewhere.member("erin").slash(elsewhere.channel, "replay", game=number)
    assert stranger.ephemeral and "no finished game" in stranger.response.content  # another server's game

    database = simcord_env.bot.database
    async with database.transaction() as connection:  # as games started before seeds were logged
        await connection.execute(
            "UPDATE actions SET action = json_remove(action, '$.seed') WHERE table_id = ?", (number,)
        )
    old = await alice.slash(table.channel, "replay", game=number)
    assert old.ephemeral and "played before the bot kept what replays need" in old.response.content


async def test_a_real_game_replays_exactly_as_the_channel_showed_it(simcord_env):
    """Sushizock played to its end by time-outs and computer players: the replay's first move and
    its last show exactly the boards the channel showed then."""
    table = Table(simcord_env, "sushizock", ["alice", "bob"])
    await table.seat_everyone()
    await simcord_env.advance_time(301)  # alice's first throw, played by the table
    after_first = board_of(table.board)
    for _ in range(12):
        if (await table.state()) is not None and "final result" in table.public_text():
            break
        await simcord_env.advance_time(301)  # three time-outs each make computer players, who finish
    assert "final result" in table.public_text()
    final = board_of(last_board(table))

    alice = table.member("alice")
    number = game_number((await alice.slash(table.channel, "history")).response)
    first_move = (await alice.slash(table.channel, "replay", game=number, move=1)).response
    assert first_move.embeds[0].to_dict() == after_first
    assert "(the table, on a time-out)" in text_of(first_move)
    await alice.click(first_move, label="Last")
    end = latest(table)
    assert end.embeds[0].to_dict() == final
    assert "🤖 (the computer player)" in text_of(end)


def board_of(message: discord.Message) -> Any:
    return message.embeds[0].to_dict()


def last_board(table: Table) -> discord.Message:
    """The game's own board message (the last bot message whose embed is not the result)."""
    for message in reversed(table.public_messages()):
        if message.author.bot and message.embeds and "final result" not in (message.embeds[0].title or ""):
            return message
    raise AssertionError("no board")


async def test_retention_prunes_old_games_now_and_daily(simcord_env):
    table = Table(simcord_env, "tiny", ["alice", "bob"])
    await play_tiny(table)
    admins = table.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = table.guild.add_member(simcord_env.create_user("admin"), roles=[admins])
    shown = await admin.slash(table.channel, "settings show")
    assert "kept forever" in text_of(shown.response)

    set_now = await admin.slash(table.channel, "settings retention", days=2)
    assert set_now.ephemeral and "0 were deleted just now" in text_of(set_now.response)
    assert "for **2** days" in text_of((await admin.slash(table.channel, "settings show")).response)
    listed = await admin.slash(table.channel, "history")
    assert "Tiny Race" in text_of(listed.response)

    await simcord_env.advance_time(3 * 24 * 60 * 60)  # the daily pruning runs meanwhile
    gone = await admin.slash(table.channel, "history")
    assert "No finished games" in text_of(gone.response)
    refused = await admin.slash(table.channel, "settings retention", days=5000)
    assert refused.ephemeral and "between 1 and 3650" in text_of(refused.response)
    forever = await admin.slash(table.channel, "settings retention", days=0)
    assert "kept forever again" in text_of(forever.response)


async def store_computer_game(table: Table, game_id: str, seed: int) -> tuple[int, int]:
    """A whole game of computer players, stored as the table stores one (seeded start, every move
    logged, the results with the final move): (its number, how many moves)."""
    game = GAMES[game_id]
    chooser = random.Random(seed)
    members = list(table.players.values())[: game.min_players]
    store = TableStore(table.env.bot.database)  # type: ignore[attr-defined]
    record = await store.create(
        TableRecord(
            guild_id=table.guild.id,
            channel_id=table.channel.id,
            game_id=game_id,
            host_id=members[0].id,
            seats=[Seat(member.id, member.user.name, computer=True) for member in members],
        ),
        now=1000.0,
    )
    state = game.new(len(members), seed, record.options)
    record.state, record.status = game.dump(state), "playing"
    await store.save(
        record,
        expected_version=0,
        action={"type": "start", "user": members[0].id, "seed": seed},
        seat=None,
        now=1000.0,
    )
    moves = 0
    while not game.is_over(state):
        seat = chooser.choice(sorted(game.to_move(state)))
        steer = getattr(game, "computer_action", None)
        action = (
            steer(state, seat)
            if steer and kit(game_id).steered
            else chooser.choice(game.legal_actions(state, seat))
        )
        game.apply(state, seat, action)
        moves += 1
        record.state = game.dump(state)
        results = None
        if game.is_over(state):
            record.status = "finished"
            scores, ranks = game.scores(state), game.ranking(state)
            results = [SeatResult(s, m.id, scores[s], ranks[s]) for s, m in enumerate(members)]
        await store.save(
            record,
            expected_version=record.version,
            action={**game.encode_action(action), "by": "computer"},
            seat=seat,
            now=1000.0 + 20 * moves,
            results=results,
        )
    assert record.id is not None
    return record.id, moves


@pytest.mark.parametrize("game_id", sorted(GAMES))
async def test_every_game_replays_through_its_own_renderer_without_its_buttons(simcord_env, game_id: str):
    table = Table(simcord_env, game_id, ["alice", "bob"])
    number, moves = await store_computer_game(table, game_id, seed=4)
    alice = table.member("alice")
    deal = await alice.slash(table.channel, "replay", game=number)
    assert not deal.ephemeral and "the deal" in deal.response.content
    assert labels(deal.response) == ["First", "Previous", "Next", "Last"]
    await alice.click(deal.response, label="Next")
    assert f"move 1 of {moves}" in latest(table).content
    assert "🤖 (the computer player)" in text_of(latest(table))
    await alice.click(latest(table), label="Last")
    end = latest(table)
    assert f"move {moves} of {moves}" in end.content and "🥇" in text_of(end)
    assert labels(end) == ["First", "Previous", "Next", "Last"]  # still no game buttons at the end
