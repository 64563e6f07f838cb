-- Turn-timer leases (issue 18): with several bot processes on one database, exactly one of them runs a
-- table's timer (its time-outs, its computer moves). A process claims the lease until a time it renews
-- before then; a lease whose time has passed belongs to a process that died, and another takes it over.
-- Times are epoch seconds passed in by the bot (its clock, not the database's). NULL owner: nobody.
ALTER TABLE game_tables ADD COLUMN lease_owner TEXT;
ALTER TABLE game_tables ADD COLUMN lease_until REAL;
