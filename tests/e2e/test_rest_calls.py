"""What a click costs in requests to Discord: a pick is its answer and one board edit, which waits
for the next pick (one edit shows both); a board drawn as it already shows is not sent again; an idle
table leaves memory and comes back without a needless edit, DM or ping; a Kaiten click is
acknowledged at once and its picture follows in one edit."""

from __future__ import annotations

import sys
from typing import Any

import discord
import pytest

from rules.registry import GAMES
from tests.e2e.helpers import Player, Table, heading_of, picture_urls, play_a_move, selects, text_of
from tests.games import extensions as game_extensions
from tests.games import group, kit

pytestmark = pytest.mark.seed(7)  # every new game's seed

NAMES = ["alice", "bob"]


@pytest.fixture
def extensions() -> tuple[str, ...]:
    return ("cogs.tables", *game_extensions())


def calls(env: Any, since: int, table: Table) -> list[str]:
    """The bot's requests since request number `since`, named by what they touch."""
    board = table.board.id
    dms = {table.member(name).user.dm_channel.id: name for name in table.players}
    named = []
    for request in env.http_requests[since:]:
        parts = request.path.strip("/").split("/")
        if parts[0] == "interactions":
            named.append(f"answer {(request.json or {}).get('type', 'with files')}")
        elif parts[0] == "channels" and int(parts[1]) in dms:
            named.append(f"{request.method} DM {dms[int(parts[1])]}")
        elif parts[0] == "channels" and len(parts) > 3 and int(parts[3]) == board:
            named.append(f"{request.method} board")
        else:
            named.append(f"{request.method} {parts[0]}")
    return named


def brisk(table: Table, monkeypatch: pytest.MonkeyPatch, seconds: float) -> None:
    """Sushi Go!'s board waits `seconds` after a pick that reveals nothing (`pick_gather`)."""
    monkeypatch.setattr(type(table.tables.games["sushigo"]), "pick_gather", seconds)


async def pick(table: Table, name: str) -> None:
    dm = table.dm(name)
    assert dm is not None
    menu = selects(dm)[0]
    table.did(name, f"picks “{menu.options[0].label}” in their DM")
    result = await table.players[name].user.select(dm, [menu.options[0].value], custom_id=menu.custom_id)
    assert result.acknowledged and not result.ephemeral


async def sushigo(env: Any) -> Table:
    await env.bot.tree.sync()
    table = Table(env, "sushigo", NAMES)
    await table.seat_everyone()
    return table


async def test_a_pick_is_its_answer_and_one_board_edit_once_the_wait_is_over(simcord_env: Any) -> None:
    env = simcord_env
    table = await sushigo(env)
    before = len(env.http_requests)
    await pick(table, "alice")
    assert calls(env, before, table) == ["answer 7"]  # 7: the DM edited in the answer
    assert "✅ **alice**" not in text_of(table.board)  # the board waits for bob's pick
    await env.advance_time(table.tables.games["sushigo"].pick_gather)  # he is slower
    assert calls(env, before, table) == ["answer 7", "PATCH board"]
    board = text_of(table.board)
    bob = ("bob", f"<@{table.member('bob').id}>")  # who still picks may be mentioned: their name lights up
    assert "✅ **alice**" in board and any(f"⏳ **{name}**" in board for name in bob)


