-- Seasons (issue 30). A server's season 1, 2, ... starts when its admins start one (/settings season,
-- now or on a schedule); before its first season a server is in season 0, which holds every result
-- recorded before this migration. `ratings` stays the all-time rating; `season_ratings` starts fresh
-- each season. At most one season of a server is open (ended_at NULL): the latest.
CREATE TABLE seasons (
    guild_id    INTEGER NOT NULL,
    number      INTEGER NOT NULL,
    started_at  REAL    NOT NULL,
    ended_at    REAL,
    PRIMARY KEY (guild_id, number)
);

CREATE TABLE season_ratings (
    guild_id   INTEGER NOT NULL,
    season     INTEGER NOT NULL,
    game_id    TEXT    NOT NULL,
    user_id    INTEGER NOT NULL,
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL,
    games      INTEGER NOT NULL DEFAULT 0,
    wins       INTEGER NOT NULL DEFAULT 0,
    points     INTEGER NOT NULL DEFAULT 0,
    computer_games INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, season, game_id, user_id)
);
INSERT INTO season_ratings (guild_id, season, game_id, user_id, mu, sigma, games, wins, points, computer_games)
    SELECT guild_id, 0, game_id, user_id, mu, sigma, games, wins, points, computer_games FROM ratings;

-- Which season a finished game belongs to, and each rated player's rating (mu - 3 sigma) right after
-- it: in the game and over all games, all-time and in the season (NULL: not rated, or recorded before
-- this migration). The /stats and /leaderboard pictures draw their trends from them.
ALTER TABLE results ADD COLUMN season INTEGER NOT NULL DEFAULT 0;
ALTER TABLE results ADD COLUMN rating REAL;
ALTER TABLE results ADD COLUMN overall_rating REAL;
ALTER TABLE results ADD COLUMN season_rating REAL;
ALTER TABLE results ADD COLUMN season_overall_rating REAL;
CREATE INDEX results_by_guild_season ON results (guild_id, season, game_id);
