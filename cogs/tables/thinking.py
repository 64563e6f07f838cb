"""Where hard computers think: a process of their own, off the event loop and off its interpreter lock.

A hard decision is a search (Sushi Go!, Rock the Bock, Kaiten: 40–70 ms of CPU; Sushizock up to
~150 ms). In a thread of the bot's process it held the interpreter lock against the event loop: with
the default executor's six threads, fifty tables' searches kept every click waiting (ack p99 2 s,
`bench/load_process.py --computers half`); with one thread the clicks were answered but the
decisions queued behind the loop's own work. In a process the search runs on another core while
the loop answers clicks, and the loop pays only for sending the state and reading the move back.

One worker on a machine of two cores (the loop keeps one), more on bigger machines, at most
`MAX_THINKERS`. Started at the first hard decision, spawned (never forked from a process with
threads and sockets), and started anew when it dies: a decision it could not make is the seat's
time-out move, as a brain's bug is. The interpreter's exit lets the workers go (`concurrent.futures`
joins them: at most one decision's wait); a bot killed outright, they notice within a second.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from rules.computer.brain import level_named
from rules.computer.play import choose, choose_in
from rules.engine import Game
from rules.registry import REGISTERED

log = logging.getLogger(__name__)

MAX_THINKERS = 4
"""Worker processes at most: each holds about 60 MB (spawned, it imports the bot's main module as
its own, then the rules, and keeps its brains' caches)."""

_pool: ProcessPoolExecutor | None = None


def thinkers(cores: int | None) -> int:
    """How many worker processes think for a machine of `cores` cores: all but the loop's own."""
    return max(1, min(MAX_THINKERS, (cores or 2) - 1))


def _thinking() -> ProcessPoolExecutor:
    global _pool
    if _pool is None:
        _pool = ProcessPoolExecutor(
            thinkers(os.cpu_count()),
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_leave_with,
            initargs=(os.getpid(),),
        )
    return _pool


def _leave_with(parent: int) -> None:
    """In a worker: exit once the bot's process is gone. A worker waits for work on a pipe whose
    both ends it holds, so a bot killed outright (kill -9, out of memory) would leave it waiting for
    ever."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, daemon=True).start()


async def think(game: Game[Any, Any], state: Any, seat: int, level: str, seed: int, seen: int | None) -> Any:
    """A computer's decision (as `decide` makes it) in the computers' process."""
    global _pool
    pool = _thinking()
    package = REGISTERED[game.id].package  # the worker finds the game by its package, also the tests' toy
    try:
        return await asyncio.get_running_loop().run_in_executor(
            pool, choose_in, package, state, seat, level_named(level), seed, seen
        )
    except BrokenProcessPool:
        log.error("the computers' process died; starting a new one, %s plays its time-out move", game.id)
        if _pool is pool:
            _pool = None
        pool.shutdown(wait=False)
        return game.default_action(state, seat)
    except Exception:
        return _failed(game, state, seat)


def decide(game: Game[Any, Any], state: Any, seat: int, level: str, seed: int, seen: int | None) -> Any:
    """A computer seat's move on the loop (easy and normal: quick rules), None: nothing to do now."""
    try:
        return choose(game, state, seat, level_named(level), seed, published=seen)
    except Exception:
        return _failed(game, state, seat)


def _failed(game: Game[Any, Any], state: Any, seat: int) -> Any:
    """A computer's bug must not stall the table: it plays the time-out move instead."""
    log.exception("%s computer at seat %s failed to choose; playing the default move", game.id, seat)
    return game.default_action(state, seat)
