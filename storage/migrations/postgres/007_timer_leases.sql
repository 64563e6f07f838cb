-- PostgreSQL twin of ../007_timer_leases.sql.
ALTER TABLE game_tables ADD COLUMN lease_owner TEXT;
ALTER TABLE game_tables ADD COLUMN lease_until DOUBLE PRECISION;
