"""Private hands and panels: DM first, an ephemeral "My hand" / "Open my dice" message as fallback.

A seat's private board is drawn again only when what it is drawn from changed (the cog's
`private_key`, with the table's seats and status and the seat's language), and sent again only
when the drawing changed (a digest per seat): another player's move costs a seat nothing. A DM is
edited in place turn after turn (its DM channel remembered: an edit is one request); its message
id lives in the table's message slots, written by its own statement, so a move committed while a
DM is on its way never loses it. When Discord refuses a DM (50007) the seat is marked and the
player uses the board's button, whose ephemeral message is then kept up to date through its
interaction token.

Everything private speaks the seat's player's language (`/language`, else the table's).
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from dataclasses import dataclass, field

import discord
from discord.ext import commands

from cogs.kit.messages import Board, edit_message
from cogs.kit.words.text import game_title
from cogs.tables.context import PV, A, S, TableContext, V, now
from cogs.tables.gamecog import GameCog
from cogs.tables.publish import digest
from cogs.tables.slots import MessageSlots, dm_slot
from cogs.tables.speaking import for_seat

log = logging.getLogger(__name__)

DM_CLOSED = 50007  # Discord: "Cannot send messages to this user"
PANEL_LIFETIME = 14 * 60
"""Seconds a panel is edited through its interaction's token: Discord's tokens last 15 minutes, so an
older panel is let go (the board's button opens a new one) instead of failing on every move."""


@dataclass
class _Seats:
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    panels: dict[int, discord.Interaction] = field(default_factory=dict)
    since: dict[int, float] = field(default_factory=dict)  # when each panel's interaction came
    digests: dict[int, str] = field(default_factory=dict)
    keys: dict[int, object] = field(default_factory=dict)  # what each seat's board was drawn from
    away: set[int] = field(default_factory=set)  # seats a computer plays, told so in their DM/panel


class PrivateHands:
    def __init__(self, bot: commands.Bot, slots: MessageSlots, games: dict[str, GameCog]) -> None:
        self.bot = bot
        self.slots = slots
        self.games = games
        self._channels: dict[int, _Seats] = defaultdict(_Seats)
        self._dm_channels: dict[int, int] = {}  # user -> their DM channel: no user lookup per edit

    def forget_drawings(self, channel_id: int) -> None:
        """The table leaves memory for a while: drop what its boards were drawn from (views), keep the
        small digests, so a table loaded again redraws a seat's board but resends only what changed."""
        seats = self._channels.get(channel_id)
        if seats is not None:
            seats.keys.clear()

    async def key(self, ctx: TableContext, seat: int) -> object:
        """What the seat's private board is drawn from; equal keys draw equal boards."""
        mine = await self.for_seat(ctx, seat)
        return _key(mine, self.games[ctx.record.game_id], seat)

    async def shown(
        self,
        ctx: TableContext,
        seat: int,
        board: Board,
        interaction: discord.Interaction | None,
        *,
        opened: bool = False,
    ) -> None:
        """The seat now sees `board`: a click on its DM or panel was answered, or a panel `opened`.

        The latest interaction on a panel keeps it up to date. One live panel per seat: a panel
        opened anew retires the one before it.
        """
        seats = self._channels[ctx.channel_id]
        seats.digests[seat] = digest(board)
        if ctx.record.status == "playing":
            seats.keys[seat] = await self.key(ctx, seat)
        if interaction is None:
            return
        old = seats.panels.get(seat)
        old_since = seats.since.get(seat, 0.0)
        seats.panels[seat], seats.since[seat] = interaction, now()
        if opened and old is not None and now() - old_since < PANEL_LIFETIME:
            said = (await self.for_seat(ctx, seat)).t("table.private_moved")
            await self._refresh_panel(old, Board(content=said))

    async def for_seat(self, ctx: TableContext, seat: int) -> TableContext:
        """The table worded in the seat's player's language, for their DM or panel."""
        return await for_seat(self.bot, ctx, seat)

    async def render(
        self, ctx: TableContext[S, A, V, PV], cog: GameCog[S, A, V, PV], seat: int
    ) -> Board | None:
        """The seat's private board, in its player's language."""
        return cog.render_private(await self.for_seat(ctx, seat), seat)

    async def sync(self, ctx: TableContext[S, A, V, PV], cog: GameCog[S, A, V, PV]) -> None:
        """Bring every human seat's private board up to date; an ended game closes them."""
        if cog.private_mode == "none":
            return
        if not ctx.record.is_open:
            await self.close(ctx)
            return
        seats = self._channels[ctx.channel_id]
        async with seats.lock:
            for seat, seat_record in enumerate(ctx.record.seats):
                if not seat_record.human:  # a computer player added at the table: nobody to tell
                    continue
                if seat_record.computer:
                    # The player left or timed out three times: their controls say so, once.
                    if seat not in seats.away:
                        seats.away.add(seat)
                        seats.digests.pop(seat, None)
                        seats.keys.pop(seat, None)
                        mine = await self.for_seat(ctx, seat)
                        title = game_title(ctx.game, mine.locale)
                        where = ctx.channel_id  # the table's channel or thread, where joining takes it back
                        away = mine.t("table.private_away", game=title, group=cog.group, channel=where)
                        await self._show(ctx, cog, seats, seat, Board(content=away))
                    continue
                seats.away.discard(seat)
                mine = await self.for_seat(ctx, seat)
                key = _key(mine, cog, seat)
                if seats.keys.get(seat) == key or not await self._reachable(ctx, cog, seats, seat):
                    continue  # drawn from the same things (the seat sees it already), or nowhere to show it
                board = cog.render_private(mine, seat)
                if board is None:
                    continue
                fingerprint = digest(board)
                if seats.digests.get(seat) == fingerprint or await self._show(ctx, cog, seats, seat, board):
                    seats.digests[seat] = fingerprint
                    seats.keys[seat] = key

    async def _show(self, ctx: TableContext, cog: GameCog, seats: _Seats, seat: int, board: Board) -> bool:
        """The seat's DM if the game uses DMs and it can be delivered, else its open panel."""
        delivered = cog.private_mode == "dm" and await self._deliver_dm(ctx, seat, board)
        if not delivered and seat in seats.panels:
            delivered = await self._panel(seats, seat, board)
        return delivered

    async def _panel(self, seats: _Seats, seat: int, board: Board) -> bool:
        """Edit the seat's open panel; one whose token has expired (or that Discord refuses) is let go,
        never tried again: the seat reaches its controls by the board's button from then on."""
        if now() - seats.since.get(seat, 0.0) < PANEL_LIFETIME and await self._refresh_panel(
            seats.panels[seat], board
        ):
            return True
        seats.panels.pop(seat, None)
        seats.since.pop(seat, None)
        return False

    async def _reachable(self, ctx: TableContext, cog: GameCog, seats: _Seats, seat: int) -> bool:
        """Whether a board for the seat can be shown: an open panel, or a DM Discord has not refused."""
        if seat in seats.panels:
            return True
        table_id = ctx.record.id or 0
        slot = dm_slot(seat)
        refused = await self.slots.get(table_id, slot) is None and await self.slots.has(table_id, slot)
        return cog.private_mode == "dm" and not refused

    async def close(self, ctx: TableContext) -> None:
        """The game ended: every DM and open panel loses its controls and says how it ended."""
        seats = self._channels.pop(ctx.channel_id, _Seats())
        table_id = ctx.record.id or 0
        for seat in range(ctx.players):
            mine = await self.for_seat(ctx, seat)
            title = game_title(ctx.game, mine.locale)
            # "finished" names where the result is: the table's channel or thread, a click away
            said = mine.t(f"table.private_{ctx.record.status}", game=title, channel=ctx.channel_id)
            board = Board(content=said)
            if await self.slots.get(table_id, dm_slot(seat)) is not None:
                await self._deliver_dm(ctx, seat, board)
            elif seat in seats.panels:
                await self._panel(seats, seat, board)
        self.slots.forget(table_id)

    async def _deliver_dm(self, ctx: TableContext, seat: int, board: Board) -> bool:
        """Edit the seat's DM (or send the first one); False when the DM cannot be delivered."""
        table_id = ctx.record.id or 0
        slot = dm_slot(seat)
        message_id = await self.slots.get(table_id, slot)
        if message_id is None and await self.slots.has(table_id, slot):
            return False  # Discord refused this seat's DMs: the player uses "My hand" instead
        user_id = ctx.record.seats[seat].user_id
        try:
            channel = await self._dm_channel(user_id)
        except discord.NotFound:  # the account is gone: nobody to send a hand to
            log.info("seat %s at channel %s has no Discord account any more", seat, ctx.channel_id)
            return False
        try:
            if message_id is not None:
                try:
                    await edit_message(self.bot, channel.id, message_id, board)
                    return True
                except discord.NotFound:
                    log.info("the DM of seat %s at channel %s is gone; sending it anew", seat, ctx.channel_id)
            message = await channel.send(**board.send_kwargs())
        except discord.Forbidden as error:
            if error.code != DM_CLOSED:
                raise
            log.info("DMs closed for seat %s at channel %s", seat, ctx.channel_id)
            await self.slots.set(table_id, slot, None)
            await self._tell_dms_closed(ctx, seat)
            return False
        await self.slots.set(table_id, slot, message.id)
        return True

    async def _dm_channel(self, user_id: int) -> discord.PartialMessageable | discord.DMChannel:
        """The user's DM channel: looked up once, then addressed by its id alone."""
        known = self._dm_channels.get(user_id)
        if known is not None:
            return self.bot.get_partial_messageable(known, type=discord.ChannelType.private)
        user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
        channel = user.dm_channel or await user.create_dm()
        self._dm_channels[user_id] = channel.id
        return channel

    async def _tell_dms_closed(self, ctx: TableContext, seat: int) -> None:
        """Once per game: the player learns in the channel why no DM comes, and what to use instead."""
        text = ctx.t("table.dms_closed", player=ctx.ping(seat), button=ctx.t("table.private_button.dm"))
        mention = discord.AllowedMentions(users=[discord.Object(ctx.record.seats[seat].user_id)])
        try:
            await self.bot.get_partial_messageable(ctx.channel_id).send(text, allowed_mentions=mention)
        except discord.HTTPException:
            log.warning("could not tell seat %s at channel %s that its DMs are closed", seat, ctx.channel_id)

    async def _refresh_panel(self, interaction: discord.Interaction, board: Board) -> bool:
        try:
            await interaction.edit_original_response(**board.edit_kwargs())
            return True
        except discord.HTTPException:
            return False  # the ephemeral token expired or the panel was dismissed


def _key(mine: TableContext[S, A, V, PV], cog: GameCog[S, A, V, PV], seat: int) -> object:
    """The cog's key for the seat's board, with what the machinery knows every board reads: the
    seat's language, the table (a new game in the channel), its status and its seats' names and flags."""
    record = mine.record
    seats = tuple((other.user_id, other.name, other.computer, other.level) for other in record.seats)
    return (mine.locale, record.id, record.status, seats, cog.private_key(mine, seat))
