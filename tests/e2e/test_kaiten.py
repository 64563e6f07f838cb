"""Kaiten Sushi end to end: the real bot against simcord — the board picture, the chopsticks challenge
(pressed in time, missed by a time-out, a wrong button), wasabi, refills, slash commands, computer seats."""

from __future__ import annotations

import io
from typing import Any

import discord
import pytest
from PIL import Image

from tests.e2e.helpers import Table, buttons, label_starting, labels, text_of

SEED = 3
CHOPSTICKS = "🥢"

# simcord waits out (in real time) any sleep shorter than its settle timeout, 5 s by default, as work
# still running; the chopsticks windows are 2 s and more (strict), so a shorter settle timeout leaves the
# challenge timer parked until the test presses a button or calls advance_time.
pytestmark = pytest.mark.simcord(settle_timeout=1.5)


@pytest.fixture
def extensions() -> tuple[str, ...]:
    return ("cogs.tables", "cogs.kaiten", "cogs.leaderboard")


@pytest.fixture(autouse=True)
def fixed_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    # The `secrets` module the table machinery draws seeds from (a path like "cogs.tables.lobby.secrets"
    # may not resolve once an earlier test's bot has reloaded the extension: discord.py does not re-attach
    # the submodule).
    monkeypatch.setattr("secrets.randbits", lambda bits: SEED)


# ---------------------------------------------------------------- helpers


