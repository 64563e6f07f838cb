"""simcord's internals, in one place: what the tests' second bot process (tests/e2e/cluster.py), the
fuzzers (tests/e2e/fuzz.py) and the load bench (bench/load.py) need of simcord that its public API
does not offer. Read from simcord 3.2.1 (pyproject pins simcord>=3.2,<4); an upgrade that moves any
of them fails `tests/e2e/test_simcord_private.py`, which names the part, instead of a harness going
quietly wrong.

It lives under bench/ because the bench may import nothing of the tests, and the tests may import
the bench's modules. Each function says what it reads and why nothing public does instead.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from typing import Any

from simcord import Env, InteractionResult, _dpy_internals
from simcord import actors as _actors
from simcord import interactions as _interactions
from simcord.backend import serializers as _serializers
from simcord.backend.models import interaction as _interaction_model
from simcord.components import walk_components
from simcord.enums import ComponentType, InteractionType
from simcord.gateway import ShardRouter
from simcord.http import FakeHTTPClient
from simcord.intents import missing_privileged_intents

__all__ = [
    "FakeHTTPClient",
    "ShardRouter",
    "accept_messages_of",
    "bot_scope",
    "capture_ui_errors",
    "clear_shards",
    "emit_component",
    "get_state",
    "guild_create_payload",
    "install_http",
    "install_shards",
    "interaction_record",
    "message_components",
    "missing_privileged_intents",
    "on_answered",
    "pending_timers",
    "record_error",
    "reserved_ids",
    "route_unguilded_events_to",
    "running_on",
    "set_guild_ready_timeout",
    "shard_count",
]

# ---------------------------------------------------------------- a second bot process (cluster.py)
# simcord runs one bot per Env; a peer process is attached the way simcord's `Env._attach_bot`
# attaches the main bot, with the same (non-public) classes and discord.py hooks:
# `FakeHTTPClient` (the REST side), `ShardRouter` (the gateway side), `missing_privileged_intents`,
# and simcord's discord.py internals below.

install_http = _dpy_internals.install_http
"""Give a bot simcord's REST client instead of discord.py's."""
set_guild_ready_timeout = _dpy_internals.set_guild_ready_timeout
"""READY without waiting for guild chunks, as simcord's main bot."""
get_state = _dpy_internals.get_state
"""The bot's discord.py ConnectionState, which the peer's ShardRouter feeds."""
install_shards = _dpy_internals.install_shards
"""The router's shards as the AutoShardedClient's own."""
clear_shards = _dpy_internals.clear_shards
"""The shards taken back from a closed peer."""
capture_ui_errors = _dpy_internals.capture_ui_errors
"""Errors in the bot's views reported as simcord reports the main bot's."""


def running_on(env: Env, loop: asyncio.AbstractEventLoop) -> bool:
    """Whether `env` has started and runs on `loop` (`Env._started`, `Env._loop`): a peer can only be
    attached to a running Env from its own loop."""
    return bool(env._started) and env._loop is loop


def shard_count(env: Env) -> int:
    """How many shards the Env's Discord has (`Env._shard_count`): every process runs some of them."""
    return env._shard_count


def bot_scope(env: Env) -> Any:
    """A context (`Env._bot_scope()`) in which the work started is the bot's own: `settle()` waits
    for it and its errors fail the test. For a peer's code, and for a move a test makes as the bot."""
    return env._bot_scope()


def record_error(env: Env, error: BaseException) -> None:
    """Report an error as the main bot's errors are reported (`Env._record_error`): the test fails."""
    env._record_error(error)


def accept_messages_of(env: Env, state: Any) -> None:
    """Let actors accept messages and objects built by another bot's discord.py state
    (`Env._message_states`): a peer's messages are clicked like the main bot's."""
    env._message_states.add(state)


