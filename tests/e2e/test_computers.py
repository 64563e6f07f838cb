"""Computer players end to end: one human opens a table, seats computers from the lobby and plays a
whole game of each of the five games against them; a time-out takeover plays at normal; computers
get no DMs and no place on the leaderboard; a server may stop counting games with computers.

The human plays by the components that carry a move (board, DM, panel), choosing the table's own
move where it has a control. Computers move after `computer_delay`, shortened here so their turns
pass within one settle; Sushi Dice keeps its slowed clocks and rigged dice (tests/e2e/rigged_dice.py).
"""

from __future__ import annotations

from typing import Any

import discord
import pytest

from cogs.tables import tables_of
from cogs.tables.deadlines import decision_seed
from rules.computer.play import choose
from rules.registry import GAMES
from rules.sushidice.game import Ring, Roll
from storage.tables import TableRecord
from tests.e2e.helpers import Player, Table, buttons, field_of, heading_of, text_of
from tests.e2e.rigged_dice import (
    PUBLISHED,
    SEED,
    STEP,
    DiceScript,
    dice,
    plate_faces,
    scripted_throws,
    slow_clocks,
)
from tests.games import extensions as game_extensions
from tests.games import group, kit

__all__ = ["dice", "scripted_throws"]  # the Sushi Dice tests' rigged dice
pytestmark = pytest.mark.seed(SEED)  # and their fixed seeds

QUICK = 0.01  # seconds a turn-based computer waits here: its moves pass within one settle


@pytest.fixture
def extensions() -> tuple[str, ...]:
    games = game_extensions()
    return (
        "cogs.tables",
        *games,
        "tests.e2e.tinygame",
        "cogs.stats.leaderboard",
        "cogs.preferences.settings",
        "cogs.preferences.notify",
    )


@pytest.fixture(autouse=True)
def quick_computers(simcord_env: Any) -> None:
    for cog in tables_of(simcord_env.bot).games.values():
        if cog.game.id not in GAMES or not kit(cog.game.id).real_time:  # real time: slowed instead
            cog.computer_delay = QUICK


# ---------------------------------------------------------------- the human's hands


async def play_to_the_end(table: Table, human: Player) -> None:
    """The human (seat 0) plays the table's own move, else any move its controls offer; the
    computers play theirs meanwhile."""
    for _ in range(400):
        ctx = await table.live()
        if ctx is None:
            return
        if 0 not in ctx.game.to_move(ctx.state):
            await table.env.advance_time(QUICK)  # the computers' turn
            continue
        choices = [ctx.game.default_action(ctx.state, 0), *ctx.game.legal_actions(ctx.state, 0)]
        for action in choices:
            if await human.play(ctx.game.id, action):
                break
        else:
            raise AssertionError(f"no control for any move: {choices[:5]}")
    raise AssertionError("the game did not end")


async def duel_to_the_end(table: Table, human: Player, script: DiceScript) -> None:
    """Sushi Dice: the human challenges, then throws a face-up plate's dice (rigged) and rings for it,
    while the computer duels at its own pace, until someone owns enough plates."""
    for _ in range(60):
        ctx = await table.live()
        if ctx is None:
            return
        view = ctx.public()
        if view["phase"] == "challenge":
            assert await human.play("sushidice", ctx.game.default_action(ctx.state, 0))
            continue
        if human.opened is None:
            await human.open_panel()
        colour = next(duelist["set"] for duelist in view["duelists"] if duelist["seat"] == 0)
        script.then(colour, plate_faces(view["face_up"][0]))
        if await human.play("sushidice", Roll()):
            ctx = await table.live()
            rings = [a for a in ctx.game.legal_actions(ctx.state, 0) if isinstance(a, Ring)] if ctx else []
            if rings:
                await human.play("sushidice", rings[0])
        await table.env.advance_time(PUBLISHED)  # the computer sees the board and clicks meanwhile
    raise AssertionError("the duel did not end")


# ---------------------------------------------------------------- helpers


def computer_seats(board: discord.Message) -> str:
    return field_of(board, "Seats")


async def finished_record(table: Table) -> TableRecord:
    record = await table.tables.store.last_table(table.channel.id)
    assert record is not None and record.status == "finished", record and record.status
    return record


def results_message(table: Table) -> discord.Message:
    """The latest results posted in the channel."""
    found = [m for m in table.public_messages() if "final result" in heading_of(m)]
    return found[-1]


