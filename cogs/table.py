"""The game-agnostic table: lobby, seats, one lock per channel, actions, timers, results.

One click, end to end (DESIGN.md): lock the channel -> load the table ->
`game.apply` -> save state and action in one transaction -> answer the
interaction -> refresh the board, hands and timers. Game cogs supply only
rendering and the mapping from clicks and commands to actions.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from cogs.boards import results_board, table_board
from cogs.gamecog import GameCog, Refusal, TableContext
from cogs.i18n import t
from cogs.private import PrivateHands
from cogs.ui import Board, reply_ephemeral
from rules.engine import Event, IllegalAction
from storage.database import Database
from storage.leaderboard import Leaderboard, SeatResult
from storage.settings import GuildSettings
from storage.tables import ChannelBusy, Seat, StaleVersion, TableRecord, TableStore

log = logging.getLogger(__name__)

TIMEOUTS_BEFORE_COMPUTER = 3
TURN_TIMEOUT_KEY = "turn_timeout"

Mover = Literal["player", "timeout", "computer"]


def now() -> float:
    """Wall-clock seconds; discord.utils.utcnow follows simcord's virtual clock in tests."""
    return discord.utils.utcnow().timestamp()


@dataclass
class Loaded:
    record: TableRecord
    state: Any | None


@dataclass
class ChannelRuntime:
    """What the process keeps per channel besides the stored table."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    board_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    timer: asyncio.Task[None] | None = None
    refresher: asyncio.Task[None] | None = None
    board_dirty: bool = False
    published_version: int = -1
    last_board_edit: float = float("-inf")


class Tables(commands.Cog):
    def __init__(self, bot: commands.Bot, database: Database, default_timeout: float) -> None:
        self.bot = bot
        self.store = TableStore(database)
        self.leaderboard = Leaderboard(database)
        self.guild_settings = GuildSettings(database)
        self.database = database
        self.default_timeout = default_timeout
        self.games: dict[str, GameCog] = {}
        self._loaded: dict[int, Loaded] = {}
        self._runtime: dict[int, ChannelRuntime] = defaultdict(ChannelRuntime)
        self._background: set[asyncio.Task[Any]] = set()
        self.private = PrivateHands(bot, self.store)

    def register(self, cog: GameCog) -> None:
        self.games[cog.game.id] = cog

    async def cog_load(self) -> None:
        # Timers survive a restart: every pending deadline is armed again (an expired one fires at once).
        for record in await self.store.with_deadlines():
            self._arm_timer(record)

    async def cog_unload(self) -> None:
        for runtime in self._runtime.values():
            for task in (runtime.timer, runtime.refresher):
                if task is not None:
                    task.cancel()
        for task in list(self._background):
            task.cancel()

    # ================================================================ loading

    def _context(self, loaded: Loaded) -> TableContext:
        return TableContext(loaded.record, self.games[loaded.record.game_id].game, loaded.state)

    async def _load(self, channel_id: int) -> Loaded | None:
        """The open table of a channel, from the cache or the database."""
        cached = self._loaded.get(channel_id)
        if cached is not None:
            return cached
        record = await self.store.open_table(channel_id)
        if record is None or record.game_id not in self.games:
            return None
        game = self.games[record.game_id].game
        loaded = Loaded(record, game.load(record.state) if record.state is not None else None)
        self._loaded[channel_id] = loaded
        return loaded

    async def context(self, channel_id: int) -> TableContext | None:
        loaded = await self._load(channel_id)
        return self._context(loaded) if loaded else None

    async def _turn_timeout(self, guild_id: int) -> float:
        value = await self.guild_settings.get(guild_id, TURN_TIMEOUT_KEY)
        return float(value) if value else self.default_timeout

    # ================================================================ lobby

    async def open(self, interaction: discord.Interaction, cog: GameCog, options: dict[str, Any]) -> None:
        """`/<game> new`: open a lobby with the caller seated as host."""
        await self._guarded(interaction, self._open(interaction, cog, options))

    async def _open(self, interaction: discord.Interaction, cog: GameCog, options: dict[str, Any]) -> None:
        guild_id, channel_id = _where(interaction)
        runtime = self._runtime[channel_id]
        async with runtime.lock:
            existing = await self._load(channel_id)
            if existing is not None:
                other = self.games[existing.record.game_id]
                raise Refusal(
                    t("table.busy", interaction.locale, game=other.game.title, group=other.qualified_name)
                )
            defaults = await self.guild_settings.get(guild_id, f"options.{cog.game.id}", {}) or {}
            chosen = {name: values[0] for name, values in cog.game.options.items()}
            chosen.update({k: v for k, v in defaults.items() if k in chosen})
            chosen.update(options)
            record = TableRecord(
                guild_id=guild_id,
                channel_id=channel_id,
                game_id=cog.game.id,
                host_id=interaction.user.id,
                seats=[Seat(interaction.user.id, interaction.user.display_name)],
                options=chosen,
                extra={"locale": str(interaction.guild_locale or interaction.locale)},
            )
            try:
                record = await self.store.create(record, now())
            except ChannelBusy as error:
                raise Refusal(t("table.busy_unknown", interaction.locale)) from error
            loaded = Loaded(record, None)
            self._loaded[channel_id] = loaded
            board = table_board(self._context(loaded), cog)
            await interaction.response.send_message(**board.send_kwargs())
            message = await interaction.original_response()
            record.extra["board"] = message.id
            await self.store.update_extra(record)
            self._runtime[channel_id].published_version = record.version

    async def join(self, interaction: discord.Interaction, game_id: str | None) -> None:
        await self._guarded(interaction, self._lobby_change(interaction, game_id, "join"))

    async def leave(self, interaction: discord.Interaction, game_id: str | None) -> None:
        await self._guarded(interaction, self._lobby_change(interaction, game_id, "leave"))

    async def start(self, interaction: discord.Interaction, game_id: str | None) -> None:
        await self._guarded(interaction, self._lobby_change(interaction, game_id, "start"))

    async def cancel(self, interaction: discord.Interaction, game_id: str | None) -> None:
        await self._guarded(interaction, self._lobby_change(interaction, game_id, "cancel"))

    async def _lobby_change(self, interaction: discord.Interaction, game_id: str | None, what: str) -> None:
        _, channel_id = _where(interaction)
        locale = interaction.locale
        runtime = self._runtime[channel_id]
        async with runtime.lock:
            loaded = await self._load(channel_id)
            if loaded is None or (game_id is not None and loaded.record.game_id != game_id):
                raise Refusal(t("table.none", locale))
            record = loaded.record.copy()
            user = interaction.user
            seat = record.seat_of(user.id)
            cog = self.games[record.game_id]
            note = ""
            if what == "join" and seat is not None and record.seats[seat].computer:
                # A player a computer stood in for takes their seat back.
                record.seats[seat].computer = False
                record.seats[seat].timeouts = 0
                note = t("table.back", locale, name=user.display_name)
            elif what == "join":
                if record.status != "lobby":
                    raise Refusal(t("table.already_started", locale))
                if seat is not None:
                    raise Refusal(t("table.already_seated", locale))
                if len(record.seats) >= cog.game.max_players:
                    raise Refusal(t("table.full", locale, max=cog.game.max_players))
                record.seats.append(Seat(user.id, user.display_name))
                note = t("table.joined", locale, name=user.display_name)
            elif what == "leave":
                if seat is None:
                    raise Refusal(t("table.not_seated", locale))
                if record.status == "lobby":
                    del record.seats[seat]
                    if not record.seats:
                        record.status = "cancelled"
                    elif record.host_id == user.id:
                        record.host_id = record.seats[0].user_id
                    note = t("table.left", locale, name=user.display_name)
                else:
                    record.seats[seat].computer = True
                    note = t("table.left_playing", locale, name=user.display_name, group=cog.qualified_name)
                    if _deserted(record):  # the last player left on purpose: nobody plays on for a result
                        record.status = "abandoned"
                        note = t("table.abandoned", locale)
            elif what == "start":
                if record.status != "lobby":
                    raise Refusal(t("table.already_started", locale))
                if user.id != record.host_id:
                    raise Refusal(t("table.host_only", locale))
                if len(record.seats) < cog.game.min_players:
                    raise Refusal(t("table.too_few", locale, min=cog.game.min_players))
                state = cog.game.new(len(record.seats), secrets.randbits(63), record.options)
                record.state = cog.game.dump(state)
                record.status = "playing"
            elif what == "cancel":
                if not (user.id == record.host_id or _manages_channel(interaction)):
                    raise Refusal(t("table.cancel_refused", locale))
                record.status = "cancelled"
                note = t("table.cancelled", locale, name=user.display_name)
            state = self._state_of(record, cog)
            record.deadline = await self._deadline(record, cog, state)
            await self.store.save(
                record,
                expected_version=loaded.record.version,
                action={"type": what, "user": user.id},
                seat=None,
                now=now(),
            )
            loaded = Loaded(record, state)
            self._remember(loaded)
            board = self._board(self._context(loaded))
            if _clicked_board(interaction, record):
                async with runtime.board_lock:
                    await interaction.response.edit_message(**board.edit_kwargs())
                    runtime.published_version = record.version
                if record.status == "playing":
                    cog.published(self._context(loaded))
            else:
                await interaction.response.send_message(note or t("table.ok", locale), ephemeral=True)
                self._request_board(channel_id)
        self._arm_timer(record)
        if record.status != "lobby":
            self._schedule(self.private.sync(self._context(loaded), cog))

    @staticmethod
    def _state_of(record: TableRecord, cog: GameCog) -> Any | None:
        return cog.game.load(record.state) if record.state is not None else None

    def _remember(self, loaded: Loaded) -> None:
        if loaded.record.is_open:
            self._loaded[loaded.record.channel_id] = loaded
        else:
            self._loaded.pop(loaded.record.channel_id, None)

    async def status(self, interaction: discord.Interaction, game_id: str | None) -> None:
        """Post the board anew at the bottom of the channel; the old one loses its buttons."""
        await self._guarded(interaction, self._status(interaction, game_id))

    async def _status(self, interaction: discord.Interaction, game_id: str | None) -> None:
        _, channel_id = _where(interaction)
        runtime = self._runtime[channel_id]
        async with runtime.lock:
            loaded = await self._load(channel_id)
            if loaded is None or (game_id is not None and loaded.record.game_id != game_id):
                raise Refusal(t("table.none", interaction.locale))
            ctx = self._context(loaded)
            async with runtime.board_lock:
                old = loaded.record.extra.get("board")
                await interaction.response.send_message(**self._board(ctx).send_kwargs())
                message = await interaction.original_response()
                loaded.record.extra["board"] = message.id
                await self.store.update_extra(loaded.record)
                runtime.published_version = loaded.record.version
                if old:
                    await self._retire_message(channel_id, old, t("table.moved", ctx.locale))
        self.games[loaded.record.game_id].published(ctx)

    async def _retire_message(self, channel_id: int, message_id: int, note: str) -> None:
        """An old board keeps its text but loses its buttons, with a pointer to the new one."""
        try:
            message = self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)
            await message.edit(content=note, view=None, attachments=[])
        except discord.HTTPException:
            log.debug("could not retire message %s in %s", message_id, channel_id)

    # ================================================================ components

    async def on_component(
        self,
        interaction: discord.Interaction,
        game_id: str,
        channel_id: int,
        stamp: int,
        payload: str,
        values: list[str],
    ) -> None:
        """Every TableButton / TableSelect click lands here."""
        await self._guarded(
            interaction, self._on_component(interaction, game_id, channel_id, stamp, payload, values)
        )

    async def _on_component(
        self,
        interaction: discord.Interaction,
        game_id: str,
        channel_id: int,
        stamp: int,
        payload: str,
        values: list[str],
    ) -> None:
        kind, _, rest = payload.partition(":")
        locale = interaction.locale
        if kind == "t":
            await self._table_button(interaction, game_id, channel_id, rest)
            return
        cog = self.games.get(game_id)
        loaded = await self._load(channel_id)
        if (
            cog is None
            or loaded is None
            or loaded.record.game_id != game_id
            or loaded.record.status != "playing"
        ):
            raise Refusal(t("table.no_game", locale))
        seat = loaded.record.seat_of(interaction.user.id)
        if seat is None:
            raise Refusal(t("table.not_seated", locale))
        if kind == "a":
            try:
                action = cog.game.decode_action(json.loads(rest or values[0]))
            except (ValueError, IndexError) as error:
                raise Refusal(t("error.illegal", locale, code="malformed_action")) from error
            await self.act(channel_id, interaction.user.id, action, interaction=interaction, stamp=stamp)
        elif kind == "u":
            ctx = self._context(loaded)
            if stamp and stamp != cog.stamp(ctx, seat):
                raise Refusal(t("table.outdated", locale))
            await cog.on_ui(interaction, ctx, seat, rest, values)
        else:
            raise Refusal(t("error.illegal", locale, code="unknown_action"))

    async def _table_button(
        self, interaction: discord.Interaction, game_id: str, channel_id: int, word: str
    ) -> None:
        if word in ("join", "leave", "start", "cancel"):
            await self._lobby_change(interaction, game_id, word)
        elif word == "rematch":
            await self._rematch(interaction, game_id, channel_id)
        elif word == "hand":
            await self.show_private(interaction, game_id)
        else:
            raise Refusal(t("error.illegal", interaction.locale, code="unknown_action"))

    async def show_private(self, interaction: discord.Interaction, game_id: str | None) -> None:
        """The "My hand" / "Open my dice" path: the seat's private board, ephemerally."""
        channel_id = interaction.channel_id
        assert channel_id is not None
        loaded = await self._load(channel_id)
        if (
            loaded is None
            or loaded.record.status != "playing"
            or (game_id and loaded.record.game_id != game_id)
        ):
            raise Refusal(t("table.no_game", interaction.locale))
        seat = loaded.record.seat_of(interaction.user.id)
        if seat is None:
            raise Refusal(t("table.not_seated", interaction.locale))
        cog = self.games[loaded.record.game_id]
        board = cog.render_private(self._context(loaded), seat)
        if board is None:
            raise Refusal(t("table.nothing_private", interaction.locale))
        await interaction.response.send_message(**board.send_kwargs(), ephemeral=True)
        self.private.shown(channel_id, seat, board, interaction)

    def refresh_board(self, channel_id: int) -> None:
        """Ask for the public board to be redrawn from the latest state (edits coalesce)."""
        self._request_board(channel_id)

    def refresh_private(self, channel_id: int) -> None:
        """Bring every seat's DM hand or open panel up to date, in the background."""
        loaded = self._loaded.get(channel_id)
        if loaded is not None:
            self._schedule(self.private.sync(self._context(loaded), self.games[loaded.record.game_id]))

    def _board(self, ctx: TableContext) -> Board:
        return table_board(ctx, self.games[ctx.record.game_id])

    # ================================================================ actions

    async def act_command(self, interaction: discord.Interaction, game_id: str, action: Any) -> None:
        """A game's slash command: the same judgement as a click, answered ephemerally."""
        await self._guarded(interaction, self._act_command(interaction, game_id, action))

    async def _act_command(self, interaction: discord.Interaction, game_id: str, action: Any) -> None:
        _, channel_id = _where(interaction)
        loaded = await self._load(channel_id)
        if loaded is None or loaded.record.game_id != game_id or loaded.record.status != "playing":
            raise Refusal(t("table.no_game", interaction.locale))
        await self.act(channel_id, interaction.user.id, action, interaction=interaction)

    async def act(
        self,
        channel_id: int,
        user_id: int,
        action: Any,
        *,
        interaction: discord.Interaction | None = None,
        stamp: int = 0,
    ) -> list[Event]:
        """Apply one player's action: judged, saved and answered under the channel lock.

        The interaction (if any) is answered by editing the clicked message — the
        board or the player's private message — or, for a slash command, with a
        short ephemeral confirmation. Everything slower comes after the lock.
        """
        locale = interaction.locale if interaction else None
        runtime = self._runtime[channel_id]
        async with runtime.lock:
            loaded = await self._load(channel_id)
            if loaded is None or loaded.record.status != "playing":
                raise Refusal(t("table.no_game", locale))
            cog = self.games[loaded.record.game_id]
            seat = loaded.record.seat_of(user_id)
            if seat is None:
                raise Refusal(t("table.not_seated", locale))
            if stamp and stamp != cog.stamp(self._context(loaded), seat):
                raise Refusal(t("table.outdated", locale))
            try:
                loaded, events = await self._apply(loaded, seat, action, by="player")
            except IllegalAction as error:
                raise Refusal(cog.refusal(error, locale)) from error
            failure: Exception | None = None
            if interaction is not None and not interaction.response.is_done():
                try:
                    await self._answer(interaction, loaded, seat, action)
                except Exception as error:  # the move is committed: the board and timers must follow
                    failure = error
        await self._after(loaded, [(seat, action, events)])
        if failure is not None:
            raise failure
        return events

    async def _apply(
        self, loaded: Loaded, seat: int, action: Any, *, by: Mover
    ) -> tuple[Loaded, list[Event]]:
        """Judge and commit one action; the caller holds the channel lock."""
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
        if finished:
            record.status = "finished"
        record.deadline = await self._deadline(record, cog, state)
        moment = now()
        async with self.database.transaction() as connection:
            await self.store.save(
                record,
                expected_version=loaded.record.version,
                action={**game.encode_action(action), **({"by": by} if by != "player" else {})},
                seat=seat,
                now=moment,
                connection=connection,
            )
            if finished:
                await self.leaderboard.record(
                    connection,
                    table_id=record.id or 0,
                    guild_id=record.guild_id,
                    game_id=record.game_id,
                    results=_results(record, game.scores(state), game.ranking(state)),
                    now=moment,
                )
        result = Loaded(record, state)
        self._remember(result)
        return result, events

    async def _answer(self, interaction: discord.Interaction, loaded: Loaded, seat: int, action: Any) -> None:
        record = loaded.record
        cog = self.games[record.game_id]
        ctx = self._context(loaded)
        runtime = self._runtime[record.channel_id]
        if _clicked_board(interaction, record):
            async with runtime.board_lock:
                await interaction.response.edit_message(**self._board(ctx).edit_kwargs())
                runtime.published_version = record.version
            cog.published(ctx)
        elif interaction.type == discord.InteractionType.component:
            board = cog.render_private(ctx, seat) if record.status == "playing" else None
            if board is None:
                board = Board(content=t("table.private_done", ctx.locale))
            await interaction.response.edit_message(**board.edit_kwargs())
            ephemeral = interaction.message is not None and interaction.message.flags.ephemeral
            self.private.shown(record.channel_id, seat, board, interaction if ephemeral else None)
        else:
            await interaction.response.send_message(
                t("table.done", interaction.locale, what=cog.describe(ctx, seat, action)), ephemeral=True
            )

    async def _after(self, loaded: Loaded, moves: list[tuple[int, Any, list[Event]]]) -> None:
        """After the lock: board, private hands, announcements, results, the next timer."""
        record = loaded.record
        channel_id = record.channel_id
        cog = self.games[record.game_id]
        ctx = self._context(loaded)
        self._request_board(channel_id)
        lines = [line for _, _, events in moves for line in cog.announce(ctx, events)]
        if lines:
            await self._send(channel_id, content="\n".join(lines))
        if record.status == "finished":
            await self._send(channel_id, **results_board(ctx).send_kwargs())
        self._schedule(self.private.sync(ctx, cog))
        self._arm_timer(record)

    # ================================================================ time-outs and computer players

    async def _deadline(self, record: TableRecord, cog: GameCog, state: Any | None) -> float | None:
        if record.status != "playing" or state is None or cog.game.is_over(state):
            return None
        movers = cog.game.to_move(state)
        if any(record.seats[seat].computer for seat in movers):
            # Other seats' moves do not push a pending computer deadline back: in a real-time game a
            # fast human would otherwise keep a computer player from ever acting.
            pending = record.deadline if record.deadline is not None and record.deadline > now() else None
            return min(now() + cog.computer_delay, pending if pending is not None else float("inf"))
        return now() + await self._turn_timeout(record.guild_id)

    def _arm_timer(self, record: TableRecord) -> None:
        runtime = self._runtime[record.channel_id]
        if runtime.timer is not None and runtime.timer is not asyncio.current_task():
            runtime.timer.cancel()
        runtime.timer = None
        if record.deadline is not None and record.status == "playing":
            runtime.timer = asyncio.create_task(self._wait_for_deadline(record.channel_id, record.deadline))

    async def _wait_for_deadline(self, channel_id: int, deadline: float) -> None:
        await asyncio.sleep(max(0.0, deadline - now()))
        try:
            await self._on_deadline(channel_id)
        except Exception:
            log.exception("time-out handling failed in channel %s", channel_id)

    async def _on_deadline(self, channel_id: int) -> None:
        """Computer seats play; or, once the turn time is up, the absent humans get a default move."""
        runtime = self._runtime[channel_id]
        moves: list[tuple[int, Any, list[Event]]] = []
        notices: list[str] = []
        async with runtime.lock:
            loaded = await self._load(channel_id)
            if loaded is None or loaded.record.status != "playing" or loaded.record.deadline is None:
                return
            if loaded.record.deadline > now() + 0.001:
                self._arm_timer(loaded.record)
                return
            cog = self.games[loaded.record.game_id]
            movers = sorted(cog.game.to_move(loaded.state))
            computers = [seat for seat in movers if loaded.record.seats[seat].computer]
            timed_out = not computers
            # Only seats the game is waiting for time out (not a spectator who may, but need not, act).
            absent = [seat for seat in movers if seat in cog.waits_for(self._context(loaded))]
            for seat in computers or absent:
                if loaded.record.status != "playing" or seat not in cog.game.to_move(loaded.state):
                    continue
                # A game may play its computer seats apart from absent humans (Kaiten Sushi: a computer's
                # chopsticks succeed by chance, a timed-out player's never do); default_action otherwise.
                play = getattr(cog.game, "computer_action", None) if not timed_out else None
                action = (play or cog.game.default_action)(loaded.state, seat)
                loaded, events = await self._apply(
                    loaded, seat, action, by="timeout" if timed_out else "computer"
                )
                ctx = self._context(loaded)
                if timed_out:
                    notices.append(
                        t(
                            "table.timed_out",
                            ctx.locale,
                            player=ctx.mention(seat),
                            what=cog.describe(ctx, seat, action),
                        )
                    )
                    if ctx.record.seats[seat].computer:
                        group = cog.qualified_name
                        notices.append(t("table.replaced", ctx.locale, player=ctx.mention(seat), group=group))
                moves.append((seat, action, events))
        if notices:
            await self._send(channel_id, content="\n".join(notices))
        await self._after(loaded, moves)

    # ================================================================ the end and Rematch

    async def _rematch(self, interaction: discord.Interaction, game_id: str, channel_id: int) -> None:
        locale = interaction.locale
        cog = self.games.get(game_id)
        last = await self.store.last_table(channel_id)
        if cog is None or last is None or last.game_id != game_id or last.status != "finished":
            raise Refusal(t("table.no_rematch", locale))
        if all(seat.user_id != interaction.user.id for seat in last.seats):
            raise Refusal(t("table.rematch_players_only", locale))
        runtime = self._runtime[channel_id]
        async with runtime.lock:
            if await self._load(channel_id) is not None:
                raise Refusal(t("table.busy_unknown", locale))
            seats = [Seat(seat.user_id, seat.name) for seat in last.seats]
            record = TableRecord(
                guild_id=last.guild_id,
                channel_id=channel_id,
                game_id=game_id,
                host_id=interaction.user.id,
                seats=seats,
                options=last.options,
                extra={"locale": last.extra.get("locale")},
            )
            try:
                record = await self.store.create(record, now())
            except ChannelBusy as error:
                raise Refusal(t("table.busy_unknown", locale)) from error
            expected = record.version
            state = cog.game.new(len(seats), secrets.randbits(63), record.options)
            record.state = cog.game.dump(state)
            record.status = "playing"
            record.deadline = await self._deadline(record, cog, state)
            await self.store.save(
                record,
                expected_version=expected,
                action={"type": "rematch", "user": interaction.user.id},
                seat=None,
                now=now(),
            )
            loaded = Loaded(record, state)
            self._remember(loaded)
            ctx = self._context(loaded)
            async with runtime.board_lock:
                await interaction.response.send_message(**self._board(ctx).send_kwargs())
                message = await interaction.original_response()
                record.extra["board"] = message.id
                await self.store.update_extra(record)
                runtime.published_version = record.version
        cog.published(ctx)
        self._arm_timer(record)
        self.refresh_private(channel_id)

    # ================================================================ publishing

    def _request_board(self, channel_id: int) -> None:
        """Ask for the public board to show the latest state; edits coalesce (latest wins)."""
        runtime = self._runtime[channel_id]
        runtime.board_dirty = True
        if runtime.refresher is None or runtime.refresher.done():
            runtime.refresher = asyncio.create_task(self._refresh_board(channel_id))

    async def _refresh_board(self, channel_id: int) -> None:
        runtime = self._runtime[channel_id]
        while runtime.board_dirty:
            loaded = self._loaded.get(channel_id) or await self._finished(channel_id)
            if loaded is None:
                runtime.board_dirty = False
                return
            cog = self.games[loaded.record.game_id]
            wait = runtime.last_board_edit + cog.board_refresh_interval - asyncio.get_running_loop().time()
            if wait > 0:
                await asyncio.sleep(wait)
            runtime.board_dirty = False
            try:
                await self._publish_board(channel_id)
            except Exception:
                log.exception("board refresh failed in channel %s", channel_id)
            runtime.last_board_edit = asyncio.get_running_loop().time()

    async def _finished(self, channel_id: int) -> Loaded | None:
        record = await self.store.last_table(channel_id)
        if record is None or record.game_id not in self.games:
            return None
        return Loaded(record, self._state_of(record, self.games[record.game_id]))

    async def _publish_board(self, channel_id: int) -> None:
        runtime = self._runtime[channel_id]
        async with runtime.board_lock:
            loaded = self._loaded.get(channel_id) or await self._finished(channel_id)
            if loaded is None or loaded.record.version <= runtime.published_version:
                return
            ctx = self._context(loaded)
            board = self._board(ctx)
            message_id = loaded.record.extra.get("board")
            channel = self.bot.get_partial_messageable(channel_id)
            edited = False
            if message_id is not None:
                try:
                    await channel.get_partial_message(message_id).edit(**board.edit_kwargs())
                    edited = True
                except discord.NotFound:
                    log.info("board message of channel %s is gone; posting a new one", channel_id)
            if not edited:
                # Drawn anew: the failed edit may already have consumed the board's file attachments.
                message = await channel.send(**self._board(ctx).send_kwargs())
                loaded.record.extra["board"] = message.id
                await self.store.update_extra(loaded.record)
            runtime.published_version = loaded.record.version
        self.games[loaded.record.game_id].published(ctx)

    async def _send(self, channel_id: int, **kwargs: Any) -> None:
        try:
            await self.bot.get_partial_messageable(channel_id).send(**kwargs)
        except discord.HTTPException:
            log.warning("could not post in channel %s", channel_id, exc_info=True)

    def _schedule(self, coroutine: Any) -> None:
        task = asyncio.create_task(coroutine)
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        task.add_done_callback(_log_failure)

    # ================================================================ errors

    async def _guarded(self, interaction: discord.Interaction, coroutine: Any) -> None:
        """Run a request; a Refusal becomes one ephemeral line, anything else an apology."""
        try:
            await coroutine
        except Refusal as refusal:
            await reply_ephemeral(interaction, refusal.text)
        except StaleVersion:
            self._loaded.pop(interaction.channel_id or 0, None)
            await reply_ephemeral(interaction, t("table.outdated", interaction.locale))
        except Exception:
            log.exception(
                "failed handling %s from user %s in channel %s",
                interaction.data,
                interaction.user.id,
                interaction.channel_id,
            )
            await reply_ephemeral(interaction, t("error.unexpected", interaction.locale))


