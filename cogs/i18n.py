"""Every word a player sees comes from here.

Catalogs are JSON files: the shared ones under `locales/<language>/` (`common.json`,
one per feature), and each game's `locales/<language>.json` in its own cogs package
(`cogs/<game>/locales/`), merged per language. A folder is named by its BCP 47 tag: `de`,
`es`, `fa`, or a regional one such as `es-419`, `pt-BR` or `zh-Hant` where the
region or script matters. English is complete; other languages fall back to
English key by key. Slash command names and descriptions go through
`CatalogTranslator`, discord.py's own hook for localising the command tree.

A locale may carry a Unicode numbering-system extension (`fa-u-nu-arabext`,
`fa-u-nu-native`): numbers are then written in that system's digits, so a
player's or server's "native digits" setting only has to choose the tag.
"""

from __future__ import annotations

import importlib.util
import json
import logging
import re
import string
from collections.abc import Callable, Iterable, Iterator, Mapping
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, Literal, Protocol

import discord
from babel import Locale, UnknownLocaleError
from babel.core import get_global
from babel.lists import format_list
from babel.numbers import get_minus_sign_symbol, get_plus_sign_symbol
from discord import app_commands

from cogs import bidi
from cogs.commands import SLASH_COMMANDS
from rules.registry import REGISTERED

log = logging.getLogger(__name__)

LOCALES_DIR = Path(__file__).parent / "locales"
DEFAULT_LANGUAGE = "en"

# The digits of the numbering systems a catalog language may ask for (CLDR names).
DIGITS = {
    "latn": "0123456789",
    "arab": "٠١٢٣٤٥٦٧٨٩",
    "arabext": "۰۱۲۳۴۵۶۷۸۹",
    "beng": "০১২৩৪৫৬৭৮৯",
    "deva": "०१२३४५६७८९",
    "mymr": "၀၁၂၃၄၅၆၇၈၉",
    "thai": "๐๑๒๓๔๕๖๗๘๙",
}

# Which catalog form serves each CLDR plural category, best first. English names only
# `.one` and `.many`, and its `.many` means CLDR's "other"; a language that needs more
# forms adds `.zero`, `.two`, `.few` (and `.other` beside a true `.many`, as Russian does).
PLURAL_FORMS: dict[str, tuple[str, ...]] = {
    "zero": ("zero", "other", "many"),
    "one": ("one", "other", "many"),
    "two": ("two", "other", "many"),
    "few": ("few", "other", "many"),
    "many": ("many", "other"),
    "other": ("other", "many"),
}

Localish = discord.Locale | str | None


def catalog_files(language: str) -> list[Path]:
    """A language's catalog files: the shared ones (`locales/<language>/*.json`), then each registered
    game's own (`locales/<language>.json` in its cogs package)."""
    shared = sorted((LOCALES_DIR / language).glob("*.json"))
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
    return {
        folder.name.lower(): folder.name
        for folder in sorted(LOCALES_DIR.iterdir())
        if folder.is_dir() and any(folder.glob("*.json"))
    }


def _tag(locale: Localish) -> str:
    if type(locale) is str:  # the usual case, first: discord.Locale's isinstance is slow Python
        return locale
    if locale is None:
        return DEFAULT_LANGUAGE
    return locale.value if isinstance(locale, discord.Locale) else str(locale)


def _split_extension(tag: str) -> tuple[str, dict[str, str]]:
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
    tag, _ = _split_extension(_tag(locale))
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
    return _best_catalog(_tag(locale))


def has(key: str, locale: Localish = None) -> bool:
    return key in catalog(language_of(locale)) or key in catalog(DEFAULT_LANGUAGE)


