"""Start-up: time and peak memory of the real bot's set-up with 0 and with 10,000 stored open games.

    .venv/bin/python bench/startup.py [open games, default 10000] [runs each, default 3]

The databases are filled through the storage API (`TableStore.create`) with real game states of
all five games (2-4 players, a few random moves in), every table playing with a pending deadline
(as with turn time-outs) and last active two hours ago (older than the "recently active" tables
that start-up redraws at once). Each measurement is a fresh process: import the bot, build it
with `bot.create_bot` (every cog, the file database) and run its real `setup_hook` (open and
check the database, load every extension with its `cog_load`: timers re-armed for every pending
deadline) with only the command sync to Discord replaced by a no-op, then close it (`async with
bot`). Not through simcord: its settlement scans every pending timer at every step (quadratic:
5.9 s of its own for 1,000 armed timers), which would measure simcord, not the bot.
Printed per case, the median of the runs: set-up seconds (bot creation to ready), whole process
seconds (interpreter start to ready, imports included) and peak RSS; then the ratios
10,000 ÷ 0 (targets: time ≤ 1.1×, peak RSS ≤ 1.2×). The last line is JSON.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

_STARTED = time.perf_counter()
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SIMCORD_EPOCH = datetime(2026, 1, 1, tzinfo=UTC).timestamp()  # simcord's clock starts here


def playing(game: Any, state: Any, seats: list[Any], guild_id: int, channel_id: int, deadline: float) -> Any:
    """A table in play, as the benches store it (an English table, its deadline given)."""
    from storage.tables import TableRecord

    return TableRecord(
        guild_id=guild_id,
        channel_id=channel_id,
        game_id=game.id,
        host_id=seats[0].user_id,
        status="playing",
        seats=seats,
        state=game.dump(state),
        extra={"locale": "en-US"},
        deadline=deadline,
    )


async def fill(path: Path, games: int) -> None:
    """`games` open tables of every game, with real states, through the storage API."""
    from rules.registry import GAMES
    from storage.sqlite import SqliteDatabase
    from storage.tables import Seat, TableStore

    database = await SqliteDatabase.open(path)
    store = TableStore(database)
    chooser = random.Random(7)
    game_ids = sorted(GAMES)
    try:
        for index in range(games):
            game = GAMES[game_ids[index % len(game_ids)]]
            players = chooser.randint(game.min_players, min(game.max_players, 4))
            state = game.new(players, index)
            for _ in range(chooser.randint(0, 12)):
                if game.is_over(state):
                    break
                seat = chooser.choice(sorted(game.to_move(state)))
                game.apply(state, seat, chooser.choice(game.legal_actions(state, seat)))
            seats = [Seat(10_000 + index * 10 + seat, f"player {seat}") for seat in range(players)]
            deadline = SIMCORD_EPOCH + 3_600 + chooser.uniform(0, 600)
            record = playing(game, state, seats, 1 + index % 50, 1_000_000 + index, deadline)
            await store.create(record, now=SIMCORD_EPOCH - 7_200)
    finally:
        await database.close()


async def child(path: str) -> None:
    """One start-up, measured from inside the process; prints one JSON line."""
    import resource

    from bot import Settings, create_bot
    from cogs.tables import tables_of

    imported = time.perf_counter()
    bot = create_bot(Settings(token="bench", database_path=path), sync=True)

    async def no_sync(*args: object, **kwargs: object) -> list[object]:
        return []  # the one network call of the set-up: syncing slash commands with Discord

    bot.tree.sync = no_sync  # type: ignore[method-assign]
    async with bot:  # discord.py's own preparation (its loop and HTTP session objects), then the hook
        await bot.setup_hook()
        ready = time.perf_counter()
        tables = tables_of(bot)
        armed = getattr(getattr(tables, "timers", None), "armed", 0)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    print(
        json.dumps(
            {
                "setup_s": ready - imported,
                "process_s": ready - _STARTED + _interpreter_start(),
                "peak_rss_mib": peak,
                "timers_armed": armed,
            }
        )
    )


def _interpreter_start() -> float:
    """Seconds from the process's start to this module's first line (interpreter start-up)."""
    ticks = os.sysconf("SC_CLK_TCK")
    with open("/proc/self/stat") as stat:
        started = int(stat.read().rsplit(")", 1)[1].split()[19]) / ticks
    with open("/proc/uptime") as uptime:
        now = float(uptime.read().split()[0])
    return max(0.0, now - started - (time.perf_counter() - _STARTED))


def measure(path: Path, runs: int) -> dict[str, float]:
    found = []
    for _ in range(runs):
        output = subprocess.run(
            [sys.executable, __file__, "--child", str(path)],
            capture_output=True,
            text=True,
            check=True,
            cwd=ROOT,
        ).stdout
        found.append(json.loads(output.strip().splitlines()[-1]))
    return {key: statistics.median(run[key] for run in found) for key in found[0]}


def main() -> None:
    import asyncio

    games = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    with tempfile.TemporaryDirectory() as folder:
        empty, full = Path(folder) / "empty.db", Path(folder) / "full.db"
        asyncio.run(fill(empty, 0))
        started = time.perf_counter()
        asyncio.run(fill(full, games))
        size = full.stat().st_size >> 20
        print(f"stored {games} open games in {time.perf_counter() - started:.1f} s ({size} MiB)")
        rest, loaded = measure(empty, runs), measure(full, runs)
    print(f"{'open games':>10} {'set-up s':>9} {'process s':>10} {'peak RSS MiB':>13} {'timers':>7}")
    for count, row in ((0, rest), (games, loaded)):
        print(
            f"{count:>10} {row['setup_s']:>9.3f} {row['process_s']:>10.3f} {row['peak_rss_mib']:>13.1f}"
            f" {row['timers_armed']:>7.0f}"
        )
    ratios = {
        "setup": loaded["setup_s"] / rest["setup_s"],
        "process": loaded["process_s"] / rest["process_s"],
        "peak_rss": loaded["peak_rss_mib"] / rest["peak_rss_mib"],
    }
    print(
        f"{'ratio':>10} {ratios['setup']:>9.2f} {ratios['process']:>10.2f} {ratios['peak_rss']:>13.2f}"
        "   (targets: time ≤ 1.1, peak RSS ≤ 1.2)"
    )
    print(json.dumps({"bench": "startup", "games": games, "empty": rest, "full": loaded, "ratios": ratios}))


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        import asyncio

        asyncio.run(child(sys.argv[2]))
    else:
        main()
