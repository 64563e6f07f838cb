-- Computer players (issue 15). A finished game keeps a results row for every seat, computers included
-- (negative user ids: /history and /replay name them), but only rows with counted = 1 make a player's
-- stats; a game with computer players counts for its humans only where the server lets it.
ALTER TABLE results ADD COLUMN counted INTEGER NOT NULL DEFAULT 1;
-- Of a player's `games`, how many were played with computer players at the table.
ALTER TABLE ratings ADD COLUMN computer_games INTEGER NOT NULL DEFAULT 0;
