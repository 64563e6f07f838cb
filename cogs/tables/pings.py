"""Telling players it is their turn: a NEW message, because Discord notifies no mention added by an edit.

When a move makes humans owe a move who did not owe one before (their turn, a pick, a duel), they
are pinged: in the channel by default — one live ping message per table, the previous one
deleted — or by DM, or not at all, as each player chose (`/notify`), and only where the server
keeps pings on (`/settings pings`). Pings of one moment are sent together.
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Literal

import discord
from discord.ext import commands

from cogs.i18n import game_title, join_list
from cogs.tables.context import TableContext
from cogs.tables.gamecog import GameCog
from cogs.tables.language import for_seat
from storage.settings import GuildSettings, PlayerSettings

log = logging.getLogger(__name__)

PINGS_KEY = "pings"  # server setting: False turns turn pings off
NOTIFY_KEY = "notify"  # player setting: how they are told it is their turn
NotifyMode = Literal["channel", "dm", "off"]
NOTIFY_MODES: tuple[NotifyMode, ...] = ("channel", "dm", "off")


@dataclass
class _Table:
    owing: frozenset[int] = frozenset()  # human seats the game waits for, as last seen
    pending: set[int] = field(default_factory=set)  # seats to ping at the next send
    ctx: TableContext | None = None
    message: int | None = None  # the live ping message in the channel
    sender: asyncio.Task[None] | None = None


class Pinger:
    def __init__(self, bot: commands.Bot, guilds: GuildSettings, players: PlayerSettings) -> None:
        self.bot = bot
        self.guilds = guilds
        self.players = players
        self._tables: dict[int, _Table] = defaultdict(_Table)

    def close(self) -> None:
        for table in self._tables.values():
            if table.sender is not None:
                table.sender.cancel()

    def note(
        self, ctx: TableContext, cog: GameCog, actor: int | None = None, moved: frozenset[int] = frozenset()
    ) -> None:
        """The table changed: ping the humans who now owe a move and did not before (not the actor).

        `moved` are the seats that just moved (also by time-out): owing again afterwards is a new turn.
        """
        table = self._tables[ctx.channel_id]
        playing = ctx.record.status == "playing" and ctx.state is not None
        owing = frozenset(
            seat
            for seat in (cog.waits_for(ctx) if playing else ())
            if ctx.record.seats[seat].human and not ctx.record.seats[seat].computer
        )
        fresh = owing - (table.owing - moved) - {actor}
        table.owing = owing
        table.ctx = ctx
        table.pending = (table.pending & owing) | fresh  # a pending ping to someone who moved is moot
        if (table.pending or not playing) and (table.sender is None or table.sender.done()):
            table.sender = asyncio.create_task(self._send(ctx.channel_id))

    async def _send(self, channel_id: int) -> None:
        await asyncio.sleep(0)  # let the pings of one moment gather
        table = self._tables[channel_id]
        ctx, seats = table.ctx, sorted(table.pending)
        table.ctx, table.pending = None, set()  # an idle table's state must not stay alive here
        if ctx is None:
            return
        try:
            await self._retire(channel_id, table)
            if not ctx.record.is_open:
                self._tables.pop(channel_id, None)
                return
            if seats and await self.guilds.get(ctx.record.guild_id, PINGS_KEY, True):
                await self._ping(ctx, table, seats)
        except (discord.NotFound, discord.Forbidden) as gone:  # the channel was deleted or closed to us
            log.warning("turn ping in channel %s cannot be sent: %s", channel_id, gone)
        except Exception:
            log.exception("turn ping failed in channel %s", channel_id)
        if table.pending and table.ctx is not None:  # noted while this one was sending
            table.sender = asyncio.create_task(self._send(channel_id))

    async def _ping(self, ctx: TableContext, table: _Table, seats: list[int]) -> None:
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
            "ping.turn",
            players=join_list(map(ctx.ping, in_channel), ctx.locale, style="comma"),
            game=game_title(ctx.game, ctx.locale),
        )
        message = await self.bot.get_partial_messageable(ctx.channel_id).send(
            text, allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=users)
        )
        table.message = message.id

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

    async def _retire(self, channel_id: int, table: _Table) -> None:
        """At most one live ping per table: the previous one goes when a new one comes or the game ends."""
        if table.message is None:
            return
        message, table.message = table.message, None
        try:
            await self.bot.get_partial_messageable(channel_id).get_partial_message(message).delete()
        except discord.HTTPException:
            log.debug("could not delete ping %s in channel %s", message, channel_id)
