"""One move, end to end: lock the channel -> load the table -> `game.apply` -> storage commits the
state, the action and (at the end) the results in one transaction -> answer the interaction ->
then, outside the lock, what follows a move (`showing.py`: board, hands, pings, the next timer).

Time-outs and computer seats commit through the same `Moves.commit` (`deadlines.py`).
"""

from __future__ import annotations

import time
from typing import Any, Literal

import discord

from cogs.kit.adapter import clicked_message
from cogs.kit.errors import Refusal
from cogs.kit.messages import Board, answer_by_editing
from cogs.kit.metrics import count_outcome, metrics_of
from cogs.kit.words.reader import player_locale
from cogs.kit.words.text import t
from cogs.tables.boards import COMPUTERS_COUNTED_EXTRA
from cogs.tables.cache import Loaded, OpenTables
from cogs.tables.context import now
from cogs.tables.gamecog import GameCog
from cogs.tables.private import PrivateHands
from cogs.tables.publish import Publisher
from cogs.tables.showing import Move, Showing
from cogs.tables.timers import Timers
from rules.engine import Event
from storage.leaderboard import SeatResult
from storage.settings import COMPUTERS_COUNTED_KEY, GuildSettings
from storage.tables import StaleVersion, TableRecord, TableStore

TIMEOUTS_BEFORE_COMPUTER = 3

Mover = Literal["player", "timeout", "computer"]


class Moves:
    """Judges and commits moves, answers the interaction that made one, and saves lobby changes."""

    def __init__(
        self,
        cache: OpenTables,
        games: dict[str, GameCog],
        store: TableStore,
        guild_settings: GuildSettings,
        timers: Timers,
        publisher: Publisher,
        private: PrivateHands,
        showing: Showing,
    ) -> None:
        self.cache = cache
        self.games = games
        self.store = store
        self.guild_settings = guild_settings
        self.timers = timers
        self.publisher = publisher
        self.private = private
        self.showing = showing
        self.metrics = metrics_of(publisher.bot)  # None unless the bot serves its figures

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
        async with self.cache.lock(channel_id):
            loaded = await self.cache.load(channel_id)
            if loaded is None or loaded.record.status != "playing":
                raise Refusal("table.no_game")
            cog = self.games[loaded.record.game_id]
            seat = loaded.record.seat_of(user_id)
            if seat is None:
                raise Refusal("table.not_seated")
            if stamp and stamp != cog.stamp(self.cache.context_of(loaded), seat):
                if not await self._is_last_move(loaded, seat, action):
                    raise Refusal("table.outdated")
                # A click on the board from before its own move, which is the last one stored: a retry
                # after the answer was lost (the process died between commit and answer). It is
                # answered below with the table as it is now, and nothing is applied again.
                moves: list[Move] = []
            else:
                loaded, events = await self.commit(loaded, seat, action, by="player")
                moves = [(seat, action, events)]
            failure: Exception | None = None
            if interaction is not None and not interaction.response.is_done():
                try:
                    await self._answer(interaction, loaded, seat, action)
                    count_outcome(interaction, "applied")
                except Exception as error:  # the move is committed: the board and timers must follow
                    failure = error
        # Also after a retried click that changed nothing: the process that applied it may have died
        # before bringing the board, hands, pings and timer along.
        await self.showing.after(self.cache.context_of(loaded), moves, actor=seat)
        if failure is not None:
            raise failure

    async def _is_last_move(self, loaded: Loaded, seat: int, action: Any) -> bool:
        last = await self.store.last_action(loaded.record.id or 0)
        if last is None:
            return False
        version, by_seat, logged = last
        game = self.games[loaded.record.game_id].game
        return version == loaded.record.version and by_seat == seat and logged == game.encode_action(action)

    async def commit(
        self, loaded: Loaded, seat: int, action: Any, *, by: Mover
    ) -> tuple[Loaded, list[Event]]:
        """Judge and commit one action (IllegalAction: refused, nothing changed); the caller holds
        the channel lock. Returns the table after it and the events it caused."""
        record = loaded.record.copy()
        cog = self.games[record.game_id]
        game = cog.game
        assert record.state is not None, "a playing table always has a state"
        state = game.load(record.state)
        events = game.apply(state, seat, action)
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
            if self.metrics is not None:
                self.metrics.games_finished.labels(record.game_id).inc()
        record.deadline = await self.timers.deadline(record, cog, state)
        await self.save(
            record,
            expected_version=loaded.record.version,
            action={**game.encode_action(action), **({"by": by} if by != "player" else {})},
            seat=seat,
            results=results,
        )
        result = Loaded(record, state)
        self.cache.remember(result)
        return result, events

    async def save(
        self,
        record: TableRecord,
        *,
        expected_version: int,
        action: dict[str, Any],
        seat: int | None = None,
        results: list[SeatResult] | None = None,
    ) -> None:
        """Store a change of the table (a move, or a lobby's), guarded by the version it was made on:
        StaleVersion when another writer was first (the cached table is dropped then)."""
        began = time.perf_counter()
        try:
            await self.store.save(
                record,
                expected_version=expected_version,
                action=action,
                seat=seat,
                now=now(),
                results=results,
            )
            if self.metrics is not None:
                self.metrics.database_write_seconds.observe(time.perf_counter() - began)
        except StaleVersion:
            self.cache.drop(record.channel_id)  # another writer was first: reload next time
            raise

    async def _answer(self, interaction: discord.Interaction, loaded: Loaded, seat: int, action: Any) -> None:
        record = loaded.record
        cog = self.games[record.game_id]
        ctx = self.cache.context_of(loaded)
        if await self.publisher.is_board(interaction, ctx):
            if record.status == "finished":  # the board gives way to the results message (showing.py)
                await interaction.response.defer()
            else:
                await self.publisher.answer_with_board(interaction, ctx)
        elif interaction.type == discord.InteractionType.component:
            board = await self.private.render(ctx, cog, seat) if record.status == "playing" else None
            if board is None:
                mine = await self.private.for_seat(ctx, seat)
                said = mine.t("table.private_done", channel=ctx.channel_id)
                board = Board(content=said)
            await answer_by_editing(interaction, board)
            _, ephemeral = clicked_message(interaction)
            await self.private.shown(ctx, seat, board, interaction if ephemeral else None)
        else:
            text = t("table.done", await player_locale(interaction), what=cog.describe(ctx, seat, action))
            await interaction.response.send_message(text, ephemeral=True)


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
