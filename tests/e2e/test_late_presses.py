"""Presses that crossed the bot's own edit (issue 47): Discord sends a component interaction with its
message as it is when the interaction is made, which may already be the edited one, without the pressed
control. discord.py drops such a press of a DynamicItem; the bot answers it all the same, once, within
Discord's 3 s, as the table judges it (the checks: `tests/e2e/fuzz.py`'s `Checker`).

simcord clicks only what a message shows now, so a press of a control that is gone goes through
`fuzz.crossed`: simcord's own component dispatch, with the message as it is now."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import discord
import pytest
from simcord.components import walk_components

from cogs.kit.words.bidi import plain
from rules.registry import GAMES
from tests.e2e.chaos import error_records
from tests.e2e.fuzz import Checker, crossed
from tests.e2e.helpers import Player, Table, buttons, payload, play_a_move, text_of
from tests.games import extensions as game_extensions
from tests.games import kit

CHOPSTICKS = "🥢"

# Kaiten's chopsticks windows are 2 s and more (strict): a settle timeout under them leaves the
# challenge's timer parked until the test moves the clock (as tests/e2e/test_kaiten.py does).
pytestmark = [pytest.mark.simcord(settle_timeout=1.5), pytest.mark.seed(3)]


@pytest.fixture
def extensions() -> tuple[str, ...]:
    return ("cogs.tables", *game_extensions())


@pytest.fixture
async def checker(simcord_env: Any) -> AsyncIterator[Checker]:
    await simcord_env.bot.tree.sync()
    with error_records() as errors:
        yield Checker(simcord_env, errors)


def controls(stored: Any) -> dict[str, int]:
    """custom_id -> component type of every control a stored message shows."""
    return {
        component["custom_id"]: component["type"]
        for component in walk_components(stored.components)
        if component.get("custom_id")
    }


def now_of(table: Table, message: Any) -> Any:
    """The stored message as it is now (after the bot's edits), as the next interaction carries it."""
    channel_id = message.channel.id if isinstance(message, discord.Message) else message.channel_id
    return table.env.backend.get_message(channel_id, message.id)


async def press_gone(
    checker: Checker, table: Table, name: str, message: Any, custom_id: str, kind: int, *, dm: bool = False
) -> Any:
    """`name` presses `custom_id`, which `message` (in their DMs if `dm`) showed, arriving with `message`
    as it is now; checked."""
    stored = now_of(table, message)
    assert custom_id not in controls(stored), "the control is still shown: nothing crossed"
    data = {"custom_id": custom_id, "component_type": kind}
    member = table.member(name)
    return await checker.run(
        f"{name} presses {custom_id} on a message that no longer shows it",
        member.id,
        [table.channel.id],
        lambda: crossed(member.user if dm else member, stored, data),
    )


def answer(result: Any) -> str:
    assert result.ephemeral and result.response is not None, "a refusal, to the presser only"
    return plain(text_of(result.response))


async def test_a_chopsticks_press_that_crossed_the_time_out_is_answered(checker: Checker) -> None:
    env = checker.env
    table = Table(env, "kaiten", ["alice", "bob"])
    await table.seat_everyone(dexterity="strict")
    challenge = (await table.press("alice", "A1")).response
    assert challenge is not None and challenge.ephemeral
    target = next(b for b in buttons(challenge) if b.emoji is not None and b.emoji.name == CHOPSTICKS)
    await env.advance_time(9)  # the window closes: the sushi slips, the prompt loses its buttons
    assert "Too slow" in text_of(now_of(table, challenge)) and not controls(now_of(table, challenge))
    soy = [player["soy"] for player in (await table.view())["players"]]

    late = await press_gone(checker, table, "alice", challenge, str(target.custom_id), 2)

    assert "too late" in answer(late).lower() and "chopsticks" in answer(late)
    assert [player["soy"] for player in (await table.view())["players"]] == soy  # nothing else happened


async def test_a_kaiten_board_press_after_a_move_is_out_of_date_not_too_late(checker: Checker) -> None:
    """Only a chopsticks press is "too late, the chopsticks are down": an outdated press of a sushi on
    the board is the table's "that board is out of date"."""
    env = checker.env
    table = Table(env, "kaiten", ["alice", "bob"])
    await table.seat_everyone(dexterity="off")
    board = table.board
    cells = {custom: kind for custom, kind in controls(now_of(table, board)).items() if ":u:f:" in custom}
    assert cells, "the board offers sushi to fetch"
    await table.press("alice", "A1")  # fetched at once (dexterity off): the board moves on
    old = next(custom for custom in sorted(cells) if custom not in controls(now_of(table, board)))

    late = await press_gone(checker, table, "alice", board, old, cells[old])

    assert "out of date" in answer(late) and "chopsticks" not in answer(late)


@pytest.mark.parametrize("game_id", sorted(GAMES))
async def test_a_press_on_a_board_whose_controls_changed_is_answered(checker: Checker, game_id: str) -> None:
    env = checker.env
    group = next(cog.group for cog in checker.tables.games.values() if cog.game.id == game_id)
    table = Table(env, group, ["alice", "bob"])
    await table.open(**kit(game_id).options)
    await table.join("bob")

    # The lobby's Join, pressed by a newcomer as the game starts: the lobby's controls are gone.
    lobby = table.board
    join = next(
        custom for custom, kind in controls(now_of(table, lobby)).items() if custom.endswith(":t:join")
    )
    await table.start()
    joined = await press_gone(checker, table, "carol", lobby, join, 2)
    assert answer(joined)
    ctx = await table.live()
    assert ctx is not None and [seat.name for seat in ctx.record.seats] == ["alice", "bob"]

    # A move changes the controls of the board, or of a player's hand (in their DMs, where Sushi Go! is
    # played) or panel (where Sushi Dice is); a press of one of the old ones crossed it.
    players = {seat: Player(table, name) for seat, name in enumerate(("alice", "bob"))}
    if any(payload(item) == "t:hand" for item in buttons(table.board)):
        for player in players.values():
            await player.open_panel()
    shown = [(table.board, "alice", False)]
    shown += [(player.opened.response, player.name, False) for player in players.values() if player.opened]
    shown += [(dm, name, True) for name in ("alice", "bob") if (dm := table.dm(name)) is not None]
    before = [controls(now_of(table, message)) for message, _, _ in shown]
    for _ in range(6):  # Sushi Go!: a turn ends when everyone has picked
        ctx = await table.live()
        assert ctx is not None
        await play_a_move(players, ctx)
        gone = [
            (message, name, dm, custom, kind)
            for (message, name, dm), was in zip(shown, before, strict=True)
            for custom, kind in sorted(was.items())
            if custom not in controls(now_of(table, message))
        ]
        if gone:
            break
    else:
        raise AssertionError("no move changed the controls of a board or a panel")
    message, name, dm, custom_id, kind = gone[0]
    result = await press_gone(checker, table, name, message, custom_id, kind, dm=dm)
    assert result.response is not None
    if result.ephemeral and ":c:" not in custom_id:  # refused as outdated: no chopsticks were out
        assert "chopsticks" not in answer(result), answer(result)
