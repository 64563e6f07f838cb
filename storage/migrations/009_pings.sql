-- Turn pings (issue 24) are remembered with the table, so a restart or another process replaces the
-- live ping instead of adding a second, and nobody is pinged twice for one turn. Two row kinds in
-- table_messages: 'ping:<message>' is a live ping message (the newest one stays, older ones are
-- deleted), 'pinged:<seat>' says that seat was pinged at table `version` and not since it last moved.
ALTER TABLE table_messages ADD COLUMN version INTEGER;
