"""The Tables cog: every table of the process, and the one pipeline a move goes through.

One move, end to end: lock the channel -> load the table -> `game.apply` -> storage commits the
state, the action and (at the end) the results in one transaction -> answer the interaction ->
then, outside the lock, refresh the board, the private hands and the timer.

The lobby's decisions are `lobby.py`, the board's messages `publish.py`, DMs and panels
`private.py`, deadlines `timers.py`; refusals and failures are answered by `errors.py`.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import defaultdict
from dataclasses import dataclass
from typing import Any, Literal, cast

import discord
from discord import app_commands
from discord.ext import commands

from cogs.i18n import t
from cogs.tables.boards import results_board
from cogs.tables.context import TableContext, now
from cogs.tables.errors import Refusal, answer_failure
from cogs.tables.gamecog import ActionFor, GameCog
from cogs.tables.lobby import LOBBY_MOVES, LobbyMove, Member, change, options_for
from cogs.tables.pings import Pinger
from cogs.tables.private import PrivateHands
from cogs.tables.publish import Publisher
from cogs.tables.slots import MessageSlots
from cogs.tables.timers import Timers
from cogs.tables.ui import Board
from rules.engine import Event
from storage.database import Database
from storage.leaderboard import Leaderboard, SeatResult
from storage.settings import GuildSettings, PlayerSettings
from storage.tables import ChannelBusy, Seat, StaleVersion, TableRecord, TableStore

log = logging.getLogger(__name__)

TIMEOUTS_BEFORE_COMPUTER = 3
RECOVER_RECENT = 3600.0  # seconds: tables active this recently are brought up to date at start-up

Mover = Literal["player", "timeout", "computer"]
Move = tuple[int, Any, list[Event]]  # seat, action, the events it caused


@dataclass
class Loaded:
    record: TableRecord
    state: Any | None


class Tables(commands.Cog):
    def __init__(self, bot: commands.Bot, database: Database, default_timeout: float) -> None:
        self.bot = bot
        self.store = TableStore(database)
        self.guild_settings = GuildSettings(database)
        self.leaderboard = Leaderboard(database)
        self.games: dict[str, GameCog] = {}
        self._loaded: dict[int, Loaded] = {}
        self._locks: dict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._background: set[asyncio.Task[Any]] = set()
        slots = MessageSlots(self.store)
        self.publisher = Publisher(bot, slots, self.games, self._latest)
        self.private = PrivateHands(bot, slots)
        self.timers = Timers(self.guild_settings, default_timeout, self._on_deadline)
        self.player_settings = PlayerSettings(database)
        self.pinger = Pinger(bot, self.guild_settings, self.player_settings)

    def register(self, cog: GameCog) -> None:
        self.games[cog.game.id] = cog

    @property
    def default_timeout(self) -> float:
        return self.timers.default_timeout

    async def cog_load(self) -> None:
        # Timers survive a restart: every pending deadline is armed again (an expired one fires at once).
        recent: list[int] = []
        for record in await self.store.with_deadlines():
            self.timers.arm(record)
            if record.updated_at > now() - RECOVER_RECENT:
                recent.append(record.channel_id)
        self._schedule(self._recover(recent))

    async def _recover(self, channel_ids: list[int]) -> None:
        """After a restart, recently active tables show their stored state at once: a crash between a
        commit and its board edit or DMs leaves nothing stale. Older tables catch up on first contact."""
        await self.bot.wait_until_ready()
        for channel_id in channel_ids:
            await self._load(channel_id)

    async def cog_unload(self) -> None:
        self.timers.close()
        self.publisher.close()
        self.pinger.close()
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
        loaded = Loaded(record, self._state_of(record))
        self._loaded[channel_id] = loaded
        if record.status == "playing":
            # First contact in this process: the board and private controls may show an older state
            # (the last process may have died between a commit and its edits). Bring them up to date.
            ctx, cog = self._context(loaded), self.games[record.game_id]
            self.publisher.request(channel_id)
            self._schedule(self.private.sync(ctx, cog))
            self.pinger.note(ctx, cog)
        return loaded

    def _state_of(self, record: TableRecord) -> Any | None:
        return self.games[record.game_id].game.load(record.state) if record.state is not None else None

    def _remember(self, loaded: Loaded) -> None:
        if loaded.record.is_open:
            self._loaded[loaded.record.channel_id] = loaded
        else:
            self._loaded.pop(loaded.record.channel_id, None)

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

    async def _table(self, interaction: discord.Interaction, game_id: str | None, *, playing: bool) -> Loaded:
        """The caller's open table (of `game_id`, playing if asked), or the reason there is none."""
        _, channel_id = _where(interaction)
        loaded = await self._load(channel_id)
        if loaded is None:
            raise Refusal("table.none" if not playing else "table.no_game")
        if game_id is not None and loaded.record.game_id != game_id:
            other = self.games[loaded.record.game_id]
            raise Refusal("table.other_game", other=other.game.title, other_group=other.group)
        if playing and loaded.record.status != "playing":
            raise Refusal("table.not_started")
        return loaded

    # ================================================================ the lobby

    async def open(self, interaction: discord.Interaction, cog: GameCog, options: dict[str, Any]) -> None:
        """`/<game> new`: open a lobby with the caller seated as host."""
        guild_id, channel_id = _where(interaction)
        async with self._locks[channel_id]:
            defaults = await self.guild_settings.get(guild_id, f"options.{cog.game.id}", {}) or {}
            locale = str(interaction.guild_locale or interaction.locale)
            await self._open_lobby(interaction, cog, options_for(cog.game, defaults, options), locale)

    async def _open_lobby(
        self, interaction: discord.Interaction, cog: GameCog, options: dict[str, Any], locale: str | None
    ) -> TableContext:
        """A new lobby in the interaction's channel, the caller seated as host; the caller holds the lock."""
        guild_id, channel_id = _where(interaction)
        existing = await self._load(channel_id)
        if existing is not None:
            other = self.games[existing.record.game_id]
            raise Refusal("table.busy", game=other.game.title, group=other.group)
        record = TableRecord(
            guild_id=guild_id,
            channel_id=channel_id,
            game_id=cog.game.id,
            host_id=interaction.user.id,
            seats=[Seat(interaction.user.id, interaction.user.display_name)],
            options=options,
            extra={"locale": locale},
        )
        try:
            record = await self.store.create(record, now())
        except ChannelBusy as error:
            raise Refusal("table.busy_unknown") from error
        loaded = Loaded(record, None)
        self._loaded[channel_id] = loaded
        ctx = self._context(loaded)
        await self.publisher.post(ctx, interaction)
        return ctx

    async def lobby(self, interaction: discord.Interaction, game_id: str | None, what: str) -> None:
        """Join, leave, start or cancel — by slash command or by the lobby's buttons."""
        if what not in LOBBY_MOVES:
            raise Refusal("error.unknown_action")
        move = cast(LobbyMove, what)
        _, channel_id = _where(interaction)
        async with self._locks[channel_id]:
            before = await self._table(interaction, game_id, playing=False)
            cog = self.games[before.record.game_id]
            record = before.record.copy()
            member = Member(interaction.user.id, interaction.user.display_name, _manages_channel(interaction))
            note = change(record, cog.game, move, member, cog.group)
            state = self._state_of(record)
            record.deadline = await self.timers.deadline(record, cog, state)
            await self._save(
                record,
                expected_version=before.record.version,
                action={"type": move, "user": member.user_id, **note.logged},
            )
            loaded = Loaded(record, state)
            self._remember(loaded)
            ctx = self._context(loaded)
            if await self.publisher.is_board(interaction, ctx):
                await self.publisher.answer_with_board(interaction, ctx)
            else:
                text = t(note.key or "table.ok", interaction.locale, **note.params)
                await interaction.response.send_message(text, ephemeral=True)
                self.publisher.request(channel_id)
        if note.key:  # what concerns everyone at the table is said in the channel too
            await self.publisher.send(channel_id, content=ctx.t(note.key, **note.params))
        self.timers.arm(record)
        if record.status != "lobby":
            self._schedule(self.private.sync(ctx, cog))
            self.pinger.note(ctx, cog, actor=record.seat_of(member.user_id) if move == "start" else None)

    async def status(self, interaction: discord.Interaction, game_id: str | None) -> None:
        """Post the board anew at the bottom of the channel; the old one loses its buttons."""
        _, channel_id = _where(interaction)
        async with self._locks[channel_id]:
            loaded = await self._table(interaction, game_id, playing=False)
            ctx = self._context(loaded)
            old = await self.publisher.post(ctx, interaction)
            if old is not None:
                await self.publisher.retire(channel_id, old, ctx.t("table.moved"))

    async def rematch(self, interaction: discord.Interaction, game_id: str) -> None:
        """The Rematch button under a result: a new lobby with the same options, the caller as host;
        the other players of the last game are asked to join."""
        _, channel_id = _where(interaction)
        cog = self.games.get(game_id)
        last = await self.store.last_table(channel_id)
        if cog is None or last is None or last.game_id != game_id or last.status != "finished":
            raise Refusal("table.no_rematch")
        if last.seat_of(interaction.user.id) is None:
            raise Refusal("table.rematch_players_only")
        async with self._locks[channel_id]:
            ctx = await self._open_lobby(interaction, cog, last.options, last.extra.get("locale"))
        others = [seat.user_id for seat in last.seats if seat.user_id != interaction.user.id]
        text = ctx.t(
            "table.rematch_asked",
            host=f"<@{interaction.user.id}>",
            players=", ".join(f"<@{user}>" for user in others),
            game=cog.game.title,
        )
        await self.publisher.send(channel_id, content=text, allowed_mentions=_pinging(others))

    # ================================================================ clicks

    async def on_component(
        self,
        interaction: discord.Interaction,
        game_id: str,
        channel_id: int,
        stamp: int,
        payload: str,
        values: list[str],
    ) -> None:
        """Every TableButton / TableSelect click lands here; whatever fails is answered in one line."""
        try:
            await self._on_component(interaction, game_id, channel_id, stamp, payload, values)
        except Exception as error:
            await answer_failure(interaction, error)

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
        if kind == "t":
            if rest == "rematch":
                await self.rematch(interaction, game_id)
            elif rest == "hand":
                await self.show_private(interaction, game_id)
            else:
                await self.lobby(interaction, game_id, rest)
            return
        cog = self.games.get(game_id)
        loaded = await self._load(channel_id)
        if (
            cog is None
            or loaded is None
            or loaded.record.game_id != game_id
            or loaded.record.status != "playing"
        ):
            raise Refusal("table.no_game")
        seat = loaded.record.seat_of(interaction.user.id)
        if seat is None:
            raise Refusal("table.not_seated")
        if kind == "a":
            try:
                data = json.loads(rest or values[0])
            except (ValueError, IndexError) as error:
                raise Refusal("error.malformed_action") from error
            action = cog.game.decode_action(data)
            await self.act(channel_id, interaction.user.id, action, interaction=interaction, stamp=stamp)
        elif kind == "u":
            ctx = self._context(loaded)
            if stamp and stamp != cog.stamp(ctx, seat):
                raise Refusal("table.outdated")
            await cog.on_ui(interaction, ctx, seat, rest, values)
        else:
            raise Refusal("error.unknown_action")

    async def show_private(self, interaction: discord.Interaction, game_id: str | None) -> None:
        """The "My hand" / "Open my dice" path: the seat's private board, ephemerally."""
        loaded = await self._table(interaction, game_id, playing=True)
        seat = loaded.record.seat_of(interaction.user.id)
        if seat is None:
            raise Refusal("table.not_seated")
        board = self.games[loaded.record.game_id].render_private(self._context(loaded), seat)
        if board is None:
            raise Refusal("table.nothing_private")
        await interaction.response.send_message(**board.send_kwargs(), ephemeral=True)
        await self.private.shown(self._context(loaded), seat, board, interaction, opened=True)

    def refresh_board(self, channel_id: int) -> None:
        """Ask for the public board to be redrawn from the latest state (edits coalesce)."""
        self.publisher.request(channel_id)

    def refresh_private(self, channel_id: int) -> None:
        """Bring every seat's DM hand or open panel up to date, in the background."""
        loaded = self._loaded.get(channel_id)
        if loaded is not None:
            self._schedule(self.private.sync(self._context(loaded), self.games[loaded.record.game_id]))

    # ================================================================ moves

    async def act_command(
        self, interaction: discord.Interaction, game_id: str, action: Any | ActionFor
    ) -> None:
        """A game's slash command: the same judgement as a click, answered ephemerally.

        `action` may be a callable building the action from the caller's table and seat.
        """
        loaded = await self._table(interaction, game_id, playing=True)
        if callable(action):
            seat = loaded.record.seat_of(interaction.user.id)
            if seat is None:
                raise Refusal("table.not_seated")
            action = action(self._context(loaded), seat)
        await self.act(loaded.record.channel_id, interaction.user.id, action, interaction=interaction)

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
        if finished:
            record.status = "finished"
        record.deadline = await self.timers.deadline(record, cog, state)
        await self._save(
            record,
            expected_version=loaded.record.version,
            action={**game.encode_action(action), **({"by": by} if by != "player" else {})},
            seat=seat,
            results=_results(record, game.scores(state), game.ranking(state)) if finished else None,
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
            board = cog.render_private(ctx, seat) if record.status == "playing" else None
            if board is None:
                board = Board(content=ctx.t("table.private_done"))
            await interaction.response.edit_message(**board.edit_kwargs())
            ephemeral = interaction.message is not None and interaction.message.flags.ephemeral
            await self.private.shown(ctx, seat, board, interaction if ephemeral else None)
        else:
            text = t("table.done", interaction.locale, what=cog.describe(ctx, seat, action))
            await interaction.response.send_message(text, ephemeral=True)

    async def _after(self, loaded: Loaded, moves: list[Move], *, actor: int | None = None) -> None:
        """After the lock: board, announcements, results, private hands, turn pings, the next timer."""
        record = loaded.record
        cog = self.games[record.game_id]
        ctx = self._context(loaded)
        self.publisher.request(record.channel_id)
        lines = [line for _, _, events in moves for line in cog.announce(ctx, events)]
        if lines:
            await self.publisher.send(record.channel_id, content="\n".join(lines))
        if record.status == "finished":
            players = [seat.user_id for seat in record.seats if not seat.computer]
            results = results_board(ctx, cog).send_kwargs()
            await self.publisher.send(record.channel_id, **results, allowed_mentions=_pinging(players))
        self._schedule(self.private.sync(ctx, cog))
        self.pinger.note(ctx, cog, actor)
        self.timers.arm(record)

    # ================================================================ time-outs and computer players

    async def _on_deadline(self, channel_id: int) -> None:
        """Computer seats play; or, once the turn time is up, the absent humans get a default move."""
        moves: list[Move] = []
        notices: list[str] = []
        replaced: list[int] = []  # users whose seat a computer takes: told so with a ping
        async with self._locks[channel_id]:
            loaded = await self._load(channel_id)
            if loaded is None or loaded.record.status != "playing" or loaded.record.deadline is None:
                return
            if loaded.record.deadline > now() + 0.001:
                self.timers.arm(loaded.record)
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
                loaded, events = await self._commit(
                    loaded, seat, action, by="timeout" if timed_out else "computer"
                )
                ctx = self._context(loaded)
                if timed_out:
                    what = cog.describe(ctx, seat, action)
                    if ctx.record.seats[seat].computer:  # the third time-out in a row
                        notices.append(
                            ctx.t("table.replaced", player=ctx.ping(seat), what=what, group=cog.group)
                        )
                        replaced.append(ctx.record.seats[seat].user_id)
                    else:
                        notices.append(ctx.t("table.timed_out", player=ctx.ping(seat), what=what))
                moves.append((seat, action, events))
        if notices:
            await self.publisher.send(
                channel_id, content="\n".join(notices), allowed_mentions=_pinging(replaced)
            )
        await self._after(loaded, moves)

    # ================================================================ background work

    def _schedule(self, coroutine: Any) -> None:
        task = asyncio.create_task(coroutine)
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        task.add_done_callback(_log_failure)


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


def _pinging(users: list[int]) -> discord.AllowedMentions:
    """Mentions that notify exactly these users (the bot's default notifies nobody)."""
    return discord.AllowedMentions(
        everyone=False, roles=False, users=[discord.Object(user) for user in users]
    )


def _where(interaction: discord.Interaction) -> tuple[int, int]:
    if interaction.guild_id is None or interaction.channel_id is None:
        raise Refusal("table.guild_only")
    return interaction.guild_id, interaction.channel_id


def _manages_channel(interaction: discord.Interaction) -> bool:
    permissions = getattr(interaction.user, "guild_permissions", None)
    return bool(interaction.permissions.manage_channels or (permissions and permissions.manage_channels))


def _results(record: TableRecord, scores: list[int], ranking: list[int]) -> list[SeatResult]:
    return [
        SeatResult(seat=index, user_id=seat.user_id, score=scores[index], rank=ranking[index])
        for index, seat in enumerate(record.seats)
    ]


def _log_failure(task: asyncio.Task[Any]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("background task failed", exc_info=task.exception())
