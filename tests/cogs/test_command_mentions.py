"""Commands named in the bot's texts, as the reader's Discord client shows them.

A command alone becomes a mention (Discord draws it clickable in the reader's client language);
with options it stays code, its names as a German or Spanish client shows them, its values kept.
"""

from __future__ import annotations

import logging
from types import SimpleNamespace

import discord
import pytest
from discord import app_commands

from bot import Settings, create_bot
from cogs.kit.words import text as i18n
from cogs.kit.words.bidi import plain
from cogs.kit.words.catalogs import catalog
from cogs.kit.words.mentions import SLASH_COMMANDS
from cogs.kit.words.text import t

SUSHIZOCK, ROLLS, ROLL = 111, 222, 333


def _tree() -> list[object]:
    sushizock = app_commands.Group(name="sushizock", description="Sushizock")

    @sushizock.command(name="join", description="Join")
    async def join(interaction: discord.Interaction) -> None: ...

    @sushizock.command(name="roll", description="Roll")
    async def throw(interaction: discord.Interaction, set_aside: str | None = None) -> None: ...

    rolls = app_commands.Group(name="rolls", description="Rolls")

    @rolls.command(name="save", description="Save")
    async def save(interaction: discord.Interaction, name: str, expression: str) -> None: ...

    @app_commands.command(name="roll", description="Roll")
    async def roll(interaction: discord.Interaction, expression: str) -> None: ...

    return [sushizock, rolls, roll]


@pytest.fixture
def registered(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot's registry holds these commands (and no bot's that ran before this test)."""
    for name in ("runnable", "groups", "ids"):
        monkeypatch.setattr(SLASH_COMMANDS, name, getattr(SLASH_COMMANDS, name))
    SLASH_COMMANDS.learn(_tree())
    SLASH_COMMANDS.ids = {"sushizock": SUSHIZOCK, "rolls": ROLLS, "roll": ROLL}


def _raw(key: str, language: str, **params: object) -> str:
    """The template filled in the language's digits, without its commands named or its lines marked."""
    return i18n._fill(catalog(language)[key], params, language, i18n.numbering_system(language), False)


@pytest.mark.parametrize("language", ["de", "es", "fa"])
def test_a_command_alone_becomes_its_mention_and_nothing_else_changes(registered: None, language: str):
    said = t("lobby.text", language, min=2, max=5, group="sushizock")
    raw = _raw("lobby.text", language, min=2, max=5, group="sushizock")
    assert plain(said) == plain(raw).replace("`/sushizock join`", f"</sushizock join:{SUSHIZOCK}>")


def test_english_texts_keep_the_commands_as_an_english_client_shows_them(registered: None):
    assert "`/sushizock join`" in t("lobby.text", "en", min=2, max=5, group="sushizock")


def test_without_its_id_a_command_stays_code_in_the_readers_words(registered: None):
    SLASH_COMMANDS.ids = {}
    assert "`/sushizock beitreten`" in t("lobby.text", "de", min=2, max=5, group="sushizock")
    assert "`/sushizock unirse`" in t("lobby.text", "es", min=2, max=5, group="sushizock")
    assert "`/sushizock join`" in t("lobby.text", "fa", min=2, max=5, group="sushizock")


def test_a_command_the_bot_does_not_have_is_left_as_it_is(registered: None):
    said = t("table.busy", "de", game="Tiny", group="tiny")
    assert said == _raw("table.busy", "de", game="Tiny", group="tiny")
    assert "`/tiny cancel`" in said


@pytest.mark.parametrize(
    ("language", "named"),
    [
        ("de", "`/sushizock würfeln beiseitelegen:1 3`"),
        ("es", "`/sushizock tirar apartar:1 3`"),
        ("fa", "`/sushizock roll set_aside:1 3`"),  # Persian readers' clients show English names
    ],
)
def test_a_command_with_options_names_them_as_the_client_does_and_keeps_the_values(
    registered: None, language: str, named: str
):
    said = t("sushizock.rules.text", language)
    assert named in said
    expected = _raw("sushizock.rules.text", language).replace("`/sushizock roll set_aside:1 3`", named)
    assert plain(said) == plain(expected)


def test_several_options_and_a_plain_argument_keep_what_the_player_types(registered: None):
    assert "`/würfe speichern name:feuerball ausdruck:8d6`" in t("roll.help.text", "de")
    assert "`/tiradas guardar nombre:bolafuego expresión:8d6`" in t("roll.help.text", "es")
    assert "`/würfeln 2d6+3`" in t("roll.help.text", "de")  # the expression is the player's, not a word
    assert "`/r`" in t("roll.help.text", "de")  # not registered here: left alone
    assert f"</roll:{ROLL}>" in t("roll.error.gone", "de")


async def test_a_bot_that_cannot_fetch_its_commands_says_so_once_and_starts(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
):
    bot = create_bot(Settings(token="unused"))

    async def unavailable(**kwargs: object) -> list[app_commands.AppCommand]:
        response = SimpleNamespace(status=503, reason="Service Unavailable")
        raise discord.HTTPException(response, "down")  # type: ignore[arg-type]

    monkeypatch.setattr(bot.tree, "fetch_commands", unavailable)
    with caplog.at_level(logging.WARNING):
        assert await bot._registered_commands() is None  # texts keep their commands as code
    assert [record.levelname for record in caplog.records] == ["WARNING"]