def t(key: str, locale: Localish = None, /, **params: Any) -> str:
    """The text for `key` in the player's language, with `{params}` filled in.

    A missing key is a bug, but a player should never see a crash for it:
    it is logged and the key itself is shown. A right-to-left language's text comes out with its
    lines made right to left and its parameters isolated (`cogs/bidi.py`).
    """
    text = catalog(language_of(locale)).get(key) or catalog(DEFAULT_LANGUAGE).get(key)
    if text is None:
        log.error("missing text for %r", key)
        return key
    rtl = is_rtl(locale)
    try:
        system = numbering_system(locale)
        if system == "latn" and not rtl and not any(_needs_writing(value) for value in params.values()):
            said = text.format_map(_Params(params))
        else:
            said = _fill(text, params, locale, system, rtl)
    except (ValueError, IndexError, KeyError, AttributeError):
        log.exception("bad template for %r", key)
        return text
    if "`/" in text:
        said = name_commands(said, locale)
    return bidi.rtl(said) if rtl else said


def _needs_writing(value: object) -> bool:
    """A number `str.format` would not write as the language does: a float (decimal sign), or a
    negative integer (a true minus sign, as `number` writes it)."""
    return type(value) is float or (type(value) is int and value < 0)


def latin_digits(text: str) -> str:
    """Digits a player typed in any numbering system the bot writes (۱۲ or ١٢ or 12) as Latin digits,
    for parsing."""
    return text.translate(_TO_LATIN)


_TO_LATIN = {
    ord(digit): str(value)
    for system, digits in DIGITS.items()
    if system != "latn"
    for value, digit in enumerate(digits)
}


@cache
def _parsed(text: str) -> list[tuple[str, str | None, str, str | None]]:
    return [
        (literal, name, spec or "", conversion)
        for literal, name, spec, conversion in string.Formatter().parse(text)
    ]


_FORMATTER = string.Formatter()
# Inside Discord markup still open at the end of the text so far (`<@{id}>`, `</cmd:{id}>`); a plain
# "<" (a comparison such as "🐏 2 < 🐺 3") opens none.
_OPEN_MARKUP = re.compile(r"<(?:[@#/:]|a:|t:)[^<>]*$|\]\($")  # or a markdown link's target: "](…)"


def _fill(text: str, params: Mapping[str, Any], locale: Localish, system: str, rtl: bool) -> str:
    """A template filled like `str.format_map`, numbers written in the locale's digits and, in a
    right-to-left language, each one-line string parameter isolated; inside a code span or Discord
    markup (`<@{id}>`) values go in exactly as given, since they are something to type or parse."""
    out: list[str] = []
    ticks = 0
    for literal, name, spec, conversion in _parsed(text):
        out.append(literal)
        ticks += literal.count("`")
        if name is None:
            continue
        written = "".join(out)
        raw = ticks % 2 == 1 or _OPEN_MARKUP.search(written) is not None
        try:
            value, _ = _FORMATTER.get_field(name, (), params)
        except (KeyError, IndexError):
            out.append("{" + name + (f":{spec}" if spec else "") + "}")
            continue
        if conversion:
            value = _FORMATTER.convert_field(value, conversion)
        if isinstance(value, int) and not isinstance(value, bool) and not spec and not raw:
            out.append(number(value, locale))
        elif isinstance(value, int | float) and not isinstance(value, bool):
            formatted = format(value, spec)
            out.append(formatted if raw else formatted.translate(_symbols(locale, system)))
        else:
            formatted = format(value, spec)
            one_line = "\n" not in formatted and not bidi.starts_with_marker(formatted)
            if rtl and not raw and one_line:
                formatted = bidi.nested(formatted)
            out.append(formatted)
    return "".join(out)