def no_dm_to_a_computer(env: Any) -> None:
    assert all(user > 0 for user in env.backend.dm_channels)
    assert not any("/users/-" in request.path for request in env.http_requests)


# ---------------------------------------------------------------- a whole game of each


def _games() -> list[Any]:
    real_time = [pytest.mark.simcord(settle_timeout=STEP * 0.8)]
    return [pytest.param(game, id=game, marks=real_time if kit(game).real_time else []) for game in GAMES]


@pytest.mark.parametrize("game", _games())
async def test_one_human_against_computers_from_the_lobby(simcord_env: Any, dice: DiceScript, game: str):
    env = simcord_env
    testkit = kit(game)
    if testkit.real_time:
        slow_clocks(env)
    table = Table(env, group(game), ["alice"])
    options: dict[str, Any] = dict(testkit.options)
    if testkit.lobby_level is not None:
        options["level"] = testkit.lobby_level
    if testkit.lobby_computers:
        options["computers"] = testkit.lobby_computers  # seated at once; one goes again below
    await table.open(**options)
    start = next(b for b in buttons(table.board) if b.label == "Start")
    assert start.disabled == (not testkit.lobby_computers)  # alone, nobody can start
    await table.click("alice", "Add computer")
    seats = computer_seats(table.board)
    level = testkit.lobby_level or "normal"
    assert f"🤖 Temaki ({level})" in seats and "<@-" not in seats
    if testkit.lobby_computers:
        assert "🤖 Onigiri (normal)" in seats and "🤖 Uramaki (normal)" in seats
        await table.click("alice", "Remove computer")  # the last one added
        assert "Uramaki" not in computer_seats(table.board)
        assert "🤖 Uramaki leaves the table." in table.public_text()
    assert "🤖 Temaki (" in table.public_text()  # said in the channel: it sat down
    await table.start()

    human = Player(table, table.host_name)
    if testkit.real_time:
        await duel_to_the_end(table, human, dice)
    else:
        await play_to_the_end(table, human)
    await env.settle()

    record = await finished_record(table)
    assert [seat.user_id > 0 for seat in record.seats] == [True] + [False] * (len(record.seats) - 1)
    results = results_message(table)
    assert "🤖 Temaki" in text_of(results) and "Played with computer players" in text_of(results)
    assert "<@-" not in text_of(results)  # a computer is named, never mentioned
    log = await table.tables.store.actions(record.id)
    by_computer = [action for _, seat, action in log if seat is not None and seat > 0]
    assert by_computer and all(action.get("by") == "computer" for action in by_computer)
    no_dm_to_a_computer(env)
    board = table.tables.leaderboard
    assert [s.user_id for s in await board.top(table.guild.id, game)] == [table.players["alice"].id]
    standing = await board.standing(table.guild.id, table.players["alice"].id, game)
    assert standing is not None and standing.games == standing.computer_games == 1


# ---------------------------------------------------------------- the lobby's rules


async def test_only_the_host_seats_computers_and_never_past_a_full_table(simcord_env: Any):
    table = Table(simcord_env, "tiny", ["alice", "bob"])
    await table.open()
    assert next(b for b in buttons(table.board) if b.label == "Remove computer").disabled  # none yet
    await table.click("alice", "Add computer")
    stranger = await table.click("bob", "Add computer")
    assert stranger.ephemeral
    assert "Only the host can add or remove computer players" in stranger.response.content
    await table.join("bob")  # the third and last seat
    guest = await table.click("bob", "Remove computer")
    assert guest.ephemeral and "Only the host" in guest.response.content
    assert next(b for b in buttons(table.board) if b.label == "Add computer").disabled
    ctx = await table.live()
    assert ctx is not None and len(ctx.record.seats) == 3
    await table.slash("alice", "cancel")
    crowded = await table.open(computers=3)
    assert crowded.ephemeral and "At most 2 computer players" in crowded.response.content


async def test_the_host_leaving_passes_the_table_to_a_human_not_a_computer(simcord_env: Any):
    table = Table(simcord_env, "tiny", ["alice", "bob"])
    await table.open(computers=1)
    await table.join("bob")
    await table.slash("alice", "leave")
    ctx = await table.live()
    assert ctx is not None and ctx.record.host_id == table.players["bob"].id
    await table.slash("bob", "leave")  # only a computer is left: no table
    assert await table.live() is None
    last = await table.tables.store.last_table(table.channel.id)
    assert last is not None and last.status == "cancelled"


