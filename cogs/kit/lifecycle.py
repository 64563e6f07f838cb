"""Stopping cleanly: what a SIGTERM (`docker stop`, `systemctl stop`) or a Ctrl+C sets off (bot.py).

The order, all within `STOP_WITHIN` seconds (supervisors wait 10 s before they kill):

1. the gateway is closed, so no new click is taken: a press that comes now never reaches this
   process, and Discord tells the player the interaction failed (a restart is seconds away, and a
   press that reached a process about to go could not be served anyway);
2. the clicks already taken are served to the end: their handlers finish (`handlers_done`), their
   moves commit under their channel locks and are answered;
3. the table machinery drains (`Pipeline.drain`): the board edits still waiting are made, the
   background work ends, the table timers are handed over;
4. Discord's HTTP session and the database are closed (SQLite checkpointed).
"""

from __future__ import annotations

import asyncio
import logging
import signal
from collections.abc import Callable
from typing import Any

import discord

log = logging.getLogger(__name__)

STOP_WITHIN = 8.0
"""Seconds a clean stop may take: under the 10 s a supervisor waits after SIGTERM before SIGKILL."""
GATEWAY_WITHIN = 2.0

PRESS_TASK = "sushibar-press"
"""The name of the task that serves a press taken straight from the gateway (`cogs/tables/ui.py`)."""
# The names discord.py 2.x gives the tasks that run an interaction's handler (app_commands.CommandTree
# and ui.View / DynamicItem dispatch), and the bot's own presses: nothing public lists the handlers
# in flight.
_HANDLER_TASKS = ("CommandTree-invoker", "discord-ui-view-dispatch-", "discord-ui-dynamic-item-", PRESS_TASK)


async def close_gateway(client: discord.Client) -> None:
    """Close every gateway connection of this process, so that no new event (no click) comes in;
    Discord's HTTP API stays open for the answers still to give. The client's `is_closed` must say
    True from now on, or discord.py would connect again (bot.SushiBar does)."""
    if isinstance(client, discord.AutoShardedClient):
        closing = [shard.disconnect() for shard in client.shards.values()]
    else:
        socket: Any = getattr(client, "ws", None)  # discord.py's one connection, once connected
        closing = [socket.close(code=1000)] if socket is not None and socket.open else []
    if closing:
        try:
            await asyncio.wait_for(asyncio.gather(*closing, return_exceptions=True), GATEWAY_WITHIN)
        except TimeoutError:
            log.warning("the gateway did not close within %g s", GATEWAY_WITHIN)


async def handlers_done(within: float) -> bool:
    """Wait for the interactions being handled to be handled (at most `within` s); True if they were."""
    current = asyncio.current_task()
    running = [
        task
        for task in asyncio.all_tasks()
        if task is not current and not task.done() and task.get_name().startswith(_HANDLER_TASKS)
    ]
    if not running:
        return True
    _, late = await asyncio.wait(running, timeout=within)
    return not late


def on_stop_signals(stop: Callable[[], Any]) -> None:
    """Call `stop()` (a coroutine function) on the first SIGTERM or SIGINT; a second one is only
    logged: the stop under way is bounded by STOP_WITHIN."""
    loop = asyncio.get_running_loop()
    started: list[asyncio.Future[Any]] = []

    def received(number: int) -> None:
        name = signal.Signals(number).name
        if started:
            log.info("%s: already stopping", name)
            return
        log.info("%s: stopping (at most %g s)", name, STOP_WITHIN)
        started.append(asyncio.ensure_future(stop()))

    for number in (signal.SIGTERM, signal.SIGINT):
        try:
            loop.add_signal_handler(number, received, number)
        except (ValueError, RuntimeError, NotImplementedError):  # not the main thread, or no Unix
            log.debug("no handler for %s here: it stops the process as Python's default does", number)
