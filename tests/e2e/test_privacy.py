"""/privacy show and forget, and a server's data, through the bot: the file only its player sees; "Forget
me" pressed by its player (after a restart too), by another, twice; a forgotten player leaves the table
they sit at and is "a former player" in the game they finished, and the whole SQLite database, dumped,
holds neither their id nor their name; a server's data deleted after its grace unless the bot comes
back, and at once by /settings forget-server (Manage Server only)."""

from __future__ import annotations

import json
from typing import Any

import discord
import pytest

from cogs import feature_extensions
from cogs.kit.words.mentions import SLASH_COMMANDS
from cogs.privacy.servers import DAY, DEFAULT_GRACE_DAYS
from cogs.tables import tables_of
from storage.privacy import PrivacyStore
from tests.e2e.helpers import Table, buttons, labels, text_of
from tests.e2e.tinygame import play_tiny

EXTENSIONS = ("cogs.tables", "tests.e2e.tinygame", *feature_extensions())


@pytest.fixture
def extensions() -> tuple[str, ...]:
    return EXTENSIONS


async def dump(env: Any) -> str:
    database = env.bot.database
    lines = await database.connection._execute(lambda: list(database.connection._conn.iterdump()))
    return "\n".join(lines)


def button_of(message: Any) -> str:
    (button,) = buttons(message)
    assert button.custom_id is not None
    return button.custom_id


async def post_publicly(env: Any, channel: Any, custom_id: str) -> Any:
    """The bot posts a button with `custom_id` where everyone sees it (as a copy of a private one)."""
    view = discord.ui.View()
    view.add_item(discord.ui.Button(label="-", custom_id=custom_id))
    await env.bot.get_partial_messageable(channel.id).send(view=view)
    await env.settle()
    message = channel.last_message
    assert message is not None
    return message


def store(env: Any) -> PrivacyStore:
    return PrivacyStore(env.bot.database)


async def test_show_gives_the_player_alone_a_file_of_what_is_kept(simcord_env):
    table = Table(simcord_env, "tiny", ["alice", "bob"])
    await play_tiny(table)
    alice = table.member("alice")
    await alice.slash(table.channel, "roll", expression="2d6", label="my secret plan")

    shown = await alice.slash(table.channel, "privacy show")
    assert shown.ephemeral
    text = text_of(shown.response)
    assert "What Sushi Bar keeps about you" in text and "Finished games: 1" in text
    assert "Rolls in the roll log: 1" in text
    (attachment,) = shown.response.attachments
    data = json.loads(simcord_env.backend.cdn.get(attachment.url))
    assert data["user_id"] == str(alice.id)
    assert data["rolls"]["newest"][0]["label"] == "my secret plan"
    assert [(game["name"], game["rank"]) for game in data["games"]] == [("alice", 1)]


async def test_forget_needs_its_players_press_and_erases_them_once(simcord_env, bot_factory):
    table = Table(simcord_env, "tiny", ["alice", "bob"])
    await play_tiny(table)
    alice, bob = table.member("alice"), table.member("bob")
    await alice.slash(table.channel, "roll", expression="d20", label="alice rolls")
    await alice.slash(table.channel, "language", choose="de")
    await table.open()  # a new lobby: alice hosts it, bob joins
    await table.join("bob")
    lobby_channel = table.channel
    assert str(alice.id) in await dump(simcord_env)

    asked = await alice.slash(table.parent, "privacy forget")
    assert asked.ephemeral and labels(asked.response) == ["Vergiss mich"]  # her own language
    question = asked.response

    # An ephemeral question reaches nobody else; the same button where bob sees it still is not his.
    shown = await post_publicly(simcord_env, table.parent, button_of(question))
    stranger = await bob.click(shown, label="-")
    assert stranger.ephemeral and "only they can press it" in text_of(stranger.response)
    assert await store(simcord_env).holds(alice.id)  # nothing changed

    await simcord_env.restart_bot(bot_factory())  # the question outlives a restart
    await simcord_env.bot.tree.sync()
    done = await alice.click(question, label="Vergiss mich")
    assert done.acknowledged
    assert "Du bist vergessen" in text_of(question) and labels(question) == []

    everything = await dump(simcord_env)
    assert str(alice.id) not in everything and "alice" not in everything
    assert str(bob.id) in everything  # bob's game and rating stay
    lobby = await tables_of(simcord_env.bot).store.open_table(lobby_channel.id)
    assert lobby is not None and [seat.user_id for seat in lobby.seats] == [bob.id]  # her seat was freed
    assert lobby.host_id == bob.id
    assert "forget them" in text_of(lobby_channel.last_message)
    history = await bob.slash(table.parent, "history")
    assert "a former player" in text_of(history.response) and "bob" in text_of(history.response)

    twice = await alice.click(shown, label="-")  # the same button pressed again: nothing changes twice
    assert twice.ephemeral and "forgotten already" in text_of(twice.response)
    assert await dump(simcord_env) == everything
    again = await alice.slash(table.parent, "privacy forget")
    assert again.ephemeral and "nothing to forget" in text_of(again.response)


