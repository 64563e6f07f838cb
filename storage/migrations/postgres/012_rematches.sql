-- PostgreSQL twin of ../012_rematches.sql.
ALTER TABLE game_tables ADD COLUMN rematch_id BIGINT;
ALTER TABLE game_tables ADD COLUMN rematch_claimed DOUBLE PRECISION;
