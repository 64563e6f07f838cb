"""The shared table, end to end: the real bot against simcord, with the test-only Tiny Race."""

from __future__ import annotations

import asyncio
from typing import Any

import discord
import pytest

from cogs.kit.errors import Refusal
from cogs.kit.words.bidi import plain
from cogs.tables import tables_of
from cogs.tables.tables import RECOVER_BEFORE_STOP
from tests.e2e.helpers import Table, buttons, components, field_of, heading_of, payload, text_of
from tests.e2e.tinygame import FOUNDATION
from tests.e2e.transcript import BOARD_MAX_CHARS, BOARD_MAX_LINES, Line, board_problems

ADD_TWO = {"type": "add", "amount": 2}


@pytest.fixture
def extensions() -> tuple[str, ...]:
    return FOUNDATION


async def test_lobby_join_start_and_play_by_buttons(simcord_env):
    table = Table(simcord_env, "tiny", ["alice", "bob"])
    result = await table.open()
    assert not result.ephemeral
    assert "Tiny Race" in heading_of(table.board)
    await table.join("bob")
    seats = field_of(table.board, "Seats")
    assert str(table.players["alice"].id) in seats and str(table.players["bob"].id) in seats
    await table.start()
    assert "Turn: alice" in text_of(table.board)
    await table.click("alice", "+2")
    assert "alice: 2" in text_of(table.board)
    assert "Turn: bob" in text_of(table.board)
    board = text_of(table.board)
    rules = await table.click("bob", "How to play")  # on the table's row of every board
    assert rules.ephemeral and heading_of(rules.response) == "tiny.rules.title"  # the game's rules
    assert text_of(table.board) == board  # told to bob alone: the board is as it was


async def test_every_lobby_command_answers_with_what_it_did(simcord_env):
    table = Table(simcord_env, "tiny", ["alice", "bob"])
    alice, bob = (f"<@{table.players[name].id}>" for name in ("alice", "bob"))
    await table.open()
    joined = await table.slash("bob", "join")
    assert (
        joined.ephemeral
        and plain(joined.response.content) == f"🪑 You joined the Tiny Race table. Seated: {alice} and {bob}."
    )
    started = await table.slash("alice", "start")
    assert (
        started.ephemeral
        and plain(started.response.content) == f"▶️ The Tiny Race game has started: {alice} and {bob}."
    )
    left = await table.slash("bob", "leave")
    assert left.response.content.startswith(
        "You left the Tiny Race game: a computer player plays your seat now"
    )
    back = await table.slash("bob", "join")
    assert back.response.content == "🪑 You took your seat at Tiny Race back from the computer player."
    cancelled = await table.slash("alice", "cancel")
    assert cancelled.response.content == "🚫 You cancelled the Tiny Race table."
    assert "alice cancelled the table." in table.public_text()  # and the table is told, in the third person
    answers = [line for line in table.public_text().splitlines() if line in ("Done.", "OK")]
    assert answers == []


async def test_a_computers_level_shows_in_the_lobby_and_the_results_only(simcord_env):
    table = Table(simcord_env, "tiny", ["alice"])
    await table.open(computers=1)
    assert "2. 🤖 Temaki (normal)" in field_of(table.board, "Seats")
    await table.start()
    assert "🤖 Temaki: 0" in text_of(table.board) and "(normal)" not in text_of(table.board)
    while await table.live() is not None:
        await table.click("alice", "+2")
        await simcord_env.settle()
    results = table.public_messages()[-1]
    assert "final result" in heading_of(results)
    assert "🤖 Temaki (normal) — " in text_of(results)
    boards = [m for m in table.public_messages() if text_of(m).startswith("Tiny Race")]
    assert boards == []  # the board gave way to the results


