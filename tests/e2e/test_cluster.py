"""Two bot processes, two shard sets, one PostgreSQL: the bot as it runs past one process.

The main process runs shard 0 (and so every DM), a peer process shard 1 (tests/e2e/cluster.py puts
both on one simulated Discord). Each plays the games of its own guilds; a DM pick reaches a table of
the other process's guild and its board follows; one click delivered to both processes is applied
once; a process killed mid-game leaves no table stuck: its deadlines are taken over and a restarted
process goes on with its games.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any, cast

import pytest
from simcord import Env

from bot import Settings, ShardedSushiBar, create_bot
from cogs.tables import tables_of
from cogs.tables.cluster import GRACE, LEASE, SWEEP_EVERY
from storage.tables import TABLES_CHANNEL
from tests.e2e.cluster import Peer, Peers
from tests.e2e.helpers import Player, Table, components, heading_of, no_refusal, text_of
from tests.e2e.tinygame import FOUNDATION
from tests.seeds import TableSeeds

SHARDS = 2
TIMEOUT = 300.0  # the turn time-out of every process here


@pytest.fixture
def extensions() -> tuple[str, ...]:
    return (*FOUNDATION, "cogs.games.sushigo.cog")


@pytest.fixture
def database_url(postgres_url: str) -> str:
    return postgres_url


@pytest.fixture
def process(
    database_path: Path, database_url: str, extensions: tuple[str, ...], seeds: TableSeeds
) -> Callable[..., ShardedSushiBar]:
    """A bot process running `shard_ids` of SHARDS shards on the shared PostgreSQL."""

    def build(*shard_ids: int) -> ShardedSushiBar:
        settings = Settings(
            token="simcord",
            database_path=str(database_path),
            database_url=database_url,
            turn_timeout=TIMEOUT,
            shard_count=SHARDS,
            shard_ids=shard_ids,
        )
        return cast(ShardedSushiBar, create_bot(settings, extensions=extensions, sync=True, seeds=seeds))

    return build


@pytest.fixture
def simcord_bot(process: Callable[..., ShardedSushiBar]) -> ShardedSushiBar:
    return process(0)  # the main process: shard 0, so every DM


@pytest.fixture
async def peers(simcord_env: Env) -> AsyncIterator[Peers]:
    async with Peers(simcord_env) as running:
        yield running


async def eventually(env: Env, check: Callable[[], bool], what: str) -> None:
    """Settle until `check()` holds. A move made in one process reaches the other by a PostgreSQL
    notification: real I/O that simcord's settling cannot see, so this also waits a little."""
    for _ in range(300):
        await env.settle()
        if check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"never happened: {what}")


async def stored(table: Table) -> Any:
    """The table's state as stored (what every process judges by), None once it is over."""
    record = await tables_of(table.env.bot).store.open_table(table.channel.id)
    if record is None:
        return None
    return tables_of(table.env.bot).games[record.game_id].game.load(record.state)


def results_shown(table: Table) -> bool:
    return any("final result" in heading_of(m) for m in table.public_messages())


def board_says(table: Table, *words: str) -> Callable[[], bool]:
    return lambda: all(word in text_of(table.board) for word in words)


# ---------------------------------------------------------------- each process its own guilds


async def test_each_process_plays_the_games_of_its_own_guilds(simcord_env, peers, process):
    peer = await peers.attach(process(1))
    here = Table(simcord_env, "tiny", ["alice", "bob"], shard_id=0)
    there = Table(simcord_env, "tiny", ["carol", "dave"], shard_id=1)
    for table in (here, there):
        await table.seat_everyone()
    first, second = (here, "alice", "bob"), (there, "carol", "dave")
    for table, one, other in (first, second, first, second):
        no_refusal(await table.click(one, "+2"))
        no_refusal(await table.click(other, "+1"))
    # Each process serves its own guild's clicks: the other one never had the table in memory.
    main_tables, peer_tables = tables_of(simcord_env.bot), tables_of(peer.bot)
    assert here.channel.id in main_tables.cache.loaded and here.channel.id not in peer_tables.cache.loaded
    assert there.channel.id in peer_tables.cache.loaded and there.channel.id not in main_tables.cache.loaded
    for table, one, _ in (first, second):
        no_refusal(await table.click(one, "+2"))  # 6: the game is over
        await eventually(simcord_env, lambda t=table: results_shown(t), "the results")
        assert f"<@{table.member(one).id}> — 6 points" in table.public_text()  # the results: the winner


