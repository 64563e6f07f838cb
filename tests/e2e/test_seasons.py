"""Seasons through the bot: an admin ends a season, its podium is posted (naming whom it notifies),
the new season's ratings start fresh while all-time stays, /stats, /history and /leaderboard know
each game's season, and a monthly schedule ends a season by itself."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from cogs.tables import tables_of
from cogs.tables.context import now
from storage.settings import CHANNEL_KEY, SCHEDULE_KEY
from tests.e2e.helpers import Table, field_of, heading_of, picture_urls, text_of
from tests.e2e.tinygame import play_tiny

EXTENSIONS = (
    "cogs.tables",
    "tests.e2e.tinygame",
    "cogs.stats.leaderboard",
    "cogs.preferences.settings",
    "cogs.stats.seasons",
    "cogs.history.cog",
    "cogs.history.replay",
    "cogs.preferences.notify",
)
DAY = 24 * 60 * 60


@pytest.fixture
def extensions() -> tuple[str, ...]:
    return EXTENSIONS


@pytest.fixture(params=["sqlite", "postgres"])
def database_url(request: pytest.FixtureRequest) -> str:
    """Both flows on both databases: "" is SQLite (the default), else a fresh PostgreSQL database."""
    return "" if request.param == "sqlite" else request.getfixturevalue("postgres_url")


def admin_of(table: Table) -> Any:
    admins = table.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    return table.guild.add_member(table.env.create_user("admin"), roles=[admins])


def podiums(channel: Any) -> list[discord.Message]:
    return [message for message in channel.history() if "the podium" in heading_of(message)]


async def test_a_season_ends_with_its_podium_and_the_next_starts_fresh(simcord_env: Any) -> None:
    env = simcord_env
    table = Table(env, "tiny", ["alice", "bob"])
    await play_tiny(table)  # alice wins, before any season: season 0
    admin = admin_of(table)
    before = text_of((await admin.slash(table.channel, "leaderboard")).response)
    assert "Season" not in before and "alice" not in before  # a server without seasons: as it was

    started = await admin.slash(table.channel, "settings season", new=True)
    said = text_of(started.response)
    assert started.ephemeral and "Season 1 has begun" in said and "Before seasons is over" in said
    (podium,) = podiums(table.channel)
    assert heading_of(podium) == "🏆 Before seasons: the podium"
    alice, bob = table.member("alice"), table.member("bob")
    assert f"🥇 <@{alice.id}>" in text_of(podium) and f"🥈 <@{bob.id}>" in text_of(podium)
    notified = env.http_requests[-1].json["allowed_mentions"]
    assert sorted(int(user) for user in notified["users"]) == sorted([alice.id, bob.id])

    fresh = (await admin.slash(table.channel, "leaderboard")).response
    assert "Season 1" in heading_of(fresh) and "No finished games" in text_of(fresh)
    all_time = (await admin.slash(table.channel, "leaderboard", season="all")).response
    assert "All-time" in heading_of(all_time) and f"<@{alice.id}>" in text_of(all_time)
    season_0 = (await admin.slash(table.channel, "leaderboard", season="0")).response
    assert "Before seasons" in heading_of(season_0) and f"<@{alice.id}>" in text_of(season_0)
    unknown = await admin.slash(table.channel, "leaderboard", season="7")
    assert unknown.ephemeral and "no season 7" in text_of(unknown.response)

    await play_tiny(table)  # a game of season 1
    season_1 = (await admin.slash(table.channel, "leaderboard")).response
    assert f"<@{alice.id}>" in text_of(season_1)
    stats = (await alice.slash(table.channel, "stats")).response
    assert "Season 1" in text_of(stats) and "2 games" in text_of(stats)  # all-time: both games
    assert "Tiny Race: rank 1, 6 points · season 1" in field_of(stats, "Recent games")
    assert [url.rsplit("/", 1)[-1] for url in picture_urls(stats)] == ["stats.png"]  # her rating over time
    listed = text_of((await alice.slash(table.channel, "history")).response)
    assert listed.count("Tiny Race · season 1") == 1  # the game before seasons has no mark
    drawn = (await alice.slash(table.channel, "leaderboard", picture=True)).response
    assert [url.rsplit("/", 1)[-1] for url in picture_urls(drawn)] == ["leaderboard.png"]


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)  # PostgreSQL sweeps too often for a month
async def test_a_monthly_schedule_ends_the_season_by_itself(simcord_env: Any) -> None:
    env = simcord_env
    table = Table(env, "tiny", ["alice", "bob"])
    await play_tiny(table)
    admin = admin_of(table)
    podium_channel = table.guild.create_text_channel("podiums")
    set_up = await admin.slash(table.channel, "settings season", schedule="monthly", podium=podium_channel)
    said = text_of(set_up.response)
    assert "No season yet: the first begins on" in said and "seasons end monthly" in said
    assert f"<#{podium_channel.id}>" in said
    assert "seasons end monthly" in text_of((await admin.slash(table.channel, "settings show")).response)

    await env.advance_time(31 * DAY)  # past the first of the next month
    (first,) = podiums(podium_channel)
    assert heading_of(first) == "🏆 Before seasons: the podium"
    assert "Season 1" in heading_of((await admin.slash(table.channel, "leaderboard")).response)
    await env.advance_time(29 * DAY)  # and the month after
    assert [heading_of(message) for message in podiums(podium_channel)][-1] == "🏆 Season 1: the podium"
    assert "Nobody finished a game" in text_of(podiums(podium_channel)[-1])
    stopped = await admin.slash(table.channel, "settings season", schedule="never")
    assert "Season 2 is open. A season ends when an admin starts the next" in text_of(stopped.response)


@pytest.mark.parametrize("database_url", ["postgres"], indirect=True)
async def test_a_schedule_already_due_ends_the_season_at_once_on_postgres(simcord_env: Any) -> None:
    """A schedule whose season end has passed (set in another process, say) is acted on when the
    watcher looks: here woken by a schedule set in this process."""
    env = simcord_env
    table = Table(env, "tiny", ["alice", "bob"])
    await play_tiny(table)
    admin = admin_of(table)
    settings = tables_of(env.bot).guild_settings
    await settings.set(table.guild.id, SCHEDULE_KEY, {"every": "monthly", "since": now() - 40 * DAY})
    await settings.set(table.guild.id, CHANNEL_KEY, table.channel.id)
    watcher = env.bot.get_cog("Seasons")
    watcher.schedule_changed()
    await env.advance_time(1)
    (podium,) = podiums(table.channel)
    assert f"🥇 <@{table.member('alice').id}>" in text_of(podium)
    assert "Season 1" in heading_of((await admin.slash(table.channel, "leaderboard")).response)
