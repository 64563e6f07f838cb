"""Finished-game results and OpenSkill ratings, always queried for one server."""

from __future__ import annotations

from dataclasses import dataclass

import aiosqlite
from openskill.models import PlackettLuce

from storage.database import Database

ALL_GAMES = "*"
_MODEL = PlackettLuce()


@dataclass(frozen=True)
class SeatResult:
    seat: int
    user_id: int
    score: int
    rank: int


@dataclass(frozen=True)
class Standing:
    user_id: int
    mu: float
    sigma: float
    games: int
    wins: int
    points: int
    position: int = 0

    @property
    def rating(self) -> float:
        """The conservative skill estimate players see (mu - 3 sigma)."""
        return self.mu - 3 * self.sigma

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def average_points(self) -> float:
        return self.points / self.games if self.games else 0.0


class Leaderboard:
    def __init__(self, database: Database) -> None:
        self.database = database

    async def top(self, guild_id: int, game_id: str = ALL_GAMES, limit: int = 10) -> list[Standing]:
        async with self.database.connection.execute(
            "SELECT user_id, mu, sigma, games, wins, points FROM ratings WHERE guild_id = ? AND game_id = ?"
            " ORDER BY mu - 3 * sigma DESC, wins DESC, user_id LIMIT ?",
            (guild_id, game_id, limit),
        ) as cursor:
            rows = await cursor.fetchall()
        return [Standing(position=index + 1, **dict(row)) for index, row in enumerate(rows)]

    async def standing(self, guild_id: int, user_id: int, game_id: str = ALL_GAMES) -> Standing | None:
        """One player's line, with their position on this server's board."""
        async with self.database.connection.execute(
            "SELECT user_id, mu, sigma, games, wins, points FROM ratings"
            " WHERE guild_id = ? AND game_id = ? AND user_id = ?",
            (guild_id, game_id, user_id),
        ) as cursor:
            row = await cursor.fetchone()
        if row is None:
            return None
        async with self.database.connection.execute(
            "SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND game_id = ?"
            " AND (mu - 3 * sigma > ? OR (mu - 3 * sigma = ? AND (wins > ? OR (wins = ? AND user_id < ?))))",
            (guild_id, game_id, *(row["mu"] - 3 * row["sigma"],) * 2, row["wins"], row["wins"], user_id),
        ) as cursor:
            above = await cursor.fetchone()
        return Standing(position=(above[0] if above else 0) + 1, **dict(row))

    async def stats(self, guild_id: int, user_id: int) -> dict[str, Standing]:
        """A player's standing in every game they played on this server (and '*' for all)."""
        async with self.database.connection.execute(
            "SELECT game_id FROM ratings WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
        ) as cursor:
            games = [row["game_id"] for row in await cursor.fetchall()]
        found = {}
        for game_id in games:
            standing = await self.standing(guild_id, user_id, game_id)
            if standing is not None:
                found[game_id] = standing
        return found

    async def recent(self, guild_id: int, user_id: int, limit: int = 5) -> list[tuple[str, int, int]]:
        """(game_id, score, rank) of a player's latest games on this server, newest first."""
        async with self.database.connection.execute(
            "SELECT game_id, score, rank FROM results WHERE guild_id = ? AND user_id = ?"
            " ORDER BY finished_at DESC, table_id DESC LIMIT ?",
            (guild_id, user_id, limit),
        ) as cursor:
            return [(row["game_id"], row["score"], row["rank"]) for row in await cursor.fetchall()]


async def record_results(
    connection: aiosqlite.Connection,
    *,
    table_id: int,
    guild_id: int,
    game_id: str,
    results: list[SeatResult],
    now: float,
) -> None:
    """Store a finished game and update ratings; call inside the transaction that ends the game."""
    await connection.executemany(
        "INSERT INTO results (table_id, guild_id, game_id, seat, user_id, score, rank, finished_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [(table_id, guild_id, game_id, r.seat, r.user_id, r.score, r.rank, now) for r in results],
    )
    for bucket in (game_id, ALL_GAMES):
        await _rate(connection, guild_id, bucket, results)


async def _rate(
    connection: aiosqlite.Connection, guild_id: int, game_id: str, results: list[SeatResult]
) -> None:
    current: dict[int, tuple[float, float]] = {}
    for result in results:
        async with connection.execute(
            "SELECT mu, sigma FROM ratings WHERE guild_id = ? AND game_id = ? AND user_id = ?",
            (guild_id, game_id, result.user_id),
        ) as cursor:
            row = await cursor.fetchone()
        current[result.user_id] = (row["mu"], row["sigma"]) if row else (_MODEL.mu, _MODEL.sigma)
    updated = dict(current)
    if len(results) >= 2:  # a rating moves only against other people
        teams = [[_MODEL.rating(mu=current[r.user_id][0], sigma=current[r.user_id][1])] for r in results]
        rated = _MODEL.rate(teams, ranks=[r.rank for r in results])
        for result, (player,) in zip(results, rated, strict=True):
            updated[result.user_id] = (player.mu, player.sigma)
    await connection.executemany(
        "INSERT INTO ratings (guild_id, game_id, user_id, mu, sigma, games, wins, points)"
        " VALUES (?, ?, ?, ?, ?, 1, ?, ?)"
        " ON CONFLICT (guild_id, game_id, user_id) DO UPDATE SET mu = excluded.mu,"
        " sigma = excluded.sigma, games = games + 1, wins = wins + excluded.wins,"
        " points = points + excluded.points",
        [(guild_id, game_id, r.user_id, *updated[r.user_id], int(r.rank == 1), r.score) for r in results],
    )
