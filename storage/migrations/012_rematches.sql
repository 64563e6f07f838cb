-- One rematch per finished table (issue 47): two players pressing Rematch at once, in one process or in
-- two sharing the database, opened two tables. The first press claims the finished table's row with a
-- conditional UPDATE (rematch_id 0: being opened since rematch_claimed, epoch seconds of the bot's
-- clock), then records the new table's id; every later press is told where that rematch is. NULL: no
-- rematch yet (every table before this migration).
ALTER TABLE game_tables ADD COLUMN rematch_id INTEGER;
ALTER TABLE game_tables ADD COLUMN rematch_claimed REAL;
