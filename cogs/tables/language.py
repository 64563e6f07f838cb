"""Which language a player reads: their own `/language`, else the server's `/settings language`,
else their Discord client's locale, else English (the catalogs' own fallback).

Public messages are the table's: its locale is fixed when it opens (`server_language`, else the
server's Discord locale). Private answers (refusals, confirmations) are the player's (`player_locale`).
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from cogs.i18n import Localish
from storage.settings import GuildSettings, PlayerSettings

log = logging.getLogger(__name__)

LANGUAGE_KEY = "language"  # the same key in guild_settings and player_settings
LANGUAGES = ("de", "en", "es", "fa")  # the catalogs a player or server may choose
DEFAULT_CHOICE = "default"  # "server default" (/language) or "Discord's locale" (/settings language)

# Each language named in its own words, so a player finds theirs whatever they read now.
OWN_NAMES = {"de": "Deutsch", "en": "English", "es": "Español", "fa": "فارسی"}


def language_choices(default_name: str) -> list[app_commands.Choice[str]]:
    """The four catalogs, then the choice that removes the setting (its English name; the
    Translator localises it from `command.text.<name>`)."""
    return [
        *(app_commands.Choice(name=OWN_NAMES[language], value=language) for language in LANGUAGES),
        app_commands.Choice(name=default_name, value=DEFAULT_CHOICE),
    ]


def _settings(client: Any) -> tuple[PlayerSettings | None, GuildSettings | None]:
    tables = client.get_cog("Tables") if hasattr(client, "get_cog") else None
    return getattr(tables, "player_settings", None), getattr(tables, "guild_settings", None)


async def server_language(guilds: GuildSettings, guild_id: int | None) -> str | None:
    """The language the server chose with `/settings language`, if any."""
    if guild_id is None:
        return None
    chosen = await guilds.get(guild_id, LANGUAGE_KEY)
    return chosen if chosen in LANGUAGES else None


async def player_locale(interaction: discord.Interaction) -> Localish:
    """The language of a private answer to this interaction's user."""
    players, guilds = _settings(interaction.client)
    try:
        if players is not None:
            chosen = await players.get(interaction.user.id, LANGUAGE_KEY)
            if chosen in LANGUAGES:
                return chosen
        if guilds is not None:
            server = await server_language(guilds, interaction.guild_id)
            if server is not None:
                return server
    except Exception:  # a refusal must still be answered when the settings cannot be read
        log.exception("could not read the language settings of user %s", interaction.user.id)
    return interaction.locale
