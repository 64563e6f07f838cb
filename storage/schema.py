"""Migrations: a backend's numbered SQL files, read in order and split into statements.

Each backend keeps its own package of files (the same numbers and schema in each dialect) and
applies them its own way; reading and splitting them is the same for all.
"""

from __future__ import annotations

import re
from importlib import resources

_MIGRATION_NAME = re.compile(r"^(\d+)_[a-z0-9_]+\.sql$")


def migrations(package: str) -> list[tuple[int, str, str]]:
    """(number, file name, SQL) of every migration in `package`, in order; numbers run 1, 2, 3, ..."""
    found = []
    for entry in resources.files(package).iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match:
            found.append((int(match.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    found.sort()
    numbers = [number for number, _, _ in found]
    if numbers != list(range(1, len(found) + 1)):
        raise RuntimeError(f"migrations must be numbered 1..n without gaps, found {numbers}")
    return found


def statements(sql: str) -> list[str]:
    """A migration's statements, comments dropped, to run one by one inside the caller's own
    transaction (our migrations hold no semicolons inside strings)."""
    without_comments = "\n".join(line.split("--", 1)[0] for line in sql.splitlines())
    return [part.strip() for part in without_comments.split(";") if part.strip()]
