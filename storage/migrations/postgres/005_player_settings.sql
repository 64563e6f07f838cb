CREATE TABLE player_settings (
    user_id    BIGINT  NOT NULL,
    key        TEXT    NOT NULL,
    value      TEXT    NOT NULL,
    PRIMARY KEY (user_id, key)
);
