"""Every language speaks every line that English does, and words are chosen by the reader's rules.

English (`locales/en.json` in each package) is the source: each other catalog has the same files with the same
keys and the same `{placeholders}`, so no player meets an English line or a raw `{name}`.
A plural word may name its forms as the language needs (CLDR categories: `.one`, `.few`, `.many`,
`.other`, ...); a form may drop or add `{count}` ("1 die" / "{count} dice").
"""

from __future__ import annotations

import json
import string
from functools import cache
from pathlib import Path

import pytest
from babel import Locale

from cogs.kit.words.catalogs import (
    DEFAULT_LANGUAGE,
    catalog_files,
    fallbacks,
    language_of,
    languages,
    template_fields,
)
from cogs.kit.words.text import is_rtl, number, plural, plural_key, signed, t
from rules.registry import REGISTERED

TRANSLATIONS = sorted(name for name in languages().values() if name != DEFAULT_LANGUAGE)
PLURAL_SUFFIXES = ("zero", "one", "two", "few", "many", "other")


def _no_duplicates(pairs: list[tuple[str, str]]) -> dict[str, str]:
    keys = [key for key, _ in pairs]
    duplicates = sorted({key for key in keys if keys.count(key) > 1})
    assert duplicates == [], f"keys given twice: {duplicates}"
    return dict(pairs)


def _paths(language: str) -> dict[str, Path]:
    """A language's catalogs by its package: `tables.json` (cogs/tables/locales/), `sushigo.json` (the game's
    cogs/games/sushigo/locales/<language>.json), for the games registered now."""
    return _registered_paths(language, tuple(REGISTERED))


@cache
def _registered_paths(language: str, games: tuple[str, ...]) -> dict[str, Path]:
    return {
        path.name if path.parent.name == language else f"{path.parents[1].name}.json": path
        for path in catalog_files(language)
    }


@cache
def _file(language: str, name: str) -> dict[str, str]:
    path = _paths(language)[name]
    return json.loads(path.read_text(encoding="utf-8"), object_pairs_hook=_no_duplicates)


def _files(language: str) -> list[str]:
    return sorted(_paths(language))


def _family(key: str) -> str | None:
    """'results.points.one' -> 'results.points' when English words it by count."""
    base, _, suffix = key.rpartition(".")
    english = _english_keys()
    if suffix in PLURAL_SUFFIXES and f"{base}.one" in english and f"{base}.many" in english:
        return base
    return None


def _english_keys() -> dict[str, str]:
    return _registered_english_keys(tuple(REGISTERED))


@cache
def _registered_english_keys(games: tuple[str, ...]) -> dict[str, str]:
    return {
        key: text for name in _files(DEFAULT_LANGUAGE) for key, text in _file(DEFAULT_LANGUAGE, name).items()
    }


def _fields(text: str) -> set[str]:
    return set(template_fields(text))


def _family_fields(base: str) -> set[str]:
    english = _english_keys()
    return _fields(english[f"{base}.one"]) | _fields(english[f"{base}.many"])


def test_there_are_translations():
    assert {"de", "es", "fa"} <= set(TRANSLATIONS)


@pytest.mark.parametrize("language", TRANSLATIONS)
def test_a_catalog_has_the_files_of_english(language: str):
    assert _files(language) == _files(DEFAULT_LANGUAGE)


@pytest.mark.parametrize("language", [DEFAULT_LANGUAGE, *TRANSLATIONS])
def test_files_parse_without_duplicate_keys(language: str):
    for name in _files(language):
        assert _file(language, name), name


@pytest.mark.parametrize("language", TRANSLATIONS)
def test_every_english_key_is_translated_and_nothing_else(language: str):
    categories = {*Locale.parse(language, sep="-").plural_form.tags, "other"}
    missing, extra = [], []
    for name in _files(DEFAULT_LANGUAGE):
        english, translated = _file(DEFAULT_LANGUAGE, name), _file(language, name)
        missing += [f"{name}: {key}" for key in english if key not in translated]
        for key in translated:
            if key in english:
                continue
            # a plural form English lacks is fine where the language's rules have that category
            base = _family(key)
            if base is None or f"{base}.one" not in english or key.rpartition(".")[2] not in categories:
                extra.append(f"{name}: {key}")
    assert missing == []
    assert extra == [], "keys English does not have (or a plural form the language has no use for)"


@pytest.mark.parametrize("language", TRANSLATIONS)
def test_placeholders_are_those_of_english(language: str):
    english = _english_keys()
    wrong = []
    for name in _files(language):
        for key, text in _file(language, name).items():
            if not text.strip():
                wrong.append(f"{key}: empty")
                continue
            base = _family(key)
            if base is not None:
                expected, found = _family_fields(base) - {"count"}, _fields(text) - {"count"}
            elif key in english:
                expected, found = _fields(english[key]), _fields(text)
            else:
                continue  # reported by the key test
            if found != expected:
                wrong.append(f"{key}: {sorted(found)} instead of {sorted(expected)}")
    assert wrong == []


@pytest.mark.parametrize("language", [DEFAULT_LANGUAGE, *TRANSLATIONS])
def test_plural_words_come_in_pairs(language: str):
    keys = {key for name in _files(language) for key in _file(language, name)}
    unpaired = sorted(
        key
        for key in keys
        if (key.endswith(".one") and key.removesuffix(".one") + ".many" not in keys)
        or (key.endswith(".many") and key.removesuffix(".many") + ".one" not in keys)
    )
    assert unpaired == []