class UsesTables:
    """For the server-wide cogs (/leaderboard, /games, /settings): the running Tables cog and its games."""

    bot: commands.Bot

    @property
    def tables(self) -> Tables:
        tables = self.bot.get_cog("Tables")
        assert isinstance(tables, Tables), "the Tables cog is loaded before every other cog"
        return tables

    def game_choices(self, current: str, *, with_options: bool = False) -> list[app_commands.Choice[str]]:
        """Autocomplete for a `game` option: the games whose title contains what was typed."""
        return [
            app_commands.Choice(name=cog.game.title, value=cog.game.id)
            for cog in self.tables.games.values()
            if current.lower() in cog.game.title.lower() and (cog.game.options or not with_options)
        ][:25]


def _deserted(record: TableRecord) -> bool:
    """Every seat is played by a computer: after the last /leave the game would only play itself.

    (Players who merely time out are stood in for until the end, and keep their result.)
    """
    return all(seat.computer for seat in record.seats)


def _where(interaction: discord.Interaction) -> tuple[int, int]:
    if interaction.guild_id is None or interaction.channel_id is None:
        raise Refusal(t("table.guild_only", interaction.locale))
    return interaction.guild_id, interaction.channel_id


def _manages_channel(interaction: discord.Interaction) -> bool:
    permissions = getattr(interaction.user, "guild_permissions", None)
    channel_permissions = interaction.permissions
    return bool(channel_permissions.manage_channels or (permissions and permissions.manage_channels))


def _clicked_board(interaction: discord.Interaction, record: TableRecord) -> bool:
    return (
        interaction.type == discord.InteractionType.component
        and interaction.message is not None
        and interaction.message.id == record.extra.get("board")
    )


def _results(record: TableRecord, scores: list[int], ranking: list[int]) -> list[SeatResult]:
    return [
        SeatResult(seat=index, user_id=seat.user_id, score=scores[index], rank=ranking[index])
        for index, seat in enumerate(record.seats)
    ]


def _log_failure(task: asyncio.Task[Any]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("background task failed", exc_info=task.exception())


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Tables(bot, bot.database, bot.settings.turn_timeout))  # type: ignore[attr-defined]
