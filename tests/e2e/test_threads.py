"""Several tables in one channel, each game in its own thread (issue 25), against simcord's threads.

The text channel keeps one short line per table, which follows it from "open" to its winner and a
link to the results; boards, announcements, pings and results go to the table's thread. A channel
where the bot may not open threads, or a server that chose the channel, plays there as before and is
told why once.
"""

from __future__ import annotations

from typing import Any

import discord
import pytest

from cogs.kit.words.bidi import plain
from tests.e2e.helpers import Player, Table, buttons, components, play_a_move, text_of
from tests.games import extensions as game_extensions

SEED = 424242
pytestmark = pytest.mark.seed(SEED)  # every new game's seed


@pytest.fixture
def extensions() -> tuple[str, ...]:
    return (
        "cogs.tables",
        *game_extensions(),
        "cogs.preferences.settings",
        "cogs.preferences.notify",
        "cogs.history.cog",
        "cogs.history.replay",
    )


async def open_and_seat(table: Table) -> None:
    """`/<game> new` in the text channel, the others join from the table's line there, the host
    starts in the thread."""
    await table.open()
    assert table.channel is not table.parent, "no thread was opened"
    line = table.line
    assert line is not None
    for name in list(table.players)[1:]:
        join = next(item for item in buttons(line) if "t:join" in (item.custom_id or ""))
        table.did(name, "clicks “Join” on the table's line in the channel")
        joined = await table.member(name).click(line, custom_id=join.custom_id)
        assert joined.ephemeral  # the joiner is told; the lobby in the thread shows it
    await table.start()


async def play_round_robin(tables: list[Table], *, restart: Any = None) -> None:
    """One move at each table in turn until every table has finished; `restart()` once, midway."""
    players = {
        id(table): {seat: Player(table, name) for seat, name in enumerate(table.players)} for table in tables
    }
    for step in range(600):
        live = [(table, ctx) for table in tables if (ctx := await table.live()) is not None]
        if not live:
            return
        if restart is not None and step == 6:
            await restart()
            restart = None
            continue
        for table, ctx in live:
            await play_a_move(players[id(table)], ctx)
    raise AssertionError("the games did not end")


async def test_three_tables_in_one_channel_play_to_the_end_at_once_across_a_restart(
    simcord_env: Any, bot_factory: Any
) -> None:
    env = simcord_env
    first = Table(env, "sushigo", ["alice", "bob"])
    await env.bot.tree.sync()
    tables = [
        first,
        first.beside("sushizock", ["carol", "alice"]),  # alice sits at two tables
        first.beside("sushigo", ["erin", "frank"]),
    ]
    for table in tables:
        await open_and_seat(table)
    threads = {table.channel.id for table in tables}
    assert len(threads) == 3 and len(first.parent.threads) == 3
    assert all([(await table.live()) is not None for table in tables])

    async def restart() -> None:
        await env.restart_bot(bot_factory())
        await env.bot.tree.sync()

    await play_round_robin(tables, restart=restart)
    for table in tables:
        record = await table.tables.store.last_table(table.channel.id)
        assert record is not None and record.status == "finished" and record.parent_id == first.parent.id
        results = [message for message in table.public_messages() if "🏁" in text_of(message)]
        assert results, "no results in the thread"
        line = table.line
        assert line is not None and not components(line)  # the line has done its job: no Join any more
        said = text_of(line)
        assert "🏆" in said and results[-1].jump_url in said  # the winner, and a link to the results
    # The channel itself holds the three lines and nothing else of the games.
    channel = [
        message
        for message in first.parent.history(viewer=first.spectator)
        if message.author.bot and message.type != discord.MessageType.thread_created  # Discord's own note
    ]
    assert len(channel) == 3, [plain(text_of(message))[:80] for message in channel]
    assert all(len(text_of(message).splitlines()) == 1 for message in channel)  # lines, not boards


async def test_a_command_in_the_channel_finds_the_players_own_table_or_asks_which(simcord_env: Any) -> None:
    env = simcord_env
    first = Table(env, "sushigo", ["alice", "bob"])
    await env.bot.tree.sync()
    second = first.beside("sushigo", ["carol", "dave"])
    for table in (first, second):
        await open_and_seat(table)
    asked = await first.member("alice").slash(first.parent, "sushigo status")
    assert asked.ephemeral and f"<#{first.channel.id}>" in asked.response.content  # hers, by its thread
    stranger = first.member("zoe")
    which = await stranger.slash(first.parent, "sushigo status")
    assert which.ephemeral
    assert (
        f"<#{first.channel.id}>" in which.response.content
        and f"<#{second.channel.id}>" in which.response.content
    )


