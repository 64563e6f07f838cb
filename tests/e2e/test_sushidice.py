"""Sushi Dice end to end: the real bot against simcord, driven the way players do.

Duelists play on their private panels (the board's "Open my dice"), spectators call Chop! on the
public duel message, and `/sushidice yuck` calls Yuck! from the keyboard. A call is judged on the
board it was pressed on (GAMES.md): `test_a_caller_pressing_on_what_the_board_shows_is_heard` counts
the calls a scripted caller makes while the opponent keeps throwing.

Rigged dice (`tests/e2e/rigged_dice.py`): a test says what a set's NEXT throw shows
(`dice.then("blue", "ebi ebi ebi yuck ebi ebi")`); a set with nothing queued throws at random.
Seeds are fixed too.
"""

from __future__ import annotations

import random
from typing import Any

import discord
import pytest

from cogs.games.sushidice.render import FACE_EMOJI
from cogs.kit.words.bidi import plain
from tests.e2e.helpers import Table, body_lines, buttons, heading_of, labels, text_of
from tests.e2e.rigged_dice import (
    COMPUTER,
    PUBLISHED,
    SEED,
    STEP,
    dice,
    plate_faces,
    scripted_throws,
    slow_clocks,
)

pytestmark = [pytest.mark.simcord(settle_timeout=STEP * 0.8), pytest.mark.seed(SEED)]
__all__ = ["dice", "scripted_throws"]  # the rigged dice


@pytest.fixture(autouse=True)
def _slow_clocks(simcord_env) -> None:
    slow_clocks(simcord_env)


@pytest.fixture
def extensions() -> tuple[str, ...]:
    return ("cogs.tables", "cogs.games.sushidice.cog", "cogs.stats.leaderboard")


# ---------------------------------------------------------------- helpers


async def press_first(table: Table, name: str, prefix: str, message: discord.Message) -> Any:
    """Click the first enabled button whose label starts with `prefix` (two face-up plates may match)."""
    found = [b for b in buttons(message) if plain(b.label or "").startswith(prefix) and not b.disabled]
    assert found, f"no button {prefix!r} among {labels(message)}"
    return await table.member(name).click(message, custom_id=found[0].custom_id)


def disabled(message: discord.Message, label: str) -> bool:
    """Whether the message shows the button labelled `label`, greyed out."""
    return label in labels(message) and label not in labels(message, enabled_only=True)


async def open_panel(table: Table, name: str) -> Any:
    """Open my dice: the result's `response.message` is the live panel (edited in place)."""
    opened = await table.click(name, "Open my dice")
    assert opened.ephemeral
    return opened


def panel_of(opened: Any) -> discord.Message:
    return opened.response.message


def board_lines(message: discord.Message) -> list[str]:
    """The board's lines under its heading."""
    return body_lines(message)


def described(message: discord.Message) -> list[str]:
    """What a card says under its heading (its content and what an embed's description said)."""
    return body_lines(message)


def duelist_line(table: Table, name: str, message: discord.Message | None = None) -> str:
    """The public board's line of a duelist, who is mentioned there: "🔵 **<@bob>**: 🍤 🤢 · 📌 🍤"."""
    mention = f"**<@{table.players[name].id}>**:"
    return next(line for line in board_lines(message or table.board) if mention in line)


def opponent_line(panel: discord.Message) -> str:
    """A panel's line of the opponent, as the board shows them: "🔵 **bob** on the board: 🍤 🤢"."""
    return next(line for line in described(panel) if " on the board: " in line)


def dice_buttons(panel: discord.Message) -> list[discord.Button]:
    """A panel's six dice: each a button showing its face, labelled with its number (📌: set aside)."""
    return [b for b in buttons(panel) if plain(b.label or "").removeprefix("📌 ").isdigit()]


def channel_messages(table: Table) -> list[discord.Message]:
    """What the bot posted in the channel besides the board and the turn pings."""
    return [
        m
        for m in table.public_messages()
        if m.id != table.board.id and "your turn" not in text_of(m) and "joined the table" not in text_of(m)
    ]


def shows(faces: list[str | None]) -> str:
    return " ".join(FACE_EMOJI[face] for face in faces if face is not None)


def plate_picture(plate: str) -> str:
    """A plate as a panel pictures it: "🍤 ×6", the combo's six faces."""
    return "🍱 🐟🍣🍤🥚🥒⭐" if plate == "combo" else f"{FACE_EMOJI[plate]} ×6"


