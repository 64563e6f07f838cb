"""Every table message is one Components V2 card, within its limits at the largest tables, and a
board posted before the cards keeps working and becomes one.

The payload limits themselves are checked on every request of every end-to-end test
(`conftest._over_the_limits`); here the tables are as large and their names as long as Discord allows.
"""

from __future__ import annotations

from typing import Any

import discord
import pytest

from cogs.kit import limits
from cogs.tables.slots import BOARD
from rules.registry import GAMES
from tests.e2e.helpers import Player, Table, buttons, payload, play_a_move, text_of
from tests.e2e.languages import admin_sets_language
from tests.games import group, kit

LONG = ["Ｗ" * 32, "b" * 32, "کاربری با نامی بسیار بلند و فارسی", "d" * 31 + "!", "e" * 32, "f" * 32]


def is_card(message: Any) -> bool:
    """One container, the card flag, and nothing beside it."""
    top = list(message.components)
    return (
        bool(message.flags.value & limits.COMPONENTS_V2)
        and not message.content
        and not message.embeds
        and len(top) == 1
        and isinstance(top[0], discord.Container)
    )


@pytest.mark.parametrize("language", ["en", "fa"])
@pytest.mark.parametrize("game", [game for game in GAMES if not kit(game).real_time])
async def test_the_largest_table_with_the_longest_names_is_all_cards(
    simcord_env: Any, game: str, language: str
) -> None:
    env = simcord_env
    names = [name[:32] for name in LONG[: GAMES[game].max_players]]
    table = Table(env, group(game), names)
    await env.bot.tree.sync()
    await admin_sets_language(table, language)
    await table.open(**kit(game).options)
    assert is_card(table.board)
    await table.join(*names[1:])
    await table.start()
    players = {seat: Player(table, name) for seat, name in enumerate(names)}
    for _ in range(8):
        ctx = await table.live()
        if ctx is None:
            break
        assert is_card(table.board), text_of(table.board)
        await play_a_move(players, ctx)
    for message in table.public_messages():
        if message.author.bot and message.components:
            assert is_card(message), text_of(message)
    for name in names:
        dm = table.dm(name)
        if dm is not None:
            assert is_card(dm), text_of(dm)


async def test_a_board_posted_before_the_cards_routes_its_buttons_and_becomes_a_card(
    simcord_env: Any,
) -> None:
    """The board of a table as the bot posted it before the upgrade (content, an embed, rows of
    buttons): its buttons still route by their custom_id, and the click's answer makes it a card."""
    env = simcord_env
    table = Table(env, group("sushizock"), ["alice", "bob"])
    await env.bot.tree.sync()
    await table.seat_everyone(**kit("sushizock").options)
    card = table.board
    old = discord.ui.View(timeout=None)
    for found in buttons(card):
        old.add_item(discord.ui.Button(label=found.label, custom_id=found.custom_id, style=found.style))
    embed = discord.Embed(title="Sushizock im Gockelwok", description=text_of(card))
    classic = await env.bot.get_partial_messageable(table.channel.id).send(
        content="alice's turn", embed=embed, view=old
    )
    live = await table.live()
    await table.tables.pipeline.slots.set(live.record.id, BOARD, classic.id)
    before = next(message for message in table.public_messages() if message.id == classic.id)
    assert not is_card(before) and before.embeds
    roll = next(item for item in buttons(before) if payload(item).startswith("a:"))
    result = await table.member("alice").click(before, custom_id=roll.custom_id)
    assert result.acknowledged
    after = next(message for message in table.public_messages() if message.id == classic.id)
    assert is_card(after), text_of(after)
    assert (await table.live()).version == live.version + 1  # the click was a move, and it counted
