"""Private hands and panels: DM first, an ephemeral "My hand" / "Open my dice" message as fallback.

Each seat's private board is sent again only when it changed (a digest per seat). A DM is
edited in place turn after turn; its message id lives in the table's message slots, written
by its own statement, so a move committed while a DM is on its way never loses it. When
Discord refuses a DM (50007) the seat is marked and the player uses the board's button, whose
ephemeral message is then kept up to date through its interaction token.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from collections import defaultdict
from dataclasses import dataclass, field

import discord
from discord.ext import commands

from cogs.tables.context import TableContext
from cogs.tables.gamecog import GameCog
from cogs.tables.slots import MessageSlots, dm_slot
from cogs.tables.ui import Board

log = logging.getLogger(__name__)

DM_CLOSED = 50007  # Discord: "Cannot send messages to this user"


@dataclass
class _Seats:
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    panels: dict[int, discord.Interaction] = field(default_factory=dict)
    digests: dict[int, str] = field(default_factory=dict)
    away: set[int] = field(default_factory=set)  # seats a computer plays, told so in their DM/panel


class PrivateHands:
    def __init__(self, bot: commands.Bot, slots: MessageSlots) -> None:
        self.bot = bot
        self.slots = slots
        self._channels: dict[int, _Seats] = defaultdict(_Seats)

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
        if interaction is None:
            return
        old = seats.panels.get(seat)
        seats.panels[seat] = interaction
        if opened and old is not None:
            await self._refresh_panel(old, Board(content=ctx.t("table.private_moved")))

    async def sync(self, ctx: TableContext, cog: GameCog) -> None:
        """Bring every human seat's private board up to date; an ended game closes them."""
        if cog.private_mode == "none":
            return
        if not ctx.record.is_open:
            await self.close(ctx)
            return
        seats = self._channels[ctx.channel_id]
        async with seats.lock:
            for seat, seat_record in enumerate(ctx.record.seats):
                if seat_record.computer:
                    # The player left or timed out three times: their controls say so, once.
                    if seat not in seats.away:
                        seats.away.add(seat)
                        seats.digests.pop(seat, None)
                        away = ctx.t("table.private_away", game=ctx.game.title, group=cog.group)
                        await self._show(ctx, cog, seats, seat, Board(content=away))
                    continue
                seats.away.discard(seat)
                board = cog.render_private(ctx, seat)
                if board is None:
                    continue
                fingerprint = digest(board)
                if seats.digests.get(seat) != fingerprint and await self._show(ctx, cog, seats, seat, board):
                    seats.digests[seat] = fingerprint

    async def _show(self, ctx: TableContext, cog: GameCog, seats: _Seats, seat: int, board: Board) -> bool:
        """The seat's DM if the game uses DMs and it can be delivered, else its open panel."""
        delivered = cog.private_mode == "dm" and await self._deliver_dm(ctx, seat, board)
        if not delivered and seat in seats.panels:
            delivered = await self._refresh_panel(seats.panels[seat], board)
        return delivered

    async def close(self, ctx: TableContext) -> None:
        """The game ended: every DM and open panel loses its controls and says how it ended."""
        board = Board(content=ctx.t(f"table.private_{ctx.record.status}", game=ctx.game.title))
        seats = self._channels.pop(ctx.channel_id, _Seats())
        table_id = ctx.record.id or 0
        for seat in range(ctx.players):
            if await self.slots.get(table_id, dm_slot(seat)) is not None:
                await self._deliver_dm(ctx, seat, board)
            elif seat in seats.panels:
                await self._refresh_panel(seats.panels[seat], board)
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
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
        except discord.NotFound:  # the account is gone: nobody to send a hand to
            log.info("seat %s at channel %s has no Discord account any more", seat, ctx.channel_id)
            return False
        try:
            channel = user.dm_channel or await user.create_dm()
            if message_id is not None:
                try:
                    await channel.get_partial_message(message_id).edit(**board.edit_kwargs())
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


def digest(board: Board) -> str:
    """A fingerprint of what a board shows, to skip sending the same thing twice."""
    payload = {
        "content": board.content,
        "embed": board.embed.to_dict() if board.embed else None,
        "items": [item.to_component_dict() for item in board.items],  # type: ignore[attr-defined]
        "files": [file.filename for file in board.files],
    }
    return hashlib.sha256(json.dumps(payload, sort_keys=True, default=str).encode()).hexdigest()