# ---------------------------------------------------------------- DMs reach the other process's tables


async def test_dm_picks_reach_a_table_of_the_other_process_and_its_board_follows(simcord_env, peers, process):
    peer = await peers.attach(process(1))
    table = Table(simcord_env, "sushigo", ["alice", "bob"], shard_id=1)  # shown by the peer
    await table.seat_everyone()
    players = {name: Player(table, name) for name in ("alice", "bob")}
    game = tables_of(peer.bot).games["sushigo"].game
    before = text_of(table.board)
    picks = 0
    while (state := await stored(table)) is not None:
        for seat in sorted(game.to_move(state)):
            name = ("alice", "bob")[seat]
            assert table.dm(name) is not None, "each hand is a DM"
            # The hand of a new turn is drawn by the peer once it hears of the last pick.
            await eventually(simcord_env, lambda n=name: bool(components(table.dm(n))), f"{name}'s hand")
            assert await players[name].play("sushigo", game.legal_actions(state, seat)[0])  # in the DM
            picks += 1
        if picks == 2:
            # The DM picks were judged and committed by the main process (shard 0 hears every DM);
            # the board, in the peer's guild, is redrawn by the peer once it hears of them.
            assert table.channel.id in tables_of(simcord_env.bot).cache.loaded
            board_now = lambda: text_of(table.board) != before  # noqa: E731
            await eventually(simcord_env, board_now, "the first turn revealed on the board")
    assert picks >= 20
    await eventually(simcord_env, lambda: results_shown(table), "the results")
    record = await tables_of(simcord_env.bot).store.last_table(table.channel.id)
    assert record is not None and record.status == "finished"


# ---------------------------------------------------------------- one click, two processes


async def test_the_same_click_delivered_to_both_processes_is_applied_once(simcord_env, peers, process):
    table = Table(simcord_env, "tiny", ["alice", "bob"], shard_id=0)
    await table.seat_everyone()
    # Shard 0 twice: both processes hear the same interactions (Discord never does this, but a
    # retry or a split connection must not apply a click twice).
    peer = await peers.attach(process(0, 1))
    for name, label, total in (("alice", "+2", 2), ("bob", "+1", 1), ("alice", "+2", 4)):
        result = await table.click(name, label)
        no_refusal(result)
        await eventually(simcord_env, board_says(table, f"{name}: {total}"), f"{name} at {total}")
    record = await tables_of(simcord_env.bot).store.open_table(table.channel.id)
    assert record is not None
    log = await tables_of(simcord_env.bot).store.actions(record.id)
    adds = [action for _, _, action in log if action.get("type") == "add"]
    assert [action["amount"] for action in adds] == [2, 1, 2], log  # three clicks, three moves
    for bot in (simcord_env.bot, peer.bot):  # both processes judged the clicks
        assert table.channel.id in tables_of(bot).cache.loaded
    assert "alice: 4" in text_of(table.board) and "bob: 1" in text_of(table.board)


# ---------------------------------------------------------------- a process dies


async def test_a_killed_process_s_timers_are_taken_over_and_its_games_go_on(simcord_env, peers, process):
    peer = await peers.attach(process(1))
    table = Table(simcord_env, "tiny", ["alice", "bob"], shard_id=1)
    await table.seat_everyone()
    no_refusal(await table.click("alice", "+2"))
    await eventually(simcord_env, board_says(table, "alice: 2", "Turn: bob"), "bob's turn")
    await peer.kill()  # bob's turn timer dies with it
    await simcord_env.advance_time(TIMEOUT + GRACE + SWEEP_EVERY + 1)
    # The main process found the overdue deadline, played bob's time-out and shows the table now.
    await eventually(simcord_env, board_says(table, "bob: 1", "Turn: alice"), "bob timed out")
    assert any("took too long" in text_of(m) for m in table.public_messages())
    await simcord_env.advance_time(TIMEOUT + 1)  # alice's turn runs out too: the main process again
    await eventually(simcord_env, board_says(table, "alice: 3", "Turn: bob"), "alice timed out")

    again = await peers.attach(process(1))  # the process is restarted: the guild's clicks are heard
    no_refusal(await table.click("bob", "+2"))
    await eventually(simcord_env, board_says(table, "bob: 3", "Turn: alice"), "bob's click")
    no_refusal(await table.click("alice", "+2"))
    await eventually(simcord_env, lambda: results_shown(table), "alice wins")
    assert f"<@{table.member('alice').id}> — 5 points" in table.public_text()
    assert await stored(table) is None  # over, and stored so by whichever process
    assert table.channel.id not in tables_of(again.bot).cache.loaded


