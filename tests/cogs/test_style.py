"""The style guide (docs/STYLE.md), as far as a machine can read it: every catalog follows it.

Each kind of slip a native reader noticed once gets a test here, so it cannot come back: Latin
digits in a Persian line, an English option value (True/false) in a German, Spanish or Persian
answer, a full stop after "!" or "?", and the words the guide rules out (a synonym where the
rulebook has its own term, a word that would carry two meanings). Persian `command.text.*` entries
are English on purpose (Discord has no Persian client), so they are left out where English is meant.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CATALOGS = sorted(ROOT.glob("cogs/**/locales/*.json"))
LANGUAGES = ("en", "de", "es", "fa")
TRANSLATED = ("de", "es", "fa")


def entries(language: str) -> list[tuple[str, str, str]]:
    """(package, key, text) of every catalog entry in the language."""
    found = []
    for path in CATALOGS:
        if path.stem != language:
            continue
        package = str(path.parent.parent.relative_to(ROOT))
        for key, text in json.loads(path.read_text(encoding="utf-8")).items():
            found.append((package, key, text))
    return found


def said(language: str) -> list[tuple[str, str, str]]:
    """The entries a player reads in the language: Persian command names stay English (Discord
    shows no Persian client), so they are no Persian text."""
    return [e for e in entries(language) if not (language == "fa" and e[1].startswith("command.text."))]


# What is not the reader's prose: code spans, fenced blocks, placeholders, Discord markup (mentions,
# channel links, custom emoji), links, and the dice notation and names a player types or knows by
# their Latin spelling.
_NOT_PROSE = re.compile(
    r"```.*?```|`[^`]*`|\{[^{}]*\}|<[@#/:a-z][^>]*>|\]\([^)]*\)|https?://\S+"
    r"|\b\d*d(?:\d+|%|F)\b|\bd20\b|\b[a-z]+\d[\w-]*\b|\b[a-z]+ \d+\b",
    re.DOTALL,
)
_LATIN_DIGIT = re.compile(r"[0-9]")


def prose(text: str) -> str:
    return _NOT_PROSE.sub(" ", text)


def test_a_persian_line_writes_persian_digits() -> None:
    """Digits a Persian reader reads are ۰–۹; Latin digits stay only where something is typed
    (a code span, a command, dice notation) or inside a placeholder or markup."""
    slips = [
        f"{package} {key}: {text!r}" for package, key, text in said("fa") if _LATIN_DIGIT.search(prose(text))
    ]
    assert slips == []


_ENGLISH_VALUE = re.compile(r"\b(?:True|False|true|false)\b")


@pytest.mark.parametrize("language", TRANSLATED)
def test_option_values_are_in_the_readers_words(language: str) -> None:
    """A boolean option's values are named in the reader's language (Wahr/Falsch, Verdadero/Falso),
    never as English True/false."""
    slips = [
        f"{package} {key}: {text!r}" for package, key, text in said(language) if _ENGLISH_VALUE.search(text)
    ]
    assert slips == []


# "!" or "?" (Spanish "¡…!" too), then only closing emphasis, then a full stop: "¡Yuck!." (after a
# closing bracket or quote the stop ends the sentence around it, which is right).
_STOP_AFTER_MARK = re.compile(r"[!?][*_~]*\.(?!\.)")


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_full_stop_after_an_exclamation_or_question_mark(language: str) -> None:
    """ "¡Yuck!." reads as a typo: an exclamation or question ends its sentence itself."""
    slips = [
        f"{package} {key}: {text!r}"
        for package, key, text in said(language)
        if _STOP_AFTER_MARK.search(prose(text).replace("`", ""))
    ]
    assert slips == []


OPENING_A_TABLE = r"^command\.text\.|^threads\.|^table\.other_game|^lobby\.|^help\."  # a table is eröffnet
DEXTERITY = r"^kaiten\.|^option\.dexterity|^settings\.option"
KAITEN_BOARD = (
    r"^kaiten\.|^command\.text\..*Kaiten|^command\.text\.How black|^command\.text\.The sushi.s cell"
)
# The words each language's guide rules out: (pattern, which keys it may still appear in, why).
# A key pattern of None: nowhere.
FORBIDDEN: dict[str, list[tuple[str, str | None, str]]] = {
    "de": [
        (r"abgehakt|abhaken", None, "the rulebook strikes symbols off: abstreichen, abgestrichen"),
        (r"\bZeilen? (?:\d|A)", None, "a numbered row of a board is a Reihe (a Zeile is a line of text)"),
        (
            r"\b(?:Spiel)?[Bb]rett(?:s|es)?\b",
            KAITEN_BOARD,
            "Brett is Kaiten's board; the bot's message is the Spielfläche",
        ),
        (r"\b(?:Ihre[mnrs]?|Ihnen)\b", None, "the bot says du; a capital Ihr- reads as the formal Sie"),
        (r"[Öö]ffnen\b", OPENING_A_TABLE, "dice and hands are not opened: Meine Würfel, Meine Hand"),
        (r"angekommen", None, "a move is gespeichert, not angekommen"),
        (r"Nimm das\b", None, "reads as 'take that!'"),
    ],
    "es": [
        (r"\bcog(?:e|er|es|en|ió|ido)\b", None, "coger is rude in much of Latin America: tomar, llevarse"),
        (r"\{nth\}\.º", None, "a shortened ordinal before a noun: el sushi n.º {nth}"),
        (r"\bAbrir mis dados\b|\bAbre tus dados\b", None, "dice are not opened: Mis dados"),
        (r"está hecha\b", None, "a calque: quedó registrada"),
        (r"\bpulsen\b|\bpulsad\b", None, "neutral tú: no ustedes/vosotros imperative to a group"),
        (
            r"\bse ha (?:sentado|levantado|ido)\b|\bha cancelado la mesa\b",
            None,
            "events in the pretérito: se sentó",
        ),
    ],
    "fa": [
        (r"زنگ بزنید|زنگ زد|زنگ می‌زنند", None, "reads as a phone call: زنگ را به صدا درآوردن"),
        (r"پشت‌ورو", None, "means inside out: رو به پایین"),
        (r"کنارگذاشتنی", None, "not a word a player uses: برای کنار گذاشتن"),
        (r"و وگرنه", None, "two conjunctions in one clause"),
        (r"مهارت", DEXTERITY, "مهارت is Kaiten's dexterity only"),
        (r"ریختن ذخیره|(?<!دوباره‌)ریختن‌ها", None, "a saved roll is a پرتاب"),
    ],
}


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_guides_ruled_out_words_are_not_used(language: str) -> None:
    slips = []
    for package, key, text in said(language):
        for pattern, allowed, why in FORBIDDEN[language]:
            if allowed is not None and re.search(allowed, key):
                continue
            if re.search(pattern, prose(text)):
                slips.append(f"{package} {key}: {why}: {text!r}")
    assert slips == []


# One meaning per term: a word the rulebook gives one meaning is not used for another thing.
# "another game" in the rematch question is never the word for a round (Runde, ronda, دور) or a
# hand (دست); Sushi Dice's sets of dice are never "دست" (a hand of cards).
ANOTHER_GAME = ("results.footer", "computers.results.footer", "table.rematch_called_off")
ROUND_OR_HAND = {"de": r"\bRunde\b", "es": r"\bronda\b", "fa": r"\bدور\b|\bدست\b"}


@pytest.mark.parametrize("language", TRANSLATED)
def test_another_game_is_not_called_a_round_or_a_hand(language: str) -> None:
    slips = [
        f"{key}: {text!r}"
        for _, key, text in said(language)
        if key in ANOTHER_GAME and re.search(ROUND_OR_HAND[language], text)
    ]
    assert slips == []


def test_a_persian_hand_is_a_hand_of_cards() -> None:
    """دست is Sushi Go!'s hand; a set of Sushi Dice is a سری."""
    slips = [
        f"{key}: {text!r}"
        for package, key, text in said("fa")
        if ("sushidice" in key or package.endswith("sushidice")) and re.search(r"\bدست\b(?!‌)", text)
    ]
    assert slips == []


# A button names its action in one form: German and Spanish an infinitive (or what it shows:
# "Meine Hand"), Persian a verbal noun — never a plural imperative ("شروع کنید").
BUTTONS = (
    "lobby.join",
    "lobby.leave",
    "lobby.start",
    "lobby.cancel",
    "computers.add",
    "computers.remove",
    "sushidice.panel.roll",
    "sushidice.panel.ring",
    "sushidice.panel.ring_plate",
    "sushizock.button.roll_all",
    "sushizock.button.take_sushi",
    "sushizock.button.take_bone",
    "sushizock.button.roll.one",
    "sushizock.button.roll.many",
    "sushizock.button.roll_pick",
    "sushizock.button.roll_leave_one",
    "sushizock.button.steal.sushi",
    "sushizock.button.steal.bone",
    "rockthebock.button.roll.one",
    "rockthebock.button.roll.many",
    "sushigo.private.back",
    "sushigo.private.use_chopsticks",
    "roll.again",
)


def test_a_persian_button_is_no_imperative() -> None:
    slips = [
        f"{key}: {text!r}"
        for _, key, text in said("fa")
        if key in BUTTONS and re.search(r"ید\b|ید\s*\(|بریز\b", text)
    ]
    assert slips == []
