"""What players are told: whose turn it is (a new message that pings), and the right commands."""

from __future__ import annotations

import discord
import pytest

from tests.e2e.helpers import Table

EXTENSIONS = ("cogs.tables", "tests.e2e.tinygame", "cogs.rockthebock.cog", "cogs.notify", "cogs.settings")


@pytest.fixture
def extensions() -> tuple[str, ...]:
    return EXTENSIONS


def pings(table: Table) -> list[str]:
    return [m.content for m in table.public_messages() if (m.content or "").startswith("🔔")]


async def test_each_turn_pings_the_player_by_a_new_message_and_only_one_stays(simcord_env):
    table = Table(simcord_env, "tiny", ["alice", "bob"])
    await table.seat_everyone()
    assert pings(table) == []  # alice started the game: she is looking at it
    await table.click("alice", "+1")
    bob = table.players["bob"].id
    assert pings(table) == [f"🔔 <@{bob}> — your turn: **Tiny Race**"]
    ping = next(m for m in table.public_messages() if (m.content or "").startswith("🔔"))
    assert [user.id for user in ping.mentions] == [bob]
    await table.click("bob", "+1")
    alice = table.players["alice"].id
    assert pings(table) == [f"🔔 <@{alice}> — your turn: **Tiny Race**"]  # bob's ping is gone


async def test_a_player_may_be_told_by_dm_or_not_at_all(simcord_env):
    table = Table(simcord_env, "tiny", ["alice", "bob", "carol"])
    chose = await table.member("bob").slash(table.channel, "notify", how="dm")
    assert chose.ephemeral and "I'll send you a DM" in chose.response.content
    await table.member("carol").slash(table.channel, "notify", how="off")
    await table.seat_everyone()
    await table.click("alice", "+1")
    assert pings(table) == []
    assert table.dm("bob").content.startswith("🔔 Your turn: **Tiny Race** in <#")
    await table.click("bob", "+1")
    assert pings(table) == [] and "lucky number" in table.dm("carol").content  # carol: no word


async def test_commands_for_another_game_or_no_game_name_the_right_command(simcord_env):
    table = Table(simcord_env, "tiny", ["alice", "bob"])
    none = await table.member("alice").slash(table.channel, "bock status")
    assert none.response.content == (
        "There is no Rock the Bock table in this channel. Open one with `/bock new`."
    )
    await table.open()
    other = await table.member("bob").slash(table.channel, "bock join")
    assert other.ephemeral and other.response.content == (
        "This channel has a Tiny Race table, not Rock the Bock: use `/tiny` here, "
        "or open Rock the Bock in another channel."
    )
    busy = await table.member("bob").slash(table.channel, "bock new")
    assert "have the host run `/tiny cancel`" in busy.response.content
    lobby = await table.member("bob").slash(table.channel, "tiny status")
    assert "(or `/tiny join`)" in str(lobby.response.embeds[0].description)
    early = await table.member("alice").slash(table.channel, "tiny add", amount=1)
    assert early.response.content == "The game hasn't started yet: the host starts it from the lobby."


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
    assert done.ephemeral and "Nobody is pinged" in done.response.content
    shown = await admin.slash(table.channel, "settings show")
    assert "Turn pings: **off**" in str(shown.response.embeds[0].description)
    await table.seat_everyone()
    await table.click("alice", "+1")
    assert pings(table) == []
