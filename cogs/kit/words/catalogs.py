"""The catalogs: which words exist in which language, and which catalog a locale reads.

Catalogs are JSON files, `locales/<language>.json` in each package that has words: the kit's, the
tables', each feature's (`cogs/<package>/locales/`) and each registered game's (its cogs package's
`locales/`), merged per language. A file is named by its BCP 47 tag: `de`, `es`, `fa`, or a regional
one such as `es-419`, `pt-BR` or `zh-Hant` where the region or script matters. English is complete;
other languages fall back to English key by key, and a regional catalog to its language's (CLDR's
parent locales).
"""

from __future__ import annotations

import importlib.util
import json
import string
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import discord
from babel import Locale, UnknownLocaleError
from babel.core import get_global

from rules.registry import REGISTERED

COGS_DIR = Path(__file__).resolve().parents[2]
"""The `cogs` package: every package in it keeps its own words in `locales/<language>.json`."""


DEFAULT_LANGUAGE = "en"


Localish = discord.Locale | str | None


def catalog_files(language: str) -> list[Path]:
    """A language's catalog files: each package's of the bot (the kit, the tables, every feature:
    `cogs/<package>/locales/<language>.json`), then each registered game's own (`locales/` in its
    cogs package, wherever it is registered)."""
    shared = sorted(COGS_DIR.glob(f"*/locales/{language}.json"))
    games = [folder / f"{language}.json" for folder in _game_locales(tuple(REGISTERED))]
    return shared + [path for path in games if path.is_file()]


def catalog(language: str) -> dict[str, str]:
    return _catalog(language, tuple(REGISTERED))


@cache
def _catalog(language: str, games: tuple[str, ...]) -> dict[str, str]:
    """Merged once per language and set of registered games (a test may register a toy game)."""
    merged: dict[str, str] = {}
    for path in catalog_files(language):
        merged.update(json.loads(path.read_text(encoding="utf-8")))
    return merged


@cache
def _game_locales(games: tuple[str, ...]) -> list[Path]:
    """The `locales/` folder of each registered game's cogs package."""
    folders = []
    for game_id in games:
        spec = importlib.util.find_spec(REGISTERED[game_id].cogs)
        assert spec is not None and spec.submodule_search_locations, f"no cogs package for {game_id}"
        folders.append(Path(next(iter(spec.submodule_search_locations))) / "locales")
    return folders


@cache
def languages() -> dict[str, str]:
    """The catalogs that exist, by lower-cased tag (tags are case-insensitive): {'es-419': 'es-419'}."""
    return {path.stem.lower(): path.stem for path in sorted(COGS_DIR.glob("*/locales/*.json"))}


def tag_of(locale: Localish) -> str:
    if type(locale) is str:  # the usual case, first: discord.Locale's isinstance is slow Python
        return locale
    if locale is None:
        return DEFAULT_LANGUAGE
    return locale.value if isinstance(locale, discord.Locale) else str(locale)


def split_extension(tag: str) -> tuple[str, dict[str, str]]:
    """'fa-u-nu-arabext' -> ('fa', {'nu': 'arabext'}); the language part keeps its region."""
    parts = tag.replace("_", "-").split("-")
    if "u" not in parts:
        return "-".join(parts), {}
    at = parts.index("u")
    keywords: dict[str, str] = {}
    key = ""
    for part in parts[at + 1 :]:
        if len(part) == 2:
            key = part.lower()
            keywords[key] = ""
        elif key:
            keywords[key] = f"{keywords[key]}-{part}".strip("-").lower()
    return "-".join(parts[:at]), keywords


def _likely_script(language: str) -> str | None:
    likely = get_global("likely_subtags").get(language)
    return Locale.parse(likely).script if likely else None


def _cldr_parent(name: str) -> str:
    """CLDR's parent locale: es_MX -> es_419 -> es; zh_Hant -> root (not zh, which is Simplified)."""
    exception = get_global("parent_exceptions").get(name)
    if exception:
        return exception
    parts = name.split("_")
    if len(parts) == 1:
        return "root"
    if len(parts) == 2 and len(parts[1]) == 4 and parts[1] != _likely_script(parts[0]):
        return "root"  # a script the language does not usually use: no fallback to the bare language
    return "_".join(parts[:-1])


def fallbacks(locale: Localish) -> list[str]:
    """The tags that could serve `locale`, most specific first, along CLDR's parent chain:
    'zh-TW' -> zh-Hant-TW, zh-TW, zh-Hant; 'es-MX' -> es-MX, es-419, es; 'en-GB' -> en-GB, en-001, en."""
    tag, _ = split_extension(tag_of(locale))
    try:
        parsed = Locale.parse(tag, sep="-")
    except (ValueError, TypeError, UnknownLocaleError):
        parts = tag.split("-")
        return list(dict.fromkeys(["-".join(parts[:n]) for n in range(len(parts), 0, -1)]))
    chain: list[str] = []
    name = str(parsed)
    while name != "root":
        chain.append(name)
        if parsed.script and parsed.territory and name == str(parsed):
            chain.append(f"{parsed.language}_{parsed.territory}")  # Discord writes zh-TW, not zh-Hant-TW
        name = _cldr_parent(name)
    return list(dict.fromkeys(name.replace("_", "-") for name in chain))


@cache
def _best_catalog(tag: str) -> str:
    available = languages()
    for candidate in fallbacks(tag):
        if candidate.lower() in available:
            return available[candidate.lower()]
    return DEFAULT_LANGUAGE


def language_of(locale: Localish) -> str:
    """The catalog that serves `locale` best: 'es-419' -> the `es-419` folder if there is one, else `es`;
    'zh-TW' never falls back to Simplified `zh`; a language without a catalog -> English."""
    return _best_catalog(tag_of(locale))


def has(key: str, locale: Localish = None) -> bool:
    return key in catalog(language_of(locale)) or key in catalog(DEFAULT_LANGUAGE)


def placeholders(key: str, language: str = DEFAULT_LANGUAGE) -> set[str]:
    """The `{names}` a template uses (for the catalog consistency tests)."""
    return set(template_fields(catalog(language)[key]))


def template_fields(text: str) -> Iterator[str]:
    """The field names of a template, without format specs: '{max:,} {name}' -> 'max', 'name'."""
    for _, name, _, _ in string.Formatter().parse(text):
        if name:
            yield name
