"""Work a table sets off in the background (a board edit, a DM sync, a follow-up): kept until done, so
that it is not collected half-way, logged if it fails, cancelled when the cog unloads."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any

log = logging.getLogger(__name__)


class Background:
    """The table machinery's background tasks."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()

    def schedule(self, coroutine: Coroutine[Any, Any, Any]) -> None:
        """Run `coroutine` in the background; a failure is logged, never raised to anyone."""
        task = self.keep(asyncio.create_task(coroutine))
        task.add_done_callback(_log_failure)

    def keep(self, task: asyncio.Task[Any]) -> asyncio.Task[Any]:
        """Hold on to a task until it is done (and cancel it with the rest)."""
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def idle(self) -> None:
        """Wait until every background task has ended, those started meanwhile too."""
        while self._tasks:
            await asyncio.wait(list(self._tasks))

    def cancel(self) -> None:
        for task in list(self._tasks):
            task.cancel()


def _log_failure(task: asyncio.Task[Any]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("background task failed", exc_info=task.exception())