@pytest.mark.parametrize("language", TRANSLATIONS)
def test_every_template_is_well_formed(language: str):
    for name in _files(language):
        for key, text in _file(language, name).items():
            try:
                list(string.Formatter().parse(text))
            except ValueError as error:
                pytest.fail(f"{language}/{name}: {key}: {error}")


@pytest.mark.parametrize("language", TRANSLATIONS)
def test_game_terms_of_the_published_editions(language: str):
    """Spot checks that the words are the editions' own, not English left in place."""
    expected = {
        "de": {"rockthebock.colour.white": "Weiß", "rockthebock.count.bock.many": "Böcke"},
        "es": {"sushidice.plate.combo": "combinado", "sushidice.panel.ring": "campana"},
        "fa": {"sushigo.card.squid": "ماهی مرکب", "sushigo.card.chopsticks": "چاپستیک"},
    }.get(language, {})
    for key, word in expected.items():
        assert word in t(key, language), key


# Choosing the catalog and the words


@pytest.mark.parametrize(
    ("locale", "chain"),
    [
        ("es-419", ["es-419", "es"]),
        ("es-ES", ["es-ES", "es"]),
        ("es-MX", ["es-MX", "es-419", "es"]),
        ("pt-BR", ["pt-BR", "pt"]),
        ("zh-TW", ["zh-Hant-TW", "zh-TW", "zh-Hant"]),  # never Simplified zh
        ("zh-CN", ["zh-Hans-CN", "zh-CN", "zh-Hans", "zh"]),
        ("en-GB", ["en-GB", "en-001", "en"]),
    ],
)
def test_regions_stay_apart_and_fall_back_to_their_language(locale: str, chain: list[str]):
    assert fallbacks(locale) == chain


def test_a_locale_finds_the_best_catalog_there_is():
    import discord

    assert language_of(discord.Locale.german) == "de"
    assert language_of(discord.Locale.spain_spanish) == "es"
    assert language_of(discord.Locale.latin_american_spanish) == "es"
    assert language_of("fa-IR") == "fa"
    assert language_of("fa-u-nu-arabext") == "fa"
    assert language_of(discord.Locale.taiwan_chinese) == "en"
    assert language_of(discord.Locale.brazil_portuguese) == "en"
    assert language_of("not a locale") == "en"
    assert language_of(None) == "en"


def test_a_regional_catalog_wins_over_its_language(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    import cogs.kit.words.catalogs as i18n

    (tmp_path / "tables" / "locales").mkdir(parents=True)
    for tag in ("es", "es-419"):
        path = tmp_path / "tables" / "locales" / f"{tag}.json"
        path.write_text(json.dumps({"lobby.join": tag}), encoding="utf-8")
    monkeypatch.setattr(i18n, "COGS_DIR", tmp_path)
    for cached in (i18n._catalog, i18n.languages, i18n._best_catalog):
        cached.cache_clear()
    try:
        assert t("lobby.join", "es-419") == "es-419"
        assert t("lobby.join", "es-AR") == "es-419"  # CLDR: es-AR's parent is es-419
        assert t("lobby.join", "es-ES") == "es"
    finally:
        monkeypatch.undo()
        for cached in (i18n._catalog, i18n.languages, i18n._best_catalog):
            cached.cache_clear()


def test_plurals_follow_each_language_rules():
    assert plural("results.points", 1) == "1 point"
    assert plural("results.points", -1) == "−1 point"
    assert plural("results.points", 0) == "0 points"
    # Persian counts 0 as "one"; German and Spanish as "other" (the catalogs' `.many`)
    assert plural_key("results.points", 0, "fa") == "results.points.one"
    assert plural_key("results.points", 0, "de") == "results.points.many"
    assert plural_key("results.points", 2, "fa") == "results.points.many"
    # Spanish "many" (a million) has no form of its own here: it reads as "other"
    assert plural_key("results.points", 1_000_000, "es") == "results.points.many"


def test_a_form_a_language_adds_is_used(monkeypatch: pytest.MonkeyPatch):
    """A Russian-like catalog gives .few: 3 takes it, 5 takes .many."""
    import cogs.kit.words.text as i18n

    forms = {"x.one": "{count} one", "x.few": "{count} few", "x.many": "{count} many"}
    monkeypatch.setattr(i18n, "catalog", lambda language: forms)
    monkeypatch.setattr(i18n, "language_of", lambda locale: "ru")
    assert i18n.plural("x", 3, "ru") == "3 few"
    assert i18n.plural("x", 5, "ru") == "5 many"
    assert i18n.plural("x", 21, "ru") == "21 one"


def test_numbers_per_language():
    assert number(-3) == "−3"
    assert signed(4) == "+4" and signed(0) == "0" and signed(-2) == "−2"
    assert number(-3, "de") == "−3"
    assert number(1234, "fa") == "۱۲۳۴"  # Persian digits, as the Persian rulebooks write them
    assert number(1234, "fa-u-nu-latn") == "1234"  # unless the locale asks for Latin ones
    assert number(1234, "fa-u-nu-native") == "۱۲۳۴"
    assert number(-7, "fa-u-nu-arabext") == "\u200e−۷"  # the mark keeps the sign left of the number
    assert signed(5, "fa-u-nu-native").endswith("+۵")
    assert "۳" in plural("results.points", 3, "fa-u-nu-native")
    assert t("sushigo.board.title", "fa-u-nu-native", round=2, rounds=3, turn=4).count("۲") == 1


def test_persian_is_written_right_to_left():
    assert is_rtl("fa") and not is_rtl("de") and not is_rtl(None)
