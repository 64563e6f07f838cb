"""A second bot process ("peer") against the simulated Discord of a running simcord Env.

simcord runs one bot per Env and refuses a second live Env on an event loop. A sharded deployment
is several processes behind ONE Discord, so a peer is attached to the Env's own `backend`: its own
`FakeHTTPClient` and `ShardRouter` (simcord's classes, nothing faked here), subscribed to the
backend's gateway events for the peer's shard ids, and logged in (setup_hook runs) exactly as
simcord's `Env._attach_bot` does for the main bot, minus the loop patching the Env already did.

    async with Peers(env) as peers:                 # closes every peer before the Env shuts down
        peer = await peers.attach(create_bot(...))  # an AutoShardedClient with its own shard_ids
        await peer.kill()                           # the process dies: no events, tasks cancelled,
                                                    # database connections dropped (terminate())

The peer's code runs under the Env's bot scope, so `env.settle()` / `advance_time` wait for its
work like the main bot's, and its errors fail the test while it lives. Shard sets may overlap on
purpose: both processes then receive the same event (e.g. one DM click) and simcord answers the
second acknowledgement with Discord's 40060, as Discord does.

A process restart is `kill()` (or `close()`) and then `attach` of a NEW bot on the same shards.

Limits: `env.restart_bot()` drains all bot-owned work, the peer's tasks included (it stays connected
but its background tasks are gone): to kill a process, make it a peer. Work in threads
(`run_in_executor`) cannot be killed. A bot without `database.terminate()` (SQLite) keeps its
connection open when killed: close it at teardown. REST calls are not attributed to a process in
`env.http_requests`.
"""

from __future__ import annotations

import asyncio
import contextvars
import inspect
import sys
import weakref
from collections.abc import Callable, Coroutine, Iterator
from contextlib import contextmanager
from types import TracebackType
from typing import Any, Generic, TypeVar

import discord
from discord.ext import commands
from simcord import Env

from bench import simcord_private as private  # simcord's internals, all in one place
from bench.simcord_private import FakeHTTPClient, ShardRouter

T = TypeVar("T")
BotT = TypeVar("BotT", bound=discord.AutoShardedClient)

TOKEN = "simcord.fake.token"  # what simcord logs the main bot in with

# The peer whose code is running: set while the peer's gateway feed, login or `run` executes, and
# inherited by every task created there (a task copies its creator's context), so each task can be
# traced back to the process that made it.
_PEER: contextvars.ContextVar[Peer[Any] | None] = contextvars.ContextVar("cluster_peer", default=None)


