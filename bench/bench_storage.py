"""Storage: what one committed move costs (state save + action log, one transaction).

    .venv/bin/python bench/bench_storage.py [saves per table, default 200] [concurrent tables, default 100]

Two figures, both through `TableStore.save` on a file database with a real Kaiten state (the
largest of the five): one table saving move after move (latency), then many tables saving at
once (throughput and p99 latency, as when hundreds of tables are played); plus the process CPU
per save. The last line is JSON.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.registry import GAMES
from storage.sqlite import SqliteDatabase
from storage.tables import Seat, TableRecord, TableStore


async def open_table(store: TableStore, channel_id: int) -> TableRecord:
    game = GAMES["kaiten"]
    state = game.new(4, channel_id)
    return await store.create(
        TableRecord(
            1,
            channel_id,
            "kaiten",
            3,
            "playing",
            [Seat(i, f"p{i}") for i in range(4)],
            state=game.dump(state),
        ),
        now=0.0,
    )


async def saves(store: TableStore, record: TableRecord, count: int, timings: list[float]) -> None:
    for index in range(count):
        started = time.perf_counter()
        await store.save(record, expected_version=record.version, action={"n": index}, seat=0, now=1.0)
        timings.append(time.perf_counter() - started)


async def main(count: int, tables: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        database = await SqliteDatabase.open(Path(folder) / "bench.db")
        store = TableStore(database)
        try:
            alone: list[float] = []
            cpu = time.process_time()
            await saves(store, await open_table(store, 1), count, alone)
            cpu_alone = (time.process_time() - cpu) / count
            records = [await open_table(store, 100 + index) for index in range(tables)]
            together: list[float] = []
            cpu, started = time.process_time(), time.perf_counter()
            await asyncio.gather(*(saves(store, record, count, together) for record in records))
            wall, cpu_together = time.perf_counter() - started, (time.process_time() - cpu) / len(together)
        finally:
            await database.close()
    alone.sort()
    together.sort()
    figures = {
        "alone_median_ms": round(statistics.median(alone) * 1e3, 3),
        "alone_p95_ms": round(alone[int(len(alone) * 0.95)] * 1e3, 3),
        "alone_cpu_ms": round(cpu_alone * 1e3, 3),
        "tables": tables,
        "together_saves_per_s": round(len(together) / wall),
        "together_p99_ms": round(together[int(len(together) * 0.99)] * 1e3, 2),
        "together_cpu_ms": round(cpu_together * 1e3, 3),
    }
    print(f"Kaiten state, 4 players, WAL, synchronous=NORMAL; {count} saves per table")
    print(
        f"one table:  median {figures['alone_median_ms']:.2f} ms · p95 {figures['alone_p95_ms']:.2f} ms"
        f" · CPU {figures['alone_cpu_ms']:.3f} ms per save"
    )
    print(
        f"{tables} tables at once: {figures['together_saves_per_s']} saves/s · p99"
        f" {figures['together_p99_ms']:.1f} ms · CPU {figures['together_cpu_ms']:.3f} ms per save"
    )
    print(json.dumps({"bench": "storage", **figures}))


if __name__ == "__main__":
    asyncio.run(
        main(int(sys.argv[1]) if len(sys.argv) > 1 else 200, int(sys.argv[2]) if len(sys.argv) > 2 else 100)
    )
