-- PostgreSQL twin of ../008_bot_processes.sql.
CREATE TABLE bot_processes (
    owner       TEXT    NOT NULL PRIMARY KEY,
    shard_count INTEGER NOT NULL,
    shard_ids   TEXT    NOT NULL,
    seen_at     DOUBLE PRECISION NOT NULL
);
