"""Per-server settings chosen by admins (/settings), and each player's own choices."""

from __future__ import annotations

import json
from typing import Any

from storage.database import Database


class GuildSettings:
    def __init__(self, database: Database) -> None:
        self.database = database

    async def get(self, guild_id: int, key: str, default: Any = None) -> Any:
        row = await self.database.fetch_one(
            "SELECT value FROM guild_settings WHERE guild_id = ? AND key = ?", (guild_id, key)
        )
        return json.loads(row["value"]) if row else default

    async def all(self, guild_id: int) -> dict[str, Any]:
        rows = await self.database.fetch_all(
            "SELECT key, value FROM guild_settings WHERE guild_id = ? ORDER BY key", (guild_id,)
        )
        return {row["key"]: json.loads(row["value"]) for row in rows}

    async def set(self, guild_id: int, key: str, value: Any) -> None:
        await self.database.execute(
            "INSERT INTO guild_settings (guild_id, key, value) VALUES (?, ?, ?)"
            " ON CONFLICT (guild_id, key) DO UPDATE SET value = excluded.value",
            (guild_id, key, json.dumps(value)),
        )

    async def clear(self, guild_id: int, key: str) -> None:
        await self.database.execute(
            "DELETE FROM guild_settings WHERE guild_id = ? AND key = ?", (guild_id, key)
        )


class PlayerSettings:
    """A player's own choices, the same in every server (e.g. how to be told it is their turn)."""

    def __init__(self, database: Database) -> None:
        self.database = database

    async def get(self, user_id: int, key: str, default: Any = None) -> Any:
        row = await self.database.fetch_one(
            "SELECT value FROM player_settings WHERE user_id = ? AND key = ?", (user_id, key)
        )
        return json.loads(row["value"]) if row else default

    async def set(self, user_id: int, key: str, value: Any) -> None:
        await self.database.execute(
            "INSERT INTO player_settings (user_id, key, value) VALUES (?, ?, ?)"
            " ON CONFLICT (user_id, key) DO UPDATE SET value = excluded.value",
            (user_id, key, json.dumps(value)),
        )
