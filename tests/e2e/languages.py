"""Playing in a language other than English: the admin sets the server's, the lobby is clicked by
its own words, and what players read is searched for English left over."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

import discord

from cogs.kit.words.catalogs import catalog
from tests.e2e import transcript
from tests.e2e.helpers import Table

PLACEHOLDER = re.compile(r"\{[^{}]*\}")


@cache
def english_phrases(language: str) -> frozenset[str]:
    """Every stretch of English catalog text (between placeholders) longer than 12 characters that
    the language does not say the same way: none of them may reach its players."""
    english, translated = catalog("en"), catalog(language)
    own = "\n".join(translated.values())
    phrases = set()
    for key, text in english.items():
        if key.startswith("command.text.") or translated.get(key) == text:
            continue  # command words go to Discord's menus; an identical line is no English leak
        for part in PLACEHOLDER.split(text):
            part = part.strip(" *_`:.,;()—-")
            if len(part) > 12 and part not in own:
                phrases.add(part)
    return frozenset(phrases)


def english_read(env: Any, language: str) -> list[str]:
    names = {user_id: user.name for user_id, user in env.backend.users.items()}
    dm_channels = {
        channel: f"DM @{names.get(user, user)}" for user, channel in env.backend.dm_channels.items()
    }
    said = "\n".join(line.raw for line in transcript.lines(env, names, dm_channels))
    return sorted(phrase for phrase in english_phrases(language) if phrase in said)


async def seat_everyone(table: Table, language: str, **options: Any) -> None:
    """Open (with these options), join and start by the lobby's buttons, labelled in the table's language."""
    await table.open(**options)
    for name in list(table.players)[1:]:
        await table.click(name, catalog(language)["lobby.join"])
    await table.click(table.host_name, catalog(language)["lobby.start"])


async def admin_sets_language(table: Table, language: str) -> Any:
    admins = table.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = table.guild.add_member(table.env.create_user("admin"), roles=[admins])
    table.did("admin", f"runs /settings language choose:{language}")
    return await admin.slash(table.channel, "settings language", choose=language)