async def test_a_process_killed_while_it_holds_a_lease_is_taken_over_when_the_lease_runs_out(
    simcord_env, peers, process
):
    peer: Peer[ShardedSushiBar] = await peers.attach(process(1))
    table = Table(simcord_env, "tiny", ["alice", "bob"], shard_id=1)
    await table.seat_everyone()
    no_refusal(await table.click("alice", "+1"))
    await eventually(simcord_env, board_says(table, "alice: 1", "Turn: bob"), "bob's turn")
    version = await tables_of(simcord_env.bot).store.version_of(table.channel.id)
    pipeline = tables_of(peer.bot).deadlines
    deadline_due = pipeline.deadline_due

    async def die_holding_the_lease(channel_id: int) -> None:
        peer.kill_now()  # the lease is taken: the process dies before it moves
        await deadline_due(channel_id)

    pipeline.deadline_due = die_holding_the_lease
    await simcord_env.advance_time(TIMEOUT + 1)
    assert not peer.alive
    # Nobody has moved for bob: the main process's sweep finds the lease still held.
    assert await tables_of(simcord_env.bot).store.version_of(table.channel.id) == version
    assert not any("took too long" in text_of(m) for m in table.public_messages())
    await simcord_env.advance_time(LEASE + SWEEP_EVERY)
    await eventually(simcord_env, board_says(table, "bob: 1", "Turn: alice"), "bob timed out")


async def test_a_board_catches_up_on_moves_made_while_its_process_was_not_listening(
    simcord_env, peers, process
):
    peer = await peers.attach(process(1))
    table = Table(simcord_env, "sushigo", ["alice", "bob"], shard_id=1)  # shown by the peer
    await table.seat_everyone()
    before = text_of(table.board)
    # The peer's listening connection is down (storage's tests drop a real one and see `on_gap`
    # called after the reconnect): the DM picks, made by the main process, are not heard.
    database = tables_of(peer.bot).store.database
    listeners = database._callbacks[TABLES_CHANNEL]
    database._callbacks[TABLES_CHANNEL] = []
    state = await stored(table)
    game = tables_of(peer.bot).games["sushigo"].game
    for seat, name in enumerate(("alice", "bob")):
        assert await Player(table, name).play("sushigo", game.legal_actions(state, seat)[0])
    await simcord_env.settle()
    assert text_of(table.board) == before  # nobody told the peer
    database._callbacks[TABLES_CHANNEL] = listeners
    tables_of(peer.bot).missed()  # as the reconnected listener says
    board_now = lambda: text_of(table.board) != before  # noqa: E731
    await eventually(simcord_env, board_now, "the board caught up")


async def test_a_dead_process_s_tables_are_shown_by_another_until_it_is_back(simcord_env, peers, process):
    peer = await peers.attach(process(1))
    table = Table(simcord_env, "sushigo", ["alice", "bob"], shard_id=1)
    await table.seat_everyone()
    await peer.kill()
    main = tables_of(simcord_env.bot)
    await simcord_env.advance_time(LEASE + 2 * SWEEP_EVERY)  # its heartbeat runs out; no deadline yet
    assert main.cluster.orphaned == {1}
    # DM picks (heard by the main process, as always) now show on the board, drawn by the main one.
    before = text_of(table.board)
    state = await stored(table)
    game = main.games["sushigo"].game
    for seat, name in enumerate(("alice", "bob")):
        assert await Player(table, name).play("sushigo", game.legal_actions(state, seat)[0])
    board_now = lambda: text_of(table.board) != before  # noqa: E731
    await eventually(simcord_env, board_now, "the turn revealed by the main process")
    assert "revealed" in text_of(table.board).casefold()  # the turn the main process revealed
    # The process is back: at the next heartbeat the main process leaves the shard to it again.
    await peers.attach(process(1))
    await simcord_env.advance_time(SWEEP_EVERY)
    assert main.cluster.orphaned == frozenset()