async def test_lobby_rules_joining_twice_starting_early_and_a_full_table(simcord_env):
    table = Table(simcord_env, "tiny", ["alice", "bob", "carol", "dave"])
    await table.open()
    again = await table.click("alice", "Join")
    assert again.ephemeral and "already have a seat" in again.response.content
    start = next(c for c in buttons(table.board) if c.label == "Start")
    assert start.disabled  # nobody can start a table of one
    early = await table.slash("alice", "start")
    assert early.ephemeral and "At least 2" in early.response.content
    await table.join("bob")
    not_host = await table.click("bob", "Start")
    assert not_host.ephemeral and "Only the host" in not_host.response.content
    await table.slash("carol", "join")
    full = await table.slash("dave", "join")
    assert full.ephemeral and "full" in full.response.content
    second_table = await table.slash("dave", "new")
    assert second_table.ephemeral and "already has" in second_table.response.content


async def test_moves_by_slash_command_stranger_and_wrong_turn_are_refused(simcord_env):
    table = Table(simcord_env, "tiny", ["alice", "bob"])
    await table.seat_everyone()
    done = await table.slash("alice", "add", amount=1)
    assert done.ephemeral and done.response.content.startswith("✅")
    assert "alice: 1" in text_of(table.board)
    wrong_turn = await table.click("alice", "+1")
    assert wrong_turn.ephemeral and "isn't your turn" in wrong_turn.response.content
    stranger = await table.click("eve", "+1")
    assert stranger.ephemeral and "not seated" in stranger.response.content
    illegal = await table.slash("bob", "add", amount=7)
    assert illegal.ephemeral
    assert "alice: 1" in text_of(table.board) and "bob: 0" in text_of(table.board)


async def test_two_clicks_at_once_only_one_applies(simcord_env):
    """Two clicks on the same board version race; the channel lock and the stamp let one through."""
    table = Table(simcord_env, "tiny", ["alice", "bob"])
    await table.seat_everyone()
    stamp = board_stamp(table.board)
    tables = tables_of(simcord_env.bot)
    game = tables.games["tiny"].game
    alice = table.players["alice"].id
    outcomes = await asyncio.gather(
        _outcome(
            tables.act(table.channel.id, alice, game.decode_action({"type": "add", "amount": 1}), stamp=stamp)
        ),
        _outcome(
            tables.act(table.channel.id, alice, game.decode_action({"type": "add", "amount": 2}), stamp=stamp)
        ),
    )
    assert outcomes == ["applied", "outdated"]
    ctx = await tables.context(table.channel.id)
    assert ctx.public()["scores"] == [1, 0]
    await simcord_env.settle()
    assert "alice: 1" in text_of(table.board)


def board_stamp(message: discord.Message) -> int:
    """The board version a move's button was drawn for (custom_id sb:game:channel:stamp:payload)."""
    move = next(item for item in buttons(message) if payload(item).startswith("a:"))
    return int(move.custom_id.split(":")[3])


async def _outcome(coroutine) -> str:
    try:
        await coroutine
    except Refusal as refusal:
        return "outdated" if refusal.code == "table.outdated" else refusal.code
    return "applied"


async def test_restart_mid_game_then_continue_on_the_old_message(simcord_env, bot_factory):
    table = Table(simcord_env, "tiny", ["alice", "bob"])
    await table.seat_everyone()
    await table.click("alice", "+2")
    board_before = table.board
    await simcord_env.restart_bot(bot_factory())
    await table.member("bob").click(board_before, label="+2")
    assert "bob: 2" in text_of(table.board)
    assert table.board.id == board_before.id


async def test_time_out_plays_the_default_move_and_three_make_a_computer_player(simcord_env):
    table = Table(simcord_env, "tiny", ["alice", "bob"])
    await table.seat_everyone()
    await simcord_env.advance_time(301)
    notice = [text_of(m) for m in table.public_messages() if "took too long" in text_of(m)]
    assert len(notice) == 1 and table.players["alice"].mention in notice[0]
    assert "alice: 1" in text_of(table.board)
    await table.click("bob", "+1")
    await simcord_env.advance_time(301)  # alice's 2nd time-out
    await table.click("bob", "+1")
    await simcord_env.advance_time(301)  # 3rd: a computer player takes the seat
    replaced = next(m for m in table.public_messages() if "computer player takes over" in text_of(m))
    alice = table.players["alice"].id
    assert text_of(replaced).startswith(f"⏰ <@{alice}> took too long")  # her name once, as a ping
    assert "🤖 🤖" not in text_of(replaced) and "`/tiny join` takes it back" in text_of(replaced)
    assert [user.id for user in replaced.mentions] == [alice]  # she is notified, nobody else
    assert "🤖 alice" in text_of(table.board)
    assert "computer player has your seat" in text_of(table.dm("alice"))  # her hand says so too


