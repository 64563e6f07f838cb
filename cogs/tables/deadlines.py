"""When a table's deadline comes: computer seats move, or absent humans time out.

Computer seats — players added in the lobby, and stand-ins for players who left or timed out three
times (at `normal`) — move through `rules.computer.choose` at their level, seeded by the table and
its version so a decision can be reproduced. `hard` thinks in a process of its own (`thinking.py`),
outside the lock, on the state it loaded; its move is committed only if the table has not moved on meanwhile.

With several processes, a deadline runs in the process holding its lease (`cluster.py`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
from typing import Any

from cogs.tables.cache import Loaded, OpenTables
from cogs.tables.cluster import Cluster
from cogs.tables.context import now
from cogs.tables.following import Following
from cogs.tables.gamecog import GameCog
from cogs.tables.moves import Moves
from cogs.tables.publish import Publisher
from cogs.tables.showing import Move, Showing, pinging
from cogs.tables.thinking import decide, think
from cogs.tables.timers import Timers
from storage.tables import StaleVersion, TableRecord

log = logging.getLogger(__name__)


class Deadlines:
    """What a due deadline does (`on_deadline`, called by the timers and the cluster's sweep)."""

    def __init__(
        self,
        cache: OpenTables,
        games: dict[str, GameCog],
        cluster: Cluster,
        timers: Timers,
        publisher: Publisher,
        moves: Moves,
        following: Following,
        showing: Showing,
    ) -> None:
        self.cache = cache
        self.games = games
        self.cluster = cluster
        self.timers = timers
        self.publisher = publisher
        self.moves = moves
        self.following = following
        self.showing = showing

    async def on_deadline(self, channel_id: int) -> None:
        """A deadline came: run by the process holding the table's timer lease (any, alone)."""
        if not await self.cluster.claim(channel_id):
            return  # another process runs it; should it die, its lease runs out and a sweep takes over
        watching = False
        try:
            await self.following.moved_elsewhere(channel_id)
            watching = await self.deadline_due(channel_id)
        except StaleVersion:  # another process moved first: it armed the table's next deadline
            log.info("a deadline in channel %s was overtaken by another process's move", channel_id)
        finally:
            if not watching:
                await self.cluster.release(channel_id)

    async def deadline_due(self, channel_id: int) -> bool:
        """Computer seats play; or, once the turn time is up, the absent humans get a default move.

        True when nothing was due yet and the table looks again soon (a watching computer): its
        lease is kept, renewed at each look, so other processes' sweeps leave the table alone.
        """
        moves: list[Move] = []
        notices: list[str] = []
        replaced: list[int] = []  # users whose seat a computer takes: told so with a ping
        async with self.cache.lock(channel_id):
            loaded = await self.cache.load(channel_id)
            if loaded is None or loaded.record.status != "playing" or loaded.record.deadline is None:
                return False
            if loaded.record.deadline > now() + 0.001:
                self.timers.arm(loaded.record)
                return False
            cog = self.games[loaded.record.game_id]
            movers = sorted(cog.game.to_move(loaded.state))
            computers = [seat for seat in movers if loaded.record.seats[seat].computer]
            if not computers:
                loaded, moves, notices, replaced = await self._time_out(loaded, movers)
        if not computers:
            if notices:
                await self.publisher.send(
                    channel_id, content="\n".join(notices), allowed_mentions=pinging(replaced)
                )
            await self.showing.after(self.cache.context_of(loaded), moves)
            return False
        for seat in computers:  # each decides on the table as the previous one left it
            try:
                moved = await self._computer_move(channel_id, seat)
            except StaleVersion:  # another process moved meanwhile: the next deadline decides again
                break
            except Exception:  # one computer's failure must not stop the table: the others play on
                log.exception("the computer at seat %s in channel %s could not move", seat, channel_id)
                continue
            if moved is not None:
                loaded, move = moved
                moves.append(move)
        if moves:
            await self.showing.after(self.cache.context_of(loaded), moves)
            return False
        async with self.cache.lock(channel_id):
            latest = self.cache.cached(channel_id)
            if latest is None or latest.record.status != "playing":
                return False
            if latest.record.deadline is None or latest.record.deadline <= now():
                # Nothing to do yet (a Sushi Dice spectator with no Chop! to call): look again after
                # the computer's pace. Kept in memory only; after a restart it fires at once anyway.
                latest.record.deadline = await self.timers.deadline(
                    dataclasses.replace(latest.record, deadline=None), cog, latest.state
                )
            self.timers.arm(latest.record)
        return True

    async def _time_out(
        self, loaded: Loaded, movers: list[int]
    ) -> tuple[Loaded, list[Move], list[str], list[int]]:
        """The turn time is up: each absent human the game waits for gets the default move. The caller
        holds the channel lock. Returns the table after them, the moves, the lines to say, and whom
        they ping (players a computer now replaces)."""
        cog = self.games[loaded.record.game_id]
        moves: list[Move] = []
        notices: list[str] = []
        replaced: list[int] = []
        # Only seats the game is waiting for time out (not a spectator who may, but need not, act).
        absent = [seat for seat in movers if seat in cog.waits_for(self.cache.context_of(loaded))]
        for seat in absent:
            if loaded.record.status != "playing" or seat not in cog.game.to_move(loaded.state):
                continue
            action = cog.game.default_action(loaded.state, seat)
            try:
                loaded, events = await self.moves.commit(loaded, seat, action, by="timeout")
            except StaleVersion:  # another process moved meanwhile: what is committed stands
                if not moves:
                    raise
                break
            ctx = self.cache.context_of(loaded)
            what = cog.describe(ctx, seat, action)
            if ctx.record.seats[seat].computer:  # the third time-out in a row
                notices.append(ctx.t("table.replaced", player=ctx.ping(seat), what=what, group=cog.group))
                replaced.append(ctx.record.seats[seat].user_id)
            else:
                notices.append(ctx.t("table.timed_out", player=ctx.ping(seat), what=what))
            moves.append((seat, action, events))
        return loaded, moves, notices, replaced

    async def _computer_move(self, channel_id: int, seat: int) -> tuple[Loaded, Move] | None:
        """One computer seat's move, if it has one now, committed under the channel lock.

        easy and normal decide under the lock; hard thinks in the computers' process (`thinking.py`) on
        the state as loaded, and its move is committed only if the table is still at that version (else
        the next deadline decides).
        """
        async with self.cache.lock(channel_id):
            loaded = await self.cache.load(channel_id)
            if not _computer_may_move(self.games, loaded, seat):
                return None
            assert loaded is not None
            cog = self.games[loaded.record.game_id]
            level = loaded.record.seats[seat].level or "normal"
            seen = cog.computer_sight(self.cache.context_of(loaded), level)
            seed = decision_seed(loaded.record, seat)
            if level != "hard":
                action = decide(cog.game, loaded.state, seat, level, seed, seen)
                return await self._commit_computer(loaded, seat, action)
            version = loaded.record.version
            assert loaded.record.state is not None
            thinking = cog.game.load(loaded.record.state)  # its own copy, never touched by a move
        action = await think(cog.game, thinking, seat, level, seed, seen)
        async with self.cache.lock(channel_id):
            loaded = await self.cache.load(channel_id)
            if (
                loaded is None
                or loaded.record.version != version
                or not _computer_may_move(self.games, loaded, seat)
            ):
                return None
            return await self._commit_computer(loaded, seat, action)

    async def _commit_computer(self, loaded: Loaded, seat: int, action: Any) -> tuple[Loaded, Move] | None:
        if action is None:  # nothing to do now (a spectator with no call to make)
            return None
        loaded, events = await self.moves.commit(loaded, seat, action, by="computer")
        return loaded, (seat, action, events)


def decision_seed(record: TableRecord, seat: int) -> int:
    """A computer's decision is seeded by the table, its version and the seat: reproducible in a replay."""
    digest = hashlib.blake2b(f"{record.id}:{record.version}:{seat}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def _computer_may_move(games: dict[str, GameCog], loaded: Loaded | None, seat: int) -> bool:
    return (
        loaded is not None
        and loaded.record.status == "playing"
        and loaded.record.seats[seat].computer
        and seat in games[loaded.record.game_id].game.to_move(loaded.state)
    )
