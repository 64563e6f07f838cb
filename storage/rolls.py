"""/roll's storage: the per-server roll log (and its statistics) and saved rolls."""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from storage.database import Database, Executor

Scope = Literal["user", "server"]
SaveOutcome = Literal["created", "updated", "full"]
SAVED_LIMIT = 25  # per player and per server: what one autocomplete list can show


@dataclass(frozen=True)
class LoggedRoll:
    id: int
    guild_id: int | None
    channel_id: int | None
    user_id: int
    request: str
    expression: str
    label: str | None
    private: bool
    totals: list[int]


@dataclass(frozen=True)
class DieStats:
    """Every face one die size produced on a server."""

    sides: int  # 0 = Fate dice
    dice: int
    rolls: int
    face_sum: int

    @property
    def average(self) -> float:
        return self.face_sum / self.dice if self.dice else 0.0


@dataclass(frozen=True)
class SavedRoll:
    scope: Scope
    name: str
    expression: str


class RollStore:
    def __init__(self, database: Database) -> None:
        self.database = database

    # ------------------------------------------------------------ the roll log

    async def log(
        self,
        *,
        guild_id: int | None,
        channel_id: int | None,
        user_id: int,
        request: str,
        expression: str,
        label: str | None,
        private: bool,
        totals: Sequence[int],
        tally: Mapping[int, tuple[int, int]],
        now: float | None = None,
    ) -> int:
        """Record one roll with its faces per die size; returns its id (the Roll again button's)."""

        async def insert(executor: Executor) -> int:
            inserted = await executor.fetch_one(
                "INSERT INTO dice_rolls (guild_id, channel_id, user_id, request, expression, label, private,"
                " totals, rolled_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (
                    guild_id,
                    channel_id,
                    user_id,
                    request,
                    expression,
                    label,
                    int(private),
                    json.dumps(list(totals)),
                    time.time() if now is None else now,
                ),
            )
            assert inserted is not None
            roll_id = int(inserted[0])
            await executor.execute_many(
                "INSERT INTO dice_roll_faces (roll_id, sides, dice, face_sum) VALUES (?, ?, ?, ?)",
                [(roll_id, sides, dice, face_sum) for sides, (dice, face_sum) in sorted(tally.items())],
            )
            return roll_id

        return await self.database.atomic(insert)

    async def get(self, roll_id: int) -> LoggedRoll | None:
        row = await self.database.fetch_one(
            "SELECT id, guild_id, channel_id, user_id, request, expression, label, private, totals"
            " FROM dice_rolls WHERE id = ?",
            (roll_id,),
        )
        if row is None:
            return None
        values = dict(row)
        values["private"] = bool(values["private"])
        values["totals"] = json.loads(values["totals"])
        return LoggedRoll(**values)

    async def stats(self, guild_id: int) -> list[DieStats]:
        """Faces produced on this server per die size, smallest die first (Fate dice first of all)."""
        rows = await self.database.fetch_all(
            "SELECT f.sides, SUM(f.dice) AS dice, COUNT(*) AS rolls, SUM(f.face_sum) AS face_sum"
            " FROM dice_roll_faces AS f JOIN dice_rolls AS r ON r.id = f.roll_id"
            " WHERE r.guild_id = ? GROUP BY f.sides ORDER BY f.sides",
            (guild_id,),
        )
        return [DieStats(**dict(row)) for row in rows]

    # ------------------------------------------------------------ saved rolls

    async def save(
        self, scope: Scope, owner_id: int, name: str, expression: str, *, limit: int = SAVED_LIMIT
    ) -> SaveOutcome:
        """Save or overwrite a named roll; refuses a new name when the owner already has `limit`."""
        async with self.database.transaction() as executor:
            rows = await executor.fetch_all(
                "SELECT name FROM saved_rolls WHERE scope = ? AND owner_id = ?", (scope, owner_id)
            )
            names = {row["name"] for row in rows}
            if name not in names and len(names) >= limit:
                return "full"
            await executor.execute(
                "INSERT INTO saved_rolls (scope, owner_id, name, expression, saved_at) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (scope, owner_id, name) DO UPDATE SET expression = excluded.expression,"
                " saved_at = excluded.saved_at",
                (scope, owner_id, name, expression, time.time()),
            )
        return "updated" if name in names else "created"

    async def saved(self, scope: Scope, owner_id: int) -> list[SavedRoll]:
        rows = await self.database.fetch_all(
            "SELECT name, expression FROM saved_rolls WHERE scope = ? AND owner_id = ? ORDER BY name",
            (scope, owner_id),
        )
        return [SavedRoll(scope, row["name"], row["expression"]) for row in rows]

    async def usable(self, user_id: int, guild_id: int | None) -> list[SavedRoll]:
        """The rolls a player can call by name here: their own, then the server's (their own name wins)."""
        found = await self.saved("user", user_id)
        if guild_id is not None:
            own = {saved.name for saved in found}
            found += [saved for saved in await self.saved("server", guild_id) if saved.name not in own]
        return found

    async def find(self, name: str, user_id: int, guild_id: int | None) -> SavedRoll | None:
        wanted = name.strip().lower()
        return next((saved for saved in await self.usable(user_id, guild_id) if saved.name == wanted), None)

    async def delete(self, scope: Scope, owner_id: int, name: str) -> bool:
        deleted = await self.database.execute(
            "DELETE FROM saved_rolls WHERE scope = ? AND owner_id = ? AND name = ?",
            (scope, owner_id, name.strip().lower()),
        )
        return deleted > 0
