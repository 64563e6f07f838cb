"""Copy a Sushi Bar SQLite database into an empty PostgreSQL one, and prove the copy.

    python -m storage.copy_to_postgres --from sushibar.db --to postgresql://user:password@host/sushibar

Stop the bot first. The SQLite file is migrated to this release (as the bot would), the target is
migrated and must hold no rows; every table is copied in one PostgreSQL transaction, ids kept.
Then the copy is checked: the same number of rows in every table, and every finished game's action
log, read back from PostgreSQL, replays through its engine to the final state stored with it.
Exit status 0 when all holds, 1 when a check fails, 2 when the copy cannot start.

An operator's tool, never imported by the bot: the one place storage reads rules/ (for the replay).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from storage.database import DatabaseProblem
from storage.postgres import PostgresDatabase, redacted
from storage.sqlite import SqliteDatabase
from storage.tables import TableStore

# Parents before children (foreign keys); every table the migrations make.
TABLES = (
    "game_tables",
    "actions",
    "results",
    "ratings",
    "seasons",
    "season_ratings",
    "guild_settings",
    "table_messages",
    "dice_rolls",
    "dice_roll_faces",
    "saved_rolls",
    "player_settings",
)
IDENTITIES = ("game_tables", "dice_rolls")  # their ids continue after the copied ones
BATCH = 5000


class CopyRefused(Exception):
    """The copy cannot start (the message says why)."""


@dataclass
class Report:
    counts: dict[str, tuple[int, int]] = field(default_factory=dict)  # table -> (SQLite, PostgreSQL)
    replayed: int = 0
    unreplayable: int = 0  # finished before seeds were logged, or of a game this release lacks
    diverged: list[int] = field(default_factory=list)  # table ids whose replay missed the stored state

    @property
    def ok(self) -> bool:
        return not self.diverged and all(source == target for source, target in self.counts.values())

    def lines(self) -> list[str]:
        lines = [
            f"{table}: {source} rows copied, {target} in PostgreSQL"
            for table, (source, target) in self.counts.items()
        ]
        lines.append(
            f"finished games replayed to their stored final state: {self.replayed}"
            f" ({self.unreplayable} without a replayable log)"
        )
        if self.diverged:
            lines.append(f"games whose replay does NOT reach the stored state: {self.diverged}")
        return lines


async def copy(source: SqliteDatabase, target: PostgresDatabase) -> Report:
    """Copy every table of `source` into the empty `target`, then check the copy."""
    for table in TABLES:
        if await target.fetch_one(f"SELECT 1 FROM {table} LIMIT 1"):
            raise CopyRefused(
                f"the target {target.where} is not empty ({table} has rows); copy into an empty database"
            )
    report = Report()
    async with target.transaction() as executor:
        for table in TABLES:
            columns = [row["name"] for row in await source.fetch_all(f"PRAGMA table_info({table})")]
            names = ", ".join(columns)
            insert = f"INSERT INTO {table} ({names}) VALUES ({', '.join('?' * len(columns))})"
            offset = 0
            while rows := await source.fetch_all(
                f"SELECT {names} FROM {table} ORDER BY rowid LIMIT ? OFFSET ?", (BATCH, offset)
            ):
                await executor.execute_many(insert, [tuple(row) for row in rows])  # type: ignore[arg-type]
                offset += len(rows)
        for table in IDENTITIES:
            await executor.fetch_one(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), COALESCE(MAX(id), 1),"
                f" MAX(id) IS NOT NULL) FROM {table}"
            )
    for table in TABLES:
        counted = []
        for database in (source, target):
            row = await database.fetch_one(f"SELECT COUNT(*) FROM {table}")
            counted.append(int(row[0]) if row else 0)
        report.counts[table] = (counted[0], counted[1])
    await _replay_finished(target, report)
    return report


async def _replay_finished(target: PostgresDatabase, report: Report) -> None:
    from rules.registry import GAMES
    from rules.replay import Unreplayable, read_log, replay_to, same_state

    store = TableStore(target)
    for record in await store.every_table():
        if record.status != "finished" or record.id is None:
            continue
        game = GAMES.get(record.game_id)
        if game is None or record.state is None:
            report.unreplayable += 1
            continue
        entries = [(seat, action) for _, seat, action in await store.actions(record.id)]
        try:
            replayed = replay_to(game, len(record.seats), record.options, read_log(game, entries), 0)
        except Unreplayable as why:
            if why.code == "no_seed":
                report.unreplayable += 1
            else:
                report.diverged.append(record.id)
            continue
        if same_state(replayed.final, record.state):
            report.replayed += 1
        else:
            report.diverged.append(record.id)


async def run(path: str, url: str) -> Report:
    if not await asyncio.to_thread(Path(path).is_file):  # opening would make a new, empty one
        raise CopyRefused(f"there is no SQLite database at {path}")
    source = await SqliteDatabase.open(path)
    try:
        target = await PostgresDatabase.open(url)
        try:
            return await copy(source, target)
        finally:
            await target.close()
    finally:
        await source.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m storage.copy_to_postgres",
        description="Copy a Sushi Bar SQLite database into an empty PostgreSQL database and verify it.",
    )
    parser.add_argument("--from", dest="source", required=True, help="the SQLite file (DATABASE_PATH)")
    parser.add_argument(
        "--to", dest="target", required=True, help="postgresql://user:password@host:5432/database"
    )
    args = parser.parse_args(argv)
    try:
        report = asyncio.run(run(args.source, args.target))
    except (DatabaseProblem, CopyRefused) as problem:
        print(f"Nothing was copied: {problem}", file=sys.stderr)
        return 2
    print("\n".join(report.lines()))
    print(f"copied to {redacted(args.target)}: " + ("verified" if report.ok else "CHECK FAILED"))
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
