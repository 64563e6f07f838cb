"""Game names, lists and table options as each language writes them; a table worded for one seat."""

from __future__ import annotations

from typing import Any

import pytest

from cogs.kit.words.bidi import plain
from cogs.kit.words.catalogs import catalog
from cogs.kit.words.reader import choose_language
from cogs.kit.words.text import game_title, join_list, option_line
from cogs.tables.context import TableContext
from cogs.tables.speaking import seat_locale
from rules.registry import GAMES
from storage.tables import Seat, TableRecord

LANGUAGES = ("en", "de", "es", "fa")


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_game_has_its_name_in_every_language(language: str):
    for game_id in GAMES:
        assert f"{game_id}.name" in catalog(language), f"{language}: {game_id}.name"


def test_english_names_are_the_engines_titles_and_persian_writes_its_own():
    for game_id, game in GAMES.items():
        assert game_title(game_id, "en") == game.title
        assert game_title(game_id, "de") == game.title  # the German editions keep their names
        assert game_title(game_id, "fa") != game.title
    assert plain(game_title("sushigo", "fa")) == "سوشی گو!"


@pytest.mark.parametrize(
    ("language", "joined", "either", "listed"),
    [
        ("en", "A, B, and C", "A or B", "A, B, C"),
        ("de", "A, B und C", "A oder B", "A, B, C"),
        ("es", "A, B y C", "A o B", "A, B, C"),
        ("fa", "A،\u200f B، و C", "A یا B", "A،\u200f B،\u200f C"),
    ],
)
def test_lists_follow_the_languages_pattern(language: str, joined: str, either: str, listed: str):
    assert join_list("ABC", language) == joined
    assert join_list("AB", language, style="or") == either
    assert join_list("ABC", language, style="comma") == listed
    assert join_list(["A"], language) == "A" and join_list([], language) == ""


def test_a_table_option_reads_in_words():
    """Its label is a word (capitalised, `option.<name>`), not the slash command's option name."""
    assert option_line("kaiten", "dexterity", "off", "en") == "Dexterity: **off**"
    assert option_line("kaiten", "dexterity", "off", "de") == "Geschick: **aus**"
    assert option_line("kaiten", "unknown", "x", "de") == "unknown: **x**"  # never a crash


def _ctx(locale: str | None) -> TableContext:
    record = TableRecord(
        guild_id=1,
        channel_id=2,
        game_id="sushigo",
        host_id=3,
        seats=[Seat(3, "alice")],
        extra={"locale": locale},
    )
    game: Any = GAMES["sushigo"]
    return TableContext(record, game, None)


def test_a_table_speaks_another_language_for_one_render_and_keeps_its_own():
    ctx = _ctx("de")
    persian = ctx.speaking("fa")
    assert persian.locale == "fa" and ctx.locale == "de"
    assert plain(persian.t("lobby.join")) == catalog("fa")["lobby.join"]
    assert ctx.t("lobby.join") == catalog("de")["lobby.join"]
    assert ctx.speaking(None) is ctx and ctx.speaking("de") is ctx  # nothing to change: no copy


class _Settings:
    """A player settings store that counts its reads."""

    def __init__(self) -> None:
        self.values: dict[tuple[int, str], Any] = {}
        self.reads = 0

    async def get(self, user_id: int, key: str, default: Any = None) -> Any:
        self.reads += 1
        return self.values.get((user_id, key), default)

    async def set(self, user_id: int, key: str, value: Any) -> None:
        self.values[(user_id, key)] = value


async def test_a_players_language_is_read_once_and_changed_by_their_choice():
    settings: Any = _Settings()
    ctx = _ctx("de")
    for _ in range(5):  # every move re-renders every hand: one read in all
        assert await seat_locale(settings, ctx, 0) == "de"
    assert settings.reads == 1
    await choose_language(settings, 3, "fa")
    assert await seat_locale(settings, ctx, 0) == "fa" and settings.reads == 1
    await choose_language(settings, 3, None)  # the server's again: the table's language
    assert await seat_locale(settings, ctx, 0) == "de"
