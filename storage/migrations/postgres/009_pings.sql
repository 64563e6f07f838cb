-- PostgreSQL twin of ../009_pings.sql.
ALTER TABLE table_messages ADD COLUMN version BIGINT;
