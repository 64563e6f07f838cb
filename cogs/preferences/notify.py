"""/notify: how a player is told it is their turn — a ping in the channel, a DM, or nothing."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.kit.services import UsesServices
from cogs.kit.words.reader import player_locale
from cogs.kit.words.text import t
from cogs.tables.pings import NOTIFY_MODES
from cogs.tables.tables import UsesTables
from storage.settings import NOTIFY_KEY


class NotifyCog(UsesServices, UsesTables, commands.Cog, name="Notify"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(
        name="notify", description="How you are told it is your turn: channel ping, DM or off"
    )
    @app_commands.describe(how="Ping me in the channel (default), send me a DM, or don't tell me")
    @app_commands.choices(
        how=[app_commands.Choice(name=t(f"notify.choice.{mode}"), value=mode) for mode in NOTIFY_MODES]
    )
    async def notify(self, interaction: discord.Interaction, how: app_commands.Choice[str]) -> None:
        await self.services.player_settings.set(interaction.user.id, NOTIFY_KEY, how.value)
        await interaction.response.send_message(
            t(f"notify.set.{how.value}", await player_locale(interaction)), ephemeral=True
        )


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(NotifyCog(bot))
