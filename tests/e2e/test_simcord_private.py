"""Every simcord internal the harnesses use (bench/simcord_private.py), tried on a running Env: a
simcord upgrade that moves one fails here, naming it, instead of the cluster tests, the fuzzers or
the load bench going quietly wrong."""

from __future__ import annotations

import asyncio
import inspect
from typing import Any

import discord
import pytest
import simcord
from discord.ext import commands

from bench import simcord_private as private

CHANGED = f"simcord {simcord.__version__} changed {{}}: bench/simcord_private.py must follow it ({{}})"


def require(holds: bool, part: str, needed_for: str) -> None:
    if not holds:
        pytest.fail(CHANGED.format(part, needed_for), pytrace=False)


class Probe(commands.Bot):
    """`/probe` posts a message with a select; a choice in it is answered with a deferral."""

    def __init__(self) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default())

        @self.tree.command(name="probe", description="a message to click")
        async def probe(interaction: discord.Interaction) -> None:
            view = discord.ui.View(timeout=None)
            options = [discord.SelectOption(label="a"), discord.SelectOption(label="b")]
            view.add_item(discord.ui.Select(custom_id="probe:select", options=options))
            await interaction.response.send_message("choose", view=view)

    async def setup_hook(self) -> None:
        await self.tree.sync()

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type is discord.InteractionType.component:
            await interaction.response.defer()


@pytest.fixture
def simcord_bot() -> Probe:
    return Probe()


async def test_the_env_internals_a_peer_process_needs(simcord_env: Any) -> None:
    env = simcord_env
    require(private.running_on(env, asyncio.get_running_loop()), "Env._started / Env._loop", "a running Env")
    require(private.shard_count(env) >= 1, "Env._shard_count", "how many shards Discord has")
    scope = private.bot_scope(env)
    require(hasattr(scope, "__enter__"), "Env._bot_scope()", "a context the bot's work runs in")
    with scope:
        timer = asyncio.get_running_loop().call_later(3600, lambda: None)
    try:
        handles = [handle for handle, _ in private.pending_timers(env)]
        require(timer in handles, "Env._work.callbacks (.when, .handle, .real_handle)", "the bot's timers")
    finally:
        timer.cancel()
    state = private.get_state(env.bot)
    private.accept_messages_of(env, state)
    require(state in env._message_states, "Env._message_states", "the states whose messages actors take")
    require(
        len(inspect.signature(env._record_error).parameters) == 1,
        "Env._record_error(error)",
        "a peer's errors fail the test",
    )
    guild = env.create_guild("probe")
    payload = private.guild_create_payload(env, env.backend.guilds[guild.id])
    require(payload.get("id") == str(guild.id), "serializers.guild_create_payload", "a peer's GUILD_CREATE")


def test_the_classes_and_discord_py_hooks_a_peer_process_needs() -> None:
    hooks = {
        "install_http": 2,
        "set_guild_ready_timeout": 2,
        "get_state": 1,
        "install_shards": 2,
        "clear_shards": 1,
        "capture_ui_errors": 2,
    }
    for name, arguments in hooks.items():
        hook = getattr(private, name)
        require(
            len(inspect.signature(hook).parameters) == arguments,
            f"_dpy_internals.{name}",
            f"takes {arguments} arguments",
        )
    router = inspect.signature(private.ShardRouter).parameters
    require(
        len(router) == 5, "ShardRouter(backend, state, dispatch, shard_count, shard_ids)", "a peer's gateway"
    )
    for method in ("feed", "identify", "_event_shard_id"):
        require(
            callable(getattr(private.ShardRouter, method, None)), f"ShardRouter.{method}", "routing events"
        )
    require(
        "message_content_access" in inspect.signature(private.FakeHTTPClient).parameters,
        "FakeHTTPClient(backend, loop, message_content_access=)",
        "a peer's REST client",
    )
    require(callable(private.missing_privileged_intents), "intents.missing_privileged_intents", "intents")


async def test_the_interaction_internals_the_fuzzers_and_the_bench_need(
    simcord_env: Any,
) -> None:
    env = simcord_env
    guild = env.create_guild("probe")
    channel = guild.create_text_channel("probe")
    alice = guild.add_member(env.create_user("alice"))
    result = await alice.slash(channel, "probe")
    record = private.interaction_record(result)
    require(
        record is not None and record.responded and hasattr(record, "token"),
        "InteractionResult._interaction",
        "the backend record of the interaction a result came from",
    )
    message = channel.last_message
    components = private.message_components(env, alice, message)
    require(
        [c.get("custom_id") for c in components if c.get("type") == 3] == ["probe:select"],
        "actors._visible_message / serializers.message_payload",
        "a message's components as its viewer sees them",
    )
    answered: list[Any] = []
    watched: list[Any] = []
    undo = private.on_answered(answered.append)
    try:
        emitted = private.emit_component(env, alice, message, "probe:select", ["a"], before=watched.append)
        await env.settle()
    finally:
        undo()
    require(watched == [emitted], "interactions.base_payload", "a component interaction emitted unawaited")
    require(emitted in answered, "backend Interaction.responded", "the moment an interaction is answered")
    undo = private.route_unguilded_events_to(3)
    try:
        routed = private.ShardRouter._event_shard_id(None, "INTERACTION_CREATE", {"guild_id": None})  # type: ignore[arg-type]
    finally:
        undo()
    require(routed == 3, "ShardRouter._event_shard_id", "which shard hears an event outside any guild")
    ids = private.reserved_ids(env)
    require(record.id in ids and emitted.id in ids, "Backend._reserved_ids", "every snowflake given out")
