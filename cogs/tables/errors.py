"""The one road for a refused or failed request: one short ephemeral line, nothing changed.

Anything raised while handling a slash command or a click ends here: `IllegalAction` from an
engine or a game cog (worded by that game's `refusal` hook), a `Refusal` from the table
machinery (a catalog key), a stale board, or an unexpected error (logged, and an apology).
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs import bidi
from cogs.i18n import Localish, game_title, t
from cogs.limits import echo
from cogs.tables.gamecog import GameCog
from cogs.tables.language import player_locale
from cogs.tables.ui import late_answer, reply_ephemeral
from rules.engine import IllegalAction
from storage.tables import StaleVersion

log = logging.getLogger(__name__)


class Refusal(IllegalAction):
    """A request the table turns down: `code` is the catalog key of the reason, `params` fill it in."""

    def __init__(self, key: str, /, **params: Any) -> None:
        super().__init__(key, **params)


def reason(error: IllegalAction, locale: Localish, cog: GameCog | None) -> str:
    """The player's words for a refusal, in their language. What a refusal quotes may be anything a
    player typed: no direction control of it reaches the sentence, and it is isolated in it."""
    error.params = {
        name: bidi.quoted(value) if isinstance(value, str) else value for name, value in error.params.items()
    }
    if isinstance(error, Refusal):
        # The table's words name the game and its slash group ("open one with `/bock new`").
        known = {"game": game_title(cog.game, locale), "group": cog.group} if cog is not None else {}
        return t(error.code, locale, **{**known, **error.params})
    if cog is not None:
        return cog.refusal(error, locale)
    return t("error.illegal", locale, code=error.code)


def game_cog_of(interaction: discord.Interaction) -> GameCog | None:
    """The game a request is about: the slash command's cog, or the game named in a component's id."""
    binding = getattr(interaction.command, "binding", None)
    if isinstance(binding, GameCog):
        return binding
    custom_id = str((interaction.data or {}).get("custom_id", ""))
    prefix, _, rest = custom_id.partition(":")
    if prefix in ("sb", "sbs"):
        game_id = rest.partition(":")[0]
        client = interaction.client
        for cog in client.cogs.values() if isinstance(client, commands.Bot) else ():
            if isinstance(cog, GameCog) and cog.game.id == game_id:
                return cog
    return None


async def answer_failure(interaction: discord.Interaction, error: BaseException) -> None:
    """Answer whatever went wrong with one ephemeral line; log only what is our fault."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, app_commands.CheckFailure):
        return  # the check has already answered (e.g. /settings for non-admins)
    if late_answer(error):
        # Discord no longer takes an answer to this interaction, so a follow-up would fail the same
        # way: one line, no traceback (under contention a traceback per late click feeds overload).
        log.warning(
            "answered %s from user %s in channel %s too late (Discord error %s)",
            _request(interaction),
            interaction.user.id,
            interaction.channel_id,
            error.code,
        )
        return
    locale = await player_locale(interaction)  # a refusal is private: the player's own language
    if isinstance(error, IllegalAction):
        text = reason(error, locale, game_cog_of(interaction))
    elif isinstance(error, StaleVersion):
        text = reason(Refusal("table.outdated"), locale, game_cog_of(interaction))
    elif isinstance(error, app_commands.TransformerError):
        # An option Discord sent that cannot be what the command takes (e.g. a user who is no
        # member of this server for a `member` option): the player's input, not our fault.
        text = t("error.bad_option", locale, value=echo(error.value, 40))
    else:
        log.error(
            "failed handling %s from user %s in channel %s",
            _request(interaction),
            interaction.user.id,
            interaction.channel_id,
            exc_info=error,
        )
        text = t("error.unexpected", locale)
    await reply_ephemeral(interaction, text)


def _request(interaction: discord.Interaction) -> object:
    """What was asked, for the log: the slash command, or the clicked component's custom_id."""
    command = interaction.command.qualified_name if interaction.command else None
    return f"/{command}" if command else (interaction.data or {}).get("custom_id")


async def answer_unclaimed(interaction: discord.Interaction) -> None:
    """A press on a component no handler claims (a custom_id of an older release, or one the bot never
    made) is answered in one line instead of Discord's "This interaction failed"."""
    if interaction.type is not discord.InteractionType.component or _claimed(interaction):
        return
    await reply_ephemeral(interaction, t("error.old_control", await player_locale(interaction)))


def _claimed(interaction: discord.Interaction) -> bool:
    """Whether discord.py routes the component to a handler: a DynamicItem's template or a stored view
    (read from its view store, discord.py 2.7's; when that cannot be read, assume it does)."""
    store = getattr(getattr(interaction.client, "_connection", None), "_view_store", None)
    dynamic = getattr(store, "_dynamic_items", None)
    views = getattr(store, "_views", None)
    if not isinstance(dynamic, dict) or not isinstance(views, dict):
        return True
    data: Any = interaction.data or {}
    custom_id, kind = str(data.get("custom_id", "")), int(data.get("component_type", 0))
    if any(pattern.fullmatch(custom_id) for pattern in dynamic):
        return True
    message = interaction.message.id if interaction.message is not None else None
    return any((kind, custom_id) in (views.get(key) or {}) for key in (message, None))
