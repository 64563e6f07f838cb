"""/games and /rules: what can be played here, and how."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.kit.errors import Refusal
from cogs.kit.limits import echo
from cogs.kit.messages import card_message
from cogs.kit.words.reader import player_locale
from cogs.kit.words.text import game_title, t
from cogs.tables.gamecog import ShortText
from cogs.tables.tables import UsesTables


class HelpCog(UsesTables, commands.Cog, name="Help"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="games", description="The games Sushi Bar plays, and how to start one")
    async def games(self, interaction: discord.Interaction) -> None:
        locale = await player_locale(interaction)  # an ephemeral answer: the player's language
        lines = [
            t(
                "games.line",
                locale,
                title=game_title(cog.game, locale),
                group=cog.group,
                min=cog.game.min_players,
                max=cog.game.max_players,
                summary=t(f"{cog.game.id}.summary", locale),
            )
            for cog in self.tables.games.values()
        ]
        embed = discord.Embed(title=t("games.title", locale), description="\n\n".join(lines))
        embed.colour = discord.Colour.orange()
        embed.set_footer(text=t("games.footer", locale))
        await interaction.response.send_message(view=card_message(None, embed), ephemeral=True)

    @app_commands.command(name="rules", description="A short summary of one game's rules")
    @app_commands.describe(game="Which game")
    async def rules(self, interaction: discord.Interaction, game: ShortText) -> None:
        cog = self.tables.games.get(game)
        if cog is None:
            raise Refusal("settings.unknown_game", game=echo(game))  # any length may arrive
        embed = cog.rules_embed(await player_locale(interaction))
        await interaction.response.send_message(view=card_message(None, embed), ephemeral=True)

    @rules.autocomplete("game")
    async def _game_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return self.game_choices(current, interaction.locale)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(HelpCog(bot))