def board_edits(table: Table) -> int:
    path = f"/channels/{table.channel.id}/messages/{table.board.id}"
    return sum(1 for request in table.env.http_requests if request.method == "PATCH" and request.path == path)


# ---------------------------------------------------------------- a whole game


async def test_three_players_play_to_the_end_with_a_yuck_and_a_chop(simcord_env, dice):
    table = Table(simcord_env, "sushidice", ["alice", "bob", "carol"])
    await table.seat_everyone()
    seats = {"alice": 0, "bob": 1, "carol": 2}
    names = {seat: name for name, seat in seats.items()}

    # The host challenges; nobody else may.
    assert "chooses the first opponent" in text_of(table.board)
    not_host = await table.click("bob", "carol")
    assert not_host.ephemeral and "host picks the first duel" in text_of(not_host.response)
    await table.click("alice", "bob")
    assert "duel #1" in heading_of(table.board)
    board_id = table.board.id
    alice, bob = await open_panel(table, "alice"), await open_panel(table, "bob")
    assert disabled(panel_of(alice), "Ring bell") and disabled(panel_of(alice), "Yuck!")

    # Yuck!: bob shows a yuck on the board; alice calls it; bob re-throws all six, set-aside included.
    dice.then("blue", "ebi ebi ebi yuck ebi ebi")
    dice.then("red", "maguro sake maguro tamago kappa sake")
    await table.press("bob", "Roll", panel_of(bob))
    await table.press("alice", "Roll", panel_of(alice))
    await table.press("bob", "1", panel_of(bob))  # die 1: set aside
    await simcord_env.advance_time(PUBLISHED)
    assert "🤢" in duelist_line(table, "bob") and "📌 🍤" in duelist_line(table, "bob")
    assert "🤢" in opponent_line(panel_of(alice))  # alice's panel shows bob as the board does
    assert opponent_line(panel_of(alice)).startswith("🔵 **bob** on the board: ")
    assert "Yuck!" in labels(panel_of(alice), enabled_only=True)
    dice.then("blue", "sake sake sake sake sake sake")
    await table.press("alice", "Yuck!", panel_of(alice))
    assert "🤢 Yuck! on you — all six dice were re-thrown." in described(panel_of(bob))
    rethrown = dice_buttons(panel_of(bob))  # the one set aside too: all six thrown, none set aside
    assert [(str(b.emoji), plain(b.label or "")) for b in rethrown] == [("🍣", str(n)) for n in range(1, 7)]
    await simcord_env.advance_time(PUBLISHED)
    assert "🤢 Yuck! on the 🔵 blue dice — all six re-thrown." in board_lines(table.board)

    # Chop!: both show a yuck; a duelist may not chop, a spectator may, choosing among the tied.
    assert disabled(table.board, "Chop!")
    dice.then("red", "maguro maguro maguro yuck maguro maguro")
    dice.then("blue", "ebi ebi ebi ebi yuck ebi")
    await table.press("alice", "Roll", panel_of(alice))
    await table.press("bob", "Roll", panel_of(bob))
    await simcord_env.advance_time(PUBLISHED)
    assert "Chop!" in labels(table.board, enabled_only=True)
    duelist_chop = await table.press("alice", "Chop!")
    assert duelist_chop.ephemeral and "only the players watching it may call Chop!" in text_of(
        duelist_chop.response
    )
    picker = await table.press("carol", "Chop!")
    assert picker.ephemeral and "Who gets the 🔵 blue set?" in text_of(picker.response)
    chopped = await table.choose("carol", [str(seats["bob"])], picker.response.message)
    assert "duel #2" in heading_of(chopped.response)  # the picker became carol's panel
    assert opponent_line(chopped.response).startswith("🔵 **bob** on the board:")
    await simcord_env.advance_time(PUBLISHED)
    assert "duel #2" in heading_of(table.board)
    assert board_lines(table.board)[0] == "🔪 carol called Chop! — no plate."  # on the board, no message
    assert not channel_messages(table)

    # Plates: whoever rings, alice when she duels, until someone owns five.
    while not (view := await table.view())["over"]:
        duel = [duelist["seat"] for duelist in view["duelists"]]
        ringer = seats["alice"] if seats["alice"] in duel else duel[0]
        colour = next(d["set"] for d in view["duelists"] if d["seat"] == ringer)
        dice.then(colour, plate_faces(view["face_up"][0]))
        panel = await open_panel(table, names[ringer])
        await table.press(names[ringer], "Roll", panel_of(panel))
        # The plate to ring is a line of its own, its bell beside it (a section), no greyed bell below.
        assert f"`1` {plate_picture(view['face_up'][0])} → 🏆 " in text_of(panel_of(panel))
        assert "Ring bell" not in labels(panel_of(panel))
        rung = await press_first(table, names[ringer], "Ring 1", panel_of(panel))
        assert rung.response.ephemeral and rung.response.id == panel.response.id
    assert view["scores"] == [5, 0, 3]

    await simcord_env.advance_time(PUBLISHED)
    messages = table.public_messages()
    # The results are the one message at the end: the board made way for them.
    assert not any(m.id == board_id for m in messages)
    # Nine duels, and the channel got no message of theirs: plates are won on the board (no 🔔, which
    # is for pings), and at most one turn ping is live.
    assert not [m for m in messages if "took the" in text_of(m) or "takes the" in text_of(m)]
    assert not any("🔔" in text_of(m) for m in messages if "your turn" not in text_of(m))
    assert sum("your turn" in text_of(m) for m in messages) <= 1
    results = next(m for m in messages if "final result" in heading_of(m))
    ids = {name: member.id for name, member in table.players.items()}
    # Plates, not points, and under each player the plates they won (no tie-break: none decided).
    assert body_lines(results) == [
        f"🥇 **1.** <@{ids['alice']}> — 5 plates",
        "╰ 🥚 tamago · 🍣 sake · 🥒 kappa · 🍱 combo ×2",
        f"🥈 **2.** <@{ids['carol']}> — 3 plates",
        "╰ 🍣 sake · 🥒 kappa · 🐟 maguro",
        f"🥉 **3.** <@{ids['bob']}> — 0 plates",
        "╰ no plates",
    ]
    alice_id = ids["alice"]
    standings = await table.member("alice").slash(table.channel, "leaderboard", game="sushidice")
    assert str(alice_id) in "\n".join(described(standings.response))
    assert "avg plates" in "\n".join(described(standings.response))  # counted in plates, not points


