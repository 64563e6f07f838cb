"""What join, leave, start and cancel do to a table's record: pure decisions, refused with a reason.

The Tables cog calls these on a copy of the record under the channel lock, then saves the
copy; nothing here talks to Discord or storage.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any, Literal

from cogs.tables.errors import Refusal
from rules.engine import Game
from storage.tables import Seat, TableRecord

LobbyMove = Literal["join", "leave", "start", "cancel"]
LOBBY_MOVES: tuple[LobbyMove, ...] = ("join", "leave", "start", "cancel")


@dataclass(frozen=True)
class Member:
    """Who asks, as far as the lobby cares."""

    user_id: int
    name: str
    manages_channel: bool = False


@dataclass
class Note:
    """What to tell the caller about a change: a catalog key and its parameters ("" = nothing),
    and what the action log keeps of it besides the move itself (the seed a game started from)."""

    key: str = ""
    params: dict[str, Any] = field(default_factory=dict)
    logged: dict[str, Any] = field(default_factory=dict)


def options_for(
    game: Game[Any, Any], server_defaults: dict[str, Any], chosen: dict[str, Any]
) -> dict[str, Any]:
    """A new table's options: the game's defaults, then the server's, then what the host chose."""
    options = {name: values[0] for name, values in game.options.items()}
    options.update({name: value for name, value in server_defaults.items() if name in options})
    options.update(chosen)
    return options


def change(record: TableRecord, game: Game[Any, Any], what: LobbyMove, member: Member, group: str) -> Note:
    """Apply one lobby move to `record` (a copy the caller saves) and say what happened."""
    seat = record.seat_of(member.user_id)
    if what == "join":
        if seat is not None and record.seats[seat].computer:
            # A player a computer stood in for takes their seat back.
            record.seats[seat].computer = False
            record.seats[seat].timeouts = 0
            return Note("table.back", {"name": member.name})
        if record.status != "lobby":
            raise Refusal("table.already_started")
        if seat is not None:
            raise Refusal("table.already_seated")
        if len(record.seats) >= game.max_players:
            raise Refusal("table.full", max=game.max_players)
        record.seats.append(Seat(member.user_id, member.name))
        return Note("table.joined", {"name": member.name})
    if what == "leave":
        if seat is None:
            raise Refusal("table.not_seated")
        if record.status == "lobby":
            del record.seats[seat]
            if not record.seats:
                record.status = "cancelled"
            elif record.host_id == member.user_id:
                record.host_id = record.seats[0].user_id
            return Note("table.left", {"name": member.name})
        record.seats[seat].computer = True
        if deserted(record):  # the last player left on purpose: nobody plays on for a result
            record.status = "abandoned"
            return Note("table.abandoned")
        return Note("table.left_playing", {"name": member.name, "group": group})
    if what == "start":
        if record.status != "lobby":
            raise Refusal("table.already_started")
        if member.user_id != record.host_id:
            raise Refusal("table.host_only")
        if len(record.seats) < game.min_players:
            raise Refusal("table.too_few", min=game.min_players)
        seed = secrets.randbits(63)
        record.state = game.dump(game.new(len(record.seats), seed, record.options))
        record.status = "playing"
        return Note(logged={"seed": seed})  # a replay starts from game.new with this seed
    if not (member.user_id == record.host_id or member.manages_channel):
        raise Refusal("table.cancel_refused")
    record.status = "cancelled"
    return Note("table.cancelled", {"name": member.name})


def deserted(record: TableRecord) -> bool:
    """Every seat is played by a computer: after the last /leave the game would only play itself.

    (Players who merely time out are stood in for until the end, and keep their result.)
    """
    return all(seat.computer for seat in record.seats)
