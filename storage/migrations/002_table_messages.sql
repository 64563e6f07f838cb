-- Discord bookkeeping of a table (its board message, each seat's private DM) gets rows of its own,
-- written by their own statements: a move that saves the table can never overwrite them.
CREATE TABLE table_messages (
    table_id   INTEGER NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
    slot       TEXT    NOT NULL,             -- 'board', or 'dm:<seat>' for a seat's private message
    message_id INTEGER,                      -- NULL on a 'dm:<seat>' slot: Discord refused the DM
    PRIMARY KEY (table_id, slot)
);

-- Move what earlier releases kept in game_tables.extra.
INSERT INTO table_messages (table_id, slot, message_id)
    SELECT id, 'board', json_extract(extra, '$.board') FROM game_tables
    WHERE json_extract(extra, '$.board') IS NOT NULL;
INSERT INTO table_messages (table_id, slot, message_id)
    SELECT game_tables.id, 'dm:' || dm.key, dm.value FROM game_tables, json_each(game_tables.extra, '$.dm') AS dm;
INSERT OR REPLACE INTO table_messages (table_id, slot, message_id)
    SELECT game_tables.id, 'dm:' || closed.value, NULL
    FROM game_tables, json_each(game_tables.extra, '$.dm_closed') AS closed;
UPDATE game_tables SET extra = json_remove(extra, '$.board', '$.dm', '$.dm_closed');
