"""The two-process harness (tests/e2e/cluster.py) on two minimal sharded bots: each process answers
for its own shards, DMs go to shard 0's, overlapping shards deliver one click to both (Discord
accepts one answer), and a killed process answers nothing and leaves nothing running."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from typing import Any, cast

import discord
import pytest
from discord import app_commands
from discord.ext import commands
from simcord import Env

from tests.e2e.cluster import Peer, Peers

SHARDS = 2
TICK = 60.0  # seconds between two ticks of each process's background loop


class FakeDatabase:
    """Stands in for PostgresDatabase's connection: what a dying task touches on its way out."""

    def __init__(self) -> None:
        self.terminated = False
        self.closed = False

    def write(self, what: str) -> None:
        if self.terminated:
            raise ConnectionError(f"connection was terminated while writing {what!r}")

    def terminate(self) -> None:
        self.terminated = True

    async def close(self) -> None:
        self.closed = True


class Ping(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=r"harness:ping"):
    """A persistent button: any process running the click's shard answers it."""

    def __init__(self) -> None:
        super().__init__(discord.ui.Button(label="Ping", custom_id="harness:ping"))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Ping:
        return cls()

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await answer(interaction, "pong")


async def answer(
    interaction: discord.Interaction[Any], text: str, view: discord.ui.View | None = None
) -> bool:
    """Reply naming this process; False when another process answered the interaction first."""
    bot = cast(HarnessBot, interaction.client)
    try:
        await interaction.response.send_message(f"{text} from {bot.name}", view=view or discord.utils.MISSING)
    except discord.HTTPException as error:
        if error.code != 40060:  # "already acknowledged": the other process's answer stands
            raise
        bot.refused.append(error.code)
        return False
    return True


def ping_view() -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(Ping())
    return view


@app_commands.command(description="Say which process answers")
async def hello(interaction: discord.Interaction[Any]) -> None:
    if await answer(interaction, "hello", ping_view()):
        bot = cast(HarnessBot, interaction.client)
        await interaction.user.send(f"a button from {bot.name}", view=ping_view())


class HarnessBot(commands.AutoShardedBot):
    def __init__(self, name: str, shard_ids: list[int]) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            shard_count=SHARDS,
            shard_ids=shard_ids,
        )
        self.name = name
        self.refused: list[int] = []
        self.ticks = 0
        self.timers = 0
        self.farewells = 0
        self.heard: list[str] = []
        self.database = FakeDatabase()
        self.ticker: asyncio.Task[None] | None = None

    async def setup_hook(self) -> None:
        self.tree.add_command(hello)
        self.add_dynamic_items(Ping)
        self.ticker = asyncio.create_task(self._tick())
        asyncio.get_running_loop().call_later(2 * TICK, self._ring)  # a bare timer, no task

    def _ring(self) -> None:
        self.timers += 1

    async def on_message(self, message: discord.Message) -> None:
        if message.content == "wait for me":
            await asyncio.sleep(TICK)  # outlives the process that sent the message
            self.heard.append(message.content)

    async def _tick(self) -> None:
        try:
            while True:
                await asyncio.sleep(TICK)
                self.ticks += 1
        finally:
            asyncio.create_task(self._farewell())  # noqa: RUF006  (what a dying process starts, dies)
            self.database.write("ticker stopped")  # fails on a terminated connection

    async def _farewell(self) -> None:
        await asyncio.sleep(0)
        self.farewells += 1

    async def close(self) -> None:
        await super().close()
        await self.database.close()


def main(env: Env) -> HarnessBot:
    return cast(HarnessBot, env.bot)


@pytest.fixture
def simcord_bot() -> HarnessBot:
    return HarnessBot("main", [0])


@pytest.fixture
async def peers(simcord_env: Env) -> AsyncIterator[Peers]:
    async with Peers(simcord_env) as peers:
        yield peers


@pytest.fixture
async def peer(simcord_env: Env, peers: Peers) -> Peer[HarnessBot]:
    await main(simcord_env).tree.sync()  # one application: the main process syncs for both
    return await peers.attach(HarnessBot("peer", [1]))


def guilds(env: Env) -> tuple[Any, Any]:
    """A channel in a guild on shard 0 and one on shard 1, with alice in both."""
    alice = env.create_user("alice")
    channels = []
    for shard in (0, 1):
        guild = env.create_guild(f"shard {shard}", shard_id=shard)
        channels.append((guild.add_member(alice), guild.create_text_channel("sushi")))
    return channels[0], channels[1]


async def test_each_process_answers_its_own_shards_and_dms_go_to_shard_0(
    simcord_env: Env, peer: Peer[HarnessBot]
):
    (alice0, sushi0), (alice1, sushi1) = guilds(simcord_env)
    assert (await alice0.slash(sushi0, "hello")).response.content == "hello from main"
    answer = await alice1.slash(sushi1, "hello")
    assert answer.response.content == "hello from peer"
    # The peer's DM went out on its REST client; the click on it is a DM event: shard 0, main.
    dm = alice1.user.dm_channel.last_message
    assert dm is not None and dm.content == "a button from peer"
    assert (await alice1.user.click(dm, label="Ping")).response.content == "pong from main"
    # Its persistent button in the shard-1 guild goes back to the peer.
    assert (await alice1.click(answer.response.message, label="Ping")).response.content == "pong from peer"
    assert peer.bot.get_guild(sushi1.guild.id) is not None and peer.bot.get_guild(sushi0.guild.id) is None


