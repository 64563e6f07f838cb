-- PostgreSQL twin of ../010_threads.sql.
ALTER TABLE game_tables ADD COLUMN parent_id BIGINT;
CREATE INDEX open_tables_by_parent ON game_tables (parent_id) WHERE parent_id IS NOT NULL AND status IN ('lobby', 'playing');