class Peer(Generic[BotT]):
    """One extra bot process sharing the Env's Discord. Built by `attach_peer`, never directly."""

    def __init__(self, env: Env, bot: BotT, shard_ids: tuple[int, ...]) -> None:
        self.env = env
        self.bot = bot
        self.shard_ids = shard_ids
        self._router: ShardRouter | None = None
        self._tasks: weakref.WeakSet[asyncio.Task[Any]] = weakref.WeakSet()
        self._alive = False  # its code runs (a dead process's new tasks die at birth)
        self._connected = False  # gateway events reach it
        self._closed = False
        self._hooked = False  # holds a reference on the loop's and backend's hooks

    @property
    def alive(self) -> bool:
        return self._alive

    @property
    def tasks(self) -> list[asyncio.Task[Any]]:
        """The unfinished tasks this process's code created."""
        return [task for task in self._tasks if not task.done()]

    def __repr__(self) -> str:
        state = "alive" if self._alive else "closed" if self._closed else "dead"
        return f"<Peer shards={list(self.shard_ids)} {state}>"

    # ------------------------------------------------------------------ running the peer's code

    @contextmanager
    def _as_peer(self) -> Iterator[None]:
        """Run as this process: its tasks are recorded here and tracked by the Env's settlement."""
        token = _PEER.set(self)
        try:
            with private.bot_scope(self.env):
                yield
        finally:
            _PEER.reset(token)

    def _adopt(self, task: asyncio.Task[Any]) -> None:
        if self._alive:
            self._tasks.add(task)
        else:
            # A dead process starts nothing: whatever its unwinding code spawns dies at birth.
            _cancel_quietly(task)

    def _feed(self, event: str, payload: Any) -> None:
        if self._connected and self._router is not None:
            with self._as_peer():
                self._router.feed(event, payload)

    async def run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        """Run `coroutine` as this process's own code (e.g. a REST call it makes), then settle."""
        if not self._alive:
            coroutine.close()
            raise RuntimeError(f"{self!r} is not running")
        with self._as_peer():
            task = asyncio.ensure_future(coroutine)
        try:
            return await task
        finally:
            await self.env.settle()

    def _record_error(self, error: BaseException) -> None:
        # Errors fail the test while the process lives; a dead process's last words are nobody's.
        if self._alive:
            private.record_error(self.env, error)

    def _capture_errors(self) -> None:
        """The hooks simcord puts on the main bot (`Env._capture_errors`), reporting to the same Env."""
        bot, record = self.bot, self._record_error
        private.capture_ui_errors(bot, record)
        if isinstance(bot, commands.Bot):

            async def on_command_error(_ctx: Any, error: BaseException) -> None:
                if not isinstance(error, commands.CommandNotFound):
                    record(error)

            bot.add_listener(on_command_error, "on_command_error")
        original_on_error = bot.on_error

        async def on_error(event_method: str, /, *args: Any, **kwargs: Any) -> None:
            error = sys.exc_info()[1]
            if error is not None:
                record(error)
            await original_on_error(event_method, *args, **kwargs)

        bot.on_error = on_error  # type: ignore[method-assign]
        tree = getattr(bot, "tree", None)
        if tree is not None:
            original_tree_error = tree.on_error

            async def on_tree_error(interaction: Any, error: BaseException) -> None:
                record(error)
                await original_tree_error(interaction, error)

            tree.on_error = on_tree_error

    # ------------------------------------------------------------------ life

    async def _start(self) -> None:
        env, bot = self.env, self.bot
        loop = asyncio.get_running_loop()
        _hooks_for(env, loop).acquire()
        self._hooked = True
        access = env.approved_intents is None or env.approved_intents.message_content
        private.install_http(bot, FakeHTTPClient(env.backend, loop, message_content_access=access))
        private.set_guild_ready_timeout(bot, 0.0)
        state = private.get_state(bot)
        private.accept_messages_of(env, state)  # actors accept messages and objects the peer built
        state.shard_count = private.shard_count(env)
        state.shard_ids = list(self.shard_ids)
        self._router = router = ShardRouter(
            env.backend, state, bot.dispatch, private.shard_count(env), self.shard_ids
        )
        self._capture_errors()
        if env.approved_intents is not None and private.missing_privileged_intents(
            bot.intents, env.approved_intents
        ):
            raise discord.PrivilegedIntentsRequired(shard_id=self.shard_ids[0])
        self._alive = self._connected = True
        env.backend.subscribers.append(self._feed)
        with self._as_peer():
            await bot.login(TOKEN)
            bot.shard_count = private.shard_count(env)
            private.install_shards(bot, router.shards)
            for shard_id in self.shard_ids:
                router.identify(shard_id)
            # Only this process connects: the guilds go to its router alone (an `emit` would replay
            # GUILD_CREATE to the other processes as joins). The router keeps its shards' guilds.
            for guild in list(env.backend.guilds.values()):
                router.feed("GUILD_CREATE", private.guild_create_payload(env, guild))
        await env.settle()

    def _disconnect(self) -> None:
        self._connected = False
        backend = self.env.backend
        # A new list rather than remove(): an `emit` iterating the old one may be under way.
        backend.subscribers = [feed for feed in backend.subscribers if feed != self._feed]
        if self._router is not None:
            for websocket in self._router.websockets.values():
                websocket.open = False

    def kill_now(self) -> None:
        """The process dies at once; callable from anywhere, even the peer's own code mid-move.

        Its feed is gone, every task its code created is cancelled (their failures while dying are
        not test errors), its timers are cancelled and its database connections are dropped without
        a clean close. The dying tasks unwind at the loop's next turns; `kill()` waits for them.
        """
        if not self._alive:
            return
        self._alive = False
        self._disconnect()
        for task in self.tasks:
            _cancel_quietly(task)
        self._cancel_timers()
        terminate = getattr(getattr(self.bot, "database", None), "terminate", None)
        if callable(terminate):
            result = terminate()
            if inspect.isawaitable(result):
                self._tasks.add(asyncio.ensure_future(result))  # awaited by kill(), like the tasks

    async def kill(self) -> None:
        """`kill_now()`, then wait until everything of the dead process has stopped."""
        self.kill_now()
        await self._drain()
        self._cancel_timers()  # any the unwinding scheduled

    async def close(self) -> None:
        """A clean shutdown (the database closed), then the same end as a kill. Idempotent, and
        after `kill()` it only releases the harness's hooks."""
        if self._closed:
            return
        self._closed = True
        try:
            if self._alive:
                self._disconnect()  # the gateway goes first; the closing code still runs its tasks
                # The process exits, its database closed cleanly. Not bot.close(): that unloads the
                # extensions, and discord.py deletes their modules from sys.modules, so this test
                # process's other bots would meet re-imported classes (Refusal, ...) that no longer
                # match the ones they hold.
                database = getattr(self.bot, "database", None)
                if database is not None:
                    with self._as_peer():
                        await database.close()
        finally:
            self._alive = False
            for task in self.tasks:  # what a clean close leaves running, process exit ends
                _cancel_quietly(task)
            try:
                await self._drain()
            finally:
                self._cancel_timers()
                if self._router is not None:
                    private.clear_shards(self.bot)
                if self._hooked:
                    self._hooked = False
                    _hooks_for(self.env, asyncio.get_running_loop()).release()

    async def _drain(self) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.env.settle_timeout
        while pending := self.tasks:
            for task in pending:
                _cancel_quietly(task)
            await asyncio.wait(pending, timeout=max(0.0, deadline - loop.time()))
            if loop.time() >= deadline and self.tasks:
                names = ", ".join(task.get_name() for task in self.tasks)
                raise TimeoutError(
                    f"{self!r}: tasks would not die (do they swallow CancelledError?): {names}"
                )

    def _cancel_timers(self) -> None:
        """Bare call_later/call_at callbacks the dead process scheduled (simcord tracks them) never fire.
        Tasks' own wake-ups die with their tasks; only timers whose context is this peer's are touched."""
        for handle, real in private.pending_timers(self.env):
            context = getattr(handle, "_context", None)  # asyncio's: the context the timer runs in
            if isinstance(context, contextvars.Context) and context.get(_PEER) is self:
                handle.cancel()
                if real is not None:
                    real.cancel()


