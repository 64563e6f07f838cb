-- /roll: every roll made on a server (the roll log behind /rolls stats and the Roll again button).
CREATE TABLE dice_rolls (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER,                     -- NULL for a roll in a direct message
    channel_id  INTEGER,
    user_id     INTEGER NOT NULL,
    request     TEXT    NOT NULL,            -- what was typed: an expression or a saved roll's name
    expression  TEXT    NOT NULL,            -- what was rolled (a saved roll's expression at the time)
    label       TEXT,                        -- the label option, when given
    private     INTEGER NOT NULL DEFAULT 0,  -- answered ephemerally: never shown to anyone else
    totals      TEXT    NOT NULL,            -- JSON list: one total per set
    rolled_at   REAL    NOT NULL
);
CREATE INDEX dice_rolls_by_guild ON dice_rolls (guild_id, rolled_at);

-- The faces the generator produced for a roll, summed per die size: enough for averages per size.
CREATE TABLE dice_roll_faces (
    roll_id     INTEGER NOT NULL REFERENCES dice_rolls (id) ON DELETE CASCADE,
    sides       INTEGER NOT NULL,            -- 0 for Fate dice (faces -1, 0, +1)
    dice        INTEGER NOT NULL,            -- faces produced, rerolled and exploded ones included
    face_sum    INTEGER NOT NULL,
    PRIMARY KEY (roll_id, sides)
);

-- Named rolls: a player's own (scope 'user', owner = user id) or a server's (scope 'server', owner = guild id).
CREATE TABLE saved_rolls (
    scope       TEXT    NOT NULL CHECK (scope IN ('user', 'server')),
    owner_id    INTEGER NOT NULL,
    name        TEXT    NOT NULL,            -- lower case
    expression  TEXT    NOT NULL,
    saved_at    REAL    NOT NULL,
    PRIMARY KEY (scope, owner_id, name)
);
