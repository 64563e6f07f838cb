"""Consistent copies of an SQLite database, made with SQLite's online backup API.

Two callers: `python bot.py backup PATH`, from another process while the bot runs, and the bot
itself, which keeps a copy of the file before a migration changes it (`storage.sqlite`). Copying
the file with `cp` is not a backup: in WAL mode the newest moves live in the -wal file until a
checkpoint, and a copy taken mid-write can be torn. `sqlite3.Connection.backup` copies every page
in one step inside one read transaction, so the copy is the database as of one instant — every
transaction committed before that instant, none after — while the bot goes on writing (WAL lets a
writer and a reader run side by side).

A copy is written to a hidden file beside its target and renamed over it only once complete (and,
for `backup`, once it passed `PRAGMA integrity_check`), so a failed or interrupted copy never leaves
a half file under the name an operator will restore from.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

# The files SQLite keeps beside a database while it is open.
_COMPANIONS = ("-wal", "-shm", "-journal")


class BackupRefused(ValueError):
    """Nothing can be copied as asked: one line saying what to change (bot.py exits 2)."""


class BackupFailed(RuntimeError):
    """The copy was made but did not pass its check; it was not kept (bot.py exits 1)."""


@dataclass(frozen=True)
class Backup:
    """What `backup` wrote."""

    target: Path
    schema_version: int
    size: int  # bytes
    seconds: float


def before_migration_path(database: str | Path, version: int) -> Path:
    """Where the bot keeps a database's copy before migrating it from schema `version`:
    `sushibar.db.before-v12` beside `sushibar.db`."""
    return Path(f"{database}.before-v{version}")


def copy_database(source: sqlite3.Connection, target: Path) -> int:
    """Copy the database open on `source` to `target` (replaced if it exists) as one self-contained
    file; returns its size. Raises `sqlite3.Error` or `OSError`, leaving no file behind."""
    partial = _partial_beside(target)
    try:
        _copy_into(source, partial)
        os.replace(partial, target)
    except BaseException:
        with contextlib.suppress(OSError):
            partial.unlink()
        raise
    return target.stat().st_size


def backup(source: Path, target: Path, *, force: bool = False) -> Backup:
    """`python bot.py backup`: a consistent copy of the live database at `source`, checked to open
    and pass `PRAGMA integrity_check`. Raises `BackupRefused` for input to change (nothing
    written), `BackupFailed` for a copy that is not sound (not kept)."""
    refused = backup_problem(source, target, force=force)
    if refused is not None:
        raise BackupRefused(refused)
    started = time.monotonic()
    try:
        # Never created (a mistyped DATABASE_PATH must not leave an empty database behind), and not
        # read-only: a read-only connection leaves -wal and -shm files behind, owned by whoever ran
        # this, where the bot may not write them. Nothing here writes to it.
        connection = sqlite3.connect(f"file:{quote(str(source))}?mode=rw", uri=True, timeout=30)
    except sqlite3.Error as error:
        raise BackupRefused(f"the database {source} cannot be opened ({error})") from error
    try:
        connection.execute("PRAGMA busy_timeout = 30000")
        version = int(connection.execute("PRAGMA user_version").fetchone()[0])
        partial = _partial_beside(target)
        try:
            _copy_into(connection, partial)
            problem = _integrity_problem(partial)
            if problem is not None:
                raise BackupFailed(
                    f"the copy of {source} fails PRAGMA integrity_check ({problem}), so it was not kept: "
                    "the database itself may be damaged"
                )
            os.replace(partial, target)
        except (sqlite3.Error, OSError) as error:  # a full disk, the folder gone meanwhile
            raise BackupFailed(f"copying {source} to {target} failed ({error}); nothing was kept") from error
        finally:
            with contextlib.suppress(OSError):
                partial.unlink()
    finally:
        connection.close()
    return Backup(target, version, target.stat().st_size, time.monotonic() - started)


def backup_problem(source: Path, target: Path, *, force: bool) -> str | None:
    """Why `backup` cannot write `target` from `source`, in one line; None when it can."""
    if not source.is_file():
        return f"there is no database at {source} (DATABASE_PATH) to back up"
    if target.is_dir():
        return f"{target} is a folder; name a file in it, e.g. {target / 'sushibar-backup.db'}"
    folder = target.parent
    if not folder.is_dir():
        return f"the folder {folder} does not exist; create it or name a file in another folder"
    live = _resolved(source)
    if _resolved(target) in {live, *(Path(f"{live}{suffix}") for suffix in _COMPANIONS)}:
        return f"{target} is the live database itself (DATABASE_PATH); name another file"
    if target.exists() and not force:
        return f"{target} already exists; name a new file, or add --force to replace it"
    # Permissions tell only part of it (root writes anywhere, a read-only mount refuses all): try.
    try:
        fd, probe = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.", suffix=".probe")
    except OSError as error:
        return f"the folder {folder} cannot be written ({error.strerror}); choose a writable folder"
    os.close(fd)
    os.unlink(probe)
    return None


def _resolved(path: Path) -> Path:
    return path.expanduser().resolve()


def _partial_beside(target: Path) -> Path:
    """A new, hidden file in `target`'s folder (so the final rename stays on one disk)."""
    fd, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".partial")
    os.close(fd)
    return Path(name)


def _copy_into(source: sqlite3.Connection, path: Path) -> None:
    """Every page of `source`, in one step (one read transaction: one instant), into the empty file
    at `path`, which becomes a database with its own rollback journal: one file, no -wal to forget."""
    destination = sqlite3.connect(path)
    try:
        source.backup(destination)  # pages=-1: all at once, never restarted by the bot's writes
        destination.execute("PRAGMA journal_mode = DELETE").fetchall()
    finally:
        destination.close()


def _integrity_problem(path: Path) -> str | None:
    """The first line of `PRAGMA integrity_check` on the copy at `path` unless it says ok."""
    connection = sqlite3.connect(f"file:{quote(str(path))}?mode=ro", uri=True)
    try:
        rows = [str(row[0]) for row in connection.execute("PRAGMA integrity_check").fetchall()]
    finally:
        connection.close()
    return None if rows == ["ok"] else rows[0]


def run(database_path: str, database_url: str, target: Path, *, force: bool) -> int:
    """`python bot.py backup PATH [--force]`: one line on what was written (status 0), or on why not
    (status 2 for input to change, 1 for a copy that failed its check)."""
    if database_url:
        print(
            "Sushi Bar cannot back up: DATABASE_URL names a PostgreSQL database, which this command does "
            'not copy; use pg_dump (docs/OPERATIONS.md, "Backups").',
            file=sys.stderr,
        )
        return 2
    try:
        made = backup(Path(database_path), target, force=force)
    except BackupRefused as refused:
        print(f"Sushi Bar cannot back up: {refused}.", file=sys.stderr)
        return 2
    except BackupFailed as failed:
        print(f"Sushi Bar backup failed: {failed}.", file=sys.stderr)
        return 1
    print(
        f"Backed up {database_path} (schema version {made.schema_version}) to {made.target}: "
        f"{made.size / 1_000_000:.1f} MB in {made.seconds:.1f} s, PRAGMA integrity_check ok."
    )
    return 0
