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


class PrivateHands:
    def __init__(self, bot: commands.Bot, slots: MessageSlots) -> None:
        self.bot = bot
        self.slots = slots
        self._channels: dict[int, _Seats] = defaultdict(_Seats)

    def shown(
        self, channel_id: int, seat: int, board: Board, interaction: discord.Interaction | None
    ) -> None:
        """The seat now sees `board` (an answered click, or a freshly opened ephemeral panel)."""
        seats = self._channels[channel_id]
        seats.digests[seat] = digest(board)
        if interaction is not None:
            seats.panels[seat] = interaction

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
                    continue
                board = cog.render_private(ctx, seat)
                if board is None:
                    continue
                fingerprint = digest(board)
                if seats.digests.get(seat) == fingerprint:
                    continue
                delivered = cog.private_mode == "dm" and await self._deliver_dm(ctx, seat, board)
                if not delivered and seat in seats.panels:
                    delivered = await self._refresh_panel(seats.panels[seat], board)
                if delivered:
                    seats.digests[seat] = fingerprint

    async def close(self, ctx: TableContext) -> None:
        """The game ended: every DM and open panel loses its controls and says so."""
        board = Board(content=ctx.t("table.private_closed", game=ctx.game.title))
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
            return False
        await self.slots.set(table_id, slot, message.id)
        return True

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
