"""Finished-game results and OpenSkill ratings, always queried for one server.

Computer players (negative user ids) keep their results rows, so /history and /replay can name them,
but never have a rating: they are on no leaderboard. A game with computer players counts for its humans
only where the server says so (`SeatResult.counted`); then a computer is rated as an opponent at a
fixed strength of its level, and the humans' lines count such games apart (`computer_games`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from openskill.models import PlackettLuce

from storage.database import Database, Executor

ALL_GAMES = "*"
_MODEL = PlackettLuce()
# A computer opponent's fixed (mu, sigma) per level: anchors, never updated, so beating `easy` moves a
# rating less than beating `hard` (the default player starts at mu 25, sigma 8.33).
COMPUTER_RATING: dict[str, tuple[float, float]] = {
    "easy": (18.0, 2.0),
    "normal": (25.0, 2.0),
    "hard": (30.0, 2.0),
}


@dataclass(frozen=True)
class SeatResult:
    seat: int
    user_id: int  # negative: a computer player added at the table
    score: int
    rank: int
    level: str | None = None  # a computer player's level
    counted: bool = True  # False: a game with computer players that this server does not count

    @property
    def human(self) -> bool:
        return self.user_id > 0


@dataclass(frozen=True)
class RecentGame:
    game_id: str
    score: int
    rank: int
    with_computers: bool
    season: int = 0


@dataclass(frozen=True)
class RatedGame:
    """A player's rating (mu - 3 sigma) right after one of their games, and the game's season."""

    at: float
    rating: float
    season: int


@dataclass(frozen=True)
class Standing:
    user_id: int
    mu: float
    sigma: float
    games: int
    wins: int
    points: int
    computer_games: int = 0  # of `games`, those played with computer players
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


ALL_TIME = None
"""The season argument that means every season together (the all-time ratings)."""


def _scope(season: int | None) -> tuple[str, str, tuple[int, ...]]:
    """The ratings table of a season (None: all-time), its extra key condition and that key's value."""
    if season is None:
        return "ratings", "", ()
    return "season_ratings", " AND season = ?", (season,)


# The results column a board's trend is read from: by (all-time?, all games?).
_TREND_COLUMNS = {
    (True, False): "rating",
    (True, True): "overall_rating",
    (False, False): "season_rating",
    (False, True): "season_overall_rating",
}


