"""Which bot processes share the database, and which shards each runs (a heartbeat row each)."""

from __future__ import annotations

from dataclasses import dataclass

from storage.database import Database


@dataclass(frozen=True)
class BotProcess:
    owner: str
    shard_count: int
    shard_ids: tuple[int, ...]
    seen_at: float


class Processes:
    def __init__(self, database: Database) -> None:
        self.database = database

    async def beat(self, owner: str, shard_count: int, shard_ids: tuple[int, ...], now: float) -> None:
        """`owner` is alive at `now` and runs `shard_ids` of `shard_count` shards."""
        await self.database.execute(
            "INSERT INTO bot_processes (owner, shard_count, shard_ids, seen_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (owner) DO UPDATE SET shard_count = excluded.shard_count,"
            " shard_ids = excluded.shard_ids, seen_at = excluded.seen_at",
            (owner, shard_count, ",".join(map(str, shard_ids)), now),
        )

    async def leave(self, owner: str) -> None:
        """`owner` is stopping: the others no longer count it as running its shards."""
        await self.database.execute("DELETE FROM bot_processes WHERE owner = ?", (owner,))

    async def alive(self, since: float) -> list[BotProcess]:
        """The processes seen at `since` or later; older rows (dead processes) are removed."""
        await self.database.execute("DELETE FROM bot_processes WHERE seen_at < ?", (since,))
        rows = await self.database.fetch_all(
            "SELECT owner, shard_count, shard_ids, seen_at FROM bot_processes ORDER BY owner"
        )
        return [
            BotProcess(
                row["owner"],
                row["shard_count"],
                tuple(int(part) for part in row["shard_ids"].split(",") if part),
                row["seen_at"],
            )
            for row in rows
        ]