# ---------------------------------------------------------------- the public board under a burst


async def test_a_burst_of_rolls_edits_the_board_at_a_bounded_rate_and_ends_on_the_latest_dice(
    simcord_env, dice
):
    table = Table(simcord_env, "sushidice", ["alice", "bob"])
    await table.seat_everyone()  # two players: the duel is on at once, nobody challenges
    alice, bob = await open_panel(table, "alice"), await open_panel(table, "bob")
    await simcord_env.advance_time(PUBLISHED)
    before = board_edits(table)
    for _ in range(25):
        for name, panel in (("alice", alice), ("bob", bob)):
            rolled = await table.press(name, "Roll", panel_of(panel))
            assert rolled.response.id == panel.response.id  # answered on the panel itself
        await simcord_env.advance_time(STEP)
    await simcord_env.advance_time(PUBLISHED)
    edits = board_edits(table) - before
    # 50 rolls over 25 steps of play: about one edit per board interval, never one per roll.
    assert 1 <= edits <= 6
    view = await table.view()
    assert view["stamp"] >= 50
    for duelist, name in zip(view["duelists"], ("alice", "bob"), strict=True):
        shown = duelist_line(table, name)
        assert shown.split(": ", 1)[1].startswith(shows(duelist["faces"]))
    # The throws themselves are no news on the board: the dice show them.
    assert not any("threw" in line for line in board_lines(table.board))


async def test_a_duel_that_left_memory_keeps_nothing_behind_and_plays_on(simcord_env, dice):
    """An idle table leaves memory, and so do the boards its cog remembered for judging calls; the
    next roll reads it again and the board shows it."""
    table = Table(simcord_env, "sushidice", ["alice", "bob"])
    await table.seat_everyone()
    alice = await open_panel(table, "alice")
    await simcord_env.advance_time(PUBLISHED)
    cog = table.tables.games["sushidice"]
    channel = table.channel.id
    assert channel in cog._shown and channel in cog._seen
    assert table.tables.evict_idle(idle=0) == [channel]
    assert channel not in cog._shown and channel not in cog._seen
    stamp = (await table.view())["stamp"]
    rolled = await table.press("alice", "Roll", panel_of(alice))
    assert rolled.response.id == alice.response.id
    await simcord_env.advance_time(PUBLISHED)
    assert (await table.view())["stamp"] > stamp
    assert channel in cog._shown  # shown again: calls are judged on it


# ---------------------------------------------------------------- calls judged on what was shown


