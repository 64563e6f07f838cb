"""Slash command names and descriptions in the reader's language, through discord.py's own hook for
localising the command tree (`app_commands.Translator`), from the catalogs' `command.*` keys."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from cogs.kit.words.catalogs import DEFAULT_LANGUAGE, catalog, language_of


class CatalogTranslator(app_commands.Translator):
    """Localises slash command names and descriptions from `command.*` catalog keys.

    A `locale_str` may carry `key=` in its extras; otherwise its English text is
    looked up under `command.text.<text>`. English needs no lookup: it is the source.
    """

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContext[Any, Any],
    ) -> str | None:
        language = language_of(locale)
        if language == DEFAULT_LANGUAGE:
            return None
        key = string.extras.get("key") or f"command.text.{string.message}"
        return catalog(language).get(key)
