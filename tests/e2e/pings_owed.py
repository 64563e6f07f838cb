"""How many turn pings each human was owed in a game, replayed from its log with the moments of its moves.

The rule the table keeps: a human who owed a move for the server's grace delay or longer is pinged
once for that turn; one who moved sooner is not pinged at all, unless a new phase invited them
(`GameCog.invites`), which pings at once, once. A transcript's pings must match exactly.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from cogs.tables.context import TableContext
from cogs.tables.gamecog import GameCog
from cogs.tables.pings import DEFAULT_PING_DELAY
from rules.engine import IllegalAction
from storage.settings import NOTIFY_KEY, PING_DELAY_KEY, PINGS_KEY, GuildSettings, PlayerSettings
from storage.tables import TableRecord, TableStore
from tests.e2e.transcript import TABLE_MOVES

_EARLY = 0.001


@dataclass
class _Turn:
    since: float
    invited: bool = False


@dataclass
class Owed:
    pings: dict[int, int]  # user id -> turn pings owed
    unchecked: set[int]  # users of games that cannot be replayed (a test rewrote the state)


def _humans(ctx: TableContext, seats: frozenset[int]) -> set[int]:
    return {seat for seat in seats if ctx.record.seats[seat].human and not ctx.record.seats[seat].computer}


async def pings_owed(
    store: TableStore,
    guilds: GuildSettings,
    players: PlayerSettings,
    cog: GameCog,
    record: TableRecord,
    moment: float,
) -> Owed:
    """The pings `record`'s game owed its humans up to `moment` (the test's virtual clock)."""
    users = {seat.user_id for seat in record.seats if seat.human}
    log = await store.timed_actions(record.id or 0)
    start = next(
        (index for index, (_, seat, action, _) in enumerate(log) if seat is None and "seed" in action), None
    )
    rigged = any(seat is None and action["type"] not in TABLE_MOVES for _, seat, action, _ in log)
    stand_in = any(seat.human and seat.computer for seat in record.seats)  # its turns changed hands
    if start is None:
        return Owed({}, set())
    if rigged or stand_in:
        return Owed({}, users)
    delay = float(await guilds.get(record.guild_id, PING_DELAY_KEY, DEFAULT_PING_DELAY))
    game = cog.game
    playing = dataclasses.replace(record, status="playing")
    state = game.new(len(record.seats), log[start][2]["seed"], record.options)
    owed: dict[int, int] = {}
    turns: dict[int, _Turn] = {}

    def owe(seat: int) -> None:
        user = record.seats[seat].user_id
        owed[user] = owed.get(user, 0) + 1

    def settle(seat: int, turn: _Turn, until: float) -> None:
        if turn.invited or until - turn.since >= delay - _EARLY:
            owe(seat)

    def changed(at: float, mover: int | None) -> None:
        ctx = TableContext(playing, game, state)
        owing = _humans(ctx, cog.waits_for(ctx)) if not game.is_over(state) else set()
        for seat in list(turns):
            if seat not in owing or seat == mover:
                settle(seat, turns.pop(seat), at)
        for seat in owing:
            turns.setdefault(seat, _Turn(at))
        for seat in _humans(ctx, cog.invites(ctx)):
            if seat in turns:
                turns[seat].invited = True
            else:
                owe(seat)

    changed(log[start][3], None)
    for _, seat, action, at in log[start + 1 :]:
        if seat is None:
            continue
        move = game.decode_action({key: value for key, value in action.items() if key != "by"})
        try:
            game.apply(state, seat, move)
        except IllegalAction:  # a test scripted the dice: the log cannot be replayed from the seed
            return Owed({}, users)
        changed(at, seat)
    end = moment if record.status == "playing" else record.updated_at
    for seat, turn in turns.items():
        settle(seat, turn, end)
    if not await guilds.get(record.guild_id, PINGS_KEY, True):
        return Owed({user: 0 for user in owed}, set())
    for user in list(owed):
        if await players.get(user, NOTIFY_KEY, "channel") == "off":
            owed[user] = 0
    return Owed(owed, set())