async def test_a_yuck_counts_only_against_dice_the_board_has_shown(simcord_env, dice, bot_factory):
    table = Table(simcord_env, "sushidice", ["alice", "bob"])
    await table.seat_everyone()
    bob = await table.slash("bob", "panel")
    assert bob.ephemeral and "Your 🔵 blue dice — duel #1" in heading_of(panel_of(bob))
    assert opponent_line(panel_of(bob)) == "🔴 **alice** on the board: 🎲 not thrown yet"
    await simcord_env.advance_time(PUBLISHED)

    nothing = await table.slash("alice", "yuck")
    assert nothing.ephemeral and "the board you pressed on showed no 🤢" in text_of(nothing.response)
    dice.then("blue", "sake sake sake sake sake sake")
    dice.then("blue", "sake sake sake yuck sake sake")
    await table.press("bob", "Roll", panel_of(bob))  # shown at once: the board was quiet
    await table.press("bob", "Roll", panel_of(bob))  # a yuck, not shown yet: the board waits its turn
    assert "🤢" not in duelist_line(table, "bob")
    unseen = await table.slash("alice", "yuck")
    assert unseen.ephemeral and "showed no 🤢" in text_of(unseen.response)
    assert (await table.view())["duelists"][1]["yuck"]  # no penalty, nothing changed

    await simcord_env.advance_time(PUBLISHED)
    assert "🤢" in duelist_line(table, "bob")
    dice.then("blue", "ebi ebi ebi ebi ebi ebi")
    called = await table.slash("alice", "yuck")
    assert called.ephemeral and text_of(called.response) == "✅ You called Yuck! on bob."

    # After a restart the table, active moments ago, shows its board again at once: what that board
    # shows is known, so a call on the yuck it shows counts without a refresh first.
    dice.then("blue", "ebi ebi ebi yuck ebi ebi")
    await table.press("bob", "Roll", panel_of(bob))
    await simcord_env.advance_time(PUBLISHED)
    await simcord_env.restart_bot(bot_factory())
    slow_clocks(simcord_env)
    await simcord_env.bot.tree.sync()
    assert "🤢" in duelist_line(table, "bob")
    called = await table.slash("alice", "yuck")
    assert text_of(called.response).startswith("✅ You called Yuck!")


async def test_a_call_stands_on_the_board_pressed_on_though_the_yuck_was_thrown_away(simcord_env, dice):
    table = Table(simcord_env, "sushidice", ["alice", "bob", "carol"])
    await table.seat_everyone()
    await table.click("alice", "bob")
    alice, bob = await open_panel(table, "alice"), await open_panel(table, "bob")

    # bob's yuck is on the board; he throws it away at once, but alice pressed on that board.
    dice.then("red", "maguro maguro maguro maguro yuck maguro")
    dice.then("blue", "ebi ebi ebi yuck ebi ebi")
    await table.press("alice", "Roll", panel_of(alice))
    await table.press("bob", "Roll", panel_of(bob))
    await simcord_env.advance_time(PUBLISHED)
    assert "Chop!" in labels(table.board, enabled_only=True)
    pressed_on = table.board  # what carol looks at
    dice.then("blue", "sake sake sake sake sake sake")
    await table.press("bob", "Roll", panel_of(bob))
    assert "🤢" in duelist_line(table, "bob")  # the board still shows bob's yuck
    assert "Yuck!" in labels(panel_of(alice), enabled_only=True)
    dice.then("blue", "kappa kappa kappa kappa kappa kappa")
    called = await table.press("alice", "Yuck!", panel_of(alice))
    assert called.response.id == alice.response.id  # answered on her panel, no refusal
    assert (await table.view())["last"][0] == {"type": "yuck", "seat": 0, "target": 1}
    assert "🤢 Yuck! on you — all six dice were re-thrown." in described(panel_of(bob))
    assert (await table.view())["duelists"][1]["faces"] == ["kappa"] * 6  # all six thrown anew

    # carol's Chop! on that same board comes after alice's call: too late, and said so privately.
    late = await table.press("carol", "Chop!", pressed_on)
    assert late.ephemeral and text_of(late.response).startswith("Too late — that 🤢 was called first")

    # A new pair of yucks shown; both throw them away before the next board; carol's Chop! counts.
    dice.then("red", "tamago tamago tamago tamago yuck tamago")
    dice.then("blue", "tamago tamago tamago yuck tamago tamago")
    await table.press("alice", "Roll", panel_of(alice))
    await table.press("bob", "Roll", panel_of(bob))
    await simcord_env.advance_time(PUBLISHED)
    dice.then("red", "sake sake sake sake sake sake")
    dice.then("blue", "sake sake sake sake sake sake")
    await table.press("alice", "Roll", panel_of(alice))
    await table.press("bob", "Roll", panel_of(bob))
    picker = await table.press("carol", "Chop!")
    chopped = await table.choose("carol", ["1"], picker.response.message)
    assert "duel #2" in heading_of(chopped.response) and "**bob** on the board" in text_of(chopped.response)
    assert (await table.view())["last"][0] == {"type": "chop", "seat": 2, "partner": 1}


