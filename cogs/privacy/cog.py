"""/privacy show: what the bot holds about you, as a JSON file only you see; /privacy forget: erase it,
after a confirm button only you may press (`sbp:forget:<you>:<asked at>`, restart-safe).

Forgetting (`storage.privacy`): your saved rolls, roll log, preferences and ratings are deleted; in the
games you played you become "a former player" (the others' results, ratings and replays stay); a table
you sit at takes it as your leaving (`leaving.py`). A second press, someone else's, or a button older
than `CONFIRM_FOR` changes nothing and says why in one line.
"""

from __future__ import annotations

import io
import json
import logging
from typing import Any, cast

import discord
from discord import app_commands
from discord.ext import commands

from cogs.kit.errors import answer_failure
from cogs.kit.messages import card_message, reply_ephemeral
from cogs.kit.services import UsesServices
from cogs.kit.words.reader import forget_language, player_locale
from cogs.kit.words.text import t
from cogs.privacy.leaving import former_player, leave_every_table
from cogs.tables.context import now
from cogs.tables.tables import loaded_tables
from storage.privacy import PrivacyStore

log = logging.getLogger(__name__)

CONFIRM_FOR = 15 * 60
"""Seconds a confirm button stays good: an old one, found later in a scrolled-up reply, asks again."""
FILE_NAME = "sushi-bar-my-data.json"
COLOUR = discord.Colour.dark_teal()


def data_file(data: dict[str, Any]) -> tuple[discord.File, discord.ui.File[Any]]:
    """The JSON file, and the card's part that shows it (a Components V2 card shows only the files its
    parts name)."""
    text = json.dumps(data, ensure_ascii=False, indent=2)
    return discord.File(io.BytesIO(text.encode()), filename=FILE_NAME), discord.ui.File(
        f"attachment://{FILE_NAME}"
    )


class ForgetButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"sbp:forget:(?P<user>\d+):(?P<at>\d+)"
):
    """The button "Forget me" under /privacy forget: whose question it is and when asked, in its custom_id."""

    def __init__(self, user_id: int, at: int, label: str = "-") -> None:
        super().__init__(
            discord.ui.Button(
                style=discord.ButtonStyle.danger, label=label, custom_id=f"sbp:forget:{user_id}:{at}"
            )
        )
        self.user_id, self.at = user_id, at

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any, /
    ) -> ForgetButton:
        return cls(int(match["user"]), int(match["at"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            cog = cast(PrivacyCog, interaction.client.get_cog("Privacy"))  # type: ignore[attr-defined]
            await cog.confirmed(interaction, self.user_id, self.at)
        except Exception as error:
            await answer_failure(interaction, error)


class PrivacyCog(
    UsesServices,
    commands.GroupCog,
    name="Privacy",
    group_name="privacy",
    group_description="What Sushi Bar keeps about you: see it, or have it forgotten",
):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self._forgetting: set[int] = set()  # players being forgotten now: a second press waits for nothing

    @property
    def store(self) -> PrivacyStore:
        return PrivacyStore(self.services.database)

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(ForgetButton)  # the confirm buttons of questions asked before a restart

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(ForgetButton)

    @app_commands.command(name="show", description="What Sushi Bar keeps about you, as a file only you see")
    async def show(self, interaction: discord.Interaction) -> None:
        locale = await player_locale(interaction)
        about = await self.store.about(interaction.user.id)
        counts = {
            "preferences": len(about["preferences"]),
            "saved_rolls": len(about["saved_rolls"]),
            "rolls": about["rolls"]["count"],
            "ratings": len(about["ratings"]),
            "games": len(about["games"]),
            "tables": len(about["tables"]),
        }
        lines = [t(f"privacy.count.{kind}", locale, count=count) for kind, count in counts.items()]
        embed = discord.Embed(
            title=t("privacy.show.title", locale),
            description=t("privacy.show.body", locale) + "\n\n" + "\n".join(lines),
            colour=COLOUR,
        )
        embed.set_footer(text=t("privacy.show.footer", locale, file=FILE_NAME))
        file, part = data_file(about)
        view = card_message(None, embed).add_part(part)
        await interaction.response.send_message(view=view, file=file, ephemeral=True)

    @app_commands.command(name="forget", description="Erase what Sushi Bar keeps about you (asks first)")
    async def forget(self, interaction: discord.Interaction) -> None:
        locale = await player_locale(interaction)
        if not await self.store.holds(interaction.user.id):
            await reply_ephemeral(interaction, t("privacy.forget.nothing", locale))
            return
        embed = discord.Embed(
            title=t("privacy.forget.title", locale),
            description=t("privacy.forget.body", locale),
            colour=COLOUR,
        )
        embed.set_footer(text=t("privacy.forget.footer", locale, minutes=CONFIRM_FOR // 60))
        button = ForgetButton(interaction.user.id, int(now()), t("privacy.forget.button", locale))
        await interaction.response.send_message(view=card_message(None, embed, [button]), ephemeral=True)

    async def confirmed(self, interaction: discord.Interaction, user_id: int, at: int) -> None:
        """The "Forget me" button pressed: by its player, in time, once; then everything goes."""
        locale = await player_locale(interaction)  # read before their language is forgotten too
        refused = await self._refusal(interaction.user.id, user_id, at)
        if refused is not None:
            await reply_ephemeral(interaction, t(refused, locale))
            return
        self._forgetting.add(user_id)
        try:
            await interaction.response.defer()  # the tables first: it may take more than a moment
            await self._forget(user_id)
            embed = discord.Embed(
                title=t("privacy.forgotten.title", locale),
                description=t("privacy.forgotten.body", locale),
                colour=COLOUR,
            )
            await interaction.edit_original_response(view=card_message(None, embed))
        finally:
            self._forgetting.discard(user_id)

    async def _refusal(self, presser: int, user_id: int, at: int) -> str | None:
        """Why this press changes nothing (a catalog key), or None when it erases."""
        if presser != user_id:
            return "privacy.forget.not_yours"
        if user_id in self._forgetting:
            return "privacy.forget.busy"
        if not await self.store.holds(user_id):
            return "privacy.forget.already"
        if now() - at > CONFIRM_FOR:
            return "privacy.forget.expired"
        return None

    async def _forget(self, user_id: int) -> None:
        store = self.store
        tables = loaded_tables(self.bot)
        if tables is not None:
            await leave_every_table(tables, user_id, await store.open_channels(user_id))
        forgotten = await store.forget(user_id, former_player, now())
        if tables is not None:
            for channel_id in forgotten.open_channels:  # changed by the store: read again, shown again
                tables.cache.drop(channel_id)
                tables.publisher.request(channel_id)
        forget_language(self.services.player_settings, user_id)
        changed = ", ".join(f"{kind} {count}" for kind, count in forgotten.counts.items())
        log.info("a player was forgotten on request (rows: %s)", changed)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(PrivacyCog(bot))