def _retrieve(task: asyncio.Task[Any]) -> None:
    if not task.cancelled():
        task.exception()  # retrieved: simcord's task inspection then records nothing


def _cancel_quietly(task: asyncio.Task[Any]) -> None:
    task.cancel()
    task.add_done_callback(_retrieve)


class _Hooks:
    """What the harness adds to the loop and the backend, shared by the peers of one Env.

    - A loop task factory records each task created while a peer's code runs to that peer. It sits
      beneath simcord's `loop.create_task` wrapper (which reaches it through the original
      create_task), so simcord restoring or re-patching the loop on restart/shutdown leaves it alone,
      where a second create_task wrapper would be torn out or captured as simcord's "original".
    - `backend.emit` delivers every gateway event with no peer selected: an event a peer's REST call
      causes reaches the other processes through Discord, not inside the peer's context.
    """

    def __init__(self, env: Env, loop: asyncio.AbstractEventLoop) -> None:
        self.env = env
        self.loop = loop
        self.users = 0
        self._previous_factory: Any = None
        self._factory: Callable[..., asyncio.Task[Any]] | None = None
        self._emit: Callable[[str, Any], None] | None = None

    def acquire(self) -> None:
        self.users += 1
        if self.users > 1:
            return
        previous: Any = self.loop.get_task_factory()  # another factory's tasks are still asyncio Tasks
        self._previous_factory = previous

        def factory(
            loop: asyncio.AbstractEventLoop, coro: Any, *, context: contextvars.Context | None = None
        ) -> asyncio.Task[Any]:
            if previous is not None:
                task = previous(loop, coro) if context is None else previous(loop, coro, context=context)
            else:
                task = asyncio.Task(coro, loop=loop, context=context)
            owner = (context.get(_PEER) if context is not None else None) or _PEER.get()
            if owner is not None:
                owner._adopt(task)
            return task

        self._factory = factory
        self.loop.set_task_factory(factory)  # type: ignore[arg-type]
        backend = self.env.backend
        original = backend.emit

        def emit(event: str, payload: Any) -> None:
            token = _PEER.set(None)
            try:
                original(event, payload)
            finally:
                _PEER.reset(token)

        self._emit = emit
        backend.emit = emit  # type: ignore[method-assign]

    def release(self) -> None:
        self.users -= 1
        if self.users > 0:
            return
        if self.loop.get_task_factory() is self._factory:
            self.loop.set_task_factory(self._previous_factory)
        backend = self.env.backend
        if backend.__dict__.get("emit") is self._emit:
            del backend.emit
        _HOOKS.pop(self.env, None)


