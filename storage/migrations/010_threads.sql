-- Tables in threads (issue 25): a table opened in a text channel is played in a thread of its own,
-- keyed by the thread (channel_id, as every table is keyed by the channel it is played in); parent_id
-- is the text channel the thread belongs to, which shows one line per table. NULL for a table played
-- in the channel itself (every table before this migration), so every existing table stays as it is.
ALTER TABLE game_tables ADD COLUMN parent_id INTEGER;
CREATE INDEX open_tables_by_parent ON game_tables (parent_id) WHERE parent_id IS NOT NULL AND status IN ('lobby', 'playing');
