"""Seasons on Discord: a season's end posts its podium, and a schedule ends seasons by itself.

`/settings season` (cogs/preferences/settings.py) starts a season now or sets a schedule;
`/leaderboard` shows the open season by default (cogs/stats/leaderboard.py). Which season is open,
and starting the next, is storage's (storage/seasons.py): of several processes that see a scheduled
season end, exactly one starts the next one, and only it posts the podium.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime

import discord
from discord.ext import commands, tasks

from cogs.kit.messages import card_message
from cogs.kit.services import UsesServices, services_of
from cogs.kit.words.catalogs import Localish
from cogs.kit.words.reader import server_language
from cogs.kit.words.text import game_title, plural, t
from cogs.tables.boards import medal
from cogs.tables.context import now
from cogs.tables.showing import pinging
from cogs.tables.tables import Tables, UsesTables
from storage.leaderboard import ALL_GAMES, Standing
from storage.seasons import Season, ends_at
from storage.settings import CHANNEL_KEY, SCHEDULE_KEY

log = logging.getLogger(__name__)

LOOK_AGAIN = 24 * 60 * 60
"""The longest the watcher sleeps: a schedule set in another process is seen within a day (its first
season ends at a month's start, and the process that set it wakes at once)."""
PODIUM = 3


def season_name(number: int, locale: Localish) -> str:
    """ "Season 2", or the time before a server's first season."""
    return t("seasons.name", locale, number=number) if number else t("seasons.name_zero", locale)


def day(timestamp: float) -> str:
    """A Discord date: every reader sees it in their own format."""
    return discord.utils.format_dt(datetime.fromtimestamp(timestamp, tz=UTC), "D")


async def schedule_line(tables: Tables, guild_id: int, locale: Localish) -> str:
    """The server's seasons in one line: the open one, when it ends, where its podium goes."""
    settings = services_of(tables.bot).guild_settings
    season = await services_of(tables.bot).seasons.current(guild_id)
    schedule = await settings.get(guild_id, SCHEDULE_KEY)
    channel = await settings.get(guild_id, CHANNEL_KEY)
    where = (
        t("seasons.channel", locale, channel=f"<#{channel}>") if channel else t("seasons.no_channel", locale)
    )
    zero = "_zero" if not season.number else ""  # before the first season: none is open yet
    if schedule:
        every = t(f"seasons.every.{schedule['every']}", locale)
        until = day(ends_at(schedule, season))
        return t(
            f"seasons.line.scheduled{zero}",
            locale,
            season=season_name(season.number, locale),
            every=every,
            date=until,
            where=where,
        )
    return t(f"seasons.line.never{zero}", locale, season=season_name(season.number, locale), where=where)


async def podium(tables: Tables, season: Season, started: Season, locale: Localish) -> discord.ui.LayoutView:
    """The ended season's podium: its top three over all games, each game's best, and the next season."""
    board = services_of(tables.bot).leaderboard
    top = await board.top(season.guild_id, ALL_GAMES, PODIUM, season=season.number)
    title = t("seasons.podium.title", locale, season=season_name(season.number, locale))
    lines = [_podium_line(standing, locale) for standing in top] or [t("seasons.podium.nobody", locale)]
    embed = discord.Embed(title=title, description="\n".join(lines), colour=discord.Colour.gold())
    best = []
    for game_id, cog in tables.games.items():
        first = await board.top(season.guild_id, game_id, 1, season=season.number)
        if first:
            best.append(
                t("seasons.podium.best", locale, game=game_title(cog.game, locale), user=first[0].user_id)
            )
    if best:
        embed.add_field(name=t("seasons.podium.best_title", locale), value="\n".join(best), inline=False)
    embed.set_footer(text=t("seasons.podium.footer", locale, season=season_name(started.number, locale)))
    return card_message(None, embed)


def _podium_line(standing: Standing, locale: Localish) -> str:
    return t(
        "seasons.podium.line",
        locale,
        medal=medal(standing.position),
        user=standing.user_id,
        rating=standing.rating,
        wins=plural("stats.wins", standing.wins, locale),
        games=plural("stats.games", standing.games, locale),
    )


async def begin_season(
    tables: Tables, guild_id: int, *, after: int | None = None
) -> tuple[Season, Season] | None:
    """End the open season and start the next (`after`: only if that one is still open): (ended,
    started), or None when the season had moved on (another process, another admin)."""
    return await services_of(tables.bot).seasons.start(guild_id, now(), after=after)


async def post_podium(
    bot: commands.Bot, tables: Tables, ended: Season, started: Season, channel_id: int | None = None
) -> int | None:
    """Post the ended season's podium in the server's podium channel, else `channel_id`; the channel
    it went to (None: nowhere to post, or Discord refused: it stays on /leaderboard)."""
    guild_id = ended.guild_id
    target = await services_of(tables.bot).guild_settings.get(guild_id, CHANNEL_KEY) or channel_id
    if not target:
        return None
    locale = await server_language(services_of(tables.bot).guild_settings, guild_id) or _guild_locale(
        bot, guild_id
    )
    card = await podium(tables, ended, started, locale)
    top = await services_of(tables.bot).leaderboard.top(guild_id, ALL_GAMES, PODIUM, season=ended.number)
    try:
        await bot.get_partial_messageable(int(target), guild_id=guild_id).send(
            view=card, allowed_mentions=pinging([standing.user_id for standing in top])
        )
    except discord.HTTPException:
        log.warning("could not post the podium of season %s in channel %s", ended.number, target)
        return None
    return int(target)


def _guild_locale(bot: commands.Bot, guild_id: int) -> str | None:
    guild = bot.get_guild(guild_id)
    return str(guild.preferred_locale) if guild is not None else None


class SeasonsCog(UsesServices, UsesTables, commands.Cog, name="Seasons"):
    """Ends scheduled seasons: sleeps until the next one is due (a day at most, or until a schedule
    changes here), then starts the next season of every server whose schedule ended its open one."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self._changed = False  # a schedule changed here since the look under way began

    async def cog_load(self) -> None:
        self._watch.start()  # loaded after login (setup_hook): storage and Discord's HTTP are there

    async def cog_unload(self) -> None:
        self._watch.cancel()

    def schedule_changed(self) -> None:
        """A schedule was set or cleared in this process: look again now (or, during a look that may
        have read the schedules before, right after it)."""
        self._changed = True
        self._look_at(now())

    def _look_at(self, moment: float) -> None:
        """Have the watcher's next look at `moment`. A loop counts its interval from the moment its
        current look was due (`next_iteration` less the interval), not from now."""
        due = self._watch.next_iteration
        since = due.timestamp() - (self._watch.seconds or 0.0) if due is not None else now()
        self._watch.change_interval(seconds=max(0.0, moment - since))

    async def end_due(self) -> float | None:
        """Start the next season of every server whose schedule has ended its open one; when the
        next scheduled season ends (None: no schedule)."""
        upcoming = []
        for guild_id, number, end in await self.services.seasons.scheduled():
            if end > now():
                upcoming.append(end)
                continue
            moved = await begin_season(self.tables, guild_id, after=number)
            if moved is not None:
                await post_podium(self.bot, self.tables, *moved)
            upcoming.append(now())  # look again: its next season has a schedule too
        return min(upcoming, default=None)

    @tasks.loop(seconds=LOOK_AGAIN)
    async def _watch(self) -> None:
        self._changed = False
        sleep = LOOK_AGAIN
        try:
            upcoming = await self.end_due()
            if upcoming is not None:
                sleep = min(LOOK_AGAIN, max(1.0, upcoming - now()))
        except Exception:
            log.exception("ending the scheduled seasons failed")
        self._look_at(now() if self._changed else now() + sleep)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(SeasonsCog(bot))
