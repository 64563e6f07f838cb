"""Right-to-left lines read right in a left-to-right paragraph and in one that follows the first strong
letter, laid out by the Unicode bidi algorithm (python-bidi): the lines issue #33 quoted, as the i18n
layer now writes them."""

from __future__ import annotations

import re

import discord
import pytest

from cogs.kit.messages import finish_message
from cogs.kit.words.bidi import CONTROLS, FSI, PDI, RLM, is_wrapped, mention, name, plain, rtl
from cogs.kit.words.catalogs import catalog
from cogs.kit.words.text import latin_digits, number, signed, t
from tests.e2e.bidi_check import expected_rtl, line_problems

QUOTED = [
    "تاس‌هایتان به سوشی شمارهٔ 1 می‌رسد: +1.",
    "carol: (پرتاب 1 از 3)",
    "امتیاز ×2 می‌شود",
    "!کات",
    "ایش!",
    "برای پیوستن `/sushigo join` را بزنید.",
    "alice 3 (+3) · bob 3 (+3) · carol 2 (0)",
    "یک کارت انتخاب کنید…",
    "→ دور بعد",
]


@pytest.mark.parametrize("line", QUOTED)
def test_a_quoted_persian_line_reads_right_to_left_in_both_paragraphs(line: str) -> None:
    if any("\u0600" <= char <= "\u06ff" for char in line):
        assert line_problems(line)  # as it was: scrambled in a left-to-right paragraph
    made = rtl(line)
    assert line_problems(made) == []
    assert plain(made) == line
    assert expected_rtl(made).startswith(expected_rtl(line)[:1])  # it ends where a Persian line ends


def test_a_command_keeps_its_slash_and_a_signed_number_its_sign() -> None:
    shown = expected_rtl(rtl("برای پیوستن `/sushigo join` را بزنید: +1."))
    assert "`/sushigo join`" in shown and "+1" in shown


def test_a_times_sign_between_numbers_is_read_as_a_sign_not_a_letter() -> None:
    """ "۲ × +۱" reads two, times, plus one from the right: × (U+00D7, among Latin-1's letters in code
    order) is a neutral sign, not part of a left-to-right word."""
    made = t("rockthebock.rules.text", "fa")
    line = next(line for line in made.splitlines() if "×" in line)
    assert line_problems(line) == []
    assert "+۱ × ۲" in expected_rtl(rtl("🐐 ۲ × +۱"))


def test_markdown_line_markers_stay_first_so_headings_and_lists_parse() -> None:
    for marker in ("## ", "### ", "-# ", "- ", "> ", "1. "):
        made = rtl(f"{marker}دور ۲")
        assert made.startswith(marker + RLM) and made.endswith(RLM)
        assert line_problems(made) == []


def test_wrapping_is_idempotent_and_a_joined_line_is_wrapped_as_one() -> None:
    piece = rtl("دور ۲")
    assert rtl(piece) == piece and is_wrapped(piece)
    joined = rtl(f"{piece} · {rtl('نوبت ۳')}")
    assert is_wrapped(joined) and line_problems(joined) == []


def test_a_message_in_a_right_to_left_language_has_every_line_made_right_to_left() -> None:
    """A renderer's own join ("alice، bob") in a Persian message is wrapped with the rest; a message
    in a left-to-right language is left as it is."""
    embed = discord.Embed(title=rtl("بازیکنان"), description="alice، bob\n" + rtl("دور ۲") + " · ۳")
    finish_message(None, embed)
    assert all(is_wrapped(line) for line in (embed.description or "").split("\n"))
    assert all(line_problems(line) == [] for line in (embed.description or "").split("\n"))
    english = discord.Embed(title="Players", description="alice, bob · 3")
    assert finish_message("round 2 · turn 3", english) == "round 2 · turn 3"
    assert english.description == "alice, bob · 3"


def test_a_name_is_isolated_and_cannot_carry_controls_into_the_sentence() -> None:
    assert name("مریم") == f"{FSI}مریم{PDI}" and name(name("مریم")) == name("مریم")
    assert name("\u202eevil\u2066") == "evil"  # an override in a nickname goes
    assert name("alice") == "alice"  # a left-to-right name reads right in a left-to-right sentence
    assert mention(7) == f"{FSI}<@7>{PDI}"  # the client shows the name, in any script


def test_persian_templates_come_out_wrapped_with_persian_digits() -> None:
    said = t("sushigo.board.title", "fa", round=2, rounds=3, turn=4)
    assert is_wrapped(said) and "۲" in said and line_problems(said) == []
    assert number(27, "fa") == "۲۷" and plain(signed(3, "fa")).endswith("+۳")
    assert t("sushigo.board.title", "de", round=2, rounds=3, turn=4) == plain(
        t("sushigo.board.title", "de", round=2, rounds=3, turn=4)
    )  # a left-to-right language gets no marks


def test_a_number_inside_a_code_span_stays_as_typed() -> None:
    from cogs.kit.words import text as i18n

    said = i18n._fill(
        "`/sushizock roll set_aside:{dice}` · {count}", {"dice": 13, "count": 2}, "fa", "arabext", True
    )
    assert "set_aside:13`" in said and "۲" in said


def test_digits_a_player_types_are_read_in_both_systems() -> None:
    assert latin_digits("۱ ۳") == "1 3" and latin_digits("١٢") == "12" and latin_digits("2d6") == "2d6"


# What keeps Latin digits: code (something to type), fields, markup, a numbered list's marker.
# Notation as a player types it, where no code span can mark it (a menu's choice: "bock 7", "d20").
_NOTATION = re.compile(r"[A-Za-z]+ ?[0-9]+[A-Za-z0-9]*|[0-9]+[A-Za-z][A-Za-z0-9]*")
_CODE_OR_FIELD = re.compile(r"`[^`]*`|\{[^{}]*\}|<[^<>]*>|^\s*\d{1,3}\. ", re.MULTILINE)


def _persian_texts() -> dict[str, str]:
    return {key: text for key, text in catalog("fa").items() if not key.startswith("command.")}


def test_persian_templates_carry_no_bidi_controls_the_layer_adds_them() -> None:
    marked = [key for key, text in _persian_texts().items() if set(text) & CONTROLS]
    assert marked == []


def test_persian_templates_write_persian_digits() -> None:
    """Numbers in Persian sentences are Persian digits; a command or code a player types keeps its own."""

    def prose(text: str) -> str:
        return _NOTATION.sub("", _CODE_OR_FIELD.sub("", text))

    latin = [key for key, text in _persian_texts().items() if re.search(r"[0-9]", prose(text))]
    assert latin == []