@cache
def _symbols(locale: Localish, system: str) -> dict[int, str]:
    """A number Python formatted ("-1.5", "1,234", "25%") in the language's digits and signs:
    "−۱٫۵", "1.234", "25 %" (CLDR's symbols; a true minus sign)."""
    language = _babel_locale(language_of(locale))
    symbols = language.number_symbols.get(system) or language.number_symbols["latn"]
    percent = symbols.get("percentSign", "%")
    if "\u00a0%" in (language.percent_formats[None].pattern or "").replace(" ", "\u00a0"):
        percent = "\u00a0" + percent  # German and Spanish write "25 %"
    table = {ord(latin): native for latin, native in zip(DIGITS["latn"], DIGITS[system], strict=True)}
    table |= {ord("."): symbols.get("decimal", "."), ord(","): symbols.get("group", ",")}
    return table | {ord("%"): percent, ord("-"): symbols.get("minusSign", "-").replace("-", "−")}


_COMMAND_IN_CODE = re.compile(r"`/([^`\n]+)`")
_OPTION = re.compile(r"([-_a-z0-9]+):(.*)", re.DOTALL)


@cache
def _client_languages() -> frozenset[str]:
    """The catalogs some Discord client locale reads (de, es): their command names are localised by
    `CatalogTranslator`. Persian is no Discord locale, so its readers' clients show English names."""
    return frozenset(language_of(locale) for locale in discord.Locale) - {DEFAULT_LANGUAGE}


def name_commands(text: str, locale: Localish = None, /) -> str:
    """The commands a text names in code, as the reader's client shows them.

    "`/sushigo pick`" (a command alone) becomes its mention `</sushigo pick:ID>`, which Discord draws
    clickable in the reader's own client language; with options ("`/sushizock roll set_aside:1 3`")
    it stays code, with the command's and options' names as a German or Spanish client shows them
    and the values untouched. A command the bot does not have is left as it is. English texts are
    left as they are: they name the commands as an English client shows them.
    """
    language = language_of(locale)
    if language == DEFAULT_LANGUAGE:
        return text
    names = catalog(language) if language in _client_languages() else {}

    def localised(name: str) -> str:
        return names.get(f"command.text.{name}", name)

    def rewrite(match: re.Match[str]) -> str:
        words = match[1].split(" ")
        path = SLASH_COMMANDS.find(words)
        if path is None:
            return match[0]
        rest = words[len(path) :]
        if not rest:
            mention = SLASH_COMMANDS.mention(path)
            if mention is not None:
                return mention
        elif path not in SLASH_COMMANDS.runnable:  # a group and then no subcommand of it
            return match[0]
        options = SLASH_COMMANDS.runnable.get(path, frozenset())
        said = [localised(name) for name in path]
        for word in rest:  # option names are localised, values and plain arguments ("2d6") are not
            option = _OPTION.fullmatch(word)
            said.append(f"{localised(option[1])}:{option[2]}" if option and option[1] in options else word)
        return "`/" + " ".join(said) + "`"

    return _COMMAND_IN_CODE.sub(rewrite, text)


