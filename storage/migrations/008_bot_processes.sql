-- Bot processes (issue 18): each process sharing the database says every few seconds that it is alive
-- and which shards it runs, so the others know when a shard has nobody (a process died) and show that
-- shard's tables themselves until it is back. Times are epoch seconds passed in by the bot.
CREATE TABLE bot_processes (
    owner       TEXT    NOT NULL PRIMARY KEY,
    shard_count INTEGER NOT NULL,
    shard_ids   TEXT    NOT NULL,
    seen_at     REAL    NOT NULL
);
