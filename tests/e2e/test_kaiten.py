"""Kaiten Sushi end to end: the real bot against simcord — the board picture, the chopsticks challenge
(pressed in time, missed by a time-out, a wrong button), wasabi, refills, the ginger choice, slash
commands, computer seats, the results explained line by line.

Rigging a plate: where a test needs a particular plate, `rig()` rewrites the live game state (the
same `TableRecord` the table caches) and saves it through the table's `TableStore` as a new version,
exactly what an action does, then re-posts the board with `/kaiten status`."""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from typing import Any

import discord
import pytest
from PIL import Image

from cogs.games.kaiten.picture import DUE
from cogs.kit.words.bidi import plain
from rules.kaiten.state import KaitenState
from tests.e2e.helpers import (
    Table,
    body_lines,
    buttons,
    heading_of,
    label_starting,
    labels,
    part_texts,
    picture_urls,
)
from tests.e2e.helpers import text_of as shown

SEED = 3
CHOPSTICKS = "🥢"

# simcord waits out (in real time) any sleep shorter than its settle timeout, 5 s by default, as work
# still running; the chopsticks windows are 2 s and more (strict), so a shorter settle timeout leaves the
# challenge timer parked until the test presses a button or calls advance_time.
pytestmark = [pytest.mark.simcord(settle_timeout=1.5), pytest.mark.seed(SEED)]


def text_of(message: Any) -> str:
    """A message's text as a player reads it (names come isolated; the controls are not read)."""
    return plain(shown(message))


@pytest.fixture
def extensions() -> tuple[str, ...]:
    return ("cogs.tables", "cogs.games.kaiten.cog", "cogs.stats.leaderboard")


# ---------------------------------------------------------------- helpers


def headline(message: Any) -> str:
    """The line under a card's heading: whose turn it is and what they may do."""
    lines = body_lines(message)
    return lines[0] if lines else ""


