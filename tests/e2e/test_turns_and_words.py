"""What players are told: whose turn it is (a new message that pings), and the right commands."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from tests.e2e.helpers import Player, Table, body_lines, text_of

EXTENSIONS = (
    "cogs.tables",
    "tests.e2e.tinygame",
    "cogs.games.rockthebock.cog",
    "cogs.games.sushigo.cog",
    "cogs.preferences.notify",
    "cogs.preferences.settings",
)


@pytest.fixture
def extensions() -> tuple[str, ...]:
    return EXTENSIONS


DELAY = 20  # the default grace delay before a player who owes a move is pinged


def pings(table: Table) -> list[str]:
    """The turn pings still in the channel."""
    return [text_of(m) for m in table.public_messages() if text_of(m).startswith("🔔")]


def dm_text(table: Table, name: str) -> str:
    dm = table.dm(name)
    return text_of(dm) if dm is not None else ""


def answer(result: Any) -> str:
    """An ephemeral answer's words (its card's too)."""
    assert result.ephemeral and result.response is not None
    return text_of(result.response)


def pings_posted(table: Table) -> int:
    """Every turn ping ever posted in the channel (deleted ones too)."""
    return sum(
        1
        for request in table.env.http_requests
        if request.method == "POST"
        and request.path == f"/channels/{table.channel.id}/messages"
        and str((request.json or {}).get("content") or "").startswith("🔔")
    )


async def test_who_moves_within_the_delay_is_never_pinged(simcord_env):
    table = Table(simcord_env, "tiny", ["alice", "bob"])
    await table.seat_everyone()
    for name in ("alice", "bob", "alice", "bob"):
        await simcord_env.advance_time(DELAY - 5)  # a thoughtful move, still within the delay
        await table.click(name, "+1")
    assert pings_posted(table) == 0


async def test_who_stays_away_gets_one_ping_after_the_delay_and_only_one_stays(simcord_env):
    table = Table(simcord_env, "tiny", ["alice", "bob"])
    await table.seat_everyone()
    await simcord_env.advance_time(DELAY - 1)
    assert pings(table) == []  # alice started the game: she is looking at it
    await simcord_env.advance_time(1)
    alice, bob = table.players["alice"].id, table.players["bob"].id
    assert pings(table) == [f"🔔 <@{alice}> — your turn: **Tiny Race**"]
    ping = next(m for m in table.public_messages() if text_of(m).startswith("🔔"))
    assert [user.id for user in ping.mentions] == [alice]
    await simcord_env.advance_time(3 * DELAY)
    assert pings_posted(table) == 1  # one ping per turn: no nagging
    await table.click("alice", "+1")
    await table.click("bob", "+1")  # bob moved at once: not pinged
    assert pings(table) == [f"🔔 <@{alice}> — your turn: **Tiny Race**"] and pings_posted(table) == 1
    await table.click("alice", "+1")
    await simcord_env.advance_time(DELAY)
    assert pings(table) == [f"🔔 <@{bob}> — your turn: **Tiny Race**"]  # alice's ping is gone
    assert pings_posted(table) == 2


async def test_after_a_restart_there_is_still_one_live_ping(simcord_env, bot_factory):
    table = Table(simcord_env, "tiny", ["alice", "bob"])
    await table.seat_everyone()
    await simcord_env.advance_time(DELAY)
    alice, bob = table.players["alice"].id, table.players["bob"].id
    assert pings(table) == [f"🔔 <@{alice}> — your turn: **Tiny Race**"]
    await simcord_env.restart_bot(bot_factory())
    await simcord_env.advance_time(DELAY)
    assert pings(table) == [f"🔔 <@{alice}> — your turn: **Tiny Race**"]  # not pinged again
    assert pings_posted(table) == 1
    await table.click("alice", "+1")
    await simcord_env.advance_time(DELAY)
    assert pings(table) == [f"🔔 <@{bob}> — your turn: **Tiny Race**"]  # the one from before is replaced
    await simcord_env.restart_bot(bot_factory())
    await table.click("bob", "+1")
    await simcord_env.advance_time(DELAY)
    assert pings(table) == [f"🔔 <@{alice}> — your turn: **Tiny Race**"]
    assert pings_posted(table) == 3


async def test_a_solo_player_against_a_computer_is_pinged_only_after_the_delay(simcord_env):
    table = Table(simcord_env, "tiny", ["alice"])
    await table.open(computers=1)
    await table.start()
    for _ in range(2):
        await table.click("alice", "+1")
        await simcord_env.advance_time(2)  # the computer plays
        assert "Turn: alice" in "\n".join(body_lines(table.board))
    assert pings_posted(table) == 0  # she plays along: nothing to tell her
    await simcord_env.advance_time(DELAY)
    alice = table.players["alice"].id
    assert pings(table) == [f"🔔 <@{alice}> — your turn: **Tiny Race**"]


async def test_a_simultaneous_pick_pings_only_who_still_owes(simcord_env):
    table = Table(simcord_env, "sushigo", ["alice", "bob", "carol"])
    await table.seat_everyone()
    ctx = await table.live()
    for name, seat in (("alice", 0), ("bob", 1)):
        assert await Player(table, name).play("sushigo", ctx.game.default_action(ctx.state, seat))
    await simcord_env.advance_time(DELAY)
    carol = table.players["carol"].id
    assert pings(table) == [f"🔔 <@{carol}> — your turn: **Sushi Go!**"]
    assert pings_posted(table) == 1


async def test_a_player_may_be_told_by_dm_or_not_at_all(simcord_env):
    table = Table(simcord_env, "tiny", ["alice", "bob", "carol"])
    chose = await table.member("bob").slash(table.channel, "notify", how="dm")
    assert chose.ephemeral and "I'll send you a DM" in text_of(chose.response)
    await table.member("carol").slash(table.channel, "notify", how="off")
    await table.seat_everyone()
    await table.click("alice", "+1")
    assert not dm_text(table, "bob").startswith("🔔")  # a DM ping waits for the delay too
    await simcord_env.advance_time(DELAY)
    assert pings(table) == []
    assert dm_text(table, "bob").startswith("🔔 Your turn: **Tiny Race** in <#")
    await table.click("bob", "+1")
    await simcord_env.advance_time(DELAY)
    assert pings(table) == [] and "lucky number" in dm_text(table, "carol")  # carol: no word


async def test_commands_for_another_game_or_no_game_name_the_right_command(simcord_env):
    table = Table(simcord_env, "tiny", ["alice", "bob"])
    none = await table.member("alice").slash(table.channel, "bock status")
    assert text_of(none.response) == (
        "There is no Rock the Bock table in this channel. Open one with `/bock new`."
    )
    await table.open()
    other = await table.member("bob").slash(table.channel, "bock join")
    assert other.ephemeral and text_of(other.response) == (
        "This channel has a Tiny Race table, not Rock the Bock: use `/tiny` here, "
        "or open Rock the Bock in another channel."
    )
    busy = await table.member("bob").slash(table.channel, "bock new")
    assert "have the host run `/tiny cancel`" in text_of(busy.response)
    lobby = await table.member("bob").slash(table.channel, "tiny status")
    assert "(or `/tiny join`)" in "\n".join(body_lines(lobby.response))
    early = await table.member("alice").slash(table.channel, "tiny add", amount=1)
    assert text_of(early.response) == "The game hasn't started yet: the host starts it from the lobby."


async def test_lobby_and_table_events_are_said_in_the_channel(simcord_env):
    table = Table(simcord_env, "tiny", ["alice", "bob"])
    await table.open()
    await table.join("bob")
    await table.slash("bob", "leave")
    await table.join("bob")
    await table.start()
    await table.slash("bob", "leave")
    await table.slash("bob", "join")
    said = [m.content for m in table.public_messages() if m.content and not m.components]
    assert said == [
        "bob joined the table.",
        "bob left the table.",
        "bob joined the table.",
        "bob left: a computer player takes their seat (`/tiny join` takes it back).",
        "bob is back and takes their seat from the computer player.",
    ]


async def test_a_server_may_turn_pings_off(simcord_env):
    table = Table(simcord_env, "tiny", ["alice", "bob"])
    admins = table.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = table.guild.add_member(simcord_env.create_user("admin"), roles=[admins])
    done = await admin.slash(table.channel, "settings pings", on=False)
    assert "Nobody is pinged" in answer(done)
    assert "Turn pings: **off**" in answer(await admin.slash(table.channel, "settings show"))
    await table.seat_everyone()
    await table.click("alice", "+1")
    await simcord_env.advance_time(3 * DELAY)
    assert pings_posted(table) == 0


async def test_a_server_chooses_the_grace_delay(simcord_env):
    table = Table(simcord_env, "tiny", ["alice", "bob"])
    admins = table.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = table.guild.add_member(simcord_env.create_user("admin"), roles=[admins])
    refused = await admin.slash(table.channel, "settings pings", delay=601)
    assert "between 0 and 600 seconds" in answer(refused)
    done = await admin.slash(table.channel, "settings pings", delay=5)
    assert "not moved within 5 s of their turn are pinged" in answer(done)
    shown = await admin.slash(table.channel, "settings show")
    assert "whoever has not moved within **5 s** is pinged" in answer(shown)
    await table.seat_everyone()
    await simcord_env.advance_time(4)
    assert pings(table) == []
    await simcord_env.advance_time(1)
    assert pings(table) == [f"🔔 <@{table.players['alice'].id}> — your turn: **Tiny Race**"]