def cell_name(cell: int) -> str:
    return "ABCDEF"[cell % 6] + str(cell // 6 + 1)


def emoji_names(message: Any) -> list[str | None]:
    """The emoji of each button, in order (the chopsticks row shows 🥢 on one of them)."""
    return [b.emoji.name if b.emoji else None for b in buttons(message)]


async def picture(message: discord.Message) -> Image.Image:
    """The board PNG attached to a message, decoded."""
    assert message.embeds[0].image.url == "attachment://board.png"
    files = [attachment for attachment in message.attachments if attachment.filename == "board.png"]
    assert len(files) == 1
    image = Image.open(io.BytesIO(await files[0].read()))
    image.load()
    return image


async def grab(env: Any, table: Table, name: str, cell: int, *, how: str = "press") -> Any:
    """Click a sushi on the board, then play the chopsticks: press them, wait, or press a wrong button."""
    result = await table.press(name, cell_name(cell) + " ·")
    return await chopsticks(env, table, name, result, how)


async def chopsticks(env: Any, table: Table, name: str, result: Any, how: str) -> Any:
    challenge = result.response
    assert challenge is not None and challenge.ephemeral, "the challenge is shown to the player only"
    assert "chopsticks" in challenge.content
    row = buttons(challenge)
    assert len(row) >= 3 and emoji_names(challenge).count(CHOPSTICKS) == 1
    if how == "wait":
        await env.advance_time(9)
        return result
    wrong = how == "wrong"
    chosen = next(b for b in row if ((b.emoji.name if b.emoji else None) == CHOPSTICKS) != wrong)
    return await table.member(name).click(challenge, custom_id=chosen.custom_id)


# ---------------------------------------------------------------- a whole game


@pytest.mark.simcord(settle_timeout=2.5)  # "normal" windows are 3 s or more
async def test_two_player_game_with_chopsticks_a_time_out_and_a_refill(simcord_env: Any) -> None:
    env = simcord_env
    table = Table(env, "kaiten", ["alice", "bob"])
    opened = await table.open(dexterity="normal")
    assert not opened.ephemeral
    assert "dexterity: **normal**" in text_of(table.board)
    await table.join("bob")
    await table.start()
    names = {0: "alice", 1: "bob"}

    board = table.board
    assert "Kaiten Sushi" in (board.embeds[0].title or "")
    assert "<@" in board.content and "your turn" in board.content
    assert "column A" in text_of(board)  # the sake starts on the first pine of the top side
    image = await picture(board)
    assert image.format == "PNG" and image.width > 600 and image.height > 400
    rice, _, ingredient = (await table.view())["board"][0].partition(":")
    colour = {"B": "black", "W": "white"}[rice]
    # The fetch buttons name the sushi.
    assert f"A1 · {ingredient} on {colour} rice" in labels(board, enabled_only=True)

    # Not bob's turn: a one-line refusal, nothing changes.
    refused = await table.press("bob", "A1 ·", board)
    assert refused.ephemeral and "isn't your turn" in refused.response.content

    # Turn 1: alice spends her wasabi from the board (picker, then a move), then fetches by slash.
    await table.click("alice", "Use wasabi")
    assert "where should the sake go" in text_of(table.board)
    await table.press("alice", "1 pine clockwise")
    assert "spent a wasabi" in text_of(table.board) and "column B" in text_of(table.board)
    assert "Use wasabi" not in labels(table.board, enabled_only=True)
    cell = (await table.view())["fetchable"][0]
    result = await table.slash("alice", "fetch", cell=cell_name(cell).lower())
    assert result.ephemeral
    pressed = await chopsticks(env, table, "alice", result, "press")
    assert "Got it" in pressed.response.content
    assert "fetched" in text_of(table.board) and "top left" in labels(table.board, enabled_only=True)
    placed = await table.slash("alice", "place", cell=0)
    assert placed.ephemeral and "You put the sushi on the top left of the plate" in placed.response.content

    fetches = refills = 0
    timed_out = None
    while True:
        ctx = await table.live()
        if ctx is None:
            break
        view = ctx.public()
        name = names[view["turn"]]
        if view["phase"] in ("wasabi_or_fetch", "fetch"):
            fetches += 1
            if fetches == 3:  # bob lets the chopsticks challenge time out
                assert name == "bob"
                timed_out = await grab(env, table, name, view["fetchable"][0], how="wait")
                assert "Too slow" in timed_out.response.content and not buttons(timed_out.response)
                text = text_of(table.board)
                assert "bob dropped" in text and "1 soy" in text
            else:
                await grab(env, table, name, view["fetchable"][0])
        elif view["phase"] == "place":
            await table.click(name, labels(table.board, enabled_only=True)[0])
        else:
            board = table.board
            near = cell_name(view["refill_cells"][0])
            assert "lays the next reserve pair" in text_of(board)
            far = cell_name(view["refill_cells"][1])
            black_nearer = label_starting(board, "⬛")  # each button says where both sushi go
            assert f" on {near}, ⬜" in black_nearer and black_nearer.endswith(f" on {far}")
            await table.press(name, "⬛")
            refills += 1
            assert "refilled" in text_of(table.board)
    assert timed_out is not None and refills >= 1

    messages = table.public_messages()
    results = [m for m in messages if m.embeds and "final result" in (m.embeds[0].title or "")]
    assert len(results) == 1
    assert all(f"<@{member.id}>" in text_of(results[0]) for member in table.players.values())
    ended = [m for m in messages if m.embeds and "every plate is full" in (m.embeds[0].title or "")]
    assert len(ended) == 1 and "Final:" in text_of(ended[0]) and not buttons(ended[0])
    await picture(ended[0])
    standings = await table.member("alice").slash(table.channel, "leaderboard")
    text = text_of(standings.response)
    for member in table.players.values():
        assert f"<@{member.id}>" in text


# ---------------------------------------------------------------- focused


async def test_dexterity_off_table_options_and_slash_commands(simcord_env: Any) -> None:
    env = simcord_env
    table = Table(env, "kaiten", ["alice", "bob"])
    nothing = await table.slash("alice", "fetch", cell="A1")
    assert nothing.ephemeral and "no game running here" in nothing.response.content
    await table.open(dexterity="off", arrangement="checkerboard")
    lobby = text_of(table.board)
    assert "dexterity: **off**" in lobby and "arrangement: **checkerboard**" in lobby
    await table.join("bob")
    await table.start()
    assert "Dexterity: off · rice: checkerboard" in text_of(table.board)

    typed = await table.member("alice").autocomplete(table.channel, "kaiten fetch", "cell", "")
    assert [choice["value"] for choice in typed] == ["A1", "A2", "A3", "A4", "A5", "A6"]
    for cell, words in (("Z9", "isn't a board cell"), ("B1", "B1 is not on the sake's line")):
        refused = await table.slash("alice", "fetch", cell=cell)
        assert refused.ephemeral and words in refused.response.content
    for name, words in (("bob", "isn't your turn"), ("carol", "not seated at this table")):
        refused = await table.slash(name, "fetch", cell="A1")
        assert refused.ephemeral and words in refused.response.content
    stranger = await table.slash("carol", "wasabi", direction=1, steps=1)
    assert stranger.ephemeral and "not seated at this table" in stranger.response.content
    early = await table.slash("alice", "place", cell=4)
    assert early.ephemeral and "doesn't fit this part of the turn" in early.response.content

    moved = await table.slash("alice", "wasabi", direction=-1, steps=2)
    assert moved.ephemeral and "spent a wasabi and moved the sake 2 pines back" in moved.response.content
    assert "points along **row 2**" in text_of(table.board)
    again = await table.slash("alice", "wasabi", direction=1, steps=1)
    assert "already spent a wasabi" in again.response.content

    # With the dexterity off a click on a sushi fetches it at once: no challenge.
    clicked = await table.press("alice", "A2 ·")
    assert clicked.response is None or not clicked.response.ephemeral
    board = table.board
    assert "alice fetched" in text_of(board) and "holds" in text_of(board)
    assert labels(board, enabled_only=True) == ["top left", "top right", "bottom left", "bottom right"]
    refused = await table.slash("alice", "place", cell=4)
    assert "first sushi goes in a corner" in refused.response.content
    placed = await table.slash("alice", "place", cell=8)
    assert "bottom right" in placed.response.content
    assert "bob" in table.board.content or "<@" in table.board.content
    await picture(table.board)


async def test_wrong_button_time_out_and_the_same_chopsticks_after_a_restart(
    simcord_env: Any, bot_factory: Any
) -> None:
    env = simcord_env
    table = Table(env, "kaiten", ["alice", "bob"])
    await table.open(dexterity="strict")
    await table.join("bob")
    await table.start()

    # alice: the chopsticks are out; another sushi can't be clicked meanwhile; then a wrong button.
    result = await table.press("alice", "A1 ·")
    busy = await table.press("alice", "A2 ·")
    assert busy.ephemeral and "already out" in busy.response.content
    assert (await table.slash("alice", "wasabi", direction=1, steps=1)).response.content.startswith(
        "Your chop"
    )
    assert len(buttons(result.response)) == 5  # strict: five buttons
    wrong = await chopsticks(env, table, "alice", result, "wrong")
    assert "Wrong button" in wrong.response.content
    assert "alice dropped" in text_of(table.board) and "1 soy" in text_of(table.board)

    # bob: nothing pressed; after the window the sushi slips, and the row of buttons is gone.
    result = await table.press("bob", "A1 ·")
    await env.advance_time(9)
    assert "Too slow" in result.response.content and not buttons(result.response)
    assert [player["soy"] for player in (await table.view())["players"]] == [1, 1]

    # alice again: the bot restarts while her chopsticks are out; the same cell shows the same challenge.
    first = await table.press("alice", "A1 ·")
    target = emoji_names(first.response).index(CHOPSTICKS)
    board = table.board
    await env.restart_bot(bot_factory())
    second = await table.press("alice", "A1 ·", board)
    assert emoji_names(second.response).index(CHOPSTICKS) == target
    caught = await chopsticks(env, table, "alice", second, "press")
    assert "Got it" in caught.response.content


@pytest.mark.simcord(settle_timeout=10)  # no challenge here; the whole game is played in one go
async def test_computer_players_fetch_by_chance_and_finish_the_game(simcord_env: Any) -> None:
    env = simcord_env
    table = Table(env, "kaiten", ["alice", "bob"])
    await table.open(dexterity="normal")
    await table.join("bob")
    await table.start()
    for _ in range(6):  # three time-outs each, and computer players take both seats
        await env.advance_time(301)
    messages = table.public_messages()
    assert any(m.embeds and "final result" in (m.embeds[0].title or "") for m in messages)
    ended = next(m for m in messages if m.embeds and "every plate is full" in (m.embeds[0].title or ""))
    assert "Final:" in text_of(ended) and "🤖 alice" in text_of(ended)
