"""One table as the machinery and the game cogs see it: the stored record and the live state."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import discord

from cogs.i18n import t
from rules.engine import Game, ViewHeader
from storage.tables import TableRecord


def now() -> float:
    """Wall-clock seconds; discord.utils.utcnow follows simcord's virtual clock in tests."""
    return discord.utils.utcnow().timestamp()


@dataclass
class TableContext:
    """A table as a game cog sees it while rendering: record, live state, and names.

    Never mutated: every applied action makes a new context.
    """

    record: TableRecord
    game: Game[Any, Any]
    state: Any | None  # None in the lobby
    _public: ViewHeader | None = field(default=None, repr=False, compare=False)

    @property
    def channel_id(self) -> int:
        return self.record.channel_id

    @property
    def version(self) -> int:
        return self.record.version

    @property
    def players(self) -> int:
        return len(self.record.seats)

    @property
    def locale(self) -> str | None:
        return self.record.extra.get("locale")

    def name(self, seat: int) -> str:
        """The seat's display name, marked when a computer plays it."""
        seat_record = self.record.seats[seat]
        return f"🤖 {seat_record.name}" if seat_record.computer else seat_record.name

    def ping(self, seat: int) -> str:
        """The seat's player as a mention, also while a computer plays for them (they are told)."""
        return f"<@{self.record.seats[seat].user_id}>"

    def mention(self, seat: int) -> str:
        seat_record = self.record.seats[seat]
        return self.name(seat) if seat_record.computer else f"<@{seat_record.user_id}>"

    def public(self) -> ViewHeader:
        """What the whole table may see; drawn once per context (stamps ask for it per button)."""
        if self._public is None:
            self._public = self.game.view(self.state, None)
        return self._public

    def private(self, seat: int) -> ViewHeader:
        return self.game.view(self.state, seat)

    def t(self, key: str, /, **params: Any) -> str:
        return t(key, self.locale, **params)