def cell_name(cell: int) -> str:
    return "ABCDEF"[cell % 6] + str(cell // 6 + 1)


def emoji_names(message: Any) -> list[str | None]:
    """The emoji of each button, in order (the chopsticks row shows 🥢 on one of them)."""
    return [b.emoji.name if b.emoji else None for b in buttons(message)]


async def picture(message: discord.Message) -> Image.Image:
    """The board PNG attached to a message, decoded."""
    files = [attachment for attachment in message.attachments if attachment.filename == "board.png"]
    assert len(files) == 1 and picture_urls(message) == [files[0].url]  # the card shows the attachment
    image = Image.open(io.BytesIO(await files[0].read()))
    image.load()
    return image


def shows(image: Image.Image, colour: tuple[int, int, int]) -> bool:
    """Whether the picture has any pixel of exactly this colour."""
    return any(found == colour for _, found in image.convert("RGB").getcolors(1 << 20) or [])


async def grab(env: Any, table: Table, name: str, cell: int, *, how: str = "press") -> Any:
    """Click a sushi on the board, then play the chopsticks: press them, wait, or press a wrong button."""
    result = await table.press(name, cell_name(cell))
    return await chopsticks(env, table, name, result, how)


async def chopsticks(env: Any, table: Table, name: str, result: Any, how: str) -> Any:
    challenge = result.response
    assert challenge is not None and challenge.ephemeral, "the challenge is shown to the player only"
    assert "chopsticks" in text_of(challenge)
    row = buttons(challenge)
    assert len(row) >= 3 and emoji_names(challenge).count(CHOPSTICKS) == 1
    if how == "wait":
        await env.advance_time(9)
        return result
    wrong = how == "wrong"
    chosen = next(b for b in row if ((b.emoji.name if b.emoji else None) == CHOPSTICKS) != wrong)
    return await table.member(name).click(challenge, custom_id=chosen.custom_id)


def explained(results: discord.Message) -> dict[str, tuple[int, list[str]]]:
    """Per player (as the results name them: a mention, or a computer's name) in the results message:
    their score and the lines that explain it."""
    found: dict[str, tuple[int, list[str]]] = {}
    player: str | None = None
    for line in body_lines(results):
        head = re.search(r"\*\* (.+) — (−?\d+) points?$", line)
        if head:
            player = str(head[1])
            found[player] = (int(head[2].replace("−", "-")), [])
        elif player is not None and not line.startswith("⚖️"):
            found[player][1].append(line)
    return found


async def rig(table: Table, name: str, change: Callable[[KaitenState], None]) -> None:
    """Rewrite the live game state through the table's storage, then re-post the board."""
    await table.rig(change)
    await table.slash(name, "status")


# Row 3 (black, red, brown: 5 points) and column 3 (red, green, brown: 2) of a plate meet at the bottom
# right, still empty; every sushi on it has white rice.
CHOICE_PLATE: list[str | None] = [
    "W:yellow", "W:yellow", "W:red",
    "W:yellow", "W:yellow", "W:green",
    "W:black", "W:red", None,
]  # fmt: skip


def short_of_ginger(seat: int, cell: int) -> Callable[[KaitenState], None]:
    """`seat` gets CHOICE_PLATE and one ginger; the sushi on board `cell` becomes black-rice brown with
    nothing under it. Put on the bottom right, it opens two black/white edges: one ginger saves one line."""

    def change(state: KaitenState) -> None:
        state.plates[seat] = list(CHOICE_PLATE)
        state.ginger[seat] = 1
        state.board[cell] = "B:brown"
        state.tiles[cell] = "blank"

    return change


# ---------------------------------------------------------------- a whole game


@pytest.mark.simcord(settle_timeout=2.5)  # "normal" windows are 3 s or more
async def test_two_player_game_with_chopsticks_a_time_out_and_a_refill(simcord_env: Any) -> None:
    env = simcord_env
    table = Table(env, "kaiten", ["alice", "bob"])
    opened = await table.open(dexterity="normal")
    assert not opened.ephemeral
    assert "Dexterity: **normal**" in text_of(table.board)
    await table.join("bob")
    await table.start()
    names = {0: "alice", 1: "bob"}

    board = table.board
    assert "Kaiten Sushi" in heading_of(board)
    # The table is told whose turn it is and what they may do; the sake starts on the first pine of the
    # top side. The plates, the sake's line and the scores are the picture's: the words do not repeat them.
    alice = f"<@{table.member('alice').id}>"
    assert headline(board).startswith(f"🍣 {alice} fetches from column A.")  # "Use wasabi": the rest
    assert not re.search(r"\byour?\b", text_of(board), re.IGNORECASE)
    assert not part_texts(board) and "pts" not in text_of(board) and "nearest first" not in text_of(board)
    assert "🖼️" not in text_of(board)  # the picture's legend is the rules' ("How to play")
    image = await picture(board)
    # Landscape, at most ~300 px tall at the card's 560 px: with its text and buttons, one screen.
    assert image.format == "PNG" and image.width >= 600 and 560 * image.height / image.width <= 300
    # The fetch buttons name the cell as the picture does, in the topping's colour.
    assert "A1" in labels(board, enabled_only=True)

    # Not bob's turn: a one-line refusal, nothing changes.
    refused = await table.press("bob", "A1", board)
    assert refused.ephemeral and "isn't your turn" in text_of(refused.response)

    # Turn 1: alice spends her wasabi from the board (picker, then a move), then fetches by slash.
    await table.click("alice", "Use wasabi")
    # The picker's line stands in for the turn line; each move's button names the line it leads to (B).
    picking = f"🌿 <@{table.member('alice').id}> chooses where the wasabi moves the sake"
    assert headline(table.board).startswith(picking)
    await table.click("alice", "B")
    text = text_of(table.board)
    assert "alice spent a wasabi: the sake moved 1 pine clockwise, to column B" in text
    assert "fetches a sushi from column B" in headline(table.board) and "🖼️" not in text
    assert "Use wasabi" not in labels(table.board, enabled_only=True)
    cell = (await table.view())["fetchable"][0]
    result = await table.slash("alice", "fetch", cell=cell_name(cell).lower())
    assert result.ephemeral
    pressed = await chopsticks(env, table, "alice", result, "press")
    assert "Got it" in text_of(pressed.response)
    # Where the sushi came from and what lay under it (the turn line names who holds it, and which).
    assert "🥢 From" in text_of(table.board) and "top left" in labels(table.board, enabled_only=True)
    placed = await table.slash("alice", "place", cell=0)
    assert placed.ephemeral and "You put the sushi on the top left of the plate" in text_of(placed.response)

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
                assert "Too slow" in text_of(timed_out.response) and not buttons(timed_out.response)
                text = text_of(table.board)
                assert "bob dropped" in text and "takes a 🫗 soy" in text  # the picture counts it
            else:
                await grab(env, table, name, view["fetchable"][0])
        elif view["phase"] in ("place", "ginger"):  # the first plate cell, the first ginger choice
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
    results = [m for m in messages if "final result" in heading_of(m)]
    assert len(results) == 1
    assert all(f"<@{member.id}>" in text_of(results[0]) for member in table.players.values())
    # Each score explained the rulebook's way: rows, columns, then wasabi, soy, rice; the bold parts add up.
    breakdowns = explained(results[0])
    assert set(breakdowns) == {f"<@{member.id}>" for member in table.players.values()}
    for score, lines in breakdowns.values():
        rows, columns, extras = lines
        assert rows.startswith("╰ Rows: ") and rows.count("**") == 6
        assert columns.strip().startswith("Columns: ") and columns.count("**") == 6
        assert "🌿" in extras and "🫗" in extras and "rice, the rarer colour" in extras
        parts = re.findall(r"\*\*([+−]?\d+)\*\*", "\n".join(lines))
        assert len(parts) >= 7 and sum(int(part.replace("−", "-")) for part in parts) == score
    # The final scores are the results' alone: a last board, while it stands, does not announce them.
    ended = [m for m in messages if "every plate is full" in heading_of(m)]
    for board in ended:
        assert "Final" not in text_of(board) and " pts" not in text_of(board) and not buttons(board)
        await picture(board)
    standings = await table.member("alice").slash(table.channel, "leaderboard")
    text = text_of(standings.response)
    for member in table.players.values():
        assert f"<@{member.id}>" in text


# ---------------------------------------------------------------- focused


async def test_dexterity_off_table_options_and_slash_commands(simcord_env: Any) -> None:
    env = simcord_env
    table = Table(env, "kaiten", ["alice", "bob"])
    nothing = await table.slash("alice", "fetch", cell="A1")
    assert nothing.ephemeral and "no game running here" in text_of(nothing.response)
    await table.open(dexterity="off", arrangement="checkerboard")
    lobby = text_of(table.board)
    assert "Dexterity: **off**" in lobby and "Arrangement: **checkerboard**" in lobby
    await table.join("bob")
    await table.start()
    assert "Dexterity" not in text_of(table.board)  # the lobby said it: the board has no room to repeat it
    cells = (await table.view())["board"]
    assert {cells[0][0], cells[1][0]} == {"B", "W"} and cells[0][0] == cells[2][0]  # checkerboard rice

    typed = await table.member("alice").autocomplete(table.channel, "kaiten fetch", "cell", "")
    assert [choice["value"] for choice in typed] == ["A1", "A2", "A3", "A4", "A5", "A6"]
    for cell, words in (("Z9", "isn't a board cell"), ("B1", "B1 is not on the sake's line")):
        refused = await table.slash("alice", "fetch", cell=cell)
        assert refused.ephemeral and words in text_of(refused.response)
    for name, words in (("bob", "isn't your turn"), ("carol", "not seated at this table")):
        refused = await table.slash(name, "fetch", cell="A1")
        assert refused.ephemeral and words in text_of(refused.response)
    stranger = await table.slash("carol", "wasabi", direction=1, steps=1)
    assert stranger.ephemeral and "not seated at this table" in text_of(stranger.response)
    early = await table.slash("alice", "place", cell=4)
    assert early.ephemeral and "doesn't fit this part of the turn" in text_of(early.response)

    moved = await table.slash("alice", "wasabi", direction=-1, steps=2)
    assert moved.ephemeral and "spent a wasabi and moved the sake 2 pines back" in text_of(moved.response)
    assert "to row 2" in text_of(table.board) and "fetches a sushi from row 2" in headline(table.board)
    again = await table.slash("alice", "wasabi", direction=1, steps=1)
    assert "already spent a wasabi" in text_of(again.response)

    # With the dexterity off a click on a sushi fetches it at once: no challenge.
    clicked = await table.press("alice", "A2")
    assert clicked.response is None or not clicked.response.ephemeral
    board = table.board
    assert "🥢 From" in text_of(board) and "puts" in headline(board) and "on their plate" in headline(board)
    assert labels(board, enabled_only=True)[:4] == ["top left", "top right", "bottom left", "bottom right"]
    refused = await table.slash("alice", "place", cell=4)
    assert "first sushi goes in a corner" in text_of(refused.response)
    placed = await table.slash("alice", "place", cell=8)
    assert "bottom right" in text_of(placed.response)
    assert "bob" in headline(table.board) or "<@" in headline(table.board)
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
    result = await table.press("alice", "A1")
    busy = await table.press("alice", "A2")
    assert busy.ephemeral and "already out" in text_of(busy.response)
    assert text_of((await table.slash("alice", "wasabi", direction=1, steps=1)).response).startswith(
        "Your chop"
    )
    assert len(buttons(result.response)) == 5  # strict: five buttons
    wrong = await chopsticks(env, table, "alice", result, "wrong")
    assert "Wrong button" in text_of(wrong.response)
    assert "alice dropped" in text_of(table.board) and "takes a 🫗 soy" in text_of(table.board)

    # bob: nothing pressed; after the window the sushi slips, and the row of buttons is gone.
    result = await table.press("bob", "A1")
    await env.advance_time(9)
    assert "Too slow" in text_of(result.response) and not buttons(result.response)
    assert [player["soy"] for player in (await table.view())["players"]] == [1, 1]

    # alice again: the bot restarts while her chopsticks are out; the same cell shows the same challenge.
    first = await table.press("alice", "A1")
    target = emoji_names(first.response).index(CHOPSTICKS)
    board = table.board
    await env.restart_bot(bot_factory())
    second = await table.press("alice", "A1", board)
    assert emoji_names(second.response).index(CHOPSTICKS) == target
    caught = await chopsticks(env, table, "alice", second, "press")
    assert "Got it" in text_of(caught.response)


async def test_short_of_ginger_the_player_chooses_the_edge_by_button_or_slash(simcord_env: Any) -> None:
    env = simcord_env
    await env.bot.tree.sync()
    table = Table(env, "kaiten", ["alice", "bob"])
    await table.seat_everyone(dexterity="off")
    early = await table.slash("alice", "ginger", edge="7-8")
    assert early.ephemeral and "doesn't fit this part of the turn" in text_of(early.response)

    # alice: a brown on black rice onto the bottom right of her all-white plate, one ginger in hand.
    await rig(table, "alice", short_of_ginger(0, 0))
    await table.press("alice", "A1")
    await table.click("alice", "bottom right")
    board = table.board
    text = text_of(board)
    assert headline(board).startswith(
        f"🫚 <@{table.member('alice').id}> has 1 ginger for 2 new edges between black and white rice and "
        "chooses where it goes."  # what a bare edge costs, each choice's button says
    )
    # Each choice and its cost is a button; the words do not list them again (they fit on the buttons).
    assert "→" not in text.replace(headline(board), "")
    assert labels(board, enabled_only=True)[:2] == [
        "middle right | bottom right → bottom row scores 0",
        "bottom middle | bottom right → right column scores 0",
    ]
    assert shows(await picture(board), DUE)  # the edges waiting for ginger, marked on her plate
    refused = await table.press("bob", "bottom middle | bottom right", board)
    assert refused.ephemeral and "isn't your turn" in text_of(refused.response)
    offered = await table.member("alice").autocomplete(table.channel, "kaiten ginger", "edge", "")
    assert [choice["value"] for choice in offered] == ["5-8", "7-8"]

    # She saves the 5-point bottom row: the right column is lost, and the turn goes on.
    await table.press("alice", "bottom middle | bottom right")
    text = text_of(table.board)
    assert "alice laid a ginger" in text and "the right column will score 0" in text
    assert not shows(await picture(table.board), DUE)
    assert headline(table.board).startswith(f"🍣 <@{table.member('bob').id}> fetches from")
    alice = (await table.view())["players"][0]
    assert alice["ginger_edges"] == [[7, 8]] and alice["missing_ginger"] == [[5, 8]]
    assert alice["score"] == 7 + 2 + 1 + 2  # rows 1 + 1 + 5, columns 1 + 1, one black rice, the wasabi

    # bob, the same plate, chooses by slash command; a value that is no choice is refused.
    view = await table.view()
    assert view["turn"] == 1
    cell = view["fetchable"][0]
    await rig(table, "bob", short_of_ginger(1, cell))
    await table.press("bob", cell_name(cell))
    await table.slash("bob", "place", cell=8)
    for wrong in ("centre", "0-1"):
        refused = await table.slash("bob", "ginger", edge=wrong)
        assert refused.ephemeral and "isn't one of the ginger choices" in text_of(refused.response)
    chosen = await table.slash("bob", "ginger", edge="5-8")
    assert chosen.ephemeral and "You laid ginger on middle right | bottom right" in text_of(chosen.response)
    bob = (await table.view())["players"][1]
    assert bob["missing_ginger"] == [[7, 8]] and bob["score"] == 2 + 4 + 1 + 2


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
    assert any("final result" in heading_of(m) for m in messages)
    results = next(m for m in messages if "final result" in heading_of(m))
    # The computers' plates are explained like anyone's: the bold parts add up to each score.
    breakdowns = explained(results)
    assert {name.split()[-1] for name in breakdowns} == {"alice", "bob"}  # each seat, however marked
    for score, lines in breakdowns.values():
        parts = re.findall(r"\*\*([+−]?\d+)\*\*", "\n".join(lines))
        assert sum(int(part.replace("−", "-")) for part in parts) == score