async def test_timers_survive_a_restart(simcord_env, bot_factory):
    table = Table(simcord_env, "tiny", ["alice", "bob"])
    await table.seat_everyone()
    await simcord_env.advance_time(200)
    await simcord_env.restart_bot(bot_factory())
    await simcord_env.advance_time(101)
    assert "alice: 1" in text_of(table.board)
    assert any("took too long" in text_of(m) for m in table.public_messages())


async def test_closed_dms_fall_back_to_my_hand(simcord_env):
    table = Table(simcord_env, "tiny", ["alice", "bob"], closed_dms=("bob",))
    await table.seat_everyone()
    assert "lucky number" in text_of(table.dm("alice"))
    told = [m for m in table.public_messages() if "won't let me send you DMs" in text_of(m)]
    assert len(told) == 1 and text_of(told[0]).startswith(f"📪 <@{table.players['bob'].id}>")
    assert "click **My hand** on the board" in text_of(told[0])
    hand = await table.click("bob", "My hand")
    assert hand.ephemeral and "lucky number" in text_of(hand.response)
    assert "lucky number" not in table.public_text()
    await table.click("alice", "+1")
    assert len([m for m in table.public_messages() if "send you DMs" in text_of(m)]) == 1  # once
    assert "Your total: 0." in text_of(hand.response.message)  # the open panel follows the game
    again = await table.click("bob", "My hand")
    assert "lucky number" in text_of(again.response.message)
    assert text_of(hand.response.message) == "⬇️ You opened a newer panel: use that one."  # one live panel
    assert not components(hand.response.message)


async def test_cancel_by_host_allowed_by_another_player_refused(simcord_env):
    table = Table(simcord_env, "tiny", ["alice", "bob"])
    await table.seat_everyone()
    refused = await table.slash("bob", "cancel")
    assert refused.ephemeral and "Only the host" in refused.response.content
    await table.click("alice", "+2")
    await table.slash("alice", "cancel")
    notice = table.public_messages()[-1]
    assert text_of(notice) == "alice cancelled the table."  # everyone reads it, not only alice
    board = next(m for m in table.public_messages() if text_of(m).startswith("🚫"))
    assert text_of(board).startswith("🚫 This Tiny Race table was cancelled.\nTiny Race")
    assert "alice: 2" in text_of(board) and not components(board)  # the last board stays, without buttons
    for name in ("alice", "bob"):
        assert text_of(table.dm(name)) == "🚫 This Tiny Race game was cancelled."  # not "the final result"
    reopened = await table.slash("bob", "new")
    assert not reopened.ephemeral