async def test_a_rematch_opens_a_new_thread(simcord_env: Any) -> None:
    env = simcord_env
    table = Table(env, "bock", ["alice", "bob"])
    await env.bot.tree.sync()
    await open_and_seat(table)
    await play_round_robin([table])
    old = table.channel
    results = next(message for message in reversed(table.public_messages()) if components(message))
    before = {thread.id for thread in table.parent.threads}
    table.did("bob", "clicks “Rematch”")
    answered = await table.member("bob").click(results, label="Rematch")
    table.follow_thread(before)
    assert table.channel.id != old.id  # a thread of its own
    assert answered.followups and f"<#{table.channel.id}>" in (
        answered.followups[0].content or ""
    )  # points on
    ctx = await table.live()
    assert ctx is not None and ctx.record.status == "lobby" and ctx.record.parent_id == table.parent.id


async def test_without_thread_permissions_a_table_plays_in_the_channel_and_says_why_once(
    simcord_env: Any,
) -> None:
    env = simcord_env
    table = Table(env, "sushigo", ["alice", "bob"])
    me = table.guild.me
    assert me is not None
    closed = discord.PermissionOverwrite(create_public_threads=False)
    table.channel = table.parent = table.guild.create_text_channel("no-threads", overwrites={me: closed})
    await env.bot.tree.sync()
    opened = await table.open()
    assert table.channel is table.parent and not table.parent.threads  # played in the channel
    assert opened.followups and "Create Public Threads" in plain(opened.followups[0].content or "")
    other = table.beside("sushizock", ["carol", "dave"])
    busy = await other.host.slash(table.parent, "sushizock new")
    assert busy.ephemeral  # one table per channel here: the channel is taken
    cancel = await table.host.slash(table.parent, "sushigo cancel")
    assert cancel.ephemeral or cancel.response is not None
    again = await table.host.slash(table.parent, "sushigo new")
    assert not again.followups  # said once


async def test_a_server_that_chose_the_channel_plays_there(simcord_env: Any) -> None:
    env = simcord_env
    table = Table(env, "sushigo", ["alice", "bob"])
    admins = table.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = table.guild.add_member(env.create_user("admin"), roles=[admins])
    await env.bot.tree.sync()
    chosen = await admin.slash(table.parent, "settings tables", where="channel", archive=60)
    assert chosen.ephemeral and "channel itself" in plain(chosen.response.content)
    await table.open()
    assert table.channel is table.parent and not table.parent.threads
    shown = await admin.slash(table.parent, "settings show")
    assert "an hour" in plain(text_of(shown.response))


async def test_a_thread_that_went_quiet_comes_back_for_the_next_move(simcord_env: Any) -> None:
    """Discord archives a thread quiet for longer than the server's archive time, and refuses edits in
    it (code 50083): the board's next edit brings the thread back and shows the move."""
    env = simcord_env
    table = Table(env, "sushigo", ["alice", "bob"])
    await env.bot.tree.sync()
    await open_and_seat(table)
    thread = table.channel.id
    env.inject_error("PATCH", f"/channels/{thread}/messages/*", status=400, code=50083, message="archived")
    ctx = await table.live()
    players = {seat: Player(table, name) for seat, name in enumerate(table.players)}
    await play_a_move(players, ctx)  # both pick in their DMs: the board is edited in the background
    await env.settle()
    unarchived = [
        request
        for request in env.http_requests
        if request.method == "PATCH"
        and request.path == f"/channels/{thread}"
        and request.json == {"archived": False}
    ]
    assert len(unarchived) == 1
    assert "turn 2" in plain(text_of(table.board))


async def test_a_thread_discord_refuses_leaves_no_line_and_says_why(simcord_env: Any) -> None:
    env = simcord_env
    table = Table(env, "sushigo", ["alice", "bob"])
    await env.bot.tree.sync()
    env.inject_error("POST", f"/channels/{table.parent.id}/messages/*/threads", status=403, code=50013)
    opened = await table.open()
    assert table.channel is table.parent and not table.parent.threads
    assert opened.followups and "did not let me open a thread" in plain(opened.followups[0].content or "")
    shown = [message for message in table.parent.history(viewer=table.spectator) if message.author.bot]
    assert all(message.type == discord.MessageType.thread_created for message in shown)  # no line left
    assert await table.live() is None