_HOOKS: weakref.WeakKeyDictionary[Env, _Hooks] = weakref.WeakKeyDictionary()


def _hooks_for(env: Env, loop: asyncio.AbstractEventLoop) -> _Hooks:
    hooks = _HOOKS.get(env)
    if hooks is None:
        hooks = _HOOKS[env] = _Hooks(env, loop)
    return hooks


async def attach_peer(env: Env, bot: BotT) -> Peer[BotT]:
    """Start `bot` as another process on `env`'s Discord, over its own `bot.shard_ids` (all shards
    when None) of the Env's shard count; returns once it is READY and settled."""
    if not isinstance(bot, discord.AutoShardedClient):
        raise TypeError("a peer process is an AutoShardedClient (it runs a set of shards)")
    if not private.running_on(env, asyncio.get_running_loop()):
        raise RuntimeError("attach a peer to a running Env, from the Env's event loop")
    count = private.shard_count(env)
    if bot.shard_count is not None and bot.shard_count != count:
        raise ValueError(f"the peer has shard_count={bot.shard_count}, the Env {count}")
    shard_ids = tuple(bot.shard_ids) if bot.shard_ids is not None else tuple(range(count))
    if not shard_ids or len(set(shard_ids)) != len(shard_ids) or not all(0 <= s < count for s in shard_ids):
        raise ValueError(f"the peer's shard_ids must be different shards from 0 to {count - 1}")
    peer = Peer(env, bot, shard_ids)
    try:
        await peer._start()
    except BaseException:
        await peer.kill()
        await peer.close()
        raise
    return peer


class Peers:
    """Every peer a test attaches, closed (cleanly) when the block ends, before the Env shuts down:

    @pytest.fixture
    async def peers(simcord_env: Env) -> AsyncIterator[Peers]:
        async with Peers(simcord_env) as peers:
            yield peers
    """

    def __init__(self, env: Env) -> None:
        self.env = env
        self.all: list[Peer[Any]] = []

    async def attach(self, bot: BotT) -> Peer[BotT]:
        peer = await attach_peer(self.env, bot)
        self.all.append(peer)
        return peer

    async def aclose(self) -> None:
        errors: list[BaseException] = []
        for peer in reversed(self.all):
            try:
                await peer.close()
            except Exception as error:
                errors.append(error)
        if errors:
            raise ExceptionGroup("closing the peer processes failed", errors)  # type: ignore[arg-type]

    async def __aenter__(self) -> Peers:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        await self.aclose()


__all__ = ["Peer", "Peers", "attach_peer"]
