"""Each game's own commands typed in the channel where the table's thread opened reach the player's
table, as README promises: the table machinery finds it the same way for every command (the channel's
own table, else the player's table in a thread of it), and judges the seat, the turn and the game's end
once, for clicks and commands alike (cogs/tables/guards.py). Autocompletes suggest from that table too.
"""

from __future__ import annotations

from typing import Any

import pytest

from cogs.kit.words.text import t
from rules.registry import GAMES
from tests.e2e.helpers import Table, text_of
from tests.games import extensions as game_extensions
from tests.games import group, kit

NAMES = ["alice", "bob"]
# What a command answers when it does not find the table: none of these may come back.
NOT_FOUND = ("table.none", "table.no_game", "table.not_started", "threads.which")


@pytest.fixture
def extensions() -> tuple[str, ...]:
    return ("cogs.tables", *game_extensions())


async def first_to_move(table: Table) -> str:
    """The name of a player who may move as the game starts."""
    ctx = await table.live()
    seat = min(ctx.game.to_move(ctx.live))
    user_id = ctx.record.seats[seat].user_id
    return next(name for name, member in table.players.items() if member.user.id == user_id)


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_a_games_own_command_typed_in_the_channel_reaches_the_players_table(
    simcord_env: Any, game: str
) -> None:
    typed = kit(game).typed
    if typed is None:
        pytest.skip(f"{game} has no command of its own at the start")
    command, option, moves = typed
    env = simcord_env
    await env.bot.tree.sync()
    table = Table(env, group(game), NAMES)
    await table.seat_everyone(**kit(game).options)
    assert table.channel is not table.parent, "the table is played in a thread of its own"
    name = await first_to_move(table)
    member = table.member(name)
    path = f"{table.group} {command}"
    options: dict[str, Any] = {}
    if option is not None:
        table.did(name, f"types /{path} {option}: in the channel, and reads the suggestions")
        choices = await member.autocomplete(table.parent, path, option, "")
        assert choices, f"/{path} {option}: suggests nothing in the channel"
        options[option] = choices[0]["value"]
    before = (await table.live()).version
    table.did(name, f"runs /{path} in the channel where the table's thread opened")
    answer = await member.slash(table.parent, path, **options)
    words = text_of(answer.response) if answer.response is not None else ""
    for key in NOT_FOUND:
        assert t(key).split("{")[0].strip() not in words, f"/{path} in the channel: {words!r}"
    ctx = await table.live()
    if moves:
        assert ctx is None or ctx.version > before, f"/{path} in the channel made no move: {words!r}"
    else:
        assert words, f"/{path} in the channel was not answered"
