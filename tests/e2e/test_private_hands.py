"""Private hands are drawn and sent only for seats whose hand changed: another player's pick costs a
seat no DM edit; a new turn edits every hand once; a seat whose language changed is redrawn in it."""

from __future__ import annotations

from typing import Any

import pytest

from rules.sushigo.game import GAME
from tests.e2e.helpers import Table, action_value, heading_of, selects

pytestmark = pytest.mark.seed(7)  # every new game's seed

NAMES = ["alice", "bob", "carol"]


@pytest.fixture
def extensions() -> tuple[str, ...]:
    return ("cogs.tables", "cogs.games.sushigo.cog", "cogs.preferences.language")


def dm_edits(env: Any, table: Table, since: int) -> dict[str, int]:
    """Per player: how many times the bot edited or sent into their DM since request number `since`."""
    channels = {table.member(name).user.dm_channel.id: name for name in table.players}
    counts = dict.fromkeys(table.players, 0)
    for request in env.http_requests[since:]:
        parts = request.path.strip("/").split("/")
        if parts[0] == "channels" and int(parts[1]) in channels and request.method in ("PATCH", "POST"):
            counts[channels[int(parts[1])]] += 1
    return counts


def title(table: Table, name: str) -> str:
    dm = table.dm(name)
    assert dm is not None
    return heading_of(dm)


async def pick(table: Table, name: str) -> None:
    """The player keeps the first card their DM offers."""
    dm = table.dm(name)
    assert dm is not None
    menu = selects(dm)[0]
    table.did(name, f"picks “{menu.options[0].label}” in their DM")
    result = await table.players[name].user.select(dm, [menu.options[0].value], custom_id=menu.custom_id)
    assert result.acknowledged and not result.ephemeral


async def test_a_pick_edits_no_other_hand_and_a_new_turn_edits_each_once(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = simcord_env
    await env.bot.tree.sync()
    table = Table(env, "sushigo", NAMES)
    await table.seat_everyone()
    hands = {name: table.dm(name) for name in NAMES}
    assert all(hand is not None and selects(hand) for hand in hands.values())
    cog = table.tables.games["sushigo"]
    drawn: list[int] = []
    draw = cog.render_private
    monkeypatch.setattr(cog, "render_private", lambda ctx, seat: drawn.append(seat) or draw(ctx, seat))

    before = len(env.http_requests)
    await pick(table, "alice")
    await pick(table, "bob")
    # Their own DMs were answered through the click; carol's hand is as it was: nothing sent to her,
    # and nothing even drawn for her (nor again for a player whose DM the click answered).
    assert dm_edits(env, table, before) == {"alice": 0, "bob": 0, "carol": 0}
    assert sorted(drawn) == [0, 1]
    assert selects(table.dm("carol"))  # she still picks from the same message

    before = len(env.http_requests)
    await pick(table, "carol")  # the turn ends: every hand passes on
    assert dm_edits(env, table, before) == {"alice": 1, "bob": 1, "carol": 0}
    looked_up = [request for request in env.http_requests[before:] if request.path.startswith("/users")]
    assert not looked_up, "each DM channel is known from the first hand on"
    ctx = await table.live()
    for seat, name in enumerate(NAMES):  # each DM offers the hand passed on to the player, turn 2
        dm = table.dm(name)
        assert dm is not None and "turn 2" in heading_of(dm)
        offered = {option.value for option in selects(dm)[0].options}
        assert offered == {action_value(GAME.id, action) for action in GAME.legal_actions(ctx.state, seat)}


async def test_a_seat_whose_language_changed_gets_its_hand_in_it(simcord_env: Any) -> None:
    env = simcord_env
    await env.bot.tree.sync()
    table = Table(env, "sushigo", NAMES)
    await table.seat_everyone()
    assert "Your hand" in title(table, "carol")
    table.did("carol", "runs /language choose:de")
    await table.member("carol").slash(table.channel, "language", choose="de")

    before = len(env.http_requests)
    await pick(table, "alice")  # carol's hand did not change, but the words she reads did
    assert dm_edits(env, table, before)["carol"] == 1
    assert "Deine Hand" in title(table, "carol")
