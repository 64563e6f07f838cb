"""The table the storage tests write: a two-seat Tiny Race, with what each test varies."""

from __future__ import annotations

from typing import Any

from storage.tables import Seat, TableRecord


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
