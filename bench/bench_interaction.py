"""Interaction latency: a click on the board, through the real bot and table machinery, against simcord.

Measures the whole round trip a player waits for (gateway event -> lock -> apply -> save ->
edit of the board), with Tiny Race so that the figure is the table's own cost.

    .venv/bin/python bench/bench_interaction.py [clicks]
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import simcord

from bot import Settings, create_bot

EXTENSIONS = ("cogs.tables", "tests.e2e.tinygame")


async def main(clicks: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(token="bench", database_path=str(Path(folder) / "bench.db"))
        bot = create_bot(settings, extensions=EXTENSIONS, sync=True)
        async with simcord.run(bot) as env:
            guild = env.create_guild("bench")
            channel = guild.create_text_channel("sushi")
            players = [guild.add_member(env.create_user(name)) for name in ("alice", "bob")]
            timings = []
            while len(timings) < clicks:
                await players[0].slash(channel, "tiny new")
                board = channel.last_message
                await players[1].click(board, label="Join")
                await players[0].click(channel.last_message, label="Start")
                for turn in range(4):  # Tiny Race ends on the fifth point
                    started = time.perf_counter()
                    await players[turn % 2].click(channel.last_message, label="+1")
                    timings.append(time.perf_counter() - started)
                await players[0].slash(channel, "tiny cancel")
    timings.sort()
    print(f"{len(timings)} board clicks, round trip through discord.py + table + SQLite (simcord)")
    p95 = timings[int(len(timings) * 0.95)]
    print(f"median {statistics.median(timings) * 1e3:.1f} ms · p95 {p95 * 1e3:.1f} ms")


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 100))