class Leaderboard:
    """A server's standings: all-time (`season=None`) or in one season (0: before the first)."""

    def __init__(self, database: Database) -> None:
        self.database = database

    async def top(
        self, guild_id: int, game_id: str = ALL_GAMES, limit: int = 10, season: int | None = ALL_TIME
    ) -> list[Standing]:
        table, where, key = _scope(season)
        rows = await self.database.fetch_all(
            f"SELECT user_id, mu, sigma, games, wins, points, computer_games FROM {table}"
            f" WHERE guild_id = ? AND game_id = ?{where}"
            " ORDER BY mu - 3 * sigma DESC, wins DESC, user_id LIMIT ?",
            (guild_id, game_id, *key, limit),
        )
        return [Standing(position=index + 1, **dict(row)) for index, row in enumerate(rows)]

    async def standing(
        self, guild_id: int, user_id: int, game_id: str = ALL_GAMES, season: int | None = ALL_TIME
    ) -> Standing | None:
        """One player's line, with their position on this server's board."""
        table, where, key = _scope(season)
        row = await self.database.fetch_one(
            f"SELECT user_id, mu, sigma, games, wins, points, computer_games FROM {table}"
            f" WHERE guild_id = ? AND game_id = ? AND user_id = ?{where}",
            (guild_id, game_id, user_id, *key),
        )
        if row is None:
            return None
        # The player's own rating is compared as stored (not recomputed in Python), so a player is
        # never ranked above or below themselves by a rounding difference between the two.
        in_season = " AND p.season = ? AND o.season = p.season" if season is not None else ""
        above = await self.database.fetch_one(
            f"SELECT COUNT(*) FROM {table} o, {table} p"
            f" WHERE p.guild_id = ? AND p.game_id = ? AND p.user_id = ?{in_season}"
            " AND o.guild_id = p.guild_id AND o.game_id = p.game_id"
            " AND (o.mu - 3 * o.sigma > p.mu - 3 * p.sigma OR (o.mu - 3 * o.sigma = p.mu - 3 * p.sigma"
            " AND (o.wins > p.wins OR (o.wins = p.wins AND o.user_id < p.user_id))))",
            (guild_id, game_id, user_id, *key),
        )
        return Standing(position=(above[0] if above else 0) + 1, **dict(row))

    async def stats(self, guild_id: int, user_id: int, season: int | None = ALL_TIME) -> dict[str, Standing]:
        """A player's standing in every game they played on this server (and '*' for all)."""
        table, where, key = _scope(season)
        rows = await self.database.fetch_all(
            f"SELECT game_id FROM {table} WHERE guild_id = ? AND user_id = ?{where}",
            (guild_id, user_id, *key),
        )
        found = {}
        for game_id in [row["game_id"] for row in rows]:
            standing = await self.standing(guild_id, user_id, game_id, season)
            if standing is not None:
                found[game_id] = standing
        return found

    async def recent(self, guild_id: int, user_id: int, limit: int = 5) -> list[tuple[str, int, int]]:
        """(game_id, score, rank) of a player's latest counted games on this server, newest first."""
        return [
            (game.game_id, game.score, game.rank)
            for game in await self.recent_games(guild_id, user_id, limit)
        ]

    async def recent_games(self, guild_id: int, user_id: int, limit: int = 5) -> list[RecentGame]:
        """A player's latest counted games on this server, newest first, marked when computers played."""
        rows = await self.database.fetch_all(
            "SELECT r.game_id, r.score, r.rank, r.season, EXISTS (SELECT 1 FROM results o"
            " WHERE o.table_id = r.table_id AND o.user_id < 0) AS with_computers"
            " FROM results r WHERE r.guild_id = ? AND r.user_id = ? AND r.counted = 1"
            " ORDER BY r.finished_at DESC, r.table_id DESC LIMIT ?",
            (guild_id, user_id, limit),
        )
        return [
            RecentGame(row["game_id"], row["score"], row["rank"], bool(row["with_computers"]), row["season"])
            for row in rows
        ]

    async def ratings_over_time(self, guild_id: int, user_id: int) -> dict[str, list[RatedGame]]:
        """Per game, a player's all-time rating after each rated game, oldest first (games recorded
        before ratings were kept have none)."""
        rows = await self.database.fetch_all(
            "SELECT game_id, finished_at, rating, season FROM results"
            " WHERE guild_id = ? AND user_id = ? AND counted = 1 AND rating IS NOT NULL"
            " ORDER BY finished_at, table_id",
            (guild_id, user_id),
        )
        found: dict[str, list[RatedGame]] = {}
        for row in rows:
            found.setdefault(row["game_id"], []).append(
                RatedGame(row["finished_at"], row["rating"], row["season"])
            )
        return found

    async def trends(
        self,
        guild_id: int,
        user_ids: list[int],
        game_id: str = ALL_GAMES,
        season: int | None = ALL_TIME,
        last: int = 20,
    ) -> dict[int, list[float]]:
        """The ratings of these players after each of their latest `last` rated games on the board
        (one game's, or all games'; a season's or all-time), oldest first."""
        if not user_ids:
            return {}
        column = _TREND_COLUMNS[season is None, game_id == ALL_GAMES]
        clauses = ["guild_id = ?", f"{column} IS NOT NULL", f"user_id IN ({', '.join('?' * len(user_ids))})"]
        params: list[object] = [guild_id, *user_ids]
        if game_id != ALL_GAMES:
            clauses.append("game_id = ?")
            params.append(game_id)
        if season is not None:
            clauses.append("season = ?")
            params.append(season)
        rows = await self.database.fetch_all(
            f"SELECT user_id, {column} AS value FROM results WHERE {' AND '.join(clauses)}"
            " ORDER BY finished_at, table_id",
            tuple(params),
        )
        found: dict[int, list[float]] = {user: [] for user in user_ids}
        for row in rows:
            found[row["user_id"]].append(row["value"])
        return {user: values[-last:] for user, values in found.items()}


async def current_season(connection: Executor, guild_id: int) -> int:
    """The number of the server's open season: its latest (0 before its first)."""
    row = await connection.fetch_one("SELECT MAX(number) FROM seasons WHERE guild_id = ?", (guild_id,))
    return int(row[0]) if row and row[0] is not None else 0