async def test_a_message_the_peer_sends_into_a_shard_0_guild_reaches_the_players(
    simcord_env: Env, peer: Peer[HarnessBot]
):
    (alice0, sushi0), _ = guilds(simcord_env)
    channel = peer.bot.get_partial_messageable(sushi0.id, guild_id=sushi0.guild.id)
    await peer.run(channel.send("the peer writes here", view=ping_view()))
    message = sushi0.last_message
    assert message is not None and message.content == "the peer writes here"
    assert (await alice0.click(message, label="Ping")).response.content == "pong from main"
    # What the main process does about the peer's message is its own work: the peer's death
    # does not take it along.
    await peer.run(channel.send("wait for me"))
    await peer.kill()
    await simcord_env.advance_time(TICK)
    assert main(simcord_env).heard == ["wait for me"] and peer.bot.heard == []


async def test_overlapping_shards_get_the_same_dm_click_and_one_answer_is_accepted(
    simcord_env: Env, peers: Peers
):
    await main(simcord_env).tree.sync()
    both = await peers.attach(HarnessBot("peer", [0, 1]))
    (alice0, sushi0), _ = guilds(simcord_env)
    # Both processes run shard 0: each receives the command, Discord takes the first answer.
    await alice0.slash(sushi0, "hello")
    assert [m.content for m in sushi0.history()] in (["hello from main"], ["hello from peer"])
    assert main(simcord_env).refused + both.bot.refused == [40060]
    dms = alice0.user.dm_channel.history()
    assert len(dms) == 1  # only the winner went on to DM
    click = await alice0.user.click(dms[0], label="Ping")  # a DM: shard 0, both processes again
    assert click.acknowledged and click.response.content in ("pong from main", "pong from peer")
    assert main(simcord_env).refused + both.bot.refused == [40060, 40060]


async def test_a_killed_peer_answers_nothing_and_leaves_nothing_running(
    simcord_env: Env, peer: Peer[HarnessBot]
):
    _, (alice1, sushi1) = guilds(simcord_env)
    answer = await alice1.slash(sushi1, "hello")
    ticker = peer.bot.ticker
    assert ticker is not None and ticker in peer.tasks
    await simcord_env.advance_time(TICK)
    assert peer.bot.ticks == 1 and main(simcord_env).ticks == 1

    await peer.kill()
    assert not peer.alive and peer.tasks == [] and ticker.done()  # died writing: see below
    assert peer.bot.database.terminated and not peer.bot.database.closed  # no clean close
    silent = await alice1.slash(sushi1, "hello")
    assert not silent.acknowledged
    assert not (await alice1.click(answer.response.message, label="Ping")).acknowledged
    await simcord_env.advance_time(3 * TICK)
    await simcord_env.settle()
    assert peer.bot.ticks == 1 and main(simcord_env).ticks == 4
    assert peer.bot.timers == 0 and main(simcord_env).timers == 1 and peer.bot.farewells == 0
    # The ticker's dying write failed on the terminated connection: not the test's error.
    assert simcord_env.errors_since(0) == ()
    await peer.close()
    await peer.close()
    assert not peer.bot.database.closed


async def test_kill_now_from_the_peers_own_code_mid_interaction(simcord_env: Env, peer: Peer[HarnessBot]):
    _, (alice1, sushi1) = guilds(simcord_env)

    async def dies_mid_answer(interaction: discord.Interaction[Any]) -> None:
        peer.kill_now()  # the process dies while handling the command
        await asyncio.sleep(0)
        await interaction.response.send_message("never sent")

    peer.bot.tree.remove_command("hello")
    peer.bot.tree.add_command(app_commands.Command(name="hello", description="x", callback=dies_mid_answer))
    assert not (await alice1.slash(sushi1, "hello")).acknowledged
    assert peer.tasks == [] and simcord_env.errors_since(0) == ()
    await simcord_env.advance_time(TICK)


async def test_a_live_peers_errors_are_the_tests_errors(simcord_env: Env, peer: Peer[HarnessBot]):
    _, (alice1, sushi1) = guilds(simcord_env)

    async def fails(interaction: discord.Interaction[Any]) -> None:
        raise RuntimeError("the peer broke")

    peer.bot.tree.remove_command("hello")
    peer.bot.tree.add_command(app_commands.Command(name="hello", description="x", callback=fails))
    await alice1.slash(sushi1, "hello")
    errors = simcord_env.errors  # read, so acknowledged: the test does not fail at teardown
    assert [str(getattr(error, "original", error)) for error in errors] == ["the peer broke"]


async def test_a_clean_close_unloads_the_peer_and_is_idempotent(simcord_env: Env, peer: Peer[HarnessBot]):
    _, (alice1, sushi1) = guilds(simcord_env)
    await peer.close()
    await peer.close()
    assert peer.bot.database.closed and not peer.bot.database.terminated
    assert peer.tasks == [] and not peer.alive
    assert not (await alice1.slash(sushi1, "hello")).acknowledged
    await simcord_env.advance_time(TICK)
    assert main(simcord_env).ticks == 1
