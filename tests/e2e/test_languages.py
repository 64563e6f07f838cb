"""A whole game through the bot in German and in Persian: no English line reaches those players.

The server's language (`/settings language`) is what the channel reads; `/language` is what one
player reads in private. simcord's interactions always say `en-US`, so every German or Persian
word here was chosen by the settings, as it must be for Persian (not a Discord locale).
"""

from __future__ import annotations

from typing import Any

import discord
import pytest

from cogs.kit.words.bidi import plain
from cogs.kit.words.catalogs import catalog
from rules.rockthebock.game import GAME, Roll
from tests.e2e.helpers import Table, action_value, body_lines, buttons, payload, text_of
from tests.e2e.languages import admin_sets_language, english_read, seat_everyone

SEED = 20240611
pytestmark = pytest.mark.seed(SEED)


@pytest.fixture
def extensions() -> tuple[str, ...]:
    return (
        "cogs.tables",
        "cogs.games.rockthebock.cog",
        "cogs.preferences.settings",
        "cogs.preferences.language",
    )


def action_button(message: discord.Message, action: Any) -> discord.Button:
    wanted = "a:" + action_value(GAME.id, action)
    found = [item for item in buttons(message) if payload(item) == wanted]
    assert len(found) == 1, f"no single button for {action}"
    return found[0]


async def play_to_the_end(table: Table, names: list[str]) -> None:
    """Every move by the board's buttons: roll, then the colour the table would choose."""
    for _ in range(500):
        ctx = await table.live()
        if ctx is None:
            return
        seat = ctx.public()["turn"]
        assert seat is not None
        player = table.member(names[seat])
        await player.click(table.board, custom_id=action_button(table.board, Roll()).custom_id)
        ctx = await table.live()
        if ctx is None or ctx.public()["throw"] is None:
            continue
        chosen = action_button(table.board, GAME.default_action(ctx.state, seat))
        await player.click(table.board, custom_id=chosen.custom_id)
    raise AssertionError("the game did not end")


def roll_id(table: Table) -> str:
    return action_button(table.board, Roll()).custom_id or ""


@pytest.mark.parametrize(
    ("language", "started", "result", "refused"),
    [
        ("de", "Deutsch", "Endergebnis", "Du bist nicht dran"),
        ("fa", "فارسی", "نتیجهٔ نهایی", "نوبت شما نیست"),
    ],
    ids=["de", "fa"],
)
async def test_a_whole_game_in_the_servers_language(
    simcord_env: Any, language: str, started: str, result: str, refused: str
):
    table = Table(simcord_env, "bock", ["alice", "bob"])
    await simcord_env.bot.tree.sync()
    set_now = await admin_sets_language(table, language)
    assert set_now.ephemeral and started in text_of(set_now.response)
    # bob also chooses the language for himself (the same one: nothing may come in English)
    table.did("bob", f"runs /language choose:{language}")
    chosen = await table.member("bob").slash(table.channel, "language", choose=language)
    assert chosen.ephemeral and started in text_of(chosen.response)
    await seat_everyone(table, language)
    # bob clicks out of turn: the refusal is private, in his language
    ctx = await table.live()
    assert ctx is not None and ctx.public()["turn"] == 0
    table.did("bob", "clicks Roll out of turn")
    out_of_turn = await table.member("bob").click(
        table.board, custom_id=action_button(table.board, Roll()).custom_id
    )
    assert out_of_turn.ephemeral and refused in text_of(out_of_turn.response)
    await play_to_the_end(table, ["alice", "bob"])
    assert result in table.public_text()
    assert english_read(simcord_env, language) == []


async def test_a_players_own_language_wins_in_private_and_the_table_keeps_the_servers(simcord_env: Any):
    table = Table(simcord_env, "bock", ["alice", "bob"])
    await simcord_env.bot.tree.sync()
    await admin_sets_language(table, "de")
    table.did("bob", "runs /language choose:fa")
    chosen = await table.member("bob").slash(table.channel, "language", choose="fa")
    assert "فارسی" in text_of(chosen.response)
    await seat_everyone(table, "de")
    table.did("bob", "clicks Roll out of turn")
    refused = await table.member("bob").click(
        table.board, custom_id=action_button(table.board, Roll()).custom_id
    )
    assert refused.ephemeral and text_of(refused.response) == plain(
        catalog("fa")["rockthebock.error.not_your_turn"]
    )
    # back to the server's language: the next refusal is German
    await table.member("bob").slash(table.channel, "language", choose="default")
    refused = await table.member("bob").click(
        table.board, custom_id=action_button(table.board, Roll()).custom_id
    )
    assert text_of(refused.response) == plain(catalog("de")["rockthebock.error.not_your_turn"])
    assert english_read(simcord_env, "de") == []


async def test_a_german_lobby_names_the_join_command_as_the_players_client_shows_it(simcord_env: Any):
    """The lobby's "`/bock join`" becomes the command's mention, which Discord draws clickable in
    each reader's own client language (German: "/bock beitreten") instead of an English command."""
    table = Table(simcord_env, "bock", ["alice", "bob"])
    await admin_sets_language(table, "de")
    await table.open()
    bock = next(command for command in await simcord_env.bot.tree.fetch_commands() if command.name == "bock")
    lobby = "\n".join(body_lines(table.board))
    assert "Beitreten" in lobby and f"</bock join:{bock.id}>" in lobby and "`/bock join`" not in lobby
