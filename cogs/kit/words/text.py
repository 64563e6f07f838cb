"""Every word a player sees is written here: `t(key, locale, **params)` fills a catalog's template
(`catalogs.py`) in the reader's language — numbers in its digits, plurals by CLDR's rules, lists by
its list patterns, commands named as the reader's client shows them (`mentions.py`), and right-to-left
lines made right to left (`bidi.py`).

A locale may carry a Unicode numbering-system extension (`fa-u-nu-arabext`,
`fa-u-nu-native`): numbers are then written in that system's digits, so a
player's or server's "native digits" setting only has to choose the tag.
"""

from __future__ import annotations

import logging
import re
import string
from collections.abc import Callable, Iterable, Mapping
from functools import cache, lru_cache
from typing import Any, Literal, Protocol

from babel import Locale, UnknownLocaleError
from babel.lists import format_list
from babel.numbers import get_minus_sign_symbol, get_plus_sign_symbol

from cogs.kit.words import bidi
from cogs.kit.words.catalogs import (
    DEFAULT_LANGUAGE,
    Localish,
    catalog,
    has,
    language_of,
    split_extension,
    tag_of,
)
from cogs.kit.words.mentions import name_commands

log = logging.getLogger(__name__)


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


def t(key: str, locale: Localish = None, /, **params: Any) -> str:
    """The text for `key` in the player's language, with `{params}` filled in.

    A missing key is a bug, but a player should never see a crash for it:
    it is logged and the key itself is shown. A right-to-left language's text comes out with its
    lines made right to left and its parameters isolated (`bidi.py`).
    """
    language, _, _ = _speaking(locale)
    text = catalog(language).get(key) or catalog(DEFAULT_LANGUAGE).get(key)
    if text is None:
        log.error("missing text for %r", key)
        return key
    if not params and "`/" not in text:  # a card's name, a button's label: the same every time
        return _plain(key, text, locale)
    return _said(key, text, locale, params)


@lru_cache(maxsize=8192)
def _plain(key: str, text: str, locale: Localish) -> str:
    """A text without parameters, as the language writes it: drawn once per template and locale (a
    command named in it is not: its mention changes once the commands are synced)."""
    return _said(key, text, locale, {})


def _said(key: str, text: str, locale: Localish, params: dict[str, Any]) -> str:
    _, rtl, system = _speaking(locale)
    try:
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


@cache
def _speaking(locale: Localish) -> tuple[str, bool, str]:
    """(catalog, right to left, digits) of a locale: read once per locale, not at every text."""
    return language_of(locale), is_rtl(locale), numbering_system(locale)


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
    _, keywords = split_extension(tag_of(locale))
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
