"""The public board of every table: posting it, editing it (coalesced, latest wins), retiring it.

"Post the board and remember its message id" happens here and nowhere else. A game cog's
`published(ctx)` hook is told whenever the channel's board shows a new state.

Every edit request is cheap to make: requests coalesce (one edit in flight per channel, then one
more with the latest state), and a board drawn exactly as the one published is not sent at all (a
digest of the last published board per channel). A game whose board carries a slow picture
(`GameCog.draws_picture`) has a click on it acknowledged at once, and the picture drawn off the event loop.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import json
import logging
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import discord
from discord.ext import commands

from cogs.kit.adapter import clicked_message
from cogs.kit.messages import Board, answer_by_editing, edit_message
from cogs.tables.boards import table_board
from cogs.tables.context import TableContext, now
from cogs.tables.gamecog import GameCog
from cogs.tables.slots import BOARD, MessageSlots

log = logging.getLogger(__name__)

ARCHIVED_THREAD = 50083  # Discord's code for "the thread is archived": its messages cannot be edited


@dataclass
class _Channel:
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    refresher: asyncio.Task[None] | None = None
    pausing: asyncio.Task[None] | None = None  # the refresher while it waits (`due`): stopped if due sooner
    due: float = float("-inf")  # when (`now()`) the next edit is due: a move that may wait (`request`)
    dirty: bool = False
    published_version: int = -1
    published_digest: str | None = None  # what the board shows now, as `digest` fingerprints it
    last_edit: float = float("-inf")


class Publisher:
    def __init__(
        self,
        bot: commands.Bot,
        slots: MessageSlots,
        games: dict[str, GameCog],
        latest: Callable[[int], Awaitable[TableContext | None]],
    ) -> None:
        self.bot = bot
        self.slots = slots
        self.games = games
        self.latest = latest  # the channel's open table, else its last one
        self._channels: dict[int, _Channel] = defaultdict(_Channel)
        self.followers: list[Callable[[TableContext], None]] = []  # told of every state a board shows
        self._hurry = False  # the bot is stopping: no edit waits any more (`flush`)

    def close(self) -> None:
        for channel in self._channels.values():
            if channel.refresher is not None:
                channel.refresher.cancel()

    async def flush(self, within: float) -> bool:
        """The bot is stopping: every edit still waiting (for the real-time rate, or for the next move:
        `board_wait`) is made now, and so is any asked for meanwhile. True when all were done within
        `within` seconds."""
        self._hurry = True
        for channel_id, channel in list(self._channels.items()):
            if channel.refresher is not None and channel.pausing is channel.refresher:
                channel.refresher.cancel()  # it waits: a new one edits at once instead
                channel.refresher = None
            if channel.dirty and (channel.refresher is None or channel.refresher.done()):
                channel.refresher = asyncio.create_task(self._refresh(channel_id))
        running = [c.refresher for c in self._channels.values() if c.refresher and not c.refresher.done()]
        if not running:
            return True
        _, late = await asyncio.wait(running, timeout=within)
        return not late

    def draw(self, ctx: TableContext) -> Board:
        return table_board(ctx, self.games[ctx.record.game_id])

    async def _draw(self, ctx: TableContext) -> Board:
        """The board; a slow picture is drawn in a worker thread, so other tables' clicks go on."""
        if self.games[ctx.record.game_id].draws_picture(ctx) and ctx.state is not None:
            return await asyncio.to_thread(self.draw, ctx)
        return self.draw(ctx)

    async def is_board(self, interaction: discord.Interaction, ctx: TableContext) -> bool:
        """Whether a click came from the table's public board (rather than a DM or a panel)."""
        clicked, _ = clicked_message(interaction)
        return (
            interaction.type == discord.InteractionType.component
            and clicked is not None
            and clicked == await self.slots.get(ctx.record.id or 0, BOARD)
        )

    # ------------------------------------------------------------ new board messages

    async def post(self, ctx: TableContext, interaction: discord.Interaction | None = None) -> int | None:
        """Post the board as a new message — the answer to `interaction` if one is given — and make
        it the table's board. Returns the id of the board it replaces, if any."""
        channel = self._channels[ctx.channel_id]
        async with channel.lock:
            board = await self._draw(ctx)
            if interaction is not None:
                await interaction.response.send_message(**board.send_kwargs())
                message = await interaction.original_response()
            else:
                message = await self.bot.get_partial_messageable(ctx.channel_id).send(**board.send_kwargs())
            table_id = ctx.record.id or 0
            previous = await self.slots.get(table_id, BOARD)
            await self.slots.set(table_id, BOARD, message.id)
            channel.published_version = ctx.version
            channel.published_digest = digest(board)
        self._published(ctx)
        return previous

    async def answer_with_board(self, interaction: discord.Interaction, ctx: TableContext) -> None:
        """Answer a click on the board by editing it to show `ctx`; a board with a slow picture is
        acknowledged at once and edited right after, outside the caller's lock (`request`)."""
        if self.games[ctx.record.game_id].draws_picture(ctx) and ctx.state is not None:
            await interaction.response.defer()
            self.request(ctx.channel_id)
            return
        channel = self._channels[ctx.channel_id]
        async with channel.lock:
            board = self.draw(ctx)
            await answer_by_editing(interaction, board)
            channel.published_version = ctx.version
            channel.published_digest = digest(board)
        self._published(ctx)

    async def retire(self, channel_id: int, message_id: int, note: str) -> None:
        """An old board becomes a card of its one note line (pointing to the new one), its buttons
        gone: a card cannot keep the old text without fetching it."""
        try:
            await edit_message(self.bot, channel_id, message_id, Board(content=note))
        except discord.HTTPException:
            log.debug("could not retire message %s in %s", message_id, channel_id)

    async def send(self, channel_id: int, **kwargs: Any) -> discord.Message | None:
        """A message of its own in the channel (announcements, results); a failure is only logged."""
        try:
            return await self.bot.get_partial_messageable(channel_id).send(**kwargs)
        except discord.HTTPException:
            log.warning("could not post in channel %s", channel_id, exc_info=True)
            return None

    # ------------------------------------------------------------ edits, coalesced

    def request(self, channel_id: int, wait: float = 0.0) -> None:
        """Ask for the board to show the latest state; requests coalesce and the latest state wins.
        `wait`: seconds the edit may wait for the next move (`GameCog.board_wait`), which then shows
        in the same edit; a request without it is served at once, also when one is waiting."""
        channel = self._channels[channel_id]
        channel.dirty = True
        # The table's clock (simulated in tests), as every deadline; stopping, nothing waits.
        due = now() + (0.0 if self._hurry else wait)
        if channel.refresher is None or channel.refresher.done():
            channel.due = due
            channel.refresher = asyncio.create_task(self._refresh(channel_id))
            return
        channel.due = min(channel.due, due)
        if channel.pausing is channel.refresher:
            # It waits: a new one weighs the wait again (sooner due, or the game no longer in play).
            channel.refresher.cancel()
            channel.refresher = asyncio.create_task(self._refresh(channel_id))

    async def _refresh(self, channel_id: int) -> None:
        channel = self._channels[channel_id]
        loop = asyncio.get_running_loop()
        while channel.dirty:
            ctx = await self.latest(channel_id)
            if ctx is None:
                channel.dirty = False
                return
            # A real-time game in play has its board edited at a bounded rate (Discord's edit limit
            # per channel), and a move that may wait for the next one waits until it is due. A lobby's
            # or an ended table's edit goes at once: players' commands pace those, and a rate wait
            # there only held up the board (and left a refresher asleep long after the table ended).
            playing = ctx.record.status == "playing"
            interval = self.games[ctx.record.game_id].board_refresh_interval if playing else 0.0
            wait = max(channel.last_edit + interval - loop.time(), channel.due - now())
            if wait > 0 and not self._hurry:
                channel.pausing = asyncio.current_task()
                try:
                    await asyncio.sleep(wait)
                finally:
                    if channel.pausing is asyncio.current_task():
                        channel.pausing = None
                continue  # the wait is over: look again
            channel.dirty = False
            try:
                await self._edit(channel_id)
            except (discord.NotFound, discord.Forbidden) as gone:  # the channel was deleted or closed to us
                log.warning("board of channel %s cannot be shown: %s", channel_id, gone)
            except Exception:
                log.exception("board refresh failed in channel %s", channel_id)
            channel.last_edit = loop.time()

    async def _edit(self, channel_id: int) -> None:
        channel = self._channels[channel_id]
        async with channel.lock:
            ctx = await self.latest(channel_id)
            if ctx is None or ctx.version <= channel.published_version:
                return
            message_id = await self.slots.get(ctx.record.id or 0, BOARD)
            if ctx.record.status == "finished":  # the results message shows the end: the board goes
                await self._remove(ctx, message_id)
                channel.published_version = ctx.version
                return
            if message_id is not None:
                board = await self._draw(ctx)
                fingerprint = digest(board)
                try:
                    if fingerprint != channel.published_digest:  # else nothing visible changed
                        try:
                            await edit_message(self.bot, channel_id, message_id, board)
                        except discord.HTTPException as error:
                            if error.code != ARCHIVED_THREAD:
                                raise
                            # The table's thread went quiet for longer than the server's archive time:
                            # it comes back to life for the move (the board drawn anew: a failed edit
                            # may have consumed its files).
                            await self.bot.http.edit_channel(channel_id, archived=False)
                            await edit_message(self.bot, channel_id, message_id, await self._draw(ctx))
                    channel.published_version = ctx.version
                    channel.published_digest = fingerprint
                except discord.NotFound:
                    log.info("board message of channel %s is gone; posting a new one", channel_id)
                    message_id = None
        if message_id is None:
            await self.post(ctx)  # drawn anew: a failed edit may have consumed the board's files
        else:
            self._published(ctx)

    async def _remove(self, ctx: TableContext, message_id: int | None) -> None:
        """Delete a finished game's board (/replay still shows it), and never post it again."""
        if message_id is None:
            return
        try:
            await self.bot.get_partial_messageable(ctx.channel_id).get_partial_message(message_id).delete()
        except discord.HTTPException:
            log.debug("could not delete the board %s in %s", message_id, ctx.channel_id)
        await self.slots.set(ctx.record.id or 0, BOARD, None)

    def _published(self, ctx: TableContext) -> None:
        self.games[ctx.record.game_id].published(ctx)
        for follower in self.followers:
            follower(ctx)


def digest(board: Board) -> str:
    """A fingerprint of what a board shows (its pictures by their bytes), to skip sending it twice."""
    pictures = hashlib.blake2b(digest_size=16)
    for file in board.files:
        if isinstance(file.fp, io.BytesIO):
            pictures.update(file.fp.getbuffer())
        else:  # a file not in memory cannot be compared cheaply: count it as new
            pictures.update(str(id(file)).encode())
    payload = {
        "card": board.card().to_components(),
        "files": [file.filename for file in board.files],
        "pictures": pictures.hexdigest(),
    }
    text = json.dumps(payload, sort_keys=True, default=str)
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()