async def test_picks_made_within_the_wait_cost_one_board_edit(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pick that reveals nothing waits for the next pick (`pick_gather`): at a table picking
    briskly a turn of two picks costs four requests, two per click."""
    env = simcord_env
    table = await sushigo(env)
    brisk(table, monkeypatch, 600.0)  # longer than this test: bob is in time
    before = len(env.http_requests)
    await pick(table, "alice")
    assert calls(env, before, table) == ["answer 7"]
    await pick(table, "bob")  # the reveal: at once, with the hand passed to alice
    assert sorted(calls(env, before, table)) == ["PATCH DM alice", "PATCH board", "answer 7", "answer 7"]
    assert "turn 2" in heading_of(table.board)
    # The answers ask for nothing back (`with_response`): discord.py has no message to read and build.
    answers = [request for request in env.http_requests[before:] if request.path.endswith("/callback")]
    assert len(answers) == 2 and not any("with_response" in request.params for request in answers)


async def test_a_press_reaches_its_table_without_a_message_or_a_view_built(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A press on a table's component goes straight from the gateway to the table: discord.py builds
    no Message of the clicked card and no view of it (what the press means is in its custom_id)."""
    env = simcord_env
    table = await sushigo(env)
    built: list[str] = []
    for kind in (discord.ui.View, discord.ui.LayoutView):
        monkeypatch.setattr(kind, "from_message", classmethod(lambda cls, *a, **k: built.append("view")))
    real_message = discord.Message.__init__

    def message(self: Any, *args: Any, **kwargs: Any) -> None:
        # What the test reads (simcord's DM history) builds messages too: only the bot's are counted.
        if "simcord" not in sys._getframe(1).f_code.co_filename:
            built.append("message")
        real_message(self, *args, **kwargs)

    monkeypatch.setattr(discord.Message, "__init__", message)
    await pick(table, "alice")
    await pick(table, "bob")  # the reveal: the board and both DMs change
    assert built == []
    assert "turn 2" in heading_of(table.board)


async def test_a_board_drawn_as_it_shows_is_not_sent_again(simcord_env: Any) -> None:
    env = simcord_env
    table = await sushigo(env)
    tables = table.tables
    tables.publisher._channels[table.channel.id].published_version = -1  # as if unsure what it shows
    before = len(env.http_requests)
    tables.refresh_board(table.channel.id)
    await env.settle()
    assert calls(env, before, table) == []


async def test_an_idle_table_leaves_memory_and_comes_back_without_a_needless_request(
    simcord_env: Any,
) -> None:
    env = simcord_env
    table = await sushigo(env)
    tables = table.tables
    assert tables.evict_idle(idle=0) == [table.channel.id]
    assert table.channel.id not in tables.cache.loaded

    before = len(env.http_requests)
    await pick(table, "alice")  # the table is read again: no board re-sync, no DM, no ping
    await env.advance_time(table.tables.games["sushigo"].pick_gather)
    assert calls(env, before, table) == ["answer 7", "PATCH board"]

    tables.evict_idle(idle=0)
    before = len(env.http_requests)
    await env.advance_time(301)  # bob's turn time runs out while the table is out of memory
    assert "PATCH board" in calls(env, before, table)
    assert f"<@{table.member('bob').id}> took too long" in table.public_text()
    dm = table.dm("alice")
    assert dm is not None and "turn 2" in heading_of(dm)  # the turn went on


async def test_a_kaiten_click_is_acknowledged_first_and_its_picture_follows(simcord_env: Any) -> None:
    env = simcord_env
    await env.bot.tree.sync()
    table = Table(env, "kaiten", NAMES)
    await table.open(dexterity="off")
    await table.join("bob")
    before = len(env.http_requests)
    await table.start()
    made = calls(env, before, table)
    assert made[:2] == ["answer 6", "PATCH board"]  # 6: a deferred update, before any picture is drawn
    assert made.count("PATCH board") == 1
    board = table.board
    assert [attachment.filename for attachment in board.attachments] == ["board.png"]
    assert picture_urls(board) == [board.attachments[0].url]  # the card shows the picture it carries


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_a_whole_game_costs_at_most_its_calls_per_click(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch, game: str
) -> None:
    """Every request the bot makes from the start to the results, over the moves the players made,
    within the budget the game's testkit gives (`calls_per_click`; a real-time game has none)."""
    budget = kit(game).calls_per_click
    if budget is None:
        pytest.skip(f"{game} is played in real time: its own bench measures its clicks")
    env = simcord_env
    await env.bot.tree.sync()
    table = Table(env, group(game), NAMES)
    await table.seat_everyone(**kit(game).options)
    players = {seat: Player(table, name) for seat, name in enumerate(table.players)}
    moves = 0
    play = Player.play

    async def counted(self: Player, game_id: str, action: Any) -> bool:
        nonlocal moves
        moves += 1
        return await play(self, game_id, action)

    monkeypatch.setattr(Player, "play", counted)
    if game == "sushigo":  # everyone plays briskly: a pick is followed by the next within the wait
        brisk(table, monkeypatch, 600.0)
    before = len(env.http_requests)
    while (ctx := await table.live()) is not None:
        await play_a_move(players, ctx)
    spent = len(env.http_requests) - before
    print(f"{game}: {spent} requests for {moves} moves, {spent / moves:.2f} a click")
    assert moves and spent / moves <= budget, f"{spent} requests for {moves} moves"
