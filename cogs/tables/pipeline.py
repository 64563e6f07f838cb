"""The one road every change of a table takes: the cache of open tables, a lock per channel, and
the move pipeline.

One move, end to end: lock the channel -> load the table -> `game.apply` -> storage commits the
state, the action and (at the end) the results in one transaction -> answer the interaction ->
then, outside the lock, refresh the board, the private hands, the turn pings and the timer.
Time-outs and computer seats take the same road (`_on_deadline`).

Computer seats — players added in the lobby, and stand-ins for players who left or timed out three
times (at `normal`) — move through `rules.computer.choose` at their level, seeded by the table and
its version so a decision can be reproduced. `hard` thinks off the event loop, outside the lock, on
the state it loaded; its move is committed only if the table has not moved on meanwhile.

Several processes may share one PostgreSQL database (`cluster.py`): a move judged on a cached table
that another process has moved since is judged again on the stored one (`judged_fresh`); the board
and private hands are drawn by the process owning the table's guild, which hears of moves made
elsewhere by notification; a deadline runs in the process holding its lease.

An open table stays in memory while it is played; one idle for `IDLE_EVICT` leaves it (its timer
keeps only the channel id) and is read again on its next click or deadline. Loaded again unchanged,
it is not re-synced: only a table met for the first time in this process (after a restart) has its
board, hands and pings brought up to date.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import logging
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

import discord
from discord.ext import commands

from cogs.i18n import t
from cogs.tables.boards import COMPUTERS_COUNTED_EXTRA, results_board
from cogs.tables.cluster import Cluster, process_name
from cogs.tables.context import TableContext, now
from cogs.tables.errors import Refusal
from cogs.tables.gamecog import GameCog
from cogs.tables.language import player_locale
from cogs.tables.pings import Pinger
from cogs.tables.private import PrivateHands
from cogs.tables.publish import Publisher
from cogs.tables.slots import MessageSlots
from cogs.tables.timers import Timers
from cogs.tables.ui import Board
from rules.computer.brain import LEVELS
from rules.computer.play import choose
from rules.engine import Event, Game, IllegalAction
from storage.database import Database
from storage.leaderboard import Leaderboard, SeatResult
from storage.settings import GuildSettings, PlayerSettings
from storage.tables import StaleVersion, TableRecord, TableStore

log = logging.getLogger(__name__)

TIMEOUTS_BEFORE_COMPUTER = 3
IDLE_EVICT = 600.0  # seconds without a move or a click before an open table leaves memory
SWEEP_EVERY = 60.0  # seconds between two looks for idle tables while the bot is busy
COMPUTERS_COUNTED_KEY = "computers.counted"  # server setting: games with computer players count (default)
RECOVER_RECENT = 3600.0  # seconds: tables active this recently are redrawn by a new process
JUDGEMENTS = 3  # times a request is judged before "out of date": each retry follows another process's move

T = TypeVar("T")

Mover = Literal["player", "timeout", "computer"]
Move = tuple[int, Any, list[Event]]  # seat, action, the events it caused


@dataclass
class Loaded:
    record: TableRecord
    state: Any | None


class Pipeline:
    """Loads tables, judges and commits moves, and sets off everything a committed move changes."""

    def __init__(self, bot: commands.Bot, database: Database, default_timeout: float) -> None:
        self.bot = bot
        self.database = database
        owner = process_name()
        self.store = TableStore(database, origin=owner)  # knows its own saves when it hears them
        self.guild_settings = GuildSettings(database)
        self.leaderboard = Leaderboard(database)
        self.games: dict[str, GameCog] = {}
        self._loaded: dict[int, Loaded] = {}
        self._locks: dict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._used: dict[int, float] = {}  # when each loaded table was last used
        self._evicted: dict[int, int] = {}  # tables that left memory idle: the version they left at
        self._sweeper: asyncio.Task[None] | None = None
        self._swept = now()  # when idle tables were last looked for
        self._background: set[asyncio.Task[Any]] = set()
        slots = MessageSlots(self.store)
        self.publisher = Publisher(bot, slots, self.games, self._latest)
        self.private = PrivateHands(bot, slots, self.games)
        self.timers = Timers(self.guild_settings, default_timeout, self._on_deadline)
        self.player_settings = PlayerSettings(database)
        self.pinger = Pinger(bot, self.guild_settings, self.player_settings)
        self.cluster = Cluster(bot, database, self.store, owner)

    # ================================================================ loading

    def _context(self, loaded: Loaded) -> TableContext:
        return TableContext(loaded.record, self.games[loaded.record.game_id].game, loaded.state)

    async def _load(self, channel_id: int, *, ping: bool = True) -> Loaded | None:
        """The open table of a channel, from the cache or the database. Met for the first time, its
        messages are brought up to date, and (`ping`) whoever owes a move is told again."""
        cached = self._loaded.get(channel_id)
        if cached is not None:
            self._touch(channel_id)
            return cached
        record = await self.store.open_table(channel_id)
        cached = self._loaded.get(channel_id)  # another caller loaded it meanwhile: theirs stands
        if cached is not None:
            return cached
        if record is None or record.game_id not in self.games:
            return None
        loaded = Loaded(record, self._state_of(record))
        self._loaded[channel_id] = loaded
        self._touch(channel_id)
        left_at = self._evicted.pop(channel_id, None)
        if record.status == "playing" and left_at != record.version and self.cluster.shows(record.guild_id):
            # First contact in this process: the board and private controls may show an older state
            # (the last process may have died between a commit and its edits). Bring them up to date.
            # A table that left memory idle and comes back unchanged shows its state already. Another
            # process's table is brought up to date by that process.
            ctx, cog = self._context(loaded), self.games[record.game_id]
            self.publisher.request(channel_id)
            if cog.private_mode != "none":
                self._schedule(self.private.sync(ctx, cog))
            if ping and (record.deadline is None or record.deadline > now()):
                # (A due deadline moves at once, and that move pings whoever owes one next.)
                self.pinger.note(ctx, cog)
        return loaded

    def _state_of(self, record: TableRecord) -> Any | None:
        return self.games[record.game_id].game.load(record.state) if record.state is not None else None

    def _remember(self, loaded: Loaded) -> None:
        channel_id = loaded.record.channel_id
        if loaded.record.is_open:
            self._loaded[channel_id] = loaded
            self._touch(channel_id)
        else:
            self._loaded.pop(channel_id, None)
            self._used.pop(channel_id, None)
            self._evicted.pop(channel_id, None)

    # ================================================================ idle tables leave memory

    def _touch(self, channel_id: int) -> None:
        """The table is in use. Idle ones are looked for while the bot works (every SWEEP_EVERY), and
        once more IDLE_EVICT after it falls quiet: no timer ticks while nothing happens."""
        at = now()
        self._used[channel_id] = at
        if at - self._swept >= SWEEP_EVERY:
            self.evict_idle()
        if self._sweeper is None or self._sweeper.done():
            self._sweeper = asyncio.create_task(self._sweep_later())
            self._background.add(self._sweeper)
            self._sweeper.add_done_callback(self._background.discard)

    async def _sweep_later(self) -> None:
        await asyncio.sleep(IDLE_EVICT)
        self.evict_idle()

    def evict_idle(self, idle: float = IDLE_EVICT) -> list[int]:
        """Tables unused for `idle` seconds leave memory (not one a move holds); returns their channels.

        Its deadline timer keeps only the channel id, and the next click or deadline reads it again."""
        self._swept = now()
        cutoff = self._swept - idle
        evicted = []
        for channel_id in list(self._loaded):
            if self._used.setdefault(channel_id, now()) > cutoff:
                continue
            lock = self._locks.get(channel_id)
            if lock is not None and (lock.locked() or getattr(lock, "_waiters", None)):
                continue  # held, or handed to a waiter that has not resumed yet
            loaded = self._loaded.pop(channel_id)
            del self._used[channel_id]
            self._locks.pop(channel_id, None)
            self._evicted[channel_id] = loaded.record.version
            self.private.forget_drawings(channel_id)
            evicted.append(channel_id)
        return evicted

    async def context(self, channel_id: int) -> TableContext | None:
        loaded = await self._load(channel_id)
        return self._context(loaded) if loaded else None

    async def _latest(self, channel_id: int) -> TableContext | None:
        """The channel's open table, else its last one (a finished board still gets its final edit)."""
        loaded = self._loaded.get(channel_id)
        if loaded is None:
            record = await self.store.last_table(channel_id)
            if record is None or record.game_id not in self.games:
                return None
            loaded = Loaded(record, self._state_of(record))
        return self._context(loaded)

    # ================================================================ other processes' moves

    async def judged_fresh(
        self,
        channel_id: int,
        judge: Callable[[], Awaitable[T]],
        interaction: discord.Interaction | None = None,
    ) -> T:
        """`judge()` a request; when another process sharing the database moved the table since it was
        cached, a refusal or a stale write is judged again on the stored table. A click that was right
        is never refused for this process's stale memory, nor applied twice (the version guard)."""
        for judgement in range(1, JUDGEMENTS + 1):
            try:
                return await judge()
            except (StaleVersion, Refusal, IllegalAction) as error:
                last = judgement == JUDGEMENTS or (interaction is not None and interaction.response.is_done())
                if last:
                    raise  # a stale write is answered "out of date", honestly
                # Another writer was first (its save dropped the cache), or the cache was behind.
                if not isinstance(error, StaleVersion) and not await self._moved_elsewhere(channel_id):
                    raise
        raise AssertionError("unreachable: the last judgement returns or raises")

    async def _moved_elsewhere(self, channel_id: int) -> bool:
        """Whether the cached table is behind the stored one (it is dropped then). One process alone
        writes everything it caches: then never, and without asking the database."""
        if not self.cluster.shared:
            return False
        cached = self._loaded.get(channel_id)
        if cached is None:
            return False  # judged on the stored table already
        stored = await self.store.version_of(channel_id)
        if stored is not None and stored == cached.record.version:
            return False
        self._forget(channel_id, stored)
        return True

    def _forget(self, channel_id: int, version: int | None) -> None:
        """Drop a cached table another process moved. Read again, it is not re-synced as after a
        restart (`_load`): the moving process and the owner of its guild look after its messages."""
        self._loaded.pop(channel_id, None)
        self._used.pop(channel_id, None)
        if version is not None:
            self._evicted[channel_id] = version

    def heard(self, payload: str) -> None:
        """A table moved (a notification from the database, maybe this process's own save)."""
        try:
            channel, version_text, guild, *origin = payload.split()
            channel_id, version, guild_id = int(channel), int(version_text), int(guild)
        except ValueError:
            log.warning("ignoring a table notification that is not 'channel version guild': %r", payload)
            return
        if origin == [self.cluster.owner]:
            return  # this process's own save
        cached = self._loaded.get(channel_id)
        if cached is not None and cached.record.version >= version:
            return  # this process's own move, or old news
        if cached is None and not self.cluster.shows(guild_id):
            return  # neither cached here nor shown from here
        self._schedule(self._follow(channel_id, version, guild_id))

    async def take_up(self, shards: frozenset[int]) -> None:
        """Shards lost their process: their tables are shown from here now. Those played lately are
        brought up to date at once (the process may have died between a commit and its edits) and
        their timers armed; an older one catches up at its next move, its deadline swept up."""
        for channel_id, guild_id in await self.store.playing_channels(updated_since=now() - RECOVER_RECENT):
            if self.cluster.shard_of(guild_id) not in shards:
                continue
            async with self._locks[channel_id]:
                self._loaded.pop(channel_id, None)
                self._evicted.pop(channel_id, None)  # met anew: `_load` redraws what it shows
                # Its players were told of their turn by the process that died, most likely.
                loaded = await self._load(channel_id, ping=False)
            if loaded is not None:
                self.timers.arm(loaded.record)

    def missed(self) -> None:
        """Listening was interrupted: the cached tables are checked against the stored ones."""
        self._schedule(self._catch_up())

    async def _catch_up(self) -> None:
        for channel_id, cached in list(self._loaded.items()):
            stored = await self.store.version_of(channel_id)
            if stored != cached.record.version:  # moved elsewhere meanwhile (or over: None)
                version = stored if stored is not None else cached.record.version + 1
                await self._follow(channel_id, version, cached.record.guild_id)

    async def _follow(self, channel_id: int, version: int, guild_id: int) -> None:
        """Another process moved the table: forget the cached one; the guild's owner redraws."""
        async with self._locks[channel_id]:  # after a save of ours whose notification overtook it
            cached = self._loaded.get(channel_id)
            if cached is not None and cached.record.version >= version:
                return
            self._forget(channel_id, version)
            if not self.cluster.shows(guild_id):
                return
            loaded = await self._load(channel_id)
        self.publisher.request(channel_id)  # the board, or the results board of a finished game
        if loaded is None:
            return
        cog = self.games[loaded.record.game_id]
        if cog.private_mode != "none" and loaded.record.status == "playing":
            self._schedule(self.private.sync(self._context(loaded), cog))
        self.timers.arm(loaded.record)  # the mover's timer too: the lease lets one of them run it

    # ================================================================ moves

    async def act(
        self,
        channel_id: int,
        user_id: int,
        action: Any,
        *,
        interaction: discord.Interaction | None = None,
        stamp: int = 0,
    ) -> None:
        """Apply one player's action: judged, committed and answered under the channel lock.

        The interaction (if any) is answered by editing the clicked message — the board or the
        player's private message — or, for a slash command, with a short ephemeral confirmation.
        Everything slower comes after the lock.
        """
        async with self._locks[channel_id]:
            loaded = await self._load(channel_id)
            if loaded is None or loaded.record.status != "playing":
                raise Refusal("table.no_game")
            cog = self.games[loaded.record.game_id]
            seat = loaded.record.seat_of(user_id)
            if seat is None:
                raise Refusal("table.not_seated")
            if stamp and stamp != cog.stamp(self._context(loaded), seat):
                if not await self._is_last_move(loaded, seat, action):
                    raise Refusal("table.outdated")
                # A click on the board from before its own move, which is the last one stored: a retry
                # after the answer was lost (the process died between commit and answer). It is
                # answered below with the table as it is now, and nothing is applied again.
                moves: list[Move] = []
            else:
                loaded, events = await self._commit(loaded, seat, action, by="player")
                moves = [(seat, action, events)]
            failure: Exception | None = None
            if interaction is not None and not interaction.response.is_done():
                try:
                    await self._answer(interaction, loaded, seat, action)
                except Exception as error:  # the move is committed: the board and timers must follow
                    failure = error
        # Also after a retried click that changed nothing: the process that applied it may have died
        # before bringing the board, hands, pings and timer along.
        await self._after(loaded, moves, actor=seat)
        if failure is not None:
            raise failure

    async def _is_last_move(self, loaded: Loaded, seat: int, action: Any) -> bool:
        last = await self.store.last_action(loaded.record.id or 0)
        if last is None:
            return False
        version, by_seat, logged = last
        game = self.games[loaded.record.game_id].game
        return version == loaded.record.version and by_seat == seat and logged == game.encode_action(action)

    async def _commit(
        self, loaded: Loaded, seat: int, action: Any, *, by: Mover
    ) -> tuple[Loaded, list[Event]]:
        """Judge and commit one action; the caller holds the channel lock."""
        record = loaded.record.copy()
        cog = self.games[record.game_id]
        game = cog.game
        assert record.state is not None, "a playing table always has a state"
        state = game.load(record.state)
        events = game.apply(state, seat, action)  # IllegalAction: refused, nothing changed
        record.state = game.dump(state)
        seat_record = record.seats[seat]
        if by == "player":
            seat_record.timeouts = 0
            seat_record.computer = False  # a replaced player who acts again takes their seat back
        elif by == "timeout":
            seat_record.timeouts += 1
            seat_record.computer = seat_record.timeouts >= TIMEOUTS_BEFORE_COMPUTER
        finished = game.is_over(state)
        results: list[SeatResult] | None = None
        if finished:
            record.status = "finished"
            counted = True
            if any(not seated.human for seated in record.seats):
                counted = bool(await self.guild_settings.get(record.guild_id, COMPUTERS_COUNTED_KEY, True))
                record.extra[COMPUTERS_COUNTED_EXTRA] = counted  # the results board says how it counted
            results = _results(record, game.scores(state), game.ranking(state), counted)
        record.deadline = await self.timers.deadline(record, cog, state)
        await self._save(
            record,
            expected_version=loaded.record.version,
            action={**game.encode_action(action), **({"by": by} if by != "player" else {})},
            seat=seat,
            results=results,
        )
        result = Loaded(record, state)
        self._remember(result)
        return result, events

    async def _save(
        self,
        record: TableRecord,
        *,
        expected_version: int,
        action: dict[str, Any],
        seat: int | None = None,
        results: list[SeatResult] | None = None,
    ) -> None:
        try:
            await self.store.save(
                record,
                expected_version=expected_version,
                action=action,
                seat=seat,
                now=now(),
                results=results,
            )
        except StaleVersion:
            self._loaded.pop(record.channel_id, None)  # another writer was first: reload next time
            raise

    async def _answer(self, interaction: discord.Interaction, loaded: Loaded, seat: int, action: Any) -> None:
        record = loaded.record
        cog = self.games[record.game_id]
        ctx = self._context(loaded)
        if await self.publisher.is_board(interaction, ctx):
            await self.publisher.answer_with_board(interaction, ctx)
        elif interaction.type == discord.InteractionType.component:
            board = await self.private.render(ctx, cog, seat) if record.status == "playing" else None
            if board is None:
                board = Board(content=(await self.private.for_seat(ctx, seat)).t("table.private_done"))
            await interaction.response.edit_message(**board.edit_kwargs())
            ephemeral = interaction.message is not None and interaction.message.flags.ephemeral
            await self.private.shown(ctx, seat, board, interaction if ephemeral else None)
        else:
            text = t("table.done", await player_locale(interaction), what=cog.describe(ctx, seat, action))
            await interaction.response.send_message(text, ephemeral=True)

    async def _after(self, loaded: Loaded, moves: list[Move], *, actor: int | None = None) -> None:
        """After the lock: board, announcements, results, private hands, turn pings, the next timer."""
        record = loaded.record
        cog = self.games[record.game_id]
        ctx = self._context(loaded)
        shown_here = self.cluster.shows(record.guild_id)  # else the guild's process, notified
        if shown_here:
            self.publisher.request(record.channel_id)
        lines = [line for _, _, events in moves for line in cog.announce(ctx, events)]
        if lines:
            await self.publisher.send(record.channel_id, content="\n".join(lines))
        if record.status == "finished":
            players = [seat.user_id for seat in record.seats if seat.human and not seat.computer]
            results = results_board(ctx, cog).send_kwargs()
            await self.publisher.send(record.channel_id, **results, allowed_mentions=pinging(players))
        if cog.private_mode != "none" and shown_here:  # a game without secrets has no hands to update
            self._schedule(self.private.sync(ctx, cog))
        self.pinger.note(ctx, cog, actor, moved=frozenset(seat for seat, _, _ in moves))
        self.timers.arm(record)

    # ================================================================ time-outs and computer players

    async def _on_deadline(self, channel_id: int) -> None:
        """A deadline came: run by the process holding the table's timer lease (any, alone)."""
        if not await self.cluster.claim(channel_id):
            return  # another process runs it; should it die, its lease runs out and a sweep takes over
        watching = False
        try:
            await self._moved_elsewhere(channel_id)
            watching = await self._deadline_due(channel_id)
        except StaleVersion:  # another process moved first: it armed the table's next deadline
            log.info("a deadline in channel %s was overtaken by another process's move", channel_id)
        finally:
            if not watching:
                await self.cluster.release(channel_id)

    async def _deadline_due(self, channel_id: int) -> bool:
        """Computer seats play; or, once the turn time is up, the absent humans get a default move.

        True when nothing was due yet and the table looks again soon (a watching computer): its
        lease is kept, renewed at each look, so other processes' sweeps leave the table alone.
        """
        moves: list[Move] = []
        notices: list[str] = []
        replaced: list[int] = []  # users whose seat a computer takes: told so with a ping
        async with self._locks[channel_id]:
            loaded = await self._load(channel_id)
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
            await self._after(loaded, moves)
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
            await self._after(loaded, moves)
            return False
        async with self._locks[channel_id]:
            latest = self._loaded.get(channel_id)
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
        absent = [seat for seat in movers if seat in cog.waits_for(self._context(loaded))]
        for seat in absent:
            if loaded.record.status != "playing" or seat not in cog.game.to_move(loaded.state):
                continue
            action = cog.game.default_action(loaded.state, seat)
            try:
                loaded, events = await self._commit(loaded, seat, action, by="timeout")
            except StaleVersion:  # another process moved meanwhile: what is committed stands
                if not moves:
                    raise
                break
            ctx = self._context(loaded)
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

        easy and normal decide under the lock; hard thinks in a thread on the state as loaded, and its
        move is committed only if the table is still at that version (else the next deadline decides).
        """
        async with self._locks[channel_id]:
            loaded = await self._load(channel_id)
            if not _computer_may_move(self.games, loaded, seat):
                return None
            assert loaded is not None
            cog = self.games[loaded.record.game_id]
            level = loaded.record.seats[seat].level or "normal"
            seen = cog.computer_sight(self._context(loaded), level)
            seed = decision_seed(loaded.record, seat)
            if level != "hard":
                action = decide(cog.game, loaded.state, seat, level, seed, seen)
                return await self._commit_computer(loaded, seat, action)
            version = loaded.record.version
            assert loaded.record.state is not None
            thinking = cog.game.load(loaded.record.state)  # its own copy, never touched by a move
        action = await asyncio.to_thread(decide, cog.game, thinking, seat, level, seed, seen)
        async with self._locks[channel_id]:
            loaded = await self._load(channel_id)
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
        loaded, events = await self._commit(loaded, seat, action, by="computer")
        return loaded, (seat, action, events)

    # ================================================================ background work

    def _schedule(self, coroutine: Any) -> None:
        task = asyncio.create_task(coroutine)
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        task.add_done_callback(_log_failure)


def pinging(users: list[int]) -> discord.AllowedMentions:
    """Mentions that notify exactly these users (the bot's default notifies nobody)."""
    return discord.AllowedMentions(
        everyone=False, roles=False, users=[discord.Object(user) for user in users]
    )


def _results(record: TableRecord, scores: list[int], ranking: list[int], counted: bool) -> list[SeatResult]:
    return [
        SeatResult(
            seat=index,
            user_id=seat.user_id,
            score=scores[index],
            rank=ranking[index],
            level=None if seat.human else seat.level,
            counted=counted,
        )
        for index, seat in enumerate(record.seats)
    ]


def decision_seed(record: TableRecord, seat: int) -> int:
    """A computer's decision is seeded by the table, its version and the seat: reproducible in a replay."""
    digest = hashlib.blake2b(f"{record.id}:{record.version}:{seat}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def decide(game: Game[Any, Any], state: Any, seat: int, level: str, seed: int, seen: int | None) -> Any:
    """A computer seat's move (None: nothing to do now)."""
    chosen = level if level in LEVELS else "normal"
    try:
        return choose(game, state, seat, chosen, seed, published=seen)  # type: ignore[arg-type]
    except Exception:  # a computer's bug must not stall the table: it plays the time-out move instead
        log.exception("%s computer at seat %s failed to choose; playing the default move", game.id, seat)
        return game.default_action(state, seat)


def _computer_may_move(games: dict[str, GameCog], loaded: Loaded | None, seat: int) -> bool:
    return (
        loaded is not None
        and loaded.record.status == "playing"
        and loaded.record.seats[seat].computer
        and seat in games[loaded.record.game_id].game.to_move(loaded.state)
    )


def _log_failure(task: asyncio.Task[Any]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("background task failed", exc_info=task.exception())
