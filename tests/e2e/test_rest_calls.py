"""What a click costs in requests to Discord: a pick is its answer and one board edit; a board drawn as
it already shows is not sent again; an idle table leaves memory and comes back without a needless
edit, DM or ping; a Kaiten click is acknowledged at once and its picture follows in one edit."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.helpers import Table, selects, text_of

NAMES = ["alice", "bob"]


@pytest.fixture
def extensions() -> tuple[str, ...]:
    return ("cogs.tables", "cogs.sushigo.cog", "cogs.kaiten.cog")


@pytest.fixture(autouse=True)
def fixed_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("secrets.randbits", lambda bits: 7)


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


async def test_a_pick_is_its_answer_and_one_board_edit(simcord_env: Any) -> None:
    env = simcord_env
    table = await sushigo(env)
    before = len(env.http_requests)
    await pick(table, "alice")
    assert calls(env, before, table) == ["answer 7", "PATCH board"]  # 7: the DM edited in the answer
    board = text_of(table.board)
    assert "✅ **alice**" in board and "⏳ **bob**" in board


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
    assert calls(env, before, table) == ["answer 7", "PATCH board"]

    tables.evict_idle(idle=0)
    before = len(env.http_requests)
    await env.advance_time(301)  # bob's turn time runs out while the table is out of memory
    assert "PATCH board" in calls(env, before, table)
    assert f"<@{table.member('bob').id}> took too long" in table.public_text()
    dm = table.dm("alice")
    assert dm is not None and "turn 2" in (dm.embeds[0].title or "")  # the turn went on


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
    assert board.embeds[0].image.url == "attachment://board.png"
    assert [attachment.filename for attachment in board.attachments] == ["board.png"]
