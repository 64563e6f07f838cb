"""One rematch per finished table (issue 47): two players of a finished Rock the Bock game press Rematch
at the same moment; one rematch opens (one thread, one line in the channel), the other press is told
where it is. After the rematch is cancelled, Rematch on the old results opens nothing more: a finished
game gets one rematch, and the press is told that it was called off (and where), and how to play again.

Two presses at once: simcord runs one operation at a time, so both go through `fuzz.crossed` (simcord's
own component dispatch), started together: both interactions reach the bot before either is answered."""

from __future__ import annotations

import asyncio
from typing import Any

import discord
import pytest

from cogs.kit.words.bidi import plain
from tests.e2e.fuzz import crossed
from tests.e2e.helpers import Player, Table, buttons, components, payload, play_to_the_end, text_of

SEED = 424242
pytestmark = pytest.mark.seed(SEED)  # every new game's seed


@pytest.fixture
def extensions() -> tuple[str, ...]:
    return ("cogs.tables", "cogs.games.rockthebock.cog")


def said(result: Any) -> str:
    """Everything the presser was told: the answer and its follow-ups."""
    parts = [result.response, *result.followups]
    return "\n".join(plain(text_of(part)) for part in parts if part is not None)


def lines(table: Table) -> list[Any]:
    """The table lines of the text channel (not Discord's notes of a thread started)."""
    return [
        message
        for message in table.parent.history(viewer=table.spectator)
        if message.type is not discord.MessageType.thread_created
    ]


async def test_two_rematch_presses_at_once_open_one_table_and_a_cancelled_one_opens_no_other(
    simcord_env: Any,
) -> None:
    env = simcord_env
    await env.bot.tree.sync()
    table = Table(env, "bock", ["botan", "ayumi"])
    await table.seat_everyone()
    await play_to_the_end(table, {seat: Player(table, name) for seat, name in enumerate(table.players)})
    old = table.channel
    results = next(message for message in reversed(table.public_messages()) if components(message))
    rematch = next(item for item in buttons(results) if payload(item) == "t:rematch")
    stored = env.backend.get_message(old.id, results.id)
    data = {"custom_id": rematch.custom_id, "component_type": 2}
    threads = {thread.id for thread in table.parent.threads}
    before = lines(table)
    tables = len(await table.tables.store.every_table())

    table.did("botan and ayumi", "click “Rematch” at the same moment")
    first, second = await asyncio.gather(
        crossed(table.member("botan"), stored, data), crossed(table.member("ayumi"), stored, data)
    )

    new = [thread for thread in table.parent.threads if thread.id not in threads]
    assert len(new) == 1, "one rematch, one thread"
    where = f"<#{new[0].id}>"
    assert len(lines(table)) == len(before) + 1  # one line in the channel
    assert len(await table.tables.store.every_table()) == tables + 1
    opener, other = (first, second) if "already has its rematch" in said(second) else (second, first)
    assert where in said(opener) and where in said(other)  # the opener is pointed on, the other told
    assert other.ephemeral and "already has its rematch" in said(other)
    host = "botan" if opener is first else "ayumi"
    lobby = await table.tables.store.last_table(new[0].id)
    assert lobby is not None and lobby.status == "lobby" and lobby.host_id == table.member(host).id

    # Once more, by the opener: told where the rematch is; nothing opens.
    table.did(host, "clicks “Rematch” again")
    again = await table.member(host).click(results, custom_id=rematch.custom_id)
    assert again.ephemeral and where in said(again) and "already has its rematch" in said(again)

    # The rematch is cancelled; Rematch on the old results still opens no other table.
    table.did(host, "runs /bock cancel in the rematch's thread")
    await table.member(host).slash(new[0], "bock cancel")
    cancelled = await table.tables.store.last_table(new[0].id)
    assert cancelled is not None and cancelled.status == "cancelled"
    for name in ("botan", "ayumi"):
        table.did(name, "clicks “Rematch” after the rematch was cancelled")
        late = await table.member(name).click(results, custom_id=rematch.custom_id)
        assert late.ephemeral and where in said(late) and "called off" in said(late)
        assert "/bock new" in said(late)
    assert [thread.id for thread in table.parent.threads if thread.id not in threads] == [new[0].id]
    assert len(lines(table)) == len(before) + 1
    assert len(await table.tables.store.every_table()) == tables + 1