# ---------------------------------------------------------------- stand-ins and counting


async def test_a_time_out_takeover_plays_at_normal(simcord_env: Any):
    """Both players time out three times: computers finish the game, every move the one `normal`
    makes from the table's seed for that moment (so a decision can be reproduced from the log)."""
    env = simcord_env
    table = Table(env, "sushizock", ["alice", "bob"])
    await table.seat_everyone()
    for _ in range(12):
        if await table.live() is None:
            break
        await env.advance_time(301)
    record = await finished_record(table)
    assert all(seat.computer and seat.level is None for seat in record.seats)
    assert "computer player takes over" in table.public_text()
    game = GAMES["sushizock"]
    state = game.new(
        2,
        next(
            a["seed"] for _, s, a in await table.tables.store.actions(record.id) if s is None and "seed" in a
        ),
        record.options,
    )
    computer_moves = 0
    for version, seat, action in await table.tables.store.actions(record.id):
        if seat is None:
            continue
        if action.get("by") == "computer":
            at = TableRecord(
                record.guild_id,
                record.channel_id,
                "sushizock",
                record.host_id,
                id=record.id,
                version=version - 1,
            )
            expected = choose(game, state, seat, "normal", decision_seed(at, seat))
            assert game.encode_action(expected) == {k: v for k, v in action.items() if k != "by"}
            computer_moves += 1
        game.apply(state, seat, game.decode_action({k: v for k, v in action.items() if k != "by"}))
    assert computer_moves > 10
    board = table.tables.leaderboard
    assert len(await board.top(table.guild.id, "sushizock")) == 2  # stand-ins: the humans keep their result


async def test_a_server_may_stop_counting_games_with_computers(simcord_env: Any):
    env = simcord_env
    table = Table(env, "tiny", ["alice"])
    admins = table.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = table.guild.add_member(env.create_user("admin"), roles=[admins])
    alice = table.players["alice"].id

    async def solo_game() -> None:
        await table.open(computers=1)
        await table.start()
        while await table.live() is not None:
            if "Turn: alice" in text_of(table.board):
                await table.click("alice", "+2")
            else:
                await env.advance_time(QUICK)

    await solo_game()
    board = table.tables.leaderboard
    before = await board.standing(table.guild.id, alice, "tiny")
    assert before is not None and (before.games, before.computer_games) == (1, 1)
    stats = await table.host.slash(table.channel, "stats")
    assert "🤖 1 game with computer players" in text_of(stats.response)
    assert "🤖 Temaki" not in text_of((await table.host.slash(table.channel, "leaderboard")).response)

    done = await admin.slash(table.channel, "settings computers", counted=False)
    assert done.ephemeral and "no longer count" in text_of(done.response)
    shown = await admin.slash(table.channel, "settings show")
    assert "Games with computer players: **not counted**" in text_of(shown.response)
    await solo_game()
    after = await board.standing(table.guild.id, alice, "tiny")
    assert after == before  # her stats did not change
    assert await board.recent(table.guild.id, alice) == await board.recent(table.guild.id, alice, 1)
    results = results_message(table)
    assert "does not count such games" in text_of(results)
    assert "Not saved to this server's leaderboard" in text_of(results)
    history = await table.tables.store.every_table()
    assert [record.status for record in history] == ["finished", "finished"]


async def test_idle_duelists_time_out_while_a_computer_looks_on(simcord_env: Any, dice: DiceScript):
    """A computer looking on does not keep the idle human duelists from timing out."""
    env = simcord_env
    slow_clocks(env)
    table = Table(env, "sushidice", ["alice", "bob"])
    await table.open(computers=1)
    await table.join("bob")
    await table.start()
    await table.click("alice", "bob")  # the host challenges bob; the computer (seat 1) looks on
    ctx = await table.live()
    assert ctx is not None and {dice.holder for dice in ctx.state.sets} == {0, 2}
    await env.advance_time(301)  # the turn time (300 s) with nobody clicking
    ctx = await table.live()
    assert ctx is not None and ctx.record.seats[0].timeouts == ctx.record.seats[2].timeouts == 1
    assert table.public_text().count("took too long") >= 2
