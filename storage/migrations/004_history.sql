-- /history lists a server's finished games newest first: one row per finished game (seat 0 of its
-- results), in the order the list reads, so a page is read straight off the index.
CREATE INDEX finished_games_by_guild ON results (guild_id, finished_at, table_id) WHERE seat = 0;
