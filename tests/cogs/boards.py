"""What the tests of the games' public boards share: the limits, the languages, the table a board is
drawn for.

The limits and the "you" they look for are the end-to-end transcripts' own (tests/e2e/transcript.py),
so a board held short here is held to the same bar as a board seen in a whole simulated game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Protocol

from typing_extensions import TypeVar

from cogs.kit.words.catalogs import languages
from cogs.tables.context import PV, A, TableContext, V
from rules.engine import Game
from storage.tables import Seat, TableRecord
from tests.e2e.transcript import BOARD_MAX_CHARS, BOARD_MAX_LINES, SECOND_PERSON

__all__ = [
    "FIRST_USER",
    "LANGUAGES",
    "LONGEST",
    "MAX_CHARS",
    "MAX_LINES",
    "NAMES",
    "SECOND_PERSON",
    "TABLE_ROWS",
    "every_state",
    "table",
]

LANGUAGES = sorted(languages().values())  # every language of the catalog
MAX_LINES = BOARD_MAX_LINES
MAX_CHARS = BOARD_MAX_CHARS
TABLE_ROWS = 1  # the machinery's own row under the game's buttons ("How to play", "My hand", ...)
LONGEST = "Ｗ" * 32  # Discord's longest display name, in wide letters
NAMES = ["alice", "bob", "carol", "dave", "erin", "frank"]  # a table's players, seat by seat
FIRST_USER = 10**17  # seat N is the Discord user FIRST_USER + N, mentioned as <@FIRST_USER + N>


class Seated(Protocol):
    """Every game's state: it knows how many sit at the table."""

    @property
    def players(self) -> int: ...


S = TypeVar("S", bound=Seated)


def table(
    game: Game[S, A, V, PV],
    state: S,
    language: str,
    names: Sequence[str] | None = None,
    *,
    replaying: bool = False,
) -> TableContext[S, A, V, PV]:
    """The table a board is drawn for: a human in each seat of the state, named in turn from `names`,
    the table worded in `language`."""
    seats = [Seat(FIRST_USER + seat, name) for seat, name in enumerate((names or NAMES)[: state.players])]
    record = TableRecord(
        guild_id=1,
        channel_id=2,
        game_id=game.id,
        host_id=seats[0].user_id,
        status="over" if game.is_over(state) else "playing",
        seats=seats,
        extra={"locale": language},
    )
    return TableContext(record, game, state, replaying=replaying)


def every_state(game: Game[S, A, V, PV], players: int, seed: int, move: Callable[[S, int], A]) -> Iterator[S]:
    """Every state of one game, from the deal to the end: the lowest seat to move plays `move`'s
    choice each time (the same state object, changed in place)."""
    state = game.new(players, seed)
    yield state
    while not game.is_over(state):
        seat = min(game.to_move(state))
        game.apply(state, seat, move(state, seat))
        yield state