class _Params(dict[str, Any]):
    """Leave an unknown `{name}` as it is instead of raising."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


@cache
def _babel_locale(language: str) -> Locale:
    try:
        return Locale.parse(language, sep="-")
    except (ValueError, TypeError, UnknownLocaleError):
        return Locale.parse(DEFAULT_LANGUAGE)


@lru_cache(maxsize=512)  # asked for every text: a handful of locales, each parsed once
def numbering_system(locale: Localish) -> str:
    """The digits the language writes by default (CLDR: Persian ۰–۹, German and Spanish 0–9), unless
    the locale asks for others (`-u-nu-latn`, `-u-nu-arabext`; `-u-nu-native` is the language's own)."""
    _, keywords = _split_extension(_tag(locale))
    system = keywords.get("nu", "native")
    if system == "native":
        system = _babel_locale(language_of(locale)).default_numbering_system
    return system if system in DIGITS else "latn"


def number(value: int, locale: Localish = None, /) -> str:
    """An integer as the language writes it, with a true minus sign (−3), which reads better than a
    hyphen in an embed; Persian adds the mark that keeps the sign on the left in right-to-left text."""
    system = numbering_system(locale)
    digits = str(abs(value)).translate(str.maketrans(DIGITS["latn"], DIGITS[system]))
    if value >= 0:
        return digits
    return get_minus_sign_symbol(_babel_locale(language_of(locale))).replace("-", "−") + digits


def signed(value: int, locale: Localish = None, /) -> str:
    """+3, −2, 0: a score change or a tile's value."""
    if value > 0:
        return get_plus_sign_symbol(_babel_locale(language_of(locale))) + number(value, locale)
    return number(value, locale)


class Titled(Protocol):
    id: str
    title: str


def game_title(game: Titled | str, locale: Localish = None, /) -> str:
    """A game's name as its players know it (`<game>.name`: the published edition's name, written
    in the language's own script where it has one), else the engine's `title` (else its id)."""
    game_id, title = (game, game) if isinstance(game, str) else (game.id, game.title)
    key = f"{game_id}.name"
    return t(key, locale) if has(key, locale) else title


def option_line(game_id: str, name: str, value: object, locale: Localish = None, /) -> str:
    """A table option as players read it: "Dexterity: **off**" in the player's words (the option's
    label `option.<name>`, else its name as their slash command spells it; its value from
    `<game>.<option>.<value>`)."""
    label = next(
        (t(key, locale) for key in (f"option.{name}", f"command.text.{name}") if has(key, locale)), name
    )
    key = f"{game_id}.{name}.{value}"
    return f"{label}: **{t(key, locale) if has(key, locale) else value}**"


def join_list(
    items: Iterable[object], locale: Localish = None, /, *, style: Literal["and", "or", "comma"] = "and"
) -> str:
    """Items listed as the language lists them (CLDR list patterns): "and" gives "A, B and C" (en
    "A, B, and C", fa "A، B، و C"), "or" "A, B or C", "comma" "A, B, C" with the language's comma."""
    words = [str(item) for item in items]
    if len(words) < 2:
        return "".join(words)
    language = _babel_locale(language_of(locale))
    if style == "comma":
        middle = language.list_patterns["standard"]["middle"]
        joined = words[0]
        for word in words[1:]:
            joined = middle.format(joined, word)
        return joined
    return format_list(words, style="standard" if style == "and" else "or", locale=language)


@lru_cache(maxsize=512)
def is_rtl(locale: Localish) -> bool:
    """Whether the language is written right to left (Persian)."""
    return _babel_locale(language_of(locale)).text_direction == "rtl"


@cache
def _plural_rule(language: str) -> Callable[[int], str]:
    return _babel_locale(language).plural_form


def plural_key(key: str, count: int, locale: Localish = None) -> str:
    """The catalog key of `key`'s form for `count` by the language's CLDR plural rules:
    Persian says "one" for 0 and 1, Spanish "many" for a million, English "other" (`.many`) for 0."""
    language = language_of(locale)
    forms = catalog(language)
    for suffix in PLURAL_FORMS[_plural_rule(language)(abs(count))]:
        if f"{key}.{suffix}" in forms:
            return f"{key}.{suffix}"
    if language != DEFAULT_LANGUAGE:  # the language lacks this word: English chooses by its own rule
        return plural_key(key, count, DEFAULT_LANGUAGE)
    return f"{key}.many"


def plural(key: str, count: int, locale: Localish = None, /, **params: Any) -> str:
    """`key`'s form for `count` in the player's language, with `{count}` filled in: "1 point", "−3 points"."""
    return t(plural_key(key, count, locale), locale, count=number(count, locale), **params)


def placeholders(key: str, language: str = DEFAULT_LANGUAGE) -> set[str]:
    """The `{names}` a template uses (for the catalog consistency tests)."""
    return set(template_fields(catalog(language)[key]))


def template_fields(text: str) -> Iterator[str]:
    """The field names of a template, without format specs: '{max:,} {name}' -> 'max', 'name'."""
    for _, name, _, _ in string.Formatter().parse(text):
        if name:
            yield name


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
