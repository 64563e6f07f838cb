"""/help: what a newcomer does first, one card; /about: the running release, since when, in how many
servers, the invite link, and the operator's support, privacy and terms pages when set.

Both answer privately, in the reader's language. The games are named by their registered groups
(`/<group> new`), never in these shared words.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.kit.messages import card_message
from cogs.kit.version import VERSION
from cogs.kit.words.reader import player_locale
from cogs.kit.words.text import join_list, t
from cogs.tables.context import now
from cogs.tables.tables import UsesTables

PERMISSIONS = 309237763072
"""The bot permissions README's set-up lists (View Channels, Send Messages, Create Public Threads, Send
Messages in Threads, Embed Links, Attach Files, Read Message History)."""
SCOPES = "bot+applications.commands"
LINKS = ("support", "privacy", "terms")  # Settings.<name>_url: SUPPORT_URL, PRIVACY_URL, TERMS_URL


def invite_url(application_id: int) -> str:
    """The link that adds the bot to a server with the permissions it needs."""
    return (
        f"https://discord.com/oauth2/authorize?client_id={application_id}"
        f"&scope={SCOPES}&permissions={PERMISSIONS}"
    )


def _link_setting(bot: object, name: str) -> str:
    return str(getattr(getattr(bot, "settings", None), f"{name}_url", "") or "")


class AboutCog(UsesTables, commands.Cog, name="About"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.started = now()  # loaded at start-up: the bot's uptime

    @app_commands.command(name="help", description="How to start playing with Sushi Bar")
    async def help_command(self, interaction: discord.Interaction) -> None:
        locale = await player_locale(interaction)
        # Each game's command on its own in the line (a right-to-left line keeps each in its place).
        groups = " · ".join(
            t("help.open.command", locale, group=cog.group) for cog in self.tables.games.values()
        )
        embed = discord.Embed(title=t("help.title", locale), description=t("help.intro", locale))
        embed.colour = discord.Colour.orange()
        for part in ("open", "join", "play", "more"):
            value = t(f"help.{part}.value", locale) + ("\n" + groups if part == "open" else "")
            embed.add_field(name=t(f"help.{part}.name", locale), value=value, inline=False)
        embed.set_footer(text=t("help.footer", locale))
        await interaction.response.send_message(view=card_message(None, embed), ephemeral=True)

    @app_commands.command(name="about", description="Sushi Bar's version, uptime, invite link and policies")
    async def about_command(self, interaction: discord.Interaction) -> None:
        locale = await player_locale(interaction)
        since = datetime.fromtimestamp(self.started, tz=UTC)
        lines = [
            t("about.version", locale, version=VERSION),
            t(
                "about.running",
                locale,
                since=discord.utils.format_dt(since, "f"),
                ago=discord.utils.format_dt(since, "R"),
            ),
            t("about.servers", locale, count=len(self.bot.guilds)),
        ]
        shard_ids: Any = getattr(self.bot, "shard_ids", None)
        if shard_ids and self.bot.shard_count and len(shard_ids) < self.bot.shard_count:
            shards = join_list([str(shard) for shard in sorted(shard_ids)], locale)
            lines.append(t("about.shards", locale, shards=shards, count=self.bot.shard_count))
        embed = discord.Embed(
            title=t("about.title", locale), description=t("about.intro", locale) + "\n\n" + "\n".join(lines)
        )
        embed.colour = discord.Colour.orange()
        embed.set_footer(text=t("about.footer", locale))
        items: list[discord.ui.Item[Any]] = []
        if self.bot.application_id is not None:
            url = invite_url(self.bot.application_id)
            items.append(discord.ui.Button(label=t("about.invite", locale), url=url))
        for name in LINKS:
            url = _link_setting(self.bot, name)
            if url:
                items.append(discord.ui.Button(label=t(f"about.{name}", locale), url=url))
        await interaction.response.send_message(view=card_message(None, embed, items), ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(AboutCog(bot))