async def record_results(
    connection: Executor,
    *,
    table_id: int,
    guild_id: int,
    game_id: str,
    results: list[SeatResult],
    now: float,
) -> None:
    """Store a finished game and update ratings; call inside the transaction that ends the game.

    Every seat gets its results row (history names computers too), in the server's open season;
    ratings move only for the humans whose game counts, against the humans and (when it counts) the
    computers they played: all-time and in the season, in the game and over all games.
    """
    season = await current_season(connection, guild_id)
    after: dict[tuple[str, int | None], dict[int, float]] = {}
    if any(r.human and r.counted for r in results):
        for scope in (ALL_TIME, season):
            for bucket in (game_id, ALL_GAMES):
                after[bucket, scope] = await _rate(connection, guild_id, bucket, scope, results)

    def rated(bucket: str, scope: int | None, user_id: int) -> float | None:
        return after.get((bucket, scope), {}).get(user_id)

    await connection.execute_many(
        "INSERT INTO results (table_id, guild_id, game_id, seat, user_id, score, rank, finished_at, counted,"
        " season, rating, overall_rating, season_rating, season_overall_rating)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                table_id,
                guild_id,
                game_id,
                r.seat,
                r.user_id,
                r.score,
                r.rank,
                now,
                int(r.human and r.counted),
                season,
                rated(game_id, ALL_TIME, r.user_id),
                rated(ALL_GAMES, ALL_TIME, r.user_id),
                rated(game_id, season, r.user_id),
                rated(ALL_GAMES, season, r.user_id),
            )
            for r in results
        ],
    )


async def _rate(
    connection: Executor, guild_id: int, game_id: str, season: int | None, results: list[SeatResult]
) -> dict[int, float]:
    """Move the ratings of one board (a game's or all games', all-time or a season's); returns each
    rated player's rating (mu - 3 sigma) after the game."""
    table, where, key = _scope(season)
    # Stand-ins for timed-out humans keep their human's user id: those results are the human's.
    rated = [r for r in results if r.human and r.counted]
    computers = [r for r in results if not r.human and r.counted]  # opponents, never rated themselves
    current: dict[int, tuple[float, float]] = {}
    for result in rated:
        row = await connection.fetch_one(
            f"SELECT mu, sigma FROM {table} WHERE guild_id = ? AND game_id = ? AND user_id = ?{where}",
            (guild_id, game_id, result.user_id, *key),
        )
        current[result.user_id] = (row["mu"], row["sigma"]) if row else (_MODEL.mu, _MODEL.sigma)
    for result in computers:
        current[result.user_id] = COMPUTER_RATING.get(result.level or "normal", COMPUTER_RATING["normal"])
    playing = rated + computers
    updated = dict(current)
    if len(playing) >= 2:  # a rating moves only against an opponent
        teams = [[_MODEL.rating(mu=current[r.user_id][0], sigma=current[r.user_id][1])] for r in playing]
        moved = _MODEL.rate(teams, ranks=[r.rank for r in playing])
        for result, (player,) in zip(playing, moved, strict=True):
            updated[result.user_id] = (player.mu, player.sigma)
    with_computers = int(bool(computers))
    columns = "guild_id, " + ("season, " if season is not None else "") + "game_id, user_id"
    await connection.execute_many(
        f"INSERT INTO {table} ({columns}, mu, sigma, games, wins, points, computer_games)"
        f" VALUES ({', '.join('?' * (3 + len(key)))}, ?, ?, 1, ?, ?, ?)"
        f" ON CONFLICT ({columns}) DO UPDATE SET mu = excluded.mu,"
        f" sigma = excluded.sigma, games = {table}.games + 1, wins = {table}.wins + excluded.wins,"
        f" points = {table}.points + excluded.points,"
        f" computer_games = {table}.computer_games + excluded.computer_games",
        [
            (
                guild_id,
                *key,
                game_id,
                r.user_id,
                *updated[r.user_id],
                int(r.rank == 1),
                r.score,
                with_computers,
            )
            for r in rated
        ],
    )
    return {r.user_id: updated[r.user_id][0] - 3 * updated[r.user_id][1] for r in rated}


async def known_names(database: Database, guild_id: int, user_ids: list[int]) -> dict[int, str]:
    """The name each player had at their latest finished game on this server (pictures draw names,
    and the bot has no member list to ask)."""
    if not user_ids:
        return {}
    rows = await database.fetch_all(
        "SELECT r.user_id, r.seat, g.seats FROM results r JOIN game_tables g ON g.id = r.table_id"
        f" WHERE r.guild_id = ? AND r.user_id IN ({', '.join('?' * len(user_ids))})"
        " AND r.finished_at = (SELECT MAX(x.finished_at) FROM results x"
        " WHERE x.guild_id = r.guild_id AND x.user_id = r.user_id)"
        " ORDER BY r.table_id DESC",
        (guild_id, *user_ids),
    )
    found: dict[int, str] = {}
    for row in rows:
        if row["user_id"] in found:
            continue
        seats = json.loads(row["seats"])
        if row["seat"] < len(seats):
            found[row["user_id"]] = str(seats[row["seat"]].get("name", ""))
    return found