async def test_a_forgotten_player_at_a_game_is_played_for_by_a_computer(simcord_env):
    table = Table(simcord_env, "tiny", ["alice", "bob"])
    await table.seat_everyone()
    await table.click("alice", "+2")
    bob = table.member("bob")
    asked = await bob.slash(table.parent, "privacy forget")
    await bob.click(asked.response, label="Forget me")
    record = await tables_of(simcord_env.bot).store.open_table(table.channel.id)
    assert record is not None and record.status == "playing"
    seat = record.seats[1]
    assert seat.user_id < 0 and seat.computer and seat.name == "🤖 a former player"
    assert "a computer player takes their seat" in table.public_text()
    everything = await dump(simcord_env)
    assert str(bob.id) not in everything and '"bob"' not in everything
    await simcord_env.advance_time(60)  # the computer plays bob's seat on
    record = await tables_of(simcord_env.bot).store.last_table(table.channel.id)
    assert record is not None and record.version > 3


async def test_a_servers_data_goes_after_its_grace_unless_the_bot_comes_back(simcord_env):
    table = Table(simcord_env, "tiny", ["alice", "bob"])
    await play_tiny(table)
    other = Table(simcord_env, "tiny", ["alice", "bob"])  # another server, its own members
    await play_tiny(other)
    privacy = store(simcord_env)
    guild_id, other_id = table.guild.id, other.guild.id

    for guild in (guild_id, other_id):
        simcord_env.backend.remove_guild(guild)
    await simcord_env.settle()
    assert await privacy.departed(float("inf")) == [guild_id, other_id]
    # The bot is added back: simcord gives a removed server's id to no new one, so its join event is
    # dispatched to the bot's listeners as the gateway would.
    simcord_env.bot.dispatch("guild_join", discord.Object(other_id))
    await simcord_env.settle()
    assert await privacy.departed(float("inf")) == [guild_id]

    for _ in range(DEFAULT_GRACE_DAYS - 1):  # a day at a time: the bot's daily and hourly work runs
        await simcord_env.advance_time(DAY)
    assert await privacy.server_holds(guild_id)  # within its grace
    await simcord_env.advance_time(DAY)
    await simcord_env.advance_time(DAY)
    assert not await privacy.server_holds(guild_id)
    assert await privacy.server_holds(other_id)


async def test_forget_server_asks_an_admin_and_deletes_everything_at_once(simcord_env):
    table = Table(simcord_env, "tiny", ["alice", "bob"])
    await play_tiny(table)
    admins = table.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = table.guild.add_member(simcord_env.create_user("admin"), roles=[admins])
    alice = table.member("alice")

    # The server lets alice see /settings without Manage Server: the bot still refuses her.
    table.guild.set_command_permissions(SLASH_COMMANDS.ids["settings"], {alice: True})
    refused = await alice.slash(table.parent, "settings forget-server")
    assert refused.ephemeral and "Manage Server" in text_of(refused.response)
    asked = await admin.slash(table.parent, "settings forget-server")
    assert asked.ephemeral and "Delete everything of this server?" in text_of(asked.response)
    shown = await post_publicly(simcord_env, table.parent, button_of(asked.response))
    other = await alice.click(shown, label="-")
    assert other.ephemeral and "only they can press it" in text_of(other.response)
    assert await store(simcord_env).server_holds(table.guild.id)

    await admin.click(asked.response, label="Delete this server's data")
    assert not await store(simcord_env).server_holds(table.guild.id)
    assert str(table.guild.id) not in await dump(simcord_env)
    twice = await admin.click(shown, label="-")  # the same button again: nothing left to delete
    assert twice.ephemeral and "deleted already" in text_of(twice.response)
