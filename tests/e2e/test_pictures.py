"""Pictures at the table: a server that chooses them sees Sushi Go!'s tableaux and Rock the Bock's sheets
drawn on the board and every final scoring drawn on the results card, in place of the lines they show;
a table keeps what it opened with; a click on a pictured board is acknowledged first; text stays the
default."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from tests.e2e.helpers import (
    Player,
    Table,
    body_lines,
    heading_of,
    labels,
    picture_urls,
    play_a_move,
    play_to_the_end,
    text_of,
)
from tests.games import group

BOARD_PICTURES = {"sushigo": "sushigo.png", "rockthebock": "rockthebock.png"}
RESULTS_PICTURES = {
    "sushigo": "sushigo-scores.png",
    "rockthebock": "rockthebock-sheets.png",
    "sushizock": "sushizock-piles.png",
}


@pytest.fixture
def extensions() -> tuple[str, ...]:
    return (
        "cogs.tables",
        "cogs.games.sushigo.cog",
        "cogs.games.rockthebock.cog",
        "cogs.games.sushizock.cog",
        "cogs.preferences.settings",
    )


def files(message: Any) -> list[str]:
    return [url.rsplit("/", 1)[-1] for url in picture_urls(message)]


async def pictures_on(table: Table, on: bool = True) -> None:
    admins = table.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = table.guild.add_member(table.env.create_user("admin"), roles=[admins])
    said = await admin.slash(table.channel, "settings pictures", on=on)
    assert said.ephemeral and ("as pictures" if on else "as text") in text_of(said.response)


def results_card(table: Table) -> discord.Message:
    return next(m for m in reversed(table.public_messages()) if "final result" in heading_of(m))


@pytest.mark.parametrize("game_id", sorted(RESULTS_PICTURES))
async def test_a_game_drawn_in_pictures_from_its_first_board_to_its_results(simcord_env: Any, game_id: str):
    env = simcord_env
    names = ["alice", "bob"]
    table = Table(env, group(game_id), names)
    await pictures_on(table)
    await table.seat_everyone()
    board = table.board
    if game_id in BOARD_PICTURES:
        assert files(board) == [BOARD_PICTURES[game_id]]
        assert len(body_lines(board)) <= 5  # what the picture shows is not written out again
    else:
        assert files(board) == []  # Sushizock's board reads well as text
    await play_to_the_end(table, {seat: Player(table, name) for seat, name in enumerate(names)})
    results = results_card(table)
    assert files(results) == [RESULTS_PICTURES[game_id]]
    assert "🥇" in text_of(results) and "Rematch" in labels(results)[0]


async def test_text_stays_the_default_and_an_open_table_keeps_what_it_opened_with(simcord_env: Any):
    env = simcord_env
    table = Table(env, "sushigo", ["alice", "bob"])
    await table.seat_everyone()
    assert files(table.board) == []  # text by default
    await pictures_on(table)  # chosen while the table plays: it keeps its text
    await play_a_move(
        {seat: Player(table, name) for seat, name in enumerate(["alice", "bob"])}, await table.live()
    )
    assert files(table.board) == []
