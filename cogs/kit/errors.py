"""The one road for a refused or failed request: one short ephemeral line, nothing changed.

Anything raised while handling a slash command or a click ends here: `IllegalAction` from an
engine or a game cog (worded by that game's `refusal` hook), a `Refusal` from the table
machinery (a catalog key), a stale board, or an unexpected error (logged, and an apology).
"""

from __future__ import annotations

import logging
import re
from typing import Any, Protocol, runtime_checkable

import discord
from discord import app_commands
from discord.ext import commands

from cogs.kit import adapter
from cogs.kit.limits import echo
from cogs.kit.messages import late_answer, reply_ephemeral
from cogs.kit.metrics import Outcome, count_outcome
from cogs.kit.words import bidi
from cogs.kit.words.catalogs import Localish
from cogs.kit.words.reader import player_locale
from cogs.kit.words.text import t
from rules.engine import IllegalAction
from storage.tables import StaleVersion

log = logging.getLogger(__name__)


class Refusal(IllegalAction):
    """A request the table turns down: `code` is the catalog key of the reason, `params` fill it in."""

    def __init__(self, key: str, /, **params: Any) -> None:
        super().__init__(key, **params)


@runtime_checkable
class Voice(Protocol):
    """Who words a refusal about its own requests: a game's cog (its `refusal` hook, its title and
    slash group in the table's words). The kit knows none of them: it asks every loaded cog."""

    def speaks_for(self, interaction: discord.Interaction) -> bool:
        """Whether the interaction (a slash command of its own, or a press on its components) is its."""
        ...

    def refusal_words(self, error: IllegalAction, locale: Localish) -> str:
        """The player's words for a refusal of one of its requests."""
        ...


def reason(error: IllegalAction, locale: Localish, voice: Voice | None = None) -> str:
    """The player's words for a refusal, in their language. What a refusal quotes may be anything a
    player typed: no direction control of it reaches the sentence, and it is isolated in it."""
    error.params = {
        name: bidi.quoted(value) if isinstance(value, str) else value for name, value in error.params.items()
    }
    if voice is not None:
        return voice.refusal_words(error, locale)
    if isinstance(error, Refusal):
        return t(error.code, locale, **error.params)
    return t("error.illegal", locale, code=error.code)


def voice_of(interaction: discord.Interaction) -> Voice | None:
    """Who words a refusal of this request: the slash command's cog, or the loaded cog that claims it."""
    binding = getattr(interaction.command, "binding", None)
    if isinstance(binding, Voice) and binding.speaks_for(interaction):
        return binding
    client = interaction.client
    for cog in client.cogs.values() if isinstance(client, commands.Bot) else ():
        if isinstance(cog, Voice) and cog.speaks_for(interaction):
            return cog
    return None


async def answer_failure(interaction: discord.Interaction, error: BaseException) -> None:
    """Answer whatever went wrong with one ephemeral line; log only what is our fault."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    count_outcome(interaction, _outcome(error))
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
        text = reason(error, locale, voice_of(interaction))
    elif isinstance(error, StaleVersion):
        text = reason(Refusal("table.outdated"), locale, voice_of(interaction))
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


def _outcome(error: BaseException) -> Outcome:
    """How a request that ended here counts (cogs/kit/metrics.py): refused, stale or failed."""
    if isinstance(error, StaleVersion) or (isinstance(error, Refusal) and error.code == "table.outdated"):
        return "stale"
    if isinstance(error, (IllegalAction, app_commands.CheckFailure, app_commands.TransformerError)):
        return "refused"
    return "failed"  # our error, or an answer Discord no longer takes


def _request(interaction: discord.Interaction) -> object:
    """What was asked, for the log: the slash command, or the clicked component's custom_id."""
    command = interaction.command.qualified_name if interaction.command else None
    return f"/{command}" if command else (interaction.data or {}).get("custom_id")


async def answer_unclaimed(interaction: discord.Interaction) -> None:
    """Every press gets its answer, whatever discord.py makes of it. A press of a DynamicItem whose
    message, as the interaction carries it, no longer shows the control (the bot's edit crossed the press:
    a time-out, another player's move) is dropped by discord.py: it is delivered to its item here, to be
    judged as any press is. A press no handler claims (a custom_id of an older release, or one the bot
    never made) is answered in one line instead of Discord's "This interaction failed"."""
    if interaction.type is not discord.InteractionType.component or isinstance(interaction, adapter.Click):
        return  # a Click is handled already: it went straight to its handler
    routed = adapter.routed_components(interaction.client)
    if routed is None:
        return  # the view store cannot be read: assume discord.py routes the press
    dynamic, views = routed
    data: Any = interaction.data or {}
    custom_id, kind = str(data.get("custom_id", "")), int(data.get("component_type", 0))
    matched = [
        (match, item) for pattern, item in list(dynamic.items()) if (match := pattern.fullmatch(custom_id))
    ]
    if matched:
        if not adapter.shows_component(interaction.message, kind, custom_id):
            await _deliver(interaction, kind, custom_id, matched)
        return
    message = interaction.message.id if interaction.message is not None else None
    if any((kind, custom_id) in (views.get(key) or {}) for key in (message, None)):
        return
    count_outcome(interaction, "stale")
    await reply_ephemeral(interaction, t("error.old_control", await player_locale(interaction)))


async def _deliver(
    interaction: discord.Interaction, kind: int, custom_id: str, matched: list[tuple[re.Match[str], Any]]
) -> None:
    """What discord.py does with a press of a DynamicItem, for one it dropped: the item is made from the
    custom_id and called (the bot's items read the chosen values from the interaction, not the message)."""
    shown: discord.ui.Item[Any] = (
        discord.ui.Button(custom_id=custom_id)
        if kind == discord.ComponentType.button.value
        else discord.ui.Select(custom_id=custom_id)
    )
    for match, factory in matched:
        try:
            item = await factory.from_custom_id(interaction, shown, match)
            if await item.interaction_check(interaction):
                await item.callback(interaction)
        except Exception as error:
            await answer_failure(interaction, error)
