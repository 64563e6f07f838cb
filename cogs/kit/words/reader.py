"""Which language a player reads: their own `/language`, else the server's `/settings language`,
else their Discord client's locale, else English (the catalogs' own fallback).

Public messages are the table's: its locale is fixed when it opens (`server_language`, else the
server's Discord locale). Private answers (refusals, confirmations) are the player's (`player_locale`);
a seat's DM or panel is its player's too (`cogs.tables.speaking`: a DM has no interaction to ask).
Public answers outside a table (`/leaderboard`, `/history`) speak the server's language
(`public_locale`).

A player's choice is read on nearly every private render, so it is cached per settings store and
changed only through `choose_language`.
"""

from __future__ import annotations

import logging
from typing import Any
from weakref import WeakKeyDictionary

import discord
from discord import app_commands

from cogs.kit.services import maybe_services
from cogs.kit.words.catalogs import Localish
from storage.settings import LANGUAGE_KEY, GuildSettings, PlayerSettings

log = logging.getLogger(__name__)

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
    services = maybe_services(client)
    return (services.player_settings, services.guild_settings) if services is not None else (None, None)


async def server_language(guilds: GuildSettings, guild_id: int | None) -> str | None:
    """The language the server chose with `/settings language`, if any."""
    if guild_id is None:
        return None
    chosen = await guilds.get(guild_id, LANGUAGE_KEY)
    return chosen if chosen in LANGUAGES else None


# Each player's `/language` (None: no choice), per settings store: one store per database, so a
# test's fresh database never sees another's choices.
_chosen: WeakKeyDictionary[PlayerSettings, dict[int, str | None]] = WeakKeyDictionary()


async def chosen_language(players: PlayerSettings, user_id: int) -> str | None:
    """The language the player chose with `/language`, if any (read once, then cached)."""
    cache = _chosen.setdefault(players, {})
    if user_id not in cache:
        chosen = await players.get(user_id, LANGUAGE_KEY)
        cache[user_id] = chosen if chosen in LANGUAGES else None
    return cache[user_id]


async def choose_language(players: PlayerSettings, user_id: int, language: str | None) -> None:
    """`/language`: store the player's choice (None: the server's again) and what the cache says."""
    chosen = language if language in LANGUAGES else None
    await players.set(user_id, LANGUAGE_KEY, chosen)
    _chosen.setdefault(players, {})[user_id] = chosen


def forget_language(players: PlayerSettings, user_id: int) -> None:
    """/privacy forget deleted the player's choice: the cache forgets it too."""
    _chosen.get(players, {}).pop(user_id, None)


async def public_locale(interaction: discord.Interaction) -> Localish:
    """The language of a public answer (a channel message everyone reads): the server's setting,
    else the server's Discord locale, else the caller's."""
    _, guilds = _settings(interaction.client)
    try:
        if guilds is not None:
            server = await server_language(guilds, interaction.guild_id)
            if server is not None:
                return server
    except Exception:  # the answer must still come when the settings cannot be read
        log.exception("could not read the language of guild %s", interaction.guild_id)
    return interaction.guild_locale or interaction.locale


async def player_locale(interaction: discord.Interaction) -> Localish:
    """The language of a private answer to this interaction's user."""
    players, guilds = _settings(interaction.client)
    try:
        if players is not None:
            chosen = await chosen_language(players, interaction.user.id)
            if chosen is not None:
                return chosen
        if guilds is not None:
            server = await server_language(guilds, interaction.guild_id)
            if server is not None:
                return server
    except Exception:  # a refusal must still be answered when the settings cannot be read
        log.exception("could not read the language settings of user %s", interaction.user.id)
    return interaction.locale
