-- PostgreSQL twin of ../011_seasons.sql.
CREATE TABLE seasons (
    guild_id    BIGINT NOT NULL,
    number      INTEGER NOT NULL,
    started_at  DOUBLE PRECISION NOT NULL,
    ended_at    DOUBLE PRECISION,
    PRIMARY KEY (guild_id, number)
);

CREATE TABLE season_ratings (
    guild_id   BIGINT NOT NULL,
    season     INTEGER NOT NULL,
    game_id    TEXT    NOT NULL,
    user_id    BIGINT NOT NULL,
    mu         DOUBLE PRECISION NOT NULL,
    sigma      DOUBLE PRECISION NOT NULL,
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
ALTER TABLE results ADD COLUMN rating DOUBLE PRECISION;
ALTER TABLE results ADD COLUMN overall_rating DOUBLE PRECISION;
ALTER TABLE results ADD COLUMN season_rating DOUBLE PRECISION;
ALTER TABLE results ADD COLUMN season_overall_rating DOUBLE PRECISION;
CREATE INDEX results_by_guild_season ON results (guild_id, season, game_id);