async def test_a_caller_pressing_on_what_the_board_shows_is_heard(simcord_env, dice):
    """Issue 24: the thrower sees their own dice at once, the caller the board up to a second late.
    alice presses Yuck! on her panel a moment after each board that shows bob's 🤢, while bob goes
    on throwing; at most 5% of those calls may be refused (before: about a third were)."""
    table = Table(simcord_env, "sushidice", ["alice", "bob"])
    await table.seat_everyone()
    alice, bob = await open_panel(table, "alice"), await open_panel(table, "bob")
    await table.press("alice", "Roll", panel_of(alice))
    chooser = random.Random(24)
    presses = refused = 0
    seen: str | None = None  # the last board alice reacted to
    wait: int | None = None  # steps until her press
    for _ in range(240):
        view = await table.view()
        if view["over"] or presses >= 20:
            break
        await table.press("bob", "Roll", panel_of(bob))
        await simcord_env.advance_time(STEP)
        board = text_of(table.board)
        if board != seen and "🤢" in duelist_line(table, "bob") and wait is None:
            seen, wait = board, chooser.randint(1, 8)  # 0.1 to 0.8 s later
        if wait is not None:
            wait -= 1
            if wait == 0:
                wait = None
                if "Yuck!" not in labels(panel_of(alice), enabled_only=True):
                    continue  # the board moved on to a new duel meanwhile
                presses += 1
                called = await table.press("alice", "Yuck!", panel_of(alice))
                refused += called.response.id != alice.response.id
    assert presses >= 10, presses
    assert refused <= 0.05 * presses, (refused, presses)


async def test_only_a_duelist_calls_yuck_and_the_others_hear_why(simcord_env, dice):
    table = Table(simcord_env, "sushidice", ["alice", "bob", "carol"])
    await table.open()
    lobby = await table.slash("alice", "yuck")
    assert lobby.ephemeral and "The game hasn't started yet" in text_of(lobby.response)
    await table.join("bob", "carol")
    await table.start()
    await simcord_env.advance_time(PUBLISHED)

    guest = await table.slash("bob", "yuck")
    assert guest.ephemeral and "host picks the first duel" in text_of(guest.response)
    host = await table.slash("alice", "yuck")
    assert host.ephemeral and "the host must challenge the first opponent" in text_of(host.response)
    stranger = await table.slash("dave", "yuck")
    assert stranger.ephemeral and text_of(stranger.response) == "You are not seated at this table."

    await table.click("alice", "bob")
    await simcord_env.advance_time(PUBLISHED)
    spectator = await table.slash("carol", "yuck")
    assert spectator.ephemeral and "the others may call Chop!" in text_of(spectator.response)
    panel = await table.slash("carol", "panel")
    assert panel.ephemeral and "duel #1" in text_of(panel.response)  # carol watches: no dice of her own
    assert (await table.view())["last"][0]["type"] == "challenged"  # nothing changed


async def test_time_outs_and_computer_duelists(simcord_env, dice):
    table = Table(simcord_env, "sushidice", ["alice", "bob"])
    await table.seat_everyone()
    dice.then("red", "maguro sake maguro tamago kappa sake")  # no yuck: bob's stand-in move is a roll too
    await simcord_env.advance_time(301)
    notice = next(text_of(m) for m in table.public_messages() if "took too long" in text_of(m))
    for name in ("alice", "bob"):
        assert f"<@{table.players[name].id}> took too long — the table rolled the dice for them." in notice
    assert all(duelist["throw"] for duelist in (await table.view())["duelists"])

    # bob leaves: a computer duels for him, one move every COMPUTER_DELAY — even while alice keeps rolling.
    await table.slash("bob", "leave")
    alice = await open_panel(table, "alice")
    steps = 8
    for _ in range(steps):
        dice.then("red", "maguro sake maguro tamago kappa sake")  # no yuck for the computer to call
    computer_moves = 0
    for _ in range(steps):
        await table.press("alice", "Roll", panel_of(alice))
        await simcord_env.advance_time(5 * STEP)
        computer_moves += (await table.view())["last"][0]["seat"] == 1
    assert computer_moves == int(steps * 5 * STEP / COMPUTER)
    assert "🤖 bob" in text_of(table.board)
