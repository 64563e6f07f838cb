"""/leaderboard and /stats: this server's standings, from storage/leaderboard.py, per season (the open
one by default) or all-time; as text, or drawn (cogs/stats/charts.py) with each player's rating over time."""

from __future__ import annotations

import asyncio
import io

import discord
from discord import app_commands
from discord.ext import commands

from cogs.kit.errors import Refusal
from cogs.kit.limits import echo
from cogs.kit.messages import card_message
from cogs.kit.services import UsesServices
from cogs.kit.words.bidi import plain
from cogs.kit.words.catalogs import Localish
from cogs.kit.words.reader import public_locale
from cogs.kit.words.text import game_title, join_list, plural, t
from cogs.stats.charts import (
    GameLine,
    LeaderRow,
    RatingPoint,
    SeasonMark,
    leaderboard_png,
    most_played,
    stats_png,
)
from cogs.stats.seasons import season_name
from cogs.tables.context import shown_name
from cogs.tables.gamecog import ShortText
from cogs.tables.tables import UsesTables
from storage.leaderboard import ALL_GAMES, Standing, known_names
from storage.seasons import Season
from storage.settings import PICTURES_KEY

CURRENT = "current"
ALL_TIME_WORD = "all"
"""What a `season:` option takes besides a season's number: the open season (the default), all-time."""


