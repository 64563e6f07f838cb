"""One table as the machinery and the game cogs see it: the stored record and the live state.

A `TableContext` is typed by its game, `TableContext[State, Action, View, PrivateView]` (the last
defaults to View; the game's cog names the same types), so that a renderer reads `ctx.public()` as
its engine's own view TypedDict, with no cast.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Generic

import discord
from typing_extensions import TypeVar

from cogs.kit.words import bidi
from cogs.kit.words.text import t
from rules.engine import Game, ViewHeader
from storage.settings import PICTURES_KEY
from storage.tables import TableRecord

# A game's types, named as in `rules.engine.Game`: state, action, the table's view, a seat's view.
# No defaults (but PV = V), so a bare `TableContext` or `GameCog` in the game-agnostic machinery
# takes any game's.
S = TypeVar("S")
A = TypeVar("A")
V = TypeVar("V", bound=ViewHeader)
PV = TypeVar("PV", bound=ViewHeader, default=V)


def escape_name(name: str) -> str:
    """A name as text that shows it literally: no markdown of it formats and no @everyone of it pings."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(name))


def shown_name(name: str) -> str:
    """A player's name as a sentence carries it: escaped (`escape_name`) and isolated (`bidi.name`)."""
    return bidi.name(escape_name(name))


"""A server's choice (/settings pictures) of pictures for the boards where they read better than text,
fixed in a table's record (`extra`) when it opens, like its language."""


def now() -> float:
    """Wall-clock seconds; discord.utils.utcnow follows simcord's virtual clock in tests."""
    return discord.utils.utcnow().timestamp()


@dataclass
class TableContext(Generic[S, A, V, PV]):
    """A table as a game cog sees it while rendering: record, live state, and names.

    Never mutated: every applied action makes a new context.
    """

    record: TableRecord
    game: Game[S, A, V, PV]
    state: S | None  # None in the lobby (`live` when it cannot be)
    _views: dict[int | None, Any] = field(default_factory=dict, repr=False, compare=False)
    """Views drawn so far, by seat (None: the public one): a state never changes, so each is drawn once
    per state; shared by the table's contexts of that state (`speaking`, `OpenTables.context_of`)."""
    _speaks: str | None = field(default=None, repr=False, compare=False)  # see `speaking`
    replaying: bool = False
    """Drawn for a replay (/replay, /history): only what the table showed, no live instructions."""

    @property
    def live(self) -> S:
        """The state of a started game: what every board but the lobby's is drawn from."""
        assert self.state is not None, "a table in the lobby has no game state"
        return self.state

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
        return self._speaks or self.record.extra.get("locale")

    @property
    def pictures(self) -> bool:
        """Whether the table draws pictures where its game offers them (its server's choice when it
        opened; text by default)."""
        return bool(self.record.extra.get(PICTURES_KEY, False))

    def speaking(self, locale: str | None) -> TableContext[S, A, V, PV]:
        """The same table worded in another language, for one private render (a seat's DM or panel);
        the views drawn so far are shared, as they do not depend on the language."""
        if not locale or locale == self.locale:
            return self
        return replace(self, _speaks=locale)

    def name(self, seat: int) -> str:
        """The seat's name as a sentence shows it: markdown and mentions escaped, isolated where its
        script could disturb the sentence (`bidi.name`), and marked when a computer plays it:
        "🤖 bob" stands in for bob, and a computer player added at the table is "🤖 Temaki" (its
        stored name carries the 🤖, for /history too)."""
        return shown_name(self.plain_name(seat))

    def plain_name(self, seat: int) -> str:
        """The seat's name as stored, for a picture to draw (`name` is for text)."""
        seat_record = self.record.seats[seat]
        if seat_record.computer and seat_record.human:
            return f"🤖 {seat_record.name}"
        return seat_record.name

    def listed(self, seat: int) -> str:
        """The seat as the lobby and the results list it: a mention, and a computer player's level,
        "🤖 Temaki (hard)" (boards during the game name it plainly, `name`)."""
        seat_record = self.record.seats[seat]
        if seat_record.human:
            return self.mention(seat)
        level = self.t(f"computers.level.{seat_record.level or 'normal'}")
        return self.t("computers.seat", name=shown_name(seat_record.name), level=level)

    def ping(self, seat: int) -> str:
        """The seat's player as a mention, also while a computer plays for them (they are told)."""
        return bidi.mention(self.record.seats[seat].user_id)

    def mention(self, seat: int) -> str:
        seat_record = self.record.seats[seat]
        if seat_record.computer or not seat_record.human:
            return self.name(seat)
        return bidi.mention(seat_record.user_id)

    def public(self) -> V:
        """What the whole table may see; drawn once per state (stamps ask for it per button)."""
        if None not in self._views:
            self._views[None] = self.game.view(self.live, None)
        return self._views[None]

    def private(self, seat: int) -> PV:
        """What the seat may see; drawn once per state. Renderers read views, never change them."""
        if seat not in self._views:
            self._views[seat] = self.game.view(self.live, seat)
        return self._views[seat]

    def t(self, key: str, /, **params: Any) -> str:
        return t(key, self.locale, **params)