async def test_the_end_records_the_leaderboard_and_offers_a_rematch(simcord_env):
    table = Table(simcord_env, "tiny", ["alice", "bob"])
    await table.seat_everyone()
    board = table.board
    for name in ("alice", "bob", "alice", "bob", "alice"):
        await table.click(name, "+2")
    await simcord_env.settle()
    results = table.public_messages()[-1]
    assert "final result" in heading_of(results)
    # One message with the result: the board that showed the game is gone, the results stay.
    assert board.id not in [message.id for message in table.public_messages()]
    assert [m for m in table.public_messages() if "final result" in heading_of(m)] == [results]
    assert "@" not in text_of(results).replace("<@", "")  # players are mentioned, not typed
    assert f"**1.** <@{table.players['alice'].id}> — 6 points" in text_of(results)
    assert "is over" in text_of(table.dm("alice"))  # the private message closes with the game
    assert "🥇" in text_of(results)
    board = await table.member("bob").slash(table.channel, "leaderboard")
    text = text_of(board.response)
    assert text.index(str(table.players["alice"].id)) < text.index(str(table.players["bob"].id))
    stats = await table.member("bob").slash(table.channel, "stats")
    assert "0 wins / 1 game (0%)" in text_of(stats.response)
    before = {thread.id for thread in table.parent.threads}
    pointed = await table.member("bob").click(results, label="Rematch")
    old = table.channel
    table.follow_thread(before)  # a rematch is a new table: a thread of its own
    assert table.channel.id != old.id and f"<#{table.channel.id}>" in text_of(pointed.followups[0])
    asked = text_of(table.public_messages()[-1])
    assert asked.startswith(f"🔁 <@{table.players['bob'].id}> opened a rematch of Tiny Race.")
    assert f"<@{table.players['alice'].id}>: click **Join**" in asked  # alice is asked, not seated
    assert "Seats (1/3)" in text_of(table.board)
    await table.click("alice", "Join")
    await table.click("bob", "Start")
    assert "Turn: bob" in text_of(table.board) and "alice: 0" in text_of(table.board)


async def test_games_and_rules_help(simcord_env):
    table = Table(simcord_env, "tiny", ["alice"])
    games = await table.host.slash(table.channel, "games")
    assert games.ephemeral and "Tiny Race" in text_of(games.response)
    rules = await table.host.slash(table.channel, "rules", game="tiny")
    assert rules.ephemeral


async def test_a_member_with_manage_channels_may_cancel(simcord_env):
    table = Table(simcord_env, "tiny", ["alice", "bob"])
    await table.seat_everyone()
    moderators = table.guild.create_role("Mods", permissions=discord.Permissions(manage_channels=True))
    moderator = table.guild.add_member(simcord_env.create_user("mod"), roles=[moderators])
    result = await moderator.slash(table.channel, "tiny cancel")
    assert result.ephemeral and "cancelled" in result.response.content
    assert "cancelled" in table.public_text()


async def test_leaving_mid_game_hands_the_seat_to_a_computer_player(simcord_env):
    table = Table(simcord_env, "tiny", ["alice", "bob"])
    await table.seat_everyone()
    await table.slash("alice", "leave")
    await simcord_env.settle()
    # The computer plays alice's turn straight away; bob is to move.
    assert "🤖 alice" in text_of(table.board) and "alice: 1" in text_of(table.board)
    assert "Turn: bob" in text_of(table.board)


async def test_server_admins_set_the_turn_time_out(simcord_env):
    table = Table(simcord_env, "tiny", ["alice", "bob"])
    admins = table.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = table.guild.add_member(simcord_env.create_user("admin"), roles=[admins])
    # Discord itself hides /settings from members without Manage Server.
    assert "settings timeout" not in table.member("bob").available_commands(table.channel)
    assert "settings timeout" in admin.available_commands(table.channel)
    too_short = await admin.slash(table.channel, "settings timeout", seconds=3)
    assert too_short.ephemeral and "between" in too_short.response.content
    done = await admin.slash(table.channel, "settings timeout", seconds=60)
    assert done.ephemeral and "60 seconds" in done.response.content
    await table.seat_everyone()
    await simcord_env.advance_time(61)
    assert "alice: 1" in text_of(table.board)
    shown = await admin.slash(table.channel, "settings show")
    assert "60 s" in text_of(shown.response)


