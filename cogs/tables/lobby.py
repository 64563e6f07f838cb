"""What join, leave, start and cancel — and adding or removing a computer player — do to a table's
record: pure decisions, refused with a reason.

The Tables cog calls these on a copy of the record under the channel lock, then saves the
copy; nothing here talks to Discord or storage.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from cogs.kit.errors import Refusal
from cogs.kit.services import Seeds, new_seed
from rules.engine import Game
from storage.tables import Seat, TableRecord

LobbyMove = Literal["join", "leave", "start", "cancel", "add_computer", "remove_computer"]
LOBBY_MOVES: tuple[LobbyMove, ...] = ("join", "leave", "start", "cancel", "add_computer", "remove_computer")
COMPUTER_LEVEL_KEY = "computer_level"  # record.extra: the level the table's computers are added at
DEFAULT_LEVEL = "normal"


@dataclass(frozen=True)
class Member:
    """Who asks, as far as the lobby cares."""

    user_id: int
    name: str
    manages_channel: bool = False


@dataclass
class Note:
    """What a change says: `answer`, the catalog key of the caller's own answer ("You joined …"); `key`,
    what the channel is told ("" = nothing: the board shows it); their parameters (the Tables cog adds
    `game` and `players`); and what the action log keeps besides the move (the seed a game started from)."""

    answer: str
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


def change(
    record: TableRecord,
    game: Game[Any, Any],
    what: LobbyMove,
    member: Member,
    group: str,
    computer_names: Sequence[str] = (),
    seeds: Seeds = new_seed,
) -> Note:
    """Apply one lobby move to `record` (a copy the caller saves) and say what happened.

    `computer_names`: the names computer players take, in the table's language ("add_computer");
    `seeds`: where the game's seed comes from ("start" draws one: the bot's services say where).
    """
    seat = record.seat_of(member.user_id)
    if what in ("add_computer", "remove_computer"):
        if record.status != "lobby":
            raise Refusal("table.already_started")
        if member.user_id != record.host_id:
            raise Refusal("computers.host_only")
        if what == "add_computer":
            added = add_computer(record, game, computer_names)
            return Note(
                "lobby.answer.computer_added",
                "computers.added",
                {"name": added.name},
                {"computer": added.user_id},
            )
        computers = [index for index, seated in enumerate(record.seats) if not seated.human]
        if not computers:
            raise Refusal("computers.none_to_remove")
        removed = record.seats.pop(computers[-1])  # the last one added
        return Note(
            "lobby.answer.computer_removed",
            "computers.removed",
            {"name": removed.name},
            {"computer": removed.user_id},
        )
    if what == "join":
        if seat is not None and record.seats[seat].computer:
            # A player a computer stood in for takes their seat back.
            record.seats[seat].computer = False
            record.seats[seat].timeouts = 0
            return Note("lobby.answer.back", "table.back", {"name": member.name})
        if record.status != "lobby":
            raise Refusal("table.already_started")
        if seat is not None:
            raise Refusal("table.already_seated")
        if len(record.seats) >= game.max_players:
            raise Refusal("table.full", max=game.max_players)
        record.seats.append(Seat(member.user_id, member.name))
        return Note("lobby.answer.joined", "table.joined", {"name": member.name})
    if what == "leave":
        if seat is None:
            raise Refusal("table.not_seated")
        if record.status == "lobby":
            del record.seats[seat]
            humans = [seated.user_id for seated in record.seats if seated.human]
            if not humans:  # computers alone keep no table open
                record.status = "cancelled"
            elif record.host_id == member.user_id:
                record.host_id = humans[0]
            return Note("lobby.answer.left", "table.left", {"name": member.name})
        record.seats[seat].computer = True
        if deserted(record):  # the last player left on purpose: nobody plays on for a result
            record.status = "abandoned"
            return Note("lobby.answer.abandoned", "table.abandoned")
        return Note("lobby.answer.left_playing", "table.left_playing", {"name": member.name, "group": group})
    if what == "start":
        if record.status != "lobby":
            raise Refusal("table.already_started")
        if member.user_id != record.host_id:
            raise Refusal("table.host_only")
        if len(record.seats) < game.min_players:
            raise Refusal("table.too_few", min=game.min_players)
        if not any(seated.human for seated in record.seats):
            raise Refusal("computers.no_human")
        seed = seeds()
        record.state = game.dump(game.new(len(record.seats), seed, record.options))
        record.status = "playing"
        return Note(
            "lobby.answer.started", logged={"seed": seed}
        )  # a replay starts from game.new with this seed
    if not (member.user_id == record.host_id or member.manages_channel):
        raise Refusal("table.cancel_refused")
    record.status = "cancelled"
    return Note("lobby.answer.cancelled", "table.cancelled", {"name": member.name})


def add_computer(record: TableRecord, game: Game[Any, Any], names: Sequence[str]) -> Seat:
    """Seat a computer player at the level the table was opened with; refused at a full table.

    Its user id is the first free negative number (-1, -2, ...), unique at this table, and it is
    named by that number from `names`: removing the last computer and adding one again brings it back.
    """
    if len(record.seats) >= game.max_players:
        raise Refusal("table.full", max=game.max_players)
    taken = {seated.user_id for seated in record.seats}
    number = next(n for n in range(1, game.max_players + 2) if -n not in taken)
    name = names[(number - 1) % len(names)] if names else str(number)
    level = str(record.extra.get(COMPUTER_LEVEL_KEY, DEFAULT_LEVEL))
    seat = Seat(-number, f"🤖 {name}", computer=True, level=level)
    record.seats.append(seat)
    return seat


def deserted(record: TableRecord) -> bool:
    """Every seat is played by a computer: after the last /leave the game would only play itself.

    (Players who merely time out are stood in for until the end, and keep their result.)
    """
    return all(seat.computer for seat in record.seats)
