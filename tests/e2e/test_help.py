"""/help and /about through the bot: one private card each, in the reader's language, naming every
registered game's `new` command; /about's invite link built from the application id and README's
permissions, and the operator's links only when set."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from bot import EXTENSIONS
from cogs.help.about import PERMISSIONS, invite_url
from cogs.kit.version import VERSION
from tests.e2e.helpers import Table, buttons, text_of

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")


@pytest.fixture
def extensions() -> tuple[str, ...]:
    return EXTENSIONS


def test_the_invite_asks_for_the_permissions_readme_lists():
    assert f"(permissions integer `{PERMISSIONS}`)" in README
    assert re.sub(r"client_id=\d+", "client_id=YOUR_APPLICATION_ID", invite_url(42)) in README


@pytest.mark.parametrize("language", ["en", "de", "es", "fa"])
async def test_help_tells_a_newcomer_what_to_do_first(simcord_env, language: str):
    table = Table(simcord_env, "sushigo", ["alice"])
    alice = table.member("alice")
    await alice.slash(table.channel, "language", choose=language)
    shown = await alice.slash(table.channel, "help")
    assert shown.ephemeral
    text = text_of(shown.response)
    for group in ("sushigo", "sushizock", "bock", "sushidice", "kaiten"):
        assert f"/{group} new" in text or f"</{group} new:" in text, (group, text)
    assert ("/rules" in text or "</rules:" in text) and ("/roll" in text or "</roll:" in text)
    if language == "en":
        assert "Open a table" in text and "`/leaderboard`" in text


async def test_about_says_the_version_servers_and_links(simcord_env, bot_factory):
    table = Table(simcord_env, "sushigo", ["alice"])
    alice = table.member("alice")
    shown = await alice.slash(table.channel, "about")
    assert shown.ephemeral
    text = text_of(shown.response)
    assert VERSION in text and "Servers:** 1" in text and "Running since" in text
    (invite,) = buttons(shown.response)  # no support, privacy or terms page set: none shown
    assert invite.url == invite_url(simcord_env.bot.application_id)

    bot = bot_factory()
    bot.settings = dataclasses.replace(
        bot.settings, privacy_url="https://example.org/privacy", terms_url="https://example.org/terms"
    )
    await simcord_env.restart_bot(bot)
    await simcord_env.bot.tree.sync()
    shown = await alice.slash(table.channel, "about")
    assert [button.url for button in buttons(shown.response)][1:] == [
        "https://example.org/privacy",
        "https://example.org/terms",
    ]
