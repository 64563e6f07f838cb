"""Telling players it is their turn: a NEW message, because Discord notifies no mention added by an edit.

A human who owes a move is pinged only once they have not moved within the server's grace delay
(`/settings pings delay:`, 20 s by default): whoever plays along is never pinged, and in a
simultaneous pick one message names only those still owing when the delay runs out. A seat a new
phase needs at once (`GameCog.invites`: a duel they are in starts, a challenge opens) is pinged
without waiting. Nobody is pinged twice for one turn, and a table has one live ping: both are kept
with the table in storage (`slots.py`), so a restart or another process replaces the live ping
instead of adding a second. The pings go to the channel by default, or by DM, or nowhere, as each
player chose (`/notify`), and only where the server keeps pings on (`/settings pings`).

The delays wait on one `Alarms` (a heap of deadlines, one sleeping task) keyed by channel.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Literal

import discord
from discord.ext import commands

from cogs.kit.words.text import game_title, join_list, plural_key
from cogs.tables.context import TableContext, now
from cogs.tables.gamecog import GameCog
from cogs.tables.slots import MessageSlots
from cogs.tables.speaking import for_seat
from cogs.tables.tasks import Background
from cogs.tables.timers import Alarms
from storage.settings import NOTIFY_KEY, PING_DELAY_KEY, PINGS_KEY, GuildSettings, PlayerSettings

log = logging.getLogger(__name__)

DEFAULT_PING_DELAY = 20
MIN_PING_DELAY, MAX_PING_DELAY = 0, 600
NotifyMode = Literal["channel", "dm", "off"]
NOTIFY_MODES: tuple[NotifyMode, ...] = ("channel", "dm", "off")
_EARLY = 0.001  # an alarm may wake a hair before its deadline

Latest = Callable[[int], Awaitable[TableContext | None]]


@dataclass
class _Table:
    """What this process saw of a playing table: since when each human seat has owed its move."""

    table_id: int
    guild_id: int
    cog: GameCog
    version: int = -1  # the table version last noted here
    since: dict[int, float] = field(default_factory=dict)  # owing human seat -> owing since
    pinged: set[int] = field(default_factory=set)  # owing seats already pinged for this turn


class Pinger:
    def __init__(
        self,
        bot: commands.Bot,
        guilds: GuildSettings,
        players: PlayerSettings,
        slots: MessageSlots,
        latest: Latest,
        tasks: Background,
    ) -> None:
        self.bot = bot
        self.guilds = guilds
        self.players = players
        self.slots = slots
        self.latest = latest  # the channel's table as it stands now (another process may have moved it)
        self._tables: dict[int, _Table] = {}
        self._delays: dict[int, float] = {}  # guild -> its grace delay, as last read
        self._alarms = Alarms()
        self.tasks = tasks  # the machinery's background work (a ping in flight is cancelled with it)

    def close(self) -> None:
        self._alarms.close()

    def note(
        self,
        ctx: TableContext,
        cog: GameCog,
        actor: int | None = None,
        moved: frozenset[int] = frozenset(),
        since: float | None = None,
    ) -> None:
        """The table changed: the humans who now owe a move start their grace delay (those who just
        moved, `moved`, start a new one), the seats `invites` names are pinged at once, and a table
        that closed takes its live ping away. `since`: when the current turns began, if not now
        (a table met after a restart: at its last move). `actor`, who made the change, is in
        `moved` or starts a turn now like everyone else."""
        channel_id = ctx.channel_id
        record = ctx.record
        if not record.is_open:
            self._tables.pop(channel_id, None)
            self._alarms.disarm(channel_id)
            self.tasks.schedule(self._retire(channel_id, record.id or 0))
            return
        if record.status != "playing" or ctx.state is None:
            return
        table = self._tables.get(channel_id)
        if table is None or table.table_id != record.id:
            table = self._tables[channel_id] = _Table(record.id or 0, record.guild_id, cog)
        owing = _humans(ctx, cog.waits_for(ctx))
        at = now() if since is None else since
        for seat in list(table.since):
            if seat not in owing or seat in moved:  # their turn is over: a later one is a new turn
                del table.since[seat]
                table.pinged.discard(seat)
        for seat in owing:
            table.since.setdefault(seat, at)
        table.version = record.version
        invited = _humans(ctx, cog.invites(ctx))
        if invited:
            self.tasks.schedule(self._ping(channel_id, ctx, table, invited, invitation=True))
        self._arm(channel_id, table)

    def forget_delay(self, guild_id: int) -> None:
        """The server chose another delay: read it again at the next turn."""
        self._delays.pop(guild_id, None)

    # ================================================================ the grace delay

    def _arm(self, channel_id: int, table: _Table) -> None:
        waiting = [at for seat, at in table.since.items() if seat not in table.pinged]
        if not waiting:
            self._alarms.disarm(channel_id)
            return
        # A delay not read yet wakes at once to read it (once per server), then sleeps the rest.
        delay = self._delays.get(table.guild_id, 0.0)
        self._alarms.arm(channel_id, min(waiting) + delay, partial(self._delay_over, channel_id))

    async def _delay_over(self, channel_id: int) -> None:
        table = self._tables.get(channel_id)
        if table is None:
            return
        delay = float(await self.guilds.get(table.guild_id, PING_DELAY_KEY, DEFAULT_PING_DELAY))
        self._delays[table.guild_id] = delay
        ctx = await self.latest(channel_id)  # read last: nothing is awaited between it and the pinging
        if ctx is None or ctx.record.id != table.table_id or self._tables.get(channel_id) is not table:
            return
        record = ctx.record
        if not record.is_open or record.status != "playing" or ctx.state is None:
            return  # whoever closed it noted it, or will
        if record.version < table.version:
            return  # noted anew meanwhile, and armed again
        if record.version > table.version:
            # Moved where this process did not see it (another process): nothing is known here of
            # when its turns began but that it was not before that move.
            table.since.clear()
            table.pinged.clear()
            self.note(ctx, table.cog, since=record.updated_at)
            return
        moment = now() + _EARLY
        due = {seat for seat, at in table.since.items() if seat not in table.pinged and at + delay <= moment}
        if due:
            await self._ping(channel_id, ctx, table, frozenset(due))
        if self._tables.get(channel_id) is table and table.version == record.version:
            self._arm(channel_id, table)

    # ================================================================ sending

    async def _ping(
        self,
        channel_id: int,
        ctx: TableContext,
        table: _Table,
        seats: frozenset[int],
        *,
        invitation: bool = False,
    ) -> None:
        """Ping `seats` unless someone (maybe another process) already did this turn (an invitation:
        at this version)."""
        table.pinged |= seats & table.since.keys()
        try:
            if not await self.guilds.get(ctx.record.guild_id, PINGS_KEY, True):
                return
            claimed = await self.slots.claim_pings(
                table.table_id, sorted(seats), ctx.record.version, invitation=invitation
            )
            if claimed:
                await self._send(ctx, table, claimed)
        except (discord.NotFound, discord.Forbidden) as gone:  # the channel was deleted or closed to us
            log.warning("turn ping in channel %s cannot be sent: %s", channel_id, gone)
        except Exception:
            log.exception("turn ping failed in channel %s", channel_id)

    async def _send(self, ctx: TableContext, table: _Table, seats: list[int]) -> None:
        in_channel: list[int] = []
        for seat in seats:
            mode = await self.players.get(ctx.record.seats[seat].user_id, NOTIFY_KEY, "channel")
            if mode == "dm" and await self._dm(ctx, seat):
                continue
            if mode != "off":
                in_channel.append(seat)  # a DM that cannot be delivered falls back to the channel
        if not in_channel:
            return
        users = [discord.Object(ctx.record.seats[seat].user_id) for seat in in_channel]
        text = ctx.t(
            plural_key("ping.turn", len(in_channel), ctx.locale),  # "du bist dran" / "ihr seid dran"
            players=join_list(map(ctx.ping, in_channel), ctx.locale, style="comma"),
            game=game_title(ctx.game, ctx.locale),
        )
        channel = self.bot.get_partial_messageable(ctx.channel_id)
        message = await channel.send(
            text, allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=users)
        )
        await self._delete(ctx.channel_id, await self.slots.keep_ping(table.table_id, message.id))

    async def _dm(self, ctx: TableContext, seat: int) -> bool:
        user_id = ctx.record.seats[seat].user_id
        try:
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            mine = await for_seat(self.bot, ctx, seat)  # a DM: the player's own language
            await user.send(
                mine.t("ping.turn_dm", game=game_title(ctx.game, mine.locale), channel=f"<#{ctx.channel_id}>")
            )
        except discord.HTTPException:
            return False
        return True

    async def _retire(self, channel_id: int, table_id: int) -> None:
        """The game is over: its live ping goes (whichever process posted it)."""
        try:
            await self._delete(channel_id, await self.slots.drop_pings(table_id))
        except Exception:
            log.exception("could not take the turn ping down in channel %s", channel_id)

    async def _delete(self, channel_id: int, messages: list[int]) -> None:
        channel = self.bot.get_partial_messageable(channel_id)
        for message in messages:
            try:
                await channel.get_partial_message(message).delete()
            except discord.HTTPException:
                log.debug("could not delete ping %s in channel %s", message, channel_id)


def _humans(ctx: TableContext, seats: frozenset[int]) -> frozenset[int]:
    """The seats a person plays (computers and stand-ins get no pings)."""
    return frozenset(
        seat for seat in seats if ctx.record.seats[seat].human and not ctx.record.seats[seat].computer
    )
