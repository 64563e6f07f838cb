"""The table the storage tests write: a two-seat Tiny Race, with what each test varies; `finish`, a
finished one with its results."""

from __future__ import annotations

from typing import Any

from storage.database import Database
from storage.leaderboard import SeatResult
from storage.tables import Seat, TableRecord, TableStore


def table_record(
    channel_id: int = 10,
    deadline: float | None = None,
    *,
    guild_id: int = 1,
    status: str = "lobby",
    **fields: Any,
) -> TableRecord:
    return TableRecord(
        guild_id=guild_id,
        channel_id=channel_id,
        game_id="tiny",
        host_id=100,
        status=status,
        seats=[Seat(100, "alice"), Seat(200, "bob")],
        state={"v": 1, "turn": 0},
        deadline=deadline,
        **fields,
    )


async def finish(database: Database, channel_id: int, results: list[SeatResult]) -> int:
    """A Tiny Race at `channel_id` of guild 1, hosted by 100 (alice), finished with `results`; its id."""
    store = TableStore(database)
    seats = [Seat(r.user_id, f"player {r.user_id}", computer=r.user_id < 0, level=r.level) for r in results]
    record = await store.create(TableRecord(1, channel_id, "tiny", 100, seats=seats), now=1.0)
    await store.save(record, expected_version=0, action={"type": "start", "seed": 1}, seat=None, now=2.0)
    record.status = "finished"
    await store.save(
        record, expected_version=1, action={"type": "end"}, seat=0, now=3.0 + channel_id, results=results
    )
    assert record.id is not None
    return record.id