def pending_timers(env: Env) -> Iterator[tuple[asyncio.Handle, asyncio.Handle | None]]:
    """The bare call_later/call_at timers simcord tracks for the bot (`Env._work.callbacks`, records
    with `.when`, `.handle`, `.real_handle`): their virtual handle and the real-time fallback's."""
    for record in list(env._work.callbacks):
        handle = getattr(record, "handle", None)
        if getattr(record, "when", None) is not None and handle is not None:
            yield handle, getattr(record, "real_handle", None)


def guild_create_payload(env: Env, guild: Any) -> dict[str, Any]:
    """The GUILD_CREATE a process receives for one of the backend's guilds when it connects (simcord's
    serializers; the backend's payloads are internal)."""
    return dict(_serializers.guild_create_payload(env.backend, guild))


# ---------------------------------------------------------------- interactions (fuzz.py, load.py)


def interaction_record(result: InteractionResult) -> Any:
    """The backend's record of the interaction a result came from (`InteractionResult._interaction`):
    its id and token find the answer among the bot's requests."""
    return result._interaction


def message_components(env: Env, user: Any, message: Any) -> list[dict[str, Any]]:
    """Every component of `message` as `user` sees it, nested ones included, as the wire payload
    (`actors._visible_message`, the backend's message serializer)."""
    stored = _actors._visible_message(user, message)
    return list(walk_components(_serializers.message_payload(env.backend, stored).get("components", [])))


def emit_component(
    env: Env,
    user: Any,
    message: Any,
    custom_id: str,
    values: list[str],
    *,
    before: Callable[[Any], None] | None = None,
) -> Any:
    """`user` chooses `values` in the select `custom_id` of `message`, as simcord's `select` does, but
    without waiting for the bot: the interaction's backend record, answered later (the load bench
    measures the answer; simcord's actors always wait for it). Built with `interactions.base_payload`
    and the backend's serializer, emitted on the backend's gateway; `before(record)` runs first."""
    stored = _actors._visible_message(user, message)
    guild = getattr(user, "guild", None)
    record, payload = _interactions.base_payload(
        env.backend,
        type=int(InteractionType.MESSAGE_COMPONENT),
        channel_id=stored.channel_id,
        guild_id=guild.id if guild is not None else None,
        user_id=user.id,
        data={"custom_id": custom_id, "component_type": int(ComponentType.STRING_SELECT), "values": values},
    )
    payload["message"] = dict(_serializers.message_payload(env.backend, stored))
    record.source_message_id = stored.id
    if before is not None:
        before(record)
    env.backend.emit("INTERACTION_CREATE", payload)
    return record


def on_answered(noted: Callable[[Any], None]) -> Callable[[], None]:
    """Call `noted(record)` each time the backend marks an interaction record answered (every kind of
    answer sets its `responded`), until the returned undo is called: the bench's acknowledgement clock."""
    model = _interaction_model.Interaction
    original = model.__setattr__

    def setting(self: Any, name: str, value: Any) -> None:
        if name == "responded" and value:
            noted(self)
        original(self, name, value)

    model.__setattr__ = setting  # type: ignore[method-assign]

    def undo() -> None:
        model.__setattr__ = original  # type: ignore[method-assign]

    return undo


def route_unguilded_events_to(shard_id: int) -> Callable[[], None]:
    """Deliver events outside any guild (DM clicks) to `shard_id` where Discord sends them to shard 0
    (`ShardRouter._event_shard_id`), until the returned undo is called: a bench worker runs one shard."""
    original = ShardRouter._event_shard_id
    guild_events = {"GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE"}

    def routed(self: ShardRouter, event: str, payload: Any) -> int:
        if (
            payload.get("guild_id") is None
            and event not in guild_events
            and not event.startswith("ENTITLEMENT_")
        ):
            return shard_id
        return original(self, event, payload)

    ShardRouter._event_shard_id = routed  # type: ignore[method-assign]

    def undo() -> None:
        ShardRouter._event_shard_id = original  # type: ignore[method-assign]

    return undo


def reserved_ids(env: Env) -> set[int]:
    """Every snowflake the Env's Discord has given out (`Backend._reserved_ids`)."""
    return set(env.backend._reserved_ids)
