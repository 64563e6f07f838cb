"""/language: the language a player reads in private answers (refusals, confirmations), the same in
every server; "server default" follows the server's choice again."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.kit.services import UsesServices
from cogs.kit.words.reader import LANGUAGES, choose_language, language_choices, player_locale
from cogs.kit.words.text import t
from cogs.tables.tables import UsesTables


class LanguageCog(UsesServices, UsesTables, commands.Cog, name="Language"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="language", description="The language Sushi Bar answers you in")
    @app_commands.describe(choose="Your language, or the server's default")
    @app_commands.choices(choose=language_choices("Server default"))
    async def language(self, interaction: discord.Interaction, choose: app_commands.Choice[str]) -> None:
        value = choose.value if choose.value in LANGUAGES else None  # None: the server's choice again
        await choose_language(self.services.player_settings, interaction.user.id, value)
        locale = await player_locale(interaction)
        if value:
            text = t("language.set", locale, language=t(f"language.name.{value}", locale))
        else:
            text = t("language.default", locale)
        await interaction.response.send_message(text, ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(LanguageCog(bot))
