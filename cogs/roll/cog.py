"""/roll and /r: dice notation, the games' dice, Roll again; /rolls: saved rolls, stats and help.

/roll is a plain command, so the thing people type most is `/roll 2d6+3` with nothing in between;
Discord cannot invoke a command that has subcommands, so everything around it lives in /rolls.
The notation is rules/dice_notation/; this cog resolves saved names, draws from `secrets`,
logs the roll and answers. Refusals are raised (`Refusal`), never answered here. A roll may throw
up to MAX_THROWS dice, so it is parsed, thrown and worded in a worker thread: the event loop (every
table of the bot) never waits on it. /rolls list is a book of pages (cogs/kit/pages.py).
"""

from __future__ import annotations

import asyncio
import re
import secrets
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.kit import pages
from cogs.kit.errors import Refusal, answer_failure
from cogs.kit.messages import card_message
from cogs.kit.services import services_of
from cogs.kit.words.catalogs import Localish
from cogs.kit.words.reader import player_locale, public_locale
from cogs.kit.words.text import latin_digits, t
from cogs.roll import render as roll_render
from rules.dice_notation import MAX_LENGTH, Draw, Roll, RollError, evaluate, game_words, parse
from storage.rolls import SAVED_LIMIT, Scope

COG_NAME = "Roll"
SAVED_BOOK = "rolls"  # /rolls list's pages (cogs/kit/pages.py)
LABEL_LENGTH = 100
NAME_LENGTH = 32
CHOICES = 25
CHOICE_LENGTH = 100  # Discord's limit for an autocomplete choice's name and value
_NAME = re.compile(r"[a-z][a-z0-9_-]{0,31}")

Expression = app_commands.Range[str, 1, MAX_LENGTH]
Label = app_commands.Range[str, 1, LABEL_LENGTH]
Name = app_commands.Range[str, 1, NAME_LENGTH]


# /roll and its short form /r take the same options (Discord has no aliases for slash commands).
_ROLL_OPTIONS = app_commands.describe(
    expression="Dice notation, a saved roll's name, or a game's dice word (/rolls help)",
    private="Show the result to you alone",
    label="What the roll is for",
)