class LeaderboardCog(UsesServices, UsesTables, commands.Cog, name="Leaderboard"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    def _title(self, game_id: str, locale: Localish) -> str:
        cog = self.tables.games.get(game_id)
        return game_title(cog.game, locale) if cog else t("leaderboard.all_games", locale)

    def _colour(self, game_id: str) -> tuple[int, int, int] | None:
        cog = self.tables.games.get(game_id)
        return cog.chart_colour if cog else None

    def _unit(self, game_id: str) -> str:
        cog = self.tables.games.get(game_id)
        return cog.score_unit if cog else "results.points"

    def _counted(self, key: str, game_id: str) -> str:
        """`key`, or its variant for a game scored in plates (Sushi Dice): its averages are plates."""
        return key if self._unit(game_id) == "results.points" else f"{key}_plates"

    async def _season(self, guild_id: int, typed: str | None) -> Season | None:
        """The season a `season:` option names: the open one by default, None for all-time."""
        seasons = self.services.seasons
        word = plain(typed or "").strip().casefold()
        if word in ("", CURRENT):
            return await seasons.current(guild_id)
        if word in (ALL_TIME_WORD, "all-time", "all time"):
            return None
        number = word.removeprefix("s").strip()
        found = await seasons.get(guild_id, int(number)) if number.isdigit() and len(number) < 6 else None
        if found is None:
            raise Refusal("seasons.unknown", season=echo(typed or ""))
        return found

    def _season_title(self, season: Season | None, locale: Localish) -> str | None:
        """How a board names its season: None for a server that never started one (nothing changed)."""
        if season is None:
            return t("seasons.all_time", locale)
        if season.number == 0 and season.ended_at is None:
            return None
        return season_name(season.number, locale)

    @app_commands.command(
        name="leaderboard", description="This server's top players, overall or for one game"
    )
    @app_commands.describe(
        game="Only this game (default: all games)",
        season="A season, or all-time (default: the current season)",
        picture="As a picture with each player's trend (default: as the server chose)",
    )
    @app_commands.guild_only()
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        game: ShortText | None = None,
        season: ShortText | None = None,
        picture: bool | None = None,
    ) -> None:
        locale = await public_locale(interaction)  # posted in the channel: the server's language
        if interaction.guild_id is None:
            raise Refusal("table.guild_only")
        guild_id = interaction.guild_id
        bucket = game or ALL_GAMES
        if bucket != ALL_GAMES and bucket not in self.tables.games:
            raise Refusal("settings.unknown_game", game=echo(game))  # any length may arrive
        chosen = await self._season(guild_id, season)
        number = chosen.number if chosen is not None else None
        top = await self.services.leaderboard.top(guild_id, bucket, season=number)
        title = t("leaderboard.title", locale, game=self._title(bucket, locale))
        season_title = self._season_title(chosen, locale)
        if season_title is not None:
            title = t("seasons.titled", locale, title=title, season=season_title)
        embed = discord.Embed(title=title, colour=discord.Colour.gold())
        files: list[discord.File] = []
        if not top:
            games = [self.tables.games[bucket]] if bucket in self.tables.games else self.tables.games.values()
            commands = join_list((f"`/{cog.group} new`" for cog in games), locale, style="or")
            embed.description = t("leaderboard.empty", locale, commands=commands)
        else:
            if picture is None:
                picture = bool(await self.services.guild_settings.get(guild_id, PICTURES_KEY, False))
            if picture:
                # The picture's header names the board only: the game, and the season if any.
                named = self._title(bucket, locale)
                named = named[:1].upper() + named[1:]
                if season_title is not None:
                    named = t("seasons.titled", locale, title=named, season=season_title)
                files.append(await self._picture(guild_id, bucket, number, top, named, locale))
                embed.set_image(url=f"attachment://{files[0].filename}")
            else:
                header = t(self._counted("leaderboard.header", bucket), locale)
                embed.description = "\n".join([header, *(_line(s, locale) for s in top)])
            mine = await self.services.leaderboard.standing(
                guild_id, interaction.user.id, bucket, season=number
            )
            if picture:  # under the picture, in words: the board's columns are in the picture only
                place = mine and t("charts.your_place", locale, position=mine.position, rating=mine.rating)
                embed.set_footer(text=place or t("leaderboard.you_none", locale))
            else:
                embed.add_field(
                    name=t("leaderboard.you", locale),
                    value=_line(mine, locale) if mine else t("leaderboard.you_none", locale),
                    inline=False,
                )
        await interaction.response.send_message(view=card_message(None, embed), files=files)

    async def _picture(
        self,
        guild_id: int,
        bucket: str,
        season: int | None,
        top: list[Standing],
        title: str,
        locale: Localish,
    ) -> discord.File:
        board = self.services.leaderboard
        users = [standing.user_id for standing in top]
        trends = await board.trends(guild_id, users, bucket, season)
        names = await known_names(self.services.database, guild_id, users)
        rows = [
            LeaderRow(
                position=s.position,
                name=names.get(s.user_id, ""),
                rating=s.rating,
                trend=tuple(trends.get(s.user_id, ())),
                games=s.games,
                wins=s.wins,
            )
            for s in top
        ]
        drawn = await asyncio.to_thread(leaderboard_png, plain(title), rows, locale)
        return discord.File(io.BytesIO(drawn), filename="leaderboard.png")

    @leaderboard.autocomplete("game")
    async def _game_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return self.game_choices(current, interaction.locale)

    @leaderboard.autocomplete("season")
    async def _season_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        if interaction.guild_id is None:
            return []
        locale = interaction.locale
        seasons = await self.services.seasons.all(interaction.guild_id)
        named = [(season_name(season.number, locale), str(season.number)) for season in seasons]
        named.append((t("seasons.all_time", locale), ALL_TIME_WORD))
        typed = current.casefold()
        return [
            app_commands.Choice(name=name[:100], value=value)
            for name, value in named
            if typed in name.casefold() or typed in value
        ][:25]

    @app_commands.command(name="stats", description="A player's results on this server")
    @app_commands.describe(member="Whose stats (default: yours)")
    @app_commands.guild_only()
    async def stats(self, interaction: discord.Interaction, member: discord.Member | None = None) -> None:
        locale = await public_locale(interaction)  # posted in the channel: the server's language
        if interaction.guild_id is None:
            raise Refusal("table.guild_only")
        guild_id = interaction.guild_id
        who = member or interaction.user
        board = self.services.leaderboard
        standings = await board.stats(guild_id, who.id)
        embed = discord.Embed(
            title=t("stats.title", locale, name=shown_name(who.display_name)),
            colour=discord.Colour.blurple(),
        )
        if not standings:
            embed.description = t("stats.none", locale, name=shown_name(who.display_name))
        seasons = await self.services.seasons.all(guild_id)
        season = seasons[0]  # the open one (newest first; season 0 when the server has none)
        if season.number and ALL_GAMES in standings:  # a server with seasons: the open one first
            this_season = await board.standing(guild_id, who.id, ALL_GAMES, season=season.number)
            line = (
                _field(this_season, "stats.field", locale) if this_season else t("stats.season_none", locale)
            )
            embed.add_field(name=season_name(season.number, locale), value=line, inline=False)
        for game_id in [ALL_GAMES, *sorted(g for g in standings if g != ALL_GAMES)]:
            if game_id in standings:
                field = _field(standings[game_id], self._counted("stats.field", game_id), locale)
                # With seasons the overall line is the all-time one (the season's is above it).
                seasons_on = season.number and game_id == ALL_GAMES
                name = t("seasons.all_time", locale) if seasons_on else self._title(game_id, locale)
                embed.add_field(name=name, value=field)
        recent = await board.recent_games(guild_id, who.id)
        if recent:
            lines = [
                t(
                    "stats.recent_line",
                    locale,
                    game=self._title(game.game_id, locale),
                    rank=game.rank,
                    points=plural(self._unit(game.game_id), game.score, locale),
                )
                + (t("computers.stats.recent_mark", locale) if game.with_computers else "")
                + (t("seasons.mark", locale, number=game.season) if game.season else "")
                for game in recent
            ]
            embed.add_field(name=t("stats.recent", locale), value="\n".join(lines), inline=False)
        files: list[discord.File] = []
        over_time = await board.ratings_over_time(guild_id, who.id)
        if over_time:
            lines_drawn = most_played(
                [
                    GameLine(
                        title=self._title(game_id, locale),
                        points=tuple(RatingPoint(point.at, point.rating) for point in points),
                        games=standings[game_id].games if game_id in standings else len(points),
                        wins=standings[game_id].wins if game_id in standings else 0,
                        colour=self._colour(game_id),
                    )
                    for game_id, points in over_time.items()
                ]
            )
            marks = [
                SeasonMark(s.number, s.started_at) for s in seasons if s.number and s.started_at is not None
            ]
            drawn = await asyncio.to_thread(stats_png, who.display_name, lines_drawn, marks, locale)
            files.append(discord.File(io.BytesIO(drawn), filename="stats.png"))
            embed.set_image(url="attachment://stats.png")
        await interaction.response.send_message(view=card_message(None, embed), files=files)


def _numbers(standing: Standing) -> dict[str, object]:
    return {
        "position": standing.position,
        "rating": standing.rating,
        "wins": standing.wins,
        "games": standing.games,
        "win_rate": standing.win_rate,
        "average": standing.average_points,
        "user": standing.user_id,
    }


def _line(standing: Standing, locale: Localish) -> str:
    # One template for the whole row, so a right-to-left language lays it out as one line.
    return t("leaderboard.line", locale, **_numbers(standing), computers=_computers(standing, locale))


def _field(standing: Standing, key: str, locale: Localish) -> str:
    numbers = _numbers(standing)
    numbers["wins"] = plural("stats.wins", standing.wins, locale)
    numbers["games"] = plural("stats.games", standing.games, locale)
    return t(key, locale, **numbers) + _computers(standing, locale)


def _computers(standing: Standing, locale: Localish) -> str:
    """How many of a player's counted games had computer players at the table ("" if none)."""
    if not standing.computer_games:
        return ""
    return t("computers.stats.mark", locale, games=plural("stats.games", standing.computer_games, locale))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(LeaderboardCog(bot))
