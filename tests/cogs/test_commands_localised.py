"""Slash commands as Discord receives them in German and Spanish, checked against Discord's rules.

A localised name or description that breaks a rule makes the whole sync fail without saying
which one, so each failure here names the locale, the command path and the catalog key.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import discord
import pytest
from discord import app_commands

from cogs.kit.words.bidi import plain
from cogs.kit.words.text import t
from cogs.kit.words.translator import CatalogTranslator
from rules.registry import GAMES
from tests.games import group

LOCALES = ("de", "es-ES", "es-419")
KEPT_NAMES = {*(group(game_id) for game_id in GAMES), "wasabi", "r"}  # the same in every language
OWN_NAMES = {"Deutsch", "English", "Español", "فارسی"}  # each language's own name, never translated


@dataclass(frozen=True)
class Localised:
    path: str  # "/bock choose colour" (a choice: "/bock choose colour = white")
    what: str  # "name", "description" or "choice"
    english: str
    translated: dict[str, str]  # locale -> text

    @property
    def key(self) -> str:
        return f"command.text.{self.english}"


def _allowed_name(name: str) -> bool:
    """Discord's ^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$, lowercase; conservatively without
    the Devanagari and Thai marks (no catalog needs them)."""
    return (
        1 <= len(name) <= 32
        and name == name.lower()
        and all(char in "-_" or unicodedata.category(char)[0] in "LN" for char in name)
    )


def _walk(payload: dict[str, Any], path: str) -> Iterator[Localised]:
    path = f"{path} {payload['name']}".strip()
    yield Localised(path, "name", payload["name"], payload.get("name_localizations") or {})
    yield Localised(
        path, "description", payload["description"], payload.get("description_localizations") or {}
    )
    for option in payload.get("options") or []:
        yield from _walk(option, path)
        for choice in option.get("choices") or []:
            where = f"{path} {option['name']} = {choice['value']}"
            yield Localised(where, "choice", choice["name"], choice.get("name_localizations") or {})


@pytest.fixture
async def localised(simcord_env: Any) -> list[Localised]:
    tree = simcord_env.bot.tree
    translator = CatalogTranslator()
    found: list[Localised] = []
    for command in tree.get_commands():
        assert isinstance(command, app_commands.Command | app_commands.Group)
        found += _walk(await command.get_translated_payload(tree, translator), "")
    return found


async def test_names_and_descriptions_follow_discords_rules(localised: list[Localised]):
    broken = []
    for item in localised:
        for locale, text in item.translated.items():
            if item.what == "name" and not _allowed_name(text):
                broken.append(f"{locale} {item.key!r}: name {text!r} at /{item.path}")
            elif item.what != "name" and not 1 <= len(text) <= 100:
                broken.append(f"{locale} {item.key!r}: {item.what} of {len(text)} characters at /{item.path}")
    assert broken == []


async def test_the_english_source_follows_them_too(localised: list[Localised]):
    assert [item.path for item in localised if item.what == "name" and not _allowed_name(item.english)] == []
    assert [
        item.path for item in localised if item.what != "name" and not 1 <= len(item.english) <= 100
    ] == []


async def test_german_and_spanish_name_describe_and_choose_everything(localised: list[Localised]):
    """Every description, choice and name has its German and Spanish words (game names stay)."""
    missing = []
    for item in localised:
        if item.english in KEPT_NAMES or item.english in OWN_NAMES:
            continue
        for locale in LOCALES:
            if locale not in item.translated:
                missing.append(f"{locale} {item.key!r} ({item.what} at /{item.path})")
    assert missing == []


async def test_localised_names_of_siblings_stay_distinct(localised: list[Localised]):
    """Discord refuses two subcommands or options of one command with the same name in a locale."""
    clashes = []
    for locale in LOCALES:
        seen: dict[str, str] = {}
        for item in localised:
            if item.what != "name":
                continue
            parent, _, _ = item.path.rpartition(" ")
            name = item.translated.get(locale, item.english)
            other = seen.setdefault(f"{parent} {name}", item.path)
            if other != item.path:
                clashes.append(f"{locale}: /{other} and /{item.path} are both {name!r}")
    assert clashes == []


async def test_other_locales_read_english(localised: list[Localised]):
    """Only the catalogs' Discord locales get localisations; French, Brazilian and the rest read English."""
    assert {locale for item in localised for locale in item.translated} == set(LOCALES)
    bock = next(item for item in localised if item.path == "bock choose colour")
    assert bock.translated == {"de": "farbe", "es-ES": "color", "es-419": "color"}


def test_persian_is_reached_through_the_settings_not_discord():
    assert "fa" not in {locale.value.split("-")[0] for locale in discord.Locale}
    assert plain(t("language.name.fa", "fa")) == "فارسی"
