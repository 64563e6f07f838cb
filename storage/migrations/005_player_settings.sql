-- Each player's own choices (how to be told it is their turn), the same in every server.
CREATE TABLE player_settings (
    user_id    INTEGER NOT NULL,
    key        TEXT    NOT NULL,
    value      TEXT    NOT NULL,             -- JSON
    PRIMARY KEY (user_id, key)
);
