"""Every word a player sees comes from here.

Catalogs are JSON files under `locales/<language>/`, one per game plus
`common.json`, merged per language. English is complete; other languages fall
back to English key by key. Slash command names and descriptions go through
`CatalogTranslator`, discord.py's own hook for localising the command tree.
"""

from __future__ import annotations

import json
import logging
import string
from functools import cache
from pathlib import Path
from typing import Any

import discord
from discord import app_commands

log = logging.getLogger(__name__)

LOCALES_DIR = Path(__file__).parent / "locales"
DEFAULT_LANGUAGE = "en"


@cache
def catalog(language: str) -> dict[str, str]:
    folder = LOCALES_DIR / language
    merged: dict[str, str] = {}
    if folder.is_dir():
        for path in sorted(folder.glob("*.json")):
            merged.update(json.loads(path.read_text(encoding="utf-8")))
    return merged


def language_of(locale: discord.Locale | str | None) -> str:
    """'de', 'es-ES' -> 'es', None -> the default language."""
    if locale is None:
        return DEFAULT_LANGUAGE
    value = locale.value if isinstance(locale, discord.Locale) else str(locale)
    return value.split("-")[0].lower()


def has(key: str, locale: discord.Locale | str | None = None) -> bool:
    return key in catalog(language_of(locale)) or key in catalog(DEFAULT_LANGUAGE)


def t(key: str, locale: discord.Locale | str | None = None, /, **params: Any) -> str:
    """The text for `key` in the player's language, with `{params}` filled in.

    A missing key is a bug, but a player should never see a crash for it:
    it is logged and the key itself is shown.
    """
    text = catalog(language_of(locale)).get(key) or catalog(DEFAULT_LANGUAGE).get(key)
    if text is None:
        log.error("missing text for %r", key)
        return key
    try:
        return text.format_map(_Params(params))
    except (ValueError, IndexError):
        log.exception("bad template for %r", key)
        return text


class _Params(dict[str, Any]):
    """Leave an unknown `{name}` as it is instead of raising."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def number(value: int) -> str:
    """An integer with a true minus sign (−3), which reads better than a hyphen in an embed."""
    return f"−{-value}" if value < 0 else str(value)


def signed(value: int) -> str:
    """+3, −2, 0: a score change or a tile's value."""
    return f"+{value}" if value > 0 else number(value)


def plural(key: str, count: int, locale: discord.Locale | str | None = None, /, **params: Any) -> str:
    """`<key>.one` for ±1 and `<key>.many` otherwise, with `{count}` filled in: "1 point", "−3 points"."""
    return t(f"{key}.{'one' if abs(count) == 1 else 'many'}", locale, count=number(count), **params)


def placeholders(key: str) -> set[str]:
    """The `{names}` a template uses (for the catalog consistency test)."""
    return {name for _, name, _, _ in string.Formatter().parse(catalog(DEFAULT_LANGUAGE)[key]) if name}


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
