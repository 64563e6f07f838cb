"""/leaderboard and /stats: this server's standings, from storage/leaderboard.py."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.i18n import Localish, game_title, join_list, plural, t
from cogs.limits import echo
from cogs.tables.context import shown_name
from cogs.tables.errors import Refusal
from cogs.tables.gamecog import ShortText
from cogs.tables.language import public_locale
from cogs.tables.tables import UsesTables
from cogs.tables.ui import card_message
from storage.leaderboard import ALL_GAMES, Standing


class LeaderboardCog(UsesTables, commands.Cog, name="Leaderboard"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    def _title(self, game_id: str, locale: Localish) -> str:
        cog = self.tables.games.get(game_id)
        return game_title(cog.game, locale) if cog else t("leaderboard.all_games", locale)

    def _unit(self, game_id: str) -> str:
        cog = self.tables.games.get(game_id)
        return cog.score_unit if cog else "results.points"

    def _counted(self, key: str, game_id: str) -> str:
        """`key`, or its variant for a game scored in plates (Sushi Dice): its averages are plates."""
        return key if self._unit(game_id) == "results.points" else f"{key}_plates"

    @app_commands.command(
        name="leaderboard", description="This server's top players, overall or for one game"
    )
    @app_commands.describe(game="Only this game (default: all games)")
    @app_commands.guild_only()
    async def leaderboard(self, interaction: discord.Interaction, game: ShortText | None = None) -> None:
        locale = await public_locale(interaction)  # posted in the channel: the server's language
        if interaction.guild_id is None:
            raise Refusal("table.guild_only")
        bucket = game or ALL_GAMES
        if bucket != ALL_GAMES and bucket not in self.tables.games:
            raise Refusal("settings.unknown_game", game=echo(game))  # any length may arrive
        top = await self.tables.leaderboard.top(interaction.guild_id, bucket)
        embed = discord.Embed(title=t("leaderboard.title", locale, game=self._title(bucket, locale)))
        embed.colour = discord.Colour.gold()
        if not top:
            games = [self.tables.games[bucket]] if bucket in self.tables.games else self.tables.games.values()
            commands = join_list((f"`/{cog.group} new`" for cog in games), locale, style="or")
            embed.description = t("leaderboard.empty", locale, commands=commands)
        else:
            header = t(self._counted("leaderboard.header", bucket), locale)
            embed.description = "\n".join([header, *(_line(s, locale) for s in top)])
            mine = await self.tables.leaderboard.standing(interaction.guild_id, interaction.user.id, bucket)
            embed.add_field(
                name=t("leaderboard.you", locale),
                value=_line(mine, locale) if mine else t("leaderboard.you_none", locale),
                inline=False,
            )
        await interaction.response.send_message(view=card_message(None, embed))

    @leaderboard.autocomplete("game")
    async def _game_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return self.game_choices(current, interaction.locale)

    @app_commands.command(name="stats", description="A player's results on this server")
    @app_commands.describe(member="Whose stats (default: yours)")
    @app_commands.guild_only()
    async def stats(self, interaction: discord.Interaction, member: discord.Member | None = None) -> None:
        locale = await public_locale(interaction)  # posted in the channel: the server's language
        if interaction.guild_id is None:
            raise Refusal("table.guild_only")
        who = member or interaction.user
        board = self.tables.leaderboard
        standings = await board.stats(interaction.guild_id, who.id)
        embed = discord.Embed(
            title=t("stats.title", locale, name=shown_name(who.display_name)),
            colour=discord.Colour.blurple(),
        )
        if not standings:
            embed.description = t("stats.none", locale, name=shown_name(who.display_name))
        for game_id in [ALL_GAMES, *sorted(g for g in standings if g != ALL_GAMES)]:
            if game_id in standings:
                field = _field(standings[game_id], self._counted("stats.field", game_id), locale)
                embed.add_field(name=self._title(game_id, locale), value=field)
        recent = await board.recent_games(interaction.guild_id, who.id)
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
                for game in recent
            ]
            embed.add_field(name=t("stats.recent", locale), value="\n".join(lines), inline=False)
        await interaction.response.send_message(view=card_message(None, embed))


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
