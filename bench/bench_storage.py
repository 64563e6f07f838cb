"""Storage: how long one committed action takes (state save + action log, one transaction).

.venv/bin/python bench/bench_storage.py [actions]
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules import GAMES
from storage.database import Database
from storage.tables import Seat, TableRecord, TableStore


async def main(actions: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        database = await Database.open(Path(folder) / "bench.db")
        store = TableStore(database)
        game = GAMES["kaiten"]  # the largest state of the five
        state = game.new(4, 1)
        record = await store.create(
            TableRecord(
                1, 2, "kaiten", 3, "playing", [Seat(i, f"p{i}") for i in range(4)], state=game.dump(state)
            ),
            now=0.0,
        )
        timings = []
        for index in range(actions):
            started = time.perf_counter()
            await store.save(record, expected_version=record.version, action={"n": index}, seat=0, now=1.0)
            timings.append(time.perf_counter() - started)
        await database.close()
    timings.sort()
    print(f"{actions} committed actions (Kaiten state, 4 players, WAL, synchronous=NORMAL)")
    p95 = timings[int(len(timings) * 0.95)]
    print(f"median {statistics.median(timings) * 1e3:.2f} ms · p95 {p95 * 1e3:.2f} ms")
    print(f"throughput {actions / sum(timings):.0f} actions/s")


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 500))
