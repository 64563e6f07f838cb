"""Finished-game results and OpenSkill ratings, always queried for one server.

Computer players (negative user ids) keep their results rows, so /history and /replay can name them,
but never have a rating: they are on no leaderboard. A game with computer players counts for its humans
only where the server says so (`SeatResult.counted`); then a computer is rated as an opponent at a
fixed strength of its level, and the humans' lines count such games apart (`computer_games`).
"""

from __future__ import annotations

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


class Leaderboard:
    def __init__(self, database: Database) -> None:
        self.database = database

    async def top(self, guild_id: int, game_id: str = ALL_GAMES, limit: int = 10) -> list[Standing]:
        rows = await self.database.fetch_all(
            "SELECT user_id, mu, sigma, games, wins, points, computer_games FROM ratings"
            " WHERE guild_id = ? AND game_id = ?"
            " ORDER BY mu - 3 * sigma DESC, wins DESC, user_id LIMIT ?",
            (guild_id, game_id, limit),
        )
        return [Standing(position=index + 1, **dict(row)) for index, row in enumerate(rows)]

    async def standing(self, guild_id: int, user_id: int, game_id: str = ALL_GAMES) -> Standing | None:
        """One player's line, with their position on this server's board."""
        row = await self.database.fetch_one(
            "SELECT user_id, mu, sigma, games, wins, points, computer_games FROM ratings"
            " WHERE guild_id = ? AND game_id = ? AND user_id = ?",
            (guild_id, game_id, user_id),
        )
        if row is None:
            return None
        # The player's own rating is compared as stored (not recomputed in Python), so a player is
        # never ranked above or below themselves by a rounding difference between the two.
        above = await self.database.fetch_one(
            "SELECT COUNT(*) FROM ratings o, ratings p"
            " WHERE p.guild_id = ? AND p.game_id = ? AND p.user_id = ?"
            " AND o.guild_id = p.guild_id AND o.game_id = p.game_id"
            " AND (o.mu - 3 * o.sigma > p.mu - 3 * p.sigma OR (o.mu - 3 * o.sigma = p.mu - 3 * p.sigma"
            " AND (o.wins > p.wins OR (o.wins = p.wins AND o.user_id < p.user_id))))",
            (guild_id, game_id, user_id),
        )
        return Standing(position=(above[0] if above else 0) + 1, **dict(row))

    async def stats(self, guild_id: int, user_id: int) -> dict[str, Standing]:
        """A player's standing in every game they played on this server (and '*' for all)."""
        rows = await self.database.fetch_all(
            "SELECT game_id FROM ratings WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
        )
        games = [row["game_id"] for row in rows]
        found = {}
        for game_id in games:
            standing = await self.standing(guild_id, user_id, game_id)
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
            "SELECT r.game_id, r.score, r.rank, EXISTS (SELECT 1 FROM results o"
            " WHERE o.table_id = r.table_id AND o.user_id < 0) AS with_computers"
            " FROM results r WHERE r.guild_id = ? AND r.user_id = ? AND r.counted = 1"
            " ORDER BY r.finished_at DESC, r.table_id DESC LIMIT ?",
            (guild_id, user_id, limit),
        )
        return [
            RecentGame(row["game_id"], row["score"], row["rank"], bool(row["with_computers"])) for row in rows
        ]


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

    Every seat gets its results row (history names computers too); ratings move only for the humans
    whose game counts, against the humans and (when it counts) the computers they played.
    """
    await connection.execute_many(
        "INSERT INTO results (table_id, guild_id, game_id, seat, user_id, score, rank, finished_at, counted)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (table_id, guild_id, game_id, r.seat, r.user_id, r.score, r.rank, now, int(r.human and r.counted))
            for r in results
        ],
    )
    if not any(r.human and r.counted for r in results):
        return
    for bucket in (game_id, ALL_GAMES):
        await _rate(connection, guild_id, bucket, results)


async def _rate(connection: Executor, guild_id: int, game_id: str, results: list[SeatResult]) -> None:
    # Stand-ins for timed-out humans keep their human's user id: those results are the human's.
    rated = [r for r in results if r.human and r.counted]
    computers = [r for r in results if not r.human and r.counted]  # opponents, never rated themselves
    current: dict[int, tuple[float, float]] = {}
    for result in rated:
        row = await connection.fetch_one(
            "SELECT mu, sigma FROM ratings WHERE guild_id = ? AND game_id = ? AND user_id = ?",
            (guild_id, game_id, result.user_id),
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
    await connection.execute_many(
        "INSERT INTO ratings (guild_id, game_id, user_id, mu, sigma, games, wins, points, computer_games)"
        " VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?)"
        " ON CONFLICT (guild_id, game_id, user_id) DO UPDATE SET mu = excluded.mu,"
        " sigma = excluded.sigma, games = ratings.games + 1, wins = ratings.wins + excluded.wins,"
        " points = ratings.points + excluded.points,"
        " computer_games = ratings.computer_games + excluded.computer_games",
        [
            (guild_id, game_id, r.user_id, *updated[r.user_id], int(r.rank == 1), r.score, with_computers)
            for r in rated
        ],
    )
