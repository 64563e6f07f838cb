"""What the bot holds about one player, and forgetting it; forgetting a server the bot left.

A player's own rows (their roll log, saved rolls, preferences and ratings) are deleted. Games they
played stay for the others' histories and replays, with the player replaced: their seat's user id
becomes `FORMER_PLAYER` (a finished table; the seat is then nobody's and plays no rematch as a
human) or a computer's id (a table still open, which a computer plays on), their name the words
"a former player" in the table's language; their results rows keep the score and rank but no user
id and no rating. After `forget`, no row of any table holds their id or their name.

Rows are found by their columns, and in the JSON text the table store writes (`seats`, the action
log's table-level moves): compact, so `"user_id":<id>` is matched as text and then checked parsed.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from storage.database import Database, Executor
from storage.settings import LEFT_KEY
from storage.tables import OPEN_STATUSES

FORMER_PLAYER = 0
"""The user id of a forgotten player's seat and results at a finished table (no Discord user has it;
computers have negative ids)."""
ROLLS_SHOWN = 10_000
"""The newest rolls `about` lists one by one (the count says how many there are in all)."""

FormerName = Callable[[str | None], str]
"""The words that name a forgotten player, in a table's language (its `extra["locale"]`)."""


@dataclass
class Forgotten:
    """What `forget` changed: rows deleted or rewritten per kind, and the open tables it changed itself
    (the bot's cache of those is out of date)."""

    counts: dict[str, int] = field(default_factory=dict)
    open_channels: list[int] = field(default_factory=list)


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)  # as storage.tables writes it


def _when(timestamp: float | None) -> str | None:
    return datetime.fromtimestamp(timestamp, tz=UTC).isoformat() if timestamp is not None else None


def _seated(seats: list[dict[str, Any]], user_id: int) -> list[int]:
    return [index for index, seat in enumerate(seats) if seat.get("user_id") == user_id]