async def test_a_replaced_player_takes_the_seat_back_by_joining(simcord_env):
    table = Table(simcord_env, "tiny", ["alice", "bob", "carol"])
    await table.seat_everyone()
    left = await table.slash("bob", "leave")
    assert "a computer player plays your seat now" in left.response.content
    assert "bob left: a computer player takes their seat" in table.public_text()  # the table is told
    await table.click("alice", "+1")
    await simcord_env.settle()
    assert "🤖 bob" in text_of(table.board) and "bob: 1" in text_of(table.board)  # the computer played
    back = await table.slash("bob", "join")
    assert back.ephemeral and "You took your seat at Tiny Race back" in back.response.content
    assert "bob is back" in table.public_text()
    await table.click("carol", "+1")
    await table.click("alice", "+1")
    await table.click("bob", "+2")  # bob's turn again: he plays it himself
    assert "🤖 bob" not in text_of(table.board) and "bob: 3" in text_of(table.board)


async def test_an_unexpected_error_is_an_apology_and_the_move_still_counts(simcord_env, monkeypatch):
    table = Table(simcord_env, "tiny", ["alice", "bob"])
    await table.seat_everyone()
    cog = simcord_env.bot.get_cog("TinyCog")
    render = cog.render_board
    calls = iter([RuntimeError("boom")])

    def flaky(ctx):  # the first drawing of the board fails, later ones work
        error = next(calls, None)
        if error is not None:
            raise error
        return render(ctx)

    monkeypatch.setattr(cog, "render_board", flaky)
    result = await table.click("alice", "+2")
    assert result.ephemeral and "something went wrong" in result.response.content
    assert "Traceback" not in table.public_text() and "boom" not in table.public_text()
    await simcord_env.settle()
    assert "alice: 2" in text_of(table.board) and "Turn: bob" in text_of(table.board)


async def test_when_the_last_player_leaves_the_game_is_abandoned_without_a_result(simcord_env):
    table = Table(simcord_env, "tiny", ["alice", "bob"])
    await table.seat_everyone()
    await table.slash("alice", "leave")
    gone = await table.slash("bob", "leave")
    assert gone.ephemeral and "abandoned" in gone.response.content
    await simcord_env.settle()
    assert "abandoned" in table.public_text()
    assert not any("final result" in heading_of(m) for m in table.public_messages())
    board = await table.member("bob").slash(table.channel, "leaderboard")
    assert "No finished games" in text_of(board.response)
    again = await table.slash("bob", "new")
    assert not again.ephemeral  # the channel is free for a new table


async def test_a_dm_sent_while_the_next_move_is_committed_is_edited_later_not_sent_again(
    simcord_env, monkeypatch
):
    """The DM's message id is written while a move commits; the move must not lose it."""
    table = Table(simcord_env, "tiny", ["alice", "bob"])
    tables = tables_of(simcord_env.bot)
    alice = table.players["alice"]
    send = discord.DMChannel.send
    moved: list[bool] = []

    async def send_while_alice_moves(channel: discord.DMChannel, *args: Any, **kwargs: Any) -> Any:
        if not moved and getattr(channel.recipient, "id", None) == alice.id:
            moved.append(True)  # alice plays while her first hand is on its way
            await tables.act(table.channel.id, alice.id, tables.games["tiny"].game.decode_action(ADD_TWO))
        return await send(channel, *args, **kwargs)

    monkeypatch.setattr(discord.DMChannel, "send", send_while_alice_moves)
    await table.seat_everyone()
    await simcord_env.settle()
    assert moved
    await table.click("bob", "+1")
    await table.click("alice", "+1")
    dms = alice.user.dm_channel.history()
    assert len(dms) == 1, [text_of(message) for message in dms]  # one hand, edited in place
    assert text_of(dms[0]).endswith("Your total: 3.")


