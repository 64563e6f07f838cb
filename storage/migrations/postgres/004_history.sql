CREATE INDEX finished_games_by_guild ON results (guild_id, finished_at, table_id) WHERE seat = 0;
