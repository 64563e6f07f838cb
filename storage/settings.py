"""Per-server settings chosen by admins (/settings), and each player's own choices."""

from __future__ import annotations

import json
from typing import Any

from storage.database import Database

# ---------------------------------------------------------------- every setting's key, in one place
# Server settings (guild_settings), chosen with /settings:
TURN_TIMEOUT_KEY = "turn_timeout"
PINGS_KEY = "pings"  # server setting: False turns turn pings off
PING_DELAY_KEY = "ping_delay"  # server setting: seconds a player may take before being pinged
PICTURES_KEY = "pictures"
COMPUTERS_COUNTED_KEY = "computers.counted"  # server setting: games with computer players count (default)
WHERE_KEY = "tables.where"  # guild setting: "threads" (the default) or "channel"
ARCHIVE_KEY = "tables.archive"  # guild setting: minutes of inactivity before Discord archives a thread
TOLD_KEY = "tables.told"  # guild setting: the reasons the server was already told (said once each)
RETENTION_KEY = "history.retention_days"  # guild_settings: days a closed table is kept; absent or 0 = forever
SCHEDULE_KEY = "season.schedule"  # guild_settings: {"every": "monthly" | "quarterly", "since": epoch s}
CHANNEL_KEY = "season.channel"  # guild_settings: the channel a season's podium is posted in
LEFT_KEY = "privacy.left_at"  # guild_settings: when the bot was removed (epoch s), its data going later
# A player's own choices (player_settings), and the server's language too:
NOTIFY_KEY = "notify"  # player setting: how they are told it is their turn
LANGUAGE_KEY = "language"  # the same key in guild_settings and player_settings


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
