-- No earlier release ran on PostgreSQL: nothing to move out of game_tables.extra (see ../002).
CREATE TABLE table_messages (
    table_id   BIGINT  NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
    slot       TEXT    NOT NULL,
    message_id BIGINT,
    PRIMARY KEY (table_id, slot)
);