class PrivacyStore:
    def __init__(self, database: Database) -> None:
        self.database = database

    # ------------------------------------------------------------ one player

    async def about(self, user_id: int) -> dict[str, Any]:
        """Everything stored about the player, as JSON-ready data (ids as text, times in ISO 8601)."""
        db = self.database
        settings = await db.fetch_all("SELECT key, value FROM player_settings WHERE user_id = ?", (user_id,))
        saved = await db.fetch_all(
            "SELECT name, expression, saved_at FROM saved_rolls WHERE scope = 'user' AND owner_id = ?"
            " ORDER BY name",
            (user_id,),
        )
        counted = await db.fetch_one("SELECT COUNT(*) FROM dice_rolls WHERE user_id = ?", (user_id,))
        rolls = await db.fetch_all(
            "SELECT guild_id, channel_id, request, expression, label, private, totals, rolled_at"
            " FROM dice_rolls WHERE user_id = ? ORDER BY rolled_at DESC, id DESC LIMIT ?",
            (user_id, ROLLS_SHOWN),
        )
        ratings = []
        for table, season in (("ratings", "NULL"), ("season_ratings", "season")):
            ratings += await db.fetch_all(
                f"SELECT guild_id, game_id, {season} AS season, mu, sigma, games, wins, points,"
                f" computer_games FROM {table} WHERE user_id = ? ORDER BY guild_id, game_id",
                (user_id,),
            )
        results = await db.fetch_all(
            "SELECT r.guild_id, r.table_id, r.game_id, r.seat, r.score, r.rank, r.finished_at, r.season,"
            " g.seats FROM results r JOIN game_tables g ON g.id = r.table_id WHERE r.user_id = ?"
            " ORDER BY r.finished_at, r.table_id",
            (user_id,),
        )
        # Finished games are listed with their results above; the rest: open, cancelled, abandoned.
        tables = [row for row in await self._tables_of(db, user_id) if row["status"] != "finished"]
        return {
            "user_id": str(user_id),
            "preferences": {row["key"]: json.loads(row["value"]) for row in settings},
            "saved_rolls": [
                {"name": row["name"], "expression": row["expression"], "saved_at": _when(row["saved_at"])}
                for row in saved
            ],
            "rolls": {
                "count": int(counted[0]) if counted else 0,
                "newest": [
                    {
                        "server": str(row["guild_id"]) if row["guild_id"] is not None else None,
                        "channel": str(row["channel_id"]) if row["channel_id"] is not None else None,
                        "request": row["request"],
                        "expression": row["expression"],
                        "label": row["label"],
                        "private": bool(row["private"]),
                        "totals": json.loads(row["totals"]),
                        "at": _when(row["rolled_at"]),
                    }
                    for row in rolls
                ],
            },
            "ratings": [
                {
                    "server": str(row["guild_id"]),
                    "game": row["game_id"],
                    "season": row["season"],  # null: all-time
                    "mu": row["mu"],
                    "sigma": row["sigma"],
                    "games": row["games"],
                    "wins": row["wins"],
                    "points": row["points"],
                    "with_computers": row["computer_games"],
                }
                for row in ratings
            ],
            "games": [
                {
                    "server": str(row["guild_id"]),
                    "table": row["table_id"],
                    "game": row["game_id"],
                    "season": row["season"],
                    "name": _name_at(row["seats"], row["seat"]),
                    "score": row["score"],
                    "rank": row["rank"],
                    "finished_at": _when(row["finished_at"]),
                }
                for row in results
            ],
            "tables": [
                {
                    "server": str(row["guild_id"]),
                    "channel": str(row["channel_id"]),
                    "table": row["id"],
                    "game": row["game_id"],
                    "status": row["status"],
                    "host": row["host_id"] == user_id,
                    "names": [
                        seat.get("name")
                        for seat in json.loads(row["seats"])
                        if seat.get("user_id") == user_id
                    ],
                }
                for row in tables
            ],
        }

    async def holds(self, user_id: int) -> bool:
        """Whether any row holds the player's id (what `forget` would change)."""
        checks = [
            ("player_settings", "user_id = ?"),
            ("saved_rolls", "scope = 'user' AND owner_id = ?"),
            ("dice_rolls", "user_id = ?"),
            ("ratings", "user_id = ?"),
            ("season_ratings", "user_id = ?"),
            ("results", "user_id = ?"),
        ]
        for table, where in checks:
            if await self.database.fetch_one(f"SELECT 1 FROM {table} WHERE {where} LIMIT 1", (user_id,)):
                return True
        return bool(await self._tables_of(self.database, user_id)) or bool(
            await self._actions_of(self.database, user_id)
        )

    async def open_channels(self, user_id: int) -> list[int]:
        """The channels of the open tables the player sits at (the bot makes each of them their leaving)."""
        return [
            int(row["channel_id"])
            for row in await self._tables_of(self.database, user_id)
            if row["status"] in OPEN_STATUSES
        ]

    async def forget(self, user_id: int, former_name: FormerName, now: float) -> Forgotten:
        """Delete the player's own rows and replace them in every game, in one transaction. An open table
        that still seats them (the bot makes their leaving first; this is for one it could not) is
        changed as a move is: a new version, a table-level "leave" in its log, and a computer plays on."""
        done = Forgotten()

        async def body(executor: Executor) -> Forgotten:
            counts = done.counts
            await executor.execute(
                "DELETE FROM dice_roll_faces WHERE roll_id IN (SELECT id FROM dice_rolls WHERE user_id = ?)",
                (user_id,),
            )
            for kind, sql in (
                ("rolls", "DELETE FROM dice_rolls WHERE user_id = ?"),
                ("saved_rolls", "DELETE FROM saved_rolls WHERE scope = 'user' AND owner_id = ?"),
                ("preferences", "DELETE FROM player_settings WHERE user_id = ?"),
                ("ratings", "DELETE FROM ratings WHERE user_id = ?"),
                ("season_ratings", "DELETE FROM season_ratings WHERE user_id = ?"),
            ):
                counts[kind] = await executor.execute(sql, (user_id,))
            counts["results"] = await executor.execute(
                "UPDATE results SET user_id = ?, counted = 0, rating = NULL, overall_rating = NULL,"
                " season_rating = NULL, season_overall_rating = NULL WHERE user_id = ?",
                (FORMER_PLAYER, user_id),
            )
            counts["tables"] = 0
            for row in await self._tables_of(executor, user_id):
                await self._replace_at_table(executor, row, user_id, former_name, now, done)
                counts["tables"] += 1
            counts["actions"] = 0
            for row in await self._actions_of(executor, user_id):
                action = json.loads(row["action"])
                action["user"] = FORMER_PLAYER
                await executor.execute(
                    "UPDATE actions SET action = ? WHERE table_id = ? AND version = ?",
                    (_dumps(action), row["table_id"], row["version"]),
                )
                counts["actions"] += 1
            return done

        return await self.database.atomic(body)

    async def _replace_at_table(
        self,
        executor: Executor,
        row: Any,
        user_id: int,
        former_name: FormerName,
        now: float,
        done: Forgotten,
    ) -> None:
        seats: list[dict[str, Any]] = json.loads(row["seats"])
        extra = json.loads(row["extra"])
        words = former_name(extra.get("locale"))
        is_open = row["status"] in OPEN_STATUSES
        taken = {seat.get("user_id") for seat in seats}
        for index in _seated(seats, user_id):
            seat = seats[index]
            if is_open:  # a computer plays on, with an id of its own at this table
                computer = next(number for number in range(1, len(seats) + 2) if -number not in taken)
                taken.add(-computer)
                seat.update(user_id=-computer, name=f"🤖 {words}", computer=True, timeouts=0)
            else:
                seat.update(user_id=FORMER_PLAYER, name=words, computer=True, timeouts=0)
            await executor.execute(
                "DELETE FROM table_messages WHERE table_id = ? AND slot = ?", (row["id"], f"dm:{index}")
            )
        humans = [seat["user_id"] for seat in seats if seat.get("user_id", 0) > 0]
        host = row["host_id"]
        if host == user_id:
            host = humans[0] if humans else FORMER_PLAYER
        if not is_open:
            await executor.execute(
                "UPDATE game_tables SET seats = ?, host_id = ? WHERE id = ?", (_dumps(seats), host, row["id"])
            )
            return
        status = row["status"]
        if not humans:  # nobody is left to play: as when the last player leaves
            status = "cancelled" if status == "lobby" else "abandoned"
        version = row["version"] + 1
        await executor.execute(
            "UPDATE game_tables SET seats = ?, host_id = ?, status = ?, version = ?, updated_at = ?"
            " WHERE id = ?",
            (_dumps(seats), host, status, version, now, row["id"]),
        )
        await executor.execute(
            "INSERT INTO actions (table_id, version, seat, action, at) VALUES (?, ?, NULL, ?, ?)",
            (row["id"], version, _dumps({"type": "leave", "user": FORMER_PLAYER}), now),
        )
        done.open_channels.append(int(row["channel_id"]))

    @staticmethod
    async def _tables_of(executor: Executor, user_id: int) -> list[Any]:
        """Every table the player hosted or sat at (a seat's JSON names them), any status."""
        rows = await executor.fetch_all(
            "SELECT id, guild_id, channel_id, game_id, host_id, status, version, seats, extra"
            " FROM game_tables WHERE host_id = ? OR seats LIKE ? ORDER BY id",
            (user_id, f'%"user_id":{user_id}%'),
        )
        return [
            row for row in rows if row["host_id"] == user_id or _seated(json.loads(row["seats"]), user_id)
        ]

    @staticmethod
    async def _actions_of(executor: Executor, user_id: int) -> list[Any]:
        """The logged table-level moves (join, leave, ...) that name the player."""
        rows = await executor.fetch_all(
            "SELECT table_id, version, action FROM actions WHERE action LIKE ?", (f'%"user":{user_id}%',)
        )
        return [row for row in rows if json.loads(row["action"]).get("user") == user_id]

    # ------------------------------------------------------------ one server

    async def server_holds(self, guild_id: int) -> bool:
        """Whether any row belongs to the server."""
        checks = [
            ("game_tables", "guild_id = ?"),
            ("ratings", "guild_id = ?"),
            ("season_ratings", "guild_id = ?"),
            ("seasons", "guild_id = ?"),
            ("guild_settings", "guild_id = ?"),
            ("dice_rolls", "guild_id = ?"),
            ("saved_rolls", "scope = 'server' AND owner_id = ?"),
        ]
        for table, where in checks:
            if await self.database.fetch_one(f"SELECT 1 FROM {table} WHERE {where} LIMIT 1", (guild_id,)):
                return True
        return False

    async def forget_server(self, guild_id: int) -> list[int]:
        """Delete everything of the server, in one transaction: its tables with their logs, results and
        messages, its ratings and seasons, its settings, its roll log and saved rolls. Returns the
        channels of the tables that were open (the bot forgets them too)."""
        own = "(SELECT id FROM game_tables WHERE guild_id = ?)"

        async def body(executor: Executor) -> list[int]:
            rows = await executor.fetch_all(
                "SELECT channel_id FROM game_tables WHERE guild_id = ? AND status IN ('lobby', 'playing')",
                (guild_id,),
            )
            for sql in (
                f"DELETE FROM table_messages WHERE table_id IN {own}",
                f"DELETE FROM actions WHERE table_id IN {own}",
                "DELETE FROM results WHERE guild_id = ?",
                "DELETE FROM game_tables WHERE guild_id = ?",
                "DELETE FROM ratings WHERE guild_id = ?",
                "DELETE FROM season_ratings WHERE guild_id = ?",
                "DELETE FROM seasons WHERE guild_id = ?",
                "DELETE FROM guild_settings WHERE guild_id = ?",
                "DELETE FROM dice_roll_faces WHERE roll_id IN (SELECT id FROM dice_rolls WHERE guild_id = ?)",
                "DELETE FROM dice_rolls WHERE guild_id = ?",
                "DELETE FROM saved_rolls WHERE scope = 'server' AND owner_id = ?",
            ):
                await executor.execute(sql, (guild_id,))
            return [int(row["channel_id"]) for row in rows]

        return await self.database.atomic(body)

    async def mark_left(self, guild_id: int, at: float) -> bool:
        """The bot was removed from the server at `at`: its data goes once the grace period is over
        (`departed`). A server with nothing stored gets no row; a second removal keeps the first time.
        True when marked."""
        if not await self.server_holds(guild_id):
            return False
        await self.database.execute(
            "INSERT INTO guild_settings (guild_id, key, value) VALUES (?, ?, ?)"
            " ON CONFLICT (guild_id, key) DO NOTHING",
            (guild_id, LEFT_KEY, json.dumps(at)),
        )
        return True

    async def cancel_left(self, guild_id: int) -> bool:
        """The bot is back in the server: nothing of it is deleted. True when a removal was pending."""
        return bool(
            await self.database.execute(
                "DELETE FROM guild_settings WHERE guild_id = ? AND key = ?", (guild_id, LEFT_KEY)
            )
        )

    async def departed(self, before: float) -> list[int]:
        """The servers the bot was removed from before `before`, oldest first."""
        rows = await self.database.fetch_all(
            "SELECT guild_id, value FROM guild_settings WHERE key = ?", (LEFT_KEY,)
        )
        left = sorted((float(json.loads(row["value"])), int(row["guild_id"])) for row in rows)
        return [guild_id for at, guild_id in left if at < before]


def _name_at(seats_text: str, seat: int) -> str | None:
    seats = json.loads(seats_text)
    return seats[seat].get("name") if 0 <= seat < len(seats) else None
