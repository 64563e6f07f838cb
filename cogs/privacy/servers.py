"""A server's data goes when the server no longer has the bot: removed (`on_guild_remove`), its tables,
games, ratings, seasons, settings and rolls are deleted once `SERVER_DATA_GRACE_DAYS` have passed
(30 by default) — unless the bot is added back first (`on_guild_join`). A `discord.ext.tasks` loop
looks for servers past their grace every `SWEEP_EVERY`. `/settings forget-server` (Manage Server, in
cogs/preferences/settings.py) does it at once, after a confirm button only its asker may press
(`sbd:forget:<server>:<asker>:<asked at>`, restart-safe).
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord.ext import commands, tasks

from cogs.kit.errors import answer_failure
from cogs.kit.messages import card_message, reply_ephemeral
from cogs.kit.services import UsesServices, services_of
from cogs.kit.words.reader import player_locale
from cogs.kit.words.text import t
from cogs.tables.context import now
from cogs.tables.tables import loaded_tables
from storage.privacy import PrivacyStore

log = logging.getLogger(__name__)

DAY = 24 * 60 * 60
DEFAULT_GRACE_DAYS = 30
SWEEP_EVERY = 6 * 60 * 60  # seconds: a server's data goes at most this long after its grace ends
CONFIRM_FOR = 15 * 60
COLOUR = discord.Colour.dark_red()


def grace_days(bot: object) -> float:
    """SERVER_DATA_GRACE_DAYS, as the bot's settings say (bot.py)."""
    return float(getattr(getattr(bot, "settings", None), "server_data_grace_days", DEFAULT_GRACE_DAYS))


async def forget_server(bot: commands.Bot, guild_id: int) -> None:
    """Delete everything stored of the server; its open tables leave the bot's memory too."""
    channels = await PrivacyStore(services_of(bot).database).forget_server(guild_id)
    tables = loaded_tables(bot)
    if tables is not None:
        for channel_id in channels:
            tables.cache.drop(channel_id)


class ForgetServerButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"sbd:forget:(?P<guild>\d+):(?P<user>\d+):(?P<at>\d+)",
):
    """The "Delete this server's data" button under /settings forget-server's question."""

    def __init__(self, guild_id: int, user_id: int, at: int, label: str = "-") -> None:
        super().__init__(
            discord.ui.Button(
                style=discord.ButtonStyle.danger,
                label=label,
                custom_id=f"sbd:forget:{guild_id}:{user_id}:{at}",
            )
        )
        self.guild_id, self.user_id, self.at = guild_id, user_id, at

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any, /
    ) -> ForgetServerButton:
        return cls(int(match["guild"]), int(match["user"]), int(match["at"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await self._confirmed(interaction)
        except Exception as error:
            await answer_failure(interaction, error)

    async def _confirmed(self, interaction: discord.Interaction) -> None:
        locale = await player_locale(interaction)
        refused = await self._refusal(interaction)
        if refused is not None:
            await reply_ephemeral(interaction, t(refused, locale))
            return
        await interaction.response.defer()
        await forget_server(interaction.client, self.guild_id)  # type: ignore[arg-type]
        log.info("a server's data was deleted on its admins' request")
        embed = discord.Embed(
            title=t("privacy.server.done.title", locale),
            description=t("privacy.server.done.body", locale),
            colour=COLOUR,
        )
        await interaction.edit_original_response(view=card_message(None, embed))

    async def _refusal(self, interaction: discord.Interaction) -> str | None:
        if interaction.user.id != self.user_id or interaction.guild_id != self.guild_id:
            return "privacy.forget.not_yours"
        if not interaction.permissions.manage_guild:
            return "settings.admins_only"
        if not await PrivacyStore(services_of(interaction.client).database).server_holds(self.guild_id):
            return "privacy.server.already"
        if now() - self.at > CONFIRM_FOR:
            return "privacy.server.expired"
        return None


async def ask_to_forget_server(interaction: discord.Interaction) -> None:
    """/settings forget-server: what it deletes, and the button that does it (the asker's only)."""
    assert interaction.guild_id is not None
    locale = await player_locale(interaction)
    store = PrivacyStore(services_of(interaction.client).database)
    if not await store.server_holds(interaction.guild_id):
        await reply_ephemeral(interaction, t("privacy.server.nothing", locale))
        return
    embed = discord.Embed(
        title=t("privacy.server.title", locale), description=t("privacy.server.body", locale), colour=COLOUR
    )
    embed.set_footer(text=t("privacy.forget.footer", locale, minutes=CONFIRM_FOR // 60))
    button = ForgetServerButton(
        interaction.guild_id, interaction.user.id, int(now()), t("privacy.server.button", locale)
    )
    await interaction.response.send_message(view=card_message(None, embed, [button]), ephemeral=True)


class ServerData(UsesServices, commands.Cog, name="ServerData"):
    """Servers the bot leaves: marked when it leaves, forgotten after their grace, spared if it returns."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @property
    def store(self) -> PrivacyStore:
        return PrivacyStore(self.services.database)

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(ForgetServerButton)
        self._sweep.start()

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(ForgetServerButton)
        self._sweep.cancel()

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        if await self.store.mark_left(guild.id, now()):
            log.info("removed from server %s: its data goes in %g days", guild.id, grace_days(self.bot))

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        if await self.store.cancel_left(guild.id):
            log.info("added back to server %s: its data stays", guild.id)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Added back while this process was away (no join event reached it): the server's data stays."""
        for guild_id in await self.store.departed(float("inf")):
            if self.bot.get_guild(guild_id) is not None:
                await self.store.cancel_left(guild_id)

    @tasks.loop(seconds=SWEEP_EVERY)
    async def _sweep(self) -> None:
        try:
            for guild_id in await self.store.departed(now() - grace_days(self.bot) * DAY):
                if self.bot.get_guild(guild_id) is None:
                    await forget_server(self.bot, guild_id)
                    log.info("deleted the data of server %s, which removed the bot", guild_id)
        except Exception:  # the database is away for a moment: next time
            log.exception("deleting the data of servers that removed the bot failed")

    @_sweep.before_loop
    async def _when_ready(self) -> None:
        await self.bot.wait_until_ready()  # before then, every server looks absent


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(ServerData(bot))
