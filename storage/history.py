"""A server's finished games, for /history and /replay, and pruning what is older than it keeps.

A finished game is a `game_tables` row with its `results` (one per seat, written in the same
transaction as the final move). Its start is the table-level "start" or "rematch" action in the
log; its length runs from there to the result. Always queried for one server.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from storage.database import Database
from storage.settings import RETENTION_KEY

CLOSED_STATUSES = ("finished", "cancelled", "abandoned")
DAY = 24 * 60 * 60


@dataclass(frozen=True)
class Player:
    seat: int
    user_id: int
    name: str  # the display name the table knew them by
    score: int
    rank: int


@dataclass(frozen=True)
class FinishedGame:
    table_id: int
    guild_id: int
    channel_id: int
    game_id: str
    players: tuple[Player, ...]  # by seat
    started_at: float
    finished_at: float
    season: int = 0  # the server's season it was played in (0: before its first)

    @property
    def seconds(self) -> float:
        """How long it took, from the deal to the result."""
        return max(0.0, self.finished_at - self.started_at)

    def by_rank(self) -> list[Player]:
        return sorted(self.players, key=lambda player: (player.rank, player.seat))


@dataclass(frozen=True)
class Filter:
    """Which finished games of a server: all, one game's, one member's, or both."""

    guild_id: int
    game_id: str | None = None
    user_id: int | None = None

    def where(self) -> tuple[str, list[Any]]:
        # `seat = 0` picks one row per finished game, and matches the partial index of migration 004.
        clauses = ["r.guild_id = ?", "r.seat = 0"]
        params: list[Any] = [self.guild_id]
        if self.game_id is not None:
            clauses.append("r.game_id = ?")
            params.append(self.game_id)
        if self.user_id is not None:
            clauses.append("r.table_id IN (SELECT table_id FROM results WHERE guild_id = ? AND user_id = ?)")
            params += [self.guild_id, self.user_id]
        return " AND ".join(clauses), params


def _started(database: Database) -> str:
    """The deal of a game: the last table-level start (or rematch) in its log; the table's opening if none."""
    kind = database.json_text("a.action", "type")
    return (
        "COALESCE((SELECT a.at FROM actions a WHERE a.table_id = g.id AND a.seat IS NULL"
        f" AND {kind} IN ('start', 'rematch') ORDER BY a.version DESC LIMIT 1), g.created_at)"
    )


class HistoryStore:
    def __init__(self, database: Database) -> None:
        self.database = database

    async def count(self, where: Filter) -> int:
        sql, params = where.where()
        row = await self.database.fetch_one(f"SELECT COUNT(*) FROM results r WHERE {sql}", params)
        return int(row[0]) if row else 0

    async def page(self, where: Filter, *, page: int, per_page: int) -> list[FinishedGame]:
        """One page of finished games, newest first (page 0 is the newest)."""
        sql, params = where.where()
        rows = await self.database.fetch_all(
            f"SELECT r.table_id FROM results r WHERE {sql}"
            " ORDER BY r.finished_at DESC, r.table_id DESC LIMIT ? OFFSET ?",
            [*params, per_page, max(0, page) * per_page],
        )
        ids = [row["table_id"] for row in rows]
        found = {game.table_id: game for game in await self._games(where.guild_id, ids)}
        return [found[table_id] for table_id in ids if table_id in found]

    async def game(self, guild_id: int, table_id: int) -> FinishedGame | None:
        """One finished game of this server (None for another server's, or an unfinished one)."""
        found = await self._games(guild_id, [table_id])
        return found[0] if found else None

    async def _games(self, guild_id: int, table_ids: list[int]) -> list[FinishedGame]:
        if not table_ids:
            return []
        marks = ", ".join("?" * len(table_ids))
        started = _started(self.database)
        rows = await self.database.fetch_all(
            f"SELECT g.id, g.guild_id, g.channel_id, g.game_id, g.seats, {started} AS started_at,"
            " r.seat, r.user_id, r.score, r.rank, r.finished_at, r.season"
            " FROM game_tables g JOIN results r ON r.table_id = g.id"
            f" WHERE g.guild_id = ? AND g.status = 'finished' AND g.id IN ({marks})"
            " ORDER BY g.id, r.seat",
            (guild_id, *table_ids),
        )
        games: dict[int, dict[str, Any]] = {}
        for row in rows:
            game = games.setdefault(row["id"], {"row": row, "names": json.loads(row["seats"]), "players": []})
            names = game["names"]
            name = names[row["seat"]]["name"] if row["seat"] < len(names) else str(row["user_id"])
            game["players"].append(Player(row["seat"], row["user_id"], name, row["score"], row["rank"]))
        return [
            FinishedGame(
                table_id=game["row"]["id"],
                guild_id=game["row"]["guild_id"],
                channel_id=game["row"]["channel_id"],
                game_id=game["row"]["game_id"],
                players=tuple(game["players"]),
                started_at=game["row"]["started_at"],
                finished_at=game["row"]["finished_at"],
                season=game["row"]["season"],
            )
            for game in games.values()
        ]

    async def prune(self, now: float, guild_id: int | None = None) -> int:
        """Delete the closed tables (finished, cancelled, abandoned) older than their server's
        retention, with their action logs and results; servers without one keep everything.

        Ratings stay: the leaderboard is a running total, not recomputed from results.
        `guild_id` limits it to one server. Returns how many tables went.
        """
        only = " AND g.guild_id = ?" if guild_id is not None else ""
        marks = ", ".join("?" * len(CLOSED_STATUSES))
        # DOUBLE PRECISION, not REAL: PostgreSQL's REAL is 4 bytes, too coarse for epoch seconds.
        return await self.database.execute(
            "DELETE FROM game_tables WHERE id IN ("
            " SELECT g.id FROM game_tables g JOIN guild_settings s"
            " ON s.guild_id = g.guild_id AND s.key = ?"
            f" WHERE g.status IN ({marks}) AND CAST(s.value AS DOUBLE PRECISION) > 0"
            f" AND g.updated_at < ? - CAST(s.value AS DOUBLE PRECISION) * ?{only})",
            (RETENTION_KEY, *CLOSED_STATUSES, now, DAY, *((guild_id,) if guild_id is not None else ())),
        )