class RollAgain(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"roll:again:(?P<roll>\d+)"):
    """Roll again: the logged roll's id is in the custom_id, so the button outlives a restart."""

    def __init__(self, roll_id: int, label: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                emoji="🎲",
                style=discord.ButtonStyle.secondary,
                custom_id=f"roll:again:{roll_id}",
            )
        )
        self.roll_id = roll_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> RollAgain:
        return cls(int(match["roll"]), getattr(item, "label", None) or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = interaction.client.get_cog(COG_NAME)  # type: ignore[attr-defined]
        try:
            assert isinstance(cog, RollCog), "the Roll cog is not loaded"
            await cog.roll_again(interaction, self.roll_id)
        except Exception as error:  # a click has no command tree: take the one refusal path by hand
            await answer_failure(interaction, error)


class RollCog(commands.Cog, name=COG_NAME):
    rolls = app_commands.Group(name="rolls", description="Saved rolls, this server's dice statistics, help")

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.store = services_of(bot).rolls
        self.draw: Draw = secrets.randbelow  # the operating system's randomness; tests swap it

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(RollAgain)
        pages.attach(self.bot, SAVED_BOOK, _open_saved)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(RollAgain)
        pages.detach(self.bot, SAVED_BOOK)

    # ------------------------------------------------------------ /roll and /r

    @app_commands.command(
        name="roll", description="Roll dice: 2d6+3, 4d6kh3, d20 adv, 6#4d6kh3, or a game's dice (/rolls help)"
    )
    @_ROLL_OPTIONS
    async def roll(
        self,
        interaction: discord.Interaction,
        expression: Expression,
        private: bool = False,
        label: Label | None = None,
    ) -> None:
        await self._roll(interaction, expression, private, label)

    @app_commands.command(name="r", description="Roll dice (short for /roll)")
    @_ROLL_OPTIONS
    async def r(
        self,
        interaction: discord.Interaction,
        expression: Expression,
        private: bool = False,
        label: Label | None = None,
    ) -> None:
        await self._roll(interaction, expression, private, label)

    @roll.autocomplete("expression")
    @r.autocomplete("expression")
    async def _expression_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """What was typed (kept first, so Enter rolls it), then the saved rolls and games' dice it matches."""
        locale = await player_locale(interaction)
        typed = current.strip()
        wanted = typed.lower()
        named: list[app_commands.Choice[str]] = []
        for saved in await self.store.usable(interaction.user.id, interaction.guild_id):
            if wanted in saved.name:
                key = "roll.choice.own" if saved.scope == "user" else "roll.choice.server"
                shown = t(key, locale, name=saved.name, expression=saved.expression)
                named.append(app_commands.Choice(name=shown[:CHOICE_LENGTH], value=saved.name))
        for game in game_words():
            if wanted in game:
                named.append(app_commands.Choice(name=t(f"roll.choice.{game}", locale), value=game))
        if 0 < len(typed) <= CHOICE_LENGTH and all(choice.value != wanted for choice in named):
            named.insert(0, app_commands.Choice(name=typed, value=typed))
        return named[:CHOICES]

    async def _roll(
        self, interaction: discord.Interaction, request: str, private: bool, label: str | None
    ) -> None:
        saved = await self.store.find(request, interaction.user.id, interaction.guild_id)
        if saved is not None:
            await self._answer(interaction, saved.name, saved.expression, label, private)
        else:
            await self._answer(interaction, request.strip(), request.strip(), label, private)

    async def roll_again(self, interaction: discord.Interaction, roll_id: int) -> None:
        logged = await self.store.get(roll_id)
        if logged is None:
            raise Refusal("roll.error.gone")
        await self._answer(interaction, logged.request, logged.expression, logged.label, logged.private)

    async def _answer(
        self,
        interaction: discord.Interaction,
        request: str,
        expression: str,
        label: str | None,
        private: bool,
    ) -> None:
        """Roll, log (the log's id goes into Roll again) and post."""
        asker = await player_locale(interaction)
        # A private roll is the player's, in their language; a public one the channel's.
        locale = asker if private else await public_locale(interaction)
        result, content = await asyncio.to_thread(
            self._roll_and_word, expression, request, label, interaction.user.mention, asker, locale
        )
        label = label or result.request.label
        roll_id = await self.store.log(
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            user_id=interaction.user.id,
            request=request,
            expression=expression,
            label=label,
            private=private,
            totals=result.totals,
            tally=result.tally,
        )
        card = card_message(content, None, [RollAgain(roll_id, t("roll.again", locale))])
        await interaction.response.send_message(
            view=card, ephemeral=private, allowed_mentions=discord.AllowedMentions.none()
        )

    def _roll_and_word(
        self, expression: str, request: str, label: str | None, user: str, asker: Localish, locale: Localish
    ) -> tuple[Roll, str]:
        """Parse, throw and word a roll (in a worker thread: thousands of dice take milliseconds)."""
        try:
            result = evaluate(parse(latin_digits(expression)), self.draw)
        except RollError as error:
            raise Refusal("roll.error.at", **roll_render.error_parts(error, asker)) from error
        content = roll_render.message(
            result,
            user=user,
            name=request if request != expression else None,  # called by a saved roll's name
            label=label or result.request.label,
            locale=locale,
        )
        return result, content

    # ------------------------------------------------------------ /rolls

    @rolls.command(name="save", description="Save a roll under a name, for /roll name")
    @app_commands.describe(
        name="A short name (letters, digits, - or _)",
        expression="What to roll",
        server="Save it for everyone on this server (Manage Server)",
    )
    async def save(
        self, interaction: discord.Interaction, name: Name, expression: Expression, server: bool = False
    ) -> None:
        scope, owner = self._owner(interaction, server)
        locale = await player_locale(interaction)
        name = name.strip().lower()
        if not _NAME.fullmatch(name):
            raise Refusal("roll.error.bad_name")
        if _reads_as_notation(name):
            raise Refusal("roll.error.name_is_notation", name=name)
        expression = latin_digits(expression.strip())
        try:
            await asyncio.to_thread(parse, expression)
        except RollError as error:
            raise Refusal("roll.error.at", **roll_render.error_parts(error, locale)) from error
        outcome = await self.store.save(scope, owner, name, expression)
        if outcome == "full":
            raise Refusal("roll.error.too_many_saved", max=SAVED_LIMIT)
        if scope == "server":  # told to the whole channel: the server's language
            locale = await public_locale(interaction)
        await interaction.response.send_message(
            t(
                f"roll.saved.{outcome}",
                locale,
                name=name,
                expression=expression.replace("`", "'"),
                scope=t(f"roll.scope.{scope}", locale),
            ),
            ephemeral=scope == "user",
        )

    @rolls.command(name="list", description="Your saved rolls and this server's")
    async def list_saved(self, interaction: discord.Interaction) -> None:
        locale = await player_locale(interaction)
        await pages.show(interaction, SAVED_BOOK, "", await self.saved_pages(interaction), locale)

    async def saved_pages(self, interaction: discord.Interaction) -> list[discord.Embed]:
        """The pages of /rolls list for the one who asked (or pressed a page button)."""
        own = await self.store.saved("user", interaction.user.id)
        server = await self.store.saved("server", interaction.guild_id) if interaction.guild_id else None
        return roll_render.saved_pages(own, server, await player_locale(interaction))

    @rolls.command(name="delete", description="Delete a saved roll")
    @app_commands.describe(name="Which one", server="One of this server's rolls (Manage Server)")
    async def delete(self, interaction: discord.Interaction, name: Name, server: bool = False) -> None:
        scope, owner = self._owner(interaction, server)
        if not await self.store.delete(scope, owner, name):
            raise Refusal("roll.error.no_such_saved", name=name.strip().lower())
        locale = await (player_locale if scope == "user" else public_locale)(interaction)
        text = t(
            "roll.saved.deleted",
            locale,
            name=name.strip().lower(),
            scope=t(f"roll.scope.{scope}", locale),
        )
        await interaction.response.send_message(text, ephemeral=scope == "user")

    @delete.autocomplete("name")
    async def _saved_names(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        if getattr(interaction.namespace, "server", False):
            if interaction.guild_id is None:
                return []
            found = await self.store.saved("server", interaction.guild_id)
        else:
            found = await self.store.saved("user", interaction.user.id)
        wanted = current.strip().lower()
        return [
            app_commands.Choice(name=f"{saved.name} — {saved.expression}"[:CHOICE_LENGTH], value=saved.name)
            for saved in found
            if wanted in saved.name
        ][:CHOICES]

    @rolls.command(name="stats", description="How the dice have fallen on this server: is the bot rigged?")
    async def stats(self, interaction: discord.Interaction) -> None:
        if interaction.guild_id is None:
            raise Refusal("roll.error.stats_guild_only")
        stats = await self.store.stats(interaction.guild_id)
        embed = roll_render.stats_embed(stats, await public_locale(interaction))
        await interaction.response.send_message(view=card_message(None, embed))

    @rolls.command(name="help", description="The dice notation /roll understands")
    async def help(self, interaction: discord.Interaction) -> None:
        embed = roll_render.help_embed(await player_locale(interaction))
        await interaction.response.send_message(view=card_message(None, embed), ephemeral=True)

    def _owner(self, interaction: discord.Interaction, server: bool) -> tuple[Scope, int]:
        """Whose saved rolls a command changes: the player's own, or the server's for Manage Server."""
        if not server:
            return "user", interaction.user.id
        if interaction.guild_id is None:
            raise Refusal("roll.error.server_in_dm")
        if not interaction.permissions.manage_guild:
            raise Refusal("roll.error.server_needs_manage")
        return "server", interaction.guild_id


def _reads_as_notation(name: str) -> bool:
    """A saved name must not shadow notation or the games' dice (`d20`, `adv`, `bock`)."""
    try:
        parse(name)
    except RollError:
        return False
    return True


async def _open_saved(interaction: discord.Interaction, key: str) -> list[discord.Embed]:
    """A page button of /rolls list pressed, maybe after a restart: the list as it is now."""
    cog = interaction.client.get_cog(COG_NAME)  # type: ignore[attr-defined]
    assert isinstance(cog, RollCog), "the Roll cog is loaded"
    return await cog.saved_pages(interaction)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(RollCog(bot))
