"""The storage suite runs against both backends: each test gets a fresh, migrated database."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage.backend import connect
from storage.database import Database
from tests.conftest import new_postgres_database


@pytest.fixture(params=["sqlite", "postgres"])
async def database(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Database]:
    if request.param == "postgres":
        # The session's server, asked for only here: SQLite tests never start it.
        target = await new_postgres_database(request.getfixturevalue("postgres_server"))
    else:
        target = str(tmp_path / "test.db")
    database = await connect(target)
    yield database
    await database.close()
