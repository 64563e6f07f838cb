"""Hard computers think in a process of their own (cogs/tables/thinking.py): the same move as on the
loop, every game found there by its package, and a process that dies is replaced."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from cogs.tables import thinking
from rules.computer.play import choose, choose_in
from rules.registry import GAMES, REGISTERED
from tests.rules.playing import board, play

ROOT = Path(__file__).resolve().parents[2]


def test_every_core_but_the_loops_thinks_within_the_cap() -> None:
    assert [thinking.thinkers(cores) for cores in (None, 1, 2, 3, 8, 64)] == [1, 1, 1, 2, 4, 4]


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_game_is_found_by_its_package(game_id: str) -> None:
    game = GAMES[game_id]
    state = play(game_id, game.min_players, 31, 9)
    seat = min(game.to_move(state))
    seen = board(game_id, state)
    expected = choose(game, state, seat, "normal", 5, published=seen)
    assert choose_in(REGISTERED[game_id].package, state, seat, "normal", 5, seen) == expected


async def test_hard_thinks_in_another_process_and_decides_as_on_the_loop() -> None:
    game = GAMES["sushizock"]
    state = play("sushizock", 2, 12, 5)
    seat = min(game.to_move(state))
    moves = {await thinking.think(game, state, seat, "hard", seed, None) for seed in (1, 1, 1)}
    assert moves == {choose(game, state, seat, "hard", 1)}
    pool: Any = thinking._pool
    assert pool is not None and all(pid != os.getpid() for pid in pool._processes)


async def test_a_dead_thinker_costs_one_time_out_move_then_a_new_one_thinks(
    caplog: pytest.LogCaptureFixture,
) -> None:
    game = GAMES["sushizock"]
    state = play("sushizock", 2, 12, 5)
    seat = min(game.to_move(state))
    await thinking.think(game, state, seat, "hard", 1, None)  # the workers are up
    pool: Any = thinking._pool
    for pid in list(pool._processes):
        os.kill(pid, signal.SIGKILL)
    with caplog.at_level(logging.ERROR, logger="cogs.tables.thinking"):
        move = await thinking.think(game, state, seat, "hard", 1, None)
    assert move == game.default_action(state, seat)
    assert "the computers' process died" in caplog.text
    assert await thinking.think(game, state, seat, "hard", 1, None) == choose(game, state, seat, "hard", 1)
    assert thinking._pool is not pool


_BOT = """
import asyncio, os, sys, time
from cogs.tables import thinking
from rules.registry import GAMES
from tests.rules.playing import play

async def main():
    game = GAMES["sushizock"]
    state = play("sushizock", 2, 12, 5)
    await thinking.think(game, state, min(game.to_move(state)), "hard", 1, None)
    print(*thinking._pool._processes, flush=True)
    time.sleep(60)

if __name__ == "__main__":
    asyncio.run(main())
"""


def test_a_bot_killed_outright_leaves_no_thinker_behind(tmp_path: Path) -> None:
    script = tmp_path / "bot.py"
    script.write_text(_BOT)
    bot = subprocess.Popen(
        [sys.executable, str(script)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert bot.stdout is not None
        workers = [int(pid) for pid in bot.stdout.readline().split()]
        assert workers
    finally:
        bot.kill()
        bot.wait()
    deadline = time.monotonic() + 10
    while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(_alive(pid) for pid in workers)


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has exited; only its parent's wait is missing
