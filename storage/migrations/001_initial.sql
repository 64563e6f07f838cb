-- One row per table ever opened; at most one open (lobby or playing) table per channel.
CREATE TABLE game_tables (
    id            INTEGER PRIMARY KEY,
    guild_id      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    game_id       TEXT    NOT NULL,
    host_id       INTEGER NOT NULL,
    status        TEXT    NOT NULL CHECK (status IN ('lobby', 'playing', 'finished', 'cancelled', 'abandoned')),
    version       INTEGER NOT NULL DEFAULT 0,
    seats         TEXT    NOT NULL,          -- JSON: seat -> {user_id, name, computer, timeouts, ...}
    options       TEXT    NOT NULL,          -- JSON: the game's table options
    state         TEXT,                      -- JSON: game.dump(state); NULL in the lobby
    extra         TEXT    NOT NULL,          -- JSON: board message, DM messages, presentation notes
    deadline      REAL,                      -- epoch seconds of the next time-out, NULL when none
    created_at    REAL    NOT NULL,
    updated_at    REAL    NOT NULL
);
CREATE UNIQUE INDEX one_open_table_per_channel
    ON game_tables (channel_id) WHERE status IN ('lobby', 'playing');
CREATE INDEX game_tables_by_deadline ON game_tables (deadline) WHERE deadline IS NOT NULL;

-- Append-only log of every accepted action, in order.
CREATE TABLE actions (
    table_id   INTEGER NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
    version    INTEGER NOT NULL,             -- the table version this action produced
    seat       INTEGER,                      -- NULL for table-level actions (join, start, ...)
    action     TEXT    NOT NULL,             -- JSON
    at         REAL    NOT NULL,
    PRIMARY KEY (table_id, version)
);

-- One row per seat of every finished game.
CREATE TABLE results (
    table_id   INTEGER NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
    guild_id   INTEGER NOT NULL,
    game_id    TEXT    NOT NULL,
    seat       INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    score      INTEGER NOT NULL,
    rank       INTEGER NOT NULL,
    finished_at REAL   NOT NULL,
    PRIMARY KEY (table_id, seat)
);
CREATE INDEX results_by_guild_game ON results (guild_id, game_id);
CREATE INDEX results_by_guild_user ON results (guild_id, user_id);

-- OpenSkill rating per server, game and player; game_id '*' is the all-games rating.
CREATE TABLE ratings (
    guild_id   INTEGER NOT NULL,
    game_id    TEXT    NOT NULL,
    user_id    INTEGER NOT NULL,
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL,
    games      INTEGER NOT NULL DEFAULT 0,
    wins       INTEGER NOT NULL DEFAULT 0,
    points     INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, game_id, user_id)
);

-- Server settings chosen by admins with /settings.
CREATE TABLE guild_settings (
    guild_id   INTEGER NOT NULL,
    key        TEXT    NOT NULL,
    value      TEXT    NOT NULL,             -- JSON
    PRIMARY KEY (guild_id, key)
);