async def test_a_crash_between_commit_and_answer_leaves_no_stale_board_and_the_retry_is_answered(
    simcord_env, bot_factory, monkeypatch
):
    table = Table(simcord_env, "tiny", ["alice", "bob"])
    await table.seat_everyone()
    tables = tables_of(simcord_env.bot)

    async def die(*args: Any, **kwargs: Any) -> None:
        raise asyncio.CancelledError  # the process dies right after the commit, before any answer

    monkeypatch.setattr(type(tables.moves), "_answer", die)
    await table.click("alice", "+2")
    monkeypatch.undo()
    assert "alice: 0" in text_of(table.board)  # nothing was edited: the old board is still up
    retry = await table.click("alice", "+2")  # she clicks again on what she sees
    assert not retry.ephemeral, retry.response and retry.response.content  # answered, not "out of date"
    assert "alice: 2" in text_of(table.board) and "Turn: bob" in text_of(table.board)
    assert (await table.live()).public()["scores"] == [2, 0]  # and not applied twice

    monkeypatch.setattr(type(tables.moves), "_answer", die)
    await table.click("bob", "+1")
    monkeypatch.undo()
    assert "bob: 0" in text_of(table.board)
    await simcord_env.restart_bot(bot_factory())  # the real process restarts
    await simcord_env.settle()
    assert "bob: 1" in text_of(table.board) and "Turn: alice" in text_of(table.board)  # brought up to date
    other = await table.click("bob", "+1")
    assert other.ephemeral and other.response.content == "It isn't your turn."  # a real refusal stays one


async def test_a_restart_redraws_only_the_tables_moved_just_before_it(simcord_env, bot_factory):
    """After a restart only moves made just before the stop may be unshown: the tables moved within
    RECOVER_BEFORE_STOP of the last stored move are redrawn at once, an earlier one waits for its next
    contact (at 10,000 tables active within the hour, redrawing all cost 23,580 requests)."""
    early = Table(simcord_env, "tiny", ["alice", "bob"])
    await early.seat_everyone()
    late = Table(simcord_env, "tiny", ["carol", "dave"])
    await late.seat_everyone()
    await early.click("alice", "+2")
    await simcord_env.advance_time(RECOVER_BEFORE_STOP + 30)  # within the turn time: no deadline fires
    await late.click("carol", "+1")
    before = len(simcord_env.http_requests)
    await simcord_env.restart_bot(bot_factory())
    await simcord_env.settle()
    edited = {request.path for request in simcord_env.http_requests[before:] if request.method == "PATCH"}
    assert any(path.endswith(f"/messages/{late.board.id}") for path in edited)
    assert not any(path.endswith(f"/messages/{early.board.id}") for path in edited)
    assert "alice: 2" in text_of(early.board)  # it was shown before the stop: nothing stale
    moved = await early.click("bob", "+1")  # its next contact reads it again
    assert not moved.ephemeral and "bob: 1" in text_of(early.board)


def test_the_transcript_check_holds_every_public_board_to_its_size_and_to_the_table():
    """tests/e2e/transcript.py fails a test whose public board is over 12 lines (rows of buttons
    counted) or 900 characters, or says "you"; DMs, ephemerals and the results are not boards."""

    def said(text: str, *, public: bool = True, control: str = "sb:tiny:1:0:t:hand", rows: int = 1) -> Line:
        return Line("#channel", "edit", text, text, public=public, message=7, reading=text,
                    controls=(control,), rows=rows)  # fmt: skip

    eleven = "\n".join(f"line {number}" for number in range(11))
    assert board_problems([said(eleven)]) == []  # 11 lines and a row of buttons: 12
    assert board_problems([said(eleven, rows=2)])[0].startswith("public board of 13 lines")
    assert f"{BOARD_MAX_CHARS + 1} characters" in board_problems([said("x" * (BOARD_MAX_CHARS + 1))])[0]
    assert "speaks to the table" in board_problems([said("👉 Your dice reach sushi #2")])[0]
    assert board_problems([said("🎲 alice's turn: **Roll**")]) == []
    assert board_problems([said(eleven + "\nyou", public=False)]) == []  # a DM or an ephemeral
    assert board_problems([said(eleven + "\nyou", control="sb:tiny:1:0:t:rematch")]) == []  # the results
    cancelled = Line("#channel", "edit", eleven * 2, eleven * 2, public=True, message=7, reading=eleven * 2)
    assert len(board_problems([said("🍣 a board"), cancelled])) == 1  # an edit of a board is a board
    assert BOARD_MAX_LINES == 12
